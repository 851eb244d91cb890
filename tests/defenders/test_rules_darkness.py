"""Night (DEF-DRK-*), overruns and taint (DEF-OVR-*), losses (DEF-END-02), quest minions (DEF-CRD-03)."""

from __future__ import annotations

import pytest

from warhorn.games.defenders.board import DarknessCard
from warhorn.games.defenders.rules.minions import add_minions

from .helpers import INN, MC, mini_board, mini_darkness, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


def _night(s, war: int = 0):  # type: ignore[no-untyped-def]
    s.war = war
    return play(s, "end_day")


@pytest.mark.rule("DEF-DRK-01")
def test_cards_per_night_follow_war_status() -> None:
    for war, expected in [(0, 1), (1, 2), (2, 2), (3, 3)]:
        s = scenario(("paladin",), ds=["quiet"] * 0 + ["ds1", "ds2", "ds3", "ds4"])
        s = _night(s, war)
        assert len(s.ds_deck.discard_pile) == expected, war


@pytest.mark.rule("DEF-DRK-02")
def test_card_places_minions_then_moves_general_one_step_with_minions() -> None:
    s = scenario(("paladin",), ds=["ds1"])  # 1 red on R1, 2 green on G2; Balazarg -> next with 1
    s = _night(s)
    b = s.board
    assert s.minions[b.loc("R1")][RED] == 1 and s.minions[b.loc("G2")][GREEN] == 2
    assert s.generals[RED].loc == b.loc("R2") and s.minions[b.loc("R2")][RED] == 1


@pytest.mark.rule("DEF-DRK-02")
@pytest.mark.rule("DEF-GEN-11")
def test_general_moves_only_if_exactly_one_step_from_the_target_and_never_back() -> None:
    far = DarknessCard("far", "regular", (), "red", "R1", 2)  # Balazarg on R3: R1 is two steps away
    back = DarknessCard("back", "regular", (), "red", "R3", 2)  # behind him
    board = mini_board(darkness=(far, back, *mini_darkness()))
    s = scenario(("paladin",), ds=["far"], board=board)
    s = _night(s)
    assert s.generals[RED].loc == s.board.loc("R3")
    s = scenario(("paladin",), ds=["back"], board=board)
    s.generals[RED].loc = s.board.loc("R2")
    s = _night(s)
    assert s.generals[RED].loc == s.board.loc("R2")


@pytest.mark.rule("DEF-DRK-03")
def test_mid_war_second_card_only_moves_a_general() -> None:
    s = scenario(("paladin",), ds=["ds1", "ds2"])  # ds2: 1 blue on B1, 2 black on K2; Gorgutt next
    s = _night(s, 1)
    b = s.board
    assert s.minions[b.loc("R1")][RED] == 1  # first card placed
    assert s.minions[b.loc("B1")][BLUE] == 0 and s.minions[b.loc("K2")][BLACK] == 0  # second did not
    assert s.generals[GREEN].loc == b.loc("G2") and s.minions[b.loc("G2")][GREEN] == 2 + 1


@pytest.mark.rule("DEF-DRK-03")
def test_late_war_first_two_cards_place_third_only_moves() -> None:
    s = scenario(("paladin",), ds=["ds1", "ds2", "ds3"])  # ds3: 1 green G1, 2 red R2; Sapphire next
    s = _night(s, 3)
    b = s.board
    assert s.minions[b.loc("B1")][BLUE] == 1 and s.minions[b.loc("K2")][BLACK] == 2
    assert s.minions[b.loc("G1")][GREEN] == 0
    assert s.generals[BLUE].loc == b.loc("B2")


@pytest.mark.rule("DEF-DRK-05")
def test_all_is_quiet_and_orc_patrols() -> None:
    s = scenario(("paladin",), ds=["quiet"])
    s = _night(s)
    assert sum(map(sum, s.minions)) == 0 and s.generals[RED].loc == s.board.loc("R3")
    s = scenario(("paladin",), ds=["patrol"])  # an orc on every empty green location; Varkolak next with 1
    put(s, "G1", red=1)
    s = _night(s)
    b = s.board
    assert s.minions[b.loc("G1")] == [1, 0, 0, 0]
    assert s.minions[b.loc("G2")][GREEN] == 1 and s.minions[b.loc("G3")][GREEN] == 1
    assert s.generals[BLACK].loc == b.loc("K2") and s.minions[b.loc("K2")][BLACK] == 1


@pytest.mark.rule("DEF-DRK-05")
def test_orc_war_party_doubles_lone_orcs() -> None:
    s = scenario(("paladin",), ds=["warparty"])
    put(s, "R1", green=1)
    put(s, "R2", green=1, red=1)
    s = _night(s)
    b = s.board
    assert s.minions[b.loc("R1")][GREEN] == 2 and s.minions[b.loc("R2")][GREEN] == 1


