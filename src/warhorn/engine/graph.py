"""A board as a graph of spaces, fast enough for search.

Spaces are named by string ids outside and by dense integer indices inside;
every query has an index form (``*_i``) for hot paths. Adjacency is symmetric
and only listed borders count.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Space:
    """One space: its id, kind (e.g. ``land``, ``sea``, ``dungeon``) and any further properties."""

    id: str
    kind: str
    props: Mapping[str, Any] = field(default_factory=dict)


class BoardGraph:
    """Spaces and their borders, with distances, neighbours and reachable sets."""

    def __init__(self, spaces: Iterable[Space], edges: Iterable[tuple[str, str]]) -> None:
        self.spaces: tuple[Space, ...] = tuple(spaces)
        self.index: dict[str, int] = {}
        for i, space in enumerate(self.spaces):
            if space.id in self.index:
                raise ValueError(f"duplicate space id {space.id!r}")
            self.index[space.id] = i
        nbrs: list[set[int]] = [set() for _ in self.spaces]
        for a, b in edges:
            if a not in self.index or b not in self.index:
                missing = a if a not in self.index else b
                raise ValueError(f"edge {a!r}-{b!r} names an unknown space {missing!r}")
            if a == b:
                raise ValueError(f"space {a!r} cannot border itself")
            ia, ib = self.index[a], self.index[b]
            nbrs[ia].add(ib)
            nbrs[ib].add(ia)
        self.neighbors: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in nbrs)
        self._neighbor_sets: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in nbrs)
        self.kinds: tuple[str, ...] = tuple(s.kind for s in self.spaces)
        self._distances: list[list[int]] | None = None

    def __len__(self) -> int:
        return len(self.spaces)

    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces)

    def space(self, space_id: str) -> Space:
        return self.spaces[self.index[space_id]]

    def adjacent(self, a: str, b: str) -> bool:
        return self.index[b] in self._neighbor_sets[self.index[a]]

    def adjacent_i(self, a: int, b: int) -> bool:
        return b in self._neighbor_sets[a]

    def neighbors_of(self, space_id: str) -> tuple[str, ...]:
        return tuple(self.spaces[j].id for j in self.neighbors[self.index[space_id]])

    def edges(self) -> list[tuple[str, str]]:
        return [
            (self.spaces[i].id, self.spaces[j].id)
            for i, row in enumerate(self.neighbors)
            for j in row
            if i < j
        ]

    # --- distances ----------------------------------------------------------
    def _all_distances(self) -> list[list[int]]:
        if self._distances is None:
            n = len(self.spaces)
            table = []
            for start in range(n):
                dist = [-1] * n
                dist[start] = 0
                queue = deque([start])
                while queue:
                    here = queue.popleft()
                    for nxt in self.neighbors[here]:
                        if dist[nxt] < 0:
                            dist[nxt] = dist[here] + 1
                            queue.append(nxt)
                table.append(dist)
            self._distances = table
        return self._distances

    def distance(self, a: str, b: str) -> int | None:
        """Fewest borders crossed from ``a`` to ``b`` over the whole graph; None if unreachable."""
        d = self._all_distances()[self.index[a]][self.index[b]]
        return None if d < 0 else d

    def distance_i(self, a: int, b: int) -> int:
        """Index form of :meth:`distance`; -1 when unreachable."""
        return self._all_distances()[a][b]

    # --- movement -------------------------------------------------------------
    def reachable_i(
        self,
        start: int,
        steps: int,
        *,
        can_enter: Callable[[int], bool] | None = None,
        can_continue: Callable[[int], bool] | None = None,
    ) -> dict[int, int]:
        """Spaces reachable from ``start`` in at most ``steps`` moves, with the fewest moves each.

        ``can_enter(i)``: may the mover enter space ``i`` at all. ``can_continue(i)``:
        may it move on after entering ``i`` (False for spaces where movement must
        stop, such as an enemy space). The start is included at distance 0.
        """
        best = {start: 0}
        frontier = [start]
        for depth in range(1, steps + 1):
            nxt_frontier = []
            for here in frontier:
                if here != start and can_continue is not None and not can_continue(here):
                    continue
                for nxt in self.neighbors[here]:
                    if nxt in best:
                        continue
                    if can_enter is not None and not can_enter(nxt):
                        continue
                    best[nxt] = depth
                    nxt_frontier.append(nxt)
            if not nxt_frontier:
                break
            frontier = nxt_frontier
        return best

    def reachable(
        self,
        start: str,
        steps: int,
        *,
        can_enter: Callable[[str], bool] | None = None,
        can_continue: Callable[[str], bool] | None = None,
    ) -> dict[str, int]:
        """String-id form of :meth:`reachable_i`."""
        ids = self.spaces
        enter = (lambda i: can_enter(ids[i].id)) if can_enter else None
        cont = (lambda i: can_continue(ids[i].id)) if can_continue else None
        found = self.reachable_i(self.index[start], steps, can_enter=enter, can_continue=cont)
        return {ids[i].id: d for i, d in found.items()}

    def shortest_path_i(
        self,
        start: int,
        goal: int,
        *,
        can_enter: Callable[[int], bool] | None = None,
        can_continue: Callable[[int], bool] | None = None,
    ) -> list[int] | None:
        """One shortest path from ``start`` to ``goal`` (both included) under the same rules."""
        parent = {start: start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                path = [goal]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if here != start and can_continue is not None and not can_continue(here):
                continue
            for nxt in self.neighbors[here]:
                if nxt in parent or (can_enter is not None and not can_enter(nxt)):
                    continue
                parent[nxt] = here
                queue.append(nxt)
        return None

    def connected(self) -> bool:
        if not self.spaces:
            return True
        return all(d >= 0 for d in self._all_distances()[0])
