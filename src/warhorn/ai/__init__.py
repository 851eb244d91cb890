"""AI players: one small interface, ``choose(state, player, rng) -> action``, and ``explain()``.

Kinds are looked up by name with :func:`make_agent`: ``random`` and ``mcts``
(generic information-set search); games add heuristics with
:func:`register_agent` and improve search with :func:`register_game_hooks`.
"""

from warhorn.ai.agents import (
    AGENTS,
    Agent,
    AgentFactory,
    Budget,
    RandomAgent,
    make_agent,
    parse_agent_spec,
    register_agent,
)
from warhorn.ai.hooks import GameHooks, game_hooks, register_game_hooks
from warhorn.ai.mcts import MCTSAgent, SearchReport

__all__ = [
    "AGENTS",
    "Agent",
    "AgentFactory",
    "Budget",
    "GameHooks",
    "MCTSAgent",
    "RandomAgent",
    "SearchReport",
    "game_hooks",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "register_game_hooks",
]
