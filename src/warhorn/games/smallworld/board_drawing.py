"""Generating the drawings of Small World board sets (run by hand; the shipped files are its output).

Two generators, one cell construction:

* **Original islands** (:func:`island_set_files`): each island starts as a
  compact patch of a jittered triangular lattice (one point per region),
  some triangles merged into quadrilaterals so that regions have four to six
  neighbours as on the printed boards. Each region's outline is its cell in
  the patch (corners at edge midpoints and face centres, the coast pushed
  outward). The borders written to the file are then **derived from the
  outlines** (:func:`warhorn.engine.board_geometry.geometric_borders`),
  and terrain, symbols and names are assigned by the island designs below.
* **Classic maps** (:func:`classic_set_files`): the borders are the published
  facts; a drawing is made to fit them: a planar embedding of the map graph
  (networkx) with the board-edge regions on the outside, a Tutte (barycentric)
  layout with the outer regions on an ellipse, and the same cell construction.
  The result respects every border and adds none, but it is not the printed map.

In both, two regions share a stretch of outline exactly when they are adjacent in
the graph; the content check verifies this on the files. Regenerate with
``python -m warhorn.games.smallworld.board_drawing`` (needs ``networkx``, a dev
dependency); ``tests/games/smallworld/test_boards.py`` checks the shipped files are
its output.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from warhorn.engine.board_geometry import geometric_borders, signed_area

Point = tuple[float, float]
V = TypeVar("V", bound=Hashable)
BOARDS_DIR = Path(__file__).parent / "data" / "boards"


# --- cells of a planar straight-line drawing ------------------------------------------------


def _orient_ccw(cycle: Sequence[V], pos: Mapping[V, Point]) -> list[V]:
    points = [pos[v] for v in cycle]
    return list(cycle) if signed_area(points) > 0 else list(reversed(cycle))


def _unit(dx: float, dy: float) -> Point:
    length = math.hypot(dx, dy)
    return (dx / length, dy / length)


def region_cells(
    pos: Mapping[V, Point],
    faces: Sequence[Sequence[V]],
    outer: Sequence[V],
    *,
    face_points: Mapping[int, Point] | None = None,
    rng: np.random.Generator,
    spacing: float,
    coast: float = 0.35,
    wiggle: float = 0.06,
) -> dict[V, list[Point]]:
    """Each vertex's cell in a planar drawing: cells share an edge exactly when their vertices do.

    ``faces``: the inner faces as vertex cycles; ``outer``: the outer cycle.
    A cell's corners are the midpoints of the vertex's edges and the points of its
    faces (the centroid, or ``face_points[i]`` for face ``i``); on the outer
    cycle the cell reaches out to a coast pushed outward by about ``coast`` ×
    ``spacing``, with a little noise from ``rng`` so that coasts and borders are
    not straight lines (inner borders bend by up to ``wiggle`` × their length).
    """
    outer = _orient_ccw(outer, pos)
    on_outer = set(outer)
    nxt = {outer[i]: outer[(i + 1) % len(outer)] for i in range(len(outer))}
    prv = {outer[i]: outer[i - 1] for i in range(len(outer))}
    face_pt: dict[int, Point] = {}
    wedges: dict[V, dict[V, tuple[V, int]]] = {}
    for f, face in enumerate(faces):
        cycle = _orient_ccw(face, pos)
        if face_points is not None and f in face_points:
            face_pt[f] = face_points[f]
        else:
            face_pt[f] = (
                sum(pos[v][0] for v in cycle) / len(cycle),
                sum(pos[v][1] for v in cycle) / len(cycle),
            )
        for i, v in enumerate(cycle):
            n, p = cycle[(i + 1) % len(cycle)], cycle[i - 1]
            wedges.setdefault(v, {})[n] = (p, f)
    # shared points: edge midpoints (coastal ones pushed out), corners and coast points
    mid: dict[frozenset[V], Point] = {}

    def edge_point(u: V, v: V) -> Point:
        key = frozenset((u, v))
        if key not in mid:
            (x1, y1), (x2, y2) = pos[u], pos[v]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            nx_, ny_ = _unit(y2 - y1, x1 - x2)
            if u in on_outer and v in on_outer and (nxt[u] == v or nxt[v] == u):
                a, b = (u, v) if nxt[u] == v else (v, u)
                (ax, ay), (bx, by) = pos[a], pos[b]
                ox, oy = _unit(by - ay, ax - bx)  # right of a->b = outside of a CCW cycle
                push = spacing * coast * (0.8 + 0.5 * float(rng.random()))
                mid[key] = (mx + ox * push, my + oy * push)
            else:
                shift = math.hypot(x2 - x1, y2 - y1) * wiggle * float(rng.uniform(-1, 1))
                mid[key] = (mx + nx_ * shift, my + ny_ * shift)
        return mid[key]

    corner: dict[V, Point] = {}
    for v in outer:
        a, b = prv[v], nxt[v]
        (ax, ay), (vx, vy), (bx, by) = pos[a], pos[v], pos[b]
        n1 = _unit(vy - ay, ax - vx)
        n2 = _unit(by - vy, vx - bx)
        ox, oy = _unit(n1[0] + n2[0], n1[1] + n2[1])
        push = spacing * coast * (0.7 + 0.5 * float(rng.random()))
        corner[v] = (vx + ox * push, vy + oy * push)
    coast_pt: dict[tuple[V, V], Point] = {}
    for v in outer:
        for w in (prv[v], nxt[v]):
            m = edge_point(v, w)
            c = corner[v]
            a, b = (v, w) if nxt[v] == w else (w, v)
            (ax, ay), (bx, by) = pos[a], pos[b]
            ox, oy = _unit(by - ay, ax - bx)
            push = spacing * coast * 0.35 * float(rng.uniform(-0.5, 1.0))
            coast_pt[(v, w)] = ((m[0] + c[0]) / 2 + ox * push, (m[1] + c[1]) / 2 + oy * push)
    cells: dict[V, list[Point]] = {}
    for v, around in wedges.items():
        start = nxt[v] if v in on_outer else next(iter(around))
        points: list[Point] = []
        here = start
        for _ in range(len(around)):
            end, f = around[here]
            points += [edge_point(v, here), face_pt[f]]
            here = end
            if here == start:
                break
        if v in on_outer:
            points += [edge_point(v, here), coast_pt[(v, here)], corner[v], coast_pt[(v, start)]]
        cells[v] = points
    return cells


def _frame(cells: Mapping[V, list[Point]], margin: float = 12.0) -> tuple[dict[V, list[Point]], float, float]:
    """Move the cells into a frame starting at (margin, margin), y down, rounded to 0.1."""
    xs = [x for pts in cells.values() for x, _ in pts]
    ys = [y for pts in cells.values() for _, y in pts]
    x0, y1 = min(xs), max(ys)
    out = {
        v: [(round(x - x0 + margin, 1), round(y1 - y + margin, 1)) for x, y in pts]
        for v, pts in cells.items()
    }
    # y is flipped, so reverse each outline to keep its turning sense
    out = {v: pts[::-1] for v, pts in out.items()}
    width = round(max(xs) - x0 + 2 * margin, 1)
    height = round(y1 - min(ys) + 2 * margin, 1)
    return out, width, height


# --- original islands: a patch of a jittered triangular lattice --------------------------------


LATTICE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _lattice_patch(
    n: int, rng: np.random.Generator, stretch: float
) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]] | None:
    """``n`` lattice points grown into a compact blob, and its triangles (None if not a disc)."""
    blob = {(0, 0)}
    while len(blob) < n:
        frontier = {(i + di, j + dj) for i, j in blob for di, dj in LATTICE_STEPS} - blob
        best, best_score = None, -1e9
        for cand in sorted(frontier):
            links = sum((cand[0] + di, cand[1] + dj) in blob for di, dj in LATTICE_STEPS)
            y = cand[1] * math.sqrt(3) / 2
            score = links - stretch * abs(y) + float(rng.uniform(0, 1.5))
            if score > best_score:
                best, best_score = cand, score
        assert best is not None
        blob.add(best)
    points = sorted(blob)
    index = {p: k for k, p in enumerate(points)}
    triangles = []
    for i, j in points:
        for tri in (((i, j), (i + 1, j), (i, j + 1)), ((i + 1, j), (i, j + 1), (i + 1, j + 1))):
            if all(t in index for t in tri):
                triangles.append((index[tri[0]], index[tri[1]], index[tri[2]]))
    covered = {v for t in triangles for v in t}
    if len(covered) != n:
        return None
    return points, triangles


def _boundary_cycle(faces: Sequence[Sequence[int]]) -> list[int] | None:
    """The one outer cycle of a disc made of ``faces`` (None if the boundary is not a single simple cycle)."""
    count: dict[frozenset[int], int] = {}
    for face in faces:
        for i, v in enumerate(face):
            key = frozenset((v, face[(i + 1) % len(face)]))
            count[key] = count.get(key, 0) + 1
    boundary = [tuple(k) for k, c in count.items() if c == 1]
    links: dict[int, list[int]] = {}
    for a, b in boundary:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    if any(len(x) != 2 for x in links.values()):
        return None
    start = min(links)
    cycle, prev, here = [start], None, start
    while True:
        step = links[here][0] if links[here][0] != prev else links[here][1]
        if step == start:
            break
        cycle.append(step)
        prev, here = here, step
    return cycle if len(cycle) == len(links) else None


def lattice_island(
    n: int, seed: int, stretch: float = 0.35, spacing: float = 100.0, inland: int = 0
) -> tuple[dict[int, list[Point]], float, float, set[int]]:
    """Outlines of an island of ``n`` regions, at least ``inland`` of them off the coast.

    Returns (cells by region number, width, height, coastal regions).
    """
    for attempt in range(200):
        rng = np.random.default_rng([seed, attempt])
        patch = _lattice_patch(n, rng, stretch)
        if patch is None:
            continue
        points, triangles = patch
        outer = _boundary_cycle(triangles)
        if outer is None or n - len(outer) < inland:
            continue
        pos: dict[int, Point] = {}
        for k, (i, j) in enumerate(points):
            jx, jy = rng.uniform(-0.16, 0.16, size=2)
            pos[k] = (spacing * (i + j / 2 + float(jx)), spacing * (j * math.sqrt(3) / 2 + float(jy)))
        faces = _merge_some_triangles(triangles, set(outer), rng)
        cells = region_cells(pos, faces, outer, rng=rng, spacing=spacing)
        framed, width, height = _frame(cells)
        from warhorn.engine.board_geometry import overlap_problem, polygon_problem

        if any(polygon_problem(c) for c in framed.values()):
            continue
        keys = list(framed)
        if any(overlap_problem(framed[a], framed[b]) for i, a in enumerate(keys) for b in keys[i + 1 :]):
            continue
        return {int(str(k)): v for k, v in framed.items()}, width, height, {int(v) for v in outer}
    raise RuntimeError(f"no valid island of {n} regions from seed {seed}")


def _merge_some_triangles(
    triangles: Sequence[tuple[int, int, int]], outer: set[int], rng: np.random.Generator
) -> list[list[int]]:
    """Merge pairs of triangles across interior edges into quadrilaterals (fewer, more map-like borders)."""
    edge_faces: dict[frozenset[int], list[int]] = {}
    degree: dict[int, set[int]] = {}
    for f, tri in enumerate(triangles):
        for i in range(3):
            a, b = tri[i], tri[(i + 1) % 3]
            edge_faces.setdefault(frozenset((a, b)), []).append(f)
            degree.setdefault(a, set()).add(b)
            degree.setdefault(b, set()).add(a)
    interior = sorted((sorted(e) for e, fs in edge_faces.items() if len(fs) == 2))
    order = rng.permutation(len(interior))
    merged: set[int] = set()
    quads: list[list[int]] = []
    for k in order:
        a, b = interior[int(k)]
        f1, f2 = edge_faces[frozenset((a, b))]
        if f1 in merged or f2 in merged or rng.random() > 0.25:
            continue
        if len(degree[a]) < 4 or len(degree[b]) < 4:
            continue
        t1, t2 = triangles[f1], triangles[f2]
        c = next(v for v in t1 if v not in (a, b))
        d = next(v for v in t2 if v not in (a, b))
        merged |= {f1, f2}
        degree[a].discard(b)
        degree[b].discard(a)
        quads.append([a, c, b, d])
    return [list(t) for f, t in enumerate(triangles) if f not in merged] + quads


@dataclass(frozen=True)
class IslandDesign:
    """What warhorn fixes for one original island; the lattice and the assignment do the rest."""

    id: str
    name: str
    size: str
    seed: int
    regions: int
    sea: int
    lakes: int
    mountains: int
    murlocs: int
    entries: int
    caverns: int
    magic: int
    stretch: float = 0.35


#: The six original islands (2 large, 2 medium, 2 small, like the box's six boards). The
#: 5-player layout (both large, Mossgloom, both small) holds 10 mountains and 15 Murlocs, the
#: box's whole supply (RB-WOW component table; game.toml and races.toml).
ISLAND_DESIGNS: tuple[IslandDesign, ...] = (
    IslandDesign("stormcrest", "Stormcrest Isle", "large", 11, 14, 1, 1, 3, 4, 5, 2, 2),
    IslandDesign("emberfall", "Emberfall Isle", "large", 23, 12, 1, 1, 3, 4, 4, 2, 2, stretch=0.45),
    IslandDesign("mossgloom", "Mossgloom Isle", "medium", 37, 9, 1, 0, 2, 3, 4, 2, 1),
    IslandDesign("frostwatch", "Frostwatch Isle", "medium", 41, 9, 0, 1, 2, 3, 4, 1, 2, stretch=0.5),
    IslandDesign("tidewrack", "Tidewrack Isle", "small", 53, 7, 1, 0, 1, 2, 3, 1, 1),
    IslandDesign("duskmire", "Duskmire Isle", "small", 67, 6, 1, 0, 1, 2, 3, 1, 1),
)

#: The islands warhorn lays out per player count (sizes and rounds come from game.toml).
ISLAND_LAYOUTS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (2, ("stormcrest", "tidewrack")),
    (3, ("stormcrest", "mossgloom", "tidewrack")),
    (4, ("stormcrest", "mossgloom", "frostwatch", "tidewrack")),
    (5, ("stormcrest", "emberfall", "mossgloom", "tidewrack", "duskmire")),
)

#: Region names by terrain, used in order across the islands (each name once).
REGION_NAMES: dict[str, tuple[str, ...]] = {
    "field": (
        "Goldmead Pastures",
        "Harvestwind Fields",
        "Ploughman's Rest",
        "Barleyhold",
        "Sunsheaf Meadows",
        "Millbrook Farms",
        "Honeyvale Plains",
        "Shepherd's Reach",
        "Wheatburrow",
        "Lanternfield",
        "Copperfield Steading",
        "Greengrange",
        "Cinder Acres",
        "Thistledown Leas",
    ),
    "forest": (
        "Whisperbough Wood",
        "Moonglade Thicket",
        "Thornroot Grove",
        "Ashenbark Forest",
        "Owlshade Wilds",
        "Elderleaf Hollow",
        "Wolfrun Pines",
        "Mistveil Woods",
        "Ironbark Stand",
        "Starfall Glade",
        "Fernshadow Copse",
        "Ravenwood",
        "Briarhold Forest",
        "Antler Wood",
    ),
    "hill": (
        "Windcairn Downs",
        "Boulderback Rise",
        "Grimtusk Knolls",
        "Stonewhistle Hills",
        "Ogre's Brow",
        "Rustridge Slopes",
        "Highbarrow",
        "Sheepstone Tors",
        "Goblet Hill",
        "Dunehollow Heights",
        "Kestrel Rise",
        "Totem Knoll",
        "Broken Tusk Downs",
        "Lookout Brae",
    ),
    "mountain": (
        "Frostfang Peak",
        "Thunderhorn Crag",
        "Ironjaw Summit",
        "Skyreach Spire",
        "Wyrmspine Pass",
        "Cinderpeak",
        "Stormhowl Crags",
        "Titanstep Mountain",
        "Gloomtooth Peak",
        "Wyrmcrest",
        "Eagle's Anvil",
        "Shatterstone Heights",
    ),
    "swamp": (
        "Murkwater Fen",
        "Sludgeback Marsh",
        "Gloomreed Bog",
        "Croakmire",
        "Rotmoss Swamp",
        "Blackwater Sloughs",
        "Witchlight Mire",
        "Fogbottom Marsh",
        "Leechfen",
        "Drowned Hollow",
        "Bogbelly Marsh",
        "Reedrot Wetlands",
        "Sunken Shrine Marsh",
    ),
    "sea": ("Bay of Broken Masts", "Sharkfin Sound", "Gullcry Cove", "Smuggler's Inlet", "Wrecker's Bay"),
    "lake": ("Mirrormere", "Moonwell Lake", "Frozen Tarn"),
}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


def _connected_without(nodes: set[int], adjacency: Mapping[int, set[int]]) -> bool:
    if not nodes:
        return True
    start = min(nodes)
    seen, queue = {start}, deque([start])
    while queue:
        here = queue.popleft()
        for there in adjacency[here]:
            if there in nodes and there not in seen:
                seen.add(there)
                queue.append(there)
    return seen == nodes


def _spread_pick(
    candidates: Sequence[int],
    k: int,
    adjacency: Mapping[int, set[int]],
    rng: np.random.Generator,
    avoid: Iterable[int] = (),
) -> list[int]:
    """``k`` of ``candidates`` chosen far apart (each next one as far as possible from those chosen)."""
    chosen: list[int] = []
    taken = set(avoid)
    pool = [c for c in candidates if c not in taken]
    if len(pool) < k:
        raise RuntimeError(f"need {k} regions, only {len(pool)} available")

    def distance_to_chosen(c: int) -> int:
        seeds = chosen or list(taken)
        if not seeds:
            return 0
        dist = {s: 0 for s in seeds}
        queue = deque(seeds)
        while queue:
            here = queue.popleft()
            for there in adjacency[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist.get(c, 99)

    for _ in range(k):
        scored = sorted(pool, key=lambda c: (-distance_to_chosen(c) - float(rng.random()), c))
        pick = scored[0]
        chosen.append(pick)
        pool.remove(pick)
    return chosen


def design_island(design: IslandDesign, names: dict[str, list[str]]) -> dict[str, Any]:
    """One original island as file data: outlines, borders derived from them, terrain and symbols."""
    cells, width, height, coastal = lattice_island(
        design.regions, design.seed, design.stretch, inland=design.lakes
    )
    rng = np.random.default_rng([design.seed, 999])
    polygons = {str(k): v for k, v in cells.items()}
    adjacency: dict[int, set[int]] = {k: set() for k in cells}
    for pair in geometric_borders(polygons):
        a, b = (int(x) for x in pair)
        adjacency[a].add(b)
        adjacency[b].add(a)
    everyone = set(cells)
    terrain: dict[int, str] = {}
    interior = sorted(everyone - coastal)
    for _ in range(design.sea):
        options = [
            c
            for c in sorted(coastal)
            if c not in terrain and _connected_without(everyone - set(terrain) - {c}, adjacency)
        ]
        terrain[options[int(rng.integers(len(options)))]] = "sea"
    for _ in range(design.lakes):
        options = [
            c
            for c in interior
            if c not in terrain and _connected_without(everyone - set(terrain) - {c}, adjacency)
        ]
        terrain[options[int(rng.integers(len(options)))]] = "lake"
    land = sorted(everyone - set(terrain))
    for m in _spread_pick(land, design.mountains, adjacency, rng):
        terrain[m] = "mountain"
    counts = {t: 0 for t in ("field", "forest", "hill", "swamp")}
    for region in sorted(land, key=lambda r: (-len(adjacency[r]), r)):
        if region in terrain:
            continue
        clash = {t: sum(terrain.get(n) == t for n in adjacency[region]) for t in counts}
        pick = min(counts, key=lambda t: (clash[t], counts[t], float(rng.random())))
        terrain[region] = pick
        counts[pick] += 1
    mountains = {r for r in land if terrain[r] == "mountain"}
    lowland = [r for r in land if r not in mountains]
    coastal_land = [r for r in land if r in coastal]
    entries = set(_spread_pick(coastal_land, design.entries, adjacency, rng))
    slot = _spread_pick([r for r in lowland if r not in coastal] or lowland, 1, adjacency, rng, avoid=())[0]
    murlocs = set(_spread_pick([r for r in lowland if r != slot], design.murlocs, adjacency, rng))
    caverns = set(_spread_pick(land, design.caverns, adjacency, rng))
    magic = set(_spread_pick([r for r in land if r not in caverns], design.magic, adjacency, rng))
    ids: dict[int, str] = {}
    regions = []
    for k in sorted(cells, key=lambda c: (min(y for _, y in cells[c]), c)):
        name = names[terrain[k]].pop(0)
        ids[k] = _slug(name)
        regions.append(
            {
                "id": ids[k],
                "name": name,
                "terrain": terrain[k],
                "entry": k in entries,
                "cavern": k in caverns,
                "magic": k in magic,
                "murlocs": 1 if k in murlocs else 0,
                "mountain_token": k in mountains,
                "place_slot": k == slot,
                "polygon": cells[k],
                "source": "original",
            }
        )
    borders = sorted(
        (
            tuple(sorted((ids[int(a)], ids[int(b)])))
            for a, b in (tuple(p) for p in geometric_borders(polygons))
        ),
    )
    return {
        "id": design.id,
        "name": design.name,
        "size": design.size,
        "width": width,
        "height": height,
        "source": "original",
        "borders": [{"a": a, "b": b, "source": "original"} for a, b in borders],
        "regions": regions,
    }


def island_set_files() -> dict[str, str]:
    """The ``islands`` board set's files (name -> text)."""
    names = {t: list(v) for t, v in REGION_NAMES.items()}
    files: dict[str, str] = {}
    for design in ISLAND_DESIGNS:
        files[f"{design.id}.toml"] = island_toml(
            design_island(design, names),
            "warhorn's original island (the real island faces are not public). Generated by "
            "warhorn.games.smallworld.board_drawing; the borders are derived from the outlines.",
        )
    files["set.toml"] = set_toml(
        {
            "id": "islands",
            "name": "Original islands",
            "kind": "islands",
            "source": "original",
            "islands": [d.id for d in ISLAND_DESIGNS],
            "layouts": [
                {
                    "players": players,
                    "islands": list(islands),
                    "source": "original",
                }
                for players, islands in ISLAND_LAYOUTS
            ],
        },
        "Small World of Warcraft: warhorn's original island set (board=islands, the default). "
        "Rounds, island sizes per player count and the Murloc and Mountain supply are the game's "
        "(game.toml, races.toml).",
    )
    return files


