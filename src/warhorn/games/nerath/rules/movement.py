"""Moving pieces: phase 2 movement, sea transport, phase 4 reposition moves and phase 5 moves of new pieces.

One set of predicates decides which spaces a piece may enter and move on
from; legal actions enumerate one shortest path per destination with them
(the canonical form: a move is legal when it is listed). The ``check_*``
functions explain with the same predicates why an action that is not listed
is refused, naming the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, product
from operator import itemgetter
from typing import TYPE_CHECKING

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.games.nerath.actions import Buy, Load, Move, ShipMove, Unload
from warhorn.games.nerath.board import DUNGEON, LAND, SEA
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import cards
from warhorn.games.nerath.state import MOVEMENT, REINFORCEMENTS, REPOSITION, Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

Pred = Callable[[int], bool]


class MoveRules:
    """Where a piece type may go in the current phase: enter / continue / end predicates and range."""

    def __init__(self, enter: Pred, cont: Pred, end: Pred, steps: int) -> None:
        self.enter, self.cont, self.end, self.steps = enter, cont, end, steps


def move_bonus(s: NerathState, k: int, ptype: str) -> int:
    """Extra moves from cards for ``k``'s ``ptype`` in this phase (movement and reinforcements only)."""
    if s.d.pos.phase not in (MOVEMENT, REINFORCEMENTS):
        return 0
    memo = _situation(s, k)
    key = ("bonus", ptype)
    bonus = memo.get(key)
    if bonus is None:
        bonus = memo[key] = cards.extra_moves(s, k, ptype)
    return bonus  # type: ignore[return-value]


def move_rules(s: NerathState, k: int, ptype: str, start: int, bonus: int | None = None) -> MoveRules | None:
    """Movement predicates for ``k``'s ``ptype`` leaving ``start`` in this phase (None: may not move)."""
    stats = PIECES[ptype]
    board = s.board
    kind = board.kind
    phase = s.d.pos.phase
    if bonus is None:
        bonus = move_bonus(s, k, ptype)
    mob = stats.mobility
    if mob in (Mobility.IMMOBILE, Mobility.SEA):
        return None
    if phase == MOVEMENT:
        if mob == Mobility.LAND:
            # NER-MOV-02/03/04: land only; stop on entering an enemy space or a dungeon (heroes only).
            def enter(i: int) -> bool:
                return kind[i] == LAND or (kind[i] == DUNGEON and stats.hero)

            def cont(i: int) -> bool:
                return kind[i] == LAND and not s.is_enemy(i, k)

            return MoveRules(enter, cont, lambda i: True, stats.move + bonus)
        # NER-MOV-05: flyers pass over anything, never end on a dungeon.
        return MoveRules(lambda i: True, lambda i: True, lambda i: kind[i] != DUNGEON, stats.move + bonus)
    if phase == REPOSITION:
        if kind[start] == DUNGEON and stats.hero:
            # NER-REP-02: leave to an adjacent friendly territory.
            return MoveRules(
                lambda i: kind[i] == LAND and s.is_friendly(i, k), lambda i: False, lambda i: True, 1
            )
        if mob != Mobility.FLYING:
            return None
        cross = bool(s.options.get("reposition_flyers_cross_enemy", True))

        def r_enter(i: int) -> bool:
            return cross or s.is_friendly(i, k)

        def r_end(i: int) -> bool:  # NER-REP-03 / NER-PCS-06 Hover
            if kind[i] == LAND:
                return s.is_friendly(i, k)
            return kind[i] == SEA and ptype == "elemental" and s.is_friendly(i, k)

        return MoveRules(r_enter, r_enter, r_end, stats.move)
    if phase == REINFORCEMENTS:
        # NER-REI-09: new pieces move to friendly spaces, no battles; flyers may pass over enemies.
        if mob == Mobility.LAND:

            def n_enter(i: int) -> bool:
                return kind[i] == LAND and s.is_friendly(i, k)

            return MoveRules(n_enter, n_enter, lambda i: True, stats.move + bonus)

        def f_end(i: int) -> bool:
            if kind[i] == LAND:
                return s.is_friendly(i, k)
            return kind[i] == SEA and ptype == "elemental" and s.is_friendly(i, k)

        return MoveRules(lambda i: True, lambda i: True, f_end, stats.move + bonus)
    return None


#: Pieces that never make a Move (castles stay, warships sail).
_FIXED = ("castle", "warship")


def movable(s: NerathState, u: Unit) -> bool:
    """Whether this (uncarried) piece may still make a move in the current phase."""
    phase = s.d.pos.phase
    if u.carrier >= 0 or u.moved or u.ptype in _FIXED:
        return False
    if phase == MOVEMENT:
        return not u.done and not u.new
    if phase == REPOSITION:
        if s.board.kind[u.space] == DUNGEON:
            return PIECES[u.ptype].hero
        return PIECES[u.ptype].mobility == Mobility.FLYING
    if phase == REINFORCEMENTS:
        return u.new and not u.done
    return False


