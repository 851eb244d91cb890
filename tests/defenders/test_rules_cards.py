"""Hero cards (DEF-CRD-01), purple cards and their windows (DEF-CRD-02), quests (DEF-CRD-03)."""

from __future__ import annotations

import pytest

from warhorn.engine.deck import Deck

from .helpers import give, grant, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


def notations(s) -> set[str]:  # type: ignore[no-untyped-def]
    s.edited()  # the test may have edited the position by hand since it last asked
    return {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-CRD-01")
def test_one_card_many_uses() -> None:
    s = scenario(("paladin",), at={"paladin": "R1"})
    give(s, "paladin", "R3g", "R1h")
    s.taint[s.board.loc("R1")] = 1
    s.crystals_left -= 1
    legal = notations(s)
    assert {
        "heal_land R3g",
        "heal_land R1h",
        "build_gate R1h",
        "move R3 by gate R3g",
        "move R2 by horse R1h",
    } <= legal
    assert "build_gate R3g" not in legal  # a gate is built only at the card's own location
    s.slots[0].loc = s.board.loc("R3")
    s.taint[s.board.loc("R1")] = 0
    s.crystals_left += 1
    s = play(s, "attack_general")
    assert {"commit paladin R3g", "commit paladin R1h"} <= notations(s)  # dice against Balazarg


@pytest.mark.rule("DEF-CRD-02")
def test_purple_card_in_another_players_turn_at_the_night_window() -> None:
    s = scenario(("paladin", "rogue"), ds=["ds1"])
    give(s, "rogue", "sp_spell_of_purity")
    g3 = s.board.loc("G3")
    s.taint[g3] = 2
    s.crystals_left -= 2
    s = play(s, "end_day")
    d = s.pending()
    assert d.kind == "special" and d.player == 1 and d.rule == "DEF-CRD-02"
    assert "pass" in notations(s) and "play rogue sp_spell_of_purity G3" in notations(s)
    s = play(s, "play rogue sp_spell_of_purity G3")
    assert s.taint[g3] == 0 and s.crystals_left == 12 and "sp_spell_of_purity" in s.removed_cards
    assert s.pending().kind == "action" and s.current == 1  # the night went on; the rogue's turn


@pytest.mark.rule("DEF-CRD-02")
def test_windows_never_stall_a_pass_moves_on() -> None:
    s = scenario(("paladin", "rogue"), ds=["ds1"])
    give(s, "rogue", "sp_spell_of_purity")
    s.taint[s.board.loc("G3")] = 1
    s.crystals_left -= 1
    s = play(s, "end_day", "pass")
    assert s.current == 1 and "sp_spell_of_purity" in s.slots[1].hand


@pytest.mark.rule("DEF-CRD-02")
def test_militia_and_strong_defenses_react_to_the_drawn_card() -> None:
    s = scenario(("paladin", "rogue"), ds=["ds1"])  # 1 red R1, 2 green G2, Balazarg next with 1
    give(s, "rogue", "sp_militia", "sp_strong_defenses")
    s = play(s, "end_day")
    assert s.pending().player == 1 and s.window.kind == "card"
    s = play(s, "play rogue sp_militia G2", "play rogue sp_strong_defenses")
    b = s.board
    assert s.minions[b.loc("G2")] == [0, 0, 0, 0] and s.minions[b.loc("R1")][RED] == 1
    assert s.generals[RED].loc == b.loc("R3")


@pytest.mark.rule("DEF-CRD-02")
def test_own_turn_specials_all_is_quiet_fury_archers_hammer_luck_spy() -> None:
    s = scenario(("paladin", "rogue"), at={"paladin": "G1"}, ds=["ds1"], rolls=[1, 6])
    give(s, "paladin", "sp_all_is_quiet", "sp_battle_fury", "sp_elven_archers", "sp_hammer_of_valor")
    give(s, "paladin", "sp_battle_luck", "sp_spy_in_camp")
    put(s, "G1", green=2)
    put(s, "G2", green=1)
    put(s, "G3", blue=1)
    s = play(s, "play paladin sp_battle_fury")
    assert sum(s.minions[s.board.loc("G1")]) == 0 and s.slots[0].actions == 4
    s = play(s, "play paladin sp_elven_archers G2 G3")
    assert sum(s.minions[s.board.loc("G2")]) == 0 and sum(s.minions[s.board.loc("G3")]) == 0
    s = play(s, "play paladin sp_hammer_of_valor rogue K2")
    assert s.board.name(s.slots[1].loc) == "K2"
    put(s, "G1", blue=1)
    s = play(s, "play paladin sp_battle_luck", "fight G1")  # 1 misses, re-rolled 6 kills
    assert sum(s.minions[s.board.loc("G1")]) == 0
    s.generals[BLACK].wounds = 2
    s.generals[BLACK].heal_from = 0
    s = play(s, "play paladin sp_spy_in_camp black", "play paladin sp_all_is_quiet", "end_day")
    assert s.generals[BLACK].wounds == 2  # Spy in the Camp: no healing this turn
    assert s.ds_deck.discard_pile == ()  # All Is Quiet: no card drawn
    assert len(s.removed_cards) == 6


@pytest.mark.rule("DEF-CRD-02")
def test_empty_hero_deck_reshuffles_discard_but_not_used_purples() -> None:
    s = scenario(("paladin",), ds=["quiet"])
    pile = list(s.hero_deck.draw_pile)
    s.hero_deck = Deck((), tuple(pile[:3]))
    s.removed_cards = pile[3:]
    s = play(s, "end_day")
    assert len(s.slots[0].hand) == 2 and len(s.hero_deck.draw_pile) == 1
    assert set(s.removed_cards) == set(pile[3:])


@pytest.mark.rule("DEF-CRD-03")
def test_dice_quest_completes_and_rewards_fail_discard_draws_a_new_one() -> None:
    s = scenario(
        ("paladin",), at={"paladin": "K2"}, quest_deck=["q_amulet", "q_banner", "q_inns"], rolls=[1, 2, 3, 4]
    )
    from warhorn.games.defenders.rules import cards

    cards.draw_quest(s, 0)
    assert "quest" in notations(s)
    s = play(s, "quest")  # 4 dice, no 6: the Amulet quest is lost
    assert s.slots[0].quest == "q_banner" and s.quests_done == [0]
    s = scenario(("paladin",), at={"paladin": "K1"}, quest_deck=["q_banner", "q_inns"], rolls=[2, 5, 1])
    cards.draw_quest(s, 0)
    s = play(s, "quest")
    assert s.quests_done == [1] and "q_banner" in s.slots[0].rewards and s.slots[0].quest == "q_inns"


@pytest.mark.rule("DEF-CRD-03")
def test_war_banner_reward_ignores_every_effect_of_losing_to_a_general() -> None:
    # The English rulebook's own example card: "Ignore the wounds and other effects of losing a
    # battle to a General" - no lost life, no lost cards, and no retreat to Monarch City.
    s = scenario(("paladin", "rogue"), at={"paladin": "G3", "rogue": "G3"}, rolls=[1, 1], ds=["quiet"])
    grant(s, "paladin", "q_banner")
    give(s, "paladin", "G1e", "R1h")
    give(s, "rogue", "R2h", "R3h")
    s = play(s, "attack_general", "join rogue", "commit paladin G1e", "commit_done paladin")
    s = play(s, "commit_done rogue")
    assert s.battle is None and s.generals[GREEN].wounds == 0
    assert s.slots[0].life == 5 and s.slots[0].hand == ["R1h"] and s.board.name(s.slots[0].loc) == "G3"
    # The other participant, without the banner, takes Gorgutt's penalty and is carried back.
    assert s.pending().kind == "discard" and s.pending().player == 1
    s = play(s, "discard rogue R2h", "discard rogue R3h")
    assert s.slots[1].life == 6 - 2 and s.board.name(s.slots[1].loc) == "Monarch City"
    assert "attack_general" in notations(s)  # the banner holder may attack again at once


@pytest.mark.rule("DEF-CRD-03")
def test_visit_inns_scout_and_raids_quests() -> None:
    from warhorn.games.defenders.rules import cards

    s = scenario(
        ("paladin",), quest_deck=["q_inns", "q_scout"], hero_deck=["B1h", "B2h", "G2e", "G3g", "K1h"]
    )
    cards.draw_quest(s, 0)
    s.slots[0].loc = s.board.loc("G2")
    s = play(s, "move Rest_Inn")  # the only inn of the small board: done on arrival, 4 cards
    assert s.quests_done == [1] and len(s.slots[0].hand) == 4 and s.slots[0].quest == "q_scout"
    s.slots[0].loc = s.board.loc("G3")
    s = play(s, "quest")  # scout Gorgutt on his space: take the first green card of the deck
    assert s.quests_done == [2] and any(c.startswith("G") for c in s.slots[0].hand[4:])
    s = scenario(("paladin",), quest_deck=["q_raids"], at={"paladin": "G1"}, rolls=[6, 6, 6])
    cards.draw_quest(s, 0)
    put(s, "G1", red=1, green=1, blue=1)
    s = play(s, "fight G1")
    assert s.slots[0].quest_progress == ["red", "green", "blue"] and s.quests_done == [0]


@pytest.mark.rule("DEF-CRD-03")
def test_held_rewards_stop_general_skip_night_and_remove_crystal() -> None:
    s = scenario(("paladin", "rogue"), ds=["ds1", "ds2"])
    grant(s, "rogue", "q_militia", "q_raids")
    s = play(s, "end_day")
    # Raids skips the Darkness Spreads draws "at the end of your turn": not in the paladin's night.
    assert s.window.kind == "card" and "use_reward rogue q_raids" not in notations(s)
    s = play(s, "use_reward rogue q_militia")
    assert s.generals[RED].loc == s.board.loc("R3") and "q_militia" not in s.slots[1].rewards
    s = scenario(("paladin",), at={"paladin": "G3"}, ds=["ds1"])
    grant(s, "paladin", "q_crystal")
    s.taint[s.board.loc("G3")] = 1
    s.crystals_left -= 1
    s = play(s, "use_reward paladin q_crystal")
    assert s.taint[s.board.loc("G3")] == 0 and s.crystals_left == 12


@pytest.mark.rule("DEF-CRD-02")
def test_kings_guard_and_cavalry_sweep_are_chosen_minion_by_minion() -> None:
    s = scenario(("paladin",))
    give(s, "paladin", "sp_kings_guard", "sp_cavalry_sweep")
    put(s, "Monarch City", red=2)
    put(s, "R1", green=3)
    put(s, "R2", green=3)  # not next to the city
    s = play(s, "play paladin sp_kings_guard")
    assert s.pending().kind == "pick"
    assert "pick green R2" not in notations(s)
    s = play(s, "pick red Monarch_City", "pick red Monarch_City", "pick green R1", "pass")
    assert sum(s.minions[s.board.loc("Monarch City")]) == 0 and s.minions[s.board.loc("R1")][GREEN] == 2
    assert s.pending().kind == "action"
    # Cavalry Sweep: at most 2 per location, spreading to connected locations, a dragonkin counts 2.
    put(s, "G1", blue=1)
    s = play(s, "play paladin sp_cavalry_sweep", "pick green R1", "pick green R1")
    legal = notations(s)
    assert "pick green R2" in legal and "pick blue G1" in legal and "pick green R1" not in legal
    s = play(s, "pick blue G1", "pick green R2")
    assert s.picking is not None and s.picking.left == 1
    s = play(s, "pick green R2")
    assert s.picking is None and s.minions[s.board.loc("R2")][GREEN] == 1


@pytest.mark.rule("DEF-CRD-02")
def test_battle_strategy_clears_three_locations_and_pushes_a_general_back() -> None:
    s = scenario(("paladin",))
    give(s, "paladin", "sp_battle_strategy")
    s.generals[RED].loc = s.board.loc("R2")
    for where in ("R1", "G1", "B1", "K1"):
        put(s, where, black=1)
    s = play(s, "play paladin sp_battle_strategy", "pick location R1", "pick location G1", "pick location B1")
    assert s.minions[s.board.loc("K1")][BLACK] == 1
    assert {a.notation() for a in s.legal_actions()} == {"pick general red", "pass"}
    s = play(s, "pick general red")
    assert s.generals[RED].loc == s.board.loc("R3") and s.picking is None


@pytest.mark.rule("DEF-CRD-02")
def test_dark_visions_discards_and_reorders_the_top_cards_for_everyone_to_see() -> None:
    from warhorn.engine.rng import Rng

    s = scenario(("paladin", "rogue"), ds=["ds1", "ds2", "ds3", "ds4", "ds5", "ds6"])
    give(s, "paladin", "sp_dark_visions")
    s = play(s, "play paladin sp_dark_visions", "pick discard ds1", "pick discard ds2", "pass")
    s = play(s, "pick top ds5", "pick top ds3")
    assert s.ds_deck.draw_pile[:4] == ("ds5", "ds3", "ds4", "ds6") or s.ds_deck.draw_pile[:3] == (
        "ds5",
        "ds3",
        "ds4",
    )
    assert s.view(1)["darkness_known_top"] == ["ds5", "ds3", "ds4"]
    assert s.determinize(1, Rng(3)).view(1) == s.view(1)
    assert {"ds1", "ds2"} <= set(s.ds_deck.discard_pile)


@pytest.mark.rule("DEF-CRD-03")
def test_envoy_and_gryphons_rewards_choose_their_targets() -> None:
    from warhorn.games.defenders.rules import cards

    s = scenario(("paladin", "rogue"), at={"paladin": "B2"}, quest_deck=["q_envoy"], rolls=[5, 1, 1, 2])
    cards.draw_quest(s, 0)
    put(s, "B2", blue=1)
    put(s, "K1", black=1)  # B2-B1-K1: two steps
    put(s, "K2", black=1)  # three steps: out of reach
    s = play(s, "quest")  # success, then D6 = 2 minions to remove
    assert s.pending().kind == "pick" and "pick black K2" not in notations(s)
    s = play(s, "pick blue B2", "pick black K1")
    assert s.picking is None and s.quests_done == [1, 0]
    grant(s, "paladin", "q_gryphons")
    s = play(s, "use_reward paladin q_gryphons", "pick hero rogue", "pick to K3", "pass")
    assert s.board.name(s.slots[1].loc) == "K3" and s.picking is None


@pytest.mark.rule("DEF-CRD-03")
def test_find_magic_gate_on_red_then_two_extra_dice_in_a_battle() -> None:
    s = scenario(("paladin",), at={"paladin": "R1"}, quest_deck=["q_gate"], rolls=[6, 6, 1, 1])
    from warhorn.games.defenders.rules import cards

    cards.draw_quest(s, 0)
    give(s, "paladin", "R1h")
    s = play(s, "build_gate R1h")
    assert s.quests_done == [1] and "q_gate" in s.slots[0].rewards
    s.slots[0].loc = s.board.loc("K3")
    s = play(s, "attack_general", "use_reward paladin q_gate", "commit_done paladin")
    assert s.generals[BLACK].wounds == 2 and "q_gate" not in s.slots[0].rewards


@pytest.mark.rule("DEF-CRD-03")
def test_find_magic_gate_adds_two_dice_to_a_fight_aimed_at_the_kinds_chosen() -> None:
    # "Add 2 dice to any one combat": in a Fight the hero aims each extra die at a kind of
    # minion there. An orc and a dragonkin; both dice at the dragonkin: 2 (orc), then 1, 5, 2.
    s = scenario(("paladin",), at={"paladin": "R1"}, rolls=[4, 1, 5, 2])
    grant(s, "paladin", "q_gate")
    put(s, "R1", green=1, blue=1)
    legal = notations(s)
    assert {
        "fight R1",
        "fight R1 plus green,green",
        "fight R1 plus green,blue",
        "fight R1 plus blue,blue",
    } <= legal
    assert "fight R1 plus red,red" not in legal  # no demon there to aim at
    s = play(s, "fight R1 plus blue,blue")
    assert sum(s.minions[s.board.loc("R1")]) == 0
    assert "q_gate" not in s.slots[0].rewards and "q_gate" in s.quest_deck.discard_pile
    put(s, "R1", green=1)
    assert "fight R1 plus green,green" not in notations(s)  # spent


@pytest.mark.rule("DEF-CRD-03")
def test_find_magic_gate_dice_never_kill_more_minions_than_stand_there() -> None:
    s = scenario(("paladin",), at={"paladin": "R1"}, rolls=[6, 6, 6, 6])
    grant(s, "paladin", "q_gate")
    put(s, "R1", green=1, red=1)
    s = play(s, "fight R1 plus green,green")  # demon 6; three orc dice, three 6s: one orc
    assert sum(s.minions[s.board.loc("R1")]) == 0 and s.supply[GREEN] == 25


@pytest.mark.rule("DEF-CRD-03")
def test_find_magic_gate_adds_two_dice_to_a_fireball() -> None:
    s = scenario(("wizard",), at={"wizard": "R1"}, rolls=[1, 1, 1, 2])
    grant(s, "wizard", "q_gate")
    give(s, "wizard", "R2h")
    put(s, "R1", red=2)
    assert {"fireball R2h", "fireball R2h plus 2"} <= notations(s)
    s = play(s, "fireball R2h plus 2")  # 4 dice against 2 demons: one 2+
    assert s.minions[s.board.loc("R1")] == [1, 0, 0, 0] and "q_gate" not in s.slots[0].rewards


@pytest.mark.rule("DEF-CRD-03")
def test_impossible_quest_is_replaced() -> None:
    from warhorn.games.defenders.rules import cards

    s = scenario(("paladin",), at={"paladin": "G3"}, quest_deck=["q_scout", "q_banner"], rolls=[6])
    cards.draw_quest(s, 0)
    s.generals[GREEN].wounds = 5
    give(s, "paladin", "G1h")
    s = play(s, "attack_general", "commit paladin G1h", "commit_done paladin")
    assert s.generals[GREEN] is None and s.slots[0].quest == "q_banner"


@pytest.mark.rule("DEF-CRD-03")
def test_visit_quest_needs_an_action_at_each_location() -> None:
    from warhorn.games.defenders.rules import cards

    s = scenario(("paladin",), at={"paladin": "R1"}, quest_deck=["q_militia"])
    cards.draw_quest(s, 0)
    s = play(s, "quest")
    assert s.slots[0].quest_progress == ["R1"] and "quest" not in notations(s)
    s = play(s, "move G1", "quest")
    assert s.quests_done == [1] and "q_militia" in s.slots[0].rewards


@pytest.mark.rule("DEF-CRD-03")
def test_permanent_rewards_amulet_boots_helm_unicorn_allies() -> None:
    s = scenario(
        ("paladin",), at={"paladin": "G1"}, ds=["quiet"], rolls=[2, 1, 5], hero_deck=["R1h", "R2h", "R3h"]
    )
    grant(s, "paladin", "q_amulet", "q_boots", "q_helm", "q_unicorn", "q_allies")
    put(s, "G1", green=1)
    s = play(s, "fight G1")  # 2 +1 (amulet) +1 (elven allies on green) = 4: the orc dies
    assert sum(s.minions[s.board.loc("G1")]) == 0
    assert "move R2 by horse" in notations(s)  # Unicorn Steed: a horse without a card
    put(s, "G1", blue=1)
    s = play(s, "fight G1")  # 1 -> 3 misses a dragonkin; the steed's re-roll: 5 -> 7 kills
    assert sum(s.minions[s.board.loc("G1")]) == 0
    s = play(s, "end_day")
    assert len(s.slots[0].hand) == 3  # Helm of Power: one more card
    assert s.slots[0].actions == 5 + 2  # Boots of Speed


@pytest.mark.rule("DEF-CRD-03")
def test_spent_rewards_blessing_ward_tree_hunter_raids() -> None:
    s = scenario(("paladin", "rogue"), at={"paladin": "G3"}, ds=["ds1", "ds4"], rolls=[1, 3, 4])
    grant(s, "paladin", "q_blessing", "q_ward", "q_tree")
    grant(s, "rogue", "q_demons", "q_raids")
    s.taint[s.board.loc("K2")] = 1
    s.crystals_left -= 1
    s = play(s, "use_reward paladin q_tree K2")
    assert s.taint[s.board.loc("K2")] == 0
    give(s, "paladin", "G1e")
    s = play(
        s, "use_reward paladin q_blessing", "attack_general", "commit paladin G1e", "commit_done paladin"
    )
    assert s.generals[GREEN].wounds == 1  # the 1 did not parry: Gorgutt's skill is off
    s.slots[0].loc = s.board.loc("G2")
    put(s, "G2", green=2)
    s = play(s, "use_reward paladin q_ward", "end_day")
    assert s.slots[0].life == 5 - 1  # the penalty (2, armour ignores 1); the ward stops minion wounds
    # The rogue's Raids is for the end of its own turn: no night window for it in the paladin's.
    assert s.window.kind == "card"  # ds1 drawn: the rogue may cancel the red placement
    s = play(s, "use_reward rogue q_demons R1")
    assert s.minions[s.board.loc("R1")][RED] == 0
    assert {"q_blessing", "q_ward", "q_tree", "q_demons"} <= set(s.quest_deck.discard_pile)


@pytest.mark.rule("DEF-CRD-02")
def test_local_information_at_an_inn_and_raids_skip_the_night() -> None:
    deck = ["G1h", "R1h", "G2e", "sp_magic_gate", "B1h"]
    s = scenario(("paladin", "rogue"), at={"rogue": "Rest Inn"}, hero_deck=deck, ds=["ds1"])
    give(s, "paladin", "sp_local_information")
    assert "play paladin sp_local_information green" not in notations(s)  # the paladin is not at an inn
    s.slots[0].loc = s.board.loc("Rest Inn")
    s = play(s, "play paladin sp_local_information green")
    assert sorted(s.slots[0].hand) == ["G1h", "G2e", "sp_magic_gate"]
    grant(s, "rogue", "q_raids")
    s = play(s, "end_day")  # the paladin holds a magic gate; the rogue's Raids waits for its own turn
    assert s.window.kind == "night" and "use_reward rogue q_raids" not in notations(s)
    s.slots[1].rewards.remove("q_raids")  # the same card held by the paladin instead
    s.slots[0].rewards.append("q_raids")
    assert "use_reward paladin q_raids" in notations(s)
    s = play(s, "use_reward paladin q_raids", "pass")  # then passes on his magic gate
    assert sum(map(sum, s.minions)) == 0 and s.current == 1


@pytest.mark.rule("DEF-CRD-03")
def test_only_the_holder_decides_on_a_reward() -> None:
    s = scenario(("paladin", "rogue"))
    grant(s, "rogue", "q_tree")
    s.taint[s.board.loc("K2")] = 1
    s.crystals_left -= 1
    assert s.pending().player == 0
    assert not any(a.notation().startswith("use_reward rogue") for a in s.legal_actions())


@pytest.mark.rule("DEF-CRD-03")
def test_unicorn_steed_rerolls_failed_dice_in_every_combat() -> None:
    # The reward's text: failed dice are rolled again once in every combat, not once a turn.
    s = scenario(("paladin",), at={"paladin": "G1"}, ds=["quiet"], rolls=[1, 5, 2, 6, 4, 1, 2, 5])
    grant(s, "paladin", "q_unicorn")
    for _ in range(2):  # two fights in one turn: each re-rolls its miss
        put(s, "G1", blue=1)
        s = play(s, "fight G1")
        assert sum(s.minions[s.board.loc("G1")]) == 0
    # A fight against two kinds is one combat: both kinds' failed dice are rolled again.
    put(s, "G1", red=1, blue=1)
    s = play(s, "fight G1")  # red 4 kills; blue 1 misses, again 2 misses
    assert s.minions[s.board.loc("G1")] == [0, 0, 1, 0]
    s = play(s, "fight G1")  # a fourth combat this turn: 5 kills
    assert sum(s.minions[s.board.loc("G1")]) == 0


@pytest.mark.rule("DEF-CRD-02")
def test_battle_luck_rerolls_every_failed_die_of_one_combat_then_is_spent() -> None:
    # "In one combat, roll all of your failed dice again": the demon's and the dragonkin's failed
    # dice are both rolled again; the next fight has no re-roll.
    s = scenario(("paladin",), at={"paladin": "G1"}, ds=["quiet"], rolls=[1, 4, 2, 5, 1])
    give(s, "paladin", "sp_battle_luck")
    put(s, "G1", red=1, blue=1)
    s = play(s, "play paladin sp_battle_luck", "fight G1")
    assert sum(s.minions[s.board.loc("G1")]) == 0 and "luck" not in s.slots[0].turn
    put(s, "G1", blue=1)
    s = play(s, "fight G1")
    assert s.minions[s.board.loc("G1")] == [0, 0, 1, 0]


@pytest.mark.rule("DEF-CRD-03")
@pytest.mark.rule("DEF-GEN-07")
def test_amarak_blessing_used_by_a_hero_joining_the_battle_and_spent_with_it() -> None:
    # The rogue holds the blessing and joins the paladin's attack on Gorgutt: it may discard it
    # while committing (not only in its own Daytime); the paladin's 1 then parries nothing.
    s = scenario(("paladin", "rogue"), at={"paladin": "G3", "rogue": "G3"}, rolls=[5, 1], ds=["quiet"])
    grant(s, "rogue", "q_blessing")
    give(s, "paladin", "G1e")
    s = play(s, "attack_general", "join rogue", "commit paladin G1e", "commit_done paladin")
    assert "use_reward rogue q_blessing" in notations(s)
    s = play(s, "use_reward rogue q_blessing")
    assert "use_reward rogue q_blessing" not in notations(s)
    s = play(s, "commit_done rogue")
    assert s.generals[GREEN].wounds == 1  # 5 hits, the 1 does not parry
    assert "blessing" not in s.slots[1].turn and "q_blessing" in s.quest_deck.discard_pile


@pytest.mark.rule("DEF-CRD-03")
@pytest.mark.rule("DEF-CRD-02")
def test_carried_heroes_are_different_heroes_and_a_shaped_sorceress_is_never_carried_into_the_city() -> None:
    s = scenario(("paladin", "sorceress"), at={"sorceress": "G1"})
    s.slots[1].turn["shape"] = "green"  # she took the orcs' shape in her turn
    grant(s, "paladin", "q_gryphons")
    give(s, "paladin", "sp_hammer_of_valor")
    legal = notations(s)
    assert "play paladin sp_hammer_of_valor sorceress Monarch_City" not in legal
    assert "play paladin sp_hammer_of_valor sorceress Rest_Inn" not in legal
    assert "play paladin sp_hammer_of_valor sorceress K3" in legal
    s = play(s, "use_reward paladin q_gryphons", "pick hero sorceress")
    assert "pick to Monarch_City" not in notations(s) and "pick to Rest_Inn" not in notations(s)
    s = play(s, "pick to K3")
    assert "pick hero sorceress" not in notations(s) and "pick hero paladin" in notations(s)
