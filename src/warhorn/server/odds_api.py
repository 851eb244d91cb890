"""Exact battle odds over HTTP: the standalone calculator and the odds of a seat's planned attack.

* ``GET /odds``: the calculator page; ``GET /api/odds/nerath``: the pieces and guardian tiles it offers;
  ``POST /api/odds/nerath``: the odds of any battle described in the request (as ``warhorn odds nerath``).
* ``POST /api/seat/{token}/odds`` ``{"action": {...}}``: the odds of the battle that one of the seat's
  legal actions would start (a move, sail or landing onto an enemy space, or a declared fight), computed
  only from public facts: the attacker's pieces that would stand there and the defenders every player
  sees. Guardians still face down are not known, so a dungeon's odds average over the tiles that could
  lie there (the tiles neither face up nor defeated), each as likely as its copies.

Every refusal is a 4xx with a message; the computation runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable
from itertools import permutations
from typing import TYPE_CHECKING, Annotated, Any

import pydantic
from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from warhorn.engine import WarhornError
from warhorn.games.nerath.battle import (
    BUILTIN_GUARDIANS,
    PIECE_IDS,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    guardian_from,
)
from warhorn.games.nerath.odds import BattleOdds, OutcomeProbability, battle_odds
from warhorn.games.nerath.pieces import PIECES
from warhorn.server import pages
from warhorn.server.errors import ApiError

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState
    from warhorn.server.hub import GameHub

#: Most pieces one side of a calculator battle may have (keeps one request's work bounded).
MAX_SIDE_PIECES = 60
#: Most guardians a calculator dungeon may hold.
MAX_GUARDIANS = 6
#: Most face-down guardians the seat odds average over (2 → at most a few hundred tile pairs).
MAX_UNKNOWN_GUARDIANS = 2

PieceCount = Annotated[int, pydantic.Field(ge=0, le=MAX_SIDE_PIECES)]


class OddsRequest(pydantic.BaseModel):
    """A battle for the calculator: the same choices as ``warhorn odds nerath``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    attacker: dict[str, PieceCount] = pydantic.Field(max_length=len(PIECES) * 4)
    defender: dict[str, PieceCount] = pydantic.Field(default_factory=dict, max_length=len(PIECES) * 4)
    sea: bool = False
    dungeon: list[Annotated[str, pydantic.Field(max_length=64)]] = pydantic.Field(
        default_factory=list, max_length=MAX_GUARDIANS
    )
    retreat_below: int | None = pydantic.Field(default=None, ge=0, le=MAX_SIDE_PIECES)
    rounds: int | None = pydantic.Field(default=None, ge=1, le=50)
    double_up: bool = False
    top: int = pydantic.Field(default=5, ge=1, le=50)

    @pydantic.field_validator("attacker", "defender")
    @classmethod
    def _bounded(cls, value: dict[str, int]) -> dict[str, int]:
        if sum(value.values()) > MAX_SIDE_PIECES:
            raise ValueError(f"at most {MAX_SIDE_PIECES} pieces per side")
        return value


class SeatOddsRequest(pydantic.BaseModel):
    """One of the seat's legal actions (its JSON, as listed in the payload's ``legal``)."""

    model_config = pydantic.ConfigDict(extra="forbid")

    action: dict[str, Any]
    version: int | None = pydantic.Field(default=None, ge=0)


def guardian_tiles() -> dict[str, Guardian]:
    """Guardians the calculator knows: the rulebook's three and the shipped tiles."""
    lookup = dict(BUILTIN_GUARDIANS)
    try:
        from warhorn.server.board_nerath import _shipped_content

        lookup.update({g.id: guardian_from(g) for g in _shipped_content().guardians})
    except (ImportError, OSError, WarhornError):
        pass
    return lookup


def calculator_catalog() -> dict[str, Any]:
    """What the calculator page offers: piece types and guardian tiles."""
    return {
        "pieces": [
            {"id": p.id, "name": p.name, "cost": p.cost, "sea": bool(p.sea_dice), "castle": p.castle}
            for p in PIECES.values()
        ],
        "guardians": [
            {"id": g.id, "name": g.name, "dice": list(g.dice), "first_strike": g.first_strike}
            for g in sorted(guardian_tiles().values(), key=lambda g: g.name)
        ],
    }


