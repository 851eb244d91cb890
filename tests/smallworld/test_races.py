"""Small World of Warcraft: the 16 races' powers, each in a scenario on the test board (helpers)."""

from __future__ import annotations

import pytest

from warhorn.games.smallworld.rules import conquest_cost
from warhorn.games.smallworld.state import Stage

from .helpers import finish_turn, mine, play, refused, scenario, scored


@pytest.mark.rule("SWW-RAC-KOB")
def test_kobolds_enter_and_attack_through_caverns() -> None:
    s = scenario([{"active": {"race": "kobolds", "power": "fishing"}, "hand": 9}, {}])
    assert conquest_cost(s, 0, "s1").tokens == 2  # an entry cavern: no travel cost
    s = play(s, "conquer n3")  # a cavern that is no entry region, as a first conquest
    assert s.areas["n3"].owner == 0 and s.areas["n3"].tokens == 2
    s = play(s, "conquer s1")  # any cavern as if adjacent
    assert s.areas["s1"].tokens == 2


@pytest.mark.rule("SWW-RAC-DRA")
def test_draenei_keep_the_first_token_they_would_lose_each_opponent_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "fishing"}, "hand": 10},
            {"active": {"race": "draenei", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n2": mine(1, "draenei", 2),
            "n3": mine(1, "draenei", 2),
            "n8": mine(1, "draenei", 1),
        },
    )
    s = play(s, "conquer n2")
    assert s.players[1].returning == 2  # Holy Light: nothing lost
    s = play(s, "conquer n3")
    assert s.players[1].returning == 3  # the second loss is discarded


@pytest.mark.rule("SWW-RAC-BEL")
def test_blood_elves_score_magic_regions() -> None:
    s = scenario(
        [{"coins": 0, "active": {"race": "blood_elves", "power": "sailing"}}, {}],
        {"n1": mine(0, "blood_elves", 1), "n3": mine(0, "blood_elves", 1), "s3": mine(0, "blood_elves", 1)},
    )
    assert scored(s) == 3 + 2


@pytest.mark.rule("SWW-RAC-NEL")
def test_night_elves_take_forests_cheaper_and_leave_wisp_walls() -> None:
    s = scenario(
        [{"active": {"race": "night_elves", "power": "sailing"}, "hand": 5}, {}],
        {"n1": mine(0, "night_elves", 1)},
    )
    assert conquest_cost(s, 0, "n2").tokens == 1
    s = play(s, "conquer n2")
    assert s.areas["n2"].wisp_wall
    t = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 6}, {"declined": {"race": "night_elves"}}],
        {
            "n1": mine(0, "orcs", 1),
            "n2": {"owner": 1, "race": "night_elves", "declined": True, "tokens": 1, "wisp_wall": True},
        },
    )
    assert conquest_cost(t, 0, "n2").tokens == 4  # a token and the wall, still there in decline
    t = play(t, "conquer n2")
    assert not t.areas["n2"].wisp_wall


@pytest.mark.rule("SWW-RAC-ETH")
def test_ethereals_steal_an_artifact_or_take_a_place_cheaper_once_a_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "ethereals", "power": "sailing"}, "hand": 4},
            {"active": {"race": "orcs", "power": "fishing"}},
        ],
        {
            "n1": mine(0, "ethereals", 1),
            "n3": mine(1, "orcs", 2, markers=["frostmourne"]),
            "n2": mine(1, "orcs", 1, markers=["dark_portal"]),
        },
    )
    assert conquest_cost(s, 0, "n2", "ethereal").tokens == 1
    s2 = play(s, "steal n3 n1")
    assert s2.areas["n1"].markers == ("frostmourne",) and s2.areas["n3"].markers == ()
    assert "SWW-RAC-ETH" in refused(s2, "conquer n2 via ethereal")
    s3 = play(s, "conquer n2 via ethereal")
    assert s3.areas["n2"].owner == 0 and s3.areas["n2"].tokens == 1
    assert "SWW-RAC-ETH" in refused(s3, "steal n3 n1")


