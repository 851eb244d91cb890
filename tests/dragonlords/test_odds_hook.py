"""The odds hook of the DragonLords plugin: an attack's plain-battle odds from public facts."""

from __future__ import annotations

import pytest

from warhorn.engine.plugin import OddsUnavailableError, resolve
from warhorn.engine.registry import game_plugin
from warhorn.games.dragonlords.actions import Attack, Done
from warhorn.games.dragonlords.odds import PlainBattleRequest, plain_battle_odds

from .helpers import build, force


@pytest.mark.rule("DLR-CMB-01")
def test_attack_odds_read_the_units_and_the_kingdom_penalty() -> None:
    support = resolve(game_plugin("dragonlords").odds or "")
    state = build(
        players=[{"people": "barbarians"}, {"people": "dwarves"}],
        spaces={
            "tusk_ridge": force(0, 5, {"token": "king"}),
            "gorefort": force(1, 2, {"token": "decoy"}),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
    )
    answer = support.attack_odds(state, Attack("tusk_ridge", "gorefort", 3))
    expected = plain_battle_odds(PlainBattleRequest(attackers=3, defenders=3, attacker_tas=3, defender_tas=3))
    assert answer["attacker_wins"] == pytest.approx(expected.attacker_wins)  # Barbarians 4, minus 1
    assert "not counted" in answer["note"]
    with pytest.raises(OddsUnavailableError):
        support.attack_odds(state, Done())
