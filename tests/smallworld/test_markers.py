"""Small World of Warcraft: artifacts and legendary places - face down until entered, then each
one's effect - in scenarios on the test board (helpers)."""

from __future__ import annotations

import pytest

from warhorn.games.smallworld.rules import conquest_cost
from warhorn.games.smallworld.state import Stage

from .helpers import mine, play, refused, scenario, scored


def test_a_face_down_marker_is_revealed_when_a_race_enters() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 5}, {}],
        {"n8": mine(0, "orcs", 1), "n7": {"hidden_marker": "dark_portal"}},
    )
    assert s.view(1)["regions"]["n7"]["face_down_marker"] is True
    s, events = s.apply(s.parse("conquer n7"))
    assert s.areas["n7"].markers == ("dark_portal",) and s.areas["n7"].hidden_marker is None
    assert any(e.kind == "reveal" for e in events)


@pytest.mark.rule("SWW-ART-01")
def test_doomhammer_takes_any_region_with_one_token_for_two_coins_to_its_holder() -> None:
    s = scenario(
        [
            {"coins": 2, "active": {"race": "orcs", "power": "sailing"}, "hand": 2},
            {"coins": 0, "active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1, markers=["doomhammer"]),
            "s2": mine(1, "humans", 4),
            "s3": mine(1, "humans", 1),
        },
    )
    assert conquest_cost(s, 0, "s2", "doomhammer").tokens == 1
    s = play(s, "conquer s2 via doomhammer")
    assert s.areas["s2"].owner == 0 and s.areas["s2"].tokens == 1
    assert s.players[0].coins == 0 + 1 and s.players[1].coins == 2  # +1: Orcs took an Alliance region
    assert "SWW-ART-01" in refused(s, "conquer s3 via doomhammer")


@pytest.mark.rule("SWW-ART-02")
def test_ashes_of_alar_reach_any_region_at_the_normal_cost() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 6}, {}],
        {"n1": mine(0, "orcs", 1, markers=["ashes_of_alar"]), "s2": {"race": "murlocs", "tokens": 1}},
    )
    assert "SWW-CNQ-02" in refused(s, "conquer s2")
    assert conquest_cost(s, 0, "s2", "alar").tokens == 3
    s = play(s, "conquer s2 via alar")
    assert s.areas["s2"].owner == 0
    assert "SWW-ART-02" in refused(s, "conquer n7 via alar")


@pytest.mark.rule("SWW-ART-03")
def test_the_heart_of_azeroth_is_laid_and_charges_active_neighbours() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "sailing"}},
            {"coins": 3, "active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1, markers=["heart_of_azeroth"]),
            "n3": mine(0, "orcs", 1),
            "n4": mine(1, "humans", 1),
        },
    )
    s = play(s, "end")
    assert s.stage is Stage.PLACE
    s, events = s.apply(s.parse("place heart_of_azeroth n3"))
    assert s.areas["n3"].markers == ("heart_of_azeroth",)
    assert s.players[1].coins == 2 and s.players[0].coins == 2 + 1
    paid = next(e for e in events if e.kind == "payment")
    assert paid.for_player(0) is not None and "coins" not in dict(paid.for_player(None).data)  # type: ignore[union-attr]


@pytest.mark.rule("SWW-ART-04")
def test_the_aegis_shields_a_region_unless_the_attacker_pays_two() -> None:
    s = scenario(
        [
            {"coins": 2, "active": {"race": "naga", "power": "sailing"}, "hand": 5},
            {"coins": 0, "active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "naga", 1),
            "n3": mine(1, "humans", 1, markers=["aegis_of_aggramar"]),
            "n8": mine(1, "humans", 1),
        },
    )
    assert conquest_cost(s, 0, "n3").coins == 2
    s = play(s, "conquer n3")
    assert s.players[0].coins == 0 and s.players[1].coins == 2
    poor = scenario(
        [
            {"coins": 1, "active": {"race": "naga", "power": "sailing"}, "hand": 5},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "naga", 1), "n3": mine(1, "humans", 1, markers=["aegis_of_aggramar"])},
    )
    assert "SWW-ART-04" in refused(poor, "conquer n3")


@pytest.mark.rule("SWW-ART-05")
def test_frostmourne_takes_two_tokens_off_one_conquest_a_turn() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 6}, {}],
        {"n1": mine(0, "orcs", 1, markers=["frostmourne"]), "n3": {"race": "murlocs", "tokens": 2}},
    )
    assert conquest_cost(s, 0, "n3", "frostmourne").tokens == 2
    s = play(s, "conquer n3 via frostmourne")
    assert s.players[0].hand == 4 and "SWW-ART-05" in refused(s, "conquer n2 via frostmourne")


