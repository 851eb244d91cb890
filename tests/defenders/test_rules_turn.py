"""The turn (DEF-TRN-*), the eleven actions (DEF-ACT-*), wounds (DEF-WND-01), minions (DEF-ENM-*)."""

from __future__ import annotations

import pytest

from warhorn.engine.errors import IllegalActionError
from warhorn.games.defenders.actions import Move, Rest, Rumors
from warhorn.games.defenders.rules import hero_actions

from .helpers import INN, MC, give, play, put, scenario


@pytest.mark.rule("DEF-TRN-01")
def test_three_steps_daytime_evening_draws_two_night_draws() -> None:
    s = scenario(("paladin",), ds=["quiet", "ds1"], hero_deck=["R1h", "G1h", "B1h"])
    s = play(s, "end_day")
    assert s.slots[0].hand == ["R1h", "G1h"]  # Evening: 2 hero cards
    assert s.ds_deck.discard_pile == ("quiet",)  # Night: one card in Early War
    assert s.turn_no == 1 and s.pending().kind == "action"


@pytest.mark.rule("DEF-TRN-01")
def test_hand_limit_ten_discard_down() -> None:
    hand = ["R1h", "R2h", "R3h", "G1h", "G2h", "G3h", "B1h", "B2h", "B3h", "K1h"]
    s = scenario(("paladin",), ds=["quiet"], hands={"paladin": hand}, hero_deck=["K2h", "K3h"])
    s = play(s, "end_day")
    d = s.pending()
    assert d.kind == "discard" and d.rule == "DEF-TRN-01" and len(s.slots[0].hand) == 12
    s = play(s, "discard paladin R1h", "discard paladin K3h")
    assert len(s.slots[0].hand) == 10 and s.pending().kind == "action"


@pytest.mark.rule("DEF-TRN-02")
def test_actions_equal_active_life_tokens_refreshed_each_turn() -> None:
    s = scenario(("paladin",), ds=["quiet", "quiet"])
    assert s.slots[0].actions == 5
    s = play(s, "move R1", "move MC".replace("MC", "Monarch_City"))
    assert s.slots[0].actions == 3
    s = play(s, "end_day")
    assert s.slots[0].actions == 5  # refreshed
    s.slots[0].life = 3
    s2 = scenario(("paladin",), ds=["quiet"])
    s2.slots[0].life = 2
    s2 = play(s2, "end_day")
    assert s2.slots[0].actions == 2  # wounded: fewer actions


@pytest.mark.rule("DEF-TRN-02")
@pytest.mark.rule("DEF-ACT-07")
def test_rumors_at_most_two_tokens_and_keeps_named_colour_and_purple() -> None:
    deck = ["G1h", "R1h", "sp_magic_gate", "G2e", "B1h", "G3g"]
    s = scenario(("paladin",), at={"paladin": "Rest Inn"}, hero_deck=deck, ds=["quiet"])
    s = play(s, "rumors green 2")
    assert sorted(s.slots[0].hand) == ["G1h", "G2e", "sp_magic_gate"]
    assert s.slots[0].actions == 3
    with pytest.raises(IllegalActionError) as err:
        s.apply(Rumors("green", 1))
    assert err.value.rule == "DEF-TRN-02"
    s = scenario(("paladin",), hero_deck=deck)
    with pytest.raises(IllegalActionError) as err:
        s.apply(Rumors("green", 1))
    assert err.value.rule == "DEF-ACT-07"


