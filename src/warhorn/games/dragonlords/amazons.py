"""The Amazons' charm attack and their prisoners (DLX-AMZ-02..06, DLX-SPL-CMD's protection).

What the game asks and tells this module:

* **Whether a charm is allowed** (:func:`charm_refusal`, the legality test). The target territory
  must lie in the Amazon realm. Every charming unit must have stood next to it since the start of
  the turn (not arrived by sea or forced march), must not have fought this turn, and must not have
  charmed this turn. The Amazons may not leave a territory of theirs empty. Enemy units with a
  sorcerer of their own, or under Command, cannot be charmed: their owner declares it, and a
  normal combat follows.
* **The charm round** (:func:`charm_round`). The Amazons roll, the enemy does not strike back, and
  the units hit become prisoners. If no enemy is left, the territory is conquered. Otherwise the
  Amazons and their prisoners must retreat and may not attack again this turn.
* **The prisoners' fate** (:func:`settle_prisoners`). Prisoners never outnumber their guards. While
  a combat goes on, the excess goes back to its own army. When the Amazons win outnumbered, the
  excess escapes to an adjacent friendly territory, or is removed if there is none. When every
  Amazon dies, all the prisoners join the victor.
* **Guard duty** (:func:`prisoner_fighters`, :func:`prisoners_convert`). Prisoners defend as
  Amazons (attack 3, defence 6) against a third player. Held for a full turn, they become Amazon
  units in the Amazon player's next reinforcement phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.combat import Fighter, roll_side, take_hits, target_defence

PRISONER_ATTACK = 3


@dataclass(frozen=True, slots=True)
class CharmingUnit:
    """What the game knows of an Amazon unit that would charm."""

    id: str
    adjacent_since_turn_start: bool
    arrived_by_sea_or_march: bool = False
    fought_this_turn: bool = False
    charmed_this_turn: bool = False


def charm_refusal(
    units: Sequence[CharmingUnit],
    *,
    target_in_amazon_realm: bool,
    enemy_has_sorcerer: bool,
    enemy_commanded: bool,
    leaves_a_territory_empty: bool,
) -> str | None:
    """Why this charm attack may not be made (None: it may), naming the rule."""
    if not units:
        return "DLX-AMZ-02: a charm needs at least one Amazon unit"
    if not target_in_amazon_realm:
        return "DLX-AMZ-02: Amazons charm only in the territories of their own realm"
    for unit in units:
        if not unit.adjacent_since_turn_start or unit.arrived_by_sea_or_march:
            return f"DLX-AMZ-02: {unit.id} was not next to the territory at the start of the turn"
        if unit.fought_this_turn:
            return f"DLX-AMZ-02: {unit.id} has already fought this turn"
        if unit.charmed_this_turn:
            return f"DLX-AMZ-02: {unit.id} has already charmed this turn"
    if leaves_a_territory_empty:
        return "DLX-AMZ-03: Amazons may not leave a territory of theirs empty to charm"
    if enemy_has_sorcerer:
        return "DLX-AMZ-05: units with their own sorcerer cannot be charmed (fight a normal combat)"
    if enemy_commanded:
        return "DLX-SPL-CMD: units under Command cannot be charmed"
    return None


@dataclass(frozen=True, slots=True)
class CharmResult:
    """One charm round: the prisoners taken (ids), the enemies left, and whether the territory fell."""

    prisoners: tuple[str, ...]
    enemies: tuple[Fighter, ...]
    faces: tuple[int, ...]

    @property
    def conquered(self) -> bool:
        """DLX-AMZ-03: conquered if no enemy is left; otherwise the Amazons must retreat."""
        return not self.enemies


def charm_round(
    rng: Rng, amazons: Sequence[Fighter], enemies: Sequence[Fighter], modifier: int = 0
) -> CharmResult:
    """DLX-AMZ-02: a combat round in which the enemy does not strike back and hits capture."""
    rolls = roll_side(rng, amazons, modifier, target_defence(enemies))
    left, taken = take_hits(enemies, sum(r.hit for r in rolls))
    return CharmResult(taken, left, tuple(r.face for r in rolls))


@dataclass(frozen=True, slots=True)
class PrisonerFate:
    """How many prisoners stay guarded, go back to their army, escape, are removed, or join the victor."""

    kept: int
    returned: int = 0
    escaped: int = 0
    removed: int = 0
    to_victor: int = 0


def settle_prisoners(prisoners: int, amazons: int, *, battle_over: bool, escape_route: bool) -> PrisonerFate:
    """DLX-AMZ-06: the prisoners' fate at a casualty step (or whenever the guards change)."""
    if amazons <= 0:
        return PrisonerFate(kept=0, to_victor=prisoners)
    excess = max(0, prisoners - amazons)
    kept = prisoners - excess
    if not battle_over:
        return PrisonerFate(kept=kept, returned=excess)
    if escape_route:
        return PrisonerFate(kept=kept, escaped=excess)
    return PrisonerFate(kept=kept, removed=excess)


def prisoner_fighters(ids: Sequence[str]) -> tuple[Fighter, ...]:
    """DLX-AMZ-04: attacked by a third player, prisoners defend as Amazons (attack 3, defence 6)."""
    return tuple(Fighter(i, attacks=(PRISONER_ATTACK,)) for i in ids)


def prisoners_convert(captured_on_amazon_turn: int, amazon_turn_now: int) -> bool:
    """DLX-AMZ-04: prisoners held for a full turn become Amazon units, one for one, in the reinforcement
    phase of the Amazon player's next turn (turns counted in the Amazon player's own turns)."""
    return amazon_turn_now > captured_on_amazon_turn
