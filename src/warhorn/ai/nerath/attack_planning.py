"""Planning a kingdom's movement phase: attacks, dungeon delves, garrisons and marching to the front.

The plan is made once, at the first movement decision of a turn, from the
position as it is; the heuristic then plays it move by move and plans again
when a move is no longer legal. Attacks are chosen greedily by worth: for
each enemy territory in reach, the cheapest force (by the order in
:data:`~.knowledge.ATTACK_PREFERENCE`) whose exact odds of taking it are
good enough, keeping back what the kingdom's castles need against the
pieces that could strike them next turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warhorn.ai.nerath.knowledge import ATTACK_POWER, ATTACK_PREFERENCE, DEFENCE_POWER
from warhorn.ai.nerath.odds_cache import Odds, army, dungeon_odds, land_odds
from warhorn.ai.nerath.situation import TREASURE_WORTH, Situation, describe_army
from warhorn.engine import Action
from warhorn.games.nerath.actions import Load, Move, ShipMove, Unload
from warhorn.games.nerath.board import DUNGEON, LAND
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import movement

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Win chance the planner aims for, and the least it accepts for an attack.
AIM = 0.85
ACCEPT = 0.6
#: Defence (expected hits per round) kept in a castle, as a share of the enemy's in reach.
CAPITAL_GUARD = 1.0
CASTLE_GUARD = 0.7
#: Least chance of beating a dungeon's guardians before heroes go in.
DUNGEON_ACCEPT = 0.6
#: The order in which pieces stay behind to guard a castle.
GARRISON_PREFERENCE = ("soldier", "warrior", "siege", "monster", "mage", "dragon", "elemental")


@dataclass(frozen=True, slots=True)
class PlannedMove:
    """One move of the plan and why."""

    action: Action
    reason: str


Group = tuple[int, str]  # (space, piece type)


def plan_movement(s: NerathState, k: int, *, sentries: bool = True) -> list[PlannedMove]:
    """The kingdom's moves for this movement phase: delves, attacks, then marches.

    ``sentries``: leave one piece in each threatened territory that would otherwise be left empty
    (an empty territory is a free conquest for any enemy piece in reach).
    """
    sit = Situation(s, k)
    free: Counter[Group] = Counter()
    for u in s.d.units.values():
        if u.kingdom == k and movement.movable(s, u):
            free[(u.space, u.ptype)] += 1
    if not free:
        return []
    reach: dict[Group, dict[int, list[int]]] = {
        g: movement.destinations(s, k, g[1], g[0]) for g in sorted(free)
    }
    kept = _garrisons(sit, free)
    if sentries:
        kept += _sentries(sit, free, kept)
    avail: Counter[Group] = Counter({g: n - kept.get(g, 0) for g, n in free.items() if n > kept.get(g, 0)})
    plan: list[PlannedMove] = []
    plan += _plan_delves(sit, avail, reach)
    plan += _plan_attacks(sit, avail, reach)
    plan += _plan_landings(sit, avail)
    plan += _plan_marches(sit, avail, reach)
    return plan


# --- garrisons ------------------------------------------------------------------------------
def _garrisons(sit: Situation, free: Counter[Group]) -> Counter[Group]:
    """Pieces that stay in our castles: enough defence dice against what could strike them next turn
    (expected hits per round, capital fully, other castles in part)."""
    s, k = sit.s, sit.k
    kept: Counter[Group] = Counter()
    for castle in s.own_castles(k):
        threat = sit.threat_power(castle)
        if threat <= 0:
            continue
        wanted = threat * (CAPITAL_GUARD if s.board.capitals[k] == castle else CASTLE_GUARD)
        guard = sum(DEFENCE_POWER[u.ptype] for u in sit.friends(castle) if not movement.movable(s, u))
        movable = [p for p in GARRISON_PREFERENCE for _ in range(free.get((castle, p), 0))]
        while guard < wanted and movable:
            p = movable.pop(0)
            guard += DEFENCE_POWER[p]
            kept[(castle, p)] += 1
    return kept


def _sentries(sit: Situation, free: Counter[Group], kept: Counter[Group]) -> Counter[Group]:
    """One piece (the cheapest) stays in each threatened territory that holds only movable pieces."""
    s = sit.s
    out: Counter[Group] = Counter()
    threats = sit.threats()
    spaces = sorted({g[0] for g in free})
    for space in spaces:
        if s.board.kind[space] != LAND or not threats.get(space):
            continue
        if any(kept.get((space, p), 0) for p in GARRISON_PREFERENCE):
            continue
        if any(not movement.movable(s, u) for u in sit.friends(space)):
            continue
        here = [p for p in GARRISON_PREFERENCE if free.get((space, p), 0)]
        if here:
            out[(space, here[0])] += 1
    return out


# --- attacks --------------------------------------------------------------------------------
def _targets(sit: Situation, reach: dict[Group, dict[int, list[int]]]) -> list[int]:
    s, k = sit.s, sit.k
    found = {t for dests in reach.values() for t in dests if s.board.kind[t] == LAND and s.is_enemy(t, k)}
    ranked = sorted(found, key=lambda t: (-sit.conquest_value(t)[0], t))
    return ranked


def _plan_attacks(
    sit: Situation, avail: Counter[Group], reach: dict[Group, dict[int, list[int]]]
) -> list[PlannedMove]:
    s = sit.s
    out: list[PlannedMove] = []
    for target in _targets(sit, reach):
        value, what = sit.conquest_value(target)
        defence = sit.defence_army(target)
        pool = [g for g in sorted(avail) if avail[g] > 0 and target in reach[g]]
        if not pool:
            continue
        force = _choose_force(defence, pool, avail, value)
        if force is None:
            continue
        chosen, odds = force
        ev = odds.win * value - odds.attacker_gold_lost + 0.8 * odds.defender_gold_lost
        reason = (
            f"attack {s.board.sid(target)} ({describe_army(defence)}) with "
            f"{describe_army(army(_by_type(chosen)))}: {odds.win:.0%} to take it, {what}, "
            f"expected loss {odds.attacker_gold_lost:.1f} gold, value {ev:+.1f}"
        )
        for g, n in sorted(chosen.items()):
            avail[g] -= n
            out.append(PlannedMove(_move(s, g, n, reach[g][target]), reason))
    return out


def _by_type(chosen: Counter[Group]) -> Counter[str]:
    c: Counter[str] = Counter()
    for (_, p), n in chosen.items():
        c[p] += n
    return c


def _choose_force(
    defence: tuple[tuple[str, int], ...], pool: list[Group], avail: Counter[Group], value: float
) -> tuple[Counter[Group], Odds] | None:
    """The smallest force (in preference order) that reaches the aim, or the best acceptable one."""
    order = sorted(
        (g for g in pool for _ in range(avail[g])),
        key=lambda g: (ATTACK_PREFERENCE.index(g[1]) if g[1] in ATTACK_PREFERENCE else 99, g),
    )
    if not defence:  # an empty enemy territory: one piece walks in (cheapest, slowest first)
        cheapest = min(order, key=lambda g: (PIECES[g[1]].hero, PIECES[g[1]].cost, PIECES[g[1]].move, g))
        return Counter({cheapest: 1}), Odds(1.0, 0.0, 0.0, 0.0)
    need = sum(DEFENCE_POWER[p] * n for p, n in defence) + sum(n for _, n in defence) * 0.1
    chosen: Counter[Group] = Counter()
    power = 0.0
    best: tuple[Counter[Group], Odds, float] | None = None
    tries = 0
    last = len(order) - 1
    for n, g in enumerate(order):
        chosen[g] += 1
        power += ATTACK_POWER[g[1]]
        if power < need and n < last:
            continue
        odds = land_odds(army(_by_type(chosen)), defence)
        tries += 1
        ev = odds.win * value - odds.attacker_gold_lost + 0.8 * odds.defender_gold_lost
        if odds.win >= ACCEPT and ev > 0 and (best is None or ev > best[2]):
            best = (Counter(chosen), odds, ev)
        if odds.win >= AIM or tries >= 10:
            break
    if best is None:
        return None
    return best[0], best[1]


def _move(s: NerathState, g: Group, n: int, path: list[int]) -> Move:
    return Move(g[1], n, tuple(s.board.sid(i) for i in path))


# --- dungeons -------------------------------------------------------------------------------
def _plan_delves(
    sit: Situation, avail: Counter[Group], reach: dict[Group, dict[int, list[int]]]
) -> list[PlannedMove]:
    s = sit.s
    out: list[PlannedMove] = []
    pool_tiles = None
    for dungeon in sit.facts.dungeons:
        heroes = [g for g in sorted(avail) if avail[g] > 0 and PIECES[g[1]].hero and dungeon in reach[g]]
        if not heroes or not s.d.guardians.get(dungeon):
            continue
        if pool_tiles is None:
            pool_tiles = sit.guardian_pool()
        known, hidden = sit.dungeon_line_up(dungeon)
        chosen: Counter[Group] = Counter()
        best: tuple[Counter[Group], Odds, float] | None = None
        for g in sorted(heroes, key=lambda x: (x[1] != "mage", x)):
            for _ in range(min(avail[g], 3)):
                if sum(chosen.values()) >= 3:
                    break
                chosen[g] += 1
                odds = dungeon_odds(army(_by_type(chosen)), known, hidden, pool_tiles)
                ev = odds.win * TREASURE_WORTH + odds.reward_gold - odds.attacker_gold_lost
                if odds.win >= DUNGEON_ACCEPT and ev > 0 and (best is None or ev > best[2] + 0.5):
                    best = (Counter(chosen), odds, ev)
        if best is None:
            continue
        chosen, odds, ev = best
        guess = " (face-down tiles averaged)" if hidden else ""
        reason = (
            f"send {describe_army(army(_by_type(chosen)))} into {s.board.sid(dungeon)}: "
            f"{odds.win:.0%} to beat the guardians{guess}, a treasure, "
            f"expected loss {odds.attacker_gold_lost:.1f} gold"
        )
        for g, n in sorted(chosen.items()):
            avail[g] -= n
            out.append(PlannedMove(_move(s, g, n, reach[g][dungeon]), reason))
    return out


# --- marching ----------------------------------------------------------------------------------
def _plan_marches(
    sit: Situation, avail: Counter[Group], reach: dict[Group, dict[int, list[int]]]
) -> list[PlannedMove]:
    """Idle pieces reinforce threatened castles, else move from the interior toward the front."""
    s, k = sit.s, sit.k
    out: list[PlannedMove] = []
    threats = sit.threats()
    needy: list[tuple[float, int, float, float]] = []
    for castle in s.own_castles(k):
        threat = sit.threat_power(castle)
        defence = sum(DEFENCE_POWER[u.ptype] for u in sit.friends(castle))
        if threat > 0 and defence < threat * CASTLE_GUARD:
            needy.append((threat - defence, castle, threat, defence))
    needy.sort(reverse=True)
    for _, castle, threat, defence in needy:
        for g in sorted(avail):
            if avail[g] <= 0 or g[0] == castle or castle not in reach[g]:
                continue
            if sit.frontier(g[0]) and g[0] in s.own_castles(k):
                continue
            n = avail[g]
            avail[g] = 0
            reason = (
                f"reinforce {s.board.sid(castle)}: enemy pieces in reach ({describe_army(threats[castle])}) "
                f"roll {threat:.1f} expected hits a round against our {defence:.1f}"
            )
            out.append(PlannedMove(_move(s, g, n, reach[g][castle]), reason))
            defence += DEFENCE_POWER[g[1]] * n
            if defence >= threat:
                break
    for g in sorted(avail):
        n = avail[g]
        if n <= 0 or PIECES[g[1]].mobility.value != "land":
            continue
        here = sit.enemy_distance(g[0])
        if here <= 1:
            continue
        best = None
        for dest, path in reach[g].items():
            if s.board.kind[dest] != LAND or not s.is_friendly(dest, k) or s.board.kind[dest] == DUNGEON:
                continue
            d = sit.enemy_distance(dest)
            if d < here and (best is None or (d, dest) < best[0]):
                best = ((d, dest), path)
        if best is None:
            continue
        avail[g] = 0
        dest = best[0][1]
        reason = (
            f"march {n} {g[1]} toward the front: {s.board.sid(dest)} is {best[0][0]} step(s) "
            f"from an enemy territory (was {here})"
        )
        out.append(PlannedMove(_move(s, g, n, best[1]), reason))
    return out


# --- amphibious assaults ----------------------------------------------------------------------
def _plan_landings(sit: Situation, avail: Counter[Group]) -> list[PlannedMove]:
    """Warships ferry up to two idle land pieces from a coast to an enemy coast (NER-SEA-01..03,
    NER-BAT-09): load, sail through friendly seas, unload; only when the odds are good."""
    s, k = sit.s, sit.k
    out: list[PlannedMove] = []
    sails: dict[int, list[ShipMove]] = {}
    for a in movement.legal_sails(s, k):
        sails.setdefault(a.ship, []).append(a)
    for ship in sorted(
        (u for u in s.d.units.values() if u.kingdom == k and u.ptype == "warship"), key=lambda u: u.uid
    ):
        if ship.moved or ship.done or s.cargo_of(ship.uid):
            continue
        best: tuple[float, list[PlannedMove]] | None = None
        for coast in s.board.neighbors(ship.space):
            if s.board.kind[coast] != LAND:
                continue
            cargo = [
                p
                for p in ATTACK_PREFERENCE
                for _ in range(avail.get((coast, p), 0))
                if PIECES[p].mobility.value == "land"
            ][:2]
            if not cargo:
                continue
            routes = [None, *sails.get(ship.uid, [])]
            for route in routes:
                sea = ship.space if route is None else s.board.idx(route.path[-1])
                if route is not None and s.is_enemy(sea, k):
                    continue
                for target in s.board.neighbors(sea):
                    if s.board.kind[target] != LAND or not s.is_enemy(target, k):
                        continue
                    value, what = sit.conquest_value(target)
                    defence = sit.defence_army(target)
                    odds = land_odds(army(Counter(cargo)), defence)
                    ev = odds.win * value - odds.attacker_gold_lost + 0.8 * odds.defender_gold_lost
                    if odds.win < AIM or ev <= 1.0 or (best is not None and ev <= best[0]):
                        continue
                    reason = (
                        f"warship {ship.uid} ferries {describe_army(army(Counter(cargo)))} from "
                        f"{s.board.sid(coast)} to attack {s.board.sid(target)} ({describe_army(defence)}): "
                        f"{odds.win:.0%} to take it, {what}, expected loss {odds.attacker_gold_lost:.1f} gold"
                    )
                    steps: list[PlannedMove] = [
                        PlannedMove(Load(ship.uid, p, s.board.sid(coast)), reason) for p in cargo
                    ]
                    if route is not None:
                        steps.append(PlannedMove(route, reason))
                    drops = tuple(sorted((p, s.board.sid(target)) for p in cargo))
                    steps.append(PlannedMove(Unload(ship.uid, drops), reason))
                    best = (ev, steps)
        if best is None:
            continue
        for step in best[1]:
            if isinstance(step.action, Load):
                avail[(s.board.idx(step.action.space), step.action.piece)] -= 1
        out += best[1]
    return out
