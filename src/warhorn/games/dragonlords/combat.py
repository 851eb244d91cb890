"""The dice of a DragonLords combat round: TAS, rolls against a defence die, hits and casualties.

This is the arithmetic core the seven-step combat (DLX-CMB-01) runs in steps 2, 5, 6 and 7, kept
free of the board so the game state, the odds calculator and the tests share it (one source of
truth). Which spells, cards and heroes are in force, and who chooses casualties, are decided by
the game and passed in.

The reading (``docs/dragonlords-reconstruction.md``):

* DLR-CMB-01: a unit's TAS is its attack value plus every modifier in force for its side (spells
  and cards of step 2, level-3 heroes' +1, items), minus 1 for an army attacking a Kingdom.
* DLR-CMB-02: every die is the size of the target's defence value (a d6 against units, whose
  defence is 6; a monster's own die); a roll at or under the TAS hits, so a TAS of 6 or more
  always hits a d6 and 0 or less never hits.
* DLR-CMB-03: both sides roll with the units alive after the ranged steps; units put out of action
  (poisoned, petrified, frozen) do not roll; all hits are removed together in step 7.
* DLR-PEO-02: in an Elf sneak attack round, the defender's units hit by the attacker are removed
  before the defender rolls.
* DLX-HER-01 (the dice part): a hero's level adds to its own unit's attack and is rolled as that
  unit's die; a level-3 hero also gives its side +1 TAS.

A side is a tuple of :class:`Fighter` in its owner's casualty order: the first is removed first
(the owner's choice, DLR-HID-03, made by the game before the roll).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from warhorn.engine.rng import Rng

UNIT_DEFENCE = 6

#: Put out of action by a ranged spell or a monster (DLX-CMB-04): the unit does not roll and is
#: removed in step 7 unless healed (poisoned, petrified) or thawed by Fireball (frozen).
Condition = Literal["poisoned", "petrified", "frozen"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """One unit (or monster) in a combat.

    ``attacks``: the attack value of each die it rolls (a unit rolls one; the Red Dragon's
    "6 (5)" rolls two). ``defence``: the die its foes roll against it. ``wounds``: hits it takes
    before it is removed. ``condition``: poisoned, petrified or frozen this round (it does not
    roll, DLX-CMB-04). ``hero_level``: 0-3 (DLX-HER-01). ``traits``: what spells read, e.g.
    ``dragon`` (Fireball has no effect, DLX-FAQ-10) or ``fire_doubled`` (the Ice Worm).
    """

    id: str
    attacks: tuple[int, ...] = (3,)
    defence: int = UNIT_DEFENCE
    wounds: int = 1
    hero_level: int = 0
    condition: Condition | None = None
    traits: frozenset[str] = field(default_factory=frozenset)

    @property
    def out_of_action(self) -> bool:
        return self.condition is not None


def side_modifier(
    modifiers: Iterable[int] = (), *, fighters: Sequence[Fighter] = (), attacking_a_kingdom: bool = False
) -> int:
    """The TAS modifier of a whole side (DLR-CMB-01).

    ``modifiers``: the +/- of every spell, card and item in force for the side this round
    (Hope +1, an enemy's Panic -1, Wrath +2, ...). Each level-3 hero among ``fighters`` adds 1
    (DLX-HER-01); an army attacking a Kingdom territory subtracts 1.
    """
    total = sum(modifiers)
    total += sum(1 for f in fighters if f.hero_level >= 3)
    if attacking_a_kingdom:
        total -= 1
    return total


def die_tas(fighter: Fighter, attack: int, modifier: int) -> int:
    """What one of ``fighter``'s dice must roll at or under: attack + hero level + the side's modifier."""
    return attack + fighter.hero_level + modifier


def hits(roll: int, tas: int) -> bool:
    """DLR-CMB-02: a roll at or under the TAS hits (whatever the die; a TAS of 0 or less never hits)."""
    return tas > 0 and roll <= tas


def hit_probability(tas: int, die: int = UNIT_DEFENCE) -> float:
    """The chance one die of size ``die`` hits at ``tas`` (the odds calculator reads the same rule)."""
    return min(max(tas, 0), die) / die


@dataclass(frozen=True, slots=True)
class Roll:
    """One die thrown: whose, its size, the TAS it needed, the face, and whether it hit."""

    fighter: str
    die: int
    tas: int
    face: int
    hit: bool


def roll_side(rng: Rng, side: Sequence[Fighter], modifier: int, target_defence: int) -> tuple[Roll, ...]:
    """Steps 5/6: every fighter able to fight rolls each of its dice against the target's defence die."""
    rolls: list[Roll] = []
    for fighter in side:
        if fighter.out_of_action:
            continue
        for attack in fighter.attacks:
            tas = die_tas(fighter, attack, modifier)
            face = rng.roll(target_defence)
            rolls.append(Roll(fighter.id, target_defence, tas, face, hits(face, tas)))
    return tuple(rolls)


def target_defence(side: Sequence[Fighter]) -> int:
    """The die rolled against a side: the defence of its next casualty (units: 6)."""
    return side[0].defence if side else UNIT_DEFENCE


def take_hits(side: Sequence[Fighter], count: int) -> tuple[tuple[Fighter, ...], tuple[str, ...]]:
    """Step 7: apply ``count`` hits in the side's casualty order; returns (survivors, removed ids).

    A fighter with several wounds (a monster) absorbs that many hits before it is removed; hits
    beyond the whole side are lost (except under Bloodlust, see :func:`bloodlust_surplus`).
    """
    survivors: list[Fighter] = []
    removed: list[str] = []
    left = count
    for fighter in side:
        if left >= fighter.wounds:
            left -= fighter.wounds
            removed.append(fighter.id)
        elif left > 0:
            survivors.append(replace(fighter, wounds=fighter.wounds - left))
            left = 0
        else:
            survivors.append(fighter)
    return tuple(survivors), tuple(removed)


def capacity(side: Sequence[Fighter]) -> int:
    """How many hits remove the whole side."""
    return sum(f.wounds for f in side)


def bloodlust_surplus(hit_count: int, enemy: Sequence[Fighter]) -> int:
    """DLX-SPL-BLD: hits beyond what removes every enemy fighter, which strike the caster's own side."""
    return max(0, hit_count - capacity(enemy))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Steps 5-7 of one combat round."""

    attacker_rolls: tuple[Roll, ...]
    defender_rolls: tuple[Roll, ...]
    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    attackers_removed: tuple[str, ...]
    defenders_removed: tuple[str, ...]

    @property
    def attacker_hits(self) -> int:
        return sum(r.hit for r in self.attacker_rolls)

    @property
    def defender_hits(self) -> int:
        return sum(r.hit for r in self.defender_rolls)


def dice_round(
    rng: Rng,
    attackers: Sequence[Fighter],
    defenders: Sequence[Fighter],
    *,
    attacker_modifier: int = 0,
    defender_modifier: int = 0,
    sneak_attack: bool = False,
    attacker_bloodlust: bool = False,
    defender_bloodlust: bool = False,
) -> RoundResult:
    """Steps 5, 6 and 7 of a combat round: the attacker rolls, the defender rolls, casualties go.

    Both sides roll with the fighters given (DLR-CMB-03); with ``sneak_attack`` (an Elf attack's
    first round, DLR-PEO-02) the defenders the attacker hit are removed before the defender rolls.
    A side under Bloodlust (DLX-SPL-BLD; its +1 is in its modifier) turns the hits beyond what
    removes every enemy on its own units, in its own casualty order.
    """
    a_rolls = roll_side(rng, attackers, attacker_modifier, target_defence(defenders))
    a_hits = sum(r.hit for r in a_rolls)
    defenders_after, defenders_removed = take_hits(defenders, a_hits)
    rolling_defenders = defenders_after if sneak_attack else defenders
    d_rolls = roll_side(rng, rolling_defenders, defender_modifier, target_defence(attackers))
    d_hits = sum(r.hit for r in d_rolls)
    attacker_losses = d_hits + (bloodlust_surplus(a_hits, defenders) if attacker_bloodlust else 0)
    attackers_after, attackers_removed = take_hits(attackers, attacker_losses)
    if defender_bloodlust:
        defenders_after, more = take_hits(defenders_after, bloodlust_surplus(d_hits, attackers))
        defenders_removed += more
    return RoundResult(
        a_rolls, d_rolls, attackers_after, defenders_after, attackers_removed, defenders_removed
    )
