"""Exact odds of a general battle (DEF-GEN-01..10): no simulation, only probability tables.

A participant's dice come from the cards it commits (Balazarg's curse may take a
red card away first, 1 chance in 6 per card), plus reward dice. Each die hits on
``need``+ (the general's hit number less the hero's bonuses); a hero with a
re-roll re-rolls every failed die once (never against Varkolak). Against
Gorgutt every final face of 1 rolled in the battle parries one hit of any
participant (DEF-GEN-08), so a participant's roll is counted as hits less 1s,
which may be negative. The battle is won as soon as, after a participant's
roll, the battle's hits less its parries reach the general's remaining life.

Each participant's net hits are a probability vector; the battle is their
convolution, with the winning mass taken out after every participant. All of
it is exact arithmetic on small vectors (at most a few dozen dice), so a
decision costs well under a millisecond.
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
    """Distribution of one roll's hits with ``dice`` dice (its own parries subtracted, floor 0)."""
    net = roll_net(dice, need, reroll, parry)
    out = [0.0] * (dice + 1)
    for k, pr in enumerate(net):
        out[max(0, k - dice)] += pr
    return tuple(out)


@lru_cache(maxsize=4096)
def roll_net(dice: int, need: int, reroll: bool, parry: bool) -> Distribution:
    """Distribution of one roll's hits less its 1s (parry), shifted: entry ``k`` is net ``k - dice``."""
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
    return tuple(net)


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


def attacker_net(attacker: Attacker, parry: bool) -> dict[int, float]:
    """Distribution of one participant's hits less its 1s (Gorgutt), curse included: net -> chance."""
    dice_dist = dice_after_curse(attacker.card_dice, attacker.cursed)
    out: dict[int, float] = {}
    for card_dice, pr in enumerate(dice_dist):
        if pr == 0.0:
            continue
        dice = card_dice + attacker.extra_dice
        for k, q in enumerate(roll_net(dice, attacker.need, attacker.reroll, parry)):
            if q:
                out[k - dice] = out.get(k - dice, 0.0) + pr * q
    return out


def defeat_chance(attackers: Sequence[Attacker], life_left: int, parry: bool) -> float:
    """Chance that the general falls: after some participant's roll (in the given order), the
    battle's hits less its parries reach ``life_left``. Without ``parry`` that is the chance the
    attackers together land at least ``life_left`` hits."""
    if life_left <= 0:
        return 1.0
    won = 0.0
    running: dict[int, float] = {0: 1.0}
    for attacker in attackers:
        if not attacker.dice:
            continue
        roll = attacker_net(attacker, parry)
        nxt: dict[int, float] = {}
        for have, p in running.items():
            for net, q in roll.items():
                total = have + net
                if total >= life_left:
                    won += p * q
                else:
                    nxt[total] = nxt.get(total, 0.0) + p * q
        running = nxt
    return min(1.0, max(0.0, won))


def binomial_tail(dice: int, need: int, hits: int) -> float:
    """P(at least ``hits`` successes with ``dice`` dice each hitting on ``need``+): the plain case."""
    return sum(roll_hits(dice, need, False, False)[hits:]) if hits <= dice else 0.0
