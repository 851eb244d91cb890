"""The game registry: games register a spec and a factory; front ends look them up by name."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warhorn.engine.decisions import GameSpec
from warhorn.engine.errors import ContentError, UnknownGameError
from warhorn.engine.state import GameState

#: ``factory(options, seed, content)`` builds the first state; ``options`` are already validated.
GameFactory = Callable[[dict[str, Any], int, Any], GameState]

#: Modules that register the built-in games when imported (looked up lazily, by name).
BUILTIN_GAME_PACKAGE = "warhorn.games"


@dataclass(frozen=True, slots=True)
class ContentSupport:
    """How a game's content folders are recognised, checked and loaded.

    ``marker_files``: file names whose presence says a folder holds this game's
    content. ``check_folder(path)`` returns every mistake (file and key);
    ``load_folder(path or None)`` returns the content object the factory takes
    (None = the content shipped with warhorn).
    """

    marker_files: tuple[str, ...]
    check_folder: Callable[[Path], list[ContentError]]
    load_folder: Callable[[Path | None], Any]


@dataclass(frozen=True, slots=True)
class RegisteredGame:
    spec: GameSpec
    factory: GameFactory
    content: ContentSupport | None = None


_GAMES: dict[str, RegisteredGame] = {}
_builtins_loaded = False


def register_game(
    spec: GameSpec,
    factory: GameFactory,
    *,
    content: ContentSupport | None = None,
    replace: bool = False,
) -> None:
    """Register a game under ``spec.id``. Registering the same id twice is an error unless ``replace``."""
    if spec.id in _GAMES and not replace and _GAMES[spec.id].factory is not factory:
        raise ValueError(f"a game with id {spec.id!r} is already registered")
    _GAMES[spec.id] = RegisteredGame(spec, factory, content)


def unregister_game(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        module = importlib.import_module(BUILTIN_GAME_PACKAGE)
        register = getattr(module, "register_builtin_games", None)
        if callable(register):
            register()


def registered_games() -> dict[str, GameSpec]:
    """Every registered game's spec, by id."""
    _load_builtins()
    return {gid: entry.spec for gid, entry in sorted(_GAMES.items())}


def installed_games() -> list[str]:
    """Ids of the games that come installed (not registered by the running program or a test)."""
    _load_builtins()
    prefix = BUILTIN_GAME_PACKAGE + "."
    return sorted(
        gid for gid, entry in _GAMES.items() if getattr(entry.factory, "__module__", "").startswith(prefix)
    )


def game_spec(name: str) -> GameSpec:
    return _entry(name).spec


def _entry(name: str) -> RegisteredGame:
    _load_builtins()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"no game named {name!r} (registered: {known})") from None


def content_support(name: str) -> ContentSupport | None:
    """How game ``name`` reads content folders (None: it has no content files)."""
    return _entry(name).content


def load_game(name: str, *, seed: int = 0, content: Any = None, **options: Any) -> GameState:
    """The first state of game ``name`` with ``options`` (validated against its spec)."""
    entry = _entry(name)
    resolved = entry.spec.resolve_options(options)
    return entry.factory(resolved, seed, content)