def calculate(body: OddsRequest) -> dict[str, Any]:
    """The calculator's answer; :class:`ApiError` 422 for an impossible battle or unknown name."""
    retreat = None
    if body.retreat_below is not None or body.rounds is not None:
        retreat = RetreatRule(at_or_below=body.retreat_below, after_rounds=body.rounds)
    try:
        result = battle_odds(
            dict(body.attacker),
            dict(body.defender) if body.defender else None,
            sea=body.sea,
            dungeon=list(body.dungeon) or None,
            guardians=guardian_tiles() if body.dungeon else None,
            retreat=retreat,
            double_up=body.double_up,
        )
    except ArmyError as exc:
        raise ApiError(422, "bad_battle", str(exc)) from None
    return result.to_json(top=body.top)


# --- odds of a seat's planned attack ---------------------------------------------------------


def _target_of(state: NerathState, action: Any) -> tuple[NerathState, int]:
    """The position after ``action`` and the space where it makes the current kingdom fight."""
    from warhorn.games.nerath.actions import Fight, Move, ShipMove, Unload
    from warhorn.games.nerath.board import DUNGEON
    from warhorn.games.nerath.pieces import PIECES as TABLE

    k = state.current_kingdom
    if isinstance(action, Fight):
        return state, state.board.idx(action.space)
    if isinstance(action, Move | ShipMove):
        targets = [action.path[-1]]
    elif isinstance(action, Unload):
        targets = list(dict.fromkeys(space for _piece, space in action.drops))
    else:
        raise ApiError(
            422,
            "not_an_attack",
            f"{action.notation()!r} starts no battle: only moves, sails, landings and fights do",
        )
    after, _events = state.apply(action)
    fights = []
    for sid in targets:
        t = after.board.idx(sid)
        own = [u for u in after.units_at(t) if u.kingdom == k]
        if after.board.kind[t] == DUNGEON:
            if any(TABLE[u.ptype].hero for u in own):
                fights.append(t)
        elif after.is_enemy(t, k) and own:
            fights.append(t)
    if not fights:
        raise ApiError(
            422,
            "not_an_attack",
            f"{action.notation()!r} ends on no enemy space: it declares no attack (NER-MOV-02)",
        )
    if len(fights) > 1:
        raise ApiError(422, "not_an_attack", "this landing starts two battles; ask for each one separately")
    return after, fights[0]


def _tile_draws(pool: Counter[str], n: int) -> list[tuple[float, tuple[str, ...]]]:
    """Each multiset of ``n`` tiles drawn without replacement from ``pool``, with its probability."""
    if n == 0:
        return [(1.0, ())]
    total = sum(pool.values())
    out: dict[tuple[str, ...], float] = {}
    for seq in set(permutations([t for t, c in pool.items() for _ in range(min(c, n))], n)):
        p, left, remaining = 1.0, Counter(pool), total
        for tile in seq:
            p *= left[tile] / remaining
            left[tile] -= 1
            remaining -= 1
        key = tuple(sorted(seq))
        out[key] = out.get(key, 0.0) + p
    return [(p, key) for key, p in sorted(out.items())]


