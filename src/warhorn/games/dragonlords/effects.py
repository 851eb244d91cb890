"""Effects of the ranged step and the casualty step, and the combat's bookkeeping rules.

The functions below are what the game calls once it has decided that a spell (or shard, scroll
card or item) is cast, by whom and on which side. The rest of the module (shards, heroes, the
Necromancers' Scourge, income) is the same kind of code: effects worked out from data the game
passes in. They work on the :class:`~warhorn.games.dragonlords.combat.Fighter` sides of
:mod:`~warhorn.games.dragonlords.combat`, in the owner's casualty order. The owner picks which of
its units a spell takes (DLR-HID-03), so "the first fighter the spell can affect" is the owner's
choice.

Rules: DLR-CMB-05 (Fireball), DLR-CMB-06 (Lightning), DLX-SPL-DTH (Death), DLX-SPL-POI /
DLX-SPL-PET / DLX-MON-ICE (out of action, then healed, thawed or removed in step 7),
DLX-FAQ-10 (Fireball and dragons), DLX-SHD-03 (shards cancel), DLX-HER-01 (heroes),
DLX-NEC-02 (Scourge), DLR-INC-01 and DLR-PEO-03 (income).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.combat import Condition, Fighter, hits, take_hits
from warhorn.games.dragonlords.content import DragonLordsContent, DragonLordStats


@dataclass(frozen=True, slots=True)
class Struck:
    """A side after a ranged effect: who is left (wounds and conditions updated), who was removed."""

    side: tuple[Fighter, ...]
    removed: tuple[str, ...] = ()
    faces: tuple[int, ...] = ()


def _wound(side: Sequence[Fighter], index: int, damage: int) -> Struck:
    target = side[index]
    if damage >= target.wounds:
        return Struck((*side[:index], *side[index + 1 :]), (target.id,))
    return Struck((*side[:index], replace(target, wounds=target.wounds - damage), *side[index + 1 :]))


def fire(side: Sequence[Fighter]) -> Struck:
    """Fireball (DLR-CMB-05), the Ring of Fire, the red shard: one enemy is removed at once.

    Dragons and DragonLords are untouched (DLX-FAQ-10). A monster takes one wound, two if fire
    hurts it double (the Ice Worm, DLX-MON-ICE). With nothing it can burn, nothing happens.
    """
    for index, fighter in enumerate(side):
        if "dragon" not in fighter.traits:
            return _wound(side, index, 2 if "fire_doubled" in fighter.traits else 1)
    return Struck(tuple(side))


def death(side: Sequence[Fighter], *, warded: bool) -> Struck:
    """Death (DLX-SPL-DTH): one enemy chosen by its owner is removed at once, dragons and monsters too.

    ``warded``: the side has the Ring of Hope or the Hope spell in force, which cancel Death.
    """
    if warded or not side:
        return Struck(tuple(side))
    return _wound(side, 0, side[0].wounds)


def lightning(rng: Rng, side: Sequence[Fighter], *, dice: int = 2, hit: int = 3) -> Struck:
    """Lightning (DLR-CMB-06): ``dice`` d6, each at or under ``hit`` removes one enemy (or one wound)."""
    return ranged_dice(rng, side, dice=dice, hit=hit)


def dragon_fire(rng: Rng, side: Sequence[Fighter], stats: DragonLordStats) -> Struck:
    """A DragonLord's Dragon Fire (DLR-DRL-01): a ranged attack of ``fire_dice`` d6, each at or under
    ``fire_hit`` removing one enemy at once. The game does not call it against a quest party, nor at
    sea under the weaker-DragonLords option (:func:`dragonlord_limits`)."""
    return ranged_dice(rng, side, dice=stats.fire_dice, hit=stats.fire_hit)


@dataclass(frozen=True, slots=True)
class DragonLordLimits:
    """What a DragonLord may do: units it carries, fire on naval blocks, landing in a Kingdom."""

    carries: int
    fire_at_sea: bool
    lands_in_kingdoms: bool


def dragonlord_limits(stats: DragonLordStats, *, weak: bool) -> DragonLordLimits:
    """DLR-DRL-02 and the optional weaker DragonLords (DLX-OPT-01): at most 5 units carried, no fire
    on naval blocks, no landing straight in a Kingdom."""
    if weak:
        return DragonLordLimits(stats.weak_carries, fire_at_sea=False, lands_in_kingdoms=False)
    return DragonLordLimits(stats.carries, fire_at_sea=True, lands_in_kingdoms=True)


def ranged_dice(rng: Rng, side: Sequence[Fighter], *, dice: int, hit: int) -> Struck:
    """A ranged attack of ``dice`` d6: each face at or under ``hit`` removes the owner's next unit
    (or takes one wound off a monster), at once."""
    faces = rng.rolls(6, dice)
    struck = Struck(tuple(side), (), faces)
    for face in faces:
        if hits(face, hit) and struck.side:
            after = _wound(struck.side, 0, 1)
            struck = Struck(after.side, struck.removed + after.removed, faces)
    return struck


def put_out_of_action(side: Sequence[Fighter], condition: Condition) -> Struck:
    """Poison, Petrifying Gaze, Cone of Cold (DLX-SPL-POI, DLX-SPL-PET, DLX-MON-ICE): one enemy, chosen
    by its owner among those still able to fight, takes the condition and does not strike back."""
    for index, fighter in enumerate(side):
        if fighter.condition is None:
            return Struck((*side[:index], replace(fighter, condition=condition), *side[index + 1 :]))
    return Struck(tuple(side))


@dataclass(frozen=True, slots=True)
class CasualtyStep:
    """Step 7 for one side: the survivors, the removed, and who was saved (healed or thawed)."""

    side: tuple[Fighter, ...]
    removed: tuple[str, ...]
    saved: tuple[str, ...]


def casualty_step(side: Sequence[Fighter], dice_hits: int, *, heals: int = 0, thaws: int = 0) -> CasualtyStep:
    """Step 7: conditions are healed or thawed, the dice hits are taken, the rest are removed.

    ``heals``: Heal casts, potions and the Holy Grail available to this side this round; each saves
    one poisoned or petrified unit, or one unit the dice removed (DLR-CMB-04). ``thaws``: Fireballs
    cast on its frozen units (DLX-MON-ICE); a frozen unit nobody thaws is removed. Heals go first to
    the units out of action, in the owner's order, then to units hit by the dice (the last taken first).
    """
    saved: list[str] = []
    removed: list[str] = []
    standing: list[Fighter] = []
    for fighter in side:
        if fighter.condition == "frozen":
            if thaws > 0:
                thaws -= 1
                saved.append(fighter.id)
                standing.append(replace(fighter, condition=None))
            else:
                removed.append(fighter.id)
        elif fighter.condition is not None:
            if heals > 0:
                heals -= 1
                saved.append(fighter.id)
                standing.append(replace(fighter, condition=None))
            else:
                removed.append(fighter.id)
        else:
            standing.append(fighter)
    survivors, hit_removed = take_hits(standing, dice_hits)
    # The owner's order gives up the least valued first, so a heal saves the last unit the dice took.
    kept = len(hit_removed) - min(heals, len(hit_removed))
    lost, healed = hit_removed[:kept], hit_removed[kept:]
    by_id = {f.id: f for f in standing}
    survivors = (*survivors, *(by_id[i] for i in healed))
    return CasualtyStep(survivors, (*removed, *lost), (*saved, *healed))


def usable_shards(own: int, enemy: int) -> int:
    """DLX-SHD-03: equal numbers of shards in a combat cancel; the side with more uses the difference."""
    return max(0, own - enemy)


def hero_victory(
    *, conquered_defenders: int = 0, repelled_attackers: int = 0, monster_defence: int = 0
) -> bool:
    """DLX-HER-01: a victory is conquering a space held by 5+ enemy units, repelling an attack of 5+
    units, or a quest party beating a monster of defence 10 or more."""
    return conquered_defenders >= 5 or repelled_attackers >= 5 or monster_defence >= 10


def hero_after_victory(level: int, *, max_level: int = 3) -> int:
    """DLX-HER-01: a victory makes a new hero (level 1) or raises the force's hero one level, up to 3."""
    return min(level + 1, max_level)


