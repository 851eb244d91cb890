"""Live games: the in-memory cache of each game's current state, its lock, its watchers and its AI seats.

The database is the authority; this cache is rebuilt from it by replaying the
stored actions (a restarted server resumes every game exactly: the replay must
pass through the stored digest). The digest (a hash of the whole state, costly
for a large game) is stored as a checkpoint, with the version it belongs to: at
creation, every ``DIGEST_EVERY`` actions and at the end of the game. Actions
of one game are applied one at a time under that game's asyncio lock; each is
stored, with its events, before the cache moves on, and the (game, action
number) key in the database is the last guard.

Only the current state is kept per game (not every past state as
:class:`warhorn.engine.Match` does), so long games cost little memory; the
save download is built from the stored action log.

What a seat sees is sent as JSON built once per (game version, seat): the
answer to an action and the live stream share it (see
:meth:`GameHub.seat_payload_json`). A page's live stream does not send again
the version the page received as the answer to its own action.

The server assumes one process per database. If another writer stored an
action first, the write is refused, the cached game is dropped and rebuilt
from the database on next access.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import re
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from pydantic_core import to_json

from warhorn.ai.agents import AGENTS, Agent, Budget, make_agent
from warhorn.engine import (
    Action,
    ActionError,
    AmbiguousActionError,
    Event,
    GameState,
    IllegalActionError,
    MalformedActionError,
    Rng,
    SaveFile,
    WarhornError,
    events_for,
    game_spec,
    load_game,
    undoable_actions,
)
from warhorn.server.database import storage_problem
from warhorn.server.errors import ApiError, not_found
from warhorn.server.limits import ServerLimits
from warhorn.server.store import (
    GameRecord,
    GameStore,
    InviteRecord,
    SeatRecord,
    StaleWriteError,
    event_from_record,
)

log = logging.getLogger("warhorn.server")

HUMAN = "human"
_MASK = (1 << 64) - 1
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_GAME_ID_SHAPE = re.compile(r"^[0-9a-f]{1,32}$")
#: What a page shows of a game: its version, AI error, undo count and rematch (see LiveGame.shown).
Shown = tuple[int, str | None, int, str | None]
#: The key of a spectator (who sees only public facts) where a seat's index would be.
SPECTATOR = -1
MAX_SEED = (1 << 63) - 1
#: The event kind of an AI seat's reason for its action, and the longest reason kept.
AI_REASON = "ai_reason"
MAX_REASON_CHARS = 300
#: How many actions the stored digest may lag behind the game (see the module's docstring).
DIGEST_EVERY = 16
#: The longest wait, in seconds, between an AI seat's tries to store its action while storage fails.
STORAGE_RETRY_MAX_SECONDS = 5.0
#: How many legal-action entries (notation and JSON) :func:`legal_entry_json` keeps.
LEGAL_ENTRY_CACHE_SIZE = 16_384
_legal_entries: dict[Action, bytes] = {}


def legal_entry_json(action: Action) -> bytes:
    """``{"notation": ..., "action": ...}`` for one legal action, as JSON bytes.

    Actions are values (frozen dataclasses; their notation and JSON depend on their fields only),
    and most legal actions stay legal from one version to the next, so the entries are kept, by
    action, for every game (cleared when full).
    """
    try:
        return _legal_entries[action]
    except KeyError:
        pass
    except TypeError:  # an unhashable field: not kept
        return to_json({"notation": action.notation(), "action": action.to_json()})
    entry = to_json({"notation": action.notation(), "action": action.to_json()})
    if len(_legal_entries) >= LEGAL_ENTRY_CACHE_SIZE:
        _legal_entries.clear()
    _legal_entries[action] = entry
    return entry


def _with_fields(obj: bytes, **fields: bytes) -> bytes:
    """The JSON object ``obj`` with more fields given as JSON bytes (``obj`` must not hold them)."""
    more = b",".join(b'"%s":%s' % (name.encode(), value) for name, value in fields.items())
    return obj[:-1] + (b"," if len(obj) > 2 else b"") + more + b"}"


def results_record(state: GameState) -> dict[str, Any] | None:
    """How a finished game ended as its record keeps it (None while it goes on), with ``seat_names``:
    what each seat played as the game names it (a kingdom, a hero, a race), for the lobby's list."""
    results = state.results()
    if results is None:
        return None
    return {**results.to_json(), "seat_names": state.seat_roles()}


def ai_rng(ai_seed: int, number: int) -> Rng:
    """The generator an AI seat uses to choose action ``number`` of a game: reproducible, per action."""
    return Rng((ai_seed * 0x9E3779B97F4A7C15 + number * 0xBF58476D1CE4E5B9) & _MASK)


