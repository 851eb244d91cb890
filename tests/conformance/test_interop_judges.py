"""The RL libraries' own judges on every registered game and option set of the conformance cases.

A game registered through its plugin gets these with no interop code of its own: PettingZoo's
``api_test`` and ``seed_test`` on the AEC environment, Gymnasium's ``check_env`` on the single-agent
environment, and OpenSpiel's ``random_sim_test`` on the Python game (information-state and
observation tensors included), each on every option set. Skipped when the
``rl`` extra is not installed.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from warhorn.conformance import conformance_cases  # noqa: E402
from warhorn.engine.registry import game_spec  # noqa: E402
from warhorn.interop.gymnasium import env_id  # noqa: E402
from warhorn.interop.openspiel import short_name  # noqa: E402
from warhorn.interop.pettingzoo import env  # noqa: E402

OPTION_SETS = sorted({(game, tuple(sorted(options.items()))) for game, options, _ in conformance_cases()})


def _id(case: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    game, options = case
    return f"{game}[{','.join(f'{k}={v}' for k, v in options) or 'default'}]"


IDS = [_id(case) for case in OPTION_SETS]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("case", OPTION_SETS, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(case: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    game, option_items = case
    options = dict(option_items)
    api_test(env(game, **options), num_cycles=400)
    seed_test(lambda: env(game, **options), num_cycles=50)


@pytest.mark.filterwarnings("ignore:.*Box observation space")
@pytest.mark.parametrize("case", OPTION_SETS, ids=IDS)
def test_gymnasium_env_checker_passes(case: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    game, option_items = case
    check_env(gymnasium.make(env_id(game), opponents="random", **dict(option_items)).unwrapped)


#: Options that end a game after so many rounds (the OpenSpiel test plays one round).
ROUND_LIMITS = ("round_cap", "max_rounds")


@pytest.mark.parametrize("case", OPTION_SETS, ids=IDS)
def test_openspiel_random_simulation_test_passes(case: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    """One simulated game; a game with a round limit (``round_cap``, ``max_rounds``) plays one round, to
    keep the suite's time (the test observes every player at every token)."""
    game, option_items = case
    options = dict(option_items)
    for option in game_spec(game).options:
        if option.name in ROUND_LIMITS:
            options[option.name] = 1
    loaded = pyspiel.load_game(short_name(game), options)
    assert loaded.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.filterwarnings("ignore:.*Box observation space")
def test_the_three_judges_pass_on_a_flat_index_game_played_token_by_token() -> None:
    """Small World has a flat action index (one step per action, the default above); played token by
    token (``action_index="tokens"``, what every game without one gets) it passes the judges too."""
    api_test(env("smallworld", action_index="tokens"), num_cycles=400)
    seed_test(lambda: env("smallworld", action_index="tokens"), num_cycles=50)
    check_env(gymnasium.make(env_id("smallworld"), opponents="random", action_index="tokens").unwrapped)
    loaded = pyspiel.load_game(short_name("smallworld"), {"action_index": "tokens"})
    assert loaded.num_distinct_actions() < 1000  # the token vocabulary, not the flat index
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)