@pytest.mark.rule("DEF-DRK-05")
@pytest.mark.rule("DEF-CRD-02")
def test_monarch_city_card_adds_adjacent_colours_and_reshuffles_without_used_purples() -> None:
    s = scenario(("paladin",), ds=["monarch"], hero_deck=["R1h"])
    put(s, "R1", red=1)
    put(s, "G1", green=2)
    s.slots[0].hand = ["sp_magic_gate"]
    pile = tuple(c for c in s.hero_deck.draw_pile if c not in ("sp_magic_gate", "R2h"))
    s.hero_deck = type(s.hero_deck)(pile, ("R2h",))
    s = play(s, "play paladin sp_magic_gate R2", "end_day")
    mc = s.board.loc(MC)
    assert s.minions[mc] == [1, 1, 0, 0]
    assert s.hero_deck.discard_pile == () and "R2h" in s.hero_deck.draw_pile
    assert "sp_magic_gate" in s.removed_cards and "sp_magic_gate" not in s.hero_deck.draw_pile
    assert s.ds_deck.discard_pile == ()


@pytest.mark.rule("DEF-OVR-01")
def test_fourth_minion_overruns_taints_and_spreads_to_every_neighbour() -> None:
    s = scenario(("paladin",))
    put(s, "R1", green=3)
    add_minions(s, s.board.loc("R1"), GREEN, 1)
    b = s.board
    assert sum(s.minions[b.loc("R1")]) == 3 and s.taint[b.loc("R1")] == 1
    for nb in ("R2", "G1", MC):
        assert s.minions[b.loc(nb)][GREEN] == 1


@pytest.mark.rule("DEF-OVR-02")
def test_fleeing_minions_taint_a_full_neighbour_without_chaining() -> None:
    s = scenario(("paladin",))
    put(s, "R1", green=3)
    put(s, "G1", blue=3)
    add_minions(s, s.board.loc("R1"), GREEN, 1)
    b = s.board
    assert s.minions[b.loc("G1")] == [0, 0, 3, 0] and s.taint[b.loc("G1")] == 1
    assert s.minions[b.loc("G2")] == [0, 0, 0, 0]  # no chain
    assert s.crystals_left == 10


@pytest.mark.rule("DEF-OVR-03")
def test_tainted_location_overruns_again() -> None:
    s = scenario(("paladin",))
    r2 = s.board.loc("R2")
    s.taint[r2] = 1
    s.crystals_left -= 1
    put(s, "R2", black=3)
    add_minions(s, r2, BLACK, 1)
    assert s.taint[r2] == 2


@pytest.mark.rule("DEF-OVR-04")
def test_three_demons_taint() -> None:
    s = scenario(("paladin",))
    r1, g1 = s.board.loc("R1"), s.board.loc("G1")
    put(s, "R1", red=2)
    add_minions(s, r1, RED, 1)
    assert s.taint[r1] == 1 and s.minions[r1][RED] == 3
    put(s, "G1", red=1, green=1)
    add_minions(s, g1, RED, 1)  # mixed: no taint
    assert s.taint[g1] == 0


@pytest.mark.rule("DEF-OVR-05")
def test_monarch_city_never_overruns_and_five_minions_lose() -> None:
    s = scenario(("paladin",))
    mc = s.board.loc(MC)
    put(s, MC, red=2, green=2)
    add_minions(s, mc, BLUE, 0)
    assert s.outcome is None and s.taint[mc] == 0
    add_minions(s, mc, BLUE, 1)
    assert s.outcome is not None and "Monarch City" in s.outcome and s.taint[mc] == 0
    assert s.pending() is None and s.results().winners == frozenset()


@pytest.mark.rule("DEF-OVR-06")
@pytest.mark.rule("DEF-END-02")
def test_placing_the_twelfth_crystal_loses() -> None:
    s = scenario(("paladin",))
    s.crystals_left = 1
    s.taint[s.board.loc("G3")] = 11
    put(s, "R1", green=3)
    add_minions(s, s.board.loc("R1"), GREEN, 1)
    assert s.crystals_left == 0 and s.outcome == "the last taint crystal was placed"


@pytest.mark.rule("DEF-END-02")
def test_general_entering_monarch_city_loses() -> None:
    s = scenario(("paladin",), ds=["ds1"])
    s.generals[RED].loc = s.board.loc("R1")
    s = _night(s)
    assert s.outcome == "Balazarg entered Monarch City"
    assert s.results() is not None and s.results().winners == frozenset()


@pytest.mark.rule("DEF-END-02")
def test_empty_supply_loses() -> None:
    s = scenario(("paladin",), ds=["ds1"])
    s.supply[RED] = 0
    s = _night(s)
    assert s.outcome == "no demon left in the supply"


@pytest.mark.rule("DEF-CRD-03")
def test_quest_minions_return_to_the_supply_first_at_night() -> None:
    s = scenario(("paladin",), ds=["ds1"], quest_deck=["q_orcs"])
    from warhorn.games.defenders.rules import cards

    cards.draw_quest(s, 0)
    s.slots[0].quest_minions[RED] = 2  # demons held as quest progress (scenario shortcut)
    s.supply[RED] = 0
    s = _night(s)  # 1 demon on R1, Balazarg brings 1 to R2: both come off the quest card
    assert s.outcome is None and s.minions[s.board.loc("R1")][RED] == 1
    assert s.slots[0].quest_minions[RED] == 0


