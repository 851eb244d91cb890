"""The agent interface and the uniform random agent (also the fuzzer).

An agent sees what its player may see: the state is passed only so that
agents can call ``view``/``legal_actions``; agents that search must use
``determinize`` and never read hidden facts directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from warhorn.engine import Action, GameState, Rng


class Agent(Protocol):
    """Chooses an action for the player whose decision is pending."""

    name: str

    def choose(self, state: GameState, player: int, rng: Rng) -> Action: ...

    def explain(self) -> str:
        """A one-line reason for the last choice ("" when the agent has none)."""
        ...


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[rng.below(len(legal))]

    def explain(self) -> str:
        return "chosen at random"


AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent}


def make_agent(kind: str) -> Agent:
    """An agent by name; ValueError lists the known kinds."""
    try:
        return AGENTS[kind]()
    except KeyError:
        raise ValueError(f"unknown agent {kind!r} (known: {', '.join(sorted(AGENTS))})") from None
