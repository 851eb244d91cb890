"""Which games and option sets the conformance suite plays, and how many seeds each.

Every registered game is played with its default options; games list extra
option sets (modes, lengths, player counts) here.
"""

from __future__ import annotations

from typing import Any

from warhorn.engine import registered_games

#: Extra option sets per game id, beyond the defaults.
EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "dice-race": [{"players": 3}, {"players": 4, "hand_size": 0}],
    "defenders": [{"players": 1}, {"players": 4}],
}

#: Options every case of a game starts from (Nerath: a round cap keeps random play short).
BASE_OPTIONS: dict[str, dict[str, Any]] = {"nerath": {"round_cap": 4}}

#: Seeds per option set (a real game's full playthrough costs more; keep the suite fast).
SEEDS: dict[str, int] = {"dice-race": 12, "nerath": 2}
DEFAULT_SEEDS = 3


def conformance_cases() -> list[tuple[str, dict[str, Any], int]]:
    cases = []
    for game in registered_games():
        for extra in [{}, *EXTRA_OPTIONS.get(game, [])]:
            options = {**BASE_OPTIONS.get(game, {}), **extra}
            for seed in range(SEEDS.get(game, DEFAULT_SEEDS)):
                cases.append((game, options, seed))
    return cases