def _groups(s: NerathState, k: int) -> dict[tuple[int, str], list[Unit]]:
    groups: dict[tuple[int, str], list[Unit]] = {}
    in_movement = s.d.pos.phase == MOVEMENT
    for u in s.units_of(k):
        # the movement phase's test of movable() written out: this runs for every piece at every step
        if (
            not u.moved and not u.done and not u.new and u.carrier < 0 and u.ptype not in _FIXED
            if in_movement
            else movable(s, u)
        ):
            group = groups.get((u.space, u.ptype))
            if group is None:
                groups[(u.space, u.ptype)] = [u]
            else:
                group.append(u)
    return groups


#: How many movement situations (:func:`_situation`) the shared memo keeps before it starts afresh.
_MEMO_SITUATIONS = 256


def _situation(s: NerathState, k: int) -> dict[tuple[object, ...], object]:
    """The memo of path searches for ``k`` in the situation they depend on.

    Which spaces a piece may enter, pass and end on depends only on the phase,
    the kingdom, who controls each territory, which sea spaces hold enemy pieces
    and the reposition option, and how far it goes on the cards in force: states
    that agree on these share their path searches (the memo is shared by a
    state's copies, so a turn's moves search each group's paths once). A state
    remembers its situation until it changes (``NerathState._situation``).
    """
    known = s._situation
    if known is not None and known[0] == k:
        return known[1]
    units, team = s.d.units, s.team
    mine = team[k]
    occ = s.index().occ
    enemy_seas: list[int] = []
    for space in s.board.seas:
        for uid in occ.get(space, ()):
            if team[units[uid].kingdom] != mine:
                enemy_seas.append(space)
                break
    key = (
        s.d.pos.phase,
        k,
        tuple(s.d.control),
        tuple(enemy_seas),
        bool(s.options.get("reposition_flyers_cross_enemy", True)),
        s.d.effects,
        s.d.treasures_in_play[k],
    )
    memo: dict[tuple[object, ...], dict[tuple[object, ...], object]] = s._memo.setdefault("situations", {})
    found = memo.get(key)
    if found is None:
        if len(memo) >= _MEMO_SITUATIONS:
            memo.clear()
        found = memo[key] = {}
    s._situation = (k, found)
    return found


#: How many entries the game's memo of local path searches (:func:`_local_memo`) keeps before it
#: starts afresh.
_MEMO_LOCAL = 20_000


def _local_memo(s: NerathState) -> dict[tuple[object, ...], object]:
    memo: dict[tuple[object, ...], object] = s._memo.setdefault("local paths", {})
    if len(memo) >= _MEMO_LOCAL:
        memo.clear()
    return memo


def _local_key(s: NerathState, k: int, ptype: str, start: int, bonus: int) -> tuple[object, ...] | None:
    """A key for the paths of ``k``'s ``ptype`` from ``start`` when they depend on less than the whole
    situation (shared by every situation of the game that agrees on it), or None.

    In the movement phase a flyer enters, passes and ends by the kind of space alone (NER-MOV-05);
    a land piece enters by the kind of space, and going at most two spaces it passes only the
    spaces next to ``start``, stopping on an enemy one (NER-MOV-02..04): its paths depend on which
    of those are enemy territories.
    """
    if s.d.pos.phase != MOVEMENT:
        return None
    stats = PIECES[ptype]
    steps = stats.move + bonus
    if stats.mobility == Mobility.FLYING or (stats.mobility == Mobility.LAND and steps == 1):
        return (ptype, start, steps)
    if stats.mobility == Mobility.LAND and steps == 2:
        kind = s.board.kind
        return (
            ptype,
            start,
            steps,
            tuple(nb for nb in s.board.graph.neighbors[start] if kind[nb] == LAND and s.is_enemy(nb, k)),
        )
    return None


def situation_memo(s: NerathState, k: int) -> dict[tuple[object, ...], object]:
    """The memo of the situation :func:`_situation` describes, for other listings that depend on it
    (their keys name what else they depend on)."""
    return _situation(s, k)


def paths_within(s: NerathState, start: int, steps: int, enter: Pred, cont: Pred) -> dict[int, list[int]]:
    """One shortest legal path to every space reachable in ``steps`` (one breadth-first pass)."""
    nbrs = s.board.graph.neighbors
    parent = {start: start}
    frontier = [start]
    for _ in range(steps):
        nxt: list[int] = []
        for here in frontier:
            if here != start and not cont(here):
                continue
            for there in nbrs[here]:
                if there not in parent and enter(there):
                    parent[there] = here
                    nxt.append(there)
        if not nxt:
            break
        frontier = nxt
    out: dict[int, list[int]] = {}
    for dest in parent:
        if dest == start:
            continue
        path = [dest]
        while path[-1] != start:
            path.append(parent[path[-1]])
        out[dest] = path[::-1]
    return out