@pytest.mark.rule("SWW-RAC-GNO")
def test_gnomes_airborne_assault_anywhere_with_a_free_die() -> None:
    s = scenario(
        [{"active": {"race": "gnomes", "power": "sailing"}, "hand": 2}, {}],
        {"n1": mine(0, "gnomes", 1), "s2": {"race": "murlocs", "tokens": 2}},
        rolls=[5],
    )
    assert conquest_cost(s, 0, "s2", "airborne").tokens == 4
    won = play(s, "conquer s2 via airborne")  # free die 2: 4 - 2 = 2 tokens
    assert won.areas["s2"].owner == 0 and won.areas["s2"].tokens == 2
    twice = scenario(
        [{"active": {"race": "gnomes", "power": "sailing"}, "hand": 2}, {}],
        {"n1": mine(0, "gnomes", 1), "s2": {"race": "murlocs", "tokens": 3}},
        rolls=[4, 6],
    )
    twice = play(twice, "conquer s2 via airborne")  # 5 - 1 = 4, 2 short: the final roll gives 3
    assert twice.areas["s2"].owner == 0 and twice.stage is not Stage.CONQUER


@pytest.mark.rule("SWW-RAC-GOB")
def test_goblin_bombs_lie_face_down_and_go_off_next_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "goblins", "power": "sailing"}},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "goblins", 1),
            "n3": mine(1, "humans", 3),
            "n2": mine(1, "humans", 1),
            "n8": mine(1, "humans", 1),
        },
        bombs=[False, True, True],  # the top of the stack is last
    )
    s = finish_turn(s)
    assert s.areas["n2"].bomb_by == 0 and s.areas["n3"].bomb_by == 0 and s.areas["n8"].bomb_by is None
    assert "explodes" not in str(s.view(1)["regions"]["n2"]) and s.view(1)["regions"]["n2"]["bomb"] == {
        "by": 0
    }
    live = {r: s.areas[r].bomb_live for r in ("n2", "n3")}
    assert sorted(live.values()) == [True, True]
    s.areas["n3"].bomb_live = False  # make n3 a dud for the test
    s.bombs.append(True)
    s = play(s, "abandon n2")  # the Humans empty n2: its bomb goes back on the stack
    assert s.areas["n2"].bomb_by is None and s.bombs[-1] is True
    s = finish_turn(s)
    assert s.current == 0 and s.areas["n3"].owner == 1 and s.areas["n3"].bomb_by is None  # a dud
    t = scenario(
        [
            {"active": {"race": "goblins", "power": "sailing"}},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "goblins", 1),
            "n3": mine(1, "humans", 3, bomb_by=0, bomb_live=True),
            "n8": mine(1, "humans", 1),
        },
        start_turn=True,
    )
    assert t.areas["n3"].race is None and t.players[1].returning == 2  # exploded: emptied, one lost


@pytest.mark.rule("SWW-RAC-NAG")
def test_naga_take_seas_and_lakes_and_keep_them_in_decline() -> None:
    s = scenario([{"active": {"race": "naga", "power": "sailing"}, "hand": 6}, {}])
    assert conquest_cost(s, 0, "n6").tokens == 2
    s = play(s, "conquer n6", "conquer n7")
    assert s.areas["n6"].owner == 0
    s = finish_turn(s)
    s = play(s, "pick 0")
    s = finish_turn(s)
    s = play(s, "decline")
    assert s.areas["n6"].race == "naga" and s.areas["n6"].declined


@pytest.mark.rule("SWW-RAC-DWA")
def test_dwarves_take_mountains_for_two_less() -> None:
    s = scenario(
        [{"active": {"race": "dwarves", "power": "sailing"}, "hand": 5}, {}],
        {"n3": mine(0, "dwarves", 1), "n4": {"mountain": True}},
    )
    assert conquest_cost(s, 0, "n4").tokens == 1


