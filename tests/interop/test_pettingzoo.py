"""The PettingZoo AEC environment: rewards from the results (its judges run in tests/conformance)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from warhorn.engine.decisions import Results
from warhorn.interop.pettingzoo import env
from warhorn.interop.session import seat_rewards


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


def test_a_game_with_a_flat_index_takes_one_step_per_action() -> None:
    aec = env("smallworld")
    assert aec.session.flat and aec.action_space("player_0").n == aec.session.index.size
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert observation["observation"].shape == (aec.session.encoder.size,)
        before = aec.session.state
        legal = aec.session.chooser.legal
        number = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        assert aec.session.index.decode(number) in legal
        aec.step(number)
        assert aec.session.state is not before, f"{agent}'s step did not apply an action"