@pytest.mark.rule("DEF-TRN-03")
def test_defeated_hero_is_replaced_in_monarch_city() -> None:
    s = scenario(("paladin",), ds=["quiet"], hero_deck=["R1h", "G1h", "B1h", "K1h"], quest_deck=["q_banner"])
    put(s, "R1", green=3)
    s = play(s, "move R1")
    s.slots[0].life = 2  # 3 orcs = 3 wounds, Paladin's armour ignores 1 -> 2: defeated
    s = play(s, "end_day")
    d = s.pending()
    assert d.kind == "choose_hero" and d.rule == "DEF-TRN-03" and d.player == 0
    s = play(s, "choose_hero wizard")
    slot = s.slots[0]
    assert slot.hero == "wizard" and slot.loc == s.board.loc(MC) and slot.life == 5
    # 2 cards on joining, then the turn's Evening draws 2 more for the player's new hero.
    assert len(slot.hand) == 4 and slot.quest == "q_banner"
    assert "paladin" not in s.unused_heroes and "wizard" not in s.unused_heroes


@pytest.mark.rule("DEF-ACT-01")
def test_move_on_foot_one_connection() -> None:
    s = scenario(("paladin",))
    s = play(s, "move R1")
    assert s.board.name(s.slots[0].loc) == "R1" and s.slots[0].actions == 4
    with pytest.raises(IllegalActionError) as err:
        s.apply(Move("R3"))
    assert err.value.rule == "DEF-ACT-01"


@pytest.mark.rule("DEF-ACT-02")
def test_horse_card_moves_up_to_two() -> None:
    s = scenario(("wizard",), hands={"wizard": ["K3h"]})
    s = play(s, "move R2 by horse K3h")
    assert s.board.name(s.slots[0].loc) == "R2" and s.slots[0].hand == [] and s.slots[0].actions == 4
    assert "K3h" in s.hero_deck.discard_pile
    s = scenario(("wizard",), hands={"wizard": ["K3h"]})
    with pytest.raises(IllegalActionError) as err:
        s.apply(Move("R3", "horse", "K3h"))
    assert err.value.rule == "DEF-ACT-02"


@pytest.mark.rule("DEF-ACT-03")
def test_eagle_card_moves_up_to_four() -> None:
    s = scenario(("wizard",), hands={"wizard": ["B3e"]}, at={"wizard": "R3"})
    legal = {a.notation() for a in s.legal_actions()}
    assert "move B2 by eagle B3e" not in legal  # R3-R2-R1-MC-B1-B2: 5 steps
    s = play(s, "move B1 by eagle B3e")  # 4 steps
    assert s.board.name(s.slots[0].loc) == "B1" and s.slots[0].hand == []


@pytest.mark.rule("DEF-ACT-04")
def test_magic_gate_card_and_gate_to_gate() -> None:
    s = scenario(("wizard",), hands={"wizard": ["R3g"]}, at={"wizard": "B3"})
    legal = {a.notation() for a in s.legal_actions()}
    assert "move R3 by gate R3g" in legal and "move Gatestone by gate R3g" in legal
    s = play(s, "move R3 by gate R3g")
    assert s.board.name(s.slots[0].loc) == "R3" and s.slots[0].hand == []
    # Two gates on the board: gate to gate for one action, no card.
    s = scenario(("paladin",), at={"paladin": "Gatestone"})
    s.gates[s.board.loc("B3")] = True
    s.gate_supply -= 1
    s = play(s, "move B3 by gatelink")
    assert s.board.name(s.slots[0].loc) == "B3" and s.slots[0].actions == 4


@pytest.mark.rule("DEF-ACT-05")
def test_special_ability_costs_an_action_only_if_the_sheet_says_so() -> None:
    s = scenario(("paladin",))
    s = play(s, "move R2 by noble_steed")  # Noble Steed: an action, no card
    assert s.slots[0].actions == 4 and s.board.name(s.slots[0].loc) == "R2"
    s = scenario(("eagle_rider",))
    s = play(s, "turn_choice ground", "move R3 by eagle_flight")
    assert s.slots[0].actions == 3 and s.board.name(s.slots[0].loc) == "R3"


