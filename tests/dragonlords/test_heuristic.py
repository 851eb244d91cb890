"""The DragonLords heuristic: legal choices with reasons, attacks by exact odds, the King kept safe."""

from __future__ import annotations

from warhorn.ai.dragonlords.player import DragonLordsHeuristic, win_chance
from warhorn.ai.heuristic import heuristic_for
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.actions import Attack, Casualties

from .helpers import act, build, dice, force, until


def test_the_heuristic_plays_a_short_game_with_a_reason_for_every_choice() -> None:
    state = load_game("dragonlords", seed=4, players=2, max_rounds=2)
    agent = heuristic_for("dragonlords")
    rng = Rng(1)
    while not state.is_terminal:
        decision = state.pending()
        choice = agent.choose(state, decision.player, rng)
        assert choice.action in state.legal_actions() and choice.reason
        state, _ = state.apply(choice.action)


def test_it_attacks_at_good_odds_and_never_with_the_king() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 9, {"id": 1, "token": "king"}),
            "bonefield": force(1, 2),
            "tusk_ridge": force(1, 9),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        }
    )
    choice = DragonLordsHeuristic().choose(state, 0, Rng(0))
    assert isinstance(choice.action, Attack) and choice.action.to == "bonefield"
    assert 1 not in choice.action.pieces and "%" in choice.reason
    assert win_chance(choice.action.count, 2, 3, 3, False) >= 0.6
    weak = build(
        spaces={"gorefort": force(0, 2, {"token": "king"}), "bonefield": force(1, 9, {"token": "king"})}
    )
    assert not isinstance(DragonLordsHeuristic().choose(weak, 0, Rng(0)).action, Attack)


def test_the_king_is_the_last_unit_given_up() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 5, {"token": "king"}),
            "bonefield": force(1, 1, {"id": 20, "token": "king"}, {"id": 23, "token": "decoy"}),
        }
    )
    dice(state, 1, 1, 6, 6, 6, 6)
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "casualties")
    choice = DragonLordsHeuristic().choose(state, 1, Rng(0))
    assert choice.action == Casualties((23,))


def test_mcts_plays_dragonlords_through_its_search_hooks() -> None:
    from warhorn.ai import make_agent

    state = build(
        spaces={
            "gorefort": force(0, 6, {"id": 1, "token": "king"}),
            "bonefield": force(1, 2),
            "khaz_thurn": force(1, 2, {"token": "king"}),
        }
    )
    agent = make_agent("mcts:iterations=8")
    action = agent.choose(state.determinize(0, Rng(2)), 0, Rng(3))
    assert action in state.legal_actions()
