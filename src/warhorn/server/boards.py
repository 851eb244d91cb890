"""A game's web board: its public layout and the browser files that draw it, both named by its plugin.

``GamePlugin.board_layout`` builds the layout from a game state (so a game
played with other content gets that content's board). A layout holds only what
every player may see: geometry, names, colours, connections, never a piece, a
hand or a deck. It is served at ``GET /api/seat/{token}/board``.

``GamePlugin.web_assets`` names a package whose files ``<game id>.*`` are
served at ``/static/games/<file>``; ``<game id>.js`` is the board renderer the
game page imports when it exists (its contract is at the top of
``static/game.js``). A renderer imports the shared modules as ``../api.js``.
A game with odds (``GamePlugin.odds``) may add a calculator page at
``/odds/<game id>``: the form ``<game id>.odds.html`` and its script ``<game id>.odds.js``.
"""

from __future__ import annotations

import mimetypes
import re
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from warhorn.engine import GameState, UnknownGameError, game_plugin
from warhorn.engine.plugin import resolve

#: What a served asset's name may look like: ``<game id>.<extension>`` or ``<game id>.<part>.<extension>``.
_ASSET_NAME = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]{0,63})\.(?:[a-z0-9_-]{1,32}\.)?[a-z0-9]{1,8}$")


def board_layout(state: GameState) -> dict[str, Any] | None:
    """The layout of ``state``'s game, or None when its plugin names none."""
    try:
        reference = game_plugin(state.spec.id).board_layout
    except UnknownGameError:
        return None
    if reference is None:
        return None
    layout: dict[str, Any] = resolve(reference)(state)
    return layout


def game_asset(name: str) -> tuple[bytes, str] | None:
    """The bytes and media type of the web asset ``name`` (``<game id>.<ext>``), or None."""
    shape = _ASSET_NAME.match(name)
    if shape is None:
        return None
    try:
        package = game_plugin(shape["game"]).web_assets
    except UnknownGameError:
        return None
    if package is None:
        return None
    resource: Traversable = files(package).joinpath(name)
    if not resource.is_file():
        return None
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media in ("application/javascript", "text/javascript"):
        media = "text/javascript"
    return resource.read_bytes(), media


def asset_text(name: str) -> str | None:
    """A web asset as text (an HTML fragment), or None."""
    found = game_asset(name)
    return None if found is None else found[0].decode("utf-8")


def renderer_url(game: str) -> str | None:
    """Where the game page imports the board renderer of ``game`` from, when it has one."""
    name = f"{game}.js"
    return f"/static/games/{name}" if game_asset(name) is not None else None