def destinations(
    s: NerathState,
    k: int,
    ptype: str,
    start: int,
    memo: dict[tuple[object, ...], object] | None = None,
) -> dict[int, list[int]]:
    """Every space the group may end on, with one shortest legal path each (shared: do not change it)."""
    bonus = move_bonus(s, k, ptype)
    memo = _situation(s, k) if memo is None else memo
    key = ("paths", ptype, start, bonus)
    found = memo.get(key)
    if found is None:
        local = _local_key(s, k, ptype, start, bonus)
        shared = _local_memo(s) if local is not None else None
        if shared is not None:
            found = shared.get(("paths", local))
        if found is None:
            rules = move_rules(s, k, ptype, start, bonus)
            if rules is None:
                found = {}
            else:
                paths = paths_within(s, start, rules.steps, rules.enter, rules.cont)
                found = {d: paths[d] for d in sorted(paths) if rules.end(d)}
            if shared is not None:
                shared[("paths", local)] = found
        memo[key] = found
    return found  # type: ignore[return-value]


def _move_row(s: NerathState, ptype: str, names: tuple[str, ...], count: int) -> list[Move]:
    """The moves of 1..``count`` (at least) ``ptype`` along ``names``, made once per game and shared."""
    rows: dict[tuple[str, tuple[str, ...]], list[Move]] = s._memo.setdefault("move rows", {})
    row = rows.get((ptype, names))
    if row is None or len(row) < count:
        row = rows[(ptype, names)] = [Move(ptype, n, names) for n in range(1, count + 1)]
    return row


def _listed_moves(
    s: NerathState,
    k: int,
    ptype: str,
    start: int,
    count: int,
    memo: dict[tuple[object, ...], object],
    bonus: int,
) -> list[Move]:
    """The moves listed for ``count`` movable ``ptype`` on ``start``: each count, one path per destination
    (kept in the situation's memo, or the game's memo of local searches where :func:`_local_key` has one)."""
    key = ("moves", ptype, start, bonus, count)
    moves = memo.get(key)
    if moves is None:
        local = _local_key(s, k, ptype, start, bonus)
        store, group = (memo, (ptype, start, bonus)) if local is None else (_local_memo(s), local)
        moves = store.get(("moves", group, count))
        if moves is None:
            # each destination's moves of 1, 2, ... (at least ``count``) pieces, shared by every count's list
            made: tuple[int, list[list[Move]]] | None = store.get(("by_dest", group))  # type: ignore[assignment]
            if made is None or made[0] < count:
                ids = s.board.ids
                made = store[("by_dest", group)] = (
                    count,
                    [
                        _move_row(s, ptype, tuple(ids[i] for i in path), count)
                        for path in destinations(s, k, ptype, start, memo).values()
                    ],
                )
            moves = store[("moves", group, count)] = list(
                chain.from_iterable(map(itemgetter(slice(0, count)), made[1]))
            )
        memo[key] = moves
    return moves  # type: ignore[return-value]


def _group_counts(s: NerathState, k: int) -> dict[tuple[int, str], int]:
    """How many movable pieces each group (space, piece type) of ``k`` holds, in group order."""
    return {group: len(units) for group, units in sorted(_groups(s, k).items())}


def _group_moves_listed(
    s: NerathState,
    k: int,
    group: tuple[int, str],
    count: int,
    memo: dict[tuple[object, ...], object],
) -> list[Move]:
    """The listed moves of ``count`` movable pieces of one group (each count, one path per destination)."""
    start, ptype = group
    b = move_bonus(s, k, ptype)
    # a card's extra move for so many pieces serves only that many (NER-CRD-04)
    counted = cards.counted_extra_moves(s, k)
    kind, listed = ("counted", _counted_moves) if counted else ("moves", _listed_moves)
    found = memo.get((kind, ptype, start, b, count))  # the turn's lists (as the functions keep them)
    return found if found is not None else listed(s, k, ptype, start, count, memo, b)  # type: ignore[return-value]


def _moves_by_group(
    s: NerathState,
    k: int,
    groups: dict[tuple[int, str], int],
    memo: dict[tuple[object, ...], object],
) -> dict[tuple[int, str], list[Move]]:
    """Each group's listed moves, in group order."""
    return {group: _group_moves_listed(s, k, group, count, memo) for group, count in groups.items()}


def legal_moves(s: NerathState, k: int) -> list[Move]:
    """Every move of the phase: for each group (space, piece type) of movable pieces, each count
    and each destination with one shortest legal path (the canonical form: another path to the
    same destination moves the same pieces to the same place)."""
    parts = _moves_by_group(s, k, _group_counts(s, k), _situation(s, k))
    return list(chain.from_iterable(parts.values()))


