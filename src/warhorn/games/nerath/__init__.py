"""Conquest of Nerath. The game plugin (spec, factory, content, AI, web board, odds) is :mod:`.plugin`."""

from warhorn.games.nerath.game import NERATH_SPEC, NerathState, nerath_factory

__all__ = ["NERATH_SPEC", "NerathState", "nerath_factory"]
