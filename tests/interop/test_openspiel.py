"""The OpenSpiel games: game types from the spec, tensors (OpenSpiel's own test: tests/conformance)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from warhorn.engine.registry import game_spec, registered_plugins  # noqa: E402
from warhorn.interop.openspiel import (  # noqa: E402
    information_state_tensor_size,
    register_games,
    short_name,
)

GAMES = sorted(registered_plugins())


@pytest.mark.parametrize("game", GAMES)
def test_game_type_is_declared_from_the_spec(game: str) -> None:
    register_games()  # a game registered after the import (the tests' tiny games) is registered now
    spec = game_spec(game)
    kind = pyspiel.load_game(short_name(game)).get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == spec.hidden_information
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC) == spec.has_chance
    expected = (
        pyspiel.GameType.Utility.IDENTICAL if spec.cooperative else pyspiel.GameType.Utility.GENERAL_SUM
    )
    assert kind.utility == expected


def test_states_are_independent_and_information_states_differ_by_player() -> None:
    game = pyspiel.load_game(short_name("smallworld"))
    state = game.new_initial_state()
    twin = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert twin.history() == [] and len(state.history()) == 1
    assert state.information_state_string(0) != state.information_state_string(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


@pytest.mark.parametrize("action_index", ["tokens", "auto"])
def test_the_information_state_tensor_keeps_the_players_own_tokens_and_its_views(action_index: str) -> None:
    game = pyspiel.load_game(short_name("smallworld"), {"rng_seed": 3, "action_index": action_index})
    state = game.new_initial_state()
    observation_size = game.observation_tensor_size()
    vocabulary = game.num_distinct_actions()
    # the encoder's part of the observation: all of it with a flat index (Small World's "auto")
    view_size = observation_size - (2 * vocabulary if action_index == "tokens" else 0)
    assert game.information_state_tensor_size() == information_state_tensor_size(
        observation_size, vocabulary, view_size
    )
    chosen: dict[int, list[int]] = {0: [], 1: []}
    for _ in range(40):
        player = state.current_player()
        action = state.legal_actions()[0]
        chosen[player].append(action)
        state.apply_action(action)
    for player in (0, 1):
        tensor = np.array(state.information_state_tensor(player))
        assert tensor.shape == (game.information_state_tensor_size(),)
        assert np.array_equal(tensor[:observation_size], state.observation_tensor(player))
        counts = tensor[observation_size : observation_size + vocabulary]
        assert counts.sum() == len(chosen[player])
        assert all(counts[token] == chosen[player].count(token) for token in set(chosen[player]))
    assert state.information_state_string(0) != state.clone().information_state_string(1)
    assert np.array_equal(state.clone().information_state_tensor(0), state.information_state_tensor(0))
