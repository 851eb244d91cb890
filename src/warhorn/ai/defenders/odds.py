"""Exact odds of a general battle (DEF-GEN-01..10): no simulation, only probability tables.

A participant's dice come from the cards it commits (Balazarg's curse may take a
red card away first, 1 chance in 6 per card), plus reward dice. Each die hits on
``need``+ (the general's hit number less the hero's bonuses); a hero with a
re-roll re-rolls every failed die once (never against Varkolak). Against
Gorgutt every final face of 1 parries one hit of that participant's roll, and
a roll never does less than 0 hits. The battle is won when the participants'
hits together reach the general's remaining life.

Each participant's hits are a probability vector; the battle's total is their
convolution. All of it is exact arithmetic on small vectors (at most a few
dozen dice), so a decision costs well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

Distribution = tuple[float, ...]  # probability of 0, 1, 2, ... (hits or dice)


def hit_chance(need: int) -> float:
    """Chance that one d6 shows ``need`` or more (need is clamped to 2..6: a 1 always fails)."""
    need = min(6, max(2, need))
    return (7 - need) / 6


@lru_cache(maxsize=4096)
def die_faces(need: int, reroll: bool, parry: bool) -> tuple[float, float, float]:
    """(hit, neutral, parry) chances of one die after an optional re-roll of a miss.

    Parry counts a final face of 1 (Gorgutt, DEF-GEN-08); without ``parry`` it is 0.
    """
    p = hit_chance(need)
    one = 1 / 6
    if reroll:
        hit = p + (1 - p) * p
        ones = (1 - p) * one
    else:
        hit = p
        ones = one
    if not parry:
        ones = 0.0
    return hit, 1.0 - hit - ones, ones


@lru_cache(maxsize=4096)
def roll_hits(dice: int, need: int, reroll: bool, parry: bool) -> Distribution:
    """Distribution of one participant's hits with ``dice`` dice (parries subtracted, floor 0)."""
    hit, neutral, ones = die_faces(need, reroll, parry)
    # net[k + dice] = chance of hits - parries == k
    net = [0.0] * (2 * dice + 1)
    net[dice] = 1.0
    for _ in range(dice):
        nxt = [0.0] * (2 * dice + 1)
        for k, pr in enumerate(net):
            if pr == 0.0:
                continue
            nxt[k] += pr * neutral
            if k + 1 < len(nxt):
                nxt[k + 1] += pr * hit
            if k - 1 >= 0:
                nxt[k - 1] += pr * ones
        net = nxt
    out = [0.0] * (dice + 1)
    for k, pr in enumerate(net):
        out[max(0, k - dice)] += pr
    return tuple(out)


def convolve(a: Sequence[float], b: Sequence[float]) -> Distribution:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0.0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return tuple(out)


def dice_after_curse(card_dice: Sequence[int], cursed: Sequence[bool]) -> Distribution:
    """Distribution of the dice left after Balazarg's curse (each cursed card lost on a 1, DEF-GEN-07)."""
    dist: Distribution = (1.0,)
    for dice, curse in zip(card_dice, cursed, strict=True):
        card = [0.0] * (dice + 1)
        if curse:
            card[0] += 1 / 6
            card[dice] += 5 / 6
        else:
            card[dice] = 1.0
        dist = convolve(dist, card)
    return dist


@dataclass(frozen=True, slots=True)
class Attacker:
    """One participant as the odds see it: its committed cards' dice, which of them Balazarg
    may curse, its reward dice, the roll it needs and whether it re-rolls failed dice."""

    card_dice: tuple[int, ...]
    cursed: tuple[bool, ...]
    extra_dice: int
    need: int
    reroll: bool

    @property
    def dice(self) -> int:
        return sum(self.card_dice) + self.extra_dice


def attacker_hits(attacker: Attacker, parry: bool) -> Distribution:
    """Distribution of one participant's hits, curse and parries included."""
    dice_dist = dice_after_curse(attacker.card_dice, attacker.cursed)
    total = len(dice_dist) - 1 + attacker.extra_dice
    out = [0.0] * (total + 1)
    for card_dice, pr in enumerate(dice_dist):
        if pr == 0.0:
            continue
        for hits, q in enumerate(
            roll_hits(card_dice + attacker.extra_dice, attacker.need, attacker.reroll, parry)
        ):
            out[hits] += pr * q
    return tuple(out)


def defeat_chance(attackers: Sequence[Attacker], life_left: int, parry: bool) -> float:
    """Chance that the attackers together land at least ``life_left`` hits."""
    if life_left <= 0:
        return 1.0
    dist: Distribution = (1.0,)
    for attacker in attackers:
        if attacker.dice:
            dist = convolve(dist, attacker_hits(attacker, parry))
    return min(1.0, max(0.0, sum(dist[life_left:])))


def binomial_tail(dice: int, need: int, hits: int) -> float:
    """P(at least ``hits`` successes with ``dice`` dice each hitting on ``need``+): the plain case."""
    return sum(roll_hits(dice, need, False, False)[hits:]) if hits <= dice else 0.0
