"""The built-in games; each subpackage registers itself with the engine registry."""

from __future__ import annotations

import importlib

#: Subpackages of warhorn.games that register a game when imported. Add new games here.
BUILTIN_GAMES: tuple[str, ...] = ("nerath", "defenders")


def register_builtin_games() -> None:
    for name in BUILTIN_GAMES:
        importlib.import_module(f"warhorn.games.{name}")
