"""The purse over several Kingdoms and quest parties' moves along a track."""

from __future__ import annotations

import pytest

from warhorn.games.dragonlords.content import shipped_content
from warhorn.games.dragonlords.economy_and_quests import (
    Happening,
    TrackMove,
    dragons_lair,
    purse_shares,
    quest_card,
    quest_move,
    shrine,
    witch,
)


@pytest.mark.rule("DLR-INC-02")
def test_the_purse_is_shared_over_the_kingdoms_held_with_the_rest_in_the_oldest() -> None:
    assert purse_shares(25, ["home"]) == {"home": 25}
    assert purse_shares(25, ["home", "won"]) == {"home": 13, "won": 12}
    assert purse_shares(7, ["a", "b", "c"]) == {"a": 3, "b": 2, "c": 2}
    assert purse_shares(10, []) == {}


@pytest.mark.rule("DLR-QST-02")
def test_a_party_moves_its_roll_and_leaves_past_either_end() -> None:
    assert quest_move(10, 4, at=None, entry=0) == TrackMove(3)  # the entry square counts as the first
    assert quest_move(10, 3, at=3) == TrackMove(6)
    assert quest_move(10, 5, at=6) == TrackMove(None, "end")
    assert quest_move(10, 2, at=1, forward=False) == TrackMove(None, "start")
    assert quest_move(10, 2, at=None, entry=9, forward=False) == TrackMove(8)  # from the far end
    with pytest.raises(ValueError, match="roll: 7"):
        quest_move(10, 7, at=2)


@pytest.mark.rule("DLX-FAQ-01")
def test_village_and_lair_count_as_the_first_square_when_entered_from_bridge_ship_or_pass() -> None:
    village, lair = 0, 9
    assert quest_move(10, 1, at=None, entry=village) == TrackMove(village)
    assert quest_move(10, 1, at=None, entry=lair, forward=False) == TrackMove(lair)
    assert quest_move(10, 3, at=None, entry=lair, forward=False) == TrackMove(7)


@pytest.mark.rule("DLX-FAQ-02")
def test_only_a_roll_of_one_stops_in_the_village_higher_rolls_pass_through() -> None:
    village = 0
    assert quest_move(10, 1, at=None, entry=village).square == village
    assert all(quest_move(10, roll, at=None, entry=village).square != village for roll in range(2, 7))


@pytest.mark.rule("DLR-QST-05")
def test_the_witch_teaches_a_spell_or_gives_a_potion_ignores_or_curses() -> None:
    assert witch("blessed", "lightning") == Happening("learn_spell", "lightning")
    assert witch("blessed", None) == Happening("gain_item", "potion")
    assert witch("ignored", "lightning") == Happening("nothing")
    assert witch("cursed", "lightning") == Happening("lose_units", amount=1)


@pytest.mark.rule("DLR-QST-06")
def test_the_shrine_gives_a_card_or_holds_the_party() -> None:
    assert shrine("blessed") == Happening("draw_card")
    assert shrine("ignored") == Happening("nothing")
    assert shrine("cursed") == Happening("stay_next_quest")


@pytest.mark.rule("DLR-QST-08")
def test_the_lair_dragon_is_charmed_by_an_orb_unless_the_gods_curse() -> None:
    assert dragons_lair("blessed", has_orb=True) == Happening("gain_dragonlord")
    assert dragons_lair("ignored", has_orb=True) == Happening("gain_dragonlord")
    assert dragons_lair("cursed", has_orb=True) == Happening("fight", "lair_dragon")
    assert dragons_lair("blessed", has_orb=False) == Happening("fight", "lair_dragon")
    assert "lair_dragon" in shipped_content().monsters


@pytest.mark.rule("DLR-QST-07")
def test_a_quest_card_gives_the_adventure_of_the_crystal_dies_face() -> None:
    volcano = shipped_content().quests["volcano"]
    assert quest_card(volcano, "blessed", has_torch=True, has_pickaxe=True) == Happening("item", "dragon_orb")
    assert quest_card(volcano, "ignored", has_torch=True, has_pickaxe=True) == Happening("gold", amount=10)
    assert quest_card(volcano, "cursed", has_torch=True, has_pickaxe=True) == Happening("fight", "red_dragon")


@pytest.mark.rule("DLR-QST-03")
def test_without_the_torch_or_pickaxe_a_card_that_needs_it_is_cursed() -> None:
    glacier = shipped_content().quests["glacier"]  # needs the torch
    assert glacier.needs == "torch"
    assert quest_card(glacier, "blessed", has_torch=False, has_pickaxe=True) == Happening("fight", "ice_worm")
    assert quest_card(glacier, "blessed", has_torch=True, has_pickaxe=False) == Happening(
        "item", "ring_of_fire"
    )
