"""Small World of Warcraft as a warhorn game plugin (entry point ``smallworld`` in ``pyproject.toml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warhorn.engine.plugin import ConformanceCases, ContentSupport, GamePlugin
from warhorn.games.smallworld.content import load_smallworld_content
from warhorn.games.smallworld.game import SPEC, check_content_folder, new_smallworld_game


def _load_folder(path: Path | None) -> Any:
    return load_smallworld_content(path)


CONTENT_SUPPORT = ContentSupport(
    marker_files=("races.toml", "powers.toml", "game.toml", "boards"),
    check_folder=check_content_folder,
    load_folder=_load_folder,
)

PLUGIN = GamePlugin(
    spec=SPEC,
    factory=new_smallworld_game,
    content=CONTENT_SUPPORT,
    conformance=ConformanceCases(
        option_sets=({}, {"players": 3}, {"players": 4, "board": "classic"}, {"players": 5}),
        seeds=2,
    ),
    heuristic="warhorn.ai.smallworld.player:make_heuristic",
    search_hooks="warhorn.ai.smallworld.search:HOOKS",
    positions="warhorn.games.smallworld.position",
    observation="warhorn.games.smallworld.observation:observation_encoder",
    action_domains="warhorn.games.smallworld.action_domains:action_domains",
    board_layout="warhorn.games.smallworld.web.layout:smallworld_layout",
    web_assets="warhorn.games.smallworld.web",
    rules_help="warhorn.games.smallworld",
    terminal="warhorn.games.smallworld.terminal:TERMINAL",
)