def _mixture(parts: Iterable[tuple[float, BattleOdds]]) -> BattleOdds:
    """The odds of a battle whose defender is one of several, each with its probability."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0][1]

    def avg(name: str) -> float:
        return sum(w * float(getattr(o, name)) for w, o in parts)

    def avg_map(name: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for w, o in parts:
            for key, value in getattr(o, name).items():
                out[key] = out.get(key, 0.0) + w * value
        return out

    outcomes: dict[tuple[Any, ...], float] = {}
    for w, o in parts:
        for oc in o.outcomes:
            key = (
                oc.result,
                tuple(oc.attacker.items()),
                tuple(sorted(oc.defender.items())),
                oc.castle_captured,
            )
            outcomes[key] = outcomes.get(key, 0.0) + w * oc.probability
    listed = sorted(
        (
            OutcomeProbability(BattleOutcome(r), dict(a), dict(d), p, c)
            for (r, a, d, c), p in outcomes.items()
        ),
        key=lambda oc: -oc.probability,
    )
    return BattleOdds(
        attacker_win=avg("attacker_win"),
        defender_win=avg("defender_win"),
        mutual_destruction=avg("mutual_destruction"),
        attacker_retreats=avg("attacker_retreats"),
        expected_rounds=avg("expected_rounds"),
        attacker_survivors=avg_map("attacker_survivors"),
        defender_survivors=avg_map("defender_survivors"),
        attacker_gold_lost=avg("attacker_gold_lost"),
        defender_gold_lost=avg("defender_gold_lost"),
        expected_reward_gold=avg("expected_reward_gold"),
        outcomes=tuple(listed),
    )


def attack_odds(state: NerathState, action: Any) -> dict[str, Any]:
    """The odds of the battle ``action`` (legal now) would start, from public facts only."""
    from warhorn.games.nerath.board import DUNGEON, KINGDOM_IDS
    from warhorn.games.nerath.rules.battles import _guardian_model, side_model
    from warhorn.games.nerath.rules.dungeons import unseen_guardian_tiles
    from warhorn.games.nerath.state import BattleState

    after, t = _target_of(state, action)
    k = state.current_kingdom
    kind = after.board.kind[t]
    probe = after.copy()
    probe.d.battle = BattleState(t, "dungeon" if kind == DUNGEON else kind, k)
    attacker = side_model(probe, defenders=False)
    sea = kind == "sea"
    double_up = bool(after.options.get("damage_doubling"))
    answer: dict[str, Any] = {
        "space": after.board.sid(t),
        "space_name": after.board.names[t],
        "kind": probe.d.battle.kind,
        "attacker_kingdom": KINGDOM_IDS[k],
        "attacker": attacker.counts(),
    }
    try:
        if kind == DUNGEON:
            slots = after.d.guardians.get(t, ())
            known = [g for g in slots if g.face_up]
            hidden = len(slots) - len(known)
            if hidden > MAX_UNKNOWN_GUARDIANS:
                raise ApiError(
                    422,
                    "unknown_guardians",
                    f"{hidden} guardians lie face down there: too many unknowns to average",
                )
            pool = unseen_guardian_tiles(after)
            zero = (0,) * len(PIECE_IDS)
            parts = []
            for weight, tiles in _tile_draws(pool, hidden):
                gs = tuple(_guardian_model(after, tile) for tile in [*(g.tile for g in known), *tiles])
                dice = tuple([*(g.dice for g in known), *(g.dice for g in gs[len(known) :])])
                defender = BattleSide(zero, zero, gs, dice, None, frozenset())
                parts.append((weight, battle_odds(attacker, defender, double_up=double_up)))
            odds = _mixture(parts)
            answer["defender"] = {}
            answer["guardians"] = [g.tile for g in known]
            answer["guardians_face_down"] = hidden
        else:
            defender = side_model(probe, defenders=True)
            odds = battle_odds(attacker, defender, sea=sea, double_up=double_up)
            answer["defender"] = defender.counts()
            answer["defender_kingdoms"] = sorted({KINGDOM_IDS[u.kingdom] for u in after.enemy_units_at(t, k)})
    except ArmyError as exc:
        raise ApiError(422, "no_battle", f"no battle can be fought there: {exc}") from None
    answer["odds"] = odds.to_json(top=5)
    return answer


def seat_attack_odds(state: Any, seat: int, action_json: dict[str, Any]) -> dict[str, Any]:
    """Check that ``action_json`` is a legal action of the seat's own decision, then its battle's odds."""
    from warhorn.engine import MalformedActionError

    if state.spec.id != "nerath":
        raise ApiError(
            404, "no_odds", f"battle odds are offered for Conquest of Nerath, not {state.spec.id!r}"
        )
    decision = state.pending()
    if decision is None:
        raise ApiError(409, "game_over", "the game is over: no battle is coming")
    if decision.player != seat:
        raise ApiError(403, "not_your_decision", f"the pending decision belongs to seat {decision.player}")
    try:
        action = state.decode(action_json)
    except MalformedActionError as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    except WarhornError as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    if not state.is_legal(action):
        err = state.why_illegal(action)
        raise ApiError(422, "illegal", str(err), rule=err.rule)
    return attack_odds(state, action)


# --- routes ---------------------------------------------------------------------------------


def add_odds_routes(app: FastAPI, hub: GameHub) -> None:
    """Add the odds page and endpoints to ``app``."""

    @app.get("/odds", response_class=HTMLResponse)
    async def odds_page() -> HTMLResponse:
        return HTMLResponse(pages.odds_page())

    @app.get("/api/odds/nerath")
    async def odds_catalog() -> dict[str, Any]:
        return calculator_catalog()

    @app.post("/api/odds/nerath")
    async def odds_calculate(body: OddsRequest) -> dict[str, Any]:
        return await asyncio.to_thread(calculate, body)

    @app.post("/api/seat/{token}/odds")
    async def seat_odds(token: str, body: SeatOddsRequest) -> dict[str, Any]:
        live, seat = await hub.seat_for(token)
        if body.version is not None and body.version != live.version:
            raise ApiError(409, "stale", f"the game is at version {live.version}", version=live.version)
        return await asyncio.to_thread(seat_attack_odds, live.state, seat, body.action)
