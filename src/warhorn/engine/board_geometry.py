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

from collections.abc import Mapping, Sequence

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