def scourge_raises(
    necromancer_faces: Sequence[int],
    units_lost_this_round: int,
    *,
    against_monsters: bool,
    party_size: int | None,
) -> bool:
    """DLX-NEC-02: does the Necromancer raise (or gain) one unit lost in this round's step 7?

    It needs at least one 6 among his dice of steps 5 and 6 and somebody's unit lost in the round.
    It is never used against monsters in the Quest phase, and a quest party (``party_size``) may not
    grow beyond six. One unit at most per round, whatever the number of sixes.
    """
    if against_monsters or units_lost_this_round <= 0 or 6 not in necromancer_faces:
        return False
    return party_size is None or party_size < 6


def income(content: DragonLordsContent, people: str, *, territories: int, kingdoms: int, mines: int) -> int:
    """Phase 6 income (DLR-INC-01): per territory, per Kingdom, per mine (the people's own mine
    gold: 5 for Dwarves, DLR-PEO-03). A player who holds no Kingdom gets nothing."""
    if kingdoms <= 0:
        return 0
    rates = content.game.income
    mine_gold = content.peoples[people].mine_gold
    return territories * rates.per_territory + kingdoms * rates.per_kingdom + mines * mine_gold


#: Peoples Lure has no effect on (DLX-SPL-LUR).
LURE_IMMUNE: frozenset[str] = frozenset({"orcs", "necromancers"})


