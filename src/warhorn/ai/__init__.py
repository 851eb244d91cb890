"""AI players: one small interface, ``choose(view, legal actions, rng) -> action``."""

from warhorn.ai.agents import Agent, RandomAgent, make_agent

__all__ = ["Agent", "RandomAgent", "make_agent"]
