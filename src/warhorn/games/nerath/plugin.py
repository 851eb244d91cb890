"""Conquest of Nerath as a warhorn game plugin (entry point ``nerath`` in ``pyproject.toml``)."""

from __future__ import annotations

from warhorn.engine.plugin import ConformanceCases, GamePlugin
from warhorn.games.nerath.content import NERATH_CONTENT_SUPPORT
from warhorn.games.nerath.game import NERATH_SPEC, nerath_factory

PLUGIN = GamePlugin(
    spec=NERATH_SPEC,
    factory=nerath_factory,
    content=NERATH_CONTENT_SUPPORT,
    # a round cap keeps random play short; a full playthrough costs far more than a toy game's
    conformance=ConformanceCases(option_sets=({"round_cap": 4},), seeds=2),
    heuristic="warhorn.ai.nerath.player:NerathHeuristic",
    search_hooks="warhorn.ai.nerath.search_hooks:HOOKS",
    board_layout="warhorn.games.nerath.web.layout:nerath_layout",
    web_assets="warhorn.games.nerath.web",
    rules_help="warhorn.games.nerath",
    terminal="warhorn.games.nerath.terminal:TERMINAL",
    odds="warhorn.games.nerath.odds_support:ODDS_SUPPORT",
    positions="warhorn.games.nerath.position",
    observation="warhorn.games.nerath.observation:observation_encoder",
)