# --- classic maps: a drawing made to fit published borders ---------------------------------


def graph_cells(
    ids: Sequence[str],
    edges: Iterable[tuple[str, str]],
    outside: set[str],
    seed: int,
    spacing: float = 100.0,
    corners: Iterable[tuple[str, str]] = (),
) -> tuple[dict[str, list[Point]], float, float]:
    """Outlines for a planar map graph whose ``outside`` regions touch the board edge.

    A planar embedding of the graph plus one vertex joined to every edge region
    puts those regions around the outer face; faces of four or more sides get a
    helper point; the Tutte layout (each inner point the mean of its neighbours)
    with the outer cycle on an ellipse is a planar straight-line drawing, and
    :func:`region_cells` turns it into outlines. ``corners``: borders left out of the
    embedding; each pair must then share a face, so that their outlines meet at its point.
    """
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(edges)
    hub = "__outside__"
    with_hub = graph.copy()
    with_hub.add_edges_from((hub, v) for v in outside)
    with_hub.remove_edges_from(corners)
    graph.remove_edges_from(corners)
    planar, embedding = nx.check_planarity(with_hub)
    if not planar:
        raise ValueError("the map with its edge regions on the outside is not planar")

    rotation = {
        v: [u for u in embedding.neighbors_cw_order(v) if u != hub] for v in embedding.nodes if v != hub
    }
    emb = nx.PlanarEmbedding()
    emb.set_data(rotation)
    faces: list[list[str]] = []
    seen_half: set[tuple[str, str]] = set()
    for u, v in emb.edges():
        if (u, v) in seen_half:
            continue
        face = emb.traverse_face(u, v, mark_half_edges=seen_half)
        faces.append(list(face))
    hub_ring = set(with_hub[hub])
    outer_face = max(faces, key=lambda f: (len(hub_ring & set(f)), len(f)))
    inner = [f for f in faces if f is not outer_face]
    if len(set(outer_face)) != len(outer_face) or any(len(set(f)) != len(f) for f in inner):
        raise ValueError("a face of the map is not a simple cycle (the map is not 2-connected)")
    for a, b in corners:
        if not any(a in f and b in f for f in inner):
            raise ValueError(f"corner border {a}-{b}: the two regions share no face of the embedding")
    # Tutte layout: outer cycle on an ellipse, each outer region given an arc by its number of
    # neighbours (a sea bordering many regions needs room on the coast); helper points for big faces
    arcs = [float(graph.degree[v]) for v in outer_face]
    total = sum(arcs)
    pos: dict[str, Point] = {}
    start = 0.0
    for v, w in zip(outer_face, arcs, strict=True):
        angle = -2 * math.pi * (start + w / 2) / total
        start += w
        pos[v] = (spacing * 3.2 * math.cos(angle), spacing * 2.4 * math.sin(angle))
    unknown = [v for v in ids if v not in pos]
    helpers = [f"__face{f}__" for f, face in enumerate(inner) if len(face) > 3]
    helper_face = {f"__face{f}__": face for f, face in enumerate(inner) if len(face) > 3}
    variables = unknown + helpers
    neighbours: dict[str, set[str]] = {v: set(graph[v]) for v in ids}
    for h, face in helper_face.items():
        neighbours[h] = set(face)
        for v in face:
            neighbours[v].add(h)
    # Tutte's barycentric layout: each inner point the mean of its neighbours (planar, Tutte 1963)
    pos.update(_barycentric(variables, neighbours, pos))
    pos = _reading_order_flip(pos, ids)
    face_points = {f: pos[f"__face{f}__"] for f, face in enumerate(inner) if len(face) > 3}
    rng = np.random.default_rng(seed)
    cells = region_cells(
        pos, inner, outer_face, face_points=face_points, rng=rng, spacing=spacing * 0.6, coast=0.4, wiggle=0.0
    )
    framed, width, height = _frame({v: cells[v] for v in ids})
    return {str(k): v for k, v in framed.items()}, width, height


