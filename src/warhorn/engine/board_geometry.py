"""Plane geometry of board region outlines: simple polygons, overlaps, and shared borders.

Each board (a Small World island, a DragonLords world) is drawn as a planar
subdivision: every region is a simple polygon, no two regions overlap, and two
regions border each other exactly when their outlines share a stretch of
boundary of positive length (touching at a single point is not a border, as on
the printed boards). :func:`geometric_borders` derives the adjacency from the
outlines, so a content check can compare it with the listed borders and the
drawing and the graph can never disagree.

Pure Python (no numpy): content checks run wherever warhorn runs.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Callable, Mapping, Sequence

Point = tuple[float, float]
Polygon = Sequence[Point]

#: Distance (drawing units) within which a point counts as lying on a segment.
ON_SEGMENT_TOLERANCE = 0.01
#: Shortest shared stretch of outline that counts as a border (drawing units).
MIN_SHARED_LENGTH = 0.5


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def signed_area(polygon: Polygon) -> float:
    """Shoelace area: positive for counter-clockwise vertex order (y up), negative for clockwise."""
    total = 0.0
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        total += x1 * y2 - x2 * y1
    return total / 2.0


def _segments(polygon: Polygon) -> list[tuple[Point, Point]]:
    n = len(polygon)
    return [(polygon[i], polygon[(i + 1) % n]) for i in range(n)]


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """True when the segments cross at a point interior to both (touching or overlapping is not crossing)."""
    d1 = _cross(q1, q2, p1)
    d2 = _cross(q1, q2, p2)
    d3 = _cross(p1, p2, q1)
    d4 = _cross(p1, p2, q2)
    eps = 1e-9
    return ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    )


def _distance_to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return float(((p[0] - ax) ** 2 + (p[1] - ay) ** 2) ** 0.5)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    cx, cy = ax + t * dx, ay + t * dy
    return float(((p[0] - cx) ** 2 + (p[1] - cy) ** 2) ** 0.5)


def polygon_problem(polygon: Polygon) -> str | None:
    """Why ``polygon`` is not a simple polygon (None if it is one).

    A simple polygon has at least three distinct corners, a non-zero area, no
    repeated corner and no two sides that cross or touch except neighbouring
    sides at their shared corner.
    """
    n = len(polygon)
    if n < 3:
        return f"a polygon needs at least 3 points; found {n}"
    seen: dict[Point, int] = {}
    for i, point in enumerate(polygon):
        key = (float(point[0]), float(point[1]))
        if key in seen:
            return f"point {i} repeats point {seen[key]} {list(key)}"
        seen[key] = i
    if abs(signed_area(polygon)) < 1e-9:
        return "the polygon has no area"
    sides = _segments(polygon)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            a1, a2 = sides[i]
            b1, b2 = sides[j]
            if _segments_cross(a1, a2, b1, b2):
                return f"sides {i} and {j} cross (the outline is not a simple polygon)"
            for p, (s1, s2) in ((b1, sides[i]), (b2, sides[i]), (a1, sides[j]), (a2, sides[j])):
                if _distance_to_segment(p, s1, s2) < ON_SEGMENT_TOLERANCE:
                    return f"sides {i} and {j} touch (the outline is not a simple polygon)"
    return None


def outline_problems(polygon: Polygon, width: float, height: float, frame: str) -> list[tuple[str, str]]:
    """What is wrong with a region's drawing outline, as (key suffix, message) pairs.

    The outline must lie inside the ``width`` x ``height`` drawing frame (named ``frame`` in the
    message; only the first corner outside is reported) and be a simple polygon. A content check
    appends each key suffix to the region's key.
    """
    problems: list[tuple[str, str]] = []
    for i, (x, y) in enumerate(polygon):
        if not (0 <= x <= width and 0 <= y <= height):
            problems.append(
                (f".polygon[{i}]", f"point {[x, y]} lies outside the {frame}{width:g} x {height:g} frame")
            )
            break
    problem = polygon_problem(polygon)
    if problem:
        problems.append((".polygon", f"not a simple polygon: {problem}"))
    return problems


def point_strictly_inside(point: Point, polygon: Polygon) -> bool:
    """Ray casting; points on the outline (within tolerance) are not inside."""
    for a, b in _segments(polygon):
        if _distance_to_segment(point, a, b) < ON_SEGMENT_TOLERANCE:
            return False
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in _segments(polygon):
        if (y1 > y) != (y2 > y):
            x_at = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x_at > x:
                inside = not inside
    return inside


def _shared_length(a1: Point, a2: Point, b1: Point, b2: Point) -> float:
    """Length of the stretch two segments have in common when they lie on one line (0 otherwise).

    Symmetric: a side lying strictly inside a longer side (neither end of the longer one on it)
    shares its whole length, whichever of the two comes first.
    """
    dx, dy = a2[0] - a1[0], a2[1] - a1[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length == 0.0:
        return 0.0
    ux, uy = dx / length, dy / length
    # both ends of b must lie on a's line (within tolerance) for the segments to be collinear
    for p in (b1, b2):
        off = abs((p[0] - a1[0]) * uy - (p[1] - a1[1]) * ux)
        if off > ON_SEGMENT_TOLERANCE:
            return 0.0
    t1 = (b1[0] - a1[0]) * ux + (b1[1] - a1[1]) * uy
    t2 = (b2[0] - a1[0]) * ux + (b2[1] - a1[1]) * uy
    lo, hi = max(0.0, min(t1, t2)), min(length, max(t1, t2))
    return float(max(0.0, hi - lo))


def shared_boundary_length(first: Polygon, second: Polygon) -> float:
    """Total length of outline the two polygons have in common."""
    total = 0.0
    second_sides = _segments(second)
    for a1, a2 in _segments(first):
        for b1, b2 in second_sides:
            total += _shared_length(a1, a2, b1, b2)
    return total


def _bbox(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    margin = ON_SEGMENT_TOLERANCE
    return a[0] <= b[2] + margin and b[0] <= a[2] + margin and a[1] <= b[3] + margin and b[1] <= a[3] + margin


def geometric_borders(polygons: Mapping[str, Polygon]) -> set[frozenset[str]]:
    """The pairs of regions whose outlines share a stretch of boundary at least MIN_SHARED_LENGTH long."""
    ids = list(polygons)
    boxes = {rid: _bbox(polygons[rid]) for rid in ids}
    found: set[frozenset[str]] = set()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if not _boxes_meet(boxes[a], boxes[b]):
                continue
            if shared_boundary_length(polygons[a], polygons[b]) >= MIN_SHARED_LENGTH:
                found.add(frozenset((a, b)))
    return found


def overlap_problem(first: Polygon, second: Polygon) -> str | None:
    """Why two simple polygons overlap (None if their interiors are apart)."""
    if not _boxes_meet(_bbox(first), _bbox(second)):
        return None
    for i, (a1, a2) in enumerate(_segments(first)):
        for j, (b1, b2) in enumerate(_segments(second)):
            if _segments_cross(a1, a2, b1, b2):
                return f"side {i} crosses side {j} of the other outline"
    for point in first:
        if point_strictly_inside(point, second):
            return f"point {list(point)} lies inside the other outline"
    for point in second:
        if point_strictly_inside(point, first):
            return f"the other outline's point {list(point)} lies inside this one"
    return None


def outlines_touch(first: Polygon, second: Polygon) -> bool:
    """True when a corner of one outline lies on the other's outline (within tolerance)."""
    for point in first:
        for a, b in _segments(second):
            if _distance_to_segment(point, a, b) < ON_SEGMENT_TOLERANCE:
                return True
    for point in second:
        for a, b in _segments(first):
            if _distance_to_segment(point, a, b) < ON_SEGMENT_TOLERANCE:
                return True
    return False


