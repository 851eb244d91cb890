"""Small World of Warcraft: the 20 special powers, each in a scenario on the test board (helpers)."""

from __future__ import annotations

import pytest

from warhorn.games.smallworld.rules import conquest_cost

from .helpers import finish_turn, mine, play, refused, scenario, scored

ALL = {r: mine(0, "orcs", 1) for r in ("n1", "n2", "n3", "n4", "n5", "n7", "n8", "s1", "s2", "s3")}


@pytest.mark.parametrize(
    ("power", "bonus"),
    [
        pytest.param("farmer", 3, marks=pytest.mark.rule("SWW-POW-PEA")),  # n1 n7 s1
        pytest.param("ranger", 2, marks=pytest.mark.rule("SWW-POW-RAN")),  # n2 s2
        pytest.param("herbalist", 3, marks=pytest.mark.rule("SWW-POW-HER")),  # n3 n8 s3
        pytest.param("mountaineer", 1, marks=pytest.mark.rule("SWW-POW-MOU")),  # n4
        pytest.param("swamp_walker", 1, marks=pytest.mark.rule("SWW-POW-SWA")),  # n5
        pytest.param("mining", 2, marks=pytest.mark.rule("SWW-POW-MIN")),  # n3 s1
        pytest.param("explorer", 2, marks=pytest.mark.rule("SWW-POW-EXP")),  # two islands
        pytest.param("fishing", 8, marks=pytest.mark.rule("SWW-POW-FIS")),  # next to the lake n6 or sea s4
        pytest.param("sailing", 0, marks=pytest.mark.rule("SWW-MAP-01")),  # terrain alone pays nothing
    ],
)
def test_region_powers_pay_one_coin_per_matching_region(power: str, bonus: int) -> None:
    s = scenario([{"coins": 0, "active": {"race": "orcs", "power": power}}, {}], ALL)
    assert scored(s) == len(ALL) + bonus


@pytest.mark.rule("SWW-POW-ARC")
def test_archaeologists_count_artifacts_and_places() -> None:
    s = scenario(
        [{"coins": 0, "active": {"race": "orcs", "power": "archaeologist"}}, {}],
        {"n1": mine(0, "orcs", 1, markers=["frostmourne", "karazhan"]), "n3": mine(0, "orcs", 1)},
    )
    assert scored(s) == 2 + 2


@pytest.mark.rule("SWW-POW-CHA")
def test_the_champion_conquers_an_adjacent_region_for_free_and_is_ransomed() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "championing"}, "hand": 0, "hand_champion": True},
            {"coins": 3, "active": {"race": "humans", "power": "farmer"}, "hand": 5},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(1, "humans", 4, fort=True), "n6": {}},
    )
    assert "SWW-POW-CHA" in refused(s, "conquer s1 via champion")  # not adjacent
    s = play(s, "conquer n3 via champion")
    assert s.areas["n3"].champion and s.areas["n3"].tokens == 0 and s.areas["n3"].owner == 0
    assert s.players[1].returning == 3 and not s.areas["n3"].fort
    assert "SWW-POW-CHA" in refused(s, "conquer n2 via champion")  # once per turn
    # Someone takes the Champion's region: no token lost, 1 coin ransom, the Champion redeploys.
    t = scenario(
        [
            {"coins": 2, "active": {"race": "orcs", "power": "championing"}},
            {"coins": 0, "active": {"race": "humans", "power": "farmer"}, "hand": 5},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(0, "orcs", 1, champion=True), "n2": mine(1, "humans", 1)},
        current=1,
    )
    assert conquest_cost(t, 1, "n3").tokens == 4  # token + champion
    t = play(t, "conquer n3")
    assert t.players[0].returning == 1 and t.players[0].returning_champion
    assert t.players[0].coins == 1 and t.players[1].coins == 1


