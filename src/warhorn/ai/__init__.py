"""AI players: one small interface, ``choose(state, player, rng) -> action``, and ``explain()``.

Kinds are looked up by name with :func:`make_agent`: ``random``, ``mcts``
(generic information-set search) and ``heuristic`` (each game's own player,
named by its plugin); a game's plugin also names the hooks that improve search.
:func:`register_heuristic` and :func:`register_game_hooks` set them from a program.
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
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "register_game_hooks",
    "register_heuristic",
]
