"""PettingZoo's own judges on every registered game and option set of the conformance cases."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from warhorn.conformance import conformance_cases
from warhorn.engine.decisions import Results
from warhorn.interop.pettingzoo import env
from warhorn.interop.session import seat_rewards

OPTION_SETS = sorted({(game, tuple(sorted(options.items()))) for game, options, _ in conformance_cases()})


def _id(case: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    game, options = case
    return f"{game}[{','.join(f'{k}={v}' for k, v in options) or 'default'}]"


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("case", OPTION_SETS, ids=[_id(c) for c in OPTION_SETS])
def test_pettingzoo_api_and_seed_tests_pass(case: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    game, option_items = case
    options = dict(option_items)
    api_test(env(game, **options), num_cycles=400)
    seed_test(lambda: env(game, **options), num_cycles=50)


def test_a_whole_game_ends_with_every_seat_rewarded_by_the_results() -> None:
    aec = env("smallworld")
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        assert observation["action_mask"].any()
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    results = aec.session.state.results()
    assert results is not None
    assert list(totals.values()) == seat_rewards(results, len(aec.possible_agents))
    for player, agent in enumerate(aec.possible_agents):
        assert (totals[agent] == 1.0) == (player in results.winners)


def test_rewards_follow_the_ranking() -> None:
    three = Results(winners=frozenset({2}), ranking=((2,), (0,), (1,)))
    assert seat_rewards(three, 3) == [0.0, -1.0, 1.0]
    team_lost = Results(winners=frozenset(), ranking=((0, 1),))
    assert seat_rewards(team_lost, 2) == [-1.0, -1.0]
    team_won = Results(winners=frozenset({0, 1}), ranking=((0, 1),))
    assert seat_rewards(team_won, 2) == [1.0, 1.0]