@pytest.mark.rule("SWW-POW-GAR")
def test_garrisoned_builds_forts_that_stay_in_decline() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "garrisoned"}}, {}],
        {"n1": mine(0, "orcs", 1), "n3": mine(0, "orcs", 1)},
    )
    s = finish_turn(s)
    assert s.areas["n1"].fort and s.areas["n3"].fort
    s = play(s, "pick 0")
    s = finish_turn(s)  # player 1 picks and conquers nothing
    s = play(s, "decline")
    assert s.areas["n1"].fort and s.players[0].declined is not None
    assert s.players[0].declined.power == "garrisoned"


@pytest.mark.rule("SWW-POW-DEF")
def test_defensive_towers_make_majority_fields_immune() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "defensive"}},
            {"active": {"race": "humans", "power": "farmer"}, "hand": 8},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n2": mine(0, "orcs", 1),
            "n3": mine(0, "orcs", 1),
            "n7": mine(0, "orcs", 1),
            "n5": mine(1, "humans", 1),
            "n8": mine(1, "humans", 1),
        },
    )
    s = finish_turn(s)
    assert s.areas["n1"].watchtower  # n2, n3 are the Orcs' (2 against 0)
    assert not s.areas["n7"].watchtower  # n5, n8 Humans (2) against none
    assert "SWW-POW-DEF" in refused(s, "conquer n1")


@pytest.mark.rule("SWW-POW-BOG")
def test_marshdwellers_charge_a_coin_for_their_swamps_even_in_decline() -> None:
    s = scenario(
        [
            {"coins": 1, "active": {"race": "naga", "power": "fishing"}, "hand": 5},
            {"coins": 0, "declined": {"race": "humans", "power": "marshdweller"}},
        ],
        {"n4": mine(0, "naga", 1), "n5": {"owner": 1, "race": "humans", "declined": True, "tokens": 1}},
    )
    cost = conquest_cost(s, 0, "n5")
    assert cost.coins == 1 and cost.payments[0][:2] == (1, 1)
    s = play(s, "conquer n5")
    assert s.players[0].coins == 0 and s.players[1].coins == 1
    broke = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "fishing"}, "hand": 5},
            {"active": {"race": "humans", "power": "marshdweller"}},
        ],
        {"n4": mine(0, "orcs", 1), "n5": mine(1, "humans", 1)},
    )
    assert "SWW-POW-BOG" in refused(broke, "conquer n5")


@pytest.mark.rule("SWW-POW-BLA")
def test_blacksmiths_conquer_for_one_token_less() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "blacksmith"}, "hand": 5}, {}], {"n1": mine(0, "orcs", 1)}
    )
    assert conquest_cost(s, 0, "n3").tokens == 1
    s.areas["n4"].mountain = True
    assert conquest_cost(s, 0, "n4").tokens == 2  # 2 + mountain - 1
    assert conquest_cost(s, 0, "n2").tokens == 1 and conquest_cost(s, 0, "s1").tokens == 2


@pytest.mark.rule("SWW-POW-ENR")
def test_enraged_earn_the_number_of_defending_tokens_from_two_up() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "enraged"}, "hand": 11 - 1},
            {"declined": {"race": "kobolds"}, "active": {"race": "naga", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n3": mine(1, "naga", 3),
            "n2": {"owner": 1, "race": "kobolds", "declined": True, "tokens": 1},
        },
    )
    s = play(s, "conquer n3", "conquer n2")
    assert s.players[0].coins == 3


