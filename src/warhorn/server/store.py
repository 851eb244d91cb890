"""Persistence of games, seats and actions (synchronous; the web layer calls it from worker threads).

Every action is stored in one transaction with its events and the game's new
version, status and digest. A write whose version is no longer current (the
row changed, or the (game, number) key is taken) raises :class:`StaleWriteError`
and changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from warhorn.engine import Event
from warhorn.server.database import actions, games, seats

# The statements of :meth:`GameStore.append_action`, built once: building them per call (``values()``
# with the values in it) cost more than the rest of the write.
_MOVE_ON = (
    games.update()
    .where(games.c.id == sa.bindparam("game_id"), games.c.version == sa.bindparam("previous"))
    .values(
        version=sa.bindparam("number"),
        status=sa.bindparam("status"),
        results=sa.bindparam("results"),
        updated_at=sa.bindparam("updated_at"),
    )
)
_MOVE_ON_WITH_DIGEST = _MOVE_ON.values(digest=sa.bindparam("digest"), digest_version=sa.bindparam("number"))
_STORE_ACTION = actions.insert().values(
    game_id=sa.bindparam("game_id"),
    number=sa.bindparam("number"),
    seat=sa.bindparam("seat"),
    action=sa.bindparam("action"),
    events=sa.bindparam("events"),
    created_at=sa.bindparam("created_at"),
)


class StaleWriteError(Exception):
    """The game moved on (another writer stored this action number first)."""


@dataclass
class SeatRecord:
    seat: int
    kind: str
    token: str
    #: The invite code of a human seat handed out by invite link (None: the creator got the token).
    invite: str | None = None
    #: Whether a player claimed the invite (and so holds the token).
    claimed: bool = False

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def invite_status(self) -> str | None:
        """``open``, ``claimed``, or None for a seat not handed out by invite."""
        if self.invite is None:
            return None
        return "claimed" if self.claimed else "open"


@dataclass(frozen=True)
class InviteRecord:
    """What an invite code stands for."""

    game_id: str
    game: str
    seat: int
    claimed: bool


@dataclass
class GameRecord:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    ai_seed: int
    rules_version: str
    content_hash: str
    created_at: datetime
    updated_at: datetime
    status: str
    version: int
    digest: str
    results: dict[str, Any] | None
    seats: list[SeatRecord] = field(default_factory=list)
    digest_version: int = 0  # the version whose state ``digest`` is
    #: The id of the game started as this finished game's rematch (None: none yet).
    rematch: str | None = None


@dataclass
class ActionRecord:
    number: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def event_to_record(event: Event) -> dict[str, Any]:
    """The whole event, hidden parts and audience included (it never leaves the server as is)."""
    return {
        "kind": event.kind,
        "data": dict(event.data),
        "text": event.text,
        "chance": event.chance,
        "visible_to": sorted(event.visible_to) if event.visible_to is not None else None,
        "public_data": dict(event.public_data) if event.public_data is not None else None,
        "public_text": event.public_text,
    }


def event_from_record(data: dict[str, Any]) -> Event:
    visible = data.get("visible_to")
    return Event(
        data["kind"],
        data.get("data") or {},
        data.get("text", ""),
        bool(data.get("chance", False)),
        frozenset(visible) if visible is not None else None,
        data.get("public_data"),
        data.get("public_text"),
    )


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class GameStore:
    """The database side of the server."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite has one writer at a time; threads that collide get SQLITE_BUSY and sleep in its busy
        # handler (1 ms, 2 ms, 5 ms...). Queueing them on a lock here is much faster under load.
        self._write_lock: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )

    # --- games ---------------------------------------------------------------
    def create_game(self, record: GameRecord) -> None:
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(
                games.insert().values(
                    id=record.id,
                    game=record.game,
                    options=dumps(record.options),
                    seed=record.seed,
                    ai_seed=record.ai_seed,
                    rules_version=record.rules_version,
                    content_hash=record.content_hash,
                    created_at=record.created_at,
                    updated_at=record.updated_at,
                    status=record.status,
                    version=record.version,
                    digest=record.digest,
                    digest_version=record.digest_version,
                    results=dumps(record.results) if record.results is not None else None,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "game_id": record.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "token": s.token,
                        "invite": s.invite,
                        "claimed_at": None,
                    }
                    for s in record.seats
                ],
            )

    def _records(self, where: Any = None) -> list[GameRecord]:
        query = sa.select(games).order_by(games.c.created_at.desc(), games.c.id)
        if where is not None:
            query = query.where(where)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
            ids = [r["id"] for r in rows]
            seat_rows = (
                conn.execute(
                    sa.select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)
                )
                .mappings()
                .all()
                if ids
                else []
            )
        by_game: dict[str, list[SeatRecord]] = {}
        for s in seat_rows:
            by_game.setdefault(s["game_id"], []).append(
                SeatRecord(s["seat"], s["kind"], s["token"], s["invite"], s["claimed_at"] is not None)
            )
        return [
            GameRecord(
                id=r["id"],
                game=r["game"],
                options=json.loads(r["options"]),
                seed=int(r["seed"]),
                ai_seed=int(r["ai_seed"]),
                rules_version=r["rules_version"],
                content_hash=r["content_hash"],
                created_at=_aware(r["created_at"]),
                updated_at=_aware(r["updated_at"]),
                status=r["status"],
                version=int(r["version"]),
                digest=r["digest"],
                results=json.loads(r["results"]) if r["results"] is not None else None,
                seats=by_game.get(r["id"], []),
                digest_version=int(r["digest_version"]),
                rematch=r["rematch"],
            )
            for r in rows
        ]

    def list_games(self) -> list[GameRecord]:
        return self._records()

    def active_game_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(games.c.id).where(games.c.status == "active")).scalars())

    def get_game(self, game_id: str) -> GameRecord | None:
        found = self._records(games.c.id == game_id)
        return found[0] if found else None

    def seat_by_token(self, token: str) -> tuple[str, int] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(seats.c.game_id, seats.c.seat).where(seats.c.token == token)).first()
        return (row[0], int(row[1])) if row is not None else None

    # --- invites ---------------------------------------------------------------
    def invite(self, code: str) -> InviteRecord | None:
        """The seat an invite code hands out (None for an unknown code)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(seats.c.game_id, games.c.game, seats.c.seat, seats.c.claimed_at)
                .join(games, games.c.id == seats.c.game_id)
                .where(seats.c.invite == code)
            ).first()
        return InviteRecord(row[0], row[1], int(row[2]), row[3] is not None) if row is not None else None

    def claim_invite(self, code: str) -> tuple[str, int, str] | None:
        """Mark the invite claimed and return (game id, seat, token); None when it was claimed already
        (or is unknown). Only one claim of a code ever succeeds."""
        with self._write_lock, self.engine.begin() as conn:
            claimed = conn.execute(
                seats.update()
                .where(seats.c.invite == code, seats.c.claimed_at.is_(None))
                .values(claimed_at=datetime.now(UTC))
            ).rowcount
            if claimed != 1:
                return None
            row = conn.execute(
                sa.select(seats.c.game_id, seats.c.seat, seats.c.token).where(seats.c.invite == code)
            ).one()
        return row[0], int(row[1]), row[2]

    def set_rematch(self, game_id: str, rematch_id: str) -> None:
        """Record ``rematch_id`` as the rematch of the finished game ``game_id``."""
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(games.update().where(games.c.id == game_id).values(rematch=rematch_id))

    def take_back(self, game_id: str, *, previous: int, keep: int, digest: str) -> None:
        """Undo: delete the actions after ``keep`` of a game at version ``previous``, which goes on from
        version ``keep`` (active, no results, ``digest`` that version's). Raises
        :class:`StaleWriteError` when the game is not at ``previous``."""
        with self._write_lock, self.engine.begin() as conn:
            moved = conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.version == previous)
                .values(
                    version=keep,
                    status="active",
                    results=None,
                    digest=digest,
                    digest_version=keep,
                    updated_at=datetime.now(UTC),
                )
            ).rowcount
            if moved != 1:
                raise StaleWriteError(f"game {game_id} is no longer at version {previous}")
            conn.execute(actions.delete().where(actions.c.game_id == game_id, actions.c.number > keep))

    def delete_game(self, game_id: str) -> bool:
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(actions.delete().where(actions.c.game_id == game_id))
            conn.execute(seats.delete().where(seats.c.game_id == game_id))
            gone = conn.execute(games.delete().where(games.c.id == game_id)).rowcount
        return bool(gone)

    # --- actions -------------------------------------------------------------
    def actions(self, game_id: str) -> list[ActionRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(actions.c.number, actions.c.seat, actions.c.action, actions.c.events)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.number)
            ).all()
        return [ActionRecord(int(n), int(s), json.loads(a), json.loads(e)) for n, s, a, e in rows]

    def append_action(
        self,
        game_id: str,
        *,
        number: int,
        seat: int,
        action: dict[str, Any],
        events: list[Event],
        status: str,
        digest: str | None,
        results: dict[str, Any] | None,
    ) -> None:
        """Store action ``number`` (= the game's version after it) with its events, atomically.

        ``digest`` is the state's digest after the action, stored as the game's new checkpoint; None
        keeps the checkpoint stored before. Raises :class:`StaleWriteError` when the game is not at
        version ``number - 1``.
        """
        now = datetime.now(UTC)
        # Each statement gets exactly its parameters: a key named like a column of the table would be
        # written to that column too.
        move_on = {
            "game_id": game_id,
            "previous": number - 1,
            "number": number,
            "status": status,
            "results": dumps(results) if results is not None else None,
            "updated_at": now,
        }
        if digest is not None:
            move_on["digest"] = digest
        stored = {
            "game_id": game_id,
            "number": number,
            "seat": seat,
            "action": dumps(action),
            "events": dumps([event_to_record(e) for e in events]),
            "created_at": now,
        }
        try:
            with self._write_lock, self.engine.begin() as conn:
                move = _MOVE_ON_WITH_DIGEST if digest is not None else _MOVE_ON
                if conn.execute(move, move_on).rowcount != 1:
                    raise StaleWriteError(f"game {game_id} is no longer at version {number - 1}")
                conn.execute(_STORE_ACTION, stored)
        except sa.exc.IntegrityError as exc:
            raise StaleWriteError(f"action {number} of game {game_id} is already stored") from exc