@pytest.mark.rule("SWW-RAC-ORC")
def test_orcs_earn_a_coin_per_alliance_region_on_top_of_the_faction_bonus() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "sailing"}, "hand": 10},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n2": mine(1, "humans", 1),
            "n3": mine(1, "humans", 1),
            "n8": mine(1, "humans", 1),
        },
    )
    s = play(s, "conquer n2", "conquer n3")
    assert s.players[0].coins == 2
    assert scored(s) == 3 + 1  # regions, one faction bonus for the Humans


@pytest.mark.rule("SWW-RAC-PAN")
def test_pandaren_hand_out_harmony_and_are_paid_before_an_attack() -> None:
    s = scenario(
        [
            {"active": {"race": "pandaren", "power": "sailing"}},
            {"coins": 2, "active": {"race": "orcs", "power": "fishing"}, "hand": 5},
            {"coins": 5},
        ],
        {"n1": mine(0, "pandaren", 1), "n3": mine(1, "orcs", 1)},
    )
    s = finish_turn(s)
    assert s.players[1].harmony_from == 0 and s.players[2].harmony_from == 0  # neither was attacked
    cost = conquest_cost(s, 1, "n1")
    assert cost.coins == 2
    s = play(s, "conquer n1")
    assert s.players[1].coins == 0 and s.players[0].coins > 2 and s.players[1].harmony_from is None
    broke = scenario(
        [
            {"active": {"race": "pandaren", "power": "sailing"}},
            {"coins": 1, "active": {"race": "orcs", "power": "fishing"}, "hand": 5, "harmony_from": 0},
        ],
        {"n1": mine(0, "pandaren", 1), "n3": mine(1, "orcs", 1)},
        current=1,
    )
    assert "SWW-RAC-PAN" in refused(broke, "conquer n1")


@pytest.mark.rule("SWW-RAC-FOR")
def test_forsaken_buy_a_token_for_each_token_they_make_a_race_lose() -> None:
    s = scenario(
        [
            {"coins": 5, "active": {"race": "forsaken", "power": "sailing"}, "hand": 9},
            {"active": {"race": "humans", "power": "farmer"}, "declined": {"race": "orcs"}},
        ],
        {
            "n1": mine(0, "forsaken", 1),
            "n2": mine(1, "humans", 2),
            "n3": {"owner": 1, "race": "orcs", "declined": True, "tokens": 1},
            "n8": mine(1, "humans", 1),
        },
    )
    s = play(s, "conquer n2", "conquer n3", "end")
    assert s.stage is Stage.RECRUIT
    assert {a.notation() for a in s.legal_actions()} == {"recruit 0", "recruit 1", "recruit 2"}
    s = play(s, "recruit 2")
    assert s.players[0].coins == 3 and s.players[0].hand >= 2


@pytest.mark.rule("SWW-RAC-TAU")
def test_tauren_never_hold_a_region_with_fewer_than_two_tokens() -> None:
    s = scenario(
        [{"active": {"race": "tauren", "power": "blacksmith"}, "hand": 6}, {}], {"n1": mine(0, "tauren", 2)}
    )
    assert conquest_cost(s, 0, "n3").tokens == 2  # 2 - 1 blacksmith = 1, raised to 2
    s = play(s, "conquer n3")
    assert s.areas["n3"].tokens == 2
    d = scenario(
        [{"active": {"race": "tauren", "power": "sailing"}}, {}],
        {"n1": mine(0, "tauren", 4), "n3": mine(0, "tauren", 3)},
        start_turn=True,
    )
    assert d.areas["n1"].tokens == 2 and d.players[0].hand == 3  # readied: 2 stay
    d = play(d, "decline")
    assert d.areas["n1"].tokens == 2 and d.areas["n3"].tokens == 2


@pytest.mark.rule("SWW-RAC-TRO")
def test_trolls_take_non_empty_regions_for_one_less() -> None:
    s = scenario(
        [{"active": {"race": "trolls", "power": "sailing"}, "hand": 5}, {}],
        {"n1": mine(0, "trolls", 1), "n3": {"race": "murlocs", "tokens": 1}},
    )
    assert conquest_cost(s, 0, "n3").tokens == 2 and conquest_cost(s, 0, "n2").tokens == 2


