"""Ranged-step and casualty-step effects, shards, heroes, the Scourge and income, with scripted dice."""

from __future__ import annotations

import pytest

from warhorn.engine.rng import ScriptedRng
from warhorn.games.dragonlords.combat import Fighter, dice_round
from warhorn.games.dragonlords.content import shipped_content
from warhorn.games.dragonlords.effects import (
    Raised,
    berserk,
    casting_allowed,
    casualty_step,
    change_allegiance,
    death,
    death_seeker,
    dragon_fire,
    dragonlord_limits,
    fire,
    hero_after_victory,
    hero_victory,
    income,
    infernal_spell,
    lightning,
    lure_modifier,
    necromantic,
    put_out_of_action,
    rapture,
    rapture_refusal,
    scourge_raises,
    storm,
    summon_elemental,
    usable_shards,
)


def units(prefix: str, count: int) -> tuple[Fighter, ...]:
    return tuple(Fighter(f"{prefix}{i}") for i in range(count))


def monster(monster_id: str) -> Fighter:
    m = shipped_content().monsters[monster_id]
    return Fighter(m.id, attacks=m.attacks, defence=m.defence, wounds=m.wounds, traits=frozenset(m.abilities))


DRAGONLORD = Fighter("dl", attacks=(6,), traits=frozenset({"dragon"}))


@pytest.mark.rule("DLR-CMB-05")
def test_fireball_removes_one_enemy_at_once_before_it_can_strike_back() -> None:
    struck = fire(units("o", 3))
    assert struck.removed == ("o0",) and len(struck.side) == 2
    # The burnt unit is gone before steps 5-6: only two Orcs roll back.
    result = dice_round(ScriptedRng([6, 1, 1]), units("a", 1), struck.side)
    assert [r.fighter for r in result.defender_rolls] == ["o1", "o2"]


@pytest.mark.rule("DLX-FAQ-10")
def test_fireball_has_no_effect_on_dragons() -> None:
    assert fire((DRAGONLORD,)).removed == ()
    struck = fire((DRAGONLORD, *units("o", 1)))  # the owner cannot shield his Orc behind the dragon
    assert struck.removed == ("o0",)
    assert fire((monster("red_dragon"),)).side == (monster("red_dragon"),)


@pytest.mark.rule("DLR-CMB-06")
def test_lightning_rolls_two_dice_each_three_or_less_removes_one_dragons_included() -> None:
    struck = lightning(ScriptedRng([3, 4]), (DRAGONLORD, *units("o", 2)))
    assert struck.removed == ("dl",) and struck.faces == (3, 4)
    struck = lightning(ScriptedRng([1, 2]), units("o", 3))
    assert struck.removed == ("o0", "o1")


@pytest.mark.rule("DLX-SPL-DTH")
def test_death_removes_one_unit_of_the_owners_choice_even_a_dragon_unless_hope_wards_it() -> None:
    assert death((monster("red_dragon"),), warded=False).removed == ("red_dragon",)  # all 3 wounds
    assert death(units("o", 2), warded=False).removed == ("o0",)
    assert death(units("o", 2), warded=True).removed == ()  # Ring of Hope or the Hope spell


@pytest.mark.rule("DLX-SPL-POI")
def test_poisoned_unit_does_not_strike_back_and_dies_unless_healed_in_step_seven() -> None:
    poisoned = put_out_of_action(units("o", 2), "poisoned").side
    assert poisoned[0].condition == "poisoned"
    result = dice_round(ScriptedRng([6, 1]), units("n", 1), poisoned)
    assert [r.fighter for r in result.defender_rolls] == ["o1"]
    assert casualty_step(poisoned, 0).removed == ("o0",)
    healed = casualty_step(poisoned, 0, heals=1)  # a sorcerer with Heal in the space
    assert healed.removed == () and healed.saved == ("o0",)
    assert all(f.condition is None for f in healed.side)


@pytest.mark.rule("DLX-SPL-PET")
def test_petrified_unit_can_be_restored_by_heal() -> None:
    side = put_out_of_action(units("e", 1), "petrified").side
    assert side[0].out_of_action
    assert casualty_step(side, 0, heals=1).side == units("e", 1)
    assert casualty_step(side, 0).removed == ("e0",)


@pytest.mark.rule("DLX-MON-ICE")
def test_ice_worm_freezes_fireball_thaws_and_burns_it_double() -> None:
    frozen = put_out_of_action(units("p", 2), "frozen").side
    assert casualty_step(frozen, 0, heals=1).removed == ("p0",)  # Heal does not thaw
    thawed = casualty_step(frozen, 0, thaws=1)
    assert thawed.saved == ("p0",) and thawed.removed == ()
    worm = monster("ice_worm")
    assert worm.wounds == 2
    assert fire((worm,)).removed == ("ice_worm",)  # Fireball's double damage kills a 2-wound worm


