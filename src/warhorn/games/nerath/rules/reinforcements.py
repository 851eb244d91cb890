"""Phase 5: buying and placing new pieces (NER-REI-01..08); moving them is in :mod:`.movement`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.games.nerath.actions import Buy
from warhorn.games.nerath.board import LAND, SEA
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import cards, movement

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Placement limit at a castle other than the capital (NER-REI-03).
CASTLE_LIMIT = 4


def usable_castles(s: NerathState, k: int) -> list[int]:
    """Castles where new pieces may appear: own, held since the turn began, not captured this turn
    (NER-REI-02/04), except the own capital retaken this turn."""
    out = []
    for space in s.own_castles(k):
        if space in s.d.new_castles:
            continue
        retaken_capital = s.board.capitals[k] == space and s.d.control[space] == k
        if space in s.d.captured and not retaken_capital:
            continue
        if s.d.control_at_start[space] != k and not retaken_capital:
            continue
        if s.d.control[space] != k:
            continue
        out.append(space)
    return out


def _limit(s: NerathState, k: int, castle: int, castles: list[int]) -> int | None:
    if castle == s.board.capitals[k] or len(s.own_castles(k)) == 1:
        return None  # NER-REI-03: capital and a lone castle have no limit
    return CASTLE_LIMIT


def _placed(s: NerathState, castle: int) -> int:
    return sum(n for c, n in s.d.placed if c == castle)


def _has_room(s: NerathState, k: int, castle: int, castles: list[int]) -> bool:
    limit = _limit(s, k, castle, castles)
    return limit is None or _placed(s, castle) < limit


def nearest_to_capital(s: NerathState, k: int) -> list[int]:
    """NER-REI-06: the friendly territories nearest to the kingdom's capital."""
    cap = s.board.capitals[k]
    own = [i for i in range(len(s.board)) if s.board.kind[i] == LAND and s.d.control[i] == k]
    if not own or cap < 0:
        return own
    dist = {i: s.board.graph.distance_i(cap, i) for i in own}
    reachable = [i for i in own if dist[i] >= 0]
    if not reachable:
        return own
    best = min(dist[i] for i in reachable)
    return [i for i in reachable if dist[i] == best]


def placements(s: NerathState, k: int, ptype: str, rooms: list[int] | None = None) -> list[tuple[int, int]]:
    """(space, castle it counts against or -1) pairs where a new ``ptype`` may go now.

    ``rooms``: the usable castles that still have room (:func:`open_castles`), when the
    caller has them already.
    """
    stats = PIECES[ptype]
    board = s.board
    kind = board.kind
    out: list[tuple[int, int]] = []
    if stats.castle:  # NER-REI-05
        d = s.d
        castled = {space for spaces in s.index().castles.values() for space in spaces}
        return [
            (i, -1)
            for i in range(len(board))
            if kind[i] == LAND
            and d.control[i] == k
            and d.control_at_start[i] == k
            and i not in castled
            and i not in d.new_pieces_on
        ]
    if not s.own_castles(k):  # NER-REI-06
        if stats.mobility == Mobility.SEA:
            return []
        return [(i, -1) for i in nearest_to_capital(s, k) if i not in s.d.new_castles]
    for c in rooms if rooms is not None else open_castles(s, k):
        if stats.mobility != Mobility.SEA:
            out.append((c, c))
        if stats.mobility == Mobility.SEA or ptype == "elemental":  # NER-REI-07
            for nb in board.neighbors(c):
                if kind[nb] == SEA and s.is_friendly(nb, k):
                    out.append((nb, c))
    return out


def open_castles(s: NerathState, k: int) -> list[int]:
    """The usable castles where new pieces may still be placed (NER-REI-02..04)."""
    castles = usable_castles(s, k)
    return [c for c in castles if _has_room(s, k, c, castles)]


def _buy(s: NerathState, ptype: str, space: int, via: int) -> Buy:
    board = s.board
    return Buy(ptype, board.ids[space], board.ids[via] if via >= 0 and board.kind[space] == SEA else "")


