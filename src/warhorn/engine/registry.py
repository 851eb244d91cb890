"""The game registry: every game is a :class:`~warhorn.engine.plugin.GamePlugin`, looked up by id.

Installed games come from the ``warhorn.games`` entry-point group, loaded on
first use (see :mod:`warhorn.engine.plugin`). A program or test can register a
plugin object itself with :func:`register_plugin` (or a bare spec and factory
with :func:`register_game`).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

from warhorn.engine.decisions import GameSpec
from warhorn.engine.errors import UnknownGameError
from warhorn.engine.plugin import (
    ENTRY_POINT_GROUP,
    ContentSupport,
    GameFactory,
    GamePlugin,
    PluginError,
)
from warhorn.engine.state import GameState

__all__ = [
    "ContentSupport",
    "GameFactory",
    "GamePlugin",
    "content_support",
    "game_plugin",
    "game_spec",
    "installed_games",
    "load_game",
    "plugin_problems",
    "register_game",
    "register_plugin",
    "registered_games",
    "registered_plugins",
    "unregister_game",
]

_GAMES: dict[str, GamePlugin] = {}
_installed: list[str] | None = None
#: Installed entry points that failed to give a plugin: name -> what is wrong (the others still load).
_BROKEN: dict[str, str] = {}


def register_plugin(plugin: GamePlugin, *, replace: bool = False) -> None:
    """Register ``plugin`` under its game id. The same id twice is an error unless ``replace``."""
    if not isinstance(plugin, GamePlugin):
        raise PluginError(f"not a GamePlugin: {plugin!r}")
    old = _GAMES.get(plugin.id)
    if old is not None and not replace and old != plugin:
        raise ValueError(f"a game with id {plugin.id!r} is already registered")
    _GAMES[plugin.id] = plugin


def register_game(
    spec: GameSpec,
    factory: GameFactory,
    *,
    content: ContentSupport | None = None,
    replace: bool = False,
) -> None:
    """Register a game that is only a spec and a factory (and content support): a plugin without extras."""
    register_plugin(GamePlugin(spec, factory, content), replace=replace)


def unregister_game(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _load_entry_point(point: EntryPoint) -> GamePlugin:
    try:
        plugin = point.load()
    except Exception as exc:  # a broken plugin is named, not a bare traceback
        raise PluginError(f"game plugin {point.name!r} ({point.value}) failed to load: {exc!r}") from exc
    if not isinstance(plugin, GamePlugin):
        raise PluginError(f"game plugin {point.name!r} ({point.value}) is not a GamePlugin: {plugin!r}")
    if plugin.id != point.name:
        raise PluginError(
            f"game plugin {point.name!r} ({point.value}) holds game {plugin.id!r}: "
            "the entry point's name must be the game id"
        )
    return plugin


def _load_installed() -> list[str]:
    """Register the plugins of the ``warhorn.games`` entry points (once); their ids."""
    global _installed
    if _installed is None:
        points = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)
        if not points:
            raise PluginError(
                f"no game is installed: the entry-point group {ENTRY_POINT_GROUP!r} is empty "
                "(install warhorn with `make install` or `pip install -e .`: that records the built-in games)"
            )
        ids = []
        for point in points:
            try:
                plugin = _load_entry_point(point)
            except PluginError as exc:
                _BROKEN[point.name] = str(exc)
                continue
            _GAMES.setdefault(plugin.id, plugin)
            ids.append(plugin.id)
        _installed = ids
    return _installed


def plugin_problems() -> dict[str, str]:
    """Installed game plugins that could not be loaded, by entry-point name, with what is wrong."""
    _load_installed()
    return dict(_BROKEN)


def installed_games() -> list[str]:
    """Ids of the games installed through entry points (not registered by the running program or a test)."""
    return list(_load_installed())


def registered_plugins() -> dict[str, GamePlugin]:
    """Every registered game's plugin, by id (sorted)."""
    _load_installed()
    return dict(sorted(_GAMES.items()))


def registered_games() -> dict[str, GameSpec]:
    """Every registered game's spec, by id."""
    return {gid: plugin.spec for gid, plugin in registered_plugins().items()}


def game_plugin(name: str) -> GamePlugin:
    """The plugin of game ``name``; :class:`UnknownGameError` naming the registered ones otherwise."""
    _load_installed()
    try:
        return _GAMES[name]
    except KeyError:
        if name in _BROKEN:
            raise PluginError(_BROKEN[name]) from None
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"no game named {name!r} (registered: {known})") from None


def game_spec(name: str) -> GameSpec:
    return game_plugin(name).spec


def content_support(name: str) -> ContentSupport | None:
    """How game ``name`` reads content folders (None: it has no content files)."""
    return game_plugin(name).content


def load_game(name: str, *, seed: int = 0, content: Any = None, **options: Any) -> GameState:
    """The first state of game ``name`` with ``options`` (validated against its spec)."""
    plugin = game_plugin(name)
    resolved = plugin.spec.resolve_options(options)
    return plugin.factory(resolved, seed, content)