@pytest.mark.rule("DLR-CMB-04")
def test_heal_saves_a_unit_the_dice_hit_after_units_out_of_action() -> None:
    side = (Fighter("k"), *units("o", 2))
    step = casualty_step(side, 2, heals=1)
    assert step.removed == ("k",) and step.saved == ("o0",)
    # The heal goes to the poisoned unit first; the dice hit then takes the owner's first casualty.
    step = casualty_step((*units("o", 2), Fighter("k", condition="poisoned")), 1, heals=1)
    assert step.saved == ("k",) and step.removed == ("o0",)


@pytest.mark.rule("DLX-SHD-03")
def test_equal_shards_cancel_and_the_larger_side_uses_the_difference() -> None:
    assert usable_shards(3, 1) == 2  # the seed's example: 3 against 1, two of the three are used
    assert usable_shards(1, 3) == 0
    assert usable_shards(2, 2) == 0


@pytest.mark.rule("DLX-HER-01")
def test_hero_victories_and_levels() -> None:
    assert hero_victory(conquered_defenders=5)
    assert not hero_victory(conquered_defenders=4, repelled_attackers=4)
    assert hero_victory(repelled_attackers=6)
    assert hero_victory(monster_defence=10) and not hero_victory(monster_defence=8)
    assert [hero_after_victory(level) for level in (0, 1, 2, 3)] == [1, 2, 3, 3]
    # The seed's example: 6 Orcs at 3 and a level-2 hero roll 7 dice, six at 3 and one at 5.
    army = (*units("o", 6), Fighter("hero", hero_level=2))
    result = dice_round(ScriptedRng([4] * 6 + [5] + [6]), army, units("d", 1))
    assert [r.tas for r in result.attacker_rolls] == [3] * 6 + [5]
    assert result.attacker_hits == 1


@pytest.mark.rule("DLX-NEC-02")
def test_scourge_needs_a_six_and_a_loss_and_not_monsters_nor_a_seventh_party_member() -> None:
    assert scourge_raises((6, 2, 6), 2, against_monsters=False, party_size=None)
    assert not scourge_raises((5, 2), 2, against_monsters=False, party_size=None)
    assert not scourge_raises((6,), 0, against_monsters=False, party_size=None)
    assert not scourge_raises((6,), 1, against_monsters=True, party_size=4)
    assert scourge_raises((6,), 1, against_monsters=False, party_size=5)
    assert not scourge_raises((6,), 1, against_monsters=False, party_size=6)


@pytest.mark.rule("DLR-INC-01")
def test_income_per_territory_kingdom_and_mine_and_none_without_a_kingdom() -> None:
    content = shipped_content()
    assert income(content, "orcs", territories=6, kingdoms=1, mines=1) == 6 + 5 + 2
    assert income(content, "orcs", territories=9, kingdoms=0, mines=2) == 0


@pytest.mark.rule("DLR-PEO-03")
def test_dwarves_get_ten_gold_for_two_mines() -> None:
    content = shipped_content()
    dwarves = income(content, "dwarves", territories=6, kingdoms=1, mines=2)
    elves = income(content, "elves", territories=6, kingdoms=1, mines=2)
    assert dwarves - (6 + 5) == 10 and dwarves - elves == 6


@pytest.mark.rule("DLR-DRL-01")
def test_dragonlord_attacks_at_six_defends_at_six_and_breathes_three_dice_of_fire() -> None:
    stats = shipped_content().game.dragonlord
    assert (stats.attack, stats.fire_dice, stats.fire_hit) == (6, 3, 4)
    assert shipped_content().game.dragonlords == 6
    struck = dragon_fire(ScriptedRng([4, 5, 1]), units("o", 5), stats)
    assert struck.removed == ("o0", "o1") and struck.faces == (4, 5, 1)
    lord = Fighter("dl", attacks=(stats.attack,), traits=frozenset({"dragon"}))
    result = dice_round(ScriptedRng([6, 1]), (lord,), units("o", 1))
    assert result.attacker_hits == 1  # a 6 still hits at attack 6
    assert result.attackers_removed == ("dl",)  # and one hit removes it: its defence is a d6


@pytest.mark.rule("DLX-OPT-01")
def test_weaker_dragonlords_carry_five_no_fire_at_sea_no_landing_in_a_kingdom() -> None:
    stats = shipped_content().game.dragonlord
    normal = dragonlord_limits(stats, weak=False)
    weak = dragonlord_limits(stats, weak=True)
    assert (normal.carries, normal.fire_at_sea, normal.lands_in_kingdoms) == (10, True, True)
    assert (weak.carries, weak.fire_at_sea, weak.lands_in_kingdoms) == (5, False, False)


@pytest.mark.rule("DLX-SPL-LUR")
def test_lure_lowers_enemies_by_one_except_orcs_and_necromancers() -> None:
    assert lure_modifier("elves") == -1 and lure_modifier("barbarians") == -1
    assert lure_modifier("orcs") == 0 and lure_modifier("necromancers") == 0
    assert shipped_content().spells["lure"].step == "tas"