def legal_buys(s: NerathState, k: int) -> list[Buy]:
    """Every buy: each affordable piece type (in :data:`PIECES` order) on each of its placements.

    Kept in the movement memo of the situation (control, seas holding enemies, cards in force:
    :func:`~warhorn.games.nerath.rules.movement.situation_memo`) under what else it depends on:
    gold, the castles, control at the start of the turn, this turn's captures, placements and
    new castles.
    """
    d = s.d
    memo = movement.situation_memo(s, k)
    key = (
        "buys",
        d.gold[k],
        d.placed,
        d.new_castles,
        d.new_pieces_on,
        d.captured,
        d.control_at_start,
        tuple(s.index().castles.items()),
    )
    found: list[Buy] | None = memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = memo[key] = _list_buys(s, k)
    return found


def _list_buys(s: NerathState, k: int) -> list[Buy]:
    gold = s.d.gold[k]
    affordable = [ptype for ptype in PIECES if cards.cost(s, k, ptype) <= gold]
    if not affordable:
        return []
    made: dict[tuple[str, int, int], Buy] = s._memo.setdefault("buys", {})  # the same Buy each time
    out: list[Buy] = []
    room: list[int] | None = None
    for ptype in affordable:
        if room is None:
            room = open_castles(s, k)
        for space, via in placements(s, k, ptype, room):
            buy = made.get((ptype, space, via))
            if buy is None:
                buy = made[(ptype, space, via)] = _buy(s, ptype, space, via)
            out.append(buy)
    return out


def check_buy(s: NerathState, k: int, a: Buy) -> IllegalActionError | None:
    if a.piece not in PIECES:
        return IllegalActionError(f"unknown piece {a.piece!r}")
    cost = cards.cost(s, k, a.piece)
    if cost > s.d.gold[k]:
        return IllegalActionError(
            f"a {a.piece} costs {cost} gold; {s.kingdom_name(k)} has {s.d.gold[k]}", "NER-REI-01"
        )
    if any(_buy(s, a.piece, space, via) == a for space, via in placements(s, k, a.piece)):
        return None
    try:
        space = s.board.idx(a.space)
    except KeyError as exc:
        return IllegalActionError(str(exc.args[0]), "NER-MAP-02")
    if a.piece == "castle":
        if s.castle_at(space) is not None:
            return IllegalActionError("at most one castle per territory", "NER-PCS-05")
        return IllegalActionError(
            "a new castle goes on a territory you held since the start of your turn, with no castle "
            "and no other new pieces",
            "NER-REI-05",
        )
    if s.board.kind[space] == SEA:
        return IllegalActionError(
            "new warships and elementals go on a friendly sea next to one of your usable castles "
            "(name it with via)",
            "NER-REI-07",
        )
    if space in s.d.captured:
        return IllegalActionError("no new pieces at a castle captured this turn", "NER-REI-04")
    castle = s.castle_at(space)
    if castle is not None and castle.kingdom == k and space in usable_castles(s, k):
        return IllegalActionError("at most 4 new pieces at a castle other than your capital", "NER-REI-03")
    if not s.own_castles(k):
        return IllegalActionError(
            "without castles new pieces go to the territories nearest your capital", "NER-REI-06"
        )
    return IllegalActionError(
        "new pieces go on territories with your castle that you held since the start of your turn",
        "NER-REI-02",
    )


def apply_buy(s: NerathState, k: int, a: Buy) -> list[Event]:
    space = s.board.idx(a.space)
    price = cards.cost(s, k, a.piece)
    s.d.gold[k] -= price
    via = s.board.idx(a.via) if a.via else (space if s.castle_at(space) is not None else -1)
    if a.piece == "castle":
        s.add_unit(k, "castle", space, new=True, moved=0)
        s.d.new_castles = s.d.new_castles | {space}
    else:
        s.add_unit(k, a.piece, space, new=True)
        if via >= 0:
            s.d.placed = (*s.d.placed, (via, 1))
        if s.board.kind[space] == LAND:
            s.d.new_pieces_on = s.d.new_pieces_on | {space}
    return [
        Event(
            "buy",
            {"kingdom": k, "piece": a.piece, "space": a.space, "cost": price},
            f"{s.kingdom_name(k)} buys a {a.piece} on {a.space}",
        )
    ]