@pytest.mark.rule("SWW-RAC-HUM")
def test_humans_lay_military_objectives_that_pay_non_horde_conquerors() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "humans", "power": "sailing"}},
            {"coins": 0, "active": {"race": "naga", "power": "fishing"}, "hand": 6},
        ],
        {"n1": mine(0, "humans", 1), "n3": mine(1, "naga", 1), "n8": mine(1, "naga", 1)},
    )
    s = play(s, "end")
    assert s.stage is Stage.OBJECTIVE
    assert "SWW-RAC-HUM" in refused(s, "objective n1")  # a Humans (Alliance) region
    s = play(s, "objective n2", "objective n3")
    assert s.areas["n2"].objective and s.areas["n3"].objective and s.current == 1
    s = play(s, "conquer n2")
    assert s.players[1].coins == 2 and s.players[0].coins == 1 + 2 and not s.areas["n2"].objective


@pytest.mark.rule("SWW-RAC-HUM")
def test_a_horde_conqueror_gains_nothing_and_the_objective_stays() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "sailing"}, "hand": 5},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": {"objective": True}},
    )
    s = play(s, "conquer n3")
    assert s.players[0].coins == 0 and s.areas["n3"].objective


@pytest.mark.rule("SWW-RAC-WOR")
def test_worgen_choose_human_or_worgen_form_each_turn() -> None:
    s = scenario(
        [{"coins": 3, "active": {"race": "worgen", "power": "sailing"}, "picked_turn": -3}, {}],
        {"n1": mine(0, "worgen", 3)},
        start_turn=True,
    )
    assert s.stage is Stage.FORM
    human = play(s, "form human")
    assert human.players[0].coins == 5 and conquest_cost(human, 0, "n3").tokens == 2
    wolf = play(s, "form worgen")
    assert wolf.players[0].coins == 2 and conquest_cost(wolf, 0, "n3").tokens == 1


@pytest.mark.rule("SWW-RAC-FOR")
def test_murlocs_count_for_the_forsaken_only_with_the_option() -> None:
    def kills(option: bool) -> int:
        s = scenario(
            [{"coins": 5, "active": {"race": "forsaken", "power": "sailing"}, "hand": 5}, {}],
            {"n1": mine(0, "forsaken", 1), "n3": {"race": "murlocs", "tokens": 1}},
            options={"forsaken_count_murlocs": option},
        )
        return play(s, "conquer n3").turn.kills

    assert (kills(False), kills(True)) == (0, 1)


@pytest.mark.rule("SWW-RAC-TAU")
def test_a_tauren_token_left_alone_by_intimidation_leaves_with_the_other() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "intimidating"}},
            {"active": {"race": "tauren", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(1, "tauren", 2), "n8": mine(1, "tauren", 2)},
    )
    s = play(s, "intimidate n3")
    assert s.areas["n3"].race is None and s.players[1].returning == 2


@pytest.mark.rule("SWW-RAC-GOB")
@pytest.mark.rule("SWW-ART-04")
def test_a_bomb_under_the_aegis_costs_the_goblins_two_coins() -> None:
    s = scenario(
        [
            {"coins": 2, "active": {"race": "goblins", "power": "sailing"}},
            {"coins": 0, "active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "goblins", 1),
            "n2": mine(1, "humans", 1, markers=["aegis_of_aggramar"]),
            "n3": mine(1, "humans", 1),
        },
    )
    s = play(s, "end")
    assert s.stage is Stage.BOMB
    s = play(s, "bomb n2")  # the Aegis is passed for 2 coins to its holder
    assert s.areas["n2"].bomb_by == 0 and s.players[0].coins == 0 and s.players[1].coins == 2
    assert "SWW-RAC-GOB" in refused(s, "bomb n2")  # one bomb per region
    broke = scenario(
        [
            {"coins": 1, "active": {"race": "goblins", "power": "sailing"}},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "goblins", 1), "n2": mine(1, "humans", 1, markers=["aegis_of_aggramar"])},
        stage="bomb",
    )
    assert "SWW-ART-04" in refused(broke, "bomb n2")
