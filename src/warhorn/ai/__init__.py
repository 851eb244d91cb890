"""AI players: one small interface, ``choose(state, player, rng) -> action``, and ``explain()``.

Kinds are looked up by name with :func:`make_agent`: ``random``, ``mcts``
(generic information-set search) and ``heuristic`` (each game's own player,
registered with :func:`register_heuristic`); games improve search with
:func:`register_game_hooks`.
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
from warhorn.ai.heuristic import (
    Choice,
    GameHeuristic,
    HeuristicAgent,
    heuristic_for,
    load_game_ai,
    register_heuristic,
)
from warhorn.ai.hooks import GameHooks, game_hooks, register_game_hooks
from warhorn.ai.mcts import MCTSAgent, SearchReport

__all__ = [
    "AGENTS",
    "Agent",
    "AgentFactory",
    "Budget",
    "Choice",
    "GameHeuristic",
    "GameHooks",
    "HeuristicAgent",
    "MCTSAgent",
    "RandomAgent",
    "SearchReport",
    "game_hooks",
    "heuristic_for",
    "load_game_ai",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "register_game_hooks",
    "register_heuristic",
]