# --- drawing regions from points: Voronoi cells and hand-drawn looking borders ---------------------------


def _clip_half_plane(polygon: list[Point], a: Point, b: Point) -> list[Point]:
    """The part of a convex ``polygon`` closer to ``a`` than to ``b`` (Sutherland-Hodgman on the bisector)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def side(p: Point) -> float:  # <= 0: on a's side
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[Point] = []
    n = len(polygon)
    for i in range(n):
        p, q = polygon[i], polygon[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def clip_convex(polygon: Polygon, clipper: Polygon) -> list[Point]:
    """The part of ``polygon`` inside the convex ``clipper`` (both convex, either orientation;
    Sutherland-Hodgman on each side of the clipper), possibly empty."""
    out = list(polygon)
    turn = 1.0 if signed_area(clipper) > 0 else -1.0
    n = len(clipper)
    for i in range(n):
        a, b = clipper[i], clipper[(i + 1) % n]
        if not out:
            break

        def inside(p: Point, a: Point = a, b: Point = b) -> float:  # >= 0: on the clipper's side
            return turn * _cross(a, b, p)

        kept: list[Point] = []
        for j in range(len(out)):
            p, q = out[j], out[(j + 1) % len(out)]
            sp, sq = inside(p), inside(q)
            if sp >= 0:
                kept.append(p)
            if (sp < 0 < sq) or (sq < 0 < sp):
                k = sp / (sp - sq)
                kept.append((p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])))
        out = kept
    return _dedupe(out)


def circle_polygon(centre: Point, radius: float, sides: int = 32) -> list[Point]:
    """A regular ``sides``-gon inscribed in the circle (a circle for :func:`clip_convex`)."""
    return [
        (
            centre[0] + radius * math.cos(2 * math.pi * k / sides),
            centre[1] + radius * math.sin(2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


def voronoi_cells(
    sites: Mapping[str, Point], width: float, height: float, *, radii: Mapping[str, float] | None = None
) -> dict[str, list[Point]]:
    """Each site's cell inside the ``width`` x ``height`` frame, as a convex polygon (possibly empty).

    A point of the frame belongs to the site of least power distance ``|x - site|² - radius²``
    (``radii`` default 0: the plain Voronoi diagram, every point to its nearest site), so the cells
    tile the frame without gaps or overlaps; a larger radius gives a site a larger cell. Corners are
    rounded to 0.01 and a corner several cells share is the same numbers in each.
    """
    frame: list[Point] = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    cells: dict[str, list[Point]] = {}
    radius = radii or {}
    for sid, site in sites.items():
        cell = list(frame)
        ra = radius.get(sid, 0.0)
        for other, point in sites.items():
            if other == sid or not cell:
                continue
            d2 = (point[0] - site[0]) ** 2 + (point[1] - site[1]) ** 2
            if d2 == 0.0:
                continue
            # the border crosses the segment site→point at this fraction of its length
            t = 0.5 + (ra**2 - radius.get(other, 0.0) ** 2) / (2 * d2)
            border = (site[0] + (point[0] - site[0]) * t, site[1] + (point[1] - site[1]) * t)
            mirror = (2 * border[0] - site[0], 2 * border[1] - site[1])
            cell = _clip_half_plane(cell, site, mirror)
        cells[sid] = _dedupe([(round(x, 2), round(y, 2)) for x, y in cell])
    # a corner three cells share is computed once per cell: make the copies the same numbers
    canonical: list[Point] = []

    def snap(p: Point) -> Point:
        for c in canonical:
            if abs(c[0] - p[0]) <= 0.05 and abs(c[1] - p[1]) <= 0.05:
                return c
        canonical.append(p)
        return p

    return {sid: _dedupe([snap(p) for p in cell]) for sid, cell in cells.items()}


def shared_sides(first: Polygon, second: Polygon) -> list[tuple[Point, Point]]:
    """The sides of ``first`` that ``second`` also has (same corners, either direction, within 0.05)."""

    def same(p: Point, q: Point) -> bool:
        return abs(p[0] - q[0]) < 0.05 and abs(p[1] - q[1]) < 0.05

    theirs = _segments(second)
    return [
        (a, b)
        for a, b in _segments(first)
        if any((same(a, c) and same(b, d)) or (same(a, d) and same(b, c)) for c, d in theirs)
    ]


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in points:
        if not out or abs(p[0] - out[-1][0]) > 0.02 or abs(p[1] - out[-1][1]) > 0.02:
            out.append(p)
    while len(out) > 1 and abs(out[0][0] - out[-1][0]) <= 0.02 and abs(out[0][1] - out[-1][1]) <= 0.02:
        out.pop()
    return out


def _unit_noise(key: str, n: int) -> list[float]:
    """``n`` numbers in [-1, 1] fixed by ``key`` (a SplitMix64 stream seeded by the key's CRC-32)."""
    state = zlib.crc32(key.encode())
    out = []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        out.append((z / 0xFFFFFFFFFFFFFFFF) * 2 - 1)
    return out


def wavy_side(
    a: Point,
    b: Point,
    *,
    roughness: float = 0.12,
    depth: int = 3,
    frame: tuple[float, float] | None = None,
) -> list[Point]:
    """The points strictly between ``a`` and ``b`` of a wavy line from ``a`` to ``b`` (midpoint displacement).

    The wave depends only on the two end points, not on their order: the two regions sharing a side
    draw the same line (one of them backwards). Each midpoint moves sideways by at most
    ``roughness`` times its segment's length, halving at each of the ``depth`` levels. With a
    ``frame`` (width, height) the points stay inside it. Points are rounded to 0.1.
    """
    flip = (b[0], b[1]) < (a[0], a[1])
    p, q = (b, a) if flip else (a, b)
    noise = _unit_noise(f"{p[0]:.2f},{p[1]:.2f}|{q[0]:.2f},{q[1]:.2f}", 2**depth)
    points = [p, q]
    used = 0
    for _level in range(depth):
        refined = [points[0]]
        for s, e in itertools.pairwise(points):
            dx, dy = e[0] - s[0], e[1] - s[1]
            shift = noise[used] * roughness
            used += 1
            refined.append(((s[0] + e[0]) / 2 - dy * shift, (s[1] + e[1]) / 2 + dx * shift))
            refined.append(e)
        points = refined
    if frame is not None:
        points = [(min(max(x, 0.0), frame[0]), min(max(y, 0.0), frame[1])) for x, y in points]
    inner = [(round(x, 1), round(y, 1)) for x, y in points[1:-1]]
    return inner[::-1] if flip else inner


def wavy_outline(
    polygon: Polygon,
    width: float,
    height: float,
    *,
    roughness: float = 0.12,
    depth: int = 3,
    straight: Callable[[Point, Point], bool] | None = None,
) -> list[Point]:
    """``polygon`` with every side wavy (:func:`wavy_side`) except the sides along the frame's edges
    and those ``straight(a, b)`` says stay straight, rounded to 0.1 (two regions sharing a side share
    the same points)."""

    def on_frame(a: Point, b: Point) -> bool:
        return any(
            abs(a[i] - edge) < 0.05 and abs(b[i] - edge) < 0.05
            for i, edge in ((0, 0.0), (0, width), (1, 0.0), (1, height))
        )

    out: list[Point] = []
    n = len(polygon)
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        out.append((round(a[0], 1), round(a[1], 1)))
        if not on_frame(a, b) and not (straight is not None and straight(a, b)):
            out.extend(wavy_side(a, b, roughness=roughness, depth=depth, frame=(width, height)))
    return _dedupe(out)
