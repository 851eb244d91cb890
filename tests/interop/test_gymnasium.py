"""The Gymnasium environment: whole episodes against built-in agents (its checker: tests/conformance)."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from warhorn.engine.registry import registered_games  # noqa: E402
from warhorn.interop.gymnasium import env_id, register_games  # noqa: E402
from warhorn.interop.session import seat_rewards  # noqa: E402


def test_every_registered_game_has_an_id() -> None:
    # a game registered after the import (the tests' tiny games, when another directory's tests
    # imported this module first) gets its id from register_games()
    register_games()
    for game in registered_games():
        assert env_id(game) in gymnasium.registry


@pytest.mark.filterwarnings("ignore:.*Box observation space")
def test_an_episode_against_heuristic_agents_ends_with_the_learners_result() -> None:
    env = gymnasium.make(env_id("smallworld"), opponents="heuristic", seat=1)
    observation, info = env.reset(seed=7)
    rng = np.random.default_rng(7)
    terminated, reward = False, 0.0
    while not terminated:
        assert env.observation_space.contains(observation)
        assert info["decision"]["player"] == 1
        observation, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        assert not truncated
    state = env.unwrapped.session.state
    assert reward == seat_rewards(state.results(), state.num_players)[1]


@pytest.mark.filterwarnings("ignore:.*Box observation space")
def test_a_token_outside_the_mask_changes_nothing() -> None:
    env = gymnasium.make(env_id("defenders"), opponents="random", players=1, illegal_token_reward=-0.5)
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    digest = env.unwrapped.session.state.digest()
    after, reward, terminated, _, info = env.step(illegal)
    assert info["illegal_token"] and reward == -0.5 and not terminated
    assert np.array_equal(after, observation) and env.unwrapped.session.state.digest() == digest
