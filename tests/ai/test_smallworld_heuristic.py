"""The Small World of Warcraft heuristic: its choices in scenarios, each with a reason in numbers."""

from __future__ import annotations

import pytest

from tests.smallworld.helpers import mine, scenario
from warhorn.ai.smallworld.player import SmallWorldHeuristic, make_heuristic
from warhorn.engine.rng import Rng
from warhorn.games.smallworld.actions import Conquer, Decline, EndConquests, Pick, Reinforce


def test_it_takes_the_combo_worth_most() -> None:
    s = scenario(
        2,
        column={
            "races": ["night_elves", "tauren", "humans", "orcs", "naga", "trolls"],
            "powers": ["fishing", "farmer", "sailing", "ranger", "mining", "explorer"],
            "coins": [0, 0, 0, 0, 0, 4],
        },
    )
    choice = SmallWorldHeuristic().choose(s, 0, Rng(0))
    assert choice.action == Pick(1)  # Farmer Tauren: 15 tokens for 1 coin
    assert "15 tokens" in choice.reason and "pays 1" in choice.reason


def test_it_conquers_for_the_best_worth_and_says_so() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "herbalist"}, "hand": 4, "picked_turn": 0}, {}],
        {"n1": mine(0, "orcs", 1), "n4": {"mountain": True}},
    )
    choice = SmallWorldHeuristic().choose(s, 0, Rng(0))
    assert choice.action == Conquer("n3")  # a hill: the region and the Herbalist coin for 2 tokens
    assert "2 token" in choice.reason and "+2.0 coins" in choice.reason


def test_it_declines_an_exhausted_race() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "picked_turn": -3}, {}],
        {r: mine(0, "orcs", 1) for r in ("n1", "n2", "n3")},
        start_turn=True,
    )
    choice = SmallWorldHeuristic().choose(s, 0, Rng(0))
    assert choice.action == Decline() and "0 tokens in hand reach only 0 region" in choice.reason


def test_it_tries_a_final_conquest_at_good_odds_only() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 1, "picked_turn": 0}, {}],
        {
            "n1": mine(0, "orcs", 1),
            "n3": {"race": "murlocs", "tokens": 1},
            "n2": {"race": "murlocs", "tokens": 3},
        },
        turn={"acted": True},
    )
    choice = SmallWorldHeuristic().choose(s, 0, Rng(0))
    assert isinstance(choice.action, Reinforce) and "2 short" in choice.reason and "33%" in choice.reason
    picky = make_heuristic({"final_odds": "0.4"}).choose(s, 0, Rng(0))
    assert picky.action == EndConquests()


def test_settings_are_refused_by_name() -> None:
    assert make_heuristic({"decline_below": "3"}).settings.decline_below == 3
    with pytest.raises(ValueError, match="unknown Small World heuristic setting 'greed'"):
        make_heuristic({"greed": "1"})


def test_search_hooks_value_the_leader_and_mcts_plays_a_legal_move() -> None:
    from warhorn.ai import make_agent
    from warhorn.ai.smallworld.search import evaluate
    from warhorn.engine import load_game

    s = scenario(
        [
            {"coins": 20, "active": {"race": "orcs", "power": "sailing"}},
            {"coins": 5, "active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(0, "orcs", 1), "s1": mine(1, "humans", 1)},
    )
    assert evaluate(s, 0) > 0.9 > 0.1 > evaluate(s, 1)
    game = load_game("smallworld", seed=3, players=2)
    agent = make_agent("mcts:iterations=30")
    action = agent.choose(game, 0, Rng(1))
    assert action in game.legal_actions()


def _choose(s: object) -> tuple[str, str]:
    choice = SmallWorldHeuristic().choose(s, 0, Rng(0))  # type: ignore[arg-type]
    return choice.action.notation(), choice.reason


def test_it_intimidates_a_neighbour_before_conquering_it() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "intimidating"}, "hand": 4, "picked_turn": 0}, {}],
        {"n1": mine(0, "orcs", 1), "n3": {"race": "murlocs", "tokens": 2}},
    )
    action, reason = _choose(s)
    assert action == "intimidate n3" and "one defender fewer" in reason


def test_it_steals_an_artifact_next_door() -> None:
    s = scenario(
        [
            {"active": {"race": "ethereals", "power": "sailing"}, "hand": 4, "picked_turn": 0},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "ethereals", 1), "n3": mine(1, "humans", 2, markers=["frostmourne"])},
    )
    action, reason = _choose(s)
    assert action == "steal n3 n1" and "Frostmourne" in reason


def test_it_swaps_a_plain_magic_region_for_one_with_a_legendary_place() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "portal_mage"}, "hand": 0, "picked_turn": 0},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "s3": mine(1, "humans", 1, markers=["dark_portal"])},
    )
    action, reason = _choose(s)
    assert action == "portal n1 s3" and "+1.5 coins a turn" in reason


def test_gnomes_fly_to_a_region_out_of_reach() -> None:
    s = scenario(
        [{"active": {"race": "gnomes", "power": "farmer"}, "hand": 5, "picked_turn": 0}, {}],
        {
            "n8": mine(0, "gnomes", 1),
            "n7": {"race": "murlocs", "tokens": 3},
            "s1": {"race": "murlocs", "tokens": 3},
        },
    )
    s.areas["n1"].tokens, s.areas["n1"].race, s.areas["n1"].declined = 3, "murlocs", True
    s.areas["n2"].tokens, s.areas["n2"].race, s.areas["n2"].declined = 3, "murlocs", True
    s.areas["n5"].tokens, s.areas["n5"].race, s.areas["n5"].declined = 3, "murlocs", True
    s.areas["s3"].tokens, s.areas["s3"].race, s.areas["s3"].declined = 3, "murlocs", True
    s.forget_derived()
    action, reason = _choose(s)
    assert action == "conquer n3 via airborne" and "via airborne" in reason
