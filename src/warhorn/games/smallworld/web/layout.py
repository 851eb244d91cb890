"""The public board layout of Small World of Warcraft, drawn by ``smallworld.js``.

Built from the game's own board (``state.board``), so a game on another board set
or a user's transcription gets that board. The islands are laid out side by side
on one canvas (their arrangement on the table has no effect on play); each region
carries its outline, a label point, its terrain and symbols.

Everything here is printed on the boards and the banners, or follows from what
every player sees: the cost in tokens and coins of each conquest the player to
move may make now, and the reinforcement die's odds for a final conquest. No
coin total, no face-down marker and no bomb is in it. The pieces on the board come
from the seat's view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warhorn.engine import GameState
from warhorn.engine.board_geometry import point_strictly_inside, signed_area
from warhorn.games.smallworld.actions import Conquer, Reinforce
from warhorn.games.smallworld.board import Region, SmallWorldBoard
from warhorn.games.smallworld.rules import conquest_cost
from warhorn.games.smallworld.state import SmallWorldState

#: Canvas width the islands are arranged in (rows of islands, left to right).
ROW_WIDTH = 1000.0
GAP = 40.0

TERRAIN_COLOURS: dict[str, str] = {
    "field": "#e6d27a",
    "forest": "#4f8a3c",
    "hill": "#b9a46a",
    "mountain": "#8e8a86",
    "swamp": "#6e7d4c",
    "sea": "#3f7fc0",
    "lake": "#7db2de",
}

#: One colour per race (banner colours chosen by warhorn) and the Murlocs'.
RACE_COLOURS: dict[str, str] = {
    "blood_elves": "#c0392b",
    "draenei": "#8e7cc3",
    "dwarves": "#a0522d",
    "ethereals": "#6c5ce7",
    "forsaken": "#4d5656",
    "gnomes": "#e67e22",
    "goblins": "#27ae60",
    "humans": "#2e86c1",
    "kobolds": "#d4ac0d",
    "naga": "#17a589",
    "night_elves": "#5b2c6f",
    "orcs": "#7d3c98",
    "pandaren": "#f5f5f5",
    "tauren": "#935116",
    "trolls": "#1abc9c",
    "worgen": "#34495e",
    "murlocs": "#48c9b0",
}
FALLBACK_RACE_COLOURS = ("#e74c3c", "#3498db", "#f1c40f", "#9b59b6", "#16a085", "#d35400")


def label_point(polygon: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """A point inside the outline to write the region's name at (the centroid when it is inside)."""
    area = signed_area(polygon)
    cx = cy = 0.0
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        cross = x1 * y2 - x2 * y1
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    centroid = (cx / (6 * area), cy / (6 * area))
    if point_strictly_inside(centroid, polygon):
        return (round(centroid[0], 1), round(centroid[1], 1))
    # the middle of the widest stretch of the horizontal line through the centroid's height
    y = centroid[1]
    xs = sorted(
        x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
        if (y1 > y) != (y2 > y)
    )
    spans = [(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)]
    left, right = max(spans, key=lambda s: s[1] - s[0])
    return (round((left + right) / 2, 1), round(y, 1))


def island_placement(board: SmallWorldBoard) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Top-left corner of each island on one canvas (rows of islands), and the canvas size."""
    placed: dict[str, tuple[float, float]] = {}
    x = y = row_height = width = 0.0
    for island in board.islands:
        if x > 0 and x + island.width > ROW_WIDTH:
            x, y = 0.0, y + row_height + GAP
            row_height = 0.0
        placed[island.id] = (x, y)
        x += island.width + GAP
        width = max(width, x - GAP)
        row_height = max(row_height, island.height)
    return placed, round(width, 1), round(y + row_height, 1)


def _region_json(region: Region, offset: tuple[float, float]) -> dict[str, Any]:
    dx, dy = offset
    polygon = tuple((round(x + dx, 1), round(y + dy, 1)) for x, y in region.polygon)
    return {
        "id": region.id,
        "name": region.name,
        "island": region.island,
        "terrain": region.terrain,
        "entry": region.entry,
        "cavern": region.cavern,
        "magic": region.magic,
        "place_slot": region.place_slot,
        "neighbours": list(region.neighbours),
        "polygon": [list(p) for p in polygon],
        "label": list(label_point(polygon)),
    }


def die_odds(faces: tuple[int, ...], short: int) -> float:
    """The chance the reinforcement die shows at least ``short``."""
    return float(Fraction(sum(1 for f in faces if f >= short), len(faces)))


def conquest_offers(state: SmallWorldState) -> dict[str, list[dict[str, Any]]]:
    """For each region, the conquests the player to move may make there now, with their price.

    Each offer: the action (as JSON), its notation, ``tokens`` (the cost, SWW-CNQ-03),
    ``coins`` (payments such as the Aegis's), and for a final conquest (SWW-CNQ-05) the
    tokens ``short`` and the die's ``odds`` of making them up.
    """
    decision = state.pending()
    offers: dict[str, list[dict[str, Any]]] = {}
    if decision is None:
        return offers
    p = decision.player
    seat = state.players[p]
    hand = seat.hand + seat.hand_beasts
    for action in state.legal_actions():
        if not isinstance(action, (Conquer, Reinforce)):
            continue
        via = action.via if isinstance(action, Conquer) else ""
        cost = conquest_cost(state, p, action.region, via)
        offer: dict[str, Any] = {
            "action": action.to_json(),
            "notation": action.notation(),
            "tokens": cost.tokens,
            "coins": cost.coins,
        }
        if isinstance(action, Reinforce):
            short = cost.tokens - hand
            offer["short"] = short
            offer["odds"] = round(die_odds(state.content.die_faces, short), 4)
        offers.setdefault(action.region, []).append(offer)
    return offers


def smallworld_layout(state: GameState) -> dict[str, Any]:
    """The drawing data of ``state``'s board and the public price of the conquests open now."""
    assert isinstance(state, SmallWorldState)
    board: SmallWorldBoard = state.board
    placement, width, height = island_placement(board)
    races = state.content.races
    colours = dict(RACE_COLOURS)
    for n, race_id in enumerate(sorted(r for r in races if r not in colours)):
        colours[race_id] = FALLBACK_RACE_COLOURS[n % len(FALLBACK_RACE_COLOURS)]
    return {
        "game": "smallworld",
        "board": board.id,
        "name": board.name,
        "rounds": board.rounds,
        "width": width,
        "height": height,
        "islands": [
            {
                "id": island.id,
                "name": island.name,
                "size": island.size,
                "x": placement[island.id][0],
                "y": placement[island.id][1],
                "width": island.width,
                "height": island.height,
            }
            for island in board.islands
        ],
        "regions": [_region_json(r, placement[r.island]) for r in board.regions],
        "terrain_colours": TERRAIN_COLOURS,
        "races": {
            **{
                race.id: {"name": race.name, "faction": race.faction, "colour": colours[race.id]}
                for race in races.values()
            },
            "murlocs": {"name": state.content.murlocs.name, "faction": "none", "colour": colours["murlocs"]},
        },
        "powers": {power.id: power.name for power in state.content.powers.values()},
        "markers": {
            **{m.id: m.name for m in state.content.artifacts.values()},
            **{m.id: m.name for m in state.content.places.values()},
        },
        "die_faces": list(state.content.die_faces),
        "offers": conquest_offers(state),
    }
