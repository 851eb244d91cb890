"""The map regions of Nerath and Defenders (issue #19).

Nerath: every space and impassable area is a region (a simple polygon inside the frame, around its
own point), no two regions overlap, and the drawing tells the rules' adjacency exactly: two regions
that touch without a border in the rules are separated by a barrier, and a border between regions
that do not touch is drawn as a crossing. Defenders: every location is a region around it, the
regions tile the map without overlapping, and Monarch City's is larger than the average.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from warhorn.engine import load_game
from warhorn.engine.board_geometry import (
    circle_polygon,
    clip_convex,
    geometric_borders,
    outline_problems,
    overlap_problem,
    point_strictly_inside,
    signed_area,
    voronoi_cells,
)
from warhorn.games.nerath.web.layout import DUNGEON_REACH, REGION_RADII, nerath_layout


@pytest.fixture(scope="module")
def layout() -> dict[str, Any]:
    return nerath_layout(load_game("nerath", seed=1))


def _regions(layout: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    return {
        r["id"]: [tuple(p) for p in r["polygon"]]  # type: ignore[misc]
        for r in [*layout["spaces"], *layout["impassable"]]
    }


def test_every_space_and_mountain_is_a_region_around_its_point(layout: dict[str, Any]) -> None:
    regions = _regions(layout)
    assert len(regions) == 85 + 2
    for item in [*layout["spaces"], *layout["impassable"]]:
        polygon = regions[item["id"]]
        assert outline_problems(polygon, layout["width"], layout["height"], "map ") == [], item["id"]
        assert point_strictly_inside((item["x"], item["y"]), polygon), item["id"]


def test_regions_cover_the_map_without_overlapping(layout: dict[str, Any]) -> None:
    regions = _regions(layout)
    total = sum(abs(signed_area(p)) for p in regions.values())
    # the frame, less what dungeon entrances leave to the water under the map (their cells beyond
    # DUNGEON_REACH): the regions of the power diagram, clipped, before borders are made wavy
    sites = {item["id"]: (item["x"], item["y"]) for item in [*layout["spaces"], *layout["impassable"]]}
    kinds = {item["id"]: item["kind"] for item in [*layout["spaces"], *layout["impassable"]]}
    cells = voronoi_cells(
        sites, layout["width"], layout["height"], radii={s: REGION_RADII[kinds[s]] for s in sites}
    )
    water = sum(
        abs(signed_area(cell)) - abs(signed_area(clip_convex(cell, circle_polygon(sites[s], DUNGEON_REACH))))
        for s, cell in cells.items()
        if kinds[s] == "dungeon"
    )
    assert water > 0
    assert total == pytest.approx(layout["width"] * layout["height"] - water, rel=2e-3)
    ids = sorted(regions)
    for n, a in enumerate(ids):
        for b in ids[n + 1 :]:
            assert overlap_problem(regions[a], regions[b]) is None, (a, b)


def test_dungeon_entrances_are_small_regions_around_their_points(layout: dict[str, Any]) -> None:
    """A dungeon among seas used to get a cell three times the others' (Vault of the Drowned King)."""
    dungeons = [s for s in layout["spaces"] if s["kind"] == "dungeon"]
    areas = {s["id"]: abs(signed_area(s["polygon"])) for s in dungeons}
    mean = sum(areas.values()) / len(areas)
    assert max(areas.values()) < 1.7 * mean
    for s in dungeons:
        reach = max(math.dist((s["x"], s["y"]), p) for p in s["polygon"])
        assert reach < DUNGEON_REACH * 1.1, s["id"]


def test_clip_convex_keeps_the_part_inside() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    half = clip_convex(square, [(5.0, -1.0), (20.0, -1.0), (20.0, 20.0), (5.0, 20.0)])
    assert abs(signed_area(half)) == pytest.approx(50.0)
    disc = clip_convex(square[::-1], circle_polygon((5.0, 5.0), 3.0, sides=64))
    assert abs(signed_area(disc)) == pytest.approx(math.pi * 9, rel=0.01)
    assert clip_convex(square, circle_polygon((50.0, 50.0), 3.0)) == []


def test_the_drawing_tells_the_rules_adjacency(layout: dict[str, Any]) -> None:
    regions = _regions(layout)
    touching = geometric_borders(regions)
    rules = {frozenset(c) for c in layout["connections"]}
    crossings = {frozenset(c) for c in layout["crossings"]}
    barriers = {frozenset(b["between"]) for b in layout["barriers"]}
    mountains = {a["id"] for a in layout["impassable"]}
    # every border of the rules: the regions touch, or a crossing joins them (never both)
    assert rules == (rules & touching) | crossings and not (crossings & touching)
    # every touching pair without a border (mountains aside) has a barrier drawn on its shared outline
    assert {p for p in touching - rules if not p & mountains} == barriers
    assert crossings, "the shipped board has borders between regions that do not touch"


def test_voronoi_cells_tile_the_frame() -> None:
    sites = {"a": (10.0, 10.0), "b": (30.0, 12.0), "c": (22.0, 31.0), "d": (5.0, 35.0)}
    for radii in (None, {"a": 8.0, "b": 0.0, "c": 3.0, "d": 5.0}):
        cells = voronoi_cells(sites, 40, 40, radii=radii)
        assert sum(abs(signed_area(c)) for c in cells.values()) == pytest.approx(1600)
        for sid, cell in cells.items():
            assert point_strictly_inside(sites[sid], cell)
    plain = voronoi_cells(sites, 40, 40)
    bigger = voronoi_cells(sites, 40, 40, radii={"a": 8.0})
    assert abs(signed_area(bigger["a"])) > abs(signed_area(plain["a"]))


def test_every_defenders_location_is_a_region_around_it() -> None:
    from warhorn.games.defenders.web.layout import defenders_layout

    layout = defenders_layout(load_game("defenders", seed=1))
    regions = {loc["name"]: [tuple(p) for p in loc["polygon"]] for loc in layout["locations"]}
    assert len(regions) == 45
    total = sum(abs(signed_area(p)) for p in regions.values())
    assert total == pytest.approx(layout["width"] * layout["height"], rel=1e-6)
    for loc in layout["locations"]:
        polygon = regions[loc["name"]]
        assert outline_problems(polygon, layout["width"], layout["height"], "map ") == [], loc["name"]  # type: ignore[arg-type]
        assert point_strictly_inside((loc["x"], loc["y"]), polygon), loc["name"]  # type: ignore[arg-type]
    names = sorted(regions)
    for n, a in enumerate(names):
        for b in names[n + 1 :]:
            assert overlap_problem(regions[a], regions[b]) is None, (a, b)  # type: ignore[arg-type]
    city = regions["Monarch City"]
    assert abs(signed_area(city)) > sum(abs(signed_area(p)) for p in regions.values()) / 45  # type: ignore[arg-type]
