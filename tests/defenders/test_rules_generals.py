"""General battles (DEF-GEN-*), war status (DEF-DRK-04), victory and King's Champion (DEF-END-01/03)."""

from __future__ import annotations

import pytest

from .helpers import MC, give, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


@pytest.mark.rule("DEF-GEN-01")
@pytest.mark.rule("DEF-GEN-04")
def test_single_attack_cards_dice_hits_then_failure_penalty_and_monarch_city() -> None:
    # Varkolak (hit 4+, life 5). K1e has 2 dice, K2h 1 die: 3 dice -> 4, 5, 1 = 2 hits.
    s = scenario(("paladin",), at={"paladin": "K3"}, rolls=[4, 5, 1, 1, 3], ds=["quiet"])
    give(s, "paladin", "K1e", "K2h", "R1h")
    s = play(s, "attack_general")
    assert s.slots[0].actions == 4 and s.pending().kind == "commit"
    legal = {a.notation() for a in s.legal_actions()}
    assert "commit paladin R1h" not in legal  # only cards showing that general's colour
    s = play(s, "commit paladin K1e", "commit paladin K2h", "commit_done paladin")
    g = s.generals[BLACK]
    assert g.wounds == 2
    # Failure: penalty D6 cards (rolled 1: one card to give up) and D6 life (3, Paladin ignores 1).
    assert s.pending().kind == "discard"
    s = play(s, "discard paladin R1h")
    slot = s.slots[0]
    assert slot.life == 5 - 2 and slot.loc == s.board.loc(MC)
    assert {"K1e", "K2h", "R1h"} <= set(s.hero_deck.discard_pile)


@pytest.mark.rule("DEF-GEN-02")
@pytest.mark.rule("DEF-GEN-07")
def test_balazarg_curse_rolls_per_red_card_before_the_attack() -> None:
    # Curse dice 1 (R1h lost), 3 (R1e kept); attack with R1e's 2 dice: 4, 4; penalty D3 = 3 -> 2 life.
    s = scenario(("paladin",), at={"paladin": "R3"}, rolls=[1, 3, 4, 4, 3], ds=["quiet"])
    give(s, "paladin", "R1h", "R1e")
    s = play(s, "attack_general", "commit paladin R1h", "commit paladin R1e", "commit_done paladin")
    assert s.generals[RED].wounds == 2  # only R1e's dice were rolled
    assert s.slots[0].life == 5 - 1  # D3 = 2, armour ignores 1


@pytest.mark.rule("DEF-GEN-08")
def test_gorgutt_parries_every_one_rolled() -> None:
    s = scenario(("paladin",), at={"paladin": "G3"}, rolls=[3, 1, 6, 2], ds=["quiet"])
    give(s, "paladin", "G1e", "G2e")
    s = play(s, "attack_general", "commit paladin G1e", "commit paladin G2e", "commit_done paladin")
    assert s.generals[GREEN].wounds == 1  # 2 hits, 1 parried


@pytest.mark.rule("DEF-GEN-08")
@pytest.mark.rule("DEF-GEN-06")
def test_gorgutt_a_one_rolled_later_by_another_hero_takes_back_a_hit_already_landed() -> None:
    # Group attack: the paladin rolls 5, 6 (2 hits), then the wizard rolls a lone 1. Every 1 in the
    # battle parries a hit of any hero (the English original: "regardless of the hero who rolled
    # the 1 or the successful attack"), so the marker goes back one: 1 wound stays.
    s = scenario(("paladin", "wizard"), at={"paladin": "G3", "wizard": "G3"}, rolls=[5, 6, 1], ds=["quiet"])
    give(s, "paladin", "G1e")
    give(s, "wizard", "G1h")
    s = play(s, "attack_general", "join wizard")
    s = play(s, "commit paladin G1e", "commit_done paladin", "commit wizard G1h", "commit_done wizard")
    s = play(s, "next_attacker paladin")  # the wizard then rolls at once, the only one left
    assert s.battle is None  # the attack failed
    assert s.generals[GREEN].wounds == 1
    assert [x.life for x in s.slots] == [5 - 1, 5 - 2]  # Gorgutt's penalty: 2 life (the paladin ignores 1)