class OwnTurnListing:
    """The moves, sails, loads and unloads listed for kingdom ``k`` in one phase of its turn.

    A state keeps the listing it made (``NerathState._listing``) and hands it to the state that
    one of its own moves, sails, loads, unloads or buys leads to, which derives its own from it
    (:func:`derive_listing`) instead of listing every group again. ``effects`` is the card
    modifiers in force it was listed under (another tuple: list afresh); ``groups`` how many
    movable pieces each group holds and ``parts`` each group's moves, both in group order.
    """

    __slots__ = ("effects", "groups", "k", "loads", "memo", "moves", "parts", "phase", "sails", "unloads")

    def __init__(
        self,
        phase: int,
        k: int,
        effects: tuple[tuple[int, object], ...],
        memo: dict[tuple[object, ...], object],
        groups: dict[tuple[int, str], int],
        parts: dict[tuple[int, str], list[Move]],
        sails: list[ShipMove],
        loads: list[Load],
        unloads: list[Unload],
    ) -> None:
        self.phase, self.k, self.effects, self.memo = phase, k, effects, memo
        self.groups, self.parts = groups, parts
        self.moves: list[Move] = list(chain.from_iterable(parts.values()))
        self.sails, self.loads, self.unloads = sails, loads, unloads


def own_turn_listing(s: NerathState, k: int) -> OwnTurnListing:
    """The state's listing for ``k`` in the current phase (made once per state)."""
    known = s._listing
    d = s.d
    if known is not None and known.k == k and known.phase == d.pos.phase and known.effects is d.effects:
        return known
    memo = _situation(s, k)
    groups = _group_counts(s, k)
    listing = s._listing = OwnTurnListing(
        d.pos.phase,
        k,
        d.effects,
        memo,
        groups,
        _moves_by_group(s, k, groups, memo),
        legal_sails(s, k),
        legal_loads(s, k),
        legal_unloads(s, k),
    )
    return listing


def derive_listing(s: NerathState, before: OwnTurnListing, a: object) -> None:
    """After ``a`` (one of the listed own-turn actions) was applied to a copy of the state that made
    ``before``: give the new state its listing from ``before`` where the action leaves it unchanged.

    In the movement, reposition and reinforcements phases, with the same card modifiers in force: a
    move takes its pieces out of their group (they have moved), a load one piece (not in
    reposition); a buy adds a new piece to its group (reinforcements); the paths depend only on
    the situation, which none of these changes (own pieces never make a space an enemy one, and
    control changes only in battles).
    Warships' sails, loads and unloads are listed again (cheap: few warships), except after a move
    that leaves the loads as they were but for an emptied group, and a buy of another piece than a
    warship, after which only the loads are listed again.
    """
    d = s.d
    k = before.k
    phase = d.pos.phase
    if (
        phase != before.phase
        or phase not in (MOVEMENT, REPOSITION, REINFORCEMENTS)
        or d.pos.turn != k
        or d.effects is not before.effects
        or d.windows
        or d.result is not None
    ):
        return
    memo = before.memo
    s._situation = (k, memo)
    groups, parts = before.groups, before.parts
    sails, loads, unloads = before.sails, before.loads, before.unloads
    changed: tuple[int, str] | None = None
    change = 0
    if isinstance(a, Move):
        changed, change = (s.board.idx(a.path[0]), a.piece), -a.count
        if phase == REPOSITION:  # a hero leaving a dungeon may leave loads (NER-REP-02) behind
            loads = legal_loads(s, k)
    elif phase == REPOSITION:
        return
    elif isinstance(a, Load | Unload | ShipMove | Buy):
        if isinstance(a, Load):
            changed, change = (s.board.idx(a.space), a.piece), -1
        elif isinstance(a, Buy):
            if phase != REINFORCEMENTS:
                return
            if a.piece not in _FIXED:
                changed, change = (s.board.idx(a.space), a.piece), 1
        if isinstance(a, Buy) and a.piece != "warship":
            loads = legal_loads(s, k)  # no warship changed: only what may board them
        else:
            sails, loads, unloads = legal_sails(s, k), legal_loads(s, k), legal_unloads(s, k)
    else:
        return
    if changed is not None:
        groups, parts = dict(groups), dict(parts)
        left = groups.get(changed, 0) + change
        if left:
            fresh = changed not in groups
            groups[changed] = left
            parts[changed] = _group_moves_listed(s, k, changed, left, memo)
            if fresh:  # a new group (a buy): into group order
                groups = dict(sorted(groups.items()))
                parts = {group: parts[group] for group in groups}
        else:
            del groups[changed], parts[changed]
            if isinstance(a, Move) and phase != REPOSITION:
                # the emptied group's pieces were the loadable ones of that type there (movable =
                # loadable for land pieces in these phases)
                loads = [x for x in loads if x.space != a.path[0] or x.piece != a.piece]
    s._listing = OwnTurnListing(phase, k, d.effects, memo, groups, parts, sails, loads, unloads)


