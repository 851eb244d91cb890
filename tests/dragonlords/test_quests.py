"""Quest parties on the Wastelands tracks in a game (DLR-QST-*, DLR-MON-*, DLX-FAQ-01/02/04).

The northern track: Hammerdeep borders square 0 (a quest square); square 3 is the Witch's
chamber; square 7 is Lanternford Village, reached from Lanternstair. The southern track ends at
the Dragon's Lair (square 7), reached from Cinder Pass and Vinewall. Crystal die faces: 1-2
Blessed, 3-4 Ignored, 5-6 Cursed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from .helpers import act, build, dice, force, kinds, legal, until

KINGS = {
    "gorefort": force(0, 2, {"id": 10, "token": "king"}),
    "khaz_thurn": force(1, 2, {"id": 20, "token": "king"}),
}


def quest_position(**extra: object):
    spaces = dict(KINGS)
    spaces.update(extra.pop("spaces", {}))  # type: ignore[arg-type]
    return build(phase="quest", spaces=spaces, **extra)


@pytest.mark.rule("DLR-QST-01")
@pytest.mark.rule("DLR-QST-07")
def test_a_party_of_one_to_six_units_enters_from_a_territory_by_the_track() -> None:
    state = quest_position(spaces={"hammerdeep": force(0, 8)}, quest_deck=["bandit_camp", "oracle"])
    parties = {a for a in legal(state) if a.startswith("party north hammerdeep")}
    sizes = {int(a.split()[3]) for a in parties}
    assert sizes and max(sizes) <= 6 and 0 not in sizes
    dice(state, 1, 3)  # a roll of 1 stops on the entry square; the crystal die shows Ignored
    state, _ = act(state, "party north hammerdeep 3")
    party = state.parties[(0, "north")]
    assert party.square == 0 and party.force.units == 3 and party.gold == 5  # Bandit Camp, Ignored
    assert party.torch and party.pickaxe and not state.players[0].torch_home
    assert state.spaces["hammerdeep"].units == 5
    assert not any(a.startswith("party north") for a in legal(state))  # one party a track a turn
    assert state.quest_deck.draw_pile == ("oracle", "bandit_camp")  # the card drawn goes to the bottom


@pytest.mark.rule("DLR-QST-04")
@pytest.mark.rule("DLR-BUY-02")
@pytest.mark.rule("DLX-FAQ-02")
def test_a_party_that_stops_in_the_village_buys_items() -> None:
    state = quest_position(
        spaces={"lanternstair": force(0, 3)}, players=[{"people": "orcs", "gold": 7}, {"people": "dwarves"}]
    )
    dice(state, 1)  # from the bridge the Village is the first square
    state, _ = act(state, "party north lanternstair 1")
    assert state.parties[(0, "north")].square == 7
    assert "item north potion" in legal(state) and "item north ring_of_fire" not in legal(
        state
    )  # 5 and 20 gold
    state, _ = act(state, "item north potion")
    assert state.players[0].gold == 2 and state.parties[(0, "north")].force.item_list() == ["potion"]
    elsewhere = quest_position(
        spaces={"hammerdeep": force(0, 3)},
        parties=[{"owner": 0, "track": "north", "square": 1, "force": force(0, 2)}],
    )
    assert not any(a.startswith("item") for a in legal(elsewhere))


@pytest.mark.rule("DLR-QST-09")
@pytest.mark.rule("DLR-QST-02")
def test_a_party_leaving_the_track_brings_its_gold_to_the_purse_and_its_treasure_home() -> None:
    state = quest_position(
        spaces={"hammerdeep": force(0, 1)},
        players=[{"people": "orcs", "gold": 0, "torch_home": False}, {"people": "dwarves"}],
        parties=[
            {
                "owner": 0,
                "track": "north",
                "square": 1,
                "gold": 10,
                "torch": True,
                "force": force(0, 1, {"id": 30, "items": ["ring_of_hope"]}),
            }
        ],
    )
    dice(state, 2)
    state, events = act(state, "quest north no")
    assert "party_home" in kinds(events) and (0, "north") not in state.parties
    assert state.players[0].gold == 10 and state.players[0].torch_home
    assert state.spaces["hammerdeep"].units == 3 and state.spaces["hammerdeep"].item_list() == [
        "ring_of_hope"
    ]


@pytest.mark.rule("DLR-QST-10")
def test_a_party_stopping_on_another_players_party_attacks_it() -> None:
    state = quest_position(
        spaces={"hammerdeep": force(0, 4)},
        parties=[{"owner": 1, "track": "north", "square": 2, "force": force(1, 1)}],
    )
    dice(state, 3, 1, 1, 6)
    state, events = act(state, "party north hammerdeep 2")
    assert "battle" in kinds(events)
    assert (1, "north") not in state.parties and state.parties[(0, "north")].force.units == 2


@pytest.mark.rule("DLR-MON-01")
@pytest.mark.rule("DLX-FAQ-04")
def test_a_quest_monster_fights_the_party_and_a_beaten_party_loses_its_items() -> None:
    state = quest_position(
        spaces={"hammerdeep": force(0, 1, {"id": 31, "items": ["ring_of_hope"]})},
        quest_deck=["barrow"],
    )
    # enter (1), Cursed (5): the Wraith (attack 4, defence 8); the party rolls a d8, the Wraith a d6
    dice(state, 1, 5, 8, 1)
    state, events = act(state, "party north hammerdeep 0 with 31")
    battle = [e for e in events if e.kind == "battle"]
    assert battle and battle[0].data["defender"] == -2  # the engine rolls for the monster
    rolls = [e for e in events if e.kind == "roll" and e.data["purpose"] == "step 5"]
    assert rolls[0].data["dice"] == [[8, 8]]
    assert "party_lost" in kinds(events) and (0, "north") not in state.parties
    assert "ring_of_hope" not in [i for f in state.spaces.values() for i in f.item_list()]
    assert state.players[0].torch_home and state.players[0].pickaxe_home
    assert "north_0_broken_cairn" not in state.monsters  # a quest card's monster goes back to the box


@pytest.mark.rule("DLR-MON-02")
@pytest.mark.rule("DLR-QST-08")
def test_the_lair_dragon_keeps_its_square_when_it_wins() -> None:
    state = quest_position(
        spaces={"cinder_pass": force(0, 3)},
        parties=[{"owner": 0, "track": "south", "square": 6, "force": force(0, 1)}],
    )
    dice(state, 1, 12, 1, 6, 6)
    state, events = act(state, "quest south yes")
    assert "party_lost" in kinds(events)
    assert state.monsters["south_7_dragons_lair"] == ("lair_dragon", 3)


@pytest.mark.rule("DLR-QST-05")
def test_the_witch_teaches_a_sorcerer_in_the_party_its_next_spell() -> None:
    state = quest_position(
        parties=[
            {"owner": 0, "track": "north", "square": 1, "force": force(0, 1, {"id": 32, "token": "sorcerer"})}
        ],
    )
    dice(state, 2, 1)
    state, _ = act(state, "quest north yes")
    sorcerer = state.parties[(0, "north")].force.piece(32)
    assert sorcerer is not None and sorcerer.spells == ("heal", "fireball", "lightning")
    seen = state.view(1)["parties"][0]["force"]
    assert "pieces" not in seen and seen["hidden_tokens"] == 1  # the others do not see it is a sorcerer
    state, _ = until(state, "combat")


@pytest.mark.rule("DLR-NAV-04")
@pytest.mark.rule("DLX-FAQ-01")
def test_units_aboard_a_ship_docked_at_the_village_land_on_the_village_square() -> None:
    state = quest_position(
        ships=[
            {"zone": "sea_village_harbour", "sailed": True, "aboard": force(0, 3, {"id": 5, "token": "hero"})}
        ],
        players=[{"people": "orcs", "gold": 7}, {"people": "dwarves"}],
    )
    landings = {a for a in legal(state) if a.startswith("party north ship:0")}
    assert "party north ship:0 3 with 5" in landings  # everyone may go, even after sailing this turn
    assert not any(a.startswith("party south ship:0") for a in legal(state))  # not next to that track
    dice(state, 1)  # from a docked ship the Village is the first square
    state, _ = act(state, "party north ship:0 2")
    party = state.parties[(0, "north")]
    assert party.square == 7 and party.force.units == 2 and party.torch
    assert "item north potion" in legal(state)
    assert state.ships[0].owner == 0 and state.ships[0].aboard.units == 2
    # a ship left with nobody aboard belongs to nobody (DLX-FAQ-03)
    state = quest_position(ships=[{"zone": "sea_village_harbour", "aboard": force(0, 2)}])
    dice(state, 3)  # the Village, then two squares on towards the Witch: Ash Dunes
    state, _ = act(state, "party north ship:0 2")
    assert state.ships[0].owner is None and state.ships[0].aboard is None
    assert state.parties[(0, "north")].square == 5


@pytest.mark.rule("DLR-QST-04")
def test_a_party_in_the_village_boards_a_docked_ship_and_leaves_the_track() -> None:
    state = quest_position(
        ships=[{"zone": "sea_village_harbour"}],
        parties=[{"owner": 0, "track": "north", "square": 7, "force": force(0, 2), "gold": 4}],
    )
    state.parties[(0, "north")] = replace(state.parties[(0, "north")], torch=True)
    state.players[0].torch_home = False
    assert {"board 0 track:north 1", "board 0 track:north 2"} <= legal(state)
    state, _ = act(state, "board 0 track:north 1")
    assert state.parties[(0, "north")].force.units == 1 and state.ships[0].owner == 0
    state, _ = act(state, "board 0 track:north 1")
    assert (0, "north") not in state.parties and state.ships[0].aboard.units == 2
    assert state.players[0].gold == 25 + 4 and state.players[0].torch_home
    away = quest_position(
        ships=[{"zone": "sea_village_harbour"}],
        parties=[{"owner": 0, "track": "north", "square": 6, "force": force(0, 2)}],
    )
    assert not any(a.startswith("board") for a in legal(away))


@pytest.mark.rule("DLR-QST-02")
def test_a_party_walking_off_an_end_with_two_friendly_territories_chooses_where_it_comes_home() -> None:
    state = quest_position(
        spaces={"cinder_pass": force(0, 1), "vinewall": force(0, 2)},
        parties=[{"owner": 0, "track": "south", "square": 6, "gold": 3, "force": force(0, 2)}],
    )
    dice(state, 4)
    state, events = act(state, "quest south yes")
    decision = state.pending()
    assert (decision.kind, decision.player, decision.rule) == ("home", 0, "DLR-QST-02")
    assert legal(state) == {"move track:south cinder_pass 2", "move track:south vinewall 2"}
    state, events = act(state, "move track:south vinewall 2")
    assert "party_home" in kinds(events) and (0, "south") not in state.parties
    assert state.spaces["vinewall"].units == 4 and state.players[0].gold == 25 + 3
    assert state.pending().kind == "quest"
