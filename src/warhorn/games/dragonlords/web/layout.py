"""The public layout of the DragonLords world, drawn by ``dragonlords.js``.

Everything here is printed on the board (the world's polygons, realms, Kingdoms, mines, portals,
the Wastelands tracks and their squares) or public (each player's people and colour). No card is
named in it: a card id sent to every seat would say nothing, but the wire-secrecy test rightly
refuses any mention of a card a seat may not see. The units,
ships, parties and the combat come from the seat's view, which hides other players' tokens.
"""

from __future__ import annotations

from typing import Any

from warhorn.engine import GameState
from warhorn.engine.board_geometry import point_strictly_inside, signed_area
from warhorn.games.dragonlords.state import DragonLordsState

#: A colour per seat (banners chosen by warhorn).
PLAYER_COLOURS = ("#c0392b", "#2e86c1", "#d4ac0d", "#8e44ad", "#16a085", "#e67e22")
NEUTRAL_COLOUR = "#7f8c8d"
KIND_COLOURS = {"sea": "#4f86c6", "wastelands": "#d8c08a"}


def label_point(polygon: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """A point inside the outline (the centroid when it is inside, else a middle of a wide row)."""
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
    y = centroid[1] + 0.5
    xs = sorted(
        x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
        if (y1 > y) != (y2 > y)
    )
    spans = [(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)] or [(centroid[0], centroid[0])]
    left, right = max(spans, key=lambda s: s[1] - s[0])
    return (round((left + right) / 2, 1), round(y, 1))


def dragonlords_layout(state: GameState) -> dict[str, Any]:
    """The drawing data of the world and the players' colours (public facts only)."""
    assert isinstance(state, DragonLordsState)
    world = state.world
    realms = {r.id: {"name": r.name, "people": r.people, "colour": r.colour} for r in world.realms}
    spaces = []
    for s in world.spaces:
        fill = realms[s.realm]["colour"] if s.realm else KIND_COLOURS.get(s.kind, "#b8b08a")
        spaces.append(
            {
                "id": s.id,
                "name": s.name,
                "kind": s.kind,
                "realm": s.realm,
                "kingdom": s.kingdom,
                "mine": s.mine,
                "portal": s.portal,
                "island": s.island,
                "feature": s.feature,
                "track": s.track,
                "track_index": s.track_index,
                "fill": fill,
                "polygon": [list(p) for p in s.polygon],
                "label": list(label_point(s.polygon)),
            }
        )
    return {
        "game": "dragonlords",
        "world": world.id,
        "name": world.name,
        "width": world.width,
        "height": world.height,
        "spaces": spaces,
        "realms": realms,
        "peoples": {p.id: p.name for p in state.content.peoples.values()},
        "player_colours": list(PLAYER_COLOURS[: state.num_players]),
        "neutral_colour": NEUTRAL_COLOUR,
    }
