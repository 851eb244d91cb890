"""The odds with allied defenders who agree how to share each volley's damage (NER-BAT-07, option
``allied_damage = agree``): the calculator gives the split best for the defenders over every
agreement. Checked on small battles against a brute force written independently of the calculator:
a recursion over (attacker's soldiers, each ally's pieces) in which the allies try every split of
every volley's hits.
"""

from __future__ import annotations

from functools import cache
from math import comb

import pytest

from warhorn.games.nerath.odds import battle_odds

#: Land battle dice of the pieces used here (one die each; a 6 or more hits, NER-PCS-01).
SIDES = {"soldier": 6, "warrior": 10, "monster": 12}


def _hits(pieces: tuple[str, ...]) -> list[float]:
    """Chance of each number of hits when ``pieces`` roll (one die each, hit on 6+)."""
    out = [1.0]
    for p in pieces:
        hit = (SIDES[p] - 5) / SIDES[p]
        nxt = [0.0] * (len(out) + 1)
        for n, pr in enumerate(out):
            nxt[n] += pr * (1 - hit)
            nxt[n + 1] += pr * hit
        out = nxt
    return out


@cache
def _attacker_wins(soldiers: int, ally1: tuple[str, ...], ally2: tuple[str, ...]) -> float:
    """The attacker's chance (``soldiers`` soldiers) against two allies who lose pieces from the
    front of their tuples (listed in the loss order), sharing each volley's hits in the way worst
    for the attacker."""
    if not ally1 and not ally2:
        return 1.0 if soldiers else 0.0
    if not soldiers:
        return 0.0
    att = [comb(soldiers, k) * (1 / 6) ** k * (5 / 6) ** (soldiers - k) for k in range(soldiers + 1)]
    dfn = _hits(ally1 + ally2)
    total = 0.0
    for ha, pa in enumerate(att):
        for hb, pb in enumerate(dfn):
            if ha == hb == 0:
                continue  # nothing happens: the round is played again (divided out below)
            left = max(0, soldiers - hb)
            ha_eff = min(ha, len(ally1) + len(ally2))
            splits = [
                (s1, ha_eff - s1)
                for s1 in range(ha_eff + 1)
                if s1 <= len(ally1) and ha_eff - s1 <= len(ally2)
            ]
            total += pa * pb * min(_attacker_wins(left, ally1[s1:], ally2[s2:]) for s1, s2 in splits)
    return total / (1 - att[0] * dfn[0])


def _text(pieces: tuple[str, ...]) -> str:
    return ", ".join(f"1 {p}" for p in pieces)


@pytest.mark.rule("NER-BAT-07")
@pytest.mark.parametrize(
    ("soldiers", "ally1", "ally2", "order"),
    [
        (2, ("soldier",), ("monster",), None),
        (3, ("warrior",), ("soldier", "soldier"), None),
        (2, ("soldier", "monster"), ("warrior",), None),
        (3, ("soldier", "soldier"), ("soldier",), None),
        # a loss order that loses monsters first: the best agreement beats both known splits
        (2, ("monster",), ("soldier",), ("monster", "warrior", "soldier")),
        (2, ("monster",), ("monster", "warrior"), ("monster", "warrior", "soldier")),
    ],
)
def test_the_agreed_split_is_the_best_of_every_agreement(
    soldiers: int, ally1: tuple[str, ...], ally2: tuple[str, ...], order: tuple[str, ...] | None
) -> None:
    odds = battle_odds(f"{soldiers} soldier", _text(ally1), ally=_text(ally2), loss_order=order)
    assert odds.allied_split == "best"
    assert odds.attacker_win == pytest.approx(_attacker_wins(soldiers, ally1, ally2), abs=1e-9)
    fixed = battle_odds(
        f"{soldiers} soldier", _text(ally1), ally=_text(ally2), loss_order=order, allied_damage="fixed"
    )
    assert odds.attacker_win <= fixed.attacker_win + 1e-12
    outcomes = odds.attacker_win + odds.defender_win + odds.mutual_destruction
    assert outcomes == pytest.approx(1.0, abs=1e-9)  # every figure is that of one policy


@pytest.mark.rule("NER-BAT-07")
def test_the_best_agreement_can_beat_both_the_rule_and_one_army() -> None:
    # Monsters first in the loss order: as one army the monster dies first; the rule's split gives
    # the odd hit by lot; the best agreement sends every single hit to the soldier's ally.
    order = ("monster", "warrior", "soldier")
    odds = battle_odds("2 soldier", "1 monster", ally="1 soldier", loss_order=order)
    fixed = battle_odds("2 soldier", "1 monster", ally="1 soldier", loss_order=order, allied_damage="fixed")
    one_army = battle_odds("2 soldier", "1 monster, 1 soldier", loss_order=order)
    assert odds.attacker_win < min(fixed.attacker_win, one_army.attacker_win) - 0.05
    assert "best of every agreement" in odds.allied_split_note


@pytest.mark.rule("NER-BAT-07")
def test_with_a_retreat_rule_the_better_of_two_splits_is_given_and_said() -> None:
    from warhorn.games.nerath.battle_model import RetreatRule

    odds = battle_odds("3 soldier", "1 soldier", ally="1 monster", retreat=RetreatRule(at_or_below=1))
    assert odds.allied_split in ("one_army", "rule") and "with a retreat rule" in odds.allied_split_note