def reason_event(seat: SeatRecord, reason: str, events: list[Event]) -> Event | None:
    """An AI seat's one-line reason for its action, as an event shown with the action's events.

    Only seats that see every event of the action in full see the reason: it is public when all
    of them are public, otherwise visible to the seats in every event's audience (None when the
    reason is empty).
    """
    line = " ".join(reason.split())
    if not line:
        return None
    if len(line) > MAX_REASON_CHARS:
        line = line[: MAX_REASON_CHARS - 1] + "…"
    audience: frozenset[int] | None = None
    for event in events:
        if event.visible_to is not None:
            audience = event.visible_to if audience is None else audience & event.visible_to
    return Event(
        AI_REASON,
        {"seat": seat.seat, "agent": seat.kind, "reason": line},
        f"{seat.kind} AI (seat {seat.seat}): {line}",
        visible_to=audience,
    )


def _die_with_parent(parent: int) -> None:
    """In an AI worker process: end when the server process ends, however it ends (even SIGKILL), so
    that no worker is left behind searching or waiting for work that never comes (Linux)."""
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the server ended before the line above
        os._exit(0)


def seat_kinds() -> list[str]:
    """What a seat may be: a human, or one of the AI agents."""
    return [HUMAN, *sorted(AGENTS)]


@dataclass(eq=False)
class Watcher:
    """One open live stream: woken after every change of its game.

    ``id`` names the stream to its page, which sends it with its actions; ``delivered`` is the
    (version, AI error) the page received as the answer to its last action, which the stream then
    does not send again.
    """

    #: The seat whose page it is (``SPECTATOR`` for a watch page).
    seat: int
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    delivered: Shown | None = None


