"""Random legal play (a fuzzer, not a proof), views and the cooperative results."""

from __future__ import annotations

from typing import Any

import pytest

from warhorn.conformance import random_playthrough, replay_problems
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.defenders import game as _game  # noqa: F401  (registers the game)

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 2},
    {"players": 3, "heal_land": "both"},
    {"players": 4},
    {
        "players": 2,
        "heroes_per_player": 2,
        "easy_setup": True,
        "easy_no_penalty": True,
        "easy_extra_life": True,
    },
    {"players": 2, "hard_setup_overrun": True, "hard_less_life": True, "hard_fewer_minions": True},
]
ROUND_BOUND = 200


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("seed", [0, 1])
def test_random_play_keeps_the_contract_and_ends(options: dict[str, Any], seed: int) -> None:
    report = random_playthrough("defenders", seed, options, views_every=5)
    assert report.problems == []
    assert report.finished and report.final is not None
    state = report.final
    assert state.turn_no < ROUND_BOUND * len(state.slots)
    results = state.results()
    assert results is not None
    assert results.winners in (frozenset(), frozenset(range(state.num_players)))  # all or none
    assert sorted(p for group in results.ranking for p in group) == list(range(state.num_players))
    assert replay_problems(report) == []


def test_many_quick_random_games_end_inside_the_bound() -> None:
    for seed in range(40):
        state = load_game("defenders", seed=seed, players=1 + seed % 4)
        chooser = Rng(seed)
        steps = 0
        while state.pending() is not None:
            legal = state.legal_actions()
            state, _ = state.apply(legal[chooser.below(len(legal))])
            steps += 1
            assert steps < 20_000
        assert state.invariants() == []
        assert state.turn_no < ROUND_BOUND


def test_views_hide_deck_order_only_and_determinize_keeps_the_view() -> None:
    state = load_game("defenders", seed=4, players=3)
    for player in range(3):
        view = state.view(player)
        assert "draw" not in view["hero_deck"] and "draw" not in view["darkness_deck"]
        assert view["hero_deck"]["draw_count"] == len(state.hero_deck.draw_pile)
        assert [h["hand"] for h in view["heroes"]] == [s.hand for s in state.slots]  # hands are open
        other = state.determinize(player, Rng(99))
        assert other.view(player) == view
        assert other.snapshot()["hero_deck"] != state.snapshot()["hero_deck"]