@pytest.mark.rule("DEF-CRD-03")
def test_hunting_quest_holds_kills_completes_and_draws_a_new_quest() -> None:
    s = scenario(("paladin",), at={"paladin": "G1"}, quest_deck=["q_orcs", "q_banner"], rolls=[6, 6, 6])
    from warhorn.games.defenders.rules import cards

    cards.draw_quest(s, 0)
    put(s, "G1", green=3)
    s = play(s, "fight G1")
    slot = s.slots[0]
    assert s.quests_done == [1] and "q_orcs" in slot.rewards and slot.quest == "q_banner"
    assert slot.quest_minions == [0, 0, 0, 0] and s.supply[GREEN] == 25
    # A quest is never discarded at will: no action offers it.
    assert not any("quest" in a.notation() and "discard" in a.notation() for a in s.legal_actions())


@pytest.mark.rule("DEF-OVR-04")
def test_option_third_demon_overruns_as_for_four() -> None:
    s = scenario(("paladin",), options={"demons_overrun_at_three": True})
    r1 = s.board.loc("R1")
    put(s, "R1", red=2)
    add_minions(s, r1, RED, 1)
    assert s.taint[r1] == 1 and s.minions[r1][RED] == 3
    assert s.minions[s.board.loc("R2")][RED] == 1 and s.minions[s.board.loc("G1")][RED] == 1


@pytest.mark.rule("DEF-OVR-07")
@pytest.mark.rule("DEF-OVR-02")
def test_a_minion_fleeing_to_a_full_inn_is_not_placed_and_taints_nothing() -> None:
    # G2 overruns; its neighbour the Inn already holds 3: no crystal there, no 4th minion, and the
    # other neighbours get their fleeing orc as usual.
    s = scenario(("paladin",))
    b = s.board
    put(s, "G2", green=3)
    put(s, INN, black=3)
    add_minions(s, b.loc("G2"), GREEN, 1)
    assert s.taint[b.loc("G2")] == 1 and s.taint[b.loc(INN)] == 0
    assert s.minions[b.loc(INN)] == [0, 0, 0, 3]
    assert s.minions[b.loc("G1")][GREEN] == 1 and s.minions[b.loc("G3")][GREEN] == 1
    assert s.crystals_left == 11 and s.supply[GREEN] == 25 - 3 - 2
    assert any(e.kind == "inn_full" for e in s.events)


@pytest.mark.rule("DEF-OVR-07")
@pytest.mark.rule("DEF-OVR-01")
def test_an_inn_is_never_overrun() -> None:
    # A 4th minion sent to an Inn (here an undead driven out by the Cleric's Turn Undead, or any
    # other placement) is not placed: no crystal, nothing spills to the Inn's neighbour.
    s = scenario(("cleric",), at={"cleric": "G2"})
    b = s.board
    inn = b.loc(INN)
    put(s, INN, green=3)
    add_minions(s, inn, RED, 2)
    assert s.minions[inn] == [0, 3, 0, 0] and s.taint[inn] == 0 and s.crystals_left == 12
    assert s.minions[b.loc("G2")] == [0, 0, 0, 0] and s.supply[RED] == 25
    put(s, "G2", black=1)
    s = play(s, "end_day")
    assert s.pending().kind == "turn_undead"
    s = play(s, f"turn_undead {INN}")
    assert s.minions[inn] == [0, 3, 0, 0] and s.taint[inn] == 0 and s.supply[BLACK] == 25


@pytest.mark.rule("DEF-OVR-07")
@pytest.mark.rule("DEF-OVR-04")
def test_three_demons_never_taint_an_inn() -> None:
    for options in ({}, {"demons_overrun_at_three": True}):
        s = scenario(("paladin",), options=options)
        inn = s.board.loc(INN)
        put(s, INN, red=2)
        add_minions(s, inn, RED, 1)
        assert s.minions[inn] == [3, 0, 0, 0] and s.taint[inn] == 0 and s.crystals_left == 12
        assert s.minions[s.board.loc("G2")] == [0, 0, 0, 0]


@pytest.mark.rule("DEF-CRD-03")
def test_quest_minions_come_first_from_the_quest_card_holding_the_most() -> None:
    # The English original: with the supply empty at night, minions are taken from the quest card
    # that has the most minions on it. The rogue's card holds 3 demons, the paladin's 1.
    s = scenario(("paladin", "rogue"), ds=["ds1"])
    s.slots[0].quest_minions[RED] = 1
    s.slots[1].quest_minions[RED] = 3
    s.supply[RED] = 0
    s = _night(s)  # 1 demon on R1, then Balazarg brings 1 to R2: both from the rogue's card
    assert s.outcome is None and s.minions[s.board.loc("R1")][RED] == 1
    assert s.slots[0].quest_minions[RED] == 1 and s.slots[1].quest_minions[RED] == 1