def _counted_moves(
    s: NerathState,
    k: int,
    ptype: str,
    start: int,
    count: int,
    memo: dict[tuple[object, ...], object],
    bonus: int,
) -> list[Move]:
    """:func:`_listed_moves` less those a card's extra move for so many pieces cannot serve
    (NER-CRD-04). The uses left are part of the effects in force, so of the situation's key."""
    key = ("counted", ptype, start, bonus, count)
    moves = memo.get(key)
    if moves is None:
        moves = memo[key] = [
            m
            for m in _listed_moves(s, k, ptype, start, count, memo, bonus)
            if cards.extra_move_allows(s, k, ptype, len(m.path) - 1, m.count)
        ]
    return moves  # type: ignore[return-value]


def group_moves(s: NerathState, k: int, a: Move) -> list[Move]:
    """The listed moves of the group ``a`` names (its piece type on its first space): the part of
    :func:`legal_moves` that ``a`` is legal exactly when it belongs to."""
    if not a.path or a.piece not in PIECES or a.path[0] not in s.board.graph.index:
        return []
    start = s.board.idx(a.path[0])
    count = sum(1 for u in s.units_at(start) if u.kingdom == k and u.ptype == a.piece and movable(s, u))
    if not count:
        return []
    moves = _counted_moves if cards.counted_extra_moves(s, k) else _listed_moves  # as legal_moves
    return moves(s, k, a.piece, start, count, _situation(s, k), move_bonus(s, k, a.piece))


def check_move(s: NerathState, k: int, a: Move) -> IllegalActionError | None:
    """None if the move is legal, else the refusal naming the rule."""
    board = s.board
    if a.piece not in PIECES:
        return IllegalActionError(f"unknown piece {a.piece!r}")
    if len(a.path) < 2:
        return IllegalActionError("a move needs a path of at least two spaces", "NER-MOV-01")
    try:
        path = [board.idx(x) for x in a.path]
    except KeyError as exc:
        return IllegalActionError(str(exc.args[0]), "NER-MAP-02")
    stats = PIECES[a.piece]
    if stats.mobility == Mobility.IMMOBILE:
        return IllegalActionError("castles never move", "NER-PCS-05")
    if stats.mobility == Mobility.SEA:
        return IllegalActionError("warships move with 'sail'", "NER-PCS-08")
    avail = [u for u in s.units_at(path[0]) if u.kingdom == k and u.ptype == a.piece and movable(s, u)]
    if a.count < 1 or a.count > len(avail):
        return IllegalActionError(
            f"{s.kingdom_name(k)} has {len(avail)} {a.piece} able to move from {a.path[0]}", "NER-MOV-01"
        )
    rules = move_rules(s, k, a.piece, path[0])
    if rules is None:
        return IllegalActionError(f"a {a.piece} may not move now", "NER-TRN-01")
    if len(path) - 1 > rules.steps:
        return IllegalActionError(f"a {a.piece} moves at most {rules.steps} spaces", "NER-MOV-01")
    if not cards.extra_move_allows(s, k, a.piece, len(path) - 1, a.count):
        return IllegalActionError(
            f"the cards' extra move serves fewer than {a.count} {a.piece}(s) now", "NER-CRD-04"
        )
    for n in range(1, len(path)):
        here, there = path[n - 1], path[n]
        if not board.graph.adjacent_i(here, there):
            return IllegalActionError(f"{a.path[n - 1]} and {a.path[n]} are not adjacent", "NER-MAP-02")
        if not rules.enter(there):
            return IllegalActionError(
                f"a {a.piece} may not enter {a.path[n]} now", _enter_rule(s, a.piece, there)
            )
        if n < len(path) - 1 and not rules.cont(there):
            return IllegalActionError(f"a {a.piece} must stop on entering {a.path[n]}", _stop_rule(s, there))
    if not rules.end(path[-1]):
        return IllegalActionError(f"a {a.piece} may not end its move on {a.path[-1]}", _end_rule(s, a.piece))
    return None


def _enter_rule(s: NerathState, ptype: str, space: int) -> str:
    phase = s.d.pos.phase
    if phase == REPOSITION:
        return "NER-REP-03"
    if phase == REINFORCEMENTS:
        return "NER-REI-09"
    if s.board.kind[space] == DUNGEON:
        return "NER-MOV-04"
    return "NER-MOV-03"


def _stop_rule(s: NerathState, space: int) -> str:
    if s.d.pos.phase == REPOSITION:
        return "NER-REP-02"
    return "NER-MOV-04" if s.board.kind[space] == DUNGEON else "NER-MOV-02"


def _end_rule(s: NerathState, ptype: str) -> str:
    phase = s.d.pos.phase
    if phase == REPOSITION:
        return "NER-REP-03"
    if phase == REINFORCEMENTS:
        return "NER-REI-09"
    return "NER-MOV-05"


