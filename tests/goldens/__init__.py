"""Golden playthroughs: which cases are recorded, and where the files live.

The cases are the conformance cases of every installed game (the first
``SEEDS_PER_OPTION_SET`` seeds of each option set), so a game gets goldens by
having conformance cases. ``make goldens`` (``python -m tests.goldens.regenerate``)
writes the files; ``tests/goldens/test_goldens.py`` replays them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warhorn.conformance import conformance_cases
from warhorn.engine.registry import installed_games
from warhorn.goldens import golden_name

GOLDEN_DIR = Path(__file__).parent
SEEDS_PER_OPTION_SET = 2


def golden_cases() -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, seed) for every golden file: installed games' conformance cases, first seeds."""
    installed = set(installed_games())
    return [
        (game, options, seed)
        for game, options, seed in conformance_cases()
        if game in installed and seed < SEEDS_PER_OPTION_SET
    ]


def golden_path(game: str, options: dict[str, Any], seed: int) -> Path:
    return GOLDEN_DIR / f"{golden_name(game, options, seed)}.json"
