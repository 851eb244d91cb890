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
    # the dice race hides hands: how many actions there were would count the playable cards held
    assert agent.explain() == "chosen at random among its legal actions"


def test_random_agent_counts_the_legal_actions_only_without_hidden_information() -> None:
    import tiny_games

    tiny_games.register()
    state = load_game("nim-test", seed=1)
    agent = RandomAgent()
    agent.choose(state, 0, Rng(2))
    assert agent.explain() == f"chosen at random among {len(state.legal_actions())} legal actions"


def test_random_agents_reason_does_not_depend_on_its_hidden_cards() -> None:
    """In Nerath the number of legal actions counts the AI's playable cards (at a card window, 1 means
    'holds no card that fits'): the reason, shown to all, must read the same whatever the AI holds."""
    state = load_game("nerath", seed=5, round_cap=1)
    rng = Rng(9)
    compared = differing_counts = 0
    while state.pending() is not None and compared < 60:
        decider = state.pending().player  # type: ignore[union-attr]
        if decider != 0:
            agent = RandomAgent()
            agent.choose(state, decider, Rng(1))
            reason = agent.explain()
            for n in range(3):
                twin = state.determinize(0, Rng(n))  # seat 0 cannot tell these apart from the truth
                other = RandomAgent()
                other.choose(twin, decider, Rng(1))
                compared += 1
                differing_counts += len(twin.legal_actions()) != len(state.legal_actions())
                assert other.explain() == reason
        legal = state.legal_actions()
        state, _ = state.apply(legal[rng.below(len(legal))])
    assert differing_counts > 0, "the AI's options never depended on its cards: the test proves nothing"