def apply_move(s: NerathState, k: int, a: Move) -> list[Event]:
    path = [s.board.idx(x) for x in a.path]
    avail = [u for u in s.units_at(path[0]) if u.kingdom == k and u.ptype == a.piece and movable(s, u)]
    cards.use_extra_moves(s, k, a.piece, len(path) - 1, a.count)
    for u in avail[: a.count]:
        s.update(u, space=path[-1], moved=1)
    dest = path[-1]
    attack = s.d.pos.phase == MOVEMENT and (s.is_enemy(dest, k) or s.board.kind[dest] == DUNGEON)
    text = f"{s.kingdom_name(k)} moves {a.count} {a.piece} {' → '.join(a.path)}"
    if attack:
        text += " (attack declared)"
    return [Event("move", {"kingdom": k, "piece": a.piece, "count": a.count, "path": list(a.path)}, text)]


# --- sea transport -----------------------------------------------------------------
def ship_range(s: NerathState, ship: Unit) -> int:
    """A warship's movement this turn: 2, plus extra moves from cards."""
    if ship.kingdom == s.current_kingdom and s.d.pos.phase in (MOVEMENT, REINFORCEMENTS):
        return PIECES["warship"].move + move_bonus(s, ship.kingdom, "warship")
    return PIECES["warship"].move + cards.extra_moves(s, ship.kingdom, "warship")


def ship_can_sail(s: NerathState, ship: Unit) -> bool:
    phase = s.d.pos.phase
    if ship.ptype != "warship" or ship.done or ship.moved >= ship_range(s, ship):
        return False
    if phase == MOVEMENT:
        return not ship.new
    if phase == REINFORCEMENTS:
        return ship.new  # NER-REI-09
    return False


def _sail_rules(s: NerathState, k: int) -> tuple[Pred, Pred]:
    kind = s.board.kind
    if s.d.pos.phase == REINFORCEMENTS:

        def enter(i: int) -> bool:
            return kind[i] == SEA and not s.is_enemy(i, k)

        return enter, enter

    def enter2(i: int) -> bool:
        return kind[i] == SEA

    def cont(i: int) -> bool:  # NER-SEA-06: stop on entering an enemy sea space
        return kind[i] == SEA and not s.is_enemy(i, k)

    return enter2, cont


def legal_sails(s: NerathState, k: int) -> list[ShipMove]:
    out: list[ShipMove] = []
    memo: dict[tuple[object, ...], object] | None = None
    ids = s.board.ids
    for ship in s.units_of(k, "warship"):
        if not ship_can_sail(s, ship):
            continue
        if memo is None:
            memo = _situation(s, k)
        steps = ship_range(s, ship) - ship.moved
        key = ("sail", ship.space, steps)
        paths = memo.get(key)
        if paths is None:
            enter, cont = _sail_rules(s, k)
            found = paths_within(s, ship.space, steps, enter, cont)
            paths = memo[key] = sorted(tuple(ids[i] for i in found[dest]) for dest in found)
        out += [ShipMove(ship.uid, path) for path in paths]  # type: ignore[attr-defined]
    return out


def check_sail(s: NerathState, k: int, a: ShipMove) -> IllegalActionError | None:
    ship = s.d.units.get(a.ship)
    if ship is None or ship.kingdom != k or ship.ptype != "warship":
        return IllegalActionError(f"{s.kingdom_name(k)} has no warship number {a.ship}", "NER-PCS-08")
    if not ship_can_sail(s, ship):
        if s.d.pos.phase == REINFORCEMENTS and not ship.new:
            return IllegalActionError("only new warships move in reinforcements", "NER-REI-09")
        if ship.done:
            return IllegalActionError("a warship that unloaded may not move on", "NER-SEA-03")
        if s.d.pos.phase == REINFORCEMENTS:
            return IllegalActionError("only new warships move in reinforcements", "NER-REI-09")
        return IllegalActionError("this warship has no movement left", "NER-MOV-01")
    try:
        path = [s.board.idx(x) for x in a.path]
    except KeyError as exc:
        return IllegalActionError(str(exc.args[0]), "NER-MAP-02")
    if len(path) < 2 or path[0] != ship.space:
        return IllegalActionError(f"the path must start where the warship is ({s.space_name(ship.space)})")
    if len(path) - 1 > ship_range(s, ship) - ship.moved:
        return IllegalActionError("a warship moves at most 2 spaces a turn", "NER-MOV-01")
    enter, cont = _sail_rules(s, k)
    for n in range(1, len(path)):
        if not s.board.graph.adjacent_i(path[n - 1], path[n]):
            return IllegalActionError(f"{a.path[n - 1]} and {a.path[n]} are not adjacent", "NER-MAP-02")
        if not enter(path[n]):
            if s.board.kind[path[n]] != SEA:
                return IllegalActionError("warships never enter land", "NER-PCS-08")
            return IllegalActionError("new warships may not enter enemy sea spaces", "NER-REI-09")
        if n < len(path) - 1 and not cont(path[n]):
            return IllegalActionError(f"a warship must stop on entering enemy sea {a.path[n]}", "NER-SEA-06")
    return None


