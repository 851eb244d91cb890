"""Agent specs, budgets and the registry."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from warhorn.ai import AGENTS, Agent, Budget, RandomAgent, make_agent, parse_agent_spec, register_agent
from warhorn.engine import Rng, load_game


def test_budget_parse() -> None:
    assert Budget.parse("400") == Budget(iterations=400)
    assert Budget.parse("0.5s") == Budget(seconds=0.5)
    assert Budget.parse("iterations=100,seconds=2") == Budget(100, 2.0)
    for bad in ("lots", "0", "-1s", "turns=3"):
        with pytest.raises(ValueError, match="bad budget"):
            Budget.parse(bad)
    assert Budget(100, 2.0).describe() == "100 iterations or 2 s"


def test_parse_agent_spec() -> None:
    assert parse_agent_spec("random") == ("random", {})
    assert parse_agent_spec(" mcts:iterations=4:c=0.5 ") == ("mcts", {"iterations": "4", "c": "0.5"})
    with pytest.raises(ValueError, match="name=value"):
        parse_agent_spec("mcts:fast")


def test_make_agent_lists_known_kinds() -> None:
    assert isinstance(make_agent("random"), RandomAgent)
    with pytest.raises(ValueError, match=r"unknown agent 'genius' \(known: .*mcts.*random"):
        make_agent("genius")
    with pytest.raises(ValueError, match="takes no parameters"):
        make_agent("random:x=1")


def test_register_agent() -> None:
    class FirstAgent:
        name = "first"

        def choose(self, state, player, rng):  # type: ignore[no-untyped-def]
            return state.legal_actions()[0]

        def explain(self) -> str:
            return "always the first legal action"

    def factory(params: Mapping[str, str], budget: Budget | None) -> Agent:
        return FirstAgent()

    register_agent("first-test", factory)
    try:
        agent = make_agent("first-test")
        assert agent.choose(load_game("dice-race"), 0, Rng(0)).notation() == "roll"
        with pytest.raises(ValueError, match="already registered"):
            register_agent("first-test", lambda params, budget: FirstAgent())
        with pytest.raises(ValueError, match="must be letters"):
            register_agent("bad name", factory)
    finally:
        AGENTS.pop("first-test", None)


def test_random_agent_explains_and_is_seeded() -> None:
    state = load_game("dice-race", seed=3)
    agent = RandomAgent()
    picks = [agent.choose(state, 0, Rng(8)) for _ in range(3)]
    assert len(set(picks)) == 1
    assert agent.explain() == f"chosen at random among {len(state.legal_actions())} legal actions"
