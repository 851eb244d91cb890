"""Card modifiers at their edges: a soldier wounded while a card makes it resilient."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.nerath.scenario import K, V, position
from warhorn.games.nerath.actions import AssignDamage
from warhorn.games.nerath.board import CardEffect
from warhorn.games.nerath.state import BATTLES, BattleState, DamageOrder

SHIELD_WALL = CardEffect("grant_resilience", (("count", 2), ("duration", "battle"), ("piece", "soldier")))


@pytest.mark.rule("NER-BAT-05")
@pytest.mark.rule("NER-BAT-03")
def test_a_soldier_wounded_under_card_resilience_is_offered_as_wounded() -> None:
    s = position([(K, "v2", "soldier", 3), (V, "v2", "soldier", 2)], kingdom=K, control={"k2": K})
    s.d.effects = ((V, SHIELD_WALL),)
    wounded = next(u for u in s.units_at(s.board.idx("v2")) if u.kingdom == V)
    s.update(wounded, damage=1)
    s.d.pos = replace(s.d.pos, phase=BATTLES)
    s.d.battle = BattleState(
        s.board.idx("v2"), "land", K, step="normal", orders=(DamageOrder(s.player_of[V], V, 1),)
    )
    listed = s.legal_actions()
    assert AssignDamage(("wounded-soldier",)) in listed and AssignDamage(("soldier",)) in listed
    assert all(s.is_legal(a) for a in listed)
    after, _ = s.apply(AssignDamage(("wounded-soldier",)))
    assert wounded.uid not in after.d.units