def _barycentric(
    variables: Sequence[str],
    neighbours: Mapping[str, set[str]],
    fixed: Mapping[str, Point],
) -> dict[str, Point]:
    """Each variable point at the mean of its neighbours (the fixed ones stay): one linear solve."""
    col = {v: k for k, v in enumerate(variables)}
    matrix = np.zeros((len(variables), len(variables)))
    rhs = np.zeros((len(variables), 2))
    for v in variables:
        r = col[v]
        for u in sorted(neighbours[v]):
            matrix[r, r] += 1.0
            if u in col:
                matrix[r, col[u]] -= 1.0
            else:
                rhs[r] += np.array(fixed[u])
    solved = np.linalg.solve(matrix, rhs)
    return {v: (float(solved[col[v], 0]), float(solved[col[v], 1])) for v in variables}


def _reading_order_flip(pos: dict[str, Point], ids: Sequence[str]) -> dict[str, Point]:
    """Mirror the drawing (left-right, top-bottom or both) so that ``ids`` run roughly in reading order.

    The classic maps number their regions left to right and top to bottom; this keeps
    the generated drawing the same way round (region 0 near the top left).
    """
    rank = np.arange(len(ids), dtype=float)
    best, best_score = (1.0, 1.0), -2.0
    for sx in (1.0, -1.0):
        for sy in (1.0, -1.0):
            reading = np.array([-sy * pos[v][1] * 3 + sx * pos[v][0] for v in ids])
            score = float(np.corrcoef(rank, reading)[0, 1])
            if score > best_score + 1e-12:
                best, best_score = (sx, sy), score
    sx, sy = best
    return {v: (sx * x, sy * y) for v, (x, y) in pos.items()}