@pytest.mark.rule("DEF-ACT-06")
def test_build_a_gate_with_the_card_of_the_location() -> None:
    s = scenario(("paladin",), hands={"paladin": ["R1h", "G1h"]}, at={"paladin": "R1"})
    assert "build_gate G1h" not in {a.notation() for a in s.legal_actions()}
    s = play(s, "build_gate R1h")
    assert s.gates[s.board.loc("R1")] and s.gate_supply == 3 and s.slots[0].hand == ["G1h"]


@pytest.mark.rule("DEF-ACT-08")
def test_heal_the_land_either_die_by_default() -> None:
    s = scenario(("paladin",), hands={"paladin": ["R1h", "R2h"]}, at={"paladin": "R1"}, rolls=[5, 1])
    s.taint[s.board.loc("R1")] = 2
    s.crystals_left -= 2
    s = play(s, "heal_land R1h")
    assert s.taint[s.board.loc("R1")] == 1 and s.crystals_left == 11
    assert "heal_land G1h" not in {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-ACT-08")
def test_heal_the_land_both_dice_option() -> None:
    s = scenario(
        ("paladin",),
        hands={"paladin": ["R1h"]},
        at={"paladin": "R1"},
        rolls=[5, 1],
        options={"heal_land": "both"},
    )
    s.taint[s.board.loc("R1")] = 1
    s.crystals_left -= 1
    s = play(s, "heal_land R1h")
    assert s.taint[s.board.loc("R1")] == 1  # a 5 and a 1 is not enough under the translation's reading


@pytest.mark.rule("DEF-ACT-08")
def test_the_chance_to_heal_follows_the_dice_each_hero_rolls() -> None:
    either = scenario(("paladin", "sorceress", "cleric"))
    both = scenario(("paladin", "sorceress", "cleric"), options={"heal_land": "both"})
    # 2 dice with a card (5/9), 3 for the Sorceress (19/27); the Cleric's Sanctify Land rolls as
    # Heal the Land does, only without a card (2 dice, 5/9)
    assert hero_actions.heal_chance(either, 0, True) == pytest.approx(5 / 9)
    assert hero_actions.heal_chance(either, 1, True) == pytest.approx(19 / 27)
    assert hero_actions.heal_chance(either, 2, False) == pytest.approx(5 / 9)
    # two 5+ needed: 1/9 on 2 dice, 7/27 on 3; Sanctify Land too
    assert hero_actions.heal_chance(both, 0, True) == pytest.approx(1 / 9)
    assert hero_actions.heal_chance(both, 1, True) == pytest.approx(7 / 27)
    assert hero_actions.heal_chance(both, 2, False) == pytest.approx(1 / 9)


@pytest.mark.rule("DEF-ACT-09")
def test_rest_full_in_city_two_elsewhere_never_with_general_or_minions() -> None:
    s = scenario(("paladin",))
    s.slots[0].life = 2
    s.slots[0].actions = 2
    s = play(s, "rest")
    assert s.slots[0].life == 5 and s.slots[0].actions == 1  # recovered tokens wait for next turn
    s = scenario(("paladin",), at={"paladin": "R1"})
    s.slots[0].life = 2
    s.slots[0].actions = 2
    s = play(s, "rest")
    assert s.slots[0].life == 4 and s.slots[0].actions == 1
    s = scenario(("paladin",), at={"paladin": "R1"})
    s.slots[0].life = 2
    put(s, "R1", red=1)
    assert "rest" not in {a.notation() for a in s.legal_actions()}
    s = scenario(("paladin",), at={"paladin": "R3"})  # Balazarg stands on R3
    s.slots[0].life = 2
    assert "rest" not in {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-ACT-10")
@pytest.mark.rule("DEF-ENM-02")
def test_fight_rolls_one_die_per_minion_against_its_kill_number() -> None:
    # Orc 3+, demon 4+, dragonkin 5+, undead 4+ (Paladin has no bonus). Dice go red, green, blue, black.
    s = scenario(("paladin",), at={"paladin": "R1"}, rolls=[3, 3, 5])
    put(s, "R1", red=1, green=1, blue=1)
    s = play(s, "fight R1")
    assert s.minions[s.board.loc("R1")] == [1, 0, 0, 0]  # the demon survived a 3
    assert s.slots[0].actions == 4  # one action for all the minions
    s = scenario(("paladin",), at={"paladin": "R1"}, rolls=[4, 2, 4])
    put(s, "R1", blue=1, black=2)
    s = play(s, "fight R1")
    assert s.minions[s.board.loc("R1")] == [0, 0, 1, 1]  # dragonkin survives a 4; one undead falls to a 4


@pytest.mark.rule("DEF-ACT-11")
def test_attack_general_only_on_its_location_without_minions() -> None:
    s = scenario(("paladin",), at={"paladin": "R3"})
    put(s, "R3", red=1)
    assert "attack_general" not in {a.notation() for a in s.legal_actions()}
    s.minions[s.board.loc("R3")][0] = 0
    s.supply[0] += 1
    s.edited()
    assert "attack_general" in {a.notation() for a in s.legal_actions()}
    s = scenario(("paladin",), at={"paladin": "R2"})
    assert "attack_general" not in {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-WND-01")
def test_end_of_turn_wounds_one_per_minion_plus_fear_for_undead() -> None:
    s = scenario(("wizard",), at={"wizard": "K1"}, ds=["quiet"])
    put(s, "K1", black=1, green=1)
    s = play(s, "end_day")
    assert s.slots[0].life == 5 - 3  # 2 minions + fear
    s = scenario(("wizard",), at={"wizard": "G1"}, ds=["quiet"])
    put(s, "G1", green=2)
    s = play(s, "end_day")
    assert s.slots[0].life == 3


@pytest.mark.rule("DEF-ENM-03")
def test_a_general_is_not_a_minion_for_overruns() -> None:
    from warhorn.games.defenders.rules.minions import add_minions

    s = scenario(("paladin",))
    r3 = s.board.loc("R3")
    put(s, "R3", red=2)
    add_minions(s, r3, 1, 1)  # general + 3 minions: no overrun
    assert sum(s.minions[r3]) == 3 and s.taint[r3] == 0


@pytest.mark.rule("DEF-TRN-03")
def test_replacements_never_outnumber_the_unused_heroes() -> None:
    # Both heroes lose to Varkolak and fall; only one unused hero is left.
    s = scenario(
        ("paladin", "rogue"), at={"paladin": "K3", "rogue": "K3"}, rolls=[1, 1, 6, 1, 6], ds=["quiet"]
    )
    s.unused_heroes = ["wizard"]
    s.slots[0].life = s.slots[1].life = 1
    give(s, "paladin", "K1h")
    s = play(
        s, "attack_general", "join rogue", "commit paladin K1h", "commit_done paladin", "commit_done rogue"
    )
    assert s.replacements == [0] and s.pending().kind == "choose_hero"
    s = play(s, "choose_hero wizard")
    assert s.slots[0].hero == "wizard" and s.slots[1].hero is None


@pytest.mark.rule("DEF-ACT-09")
def test_no_healing_in_monarch_city_or_an_inn_while_enemy_minions_stand_there() -> None:
    # The English original: no hero heals on a location with enemy minions or a general, and
    # Monarch City and the Inns (full healing) are no exception.
    for where in (MC, INN):
        s = scenario(("paladin",), at={"paladin": where})
        s.slots[0].life = 2
        s.slots[0].actions = 2
        put(s, where, green=1)
        assert "rest" not in {a.notation() for a in s.legal_actions()}, where
        with pytest.raises(IllegalActionError, match="DEF-ACT-09"):
            s.apply(Rest())
        s.minions[s.board.loc(where)][1] = 0  # the orc is gone: full healing again
        s.supply[1] += 1
        s = play(s, "rest")
        assert s.slots[0].life == 5, where