@dataclass(eq=False)
class LiveGame:
    record: GameRecord
    state: GameState
    actions: list[dict[str, Any]]
    events: list[list[Event]]
    #: The seat that chose each action (for undo: back to a human seat's last decision).
    action_seats: list[int]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    ai_task: asyncio.Task[None] | None = None
    ai_error: str | None = None
    #: ``ai_error`` says the storage failed: the AI seats go on trying and clear it when a write works.
    ai_waits_for_storage: bool = False
    retired: bool = False
    deleted: bool = False
    #: How many times actions were taken back (undo) since the server loaded the game: a page holding
    #: another count reloads (its version may be ahead of the game's now).
    undos: int = 0
    #: Per seat of this finished game: the token of the same seat in its rematch (see ``record.rematch``).
    rematch_tokens: dict[int, str] = field(default_factory=dict)
    #: Per seat (``SPECTATOR`` for the public): what its state (without events) was built for, and
    #: that state as JSON.
    seat_states: dict[int, tuple[Shown, bytes]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.record.id

    def shown(self) -> Shown:
        """What a page shows of the game: its version, AI error, undo count and rematch (a change of
        any is sent to the live streams)."""
        return (self.record.version, self.ai_error, self.undos, self.record.rematch)

    @property
    def version(self) -> int:
        return self.record.version

    def seat(self, index: int) -> SeatRecord:
        return self.record.seats[index]


class ResumeError(Exception):
    """A stored game cannot be rebuilt exactly (unknown game, other content or rules, replay differs)."""


def rebuild(record: GameRecord, store: GameStore) -> LiveGame:
    """Replay a stored game from its seed and actions; check it passes through the stored digest."""
    try:
        spec = game_spec(record.game)
        if spec.rules_version != record.rules_version:
            raise ResumeError(
                f"it was played under rules version {record.rules_version}; this server has "
                f"{spec.rules_version}"
            )
        state = load_game(record.game, seed=record.seed, **record.options)
        if state.content_hash != record.content_hash:
            raise ResumeError("it was played with different content (board or cards) than loaded now")
        stored = store.actions(record.id)
        if [a.number for a in stored] != list(range(1, len(stored) + 1)) or len(stored) != record.version:
            raise ResumeError(
                f"its action log is incomplete ({len(stored)} actions, version {record.version})"
            )
        if not 0 <= record.digest_version <= record.version:
            raise ResumeError(f"its digest is for version {record.digest_version}, not one it had")
        checked = record.digest_version == 0 and _same_digest(state, record)
        for entry in stored:
            state, _ = state.apply(state.decode(entry.action))
            if entry.number == record.digest_version:
                checked = _same_digest(state, record)
    except WarhornError as exc:
        raise ResumeError(str(exc)) from None
    if not checked:
        raise ResumeError(
            f"replaying its actions does not reach the stored state of version {record.digest_version} "
            "(digest differs)"
        )
    live = LiveGame(
        record,
        state,
        [a.action for a in stored],
        [[event_from_record(e) for e in a.events] for a in stored],
        [a.seat for a in stored],
    )
    if record.rematch is not None:
        rematch = store.get_game(record.rematch)
        if rematch is not None:
            live.rematch_tokens = rematch_tokens(record, rematch)
    return live


def rematch_tokens(record: GameRecord, rematch: GameRecord) -> dict[int, str]:
    """Per human seat of a finished game, the token of the same seat in its rematch (which has the
    same seats): each seat's holder receives its new seat's link through its old seat's page."""
    return {
        old.seat: new.token
        for old, new in zip(record.seats, rematch.seats, strict=False)
        if old.is_human and new.is_human
    }


def _choose_and_explain(agent: Agent, state: GameState, seat: int, rng: Rng) -> tuple[Action, str]:
    """The agent's action and its one-line reason ("" when it gives none or explaining fails)."""
    action = agent.choose(state, seat, rng)
    try:
        reason = agent.explain()
    except Exception:  # an explanation is a courtesy: a failing one must not stop the game
        log.exception("agent %s failed to explain its choice", agent.name)
        reason = ""
    return action, reason if isinstance(reason, str) else ""


def choose_for_seat(
    kind: str, budget: Budget | None, state: GameState, seat: int, rng: Rng
) -> tuple[Action, str]:
    """An AI seat of ``kind`` chooses its action and says why (runs in the AI pool: a thread or a
    worker process)."""
    return _choose_and_explain(make_agent(kind, budget), state, seat, rng)


def _same_digest(state: GameState, record: GameRecord) -> bool:
    return state.digest() == record.digest


class GameHub:
    """Creates, loads, plays and streams games; drives AI seats."""

    def __init__(
        self, store: GameStore, *, ai_delay: float = 0.0, limits: ServerLimits | None = None
    ) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.limits = limits or ServerLimits()
        # AI searches run here, not in the default pool the database work and requests use, so a
        # request never waits in a queue behind them (at most ``ai_workers`` searches at once).
        self._ai_pool: Executor
        if self.limits.ai_pool == "processes":
            # forked, so that the workers know every game this process registered (tests register some)
            self._ai_pool = ProcessPoolExecutor(
                max_workers=self.limits.ai_workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_die_with_parent,
                initargs=(os.getpid(),),
            )
        else:
            self._ai_pool = ThreadPoolExecutor(
                max_workers=self.limits.ai_workers, thread_name_prefix="warhorn-ai"
            )
        self._ai_budget = (
            Budget(seconds=self.limits.ai_think_seconds) if self.limits.ai_think_seconds is not None else None
        )
        self._games: dict[str, LiveGame] = {}
        self._broken: dict[str, str] = {}
        self._tokens: dict[str, tuple[str, int]] = {}
        self._watchers: dict[str, Watcher] = {}
        self._load_lock = asyncio.Lock()
        self._closing = False
        self._streams_closed = False
        self._resuming: asyncio.Task[None] | None = None

    # --- life cycle ------------------------------------------------------------
    async def start(self) -> None:
        """Resume every unfinished game in the background, so that the server answers at once.

        A game asked for before its turn comes is rebuilt then (:meth:`get`); AI seats go on as soon
        as their game is rebuilt.
        """
        self._resuming = asyncio.get_running_loop().create_task(self._resume_all(), name="resume-games")

    async def _resume_all(self) -> None:
        try:
            game_ids = await asyncio.to_thread(self.store.active_game_ids)
        except Exception:
            log.exception("the unfinished games could not be listed; each is resumed when asked for")
            return
        for game_id in game_ids:
            if self._closing:
                return
            try:
                live = await self.get(game_id)
            except ApiError as exc:
                log.warning("game %s not resumed: %s", game_id, exc.message)
                continue
            self.kick_ai(live)

    async def stop(self) -> None:
        self._closing = True
        if self._resuming is not None:
            self._resuming.cancel()
            with contextlib.suppress(BaseException):  # shutting down
                await self._resuming
        tasks = [g.ai_task for g in self._games.values() if g.ai_task is not None and not g.ai_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):  # shutting down; a failure was logged by the task
                await task
        for live in self._games.values():
            live.retired = True
            self._notify(live)
        self._ai_pool.shutdown(wait=False, cancel_futures=True)
        # a search still running in a worker process is of no use now: end it rather than wait for it
        workers: dict[int, Any] = getattr(self._ai_pool, "_processes", None) or {}
        for process in list(workers.values()):
            with contextlib.suppress(Exception):
                process.terminate()

    @property
    def closing(self) -> bool:
        return self._closing

    def close_streams(self) -> None:
        """The server is stopping: every live stream ends now (its page reconnects when the server is
        back), so that no connection holds the shutdown up."""
        self._streams_closed = True
        for live in self._games.values():
            self._notify(live)

    @property
    def streams_closed(self) -> bool:
        return self._streams_closed

    # --- loading ---------------------------------------------------------------
    async def get(self, game_id: str) -> LiveGame:
        """The live game (rebuilt from the database on first use)."""
        live = self._games.get(game_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            if game_id in self._broken:
                raise self._broken_error(game_id)
            record = await asyncio.to_thread(self.store.get_game, game_id)
            if record is None:
                raise not_found(f"no game {game_id!r}")
            try:
                live = await asyncio.to_thread(rebuild, record, self.store)
            except ResumeError as exc:
                self._broken[game_id] = str(exc)
                log.error("game %s cannot be resumed: %s", game_id, exc)
                raise self._broken_error(game_id) from None
            self._games[game_id] = live
            for seat in record.seats:
                self._tokens[seat.token] = (game_id, seat.seat)
        self.kick_ai(live)  # a game rebuilt after a refused write (or a restart) goes on by itself
        return live

    def _broken_error(self, game_id: str) -> ApiError:
        return ApiError(409, "cannot_resume", f"game {game_id} cannot be resumed: {self._broken[game_id]}")

    def _forget(self, live: LiveGame) -> None:
        if self._games.get(live.id) is live:
            del self._games[live.id]
        live.retired = True
        self._notify(live)

    async def seat_for(self, token: str) -> tuple[LiveGame, int]:
        """The game and seat a private token stands for (404 for an unknown token or an AI seat's)."""
        if not _TOKEN_SHAPE.match(token):
            raise not_found("no seat has this token (check that you copied the whole link)")
        found = self._tokens.get(token)
        if found is None:
            found = await asyncio.to_thread(self.store.seat_by_token, token)
            if found is None:
                raise not_found("no seat has this token (check that you copied the whole link)")
        live = await self.get(found[0])
        if not live.seat(found[1]).is_human:
            raise not_found("no seat has this token (check that you copied the whole link)")
        return live, found[1]

    # --- creating ----------------------------------------------------------------
    async def create(
        self,
        game: str,
        options: dict[str, Any],
        seat_list: list[str],
        seed: int | None,
        invites: list[int] | None = None,
    ) -> LiveGame:
        """A new game with one seat per entry of ``seat_list`` ("human" or an AI kind).

        ``invites``: the human seats handed out by invite link (the creator gets an invite code, which
        one player claims once, instead of the seat's token).
        """
        kinds = self.allowed_seat_kinds()
        for index, kind in enumerate(seat_list):
            if kind not in kinds:
                known = "unknown" if kind not in seat_kinds() else "not allowed on this server"
                raise ApiError(
                    422, "bad_seat", f"seat {index}: kind {kind!r} is {known} (allowed: {', '.join(kinds)})"
                )
        invited = set(invites or ())
        for index in sorted(invited):
            if not 0 <= index < len(seat_list) or seat_list[index] != HUMAN:
                raise ApiError(400, "bad_invite", f"invites: seat {index} is not a human seat of this game")
        if self.limits.max_open_games is not None:
            open_games = len(await asyncio.to_thread(self.store.active_game_ids))
            if open_games >= self.limits.max_open_games:
                raise ApiError(
                    429,
                    "too_many_open_games",
                    f"this server keeps at most {self.limits.max_open_games} unfinished games; "
                    "try again when one has ended",
                )
        try:
            spec = game_spec(game)
        except WarhornError as exc:
            raise ApiError(422, "unknown_game", str(exc)) from None
        options = dict(options)
        if "players" in {o.name for o in spec.options} and "players" not in options:
            options["players"] = len(seat_list)
        if seed is None:
            seed = secrets.randbits(63)
        try:
            state = await asyncio.to_thread(lambda: load_game(game, seed=seed, **options))
        except WarhornError as exc:
            raise ApiError(400, "bad_option", str(exc)) from None
        if state.num_players != len(seat_list):
            raise ApiError(
                400,
                "bad_seats",
                f"{spec.name} with these options has {state.num_players} seats; {len(seat_list)} were given",
            )
        now = datetime.now(UTC)
        record = GameRecord(
            id=secrets.token_hex(6),
            game=game,
            options=dict(state.options),
            seed=seed,
            ai_seed=secrets.randbits(63),
            rules_version=spec.rules_version,
            content_hash=state.content_hash,
            created_at=now,
            updated_at=now,
            status="finished" if state.is_terminal else "active",
            version=0,
            digest=state.digest(),
            results=results_record(state),
            seats=[
                SeatRecord(
                    i, kind, secrets.token_urlsafe(24), secrets.token_urlsafe(24) if i in invited else None
                )
                for i, kind in enumerate(seat_list)
            ],
        )
        await asyncio.to_thread(self.store.create_game, record)
        live = LiveGame(record, state, [], [], [])
        self._games[record.id] = live
        for seat in record.seats:
            self._tokens[seat.token] = (record.id, seat.seat)
        self.kick_ai(live)
        return live

    # --- invites -------------------------------------------------------------------
    async def invite(self, code: str) -> InviteRecord:
        """What an invite code hands out (404 for an unknown code)."""
        found = await asyncio.to_thread(self.store.invite, code) if _TOKEN_SHAPE.match(code) else None
        if found is None:
            raise not_found("no seat has this invite (check that you copied the whole link)")
        return found

    async def claim(self, code: str) -> tuple[LiveGame, int, str]:
        """Claim an invite: the game, the seat and its token, handed out this once.

        404 for an unknown code, 409 ``claimed`` when someone claimed it already; a game that cannot
        be resumed is refused (409) before the claim, so that its token is not spent on nothing.
        """
        invite = await self.invite(code)
        live = await self.get(invite.game_id)
        claimed = await asyncio.to_thread(self.store.claim_invite, code)
        if claimed is None:
            raise ApiError(
                409,
                "claimed",
                "this invite was claimed already: someone else holds the seat; "
                "if it was not you, ask the game's creator",
            )
        _game_id, seat, token = claimed
        live.record.seats[seat].claimed = True
        return live, seat, token

    def allowed_seat_kinds(self) -> list[str]:
        """The seat kinds this server accepts: "human" and the allowed AI kinds."""
        allowed = self.limits.ai_kinds
        return [k for k in seat_kinds() if k == HUMAN or allowed is None or k in allowed]

    # --- playing -------------------------------------------------------------------
    async def submit(
        self,
        token: str,
        version: int,
        action_json: dict[str, Any] | None,
        text: str | None,
        stream: str | None = None,
    ) -> tuple[LiveGame, int]:
        """Apply a human seat's action chosen on ``version``; refusals are :class:`ApiError`.

        ``stream``: the id of the live stream of the page that sends the action; the caller answers
        with the seat's new state, so that stream does not send it again.
        """
        live, seat = await self.seat_for(token)
        async with live.lock:
            return await self._submit_locked(live, seat, version, action_json, text, stream)

    async def _submit_locked(
        self,
        live: LiveGame,
        seat: int,
        version: int,
        action_json: dict[str, Any] | None,
        text: str | None,
        stream: str | None = None,
    ) -> tuple[LiveGame, int]:
        if live.retired:
            raise ApiError(409, "stale", "the game changed meanwhile; reload it and choose again")
        state = live.state
        decision = state.pending()
        if decision is None:
            raise ApiError(409, "game_over", "the game is over: no action is accepted")
        if version != live.version:
            raise ApiError(
                409,
                "stale",
                f"your action was chosen on version {version} but the game is at version {live.version}; "
                "look at the new position and choose again",
                version=live.version,
            )
        if decision.player != seat:
            raise ApiError(
                403,
                "not_your_decision",
                f"the pending decision belongs to seat {decision.player}; "
                f"this link acts only for seat {seat}",
            )
        try:
            if text is not None:
                action = state.parse(text)
            elif action_json is not None:
                action = state.decode(action_json)
            else:
                raise ApiError(400, "malformed", "give the action as 'action' (JSON) or 'text' (notation)")
            answered = self._watchers.get(stream) if stream is not None else None
            if answered is not None and (answered.seat != seat or answered not in live.watchers):
                answered = None
            await self._commit(live, seat, action, answered=answered)
        except AmbiguousActionError as exc:
            raise ApiError(400, "ambiguous", str(exc), candidates=list(exc.candidates)) from None
        except MalformedActionError as exc:
            raise ApiError(400, "malformed", str(exc)) from None
        except IllegalActionError as exc:
            raise ApiError(409, "illegal", str(exc), rule=exc.rule) from None
        except ActionError as exc:
            raise ApiError(409, "illegal", str(exc), rule=None) from None
        self.kick_ai(live)
        return live, seat

    async def _commit(
        self, live: LiveGame, seat: int, action: Action, reason: str = "", answered: Watcher | None = None
    ) -> None:
        """Apply ``action`` for ``seat``, store it with its events, then move the cache on (lock held).

        ``reason``: an AI seat's explanation, stored with the action as one more event (see
        :func:`reason_event`). ``answered``: the live stream whose page gets the new state as the
        answer to this action.
        """
        after, events = live.state.apply(action)
        explained = reason_event(live.seat(seat), reason, events) if reason else None
        if explained is not None:
            events = [explained, *events]
        number = live.version + 1
        status = "finished" if after.is_terminal else "active"
        action_json = action.to_json()
        results_json = results_record(after)
        checkpoint = after.is_terminal or number - live.record.digest_version >= DIGEST_EVERY
        digest = after.digest() if checkpoint else None
        try:
            await asyncio.to_thread(
                self.store.append_action,
                live.id,
                number=number,
                seat=seat,
                action=action_json,
                events=events,
                status=status,
                digest=digest,
                results=results_json,
            )
        except StaleWriteError as exc:
            log.warning("%s; reloading game %s from the database", exc, live.id)
            self._forget(live)
            raise ApiError(409, "stale", "the game changed meanwhile; reload it and choose again") from None
        live.state = after
        live.actions.append(action_json)
        live.events.append(events)
        live.action_seats.append(seat)
        live.record.version = number
        live.record.status = status
        live.record.results = results_json
        live.record.updated_at = datetime.now(UTC)
        if digest is not None:
            live.record.digest, live.record.digest_version = digest, number
        if answered is not None:
            answered.delivered = live.shown()
        self._notify(live)

    # --- AI seats ------------------------------------------------------------------
    def _ai_seat_to_move(self, live: LiveGame) -> SeatRecord | None:
        if live.retired or live.deleted or self._closing:
            return None
        if live.ai_error is not None and not live.ai_waits_for_storage:
            return None
        decision = live.state.pending()
        if decision is None:
            return None
        seat = live.seat(decision.player)
        return None if seat.is_human else seat

    def kick_ai(self, live: LiveGame) -> None:
        """Start the game's AI driver if an AI seat must decide and none is running."""
        if live.ai_task is not None and not live.ai_task.done():
            return
        if self._ai_seat_to_move(live) is None:
            return
        live.ai_task = asyncio.get_running_loop().create_task(self._drive_ai(live), name=f"ai-{live.id}")

    async def _drive_ai(self, live: LiveGame) -> None:
        """Let AI seats act, one action at a time, until a human must decide or the game ends.

        When the storage fails (read-only, disk full, database unreachable) the seats say so in
        ``ai_error`` and try again, waiting longer each time (up to ``STORAGE_RETRY_MAX_SECONDS``); the
        first write that works clears it. The action chosen is kept for the retries of its version.
        """
        seat: SeatRecord | None = None
        retry_in = 0.0
        chosen: tuple[tuple[int, int], Action, str] | None = None
        try:
            while True:
                if retry_in:
                    await asyncio.sleep(retry_in)
                elif self.ai_delay:
                    await asyncio.sleep(self.ai_delay)
                async with live.lock:
                    seat = self._ai_seat_to_move(live)
                    if seat is None:
                        return
                    # an undo meanwhile may bring the game back to the same version in another position
                    if chosen is None or chosen[0] != (live.version, live.undos):
                        rng = ai_rng(live.record.ai_seed, live.version + 1)
                        action, reason = await asyncio.get_running_loop().run_in_executor(
                            self._ai_pool,
                            functools.partial(
                                choose_for_seat, seat.kind, self._ai_budget, live.state, seat.seat, rng
                            ),
                        )
                        chosen = ((live.version, live.undos), action, reason)
                    try:
                        await self._commit(live, seat.seat, chosen[1], chosen[2])
                    except sa.exc.SQLAlchemyError as exc:
                        problem = storage_problem(exc)
                        if problem is None:
                            raise
                        retry_in = min(max(2 * retry_in, 0.25), STORAGE_RETRY_MAX_SECONDS)
                        if not live.ai_waits_for_storage:
                            log.warning("AI of game %s waits for the storage: %s", live.id, problem)
                        live.ai_error = (
                            f"the AI seats wait: {problem}; they go on by themselves when it works again"
                        )
                        live.ai_waits_for_storage = True
                        self._notify(live)
                        continue
                    retry_in = 0.0
                    if live.ai_waits_for_storage:
                        log.info("AI of game %s goes on: the storage works again", live.id)
                        live.ai_error, live.ai_waits_for_storage = None, False
                        self._notify(live)
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except ApiError as exc:
            log.warning("AI of game %s stopped: %s", live.id, exc.message)
        except Exception as exc:
            who = f"seat {seat.seat} ({seat.kind})" if seat is not None else "an AI seat"
            # every seat reads this: the exception's own text may name a hidden card, so only the log has it
            live.ai_error = f"{who} failed ({type(exc).__name__}); the details are in the server's log"
            live.ai_waits_for_storage = False
            log.exception("AI of game %s failed", live.id)
            self._notify(live)

    # --- undo (hotseat games) ---------------------------------------------------------
    def undo_size(self, live: LiveGame) -> int | None:
        """How many actions an undo takes back now (the last action a human seat chose and every AI
        action after it), or None when undo is not offered: only in a running hotseat game (every
        human seat played in the creator's browser, none by invite) and never across a roll, draw or
        shuffle (the engine's undo rules, :func:`warhorn.engine.undoable_actions`)."""
        if live.record.status != "active" or any(s.invite is not None for s in live.record.seats):
            return None
        humans = [i for i, seat in enumerate(live.action_seats) if live.seat(seat).is_human]
        if not humans:
            return None
        count = live.version - humans[-1]
        return count if undoable_actions(live.events[-count:]) >= count else None

    async def undo(self, token: str, version: int) -> tuple[LiveGame, int]:
        """Take back the last human decision of a hotseat game (and the AI actions after it)."""
        live, seat = await self.seat_for(token)
        async with live.lock:
            if live.retired:
                raise ApiError(409, "stale", "the game changed meanwhile; reload it and choose again")
            if version != live.version:
                raise ApiError(
                    409,
                    "stale",
                    f"undo was asked on version {version} but the game is at version {live.version}",
                    version=live.version,
                )
            if any(s.invite is not None for s in live.record.seats):
                raise ApiError(
                    403, "undo_refused", "undo is offered only in hotseat games (no seat played by invite)"
                )
            count = self.undo_size(live)
            if count is None:
                raise ApiError(
                    409,
                    "undo_refused",
                    "nothing can be undone: undo takes back the last human decision, never a roll, draw "
                    "or shuffle, and not once the game is over",
                )
            keep = live.version - count
            record = live.record

            def replay() -> GameState:
                state = load_game(record.game, seed=record.seed, **record.options)
                for action_json in live.actions[:keep]:
                    state, _ = state.apply(state.decode(action_json))
                return state

            state = await asyncio.to_thread(replay)
            digest = state.digest()
            try:
                await asyncio.to_thread(
                    self.store.take_back, live.id, previous=live.version, keep=keep, digest=digest
                )
            except StaleWriteError as exc:
                log.warning("%s; reloading game %s from the database", exc, live.id)
                self._forget(live)
                raise ApiError(409, "stale", "the game changed meanwhile; reload and choose again") from None
            live.state = state
            del live.actions[keep:], live.events[keep:], live.action_seats[keep:]
            record.version, record.status, record.results = keep, "active", None
            record.digest, record.digest_version = digest, keep
            record.updated_at = datetime.now(UTC)
            live.undos += 1
            live.seat_states.clear()
            self._notify(live)
        self.kick_ai(live)
        return live, seat

    # --- rematch -------------------------------------------------------------------------
    async def rematch(self, token: str) -> tuple[LiveGame, LiveGame, int]:
        """The rematch of a finished game: same game, options and seats, a new seed (made once; asked
        again, the same one). Returns (old game, rematch, seat of ``token``)."""
        live, seat = await self.seat_for(token)
        async with live.lock:
            if live.record.status != "finished":
                raise ApiError(409, "not_finished", "a rematch is offered once the game is over")
            if live.record.rematch is not None:
                return live, await self.get(live.record.rematch), seat
            record = live.record
            created = await self.create(
                record.game, dict(record.options), [s.kind for s in record.seats], None, []
            )
            await asyncio.to_thread(self.store.set_rematch, live.id, created.id)
            record.rematch = created.id
            live.rematch_tokens = rematch_tokens(record, created.record)
            self._notify(live)
        return live, created, seat

    def seat_names(self, game_id: str) -> list[str] | None:
        """What each seat of a game in memory plays, as the game names it (None: not loaded, or no
        names)."""
        live = self._games.get(game_id)
        return live.state.seat_roles() if live is not None else None

    # --- spectators ----------------------------------------------------------------------
    async def watched(self, game_id: str) -> LiveGame:
        """The game a watch link shows (404 for an unknown id)."""
        if not _GAME_ID_SHAPE.match(game_id):
            raise not_found(f"no game {game_id!r}")
        return await self.get(game_id)

    # --- watching ------------------------------------------------------------------
    def watch(self, live: LiveGame, seat: int, watcher: Watcher | None = None) -> Watcher:
        """Register a live stream of ``seat`` (a new one, or ``watcher`` moving to a reloaded game)."""
        if watcher is None:
            watcher = Watcher(seat)
        watcher.seat = seat
        live.watchers.add(watcher)
        self._watchers[watcher.id] = watcher
        return watcher

    def unwatch(self, live: LiveGame, watcher: Watcher) -> None:
        live.watchers.discard(watcher)
        self._watchers.pop(watcher.id, None)

    def _notify(self, live: LiveGame) -> None:
        for watcher in live.watchers:
            watcher.wake.set()

    # --- finishing -------------------------------------------------------------------
    async def delete(self, game_id: str, token: str) -> None:
        """Delete a finished (or unresumable) game; ``token`` must be one of its human seats."""
        found = self._tokens.get(token) if _TOKEN_SHAPE.match(token) else None
        if found is None and _TOKEN_SHAPE.match(token):
            found = await asyncio.to_thread(self.store.seat_by_token, token)
        if found is None or found[0] != game_id:
            raise ApiError(403, "forbidden", "deleting a game needs the private link of one of its seats")
        record = await asyncio.to_thread(self.store.get_game, game_id)
        if record is None:
            raise not_found(f"no game {game_id!r}")
        if not record.seats[found[1]].is_human:
            raise ApiError(403, "forbidden", "deleting a game needs the private link of one of its seats")
        if record.status != "finished" and game_id not in self._broken:
            raise ApiError(409, "not_finished", "only finished games can be deleted")
        await asyncio.to_thread(self.store.delete_game, game_id)
        live = self._games.pop(game_id, None)
        self._broken.pop(game_id, None)
        for seat in record.seats:
            self._tokens.pop(seat.token, None)
        if live is not None:
            live.deleted = True
            self._notify(live)

    # --- what a seat sees --------------------------------------------------------------
    def seat_events(self, live: LiveGame, seat: int, after: int) -> list[dict[str, Any]]:
        """The events of actions after version ``after``, as ``seat`` may see them, numbered.

        Only the actions after ``after`` are looked at (an answer to an action holds one action's).
        """
        out: list[dict[str, Any]] = []
        player = None if seat == SPECTATOR else seat
        for number in range(max(after, 0) + 1, live.version + 1):
            for index, event in enumerate(events_for(live.events[number - 1], player)):
                out.append({"action": number, "index": index, **event.to_json()})
        return out

    def seat_payload_json(self, live: LiveGame, seat: int, after: int = 0) -> bytes:
        """Everything one seat may know about its game now (and the events after ``after``), as JSON.

        The state without the events is built once per (version, AI error, undo count, rematch) and
        seat, and shared by every request and live stream of that seat. ``seat`` ``SPECTATOR``: what
        anyone watching may know (the public view and events, no decision's prompt, no links).
        """
        key = live.shown()
        cached = live.seat_states.get(seat)
        if cached is None or cached[0] != key:
            cached = (key, self._seat_state_json(live, seat))
            live.seat_states[seat] = cached
        return _with_fields(cached[1], events=to_json(self.seat_events(live, seat, after)))

    def _seat_state_json(self, live: LiveGame, seat: int) -> bytes:
        state = live.state
        decision = state.pending()
        spectator = seat == SPECTATOR
        yours = decision is not None and decision.player == seat
        pending: dict[str, Any] | None = None
        if decision is not None:
            # Another seat learns who decides and what kind of decision it is, not the prompt,
            # which a game may word with facts only the decider may know.
            pending = {
                "player": decision.player,
                "kind": decision.kind,
                "rule": decision.rule,
                "yours": yours,
            }
            if yours:
                pending["prompt"] = decision.prompt
                auto = state.auto_answer()
                if auto is not None:  # the page sends it unless its player turned auto-pass off
                    pending["auto_answer"] = auto.to_json()
        results = state.results()
        rematch: dict[str, Any] | None = None
        if live.record.rematch is not None:
            rematch = {"game_id": live.record.rematch, "watch": f"/watch/{live.record.rematch}"}
            token = live.rematch_tokens.get(seat)
            if token is not None:  # this seat's own seat in the rematch: only its page gets the link
                rematch["link"] = f"/play/{token}"
        head = to_json(
            {
                "game_id": live.id,
                "game": live.record.game,
                "game_name": state.spec.name,
                "seat": None if spectator else seat,
                "seats": [{"seat": s.seat, "kind": s.kind} for s in live.record.seats],
                "seat_names": state.seat_roles(),
                "version": live.version,
                "status": live.record.status,
                "view": state.view(None if spectator else seat),
                "pending": pending,
                "results": results.to_json() if results is not None else None,
                "ai_error": live.ai_error,
                "undos": live.undos,
                "undo": None if spectator else self.undo_size(live),
                "rematch": rematch,
            }
        )
        legal = b",".join([legal_entry_json(a) for a in state.legal_actions()]) if yours else b""
        return _with_fields(head, legal=b"[" + legal + b"]")

    def save_file(self, live: LiveGame) -> SaveFile:
        """The JSON save (seed and every action): it reveals all hidden facts, so only once finished."""
        if live.record.status != "finished":
            raise ApiError(
                403,
                "save_hidden",
                "the save holds the seed and so every hidden card and die; "
                "it is available once the game is over",
            )
        return SaveFile(
            game=live.record.game,
            rules_version=live.record.rules_version,
            content_hash=live.record.content_hash,
            seed=live.record.seed,
            options=live.record.options,
            actions=list(live.actions),
            final_digest=live.state.digest(),
        )
