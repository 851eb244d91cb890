"""Small World of Warcraft boards: islands of regions (the interface agreed with the boards work).

This module holds the board classes the rules read. The island sets themselves
(``data/boards/``) and their loader are the boards helper's part; until they land,
:func:`load_board` refuses with a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from warhorn.engine.errors import ContentError

Terrain = Literal["field", "forest", "hill", "mountain", "swamp", "sea", "lake"]
WATER: frozenset[str] = frozenset({"sea", "lake"})


@dataclass(frozen=True)
class Region:
    """One region of an island.

    ``entry``: an anchor (entry) region, where a race may enter the map (SWW-CNQ-01).
    ``murlocs``: Murloc tokens at setup; ``mountain_token``: a Mountain token at setup;
    ``place_slot``: where the island's face-down artifact/legendary-place marker goes.
    """

    id: str
    name: str
    island: str
    terrain: Terrain
    entry: bool
    cavern: bool
    magic: bool
    murlocs: int
    mountain_token: bool
    place_slot: bool
    neighbours: tuple[str, ...]
    polygon: tuple[tuple[float, float], ...]
    source: str


@dataclass(frozen=True)
class Island:
    id: str
    name: str
    size: Literal["large", "medium", "small"]
    source: str


@dataclass(frozen=True)
class SmallWorldBoard:
    id: str
    name: str
    islands: tuple[Island, ...]
    regions: tuple[Region, ...]
    rounds: int
    source: str


def load_board(board_set: str, players: int, content_dir: Path | None = None) -> SmallWorldBoard:
    """The board for ``players`` from ``board_set`` ("islands" or "classic")."""
    raise ContentError(
        str(content_dir or Path(__file__).parent / "data" / "boards"),
        board_set,
        "no board set is shipped yet",
    )
