"""Defenders of the Realm as a warhorn game plugin (entry point ``defenders`` in ``pyproject.toml``)."""

from __future__ import annotations

from warhorn.engine.plugin import ConformanceCases, GamePlugin
from warhorn.games.defenders.game import CONTENT_SUPPORT, SPEC, new_defenders_game

PLUGIN = GamePlugin(
    spec=SPEC,
    factory=new_defenders_game,
    content=CONTENT_SUPPORT,
    conformance=ConformanceCases(option_sets=({}, {"players": 1}, {"players": 4}), seeds=3),
    heuristic="warhorn.ai.defenders.player:DefendersHeuristic",
    search_hooks="warhorn.ai.defenders.search:HOOKS",
    positions="warhorn.games.defenders.position",
    observation="warhorn.games.defenders.observation:observation_encoder",
    board_layout="warhorn.games.defenders.web.layout:defenders_layout",
    web_assets="warhorn.games.defenders.web",
    rules_help="warhorn.games.defenders",
    terminal="warhorn.games.defenders.terminal:TERMINAL",
)
