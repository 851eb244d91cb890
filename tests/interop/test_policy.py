"""A token policy as a warhorn agent: it plays whole games with legal actions and sees only the view."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.interop.policy import TokenPolicyAgent, random_token_policy
from warhorn.interop.session import TokenSession


def test_a_random_token_policy_plays_a_whole_game_with_legal_actions() -> None:
    agent = TokenPolicyAgent(random_token_policy(5))
    state = load_game("defenders", seed=5, players=1)
    rng = Rng(5)
    while not state.is_terminal:
        player = state.pending().player
        action = agent.choose(state, player, rng)
        assert action in state.legal_actions()
        state, _ = state.apply(action)
    assert state.results() is not None


def test_the_agent_sees_what_the_environment_shows() -> None:
    session = TokenSession("smallworld")
    session.reset(3)
    seen: list[npt.NDArray[np.float32]] = []

    def first_allowed(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        seen.append(observation)
        return int(np.flatnonzero(mask)[0])

    player = session.acting_player
    assert player is not None
    TokenPolicyAgent(first_allowed).choose(session.state, player, Rng(3))
    assert np.array_equal(seen[0], session.observation(player))


def test_a_token_outside_the_mask_is_refused() -> None:
    agent = TokenPolicyAgent(lambda observation, mask: int(np.flatnonzero(mask == 0)[0]), name="bad")
    state = load_game("smallworld", seed=1)
    with pytest.raises(ValueError, match=r"bad: .* outside the mask"):
        agent.choose(state, state.pending().player, Rng(1))
