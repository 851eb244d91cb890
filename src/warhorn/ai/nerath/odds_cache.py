"""Memoised exact battle odds for the planner (``warhorn.games.nerath.odds.battle_odds``).

Armies are keyed by sorted (piece, count) pairs, so the same battle asked
twice in a game, or in another game of the same process, costs a lookup.
Dungeons with face-down guardians are valued over the tiles that could be
there, from public facts only (the shipped tile list minus the tiles face
up on the board and the defeated ones).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from warhorn.games.nerath.battle_model import ArmyError, BattleSide, Guardian
from warhorn.games.nerath.odds import battle_odds
from warhorn.games.nerath.pieces import PIECES

Army = tuple[tuple[str, int], ...]

#: Above this many pieces on a side the planner scales the battle down (keeps each call in milliseconds).
MAX_SIDE = 24


@dataclass(frozen=True, slots=True)
class Odds:
    """The parts of :class:`~warhorn.games.nerath.odds.BattleOdds` the planner uses."""

    win: float
    lose: float  # defender keeps the space (defender win or mutual destruction)
    attacker_gold_lost: float
    defender_gold_lost: float
    reward_gold: float = 0.0


def army(pieces: Mapping[str, int]) -> Army:
    return tuple(sorted((p, n) for p, n in pieces.items() if n > 0))


def _shrink(a: Army) -> Army:
    total = sum(n for _, n in a)
    if total <= MAX_SIDE:
        return a
    scale = MAX_SIDE / total
    return tuple((p, max(1, round(n * scale)) if p != "castle" else n) for p, n in a)


@lru_cache(maxsize=65536)
def land_odds(attacker: Army, defender: Army, sea: bool = False, attacker_hit: int = 0) -> Odds:
    """Odds that ``attacker`` beats ``defender`` (no retreat); an empty defence is a sure win."""
    if not attacker:
        return Odds(0.0, 1.0, 0.0, 0.0)
    if not defender:
        return Odds(1.0, 0.0, 0.0, 0.0)
    a, d = _shrink(attacker), _shrink(defender)
    try:
        o = battle_odds(dict(a), dict(d), sea=sea, attacker_hit_min=attacker_hit or None)
    except ArmyError:
        return Odds(0.0, 1.0, 0.0, 0.0)
    return Odds(
        o.attacker_win,
        o.defender_win + o.mutual_destruction,
        o.attacker_gold_lost,
        o.defender_gold_lost,
    )


@lru_cache(maxsize=65536)
def side_odds(attacker: BattleSide, defender: BattleSide, sea: bool = False) -> Odds:
    """Odds from a battle in progress (damaged dragons, inactive castles, guardians' dice left)."""
    if not attacker.can_fight:
        return Odds(0.0, 1.0, 0.0, 0.0)
    if not defender.can_fight:
        return Odds(1.0, 0.0, 0.0, 0.0)
    try:
        o = battle_odds(attacker, defender, sea=sea)
    except ArmyError:
        return Odds(0.0, 1.0, 0.0, 0.0)
    # the calculator counts losses from the healthy pieces only; count the wounded ones too
    now_a = attacker.counts()
    now_d = defender.counts()
    lost_a = sum(PIECES[p].cost * (n - o.attacker_survivors.get(p, 0.0)) for p, n in now_a.items())
    lost_d = sum(PIECES[p].cost * (n - o.defender_survivors.get(p, 0.0)) for p, n in now_d.items())
    return Odds(
        o.attacker_win,
        o.defender_win + o.mutual_destruction,
        max(0.0, lost_a),
        max(0.0, lost_d),
        o.expected_reward_gold,
    )


@lru_cache(maxsize=16384)
def _dungeon_known(heroes: Army, guardians: tuple[Guardian, ...]) -> Odds:
    try:
        o = battle_odds(dict(heroes), dungeon=guardians)
    except ArmyError:
        return Odds(0.0, 1.0, 0.0, 0.0)
    return Odds(o.attacker_win, 1.0 - o.attacker_win, o.attacker_gold_lost, 0.0, o.expected_reward_gold)


#: How many guessed line-ups of two or more face-down tiles are averaged.
GUESS_SAMPLES = 10


@lru_cache(maxsize=16384)
def dungeon_odds(
    heroes: Army,
    known: tuple[Guardian, ...],
    hidden: int,
    pool: tuple[tuple[Guardian, int], ...],
) -> Odds:
    """Heroes against ``known`` face-up guardians plus ``hidden`` face-down tiles drawn from ``pool``
    (tile, copies left). One hidden tile: the exact average over the pool; more: a fixed sample."""
    if not heroes:
        return Odds(0.0, 1.0, 0.0, 0.0)
    if hidden == 0 or not pool:
        return _dungeon_known(heroes, known) if known else Odds(1.0, 0.0, 0.0, 0.0)
    total = sum(n for _, n in pool)
    lineups: list[tuple[tuple[Guardian, ...], float]] = []
    if hidden == 1:
        lineups = [((g,), n / total) for g, n in pool]
    else:
        # a stable seed (str hashes differ between processes), so the same position gives the same guess
        key = repr((heroes, hidden, tuple((g.id, n) for g, n in pool))).encode()
        rng = random.Random(zlib.crc32(key))
        flat = [g for g, n in pool for _ in range(n)]
        for _ in range(GUESS_SAMPLES):
            lineups.append((tuple(rng.sample(flat, min(hidden, len(flat)))), 1.0 / GUESS_SAMPLES))
    win = lost = reward = 0.0
    for extra, weight in lineups:
        o = _dungeon_known(heroes, tuple(sorted(known + extra, key=lambda g: g.id)))
        win += weight * o.win
        lost += weight * o.attacker_gold_lost
        reward += weight * o.reward_gold
    return Odds(win, 1.0 - win, lost, 0.0, reward)
