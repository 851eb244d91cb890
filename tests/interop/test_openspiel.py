"""OpenSpiel's own random-simulation test on every registered game, and the game types declared."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from warhorn.engine.registry import game_spec, registered_plugins  # noqa: E402
from warhorn.interop.openspiel import short_name  # noqa: E402


def _judged_options(game: str) -> dict[str, Any]:
    """The game's first conformance option set; a game with a round cap plays one round, so OpenSpiel's
    checks (every observation of every player at every token) fit in the test suite."""
    options = dict(registered_plugins()[game].conformance.option_sets[0])
    spec = game_spec(game)
    if any(option.name == "round_cap" for option in spec.options):
        options["round_cap"] = 1
    return options


GAMES = sorted(registered_plugins())


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation_test_passes(game: str) -> None:
    loaded = pyspiel.load_game(short_name(game), _judged_options(game))
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_game_type_is_declared_from_the_spec(game: str) -> None:
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
