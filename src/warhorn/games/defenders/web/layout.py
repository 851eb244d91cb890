"""The public board layout of Defenders of the Realm, drawn by ``defenders.js`` beside this module.

Built from the game's own board (``state.board``), so a game played on other
content gets that content's locations and connections. Drawing positions come
from the packaged content's ``x``/``y`` (a 1000 x 700 canvas), matched by
location name; a location the packaged content does not know is placed on a
ring around the canvas centre (``positions`` then says ``"partly computed"``).

Each location also gets a region (``polygon``): its cell in the Voronoi diagram of every location's
position with wavy borders (``engine/board_geometry``), so the page draws the realm as a map of
coloured lands with the roads (the connections) across them; Monarch City's region is larger.

Everything here is printed on the board, the general sheets, the hero sheets or
the card faces: no piece, no hand and no deck order. It also holds a catalogue
of the hero cards, quests and heroes by id, so the page can name what the
seat's view lists by id.

The game's plugin names :func:`defenders_layout` (the server serves it at
``/api/seat/{token}/board``).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from warhorn.engine import GameState
from warhorn.engine.board_geometry import voronoi_cells, wavy_outline
from warhorn.games.defenders.board import (
    COLOURS,
    KILL_NUMBER,
    MINION_NAMES,
    MINIONS_PER_COLOUR,
    MONARCH_CITY,
    DefendersBoard,
)
from warhorn.games.defenders.content import card_id_of
from warhorn.games.defenders.state import DefendersState

WIDTH = 1000
HEIGHT = 700


@functools.cache
def _packaged() -> Any:
    from warhorn.games.defenders.content import load_defenders_content

    return load_defenders_content()


@functools.cache
def _packaged_positions() -> dict[str, tuple[int, int]]:
    """Location name -> drawing position, from the packaged content."""
    return {loc.name: (loc.x, loc.y) for loc in _packaged().locations_file.locations}


@functools.cache
def _packaged_texts() -> dict[str, dict[str, str]]:
    """The packaged content's card and sheet texts (in warhorn's own words) by kind and id."""
    content = _packaged()
    return {
        "quest": {q.id: q.text for q in content.quests_file.quests},
        "reward": {q.id: q.reward.text for q in content.quests_file.quests},
        "special": {c.id: c.text for c in content.hero_cards_file.specials},
        "general": {
            g.name: f"{g.skill_name}: {g.skill_text} Penalty: {g.penalty_text}"
            for g in content.generals_file.generals
        },
        "hero": {
            h.id: " ".join(f"{a.name}: {a.text}" for a in h.abilities) for h in content.heroes_file.heroes
        },
    }


def printed_texts(board: DefendersBoard) -> dict[str, dict[str, str]]:
    """The card, quest, general and hero texts of the packaged content when the game runs on it, by
    kind (``quest``, ``reward``, ``special``, ``general``, ``hero``) and id (other content: none)."""
    return _packaged_texts() if board.content_hash == _packaged().content_hash else {}


def _positions(board: DefendersBoard) -> tuple[dict[str, tuple[int, int]], bool]:
    """A position for every location, and whether all came from the packaged content."""
    known = _packaged_positions()
    out = {loc.name: known[loc.name] for loc in board.locations if loc.name in known}
    missing = [loc.name for loc in board.locations if loc.name not in out]
    for i, name in enumerate(missing):
        angle = 2 * math.pi * i / len(missing)
        out[name] = (
            round(WIDTH / 2 + 0.42 * WIDTH * math.cos(angle)),
            round(HEIGHT / 2 + 0.42 * HEIGHT * math.sin(angle)),
        )
    return out, not missing


#: Room each location's region claims (power-diagram radius): Monarch City's is larger.
REGION_RADIUS, CITY_RADIUS = 20.0, 40.0
#: How wavy region borders are (a fraction of a side's length).
BORDER_ROUGHNESS = 0.1


@functools.lru_cache(maxsize=8)
def _regions(sites: tuple[tuple[str, float, float], ...]) -> dict[str, list[list[float]]]:
    """Each location's region on the map (its power-diagram cell with wavy borders), by name."""
    cells = voronoi_cells(
        {name: (x, y) for name, x, y in sites},
        WIDTH,
        HEIGHT,
        radii={name: CITY_RADIUS if name == MONARCH_CITY else REGION_RADIUS for name, _x, _y in sites},
    )
    return {
        name: [
            [round(x, 1), round(y, 1)]
            for x, y in wavy_outline(cell, WIDTH, HEIGHT, roughness=BORDER_ROUGHNESS)
        ]
        for name, cell in cells.items()
    }


def defenders_layout(state: GameState) -> dict[str, Any]:
    """The layout of a Defenders game's board (see the module docstring)."""
    if not isinstance(state, DefendersState):
        raise TypeError(f"not a Defenders of the Realm state: {type(state).__name__}")
    board = state.board
    positions, all_known = _positions(board)
    texts = printed_texts(board)
    regions = _regions(tuple((name, float(x), float(y)) for name, (x, y) in sorted(positions.items())))
    return {
        "game": "defenders",
        "width": WIDTH,
        "height": HEIGHT,
        "positions": "content" if all_known else "partly computed",
        "monarch_city": MONARCH_CITY,
        "locations": [
            {
                "name": loc.name,
                "colour": loc.colour,
                "x": positions[loc.name][0],
                "y": positions[loc.name][1],
                "inn": loc.inn,
                "chest": loc.chest,
                "monarch_city": loc.name == MONARCH_CITY,
                "starting_gate": loc.gate_printed,
                "polygon": regions[loc.name],
            }
            for loc in board.locations
        ],
        "connections": [[a, b] for a, b in board.edges],
        "special_connections": [
            {
                "kind": "gate_travel",
                "rule": "DEF-ACT-04",
                "text": "with two or more magic gates on the board, a hero on one may go to another "
                "for one action",
            }
        ],
        "starting_gates": [loc.name for loc in board.locations if loc.gate_printed],
        "colours": [
            {
                "colour": colour,
                "minion": MINION_NAMES[c],
                "kill_number": KILL_NUMBER[c],
                "supply": MINIONS_PER_COLOUR,
            }
            for c, colour in enumerate(COLOURS)
        ],
        "generals": [
            {
                "colour": g.colour,
                "name": g.name,
                "path": list(g.path),
                "life": g.life,
                "hit": g.hit,
                "grave_at": g.grave_at,
                "skill": g.skill,
                "penalty_life": g.penalty_life,
                "penalty_cards": g.penalty_cards,
                "text": texts.get("general", {}).get(g.name, ""),
            }
            for g in board.generals
        ],
        "heroes": {
            h.id: {"name": h.name, "life": h.life, "text": texts.get("hero", {}).get(h.id, "")}
            for h in board.heroes
        },
        "cards": {
            c.id: {
                "name": c.name,
                "colour": c.colour,
                "location": c.location,
                "band": c.band,
                "dice": c.dice,
                "special": c.special,
                "text": texts.get("special", {}).get(card_id_of(c.id), ""),
            }
            for c in board.hero_cards
        },
        "quests": {
            q.id: {
                "name": q.name,
                "kind": q.kind,
                "location": q.location,
                "locations": list(q.locations),
                "reward": q.reward,
                "text": texts.get("quest", {}).get(q.id, ""),
                "reward_text": texts.get("reward", {}).get(q.id, ""),
            }
            for q in board.quests
        },
    }
