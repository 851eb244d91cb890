"""A kingdom's reading of the public board: whose pieces are where, what threatens what.

Everything here comes from public facts (pieces on the board, control,
gold, VP, face-up guardians and the shipped content); nothing reads a hand
or a deck.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from warhorn.ai.nerath.knowledge import ATTACK_POWER, BoardFacts, facts_for
from warhorn.ai.nerath.odds_cache import Army, army
from warhorn.games.nerath.battle_model import Guardian
from warhorn.games.nerath.board import DUNGEON, LAND
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import dungeons
from warhorn.games.nerath.state import Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Gold-equivalent worth of one VP, of a territory's income, of a castle site (planner weights).
VP_WORTH = 4.0
TERRITORY_WORTH = 2.0
CASTLE_WORTH = 3.0
OWN_CAPITAL_WORTH = 14.0
TREASURE_WORTH = 9.0  # a treasure scores 1-3 VP when played, plus its power and property


class Situation:
    """Public facts about the board as kingdom ``k`` sees them, indexed once per decision."""

    def __init__(self, s: NerathState, k: int) -> None:
        self.s = s
        self.k = k
        self.board = s.board
        self.facts: BoardFacts = facts_for(s.board)
        self.at: dict[int, list[Unit]] = {}
        for u in s.d.units.values():
            if u.carrier < 0:
                self.at.setdefault(u.space, []).append(u)
        self._threat: dict[int, Army] | None = None

    # --- sides ------------------------------------------------------------------------
    def mine(self, space: int) -> list[Unit]:
        return [u for u in self.at.get(space, ()) if u.kingdom == self.k]

    def enemies(self, space: int) -> list[Unit]:
        return [u for u in self.at.get(space, ()) if not self.s.allied(u.kingdom, self.k)]

    def friends(self, space: int) -> list[Unit]:
        return [u for u in self.at.get(space, ()) if self.s.allied(u.kingdom, self.k)]

    def defence_army(self, space: int) -> Army:
        return army(Counter(u.ptype for u in self.enemies(space)))

    def own_army(self, space: int) -> Army:
        return army(Counter(u.ptype for u in self.friends(space)))

    # --- value of a space -------------------------------------------------------------
    def conquest_value(self, space: int) -> tuple[float, str]:
        """Gold-equivalent worth of taking ``space`` and a short description (VP, income, castle)."""
        s, k, board = self.s, self.k, self.board
        owner = board.owner[space]
        parts: list[str] = []
        value = 0.0
        if board.kind[space] != LAND:
            return 0.0, ""
        capital = board.capital_of[space] >= 0
        if owner >= 0 and not s.allied(owner, k):
            vp = 5 if capital else 1
            value += vp * VP_WORTH + TERRITORY_WORTH
            parts.append(f"+{vp} VP")
            if capital:
                value += 6.0  # the owner's income halves (NER-INC-03)
        elif owner == k and capital:
            value += OWN_CAPITAL_WORTH
            parts.append("retakes our capital")
        elif owner >= 0:  # own or ally's starting territory back (NER-BAT-19 liberation)
            value += TERRITORY_WORTH + (8.0 if capital else 0.0)
            parts.append("liberates" if owner != k else "retakes")
        else:
            value += TERRITORY_WORTH
        castle = next((u for u in self.at.get(space, ()) if u.ptype == "castle"), None)
        if castle is not None and not s.allied(castle.kingdom, k):
            value += CASTLE_WORTH
            parts.append("castle")
        return value, ", ".join(parts) or "+1 gold income"

    # --- threats ------------------------------------------------------------------------
    def threats(self) -> dict[int, Army]:
        """For each friendly territory: the enemy pieces that could attack it in their next turn."""
        if self._threat is not None:
            return self._threat
        s, k = self.s, self.k
        facts = self.facts
        mine = [i for i in facts.lands if s.d.control[i] >= 0 and s.allied(s.d.control[i], k)]
        found: dict[int, Counter[str]] = {i: Counter() for i in mine}
        for space, units in self.at.items():
            for u in units:
                if s.allied(u.kingdom, k) or u.ptype in ("castle", "warship"):
                    continue
                stats = PIECES[u.ptype]
                flying = stats.mobility == Mobility.FLYING
                near = facts.dist[space] if flying else facts.land_dist.get(space, {})
                for t in mine:
                    if near.get(t, 99) <= stats.move:
                        found[t][u.ptype] += 1
        self._threat = {t: army(c) for t, c in found.items()}
        return self._threat

    def threat_power(self, space: int) -> float:
        return sum(ATTACK_POWER[p] * n for p, n in self.threats().get(space, ()))

    def frontier(self, space: int) -> bool:
        """A land space next to an enemy territory."""
        return any(
            self.board.kind[nb] == LAND and self.s.is_enemy(nb, self.k) for nb in self.board.neighbors(space)
        )

    def enemy_distance(self, space: int) -> int:
        """Land steps from ``space`` to the nearest enemy territory (99: none reachable by land)."""
        near = self.facts.land_dist.get(space, {})
        best = 99
        for t, dist in near.items():
            if dist < best and self.s.is_enemy(t, self.k):
                best = dist
        return best

    # --- dungeons ----------------------------------------------------------------------------
    def guardian_pool(self) -> tuple[tuple[Guardian, int], ...]:
        """Tiles that could be face down anywhere: every shipped tile minus those face up and defeated."""
        s = self.s
        left = dungeons.unseen_guardian_tiles(s)
        return tuple((guardian_model(s, tile), n) for tile, n in sorted(left.items()))

    def dungeon_line_up(self, space: int) -> tuple[tuple[Guardian, ...], int]:
        """The face-up guardians at a dungeon (as they are now) and how many tiles lie face down."""
        known = []
        hidden = 0
        for g in self.s.d.guardians.get(space, ()):
            if g.face_up:
                known.append(guardian_model(self.s, g.tile))
            else:
                hidden += 1
        return tuple(sorted(known, key=lambda x: x.id)), hidden


def guardian_model(s: NerathState, tile: str) -> Guardian:
    g = s.board.guardian(tile)
    return Guardian(g.id, g.name, g.dice, g.first_strike, g.hero_hit_min, g.reward_gold)


def is_dungeon(s: NerathState, space: int) -> bool:
    return s.board.kind[space] == DUNGEON


def describe_army(a: Army) -> str:
    return " + ".join(f"{n} {p}" for p, n in a) or "nothing"