@pytest.mark.rule("DLX-SPL-RAP")
def test_rapture_turns_one_enemy_on_its_own_side_unless_king_command_or_hope() -> None:
    struck = rapture(ScriptedRng([2]), units("o", 3))
    assert struck.taken == "o0" and struck.removed == ("o1",)  # its blow (2 <= 3) fells a comrade
    assert [f.id for f in struck.side] == ["o2"]
    missed = rapture(ScriptedRng([5]), units("o", 2))
    assert missed.removed == () and [f.id for f in missed.side] == ["o1"]
    assert rapture_refusal(enemy_king_present=True, enemy_warded=False) is not None
    assert rapture_refusal(enemy_king_present=False, enemy_warded=True) is not None
    assert rapture_refusal(enemy_king_present=False, enemy_warded=False) is None


@pytest.mark.rule("DLX-SPL-NEC")
def test_necromantic_raises_the_fallen_and_twists_sorcerers_and_kings() -> None:
    assert necromantic(None, holy_grail=False) == Raised(None, ())
    assert necromantic("sorcerer", holy_grail=False) == Raised("sorcerer", ("poison", "bloodlust"))
    assert necromantic("king", holy_grail=False) == Raised("sorcerer", ("poison", "command"))
    assert necromantic("sorcerer", holy_grail=True) is None
    assert shipped_content().spells["necromantic"].step == "casualties"


@pytest.mark.rule("DLX-SPC-CHG")
def test_change_allegiance_takes_a_d6_of_enemy_units_up_to_six() -> None:
    face, taken = change_allegiance(ScriptedRng([4]), units("o", 8))
    assert face == 4 and taken == ("o0", "o1", "o2", "o3")
    _, taken = change_allegiance(ScriptedRng([6]), units("o", 3))
    assert taken == ("o0", "o1", "o2")


@pytest.mark.rule("DLX-SPC-DSK")
def test_death_seeker_removes_the_chosen_unit_even_a_dragonlord_but_never_a_king() -> None:
    side = (*units("o", 2), DRAGONLORD)
    assert death_seeker(side, "dl", None).removed == ("dl",)
    assert death_seeker(side, "o1", "sorcerer").removed == ("o1",)
    with pytest.raises(ValueError, match="DLX-SPC-DSK: Death Seeker cannot strike a King"):
        death_seeker(side, "o0", "king")
    assert shipped_content().cards["death_seeker"].when == "defending"


@pytest.mark.rule("DLX-SPC-WRA")
def test_wrath_adds_two_to_every_friendly_unit_for_the_round() -> None:
    wrath = shipped_content().cards["wrath"]
    assert wrath.tas == 2 and wrath.when == "tas"
    result = dice_round(
        ScriptedRng([5, 5, 6]), units("a", 2), units("d", 1), attacker_modifier=wrath.tas or 0
    )
    assert result.attacker_hits == 2


@pytest.mark.rule("DLR-SCR-02")
def test_summon_elemental_strikes_with_four_dice_at_four() -> None:
    struck = summon_elemental(ScriptedRng([4, 5, 1, 6]), units("o", 5))
    assert struck.removed == ("o0", "o1") and len(struck.side) == 3


@pytest.mark.rule("DLR-SCR-03")
def test_storm_removes_on_a_one_or_on_one_or_two_at_sea() -> None:
    assert storm(ScriptedRng([1, 2, 6]), units("o", 3), at_sea=False).removed == ("o0",)
    assert storm(ScriptedRng([1, 2, 6]), units("o", 3), at_sea=True).removed == ("o0", "o1")


@pytest.mark.rule("DLR-SCR-04")
def test_infernal_spell_removes_one_two_or_three() -> None:
    assert [len(infernal_spell(ScriptedRng([face]), units("o", 5)).removed) for face in range(1, 7)] == [
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert infernal_spell(ScriptedRng([6]), units("o", 2)).removed == ("o0", "o1")


@pytest.mark.rule("DLR-SCR-05")
def test_berserk_ignores_modifiers_and_heal_or_a_king_cancels_it() -> None:
    side = (Fighter("b", attacks=(4,)), Fighter("o"), Fighter("h", hero_level=1))
    struck = berserk(ScriptedRng([4, 4, 4]), side, cancelled=False)
    assert struck.removed == ("b", "h")  # at or under 4, 3 and 3+1
    assert berserk(ScriptedRng(), side, cancelled=True).removed == ()


@pytest.mark.rule("DLX-MON-HEL")
def test_hell_hound_silences_the_partys_magic() -> None:
    assert not casting_allowed(monster("hell_hound").traits)
    assert casting_allowed(monster("troll").traits)


@pytest.mark.rule("DLX-MON-MED")
def test_medusa_petrifies_and_a_potion_or_heal_restores() -> None:
    assert "petrifying_gaze" in monster("medusa").traits
    party = put_out_of_action(units("p", 2), "petrified").side
    assert casualty_step(party, 0, heals=1).saved == ("p0",)  # a potion counts as one heal
    assert casualty_step(party, 0).removed == ("p0",)
    assert shipped_content().items["potion"].effect == "heal_one"
