"""The public board layout of Conquest of Nerath, drawn by ``nerath.js`` beside this module.

Everything here is fixed by the game's content and rules, the same for every
seat and every moment of the game: spaces with their drawing coordinates,
kinds, home kingdoms, capitals, starting castles, the gold and VP a territory
is worth, the borders, the kingdoms' names and colours, the piece table, and
the catalogue of cards and guardian tiles (what the decks *contain*, as printed
on the cards — never who holds which card, the deck order or which tile lies
face down where). Positions of pieces, control and hands come from the seat's
view, not from here.

The map is drawn from the spaces' coordinates at layout time (:func:`map_drawing`): every space and
impassable area gets a region, its cell in the Voronoi diagram of all of them (dungeon entrances
smaller, mountains larger), with hand-drawn looking borders. A dungeon entrance's cell is clipped to
:data:`DUNGEON_REACH` around its point, leaving the rest to the water under the map. Where two
regions touch but the rules give no border, the layout lists a barrier (drawn as cliffs); where the
rules give a border but the regions do not touch, a crossing (drawn as a road or a ferry). So the
drawing always tells the rules' adjacency (NER-MAP-02).

The game's plugin names :func:`nerath_layout` (the server serves it at
``/api/seat/{token}/board``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from warhorn.engine import GameState
from warhorn.engine.board_geometry import (
    circle_polygon,
    clip_convex,
    shared_sides,
    voronoi_cells,
    wavy_outline,
    wavy_side,
)
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

#: How much room each kind of region claims in the map's power diagram (larger: a larger region).
REGION_RADII: dict[str, float] = {"land": 36.0, "sea": 32.0, "dungeon": 0.0, "impassable": 40.0}
#: A dungeon entrance's region reaches at most this far from its point (the rest of its cell is left to
#: the water under the map), so an entrance among seas reads as an entrance, not as a large region.
DUNGEON_REACH = 52.0
#: How wavy region borders are (a fraction of a side's length).
BORDER_ROUGHNESS = 0.11

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


def map_drawing(
    sites: dict[str, tuple[float, float]],
    kinds: dict[str, str],
    borders: set[frozenset[str]],
) -> dict[str, Any]:
    """Regions for the map: ``polygons`` (id → outline), ``barriers`` (outlines two regions share
    without a border in the rules, as polylines) and ``crossings`` (borders in the rules between
    regions that do not touch, as id pairs). Impassable areas border nothing."""
    raw = voronoi_cells(sites, WIDTH, HEIGHT, radii={sid: REGION_RADII[kinds[sid]] for sid in sites})
    for sid in sorted(raw):
        if kinds[sid] == "dungeon" and raw[sid]:
            _clip_region(raw, sid, circle_polygon(sites[sid], DUNGEON_REACH))
    # a side only one region has borders the water a clipped entrance left: drawn straight, so that
    # it never waves across a neighbour's side close by
    side_count: dict[frozenset[tuple[float, float]], int] = {}
    for cell in raw.values():
        for i in range(len(cell)):
            key = frozenset((cell[i], cell[(i + 1) % len(cell)]))
            side_count[key] = side_count.get(key, 0) + 1

    def straight(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return side_count.get(frozenset((a, b)), 0) < 2

    polygons = {
        sid: [
            [round(x, 1), round(y, 1)]
            for x, y in wavy_outline(cell, WIDTH, HEIGHT, roughness=BORDER_ROUGHNESS, straight=straight)
        ]
        for sid, cell in raw.items()
    }
    ids = sorted(raw)
    barriers: list[dict[str, Any]] = []
    touching: set[frozenset[str]] = set()
    for n, a in enumerate(ids):
        for b in ids[n + 1 :]:
            sides = shared_sides(raw[a], raw[b]) if raw[a] and raw[b] else []
            if not sides:
                continue
            touching.add(frozenset((a, b)))
            if frozenset((a, b)) in borders or "impassable" in (kinds[a], kinds[b]):
                continue
            for p, q in sides:
                line = [p, *wavy_side(p, q, roughness=BORDER_ROUGHNESS, frame=(WIDTH, HEIGHT)), q]
                barriers.append({"between": [a, b], "line": [[round(x, 1), round(y, 1)] for x, y in line]})
    crossings = sorted(sorted(pair) for pair in borders - touching)
    return {"polygons": polygons, "barriers": barriers, "crossings": crossings}


def _clip_region(
    cells: dict[str, list[tuple[float, float]]], sid: str, clipper: list[tuple[float, float]]
) -> None:
    """Clip ``cells[sid]`` to the convex ``clipper``; a corner the clip makes on a side the cell shares
    with another cell is added to that cell's outline too, so the two still share that stretch exactly."""
    before = cells[sid]
    clipped = [(round(x, 2), round(y, 2)) for x, y in clip_convex(before, clipper)]
    if len(clipped) < 3:
        return
    cells[sid] = clipped
    new_corners = [
        p for p in clipped if not any(abs(p[0] - q[0]) <= 0.05 and abs(p[1] - q[1]) <= 0.05 for q in before)
    ]
    for other, cell in cells.items():
        if other == sid or not cell:
            continue
        for corner in new_corners:
            for i in range(len(cell)):
                a, b = cell[i], cell[(i + 1) % len(cell)]
                if _between(corner, a, b):
                    cell.insert(i + 1, corner)
                    break


def _between(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether ``p`` lies on the segment a-b (within 0.05), strictly between its ends."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return False
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    off = abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / math.sqrt(length2)
    return 0.0 < t < 1.0 and off <= 0.05 and min(math.dist(p, a), math.dist(p, b)) > 0.05


@lru_cache(maxsize=8)
def _cached_drawing(
    key: str, sites: tuple[tuple[str, float, float, str], ...], borders: frozenset[frozenset[str]]
) -> dict[str, Any]:
    del key  # the content hash: one drawing per board
    return map_drawing({s: (x, y) for s, x, y, _k in sites}, {s: k for s, _x, _y, k in sites}, set(borders))


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
    spaces: list[dict[str, Any]] = []
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
    sites = tuple(
        [(s["id"], float(s["x"]), float(s["y"]), str(s["kind"])) for s in spaces]
        + [(a["id"], float(a["x"]), float(a["y"]), "impassable") for a in impassable]
    )
    drawing = _cached_drawing(board.content_hash, sites, frozenset(frozenset(c) for c in connections))
    for s in spaces:
        s["polygon"] = drawing["polygons"][s["id"]]
    for a in impassable:
        a["polygon"] = drawing["polygons"][a["id"]]
    return {
        "game": "nerath",
        "width": WIDTH,
        "height": HEIGHT,
        "kingdoms": kingdoms,
        "spaces": spaces,
        "connections": [list(c) for c in connections],
        "barriers": drawing["barriers"],
        "crossings": drawing["crossings"],
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