def apply_sail(s: NerathState, k: int, a: ShipMove) -> list[Event]:
    ship = s.d.units[a.ship]
    path = [s.board.idx(x) for x in a.path]
    dest = path[-1]
    moved = ship.moved + len(path) - 1
    if s.is_enemy(dest, k):
        moved = ship_range(s, ship)  # NER-SEA-06
    s.update(ship, space=dest, moved=moved)
    for c in s.cargo_of(ship.uid):
        s.update(c, space=dest)
    text = f"{s.kingdom_name(k)} sails warship {a.ship} {' → '.join(a.path)}"
    return [Event("sail", {"kingdom": k, "ship": a.ship, "path": list(a.path)}, text)]


def _loadable(s: NerathState, k: int, u: Unit) -> bool:
    phase = s.d.pos.phase
    if u.kingdom != k or u.carrier >= 0 or PIECES[u.ptype].mobility != Mobility.LAND:
        return False
    if phase == MOVEMENT:
        return not u.moved and not u.done and not u.new and s.board.kind[u.space] == LAND  # NER-SEA-02
    if phase == REPOSITION:
        return s.board.kind[u.space] == DUNGEON and PIECES[u.ptype].hero  # NER-REP-02
    if phase == REINFORCEMENTS:
        return u.new and not u.moved and not u.done  # NER-REI-08
    return False


def _ship_loadable(s: NerathState, k: int, ship: Unit) -> bool:
    if ship.kingdom != k or ship.ptype != "warship" or ship.carrier >= 0:
        return False
    if len(s.cargo_of(ship.uid)) >= PIECES["warship"].capacity:
        return False
    phase = s.d.pos.phase
    if phase == MOVEMENT:
        return not ship.done
    if phase == REPOSITION:
        return s.is_friendly(ship.space, k)
    return phase == REINFORCEMENTS and not ship.done


def legal_loads(s: NerathState, k: int) -> list[Load]:
    found: set[tuple[int, str, str]] = set()
    board, units = s.board, s.d.units
    occ = s.index().occ
    for ship in s.units_of(k, "warship"):
        if not _ship_loadable(s, k, ship):
            continue
        for nb in board.graph.neighbors[ship.space]:
            for uid in occ.get(nb, ()):
                u = units[uid]
                if u.kingdom == k and _loadable(s, k, u):
                    found.add((ship.uid, board.ids[nb], u.ptype))
    return [Load(ship, piece, space) for ship, space, piece in sorted(found)]


def check_load(s: NerathState, k: int, a: Load) -> IllegalActionError | None:
    ship = s.d.units.get(a.ship)
    if ship is None or ship.ptype != "warship":
        return IllegalActionError(f"there is no warship number {a.ship}", "NER-PCS-08")
    if ship.kingdom != k:
        return IllegalActionError("a warship carries only its own kingdom's pieces", "NER-SEA-04")
    if a.piece not in PIECES or PIECES[a.piece].mobility != Mobility.LAND:
        return IllegalActionError(
            "warships carry land pieces only (no castles, dragons, elementals or warships)", "NER-PCS-08"
        )
    if len(s.cargo_of(ship.uid)) >= PIECES["warship"].capacity:
        return IllegalActionError("a warship carries at most 2 land pieces", "NER-PCS-08")
    if ship.done and s.d.pos.phase != REPOSITION:
        return IllegalActionError("this warship has unloaded and ended its movement", "NER-SEA-03")
    try:
        space = s.board.idx(a.space)
    except KeyError as exc:
        return IllegalActionError(str(exc.args[0]), "NER-MAP-02")
    if not s.board.graph.adjacent_i(space, ship.space):
        return IllegalActionError(f"{a.space} is not next to the warship's sea space", "NER-SEA-01")
    if not any(u.ptype == a.piece and _loadable(s, k, u) for u in s.units_at(space)):
        if any(u.ptype == a.piece and u.kingdom != k for u in s.units_at(space)):
            return IllegalActionError("a warship cannot carry another kingdom's pieces", "NER-SEA-04")
        if s.d.pos.phase == MOVEMENT:
            return IllegalActionError(
                f"no {a.piece} on {a.space} that started the turn there and has not moved", "NER-SEA-02"
            )
        return IllegalActionError(f"no {a.piece} on {a.space} may board now", "NER-REI-08")
    if not _ship_loadable(s, k, ship):
        return IllegalActionError("that warship may not take pieces aboard now", "NER-REP-02")
    return None


def apply_load(s: NerathState, k: int, a: Load) -> list[Event]:
    ship = s.d.units[a.ship]
    space = s.board.idx(a.space)
    unit = next(u for u in s.units_at(space) if u.ptype == a.piece and _loadable(s, k, u))
    s.update(unit, carrier=ship.uid, space=ship.space, moved=1, boarded=True)
    if s.d.pos.phase == REINFORCEMENTS and not ship.new:
        s.update(ship, moved=ship_range(s, ship), done=True)  # NER-REI-09
    text = f"{s.kingdom_name(k)} loads a {a.piece} from {a.space} onto warship {a.ship}"
    return [Event("load", {"kingdom": k, "ship": a.ship, "piece": a.piece, "from": a.space}, text)]


