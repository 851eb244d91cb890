"""Positions: a game state written as data (JSON or TOML), read back through the game's plugin.

A position file is a mapping with the game's id under ``game`` and the rest in the
game's own position format (``docs/positions.md``)::

    game = "dice-race"
    scores = [12, 7]
    ...

:func:`position_from` builds the state with the game's ``position_from`` (mistakes are
``ContentError``/``ContentErrors`` naming the key) and :func:`check_position` also checks
that ``to_position`` gives back a position that builds the very same state. Pure: the
command line reads the files (``warhorn position check``, ``warhorn play --position``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from warhorn.engine.errors import ContentError, ContentErrors, WarhornError
from warhorn.engine.plugin import PositionSupport, resolve
from warhorn.engine.registry import game_plugin
from warhorn.engine.state import GameState

#: The key of a position file that names the game (not passed to the game's builder).
GAME_KEY = "game"


def position_support(game: str) -> PositionSupport:
    """The position functions of ``game``; :class:`WarhornError` when it has none."""
    reference = game_plugin(game).positions
    if reference is None:
        raise WarhornError(f"game {game!r} cannot be set up from a position (its plugin names no positions)")
    module = resolve(reference)
    try:
        return PositionSupport(module.position_from, module.to_position)
    except AttributeError as exc:
        raise WarhornError(f"{reference} lacks position_from or to_position: {exc}") from None


def split_position(data: Mapping[str, Any], game: str | None = None) -> tuple[str, dict[str, Any]]:
    """The game a position is of (its ``game`` key, or ``game`` when it has none) and the game's part."""
    named = data.get(GAME_KEY)
    if named is not None and not isinstance(named, str):
        raise ContentError("position", GAME_KEY, "must be a game id (text)")
    if named is not None and game is not None and named != game:
        raise ContentError("position", GAME_KEY, f"the position is of {named!r}, not of {game!r}")
    chosen = named or game
    if chosen is None:
        raise ContentError("position", GAME_KEY, "names no game: add game = '<id>' (or name the game)")
    return chosen, {k: v for k, v in data.items() if k != GAME_KEY}


def position_from(game: str, data: Mapping[str, Any], content: Any = None) -> GameState:
    """The state the position ``data`` (without its ``game`` key) describes, built by ``game``."""
    return position_support(game).position_from(data, content)


def to_position(state: GameState) -> dict[str, Any]:
    """The position of ``state`` with its ``game`` key, ready to be written as JSON."""
    return {GAME_KEY: state.spec.id, **position_support(state.spec.id).to_position(state)}


def check_position(game: str, data: Mapping[str, Any], content: Any = None) -> GameState:
    """Build the position, then check it round-trips: ``to_position`` builds the same state again."""
    state = position_from(game, data, content)
    written = json.loads(json.dumps(to_position(state)))
    try:
        again = position_from(game, split_position(written)[1], content)
    except (ContentError, ContentErrors) as exc:
        raise WarhornError(f"the game's to_position wrote a position it cannot read back: {exc}") from None
    if again.digest() != state.digest():
        raise WarhornError("the game's to_position does not give back the same state (digests differ)")
    return state