@pytest.mark.rule("DEF-GEN-08")
@pytest.mark.rule("DEF-GEN-06")
def test_gorgutt_a_one_rolled_before_any_hit_parries_the_next_heros_hit() -> None:
    # The wizard rolls first: 1, 2 (no hit, one parry). The paladin, the only one left, then rolls
    # 6, 6, 4, 3 with 4 dice (4 hits): the wizard's 1 cancels one of them, so 3 wounds, not 4.
    for wounds_before, defeated in ((2, False), (3, True)):
        at = {"paladin": "G3", "wizard": "G3"}
        s = scenario(("paladin", "wizard"), at=at, rolls=[1, 2, 6, 6, 4, 3], ds=["quiet"])
        s.generals[GREEN].wounds = wounds_before
        give(s, "paladin", "G1e", "G2e")
        give(s, "wizard", "G1h", "G2h")
        s = play(s, "attack_general", "join wizard")
        s = play(s, "commit paladin G1e", "commit paladin G2e", "commit_done paladin")
        s = play(s, "commit wizard G1h", "commit wizard G2h", "commit_done wizard")
        s, events = s.apply(s.parse("next_attacker wizard"))
        if defeated:  # 3 life left: the paladin's roll is the final blow
            assert s.generals[GREEN] is None and s.slots[0].slain == [GREEN]
        else:  # 4 life left: one short, the attack fails with 5 wounds on the track
            assert s.generals[GREEN].wounds == 5 and s.battle is None
        parries = [e for e in events if e.kind == "parry"]
        assert len(parries) == 1 and parries[0].data["parries"] == 1


@pytest.mark.rule("DEF-GEN-09")
def test_sapphire_regenerates_after_a_failed_attack() -> None:
    s = scenario(("paladin",), at={"paladin": "B3"}, rolls=[5, 6, 2], ds=["quiet"])
    give(s, "paladin", "B1e")
    s = play(s, "attack_general", "commit paladin B1e", "commit_done paladin")
    assert s.generals[BLUE].wounds == 0 and s.generals[BLUE].heal_from == -1


@pytest.mark.rule("DEF-GEN-10")
def test_no_rerolls_against_varkolak() -> None:
    s = scenario(("eagle_rider",), at={"eagle_rider": "K3"}, rolls=[1, 1, 1, 1], ds=["quiet"])
    give(s, "eagle_rider", "K1e")
    s = play(s, "turn_choice ground", "attack_general", "commit eagle_rider K1e", "commit_done eagle_rider")
    assert s.generals[BLACK].wounds == 0 and s.slots[0].life == 3  # no re-roll; penalty life 1
    # The same style re-rolls failed dice against Sapphire.
    s = scenario(("eagle_rider",), at={"eagle_rider": "B3"}, rolls=[1, 1, 5, 5, 1], ds=["quiet"])
    give(s, "eagle_rider", "B1e")
    s = play(s, "turn_choice ground", "attack_general", "commit eagle_rider B1e", "commit_done eagle_rider")
    assert s.slots[0].life == 1  # the attack was re-rolled (2 hits) but failed; penalty 3 life


@pytest.mark.rule("DEF-GEN-03")
@pytest.mark.rule("DEF-GEN-06")
def test_group_attack_order_after_each_result_all_cards_discarded_slayer_rewards() -> None:
    s = scenario(
        ("paladin", "wizard", "cleric"),
        at={"paladin": "K3", "wizard": "K3", "cleric": "K3"},
        rolls=[1, 4, 4, 4, 2],
    )
    s.generals[BLACK].wounds = 2  # 3 life left
    give(s, "paladin", "K1h")
    give(s, "wizard", "K2h")
    give(s, "cleric", "K1e", "K3e")
    s = play(s, "attack_general")
    assert s.pending().kind == "join" and s.pending().player == 1
    s = play(s, "join wizard")
    assert s.pending().player == 2
    s = play(s, "join cleric")
    s = play(s, "commit paladin K1h", "commit_done paladin")
    s = play(s, "commit wizard K2h", "commit_done wizard")
    s = play(s, "commit cleric K1e", "commit cleric K3e", "commit_done cleric")
    d = s.pending()
    assert d.kind == "next_attacker" and d.player == 0 and d.rule == "DEF-GEN-06"
    s = play(s, "next_attacker wizard")  # rolls a 1: no hit
    assert s.generals[BLACK].wounds == 2 and s.pending().kind == "next_attacker"  # choose again
    s = play(s, "next_attacker cleric")  # 4 dice: 4, 4, 4, 2 -> 3 hits: defeated
    assert s.generals[BLACK] is None
    cleric = s.slots[2]
    assert cleric.slain == [BLACK] and s.generals_slain == [0, 0, 1]
    # The paladin never rolled, but its committed card is discarded too; every participant draws 3.
    assert "K1h" in s.hero_deck.discard_pile and {"K1e", "K3e", "K2h"} <= set(s.hero_deck.discard_pile)
    assert [len(x.hand) for x in s.slots] == [3, 3, 3]
    assert s.war == 1
    # Slayer: one action kills every undead on the location without rolling.
    put(s, "K3", black=2)
    s.current = 2
    s.slots[2].actions = 2
    s = play(s, "slay black")
    assert s.minions[s.board.loc("K3")][BLACK] == 0


