"""The eight heroes' abilities (DEF-ACT-05 and the hero sheets in the content)."""

from __future__ import annotations

import pytest

from .helpers import give, grant, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


def notations(s) -> set[str]:  # type: ignore[no-untyped-def]
    s.edited()  # the test may have edited the position by hand since it last asked
    return {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-ACT-05")
def test_cleric_blessed_attacks_sanctify_and_turn_undead() -> None:
    s = scenario(("cleric",), at={"cleric": "R1"}, rolls=[3, 3, 1, 5], ds=["quiet"])
    put(s, "R1", red=1, black=1)
    s = play(s, "fight R1")  # +1 against demons and undead: 3s kill both
    assert sum(s.minions[s.board.loc("R1")]) == 0
    s.taint[s.board.loc("R1")] = 1
    s.crystals_left -= 1
    s = play(s, "heal_land sanctify")  # two dice as Heal the Land, no card: 1, 5 heals
    assert s.taint[s.board.loc("R1")] == 0
    put(s, "R1", black=2)
    s = play(s, "end_day")
    assert s.pending().kind == "turn_undead"
    s = play(s, "turn_undead R2")
    assert s.pending().kind == "turn_undead"  # one undead is left: asked again
    s = play(s, "turn_undead G1")
    assert s.minions[s.board.loc("R2")][BLACK] == 1 and s.minions[s.board.loc("G1")][BLACK] == 1
    assert s.slots[0].life == 6


@pytest.mark.rule("DEF-ACT-05")
def test_dwarf_mountain_lore_armour_and_dragon_rerolls() -> None:
    s = scenario(("dwarf",), at={"dwarf": "R1"}, rolls=[1, 5], ds=["quiet"])
    assert s.slots[0].actions == 6  # starts on a red location: +1
    put(s, "R1", blue=1)
    s = play(s, "fight R1")  # 1 misses, re-rolled 5 kills the dragonkin
    assert sum(s.minions[s.board.loc("R1")]) == 0
    put(s, "R1", green=2)
    s = play(s, "end_day")
    assert s.slots[0].life == 5 - 1  # 2 orcs, 1 ignored


@pytest.mark.rule("DEF-ACT-05")
def test_eagle_rider_sky_attack_and_fresh_mount() -> None:
    s = scenario(("eagle_rider",), at={"eagle_rider": "B1"}, ds=["quiet", "quiet"])
    s = play(s, "turn_choice sky")
    put(s, "B1", black=2)
    s = play(s, "end_day")
    assert s.slots[0].life == 4  # sky: no end-of-turn wounds
    s = play(s, "turn_choice ground")
    assert s.slots[0].actions == 4  # ended in the sky: no fresh mount
    s.minions[s.board.loc("B1")][BLACK] = 0
    s.supply[BLACK] += 2
    s = play(s, "end_day", "turn_choice ground")
    assert s.slots[0].actions == 5  # ended on the ground on a blue location: +1


@pytest.mark.rule("DEF-ACT-05")
def test_paladin_bravery_no_fear() -> None:
    s = scenario(("paladin",), at={"paladin": "K1"}, ds=["quiet"])
    put(s, "K1", black=2)
    s = play(s, "end_day")
    assert s.slots[0].life == 5 - 1  # 2 undead, no fear, armour ignores 1


@pytest.mark.rule("DEF-ACT-05")
def test_ranger_woods_lore_archery_elf_support() -> None:
    s = scenario(("ranger",), at={"ranger": "G1"}, rolls=[2, 4, 3])
    assert s.slots[0].actions == 6  # Elf Support
    put(s, "G1", green=1)
    put(s, "R1", red=1)
    s = play(s, "fight G1")  # Woods Lore: 2+1 kills an orc
    assert sum(s.minions[s.board.loc("G1")]) == 0
    assert "fight R1" in notations(s)
    s = play(s, "fight R1")  # Archery: no Woods Lore, 4 kills a demon
    assert sum(s.minions[s.board.loc("R1")]) == 0


@pytest.mark.rule("DEF-ACT-05")
def test_rogue_hides_steals_and_is_crafty() -> None:
    deck = ["G1h", "R1h", "G2e", "B1h", "G3g", "sp_magic_gate", "K1h", "K2h"]
    s = scenario(("rogue",), at={"rogue": "R1"}, ds=["quiet"], hero_deck=deck)
    put(s, "R1", black=1, green=1)
    s = play(s, "end_day")
    assert s.slots[0].life == 6 - 1  # only fear
    assert len(s.slots[0].hand) == 3  # Thievery on a treasure chest
    s = scenario(("rogue",), at={"rogue": "Rest Inn"}, ds=["quiet"], hero_deck=deck)
    s = play(s, "rumors green 1")
    assert sorted(s.slots[0].hand) == ["G1h", "G2e", "G3g"]  # 5 cards drawn


@pytest.mark.rule("DEF-ACT-05")
def test_sorceress_shapes_ambush_visions() -> None:
    s = scenario(("sorceress",), at={"sorceress": "G1"}, rolls=[2, 1, 1, 1, 5], ds=["quiet"])
    s = play(s, "turn_choice green")
    assert "move Monarch_City" not in notations(s)  # not in enemy form
    put(s, "G1", green=2)
    s = play(s, "fight G1")  # ambush +2: 2 and 1 -> 4 and 3: both orcs die
    assert sum(s.minions[s.board.loc("G1")]) == 0
    s.taint[s.board.loc("G1")] = 1
    s.crystals_left -= 1
    give(s, "sorceress", "G2h")
    s = play(s, "heal_land G2h")  # Visions: 3 dice (1, 1, 5)
    assert s.taint[s.board.loc("G1")] == 0
    put(s, "G1", green=2)
    s = play(s, "end_day")
    assert s.slots[0].life == 6  # among her own shape: no wounds


@pytest.mark.rule("DEF-ACT-05")
def test_wizard_teleport_fireball_wisdom() -> None:
    s = scenario(("wizard",), at={"wizard": "R2"}, rolls=[2, 2, 1], ds=["ds1", "quiet"])
    s = play(s, "move Gatestone by teleport")
    assert "move Gatestone by teleport" not in notations(s) and s.slots[0].actions == 4
    s.slots[0].loc = s.board.loc("B1")
    put(s, "B1", blue=2, black=1)
    give(s, "wizard", "B2h")
    s = play(s, "fireball B2h")  # 2, 2, 1: two minions die whatever their kind, his choice
    s = play(s, "pick black B1", "pick blue B1")
    assert s.minions[s.board.loc("B1")] == [0, 0, 1, 0]
    s.minions[s.board.loc("B1")] = [0, 0, 0, 0]
    s.supply = [25, 25, 25, 25]
    s = play(s, "end_day")
    assert s.pending().kind == "wisdom"
    s = play(s, "redraw")  # ds1 set aside, the quiet card is used instead
    assert sum(map(sum, s.minions)) == 0 and s.generals[RED].loc == s.board.loc("R3")


@pytest.mark.rule("DEF-ACT-05")
def test_sorceress_ambush_helps_only_her_first_attack_on_a_general_too() -> None:
    # Shaped as a demon she attacks Balazarg: +1 on her first attack (3 hits), none on the second.
    # The War Banner keeps her on his space after the first failed attack.
    s = scenario(("sorceress",), at={"sorceress": "R3"}, rolls=[3, 3, 3, 3], ds=["quiet"])
    s = play(s, "turn_choice red")
    grant(s, "sorceress", "q_banner")
    give(s, "sorceress", "R1h", "R2h")
    s = play(s, "attack_general", "commit sorceress R1h", "commit_done sorceress")  # curse 3, attack 3
    assert s.generals[RED].wounds == 1 and s.board.name(s.slots[0].loc) == "R3"
    s = play(s, "attack_general", "commit sorceress R2h", "commit_done sorceress")  # curse 3, attack 3
    assert s.generals[RED].wounds == 1


@pytest.mark.rule("DEF-ACT-05")
def test_sorceress_ambush_is_kept_for_her_shapes_kind_when_she_fights_another() -> None:
    # Shaped as an orc, she first fights a demon (no bonus: 3 misses), then orcs: the ambush is
    # still hers (+2): 1 -> 3 kills an orc. A second fight on orcs has no bonus: 2 misses.
    s = scenario(("sorceress",), at={"sorceress": "G1"}, rolls=[3, 1, 2], ds=["quiet"])
    s = play(s, "turn_choice green")
    put(s, "G1", red=1)
    s = play(s, "fight G1")
    assert s.minions[s.board.loc("G1")] == [1, 0, 0, 0]
    s.minions[s.board.loc("G1")][RED] = 0
    s.supply[RED] += 1
    put(s, "G1", green=1)
    s = play(s, "fight G1")
    assert sum(s.minions[s.board.loc("G1")]) == 0
    put(s, "G1", green=1)
    s = play(s, "fight G1")
    assert s.minions[s.board.loc("G1")] == [0, 1, 0, 0]


@pytest.mark.rule("DEF-ACT-05")
def test_turn_undead_drives_every_undead_out_there_is_no_keeping_any() -> None:
    # The hero sheet: "drive all of them out" - the Cleric chooses where each goes, not whether.
    s = scenario(("cleric",), at={"cleric": "R1"}, ds=["quiet"])
    put(s, "R1", black=3)
    s = play(s, "end_day")
    assert s.pending().kind == "turn_undead" and s.pending().rule == "DEF-ACT-05"
    assert "pass" not in notations(s)
    assert notations(s) == {"turn_undead Monarch_City", "turn_undead R2", "turn_undead G1"}
    s = play(s, "turn_undead R2", "turn_undead G1")
    assert s.pending().kind == "turn_undead" and "pass" not in notations(s)  # the third goes too
    s = play(s, "turn_undead R2")
    assert s.minions[s.board.loc("R1")][BLACK] == 0
    assert s.minions[s.board.loc("R2")][BLACK] == 2 and s.minions[s.board.loc("G1")][BLACK] == 1
    assert s.slots[0].life == 6  # nothing left here: no wounds, no fear


@pytest.mark.rule("DEF-ACT-05")
def test_fireball_victims_are_the_wizards_choice() -> None:
    # Two hits among a demon, an orc and an undead: the Wizard picks which two die, one at a
    # time, and may not keep a hit back (every 2+ kills one).
    s = scenario(("wizard",), at={"wizard": "R1"}, rolls=[1, 2, 6])
    put(s, "R1", red=1, green=1, black=1)
    give(s, "wizard", "R2h")
    s = play(s, "fireball R2h")
    assert s.pending().kind == "pick" and s.pending().rule == "DEF-ACT-05"
    assert notations(s) == {"pick red R1", "pick green R1", "pick black R1"}  # no pass
    s = play(s, "pick black R1")
    assert notations(s) == {"pick red R1", "pick green R1"}
    s = play(s, "pick red R1")
    assert s.picking is None and s.minions[s.board.loc("R1")] == [0, 1, 0, 0]
    assert s.pending().kind == "action"


@pytest.mark.rule("DEF-ACT-05")
def test_fireball_asks_nothing_when_the_hits_leave_no_choice() -> None:
    # Every minion hit: all die. One kind only: the hits take that kind. No picking either way.
    s = scenario(("wizard",), at={"wizard": "R1"}, rolls=[2, 3, 1, 6, 6])
    put(s, "R1", red=1, blue=1)
    give(s, "wizard", "R2h", "R3h")
    s = play(s, "fireball R2h")  # 2, 3: both die
    assert s.picking is None and sum(s.minions[s.board.loc("R1")]) == 0
    put(s, "R1", red=3)
    s = play(s, "fireball R3h")  # 1, 6, 6: two of the three demons
    assert s.picking is None and s.minions[s.board.loc("R1")] == [1, 0, 0, 0]


@pytest.mark.rule("DEF-ACT-05")
def test_fireball_is_a_combat_battle_luck_rerolls_its_failed_dice() -> None:
    s = scenario(("wizard",), at={"wizard": "R1"}, rolls=[1, 1, 2, 1])
    put(s, "R1", red=2)
    give(s, "wizard", "R2h", "sp_battle_luck")
    s = play(s, "play wizard sp_battle_luck", "fireball R2h")  # 1, 1, re-rolled 2, 1: one demon
    assert s.minions[s.board.loc("R1")] == [1, 0, 0, 0] and not s.slots[0].turn.get("luck")


@pytest.mark.rule("DEF-ACT-05")
def test_fireball_dice_take_the_bonuses_to_every_combat_die() -> None:
    # The Amulet of the Gods adds 1 to every combat die: a fireball's 1 then hits too.
    s = scenario(("wizard",), at={"wizard": "R1"}, rolls=[1, 1])
    grant(s, "wizard", "q_amulet")
    put(s, "R1", red=2)
    give(s, "wizard", "R2h")
    s = play(s, "fireball R2h")
    assert sum(s.minions[s.board.loc("R1")]) == 0
    t = scenario(("wizard",), at={"wizard": "R1"}, rolls=[1, 1])
    put(t, "R1", red=2)
    give(t, "wizard", "R2h")
    t = play(t, "fireball R2h")  # without it, 1s miss
    assert t.minions[t.board.loc("R1")] == [2, 0, 0, 0]
