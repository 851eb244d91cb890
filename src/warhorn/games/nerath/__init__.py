"""Conquest of Nerath: registers the game ``nerath`` with the engine registry on import."""

from warhorn.engine.registry import register_game
from warhorn.games.nerath.game import NERATH_SPEC, NerathState, nerath_factory

register_game(NERATH_SPEC, nerath_factory)

__all__ = ["NERATH_SPEC", "NerathState", "nerath_factory"]