@pytest.mark.rule("DEF-GEN-05")
def test_light_wounds_heal_from_the_end_of_the_next_turn() -> None:
    s = scenario(("paladin", "rogue"), at={"paladin": "K3"}, rolls=[4, 4, 1, 1], ds=["quiet"] * 4)
    give(s, "paladin", "K1e")
    s = play(s, "attack_general", "commit paladin K1e", "commit_done paladin")
    assert s.generals[BLACK].wounds == 2
    s = play(s, "end_day")  # end of the attacker's own turn: no healing yet
    assert s.generals[BLACK].wounds == 2
    s = play(s, "end_day")  # end of the next player's turn: heals 1
    assert s.generals[BLACK].wounds == 1
    s = play(s, "end_day")
    assert s.generals[BLACK].wounds == 0


@pytest.mark.rule("DEF-GEN-05")
def test_grave_wounds_wait_a_full_round_and_stop_the_general() -> None:
    # Balazarg: grave once 1 life or less is left (5 of 6 wounds).
    # Rolls: Balazarg's curse on R1e (6), the attack (6, 6), the penalty's D3 (1).
    s = scenario(("paladin", "rogue"), at={"paladin": "R3"}, rolls=[6, 6, 6, 1], ds=["quiet"] * 3)
    s.generals[RED].wounds = 3
    give(s, "paladin", "R1e")
    s = play(s, "attack_general", "commit paladin R1e", "commit_done paladin")  # 2 hits: 1 life left
    assert s.generals[RED].wounds == 5
    s = play(s, "end_day")  # turn 0 (attacker)
    s = play(s, "end_day")  # turn 1
    assert s.generals[RED].wounds == 5  # grave: no healing before the attacker plays again
    s = play(s, "end_day")  # turn 2: the attacker's next turn ends
    assert s.generals[RED].wounds == 4


@pytest.mark.rule("DEF-GEN-05")
def test_gravely_wounded_general_does_not_advance() -> None:
    s = scenario(("paladin",), ds=["ds1"])
    s.generals[RED].wounds = 5
    s = play(s, "end_day")
    assert s.generals[RED].loc == s.board.loc("R3")


@pytest.mark.rule("DEF-DRK-04")
@pytest.mark.rule("DEF-END-01")
def test_war_status_advances_per_defeat_and_four_defeats_win() -> None:
    s = scenario(("paladin",), rolls=[6] * 5, ds=["quiet"] * 4)  # Balazarg's curse takes one die
    for colour, where, card in [(RED, "R3", "R1h"), (GREEN, "G3", "G1h"), (BLACK, "K3", "K1h")]:
        s.slots[0].loc = s.board.loc(where)
        s.generals[colour].wounds = s.board.general_by_colour[colour].life - 1
        give(s, "paladin", card)
        s = play(s, "attack_general", f"commit paladin {card}", "commit_done paladin")
        assert s.generals[colour] is None
    assert s.war == 3 and s.view(None)["war_status"] == "Late War"
    assert s.outcome is None
    s.slots[0].loc = s.board.loc("B3")
    s.generals[BLUE].wounds = 3
    s.slots[0].actions = 1
    give(s, "paladin", "B1h")
    s = play(s, "attack_general", "commit paladin B1h", "commit_done paladin")
    r = s.results()
    assert r is not None and r.winners == frozenset({0}) and s.pending() is None


@pytest.mark.rule("DEF-END-03")
def test_kings_champion_ranks_points_then_quests() -> None:
    s = scenario(("paladin", "wizard", "cleric", "rogue"))
    s.quests_done = [2, 1, 0, 1]
    s.generals_slain = [1, 2, 0, 2]
    s.outcome, s.won = "win", True
    r = s.results()
    assert r is not None
    assert r.winners == frozenset({0, 1, 2, 3})  # cooperative: all win together
    assert r.scores == {0: 3.0, 1: 3.0, 2: 0.0, 3: 3.0}
    assert r.ranking == ((0,), (1, 3), (2,))


@pytest.mark.rule("DEF-GEN-06")
def test_battle_luck_played_by_a_joining_hero_in_another_players_turn() -> None:
    s = scenario(("paladin", "rogue"), at={"paladin": "B3", "rogue": "B3"}, rolls=[1, 5, 5, 5], ds=["quiet"])
    s.generals[BLUE].wounds = 2
    give(s, "paladin", "B1h")
    give(s, "rogue", "B2e", "sp_battle_luck")
    s = play(s, "attack_general", "join rogue", "commit_done paladin")
    assert "play rogue sp_battle_luck" in {a.notation() for a in s.legal_actions()}
    assert s.pending().player == 1
    s = play(s, "play rogue sp_battle_luck", "commit rogue B2e", "commit_done rogue")
    # Rogue rolls 1, 5; re-rolls the 1: 5 -> 2 hits: Sapphire (4 life) falls.
    assert s.generals[BLUE] is None and s.slots[1].slain == [BLUE]
