"""The public board layout of Conquest of Nerath, drawn by ``nerath.js`` beside this module.

Everything here is fixed by the game's content and rules, the same for every
seat and every moment of the game: spaces with their drawing coordinates,
kinds, home kingdoms, capitals, starting castles, the gold and VP a territory
is worth, the borders, the kingdoms' names and colours, the piece table, and
the catalogue of cards and guardian tiles (what the decks *contain*, as printed
on the cards — never who holds which card, the deck order or which tile lies
face down where). Positions of pieces, control and hands come from the seat's
view, not from here.

The game's plugin names :func:`nerath_layout` (the server serves it at
``/api/seat/{token}/board``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from warhorn.engine import GameState
from warhorn.games.nerath.board import KINGDOM_IDS, KINGDOM_NAMES, LAND, NerathBoard
from warhorn.games.nerath.pieces import PIECES

WIDTH, HEIGHT = 1000, 700

#: Drawing colours for the colour names content uses (other names are passed to the browser as is).
COLOUR_FILLS: dict[str, str] = {
    "black": "#3b3b46",
    "gold": "#d9a520",
    "red": "#b8322a",
    "blue": "#2f62b5",
    "green": "#3c8d4a",
    "purple": "#7a4bab",
    "white": "#e8e8e8",
}
#: Colours when the content names none (turn order).
DEFAULT_FILLS: tuple[str, ...] = ("#3b3b46", "#d9a520", "#b8322a", "#2f62b5")

#: VP for conquering an enemy starting territory / capital (NER-VP-02).
TERRITORY_VP, CAPITAL_VP = 1, 5


@lru_cache(maxsize=1)
def _shipped_content() -> Any:
    from warhorn.games.nerath.content import load_nerath_content

    return load_nerath_content()


def _content_for(board: NerathBoard) -> Any | None:
    """The loaded content whose board this is (the shipped one), or None for a board built otherwise."""
    try:
        content = _shipped_content()
    except Exception:  # content that fails to load leaves the automatic drawing
        return None
    return content if content.content_hash == board.content_hash else None


def _circle_positions(n: int) -> list[tuple[float, float]]:
    """Spaces on an ellipse, for boards without drawing coordinates (built in code)."""
    return [
        (
            WIDTH / 2 + 0.42 * WIDTH * math.cos(2 * math.pi * i / max(n, 1)),
            HEIGHT / 2 + 0.42 * HEIGHT * math.sin(2 * math.pi * i / max(n, 1)),
        )
        for i in range(n)
    ]


def nerath_layout(state: GameState) -> dict[str, Any]:
    """The layout of ``state``'s board (see the module docstring for what it holds)."""
    board: NerathBoard = state.board  # type: ignore[attr-defined]
    content = _content_for(board)
    coords: dict[str, tuple[float, float]]
    kingdoms: list[dict[str, Any]] = []
    impassable: list[dict[str, Any]] = []
    if content is not None:
        coords = {s.id: (s.x, s.y) for s in content.spaces}
        for k_id in KINGDOM_IDS:
            k = content.kingdom(k_id)
            kingdoms.append({"id": k.id, "name": k.name, "colour": k.colour, "fill": _fill(k.colour, k_id)})
        impassable = [{"id": a.id, "name": a.name, "x": a.x, "y": a.y} for a in content.impassable]
    else:
        ids = [board.sid(i) for i in range(len(board))]
        coords = dict(zip(ids, _circle_positions(len(ids)), strict=True))
        for n, k_id in enumerate(KINGDOM_IDS):
            kingdoms.append({"id": k_id, "name": KINGDOM_NAMES[n], "colour": "", "fill": DEFAULT_FILLS[n]})
    for n, k in enumerate(kingdoms):
        cap = board.capitals[n]
        k["capital"] = board.sid(cap) if cap >= 0 else None
        k["start_gold"] = board.start_gold[n]
        k["base_income"] = board.base_income[n]
        k["team"] = int(state.team[n])  # type: ignore[attr-defined]  # allies share a team (option "mode")

    start_castles = {space for _k, space, piece, _n in board.setup if PIECES[piece].castle}
    spaces = []
    for i in range(len(board)):
        sid = board.sid(i)
        x, y = coords[sid]
        home = board.owner[i]
        land = board.kind[i] == LAND
        spaces.append(
            {
                "id": sid,
                "name": board.names[i],
                "kind": board.kind[i],
                "x": x,
                "y": y,
                "home": KINGDOM_IDS[home] if home >= 0 and land else None,
                "capital": board.capital_of[i] >= 0,
                "castle_at_start": i in start_castles,
                "coastal": board.coastal[i],
                "gold": 1 if land else 0,  # every controlled territory is worth 1 gold of income (NER-INC-01)
                "vp": (CAPITAL_VP if board.capital_of[i] >= 0 else TERRITORY_VP) if land and home >= 0 else 0,
            }
        )
    connections = sorted(
        {tuple(sorted((board.sid(i), board.sid(j)))) for i in range(len(board)) for j in board.neighbors(i)}
    )
    return {
        "game": "nerath",
        "width": WIDTH,
        "height": HEIGHT,
        "kingdoms": kingdoms,
        "spaces": spaces,
        "connections": [list(c) for c in connections],
        "impassable": [{**a, "kind": "impassable"} for a in impassable],
        "pieces": [
            {
                "id": p.id,
                "name": p.name,
                "cost": p.cost,
                "move": p.move,
                "mobility": p.mobility.value,
                "attack": list(p.attack_dice),
                "defence": list(p.defence_dice),
                "sea": list(p.sea_dice),
                "first_strike": p.first_strike,
                "toughness": p.toughness,
                "hero": p.hero,
            }
            for p in PIECES.values()
        ],
        "events": {
            e.id: {"name": e.name, "text": e.text, "kingdom": KINGDOM_IDS[e.kingdom], "timing": e.timing}
            for e in board.events
        },
        "treasures": {
            t.id: {"name": t.name, "text": t.text, "vp": t.vp, "timing": t.timing} for t in board.treasures
        },
        "guardians": {
            g.id: {
                "name": g.name,
                "dice": list(g.dice),
                "first_strike": g.first_strike,
                "hero_hit_min": g.hero_hit_min,
                "reward_gold": g.reward_gold,
            }
            for g in board.guardians
        },
    }


def _fill(colour: str, kingdom_id: str) -> str:
    if colour.lower() in COLOUR_FILLS:
        return COLOUR_FILLS[colour.lower()]
    if colour.startswith("#"):
        return colour
    return DEFAULT_FILLS[KINGDOM_IDS.index(kingdom_id)]
