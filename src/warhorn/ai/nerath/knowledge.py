"""What the Nerath AI knows about pieces and the board, computed once per board.

Piece strengths are expected hits per battle round (a hit is 6+ on any die,
NER-PCS-01); loss values say how much a side gives up when a piece takes a
damage (a healthy dragon only gets wounded, a castle only goes inactive).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from warhorn.games.nerath.board import DUNGEON, LAND, SEA, NerathBoard
from warhorn.games.nerath.pieces import PIECES, Mobility


def _hits(dice: tuple[int, ...]) -> float:
    return sum((sides - 5) / sides for sides in dice)


#: Expected hits per round of one piece attacking / defending on land.
ATTACK_POWER: dict[str, float] = {p.id: _hits(p.attack_dice) for p in PIECES.values()}
DEFENCE_POWER: dict[str, float] = {p.id: _hits(p.defence_dice) for p in PIECES.values()}

#: What one damage on a piece costs its side (gold-like units), for choosing casualties.
LOSS_VALUE: dict[str, float] = {
    "soldier": 1.0,
    "siege": 2.0,
    "warrior": 2.3,
    "warship": 2.4,
    "monster": 3.1,
    "mage": 3.3,
    "elemental": 3.0,
    "castle": 1.2,  # inactive for the rest of the battle, never destroyed (NER-BAT-06)
    "dragon": 0.8,  # a healthy dragon is only wounded and heals afterwards (NER-BAT-05)
    "wounded-dragon": 5.0,
}

#: The order in which the planner adds pieces to an attack: strong attack dice per gold first,
#: cheap soldiers as casualties, precious flyers last.
ATTACK_PREFERENCE: tuple[str, ...] = ("siege", "monster", "warrior", "soldier", "mage", "dragon", "elemental")


def cost(ptype: str) -> int:
    return PIECES[ptype].cost


def is_land_piece(ptype: str) -> bool:
    return PIECES[ptype].mobility == Mobility.LAND


@dataclass(frozen=True)
class BoardFacts:
    """Distances the planner uses: over land only (``land_dist``) and over every space (``dist``)."""

    lands: tuple[int, ...]
    dungeons: tuple[int, ...]
    seas: tuple[int, ...]
    land_dist: dict[int, dict[int, int]]
    dist: dict[int, dict[int, int]]

    def land_distance(self, a: int, b: int) -> int:
        return self.land_dist.get(a, {}).get(b, 99)

    def distance(self, a: int, b: int) -> int:
        return self.dist.get(a, {}).get(b, 99)


def _bfs(board: NerathBoard, start: int, ok: set[int]) -> dict[int, int]:
    out = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nb in board.neighbors(here):
            if nb in ok and nb not in out:
                out[nb] = out[here] + 1
                todo.append(nb)
    return out


_FACTS: dict[int, tuple[NerathBoard, BoardFacts]] = {}


def facts_for(board: NerathBoard) -> BoardFacts:
    """The board's distances, computed on first use (boards are immutable and shared)."""
    hit = _FACTS.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    n = len(board)
    lands = tuple(i for i in range(n) if board.kind[i] == LAND)
    land_set = set(lands)
    everything = set(range(n))
    facts = BoardFacts(
        lands=lands,
        dungeons=tuple(i for i in range(n) if board.kind[i] == DUNGEON),
        seas=tuple(i for i in range(n) if board.kind[i] == SEA),
        land_dist={i: _bfs(board, i, land_set) for i in lands},
        dist={i: _bfs(board, i, everything) for i in range(n)},
    )
    if len(_FACTS) > 8:
        _FACTS.clear()
    _FACTS[id(board)] = (board, facts)
    return facts
