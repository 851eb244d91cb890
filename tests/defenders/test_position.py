"""Defenders positions: states written with to_position read back identical, minimal
positions fill in the rest, and mistakes name their key."""

from __future__ import annotations

import json

import pytest

from warhorn.engine.errors import ContentErrors
from warhorn.engine.positions import check_position
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.defenders.position import position_from, to_position
from warhorn.games.defenders.state import DefendersState


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"players": 2, "heroes": "wizard,cleric", "heal_land": "both"},
        {"players": 1, "heroes_per_player": 3, "hard_fewer_minions": True},
    ],
)
def test_every_state_of_a_playthrough_round_trips(options: dict[str, object]) -> None:
    state = load_game("defenders", seed=3, **options)
    rng = Rng(11)
    steps = 0
    while True:
        assert isinstance(state, DefendersState)
        written = json.loads(json.dumps(to_position(state)))
        again = position_from(written)
        assert again.digest() == state.digest(), f"step {steps}"
        assert again.legal_actions() == state.legal_actions()
        assert to_position(again) == written
        if state.pending() is None:
            break
        legal = state.legal_actions()
        kinds = sorted({a.kind for a in legal})  # a kind first, so battles and picks come up
        kind = kinds[rng.below(len(kinds))]
        pick = [a for a in legal if a.kind == kind]
        state, _ = state.apply(pick[rng.below(len(pick))])
        steps += 1


def test_a_minimal_position_fills_in_the_rest() -> None:
    state = position_from(
        {
            "heroes": [
                {"player": 0, "hero": "paladin", "location": "Wolf Pass", "hand": []},
                {"player": 1, "hero": "wizard"},
            ],
            "minions": {"Wolf Pass": {"green": 2}},
            "taint": {"Wolf Pass": 1},
        }
    )
    paladin = state.slots[0]
    assert state.board.name(paladin.loc) == "Wolf Pass" and paladin.actions == paladin.life == 5
    assert state.supply[1] == 23 and state.crystals_left == 11
    assert len(state.hero_deck) + sum(len(s.hand) for s in state.slots) == len(state.board.hero_cards)
    decision = state.pending()
    assert decision is not None and decision.kind == "action" and decision.player == 0
    assert "fight Wolf_Pass" in {a.notation() for a in state.legal_actions()}
    check_position("defenders", to_position(state))


def test_mistakes_name_their_keys() -> None:
    with pytest.raises(ContentErrors) as caught:
        position_from(
            {
                "heroes": [{"player": 0, "hero": "paladn", "location": "Wolf Pas", "hand": ["nope"]}],
                "minions": {"Monarch City": {"purple": 1}},
            }
        )
    text = str(caught.value)
    assert "minions.Monarch City.purple" in text
    with pytest.raises(ContentErrors) as caught:
        position_from({"heroes": [{"player": 0, "hero": "paladn", "location": "Wolf Pas", "hand": ["nope"]}]})
    text = str(caught.value)
    assert "heroes[0].hero: unknown hero 'paladn'" in text
    assert "heroes[0].location: unknown location 'Wolf Pas'" in text
    assert "heroes[0].hand[0]: unknown hero card 'nope'" in text
    with pytest.raises(ContentErrors, match="heros"):
        position_from({"heros": []})