def unload_targets(s: NerathState, k: int, ship: Unit, ptype: str) -> list[int]:
    """Spaces a carried ``ptype`` may land on from ``ship`` now (NER-SEA-03/08, NER-REI-09)."""
    out = []
    for nb in s.board.neighbors(ship.space):
        kind = s.board.kind[nb]
        if kind == LAND:
            if s.d.pos.phase == REINFORCEMENTS and not s.is_friendly(nb, k):
                continue
            out.append(nb)
        elif kind == DUNGEON and PIECES[ptype].hero and s.d.pos.phase != REINFORCEMENTS:
            out.append(nb)
    return out


def ship_may_unload(s: NerathState, k: int, ship: Unit) -> bool:
    if ship.kingdom != k or ship.ptype != "warship" or ship.done:
        return False
    if not s.cargo_of(ship.uid):
        return False
    phase = s.d.pos.phase
    if phase == MOVEMENT:
        return not s.is_enemy(ship.space, k)  # NER-BAT-09: landing from enemy seas waits for the sea battle
    if phase == REINFORCEMENTS:
        return ship.new or all(c.new for c in s.cargo_of(ship.uid))
    return ship.uid in s.d.landings


def legal_unloads(s: NerathState, k: int, ships: list[Unit] | None = None) -> list[Unload]:
    out: list[Unload] = []
    pool = ships if ships is not None else s.units_of(k, "warship")
    for ship in pool:
        if not ship_may_unload(s, k, ship):
            continue
        cargo = s.cargo_of(ship.uid)
        options: list[list[int | None]] = []
        for c in cargo:
            options.append([None, *unload_targets(s, k, ship, c.ptype)])
        seen: set[tuple[tuple[str, str], ...]] = set()
        for combo in product(*options):
            drops = tuple(
                sorted((c.ptype, s.board.sid(t)) for c, t in zip(cargo, combo, strict=True) if t is not None)
            )
            if not drops or len({t for t in combo if t is not None}) > 2 or drops in seen:
                continue
            seen.add(drops)
            out.append(Unload(ship.uid, drops))
    return out


def check_unload(s: NerathState, k: int, a: Unload) -> IllegalActionError | None:
    ship = s.d.units.get(a.ship)
    if ship is None or ship.ptype != "warship" or ship.kingdom != k:
        return IllegalActionError(f"{s.kingdom_name(k)} has no warship number {a.ship}", "NER-PCS-08")
    if ship.done:
        return IllegalActionError("a warship unloads once and then stops", "NER-SEA-03")
    if s.d.pos.phase == MOVEMENT and s.is_enemy(ship.space, k):
        return IllegalActionError(
            "from an enemy sea space the landing is declared after winning the sea battle", "NER-BAT-09"
        )
    if not ship_may_unload(s, k, ship):
        return IllegalActionError("this warship may not unload now", "NER-SEA-03")
    if not a.drops:
        return IllegalActionError("name at least one piece to unload", "NER-SEA-03")
    cargo = [c.ptype for c in s.cargo_of(ship.uid)]
    targets: set[str] = set()
    for ptype, target in a.drops:
        if ptype not in cargo:
            return IllegalActionError(f"warship {a.ship} carries no (more) {ptype}", "NER-SEA-03")
        cargo.remove(ptype)
        try:
            t = s.board.idx(target)
        except KeyError as exc:
            return IllegalActionError(str(exc.args[0]), "NER-MAP-02")
        if t not in unload_targets(s, k, ship, ptype):
            rule = "NER-SEA-08" if s.board.kind[t] == DUNGEON else "NER-SEA-03"
            if s.d.pos.phase == REINFORCEMENTS:
                rule = "NER-REI-09"
            return IllegalActionError(f"a {ptype} may not land on {target} from warship {a.ship}", rule)
        targets.add(target)
    if len(targets) > 2:
        return IllegalActionError("a warship unloads into at most two territories", "NER-SEA-03")
    return None


def apply_unload(s: NerathState, k: int, a: Unload) -> list[Event]:
    ship = s.d.units[a.ship]
    events = []
    for ptype, target in a.drops:
        unit = next(c for c in s.cargo_of(ship.uid) if c.ptype == ptype)
        t = s.board.idx(target)
        s.update(unit, carrier=-1, space=t, moved=1, done=True)
        events.append(
            Event(
                "unload",
                {"kingdom": k, "ship": a.ship, "piece": ptype, "to": target},
                f"{s.kingdom_name(k)} lands a {ptype} from warship {a.ship} on {target}",
            )
        )
    s.update(s.d.units[a.ship], done=True, moved=ship_range(s, ship))
    return events
