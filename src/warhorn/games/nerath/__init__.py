"""Conquest of Nerath: registers the game ``nerath`` (and how it reads content folders) on import."""

from warhorn.engine.registry import register_game
from warhorn.games.nerath.content import NERATH_CONTENT_SUPPORT
from warhorn.games.nerath.game import NERATH_SPEC, NerathState, nerath_factory

register_game(NERATH_SPEC, nerath_factory, content=NERATH_CONTENT_SUPPORT)

__all__ = ["NERATH_SPEC", "NerathState", "nerath_factory"]
