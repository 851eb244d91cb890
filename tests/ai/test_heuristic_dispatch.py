"""The ``heuristic`` agent kind dispatches to the heuristic registered for the state's game."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from warhorn.ai import Choice, HeuristicAgent, heuristic_for, make_agent, register_heuristic
from warhorn.ai import heuristic as heuristic_module
from warhorn.engine import GameState, Rng, load_game


class LastLegal:
    """Always the last legal action, with a reason naming how many there were."""

    def __init__(self, params: Mapping[str, str]) -> None:
        unknown = set(params) - {"note"}
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}")
        self.note = params.get("note", "")

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        legal = state.legal_actions()
        return Choice(legal[-1], f"last of {len(legal)} {self.note}".strip())


@pytest.fixture
def dice_race_heuristic() -> Iterator[None]:
    saved = dict(heuristic_module._HEURISTICS)
    register_heuristic("dice-race", LastLegal)
    yield
    heuristic_module._HEURISTICS.clear()
    heuristic_module._HEURISTICS.update(saved)


def test_heuristic_agent_uses_the_games_heuristic_and_explains(dice_race_heuristic: None) -> None:
    state = load_game("dice-race", seed=3)
    agent = make_agent("heuristic:note=ok")
    assert isinstance(agent, HeuristicAgent)
    decision = state.pending()
    assert decision is not None
    action = agent.choose(state, decision.player, Rng(1))
    assert action == state.legal_actions()[-1]
    assert agent.explain() == f"last of {len(state.legal_actions())} ok"


def test_heuristic_parameters_are_checked_by_the_game(dice_race_heuristic: None) -> None:
    state = load_game("dice-race", seed=3)
    with pytest.raises(ValueError, match="unknown parameter"):
        make_agent("heuristic:speed=9").choose(state, 0, Rng(1))


def test_a_game_without_heuristic_is_named() -> None:
    with pytest.raises(ValueError, match="game 'no-such-game' has no heuristic agent"):
        heuristic_for("no-such-game")
