"""Board layouts: the public drawing data a game's board module needs (spaces, coordinates, links).

A game registers a function that builds its layout from a game state (so a
game played with other content gets that content's board). A layout holds only
what every player may see: geometry, names, colours, connections, never a
piece, a hand or a deck. It is served at ``GET /api/seat/{token}/board`` and
drawn by ``static/games/<game id>.js``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from warhorn.engine import GameState

BoardLayout = Callable[[GameState], dict[str, Any]]

_LAYOUTS: dict[str, BoardLayout] = {}

#: Modules that register the built-in games' layouts when imported (one per game).
BUILTIN_LAYOUT_MODULES = ("warhorn.server.board_nerath", "warhorn.server.board_defenders")


def register_board_layout(game_id: str, layout: BoardLayout) -> None:
    """Serve ``layout(state)`` as the board of games of ``game_id`` (replaces an earlier one)."""
    _LAYOUTS[game_id] = layout


def board_layout(state: GameState) -> dict[str, Any] | None:
    """The layout of ``state``'s game, or None when the game registered none."""
    layout = _LAYOUTS.get(state.spec.id)
    return None if layout is None else layout(state)


def register_builtin_layouts() -> None:
    """Import the built-in games' layout modules (each registers itself on import)."""
    for module in BUILTIN_LAYOUT_MODULES:
        importlib.import_module(module)