def lure_modifier(target_people: str) -> int:
    """DLX-SPL-LUR: -1 to the TAS of enemy units for one round, except Orcs and Necromancers."""
    return 0 if target_people in LURE_IMMUNE else -1


def rapture_refusal(*, enemy_king_present: bool, enemy_warded: bool) -> str | None:
    """DLX-SPL-RAP: Rapture has no effect where the enemy's King is, or a sorcerer of his with Command
    or Hope (``enemy_warded``)."""
    if enemy_king_present:
        return "DLX-SPL-RAP: Rapture has no effect where the enemy's King stands"
    if enemy_warded:
        return "DLX-SPL-RAP: Command or Hope protects these units from Rapture"
    return None


@dataclass(frozen=True, slots=True)
class Enthralled:
    """The result of Rapture: the unit taken, its one blow against its former side, what is left."""

    taken: str
    face: int
    side: tuple[Fighter, ...]
    removed: tuple[str, ...]


def rapture(rng: Rng, side: Sequence[Fighter]) -> Enthralled:
    """DLX-SPL-RAP: the owner's first unit is taken over and at once strikes its own side (one die at
    its own attack against a d6); it is then replaced by an Amazon unit, which the game adds."""
    taken, rest = side[0], tuple(side[1:])
    face = rng.roll(rest[0].defence if rest else 6)
    if rest and hits(face, taken.attacks[0]):
        after = _wound(rest, 0, 1)
        return Enthralled(taken.id, face, after.side, after.removed)
    return Enthralled(taken.id, face, rest, ())


@dataclass(frozen=True, slots=True)
class Raised:
    """A unit raised by Necromantic: what it becomes and the spells it knows (none for a plain unit)."""

    token: str | None
    spells: tuple[str, ...]


def necromantic(removed_token: str | None, *, holy_grail: bool) -> Raised | None:
    """DLX-SPL-NEC: take control of an enemy unit removed in step 7 (None: the Holy Grail cancels it).

    A raised sorcerer becomes a Necromancer sorcerer with Poison and Bloodlust; a raised King or
    Queen becomes a sorcerer with Poison and Command; a decoy or hero token is lost.
    """
    if holy_grail:
        return None
    if removed_token == "sorcerer":
        return Raised("sorcerer", ("poison", "bloodlust"))
    if removed_token == "king":
        return Raised("sorcerer", ("poison", "command"))
    return Raised(None, ())