@pytest.mark.rule("SWW-POW-BEA")
def test_beast_masters_take_a_beast_per_hill_and_lose_a_beast_first() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "beast_master"}, "picked_turn": -9}, {}],
        {"n3": mine(0, "orcs", 1, beasts=2), "n8": mine(0, "orcs", 1), "s1": mine(0, "orcs", 1)},
        start_turn=True,
    )
    assert s.players[0].hand_beasts == 2 and s.areas["n3"].beasts == 0  # old beasts gone, 2 hills
    assert conquest_cost(s, 0, "n2").tokens == 2
    s = play(s, "conquer n2")
    assert s.areas["n2"].beasts == 2 and s.areas["n2"].tokens == 0
    t = scenario(
        [
            {"active": {"race": "humans", "power": "farmer"}},
            {"active": {"race": "orcs", "power": "beast_master"}},
        ],
        {"n2": mine(1, "orcs", 1, beasts=2), "n1": mine(0, "humans", 1), "n8": mine(1, "orcs", 1)},
    )
    t.players[0].hand = 6
    t = play(t, "conquer n2")
    assert t.players[1].returning == 1 and t.players[1].returning_beasts == 1


@pytest.mark.rule("SWW-POW-WAR")
def test_battle_masters_earn_a_coin_per_non_empty_conquest() -> None:
    s = scenario(
        [{"coins": 0, "active": {"race": "orcs", "power": "battle_master"}, "hand": 9}, {}],
        {"n1": mine(0, "orcs", 1), "n3": {"race": "murlocs", "tokens": 1}},
    )
    s = play(s, "conquer n3", "conquer n2")
    assert s.players[0].coins == 1


@pytest.mark.rule("SWW-POW-POR")
def test_portal_mages_swap_two_magic_regions_twice_a_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "portal_mage"}},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n7": mine(1, "humans", 3, fort=True, markers=["dark_portal", "frostmourne"]),
            "s3": mine(0, "orcs", 2),
        },
    )
    s = play(s, "portal n1 n7")
    assert s.areas["n1"].owner == 1 and s.areas["n1"].tokens == 3 and s.areas["n1"].fort
    assert s.areas["n7"].owner == 0 and s.areas["n7"].markers == ("dark_portal",)  # places stay
    assert s.areas["n1"].markers == ("frostmourne",)  # artifacts move
    s = play(s, "portal n7 s3")
    assert "SWW-POW-POR" in refused(s, "portal n1 s3")  # twice per turn


@pytest.mark.rule("SWW-POW-SAI")
def test_sailors_pay_no_travel_cost() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 5}, {}], {"n1": mine(0, "orcs", 1)}
    )
    assert conquest_cost(s, 0, "s1").tokens == 2
    first = scenario([{"active": {"race": "orcs", "power": "sailing"}, "hand": 5}, {}])
    assert conquest_cost(first, 0, "n1").tokens == 2


@pytest.mark.rule("SWW-POW-MEN")
def test_intimidating_moves_neighbouring_tokens_three_times_a_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "intimidating"}, "hand": 3},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n3": mine(1, "humans", 2, fort=True),
            "n8": mine(1, "humans", 1),
            "n2": {"race": "murlocs", "tokens": 1},
        },
    )
    s = play(s, "intimidate n3")
    assert not s.areas["n3"].fort and s.areas["n3"].tokens == 2  # the fort goes first
    s = play(s, "intimidate n3")
    assert s.areas["n3"].tokens == 1 and s.players[1].returning == 1
    s = play(s, "intimidate n2")
    assert s.areas["n2"].race is None  # Murlocs are discarded
    assert "three times" in refused(s, "intimidate n3")
    s = finish_turn(s)
    assert s.areas["n8"].tokens + s.areas["n3"].tokens + s.players[1].hand == 3  # moved, not lost


@pytest.mark.rule("SWW-POW-DEF")
def test_watch_towers_go_when_the_race_declines_unless_the_option_keeps_them() -> None:
    def tower_after_decline(option: bool) -> bool:
        s = scenario(
            [{"active": {"race": "orcs", "power": "defensive"}, "picked_turn": -4}, {}],
            {"n1": mine(0, "orcs", 1, watchtower=True), "n2": mine(0, "orcs", 1)},
            options={"towers_stay_in_decline": option},
        )
        return play(s, "decline").areas["n1"].watchtower

    assert (tower_after_decline(False), tower_after_decline(True)) == (False, True)
