"""Quest for the DragonLords as a warhorn game plugin (entry point ``dragonlords`` in ``pyproject.toml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warhorn.engine.plugin import ConformanceCases, ContentSupport, GamePlugin
from warhorn.games.dragonlords.content import load_dragonlords_content
from warhorn.games.dragonlords.game import SPEC, check_content_folder, new_dragonlords_game


def _load_folder(path: Path | None) -> Any:
    return load_dragonlords_content(path)


CONTENT_SUPPORT = ContentSupport(
    marker_files=("peoples.toml", "spells.toml", "quests.toml", "world"),
    check_folder=check_content_folder,
    load_folder=_load_folder,
)

PLUGIN = GamePlugin(
    spec=SPEC,
    factory=new_dragonlords_game,
    content=CONTENT_SUPPORT,
    conformance=ConformanceCases(
        option_sets=(
            {"players": 2, "max_rounds": 6},
            {"players": 4, "max_rounds": 4, "advanced": True},
            {"players": 6, "max_rounds": 3, "victory": "short"},
        ),
        seeds=2,
    ),
    heuristic="warhorn.ai.dragonlords.player:make_heuristic",
    search_hooks="warhorn.ai.dragonlords.search:HOOKS",
    positions="warhorn.games.dragonlords.position",
    board_layout="warhorn.games.dragonlords.web.layout:dragonlords_layout",
    web_assets="warhorn.games.dragonlords.web",
    rules_help="warhorn.games.dragonlords",
    odds="warhorn.games.dragonlords.odds_support:ODDS_SUPPORT",
    terminal="warhorn.games.dragonlords.terminal:TERMINAL",
    observation="warhorn.games.dragonlords.observation:observation_encoder",
)
