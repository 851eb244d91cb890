"""How many actions a hero needs to reach a location, magic gates included (DEF-ACT-01/04/06).

With two or more magic gates on the board a hero standing on a gate goes to any
other gate for one action and no card (DEF-ACT-04), and the Wizard teleports to
any gate once a turn (one action). A trip is then the cheaper of walking and
"walk to the nearest gate, hop, walk from the gate nearest the goal".

Everything here reads only the board and the gates on it (public).
"""

from __future__ import annotations

import math

from warhorn.ai.defenders.threat import board_info
from warhorn.games.defenders.board import DefendersBoard
from warhorn.games.defenders.state import DefendersState

#: Per (board id, gates): the walking distance from every location to its nearest gate.
_NEAREST: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
#: Per (board id, gates): the mean number of steps between two locations (walk or hop).
_MEAN: dict[tuple[int, tuple[int, ...]], float] = {}


def gates_of(state: DefendersState) -> tuple[int, ...]:
    return tuple(i for i, g in enumerate(state.gates) if g)


def nearest_gate(board: DefendersBoard, gates: tuple[int, ...]) -> tuple[int, ...]:
    key = (id(board), gates)
    cached = _NEAREST.get(key)
    if cached is None:
        dist = board_info(board).dist
        cached = tuple(min((dist[i][g] for g in gates), default=99) for i in range(len(board.locations)))
        _NEAREST[key] = cached
    return cached


def trip(
    board: DefendersBoard,
    gates: tuple[int, ...],
    start: int,
    to: int,
    speed: int = 1,
    teleport: bool = False,
) -> int:
    """Actions from ``start`` to ``to`` at ``speed`` locations per move, hopping between gates."""
    dist = board_info(board).dist
    best = math.ceil(dist[start][to] / speed)
    if not gates or best <= 1:
        return best
    near = nearest_gate(board, gates)
    tail = math.ceil(near[to] / speed)
    if teleport:
        best = min(best, 1 + tail)
    if len(gates) >= 2:
        best = min(best, math.ceil(near[start] / speed) + 1 + tail)
    return best


def mean_trip(board: DefendersBoard, gates: tuple[int, ...]) -> float:
    """Mean walking-or-hopping steps between two locations of the board with these gates."""
    key = (id(board), gates)
    cached = _MEAN.get(key)
    if cached is None:
        dist = board_info(board).dist
        n = len(board.locations)
        if len(gates) < 2:
            cached = sum(map(sum, dist)) / (n * n)
        else:
            near = nearest_gate(board, gates)
            cached = sum(min(dist[a][b], near[a] + 1 + near[b]) for a in range(n) for b in range(n)) / (n * n)
        _MEAN[key] = cached
    return cached


def gate_gain(state: DefendersState, loc: int) -> float:
    """How many steps a gate at ``loc`` saves on an average trip (0 if one stands there)."""
    gates = gates_of(state)
    if loc in gates:
        return 0.0
    with_it = tuple(sorted((*gates, loc)))
    return mean_trip(state.board, gates) - mean_trip(state.board, with_it)