@pytest.mark.rule("SWW-LEG-01")
def test_the_battleground_doubles_the_faction_bonus_and_lets_neutrals_side() -> None:
    regions = {
        "n1": mine(0, "RACE", 1, markers=["battleground"]),
        "n2": mine(1, "humans", 1),
        "n3": mine(1, "humans", 1),
        "n8": mine(1, "humans", 1),
    }

    def game(race: str) -> int:
        s = scenario(
            [
                {"coins": 0, "active": {"race": race, "power": "sailing"}, "hand": 8},
                {"active": {"race": "humans", "power": "farmer"}},
            ],
            {k: {**v, "race": race} if v["race"] == "RACE" else v for k, v in regions.items()},
        )
        s = play(s, "conquer n2", "conquer n3")
        return scored(s)

    assert game("trolls") == 3 + 2  # 3 regions; Humans beaten twice: 2 with the Battleground
    # A neutral race's player chooses its side (the helper takes the first choice, the Alliance).
    assert game("naga") == 3  # with the Alliance: beating the Humans pays nothing


@pytest.mark.rule("SWW-LEG-02")
def test_lights_hope_chapel_spares_the_defenders_loss() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "sailing"}, "hand": 6},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n3": mine(1, "humans", 2, markers=["lights_hope_chapel"]),
            "n8": mine(1, "humans", 1),
        },
    )
    s = play(s, "conquer n3")
    assert s.players[1].returning == 2


@pytest.mark.rule("SWW-LEG-03")
def test_karazhan_pays_for_other_regions_of_its_terrain() -> None:
    s = scenario(
        [{"coins": 0, "active": {"race": "orcs", "power": "sailing"}}, {}],
        {
            "n1": mine(0, "orcs", 1, markers=["karazhan"]),
            "n7": mine(0, "orcs", 1),
            "s1": mine(0, "orcs", 1),
            "n3": mine(0, "orcs", 1),
        },
    )
    assert scored(s) == 4 + 2


@pytest.mark.rule("SWW-LEG-04")
def test_the_meeting_stone_waives_the_travel_cost() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 5}, {}],
        {"n1": mine(0, "orcs", 1, markers=["meeting_stone"])},
    )
    assert conquest_cost(s, 0, "s1").tokens == 2


@pytest.mark.rule("SWW-LEG-05")
def test_the_dark_portal_pays_two() -> None:
    s = scenario(
        [{"coins": 0, "active": {"race": "orcs", "power": "sailing"}}, {}],
        {"n1": mine(0, "orcs", 1, markers=["dark_portal"])},
    )
    assert scored(s) == 1 + 2


@pytest.mark.rule("SWW-LEG-06")
def test_the_well_of_eternity_moves_to_its_lake_and_pays_the_race_around_it() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "sailing"}, "hand": 4},
            {"declined": {"race": "humans"}},
        ],
        {
            "n8": mine(0, "orcs", 1),
            "n7": {"hidden_marker": "well_of_eternity"},
            "n1": mine(0, "orcs", 1),
            "n5": {"owner": 1, "race": "humans", "declined": True, "tokens": 1},
        },
    )
    s = play(s, "conquer n7")
    assert s.areas["n6"].markers == ("well_of_eternity",) and s.areas["n7"].markers == ()
    assert scored(s) == 3 + 2  # n1, n7, n8 around the lake against the Humans' n5
    tie = scenario(
        [{"coins": 0, "active": {"race": "orcs", "power": "sailing"}}, {"declined": {"race": "humans"}}],
        {
            "n6": {"markers": ["well_of_eternity"]},
            "n1": mine(0, "orcs", 1),
            "n5": {"owner": 1, "race": "humans", "declined": True, "tokens": 1},
        },
    )
    assert scored(tie) == 1  # one region each: nobody gets the bonus


@pytest.mark.rule("SWW-LEG-06")
def test_a_well_on_an_island_without_water_draws_another_place() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 4}, {}],
        {"n8": mine(0, "orcs", 1), "n7": {"hidden_marker": "well_of_eternity"}},
        box_markers=["karazhan"],
    )
    s.index.regions["n6"] = s.index.regions["n6"].__class__(
        **{**s.index.regions["n6"].__dict__, "terrain": "hill"}
    )
    s = play(s, "conquer n7")
    assert s.areas["n7"].markers == ("karazhan",) and "well_of_eternity" in s.box_markers


@pytest.mark.rule("SWW-LEG-07")
def test_the_spirit_healer_adds_a_token_at_redeployment() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "sailing"}, "hand": 0}, {}],
        {"n1": mine(0, "orcs", 1, markers=["spirit_healer"]), "n3": mine(0, "orcs", 1)},
    )
    s = play(s, "end")
    assert s.stage is Stage.REDEPLOY and s.players[0].hand == 1
    s = play(s, "deploy n3 1")
    assert s.tokens_on_board(0) == 3 and s.current == 1
