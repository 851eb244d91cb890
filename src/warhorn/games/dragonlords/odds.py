"""Exact odds of a plain DragonLords land battle: units and TAS modifiers, no spells or cards.

A plain battle is the combat sequence of DLX-CMB-01/02 with nothing cast: every round the attacker's
units roll at their TAS, the defender's at theirs, both against the d6 of the other side's defence
(DLR-CMB-02), hits go together in step 7 (DLR-CMB-03), and rounds repeat until one side is gone or
the attacker retreats (DLR-CMB-07). With ``sneak_attack`` the first round is an Elf sneak attack
(DLR-PEO-02). The hit chance of one die is :func:`warhorn.games.dragonlords.combat.hit_probability`,
the same rule the game rolls by.

The calculation is exact (no sampling). The battle is an absorbing Markov chain on (attackers
left, defenders left). Every round that changes anything lowers their sum, so the chain is solved
by pushing probability from the largest sums down. A round with no hit on either side repeats the
state, and is folded in by dividing by its complement. Spell cards, spells, shards, heroes and
monsters are left out (they are decisions and effects of the game, not of the dice alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt
import pydantic

from warhorn.games.dragonlords.combat import UNIT_DEFENCE, hit_probability

FloatArray = npt.NDArray[np.float64]


class PlainBattleRequest(pydantic.BaseModel):
    """A calculator question; validation errors name the field at fault."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    attackers: int = pydantic.Field(ge=1, le=200)
    defenders: int = pydantic.Field(ge=1, le=200)
    attacker_tas: int = pydantic.Field(default=3, ge=-10, le=20)
    defender_tas: int = pydantic.Field(default=3, ge=-10, le=20)
    sneak_attack: bool = False
    retreat_at: int = pydantic.Field(
        default=0, ge=0, description="retreat once this many attackers or fewer remain"
    )


@dataclass(frozen=True)
class PlainBattleOdds:
    """The outcome distribution of a plain battle.

    ``attacker_wins``: the attackers take the territory (defenders gone, attackers left);
    ``defender_holds``: the attackers are gone, defenders left; ``both_destroyed``: both sides gone
    in the same step 7 (DLR-CMB-08); ``attacker_retreats``: the attacker withdrew with units left.
    ``outcomes`` maps (attackers left, defenders left) to its probability.
    """

    attacker_wins: float
    defender_holds: float
    both_destroyed: float
    attacker_retreats: float
    expected_attackers_left: float
    expected_defenders_left: float
    outcomes: dict[tuple[int, int], float]


@lru_cache(maxsize=4096)
def _pmf(n: int, p: float) -> FloatArray:
    """P(k hits of n dice) for k = 0..n (memoised: a battle asks the same few again and again)."""
    pmf = np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])
    pmf.flags.writeable = False
    return pmf


def _binomial(n: int, p: float, cap: int) -> FloatArray:
    """P(k hits of n dice) for k = 0..cap; every k >= cap is folded into cap (hits beyond a side are lost)."""
    pmf = _pmf(n, p)
    if n <= cap:
        out = np.zeros(cap + 1)
        out[: n + 1] = pmf
        return out
    return np.concatenate([pmf[:cap], [pmf[cap:].sum()]])


def plain_battle_odds(request: PlainBattleRequest) -> PlainBattleOdds:
    """The exact outcome distribution of ``request`` (see the module's description)."""
    n, m = request.attackers, request.defenders
    pa = hit_probability(request.attacker_tas, UNIT_DEFENCE)
    pd = hit_probability(request.defender_tas, UNIT_DEFENCE)
    mass = np.zeros((n + 1, m + 1))

    # The first round (a sneak attack lets only the defenders the attacker missed strike back).
    first_a = _binomial(n, pa, m)
    for x, px in enumerate(first_a):
        rolling = m - x if request.sneak_attack else m
        first_d = _binomial(rolling, pd, n)
        for y, py in enumerate(first_d):
            mass[n - y, m - x] += px * py

    def terminal(i: int, j: int) -> bool:
        return i == 0 or j == 0 or i <= request.retreat_at

    if pa == 0 and pd == 0:  # nobody can ever hit: the battle cannot end by the dice
        raise ValueError("attacker_tas/defender_tas: neither side can hit, the battle never ends")

    for total in range(n + m, 0, -1):
        for i in range(min(n, total), -1, -1):
            j = total - i
            if j < 0 or j > m or terminal(i, j) or mass[i, j] == 0.0:
                continue
            p = mass[i, j]
            mass[i, j] = 0.0
            hits_on_defenders = _binomial(i, pa, j)  # index x
            hits_on_attackers = _binomial(j, pd, i)  # index y
            step = np.outer(hits_on_attackers, hits_on_defenders)  # [y, x]
            stay = step[0, 0]
            step[0, 0] = 0.0
            mass[: i + 1, : j + 1] += (p / (1.0 - stay)) * step[::-1, ::-1]

    outcomes = {(i, j): float(mass[i, j]) for i in range(n + 1) for j in range(m + 1) if mass[i, j] > 0.0}
    wins = sum(p for (i, j), p in outcomes.items() if j == 0 and i > 0)
    holds = sum(p for (i, j), p in outcomes.items() if i == 0 and j > 0)
    both = outcomes.get((0, 0), 0.0)
    retreats = sum(p for (i, j), p in outcomes.items() if i > 0 and j > 0)
    return PlainBattleOdds(
        attacker_wins=wins,
        defender_holds=holds,
        both_destroyed=both,
        attacker_retreats=retreats,
        expected_attackers_left=sum(i * p for (i, _), p in outcomes.items()),
        expected_defenders_left=sum(j * p for (_, j), p in outcomes.items()),
        outcomes=outcomes,
    )
