"""No game id is written outside the game's own packages (issue 15): everything else reads the plugins.

A game's packages are ``warhorn.games.<id>`` (its rules) and ``warhorn.ai.<id>`` (its AI); a
module outside every game's packages (the engine, the command line, the server, the AI's search,
the simulations, the interop layers) that names a registered game by its id in a string literal
is a list of games in disguise: a command, a page or a default that a new game would have to be
added to. (Inside a game's package a word like "defenders" is a battle side, not a game.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from warhorn.engine.registry import registered_games

SRC = Path(__file__).resolve().parents[1] / "src" / "warhorn"


def _package_of(path: Path) -> str | None:
    """The game whose package holds ``path`` (``games/<id>/...`` or ``ai/<id>/...``), if any."""
    parts = path.relative_to(SRC).parts
    if len(parts) > 2 and parts[0] in ("games", "ai"):
        return parts[1]
    return None


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


@pytest.mark.parametrize("game_id", sorted(registered_games()))
def test_no_module_outside_the_games_packages_names_a_game(game_id: str) -> None:
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if _package_of(path) is None
        for line, text in _strings(path)
        if text == game_id
    ]
    assert not found, f"the game id {game_id!r} is written outside its packages: {found}"