def change_allegiance(rng: Rng, side: Sequence[Fighter], *, most: int = 6) -> tuple[int, tuple[str, ...]]:
    """DLX-SPC-CHG: a d6 says how many enemy units (at most ``most``, the owner's first ones) join the
    caster; the game replaces them with the caster's own units. Returns the face and the ids taken."""
    face = rng.roll(6)
    taken = tuple(f.id for f in side[: min(face, most)])
    return face, taken


def death_seeker_refusal(target: Fighter, token: str | None) -> str | None:
    """DLX-SPC-DSK: the defending sorcerer picks any enemy unit, a sorcerer or a DragonLord too, but not
    the King (``token``: the hidden token under the target, known to the game)."""
    if token == "king":
        return "DLX-SPC-DSK: Death Seeker cannot strike a King"
    return None


def death_seeker(side: Sequence[Fighter], target: str, token: str | None) -> Struck:
    """DLX-SPC-DSK: remove the chosen enemy unit at once; refused (ValueError) for a King."""
    index = next((i for i, f in enumerate(side) if f.id == target), None)
    if index is None:
        raise ValueError(f"target: no unit {target!r} in the space")
    reason = death_seeker_refusal(side[index], token)
    if reason is not None:
        raise ValueError(reason)
    return _wound(side, index, side[index].wounds)


def _cull(rng: Rng, side: Sequence[Fighter], removed_at_or_under: Sequence[int]) -> Struck:
    """Each fighter of ``side`` rolls a d6 and is removed when the face is at or under its threshold."""
    faces = rng.rolls(6, len(side))
    kept = tuple(f for f, face, limit in zip(side, faces, removed_at_or_under, strict=True) if face > limit)
    gone = tuple(
        f.id for f, face, limit in zip(side, faces, removed_at_or_under, strict=True) if face <= limit
    )
    return Struck(kept, gone, faces)


def summon_elemental(rng: Rng, side: Sequence[Fighter], *, dice: int = 4, hit: int = 4) -> Struck:
    """DLR-SCR-02: the elemental strikes the space with 4 d6, each at or under 4 removing one unit;
    the struck do not roll back. (Which spaces each kind may strike is the game's check.)"""
    return ranged_dice(rng, side, dice=dice, hit=hit)


def storm(rng: Rng, side: Sequence[Fighter], *, at_sea: bool) -> Struck:
    """DLR-SCR-03: every enemy unit in the space rolls a d6 and is removed on a 1 (on 1-2 at sea)."""
    return _cull(rng, side, [2 if at_sea else 1] * len(side))


def infernal_spell(rng: Rng, side: Sequence[Fighter]) -> Struck:
    """DLR-SCR-04: a d6 - 1-2 removes one enemy unit, 3-4 two, 5-6 three (the owner's first ones)."""
    face = rng.roll(6)
    count = (face + 1) // 2
    struck = Struck(tuple(side), (), (face,))
    for _ in range(count):
        if not struck.side:
            break
        after = _wound(struck.side, 0, struck.side[0].wounds)
        struck = Struck(after.side, struck.removed + after.removed, (face,))
    return struck


def berserk(rng: Rng, side: Sequence[Fighter], *, cancelled: bool) -> Struck:
    """DLR-SCR-05 (the seed's FAQ 13): modifiers are ignored; each unit of the side rolls a d6 and is
    removed at or under its own attack value. ``cancelled``: a sorcerer with Heal or a King is there."""
    if cancelled:
        return Struck(tuple(side))
    return _cull(rng, side, [f.attacks[0] + f.hero_level for f in side])


def casting_allowed(monster_traits: frozenset[str]) -> bool:
    """DLX-MON-HEL: a sorcerer fighting a Hell Hound may use no spell and no spell card."""
    return "silences_magic" not in monster_traits