def classic_set_files(folder: Path = BOARDS_DIR / "classic") -> dict[str, str]:
    """The ``classic`` board set's files, with outlines made to fit the borders already in them."""
    files: dict[str, str] = {}
    set_text = (folder / "set.toml").read_text(encoding="utf-8")
    set_data = tomllib.loads(set_text)
    files["set.toml"] = set_text
    for n, island_id in enumerate(set_data["islands"]):
        path = folder / f"{island_id}.toml"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        ids = [r["id"] for r in data["regions"]]
        edges = [(b["a"], b["b"]) for b in data["borders"]]
        corners = [(b["a"], b["b"]) for b in data["borders"] if b.get("corner")]
        outside = {r["id"] for r in data["regions"] if r.get("board_edge")}
        cells, width, height = graph_cells(ids, edges, outside, seed=100 + n, corners=corners)
        data["width"], data["height"] = width, height
        for r in data["regions"]:
            r["polygon"] = cells[r["id"]]
        header = _leading_comments(path.read_text(encoding="utf-8"))
        files[path.name] = island_toml(data, header)
    return files


def _leading_comments(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    return " ".join(lines)


# --- TOML writing -------------------------------------------------------------------------


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _comment(text: str) -> str:
    words, lines, line = text.split(), [], "#"
    for word in words:
        if len(line) + 1 + len(word) > 100:
            lines.append(line)
            line = "#"
        line += " " + word
    lines.append(line)
    return "\n".join(lines) + "\n"


REGION_KEYS = (
    "id",
    "name",
    "terrain",
    "entry",
    "cavern",
    "magic",
    "murlocs",
    "mountain_token",
    "place_slot",
    "board_edge",
)


def island_toml(data: Mapping[str, Any], header: str) -> str:
    out = [_comment(header)]
    for key in ("id", "name", "size", "width", "height", "source"):
        out.append(f"{key} = {_value(data[key])}\n")
    out.append("borders = [\n")
    for border in data["borders"]:
        out.append(f"  {_value(border)},\n")
    out.append("]\n")
    for region in data["regions"]:
        out.append("\n[[regions]]\n")
        for key in REGION_KEYS:
            if key in region:
                out.append(f"{key} = {_value(region[key])}\n")
        out.append(f"polygon = {_value([list(p) for p in region['polygon']])}\n")
        out.append(f"source = {_value(region['source'])}\n")
    return "".join(out)


def set_toml(data: Mapping[str, Any], header: str) -> str:
    out = [_comment(header)]
    for key in ("id", "name", "kind", "murloc_tokens", "mountain_tokens", "source", "islands"):
        if key in data:
            out.append(f"{key} = {_value(data[key])}\n")
    for layout in data["layouts"]:
        out.append("\n[[layouts]]\n")
        for key in ("players", "islands", "rounds", "source"):
            if key in layout:
                out.append(f"{key} = {_value(layout[key])}\n")
    return "".join(out)


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_files(BOARDS_DIR / "islands", island_set_files())
    write_files(BOARDS_DIR / "classic", classic_set_files())
