"""The DragonLords game: set-up, the seven phases, movement, ships, portals, buying, victory.

Scenario tests built with the position builder and scripted dice (helpers.py).
"""

from __future__ import annotations

import pytest

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.registry import load_game
from warhorn.games.dragonlords.position import to_position
from warhorn.games.dragonlords.state import NEUTRAL, Phase

from .helpers import act, action, build, dice, force, kinds, legal, until


def _play_setup(players: int, **options: object):
    state = load_game("dragonlords", seed=3, players=players, **options)
    while state.phase in (Phase.SETUP_PEOPLE, Phase.SETUP_REALM, Phase.SETUP_TOKENS):
        state, _ = state.apply(state.legal_actions()[0])
    return state


@pytest.mark.rule("DLR-SET-05")
@pytest.mark.rule("DLR-HID-01")
@pytest.mark.rule("DLR-PEO-05")
def test_two_player_set_up_spreads_units_over_three_realms_and_hides_the_tokens() -> None:
    state = _play_setup(2)
    assert state.phase is Phase.PURCHASE
    for p in (0, 1):
        realms = {state.world.space(t).realm for t in state.territories_of(p)}
        assert len(realms) == 3
        for realm in realms:
            assert all(state.owner(t.id) == p for t in state.world.territories_of(realm))
        assert state.units_of(p) == 40
        tokens = sorted(pc.token for f in state.forces_of(p) for pc in f.pieces)
        assert tokens == ["decoy", "king", "sorcerer"]
        sorcerer = next(pc for f in state.forces_of(p) for pc in f.pieces if pc.token == "sorcerer")
        assert sorcerer.spells == state.content.peoples[state.people_of(p)].spells[:2]
    for island in ("isle_of_gulls", "emberrock", "drowned_tor", "pearl_atoll"):
        assert island not in state.spaces
    seen = state.view(1)["spaces"]
    mine = [sid for sid, f in seen.items() if f["owner"] == 0]
    assert sum(seen[sid]["hidden_tokens"] for sid in mine) == 3
    assert all("pieces" not in seen[sid] for sid in mine)


@pytest.mark.rule("DLR-SET-06")
@pytest.mark.rule("DLX-SET-05")
def test_four_players_leave_two_neutral_realms_guarded_by_five_units_on_the_kingdom() -> None:
    state = _play_setup(4)
    neutral = {sid: f for sid, f in state.spaces.items() if f.owner == NEUTRAL}
    assert len(neutral) == 2
    for sid, f in neutral.items():
        space = state.world.space(sid)
        assert space.kingdom and f.plain == 5
        assert f.people == state.world.realm_of_people(f.people).people
        others = [t.id for t in state.world.territories_of(space.realm or "") if t.id != sid]
        assert all(t not in state.spaces for t in others)


def _choose_peoples(state, *peoples: str):
    for people in peoples:
        state, _ = act(state, f"people {people}")
    return state


@pytest.mark.rule("DLR-SET-08")
def test_with_four_players_no_neutral_realm_borders_a_claimed_realm_by_land() -> None:
    # The Deepholds (Dwarves) and the Storm Steppe (Barbarians) are joined by the land bridge; the
    # other four realms are continents of their own.
    state = load_game("dragonlords", seed=3, players=4)
    everyone = {"people amazons", "people barbarians", "people dwarves", "people elves"}
    everyone |= {"people necromancers", "people orcs"}
    assert legal(state) == everyone
    state = _choose_peoples(state, "dwarves", "elves")
    # two seats left: the Barbarians are still offered, and so is a third island people (the
    # Barbarians would then come last)
    assert legal(state) == {"people amazons", "people barbarians", "people necromancers", "people orcs"}
    state = _choose_peoples(state, "orcs")
    assert legal(state) == {"people barbarians"}  # the Storm Steppe may not be left neutral
    with pytest.raises(IllegalActionError):
        state.apply(action("people amazons"))
    state = _choose_peoples(state, "barbarians")
    while state.phase is not Phase.PURCHASE:
        state, _ = state.apply(state.legal_actions()[0])
    neutral = {state.world.space(sid).realm for sid, f in state.spaces.items() if f.owner == NEUTRAL}
    assert neutral == {"jadecoast", "gloamfen"}
    # four island peoples leave the two joined realms neutral together
    state = _choose_peoples(load_game("dragonlords", seed=3, players=4), "elves", "orcs")
    assert legal(state) == {"people amazons", "people barbarians", "people dwarves", "people necromancers"}
    state = _choose_peoples(state, "amazons")
    assert legal(state) == {"people necromancers"}
    # five players: the one neutral realm is an island realm
    state = _choose_peoples(load_game("dragonlords", seed=3, players=5), "elves", "orcs", "amazons")
    assert legal(state) == {"people barbarians", "people dwarves"}


@pytest.mark.rule("DLR-SET-08")
def test_neutral_apart_off_offers_every_people() -> None:
    state = load_game("dragonlords", seed=3, players=4, neutral_apart=False)
    state = _choose_peoples(state, "dwarves", "elves", "orcs")
    assert legal(state) == {"people amazons", "people barbarians", "people necromancers"}


@pytest.mark.rule("DLR-TRN-01")
@pytest.mark.rule("DLX-FAQ-08")
def test_a_turn_runs_the_seven_phases_in_order_before_the_next_player() -> None:
    state = build(
        phase="purchase",
        spaces={"gorefort": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 3, {"token": "king"})},
    )
    seen = []
    while state.current == 0:
        seen.append(state.phase.value)
        state, events = act(state, "done")
    assert seen == ["purchase", "naval", "quest", "combat", "transfer", "reinforce"]
    assert "income" in kinds(events) or state.players[0].gold > 25
    assert state.phase is Phase.PURCHASE and state.current == 1


@pytest.mark.rule("DLR-TRN-02")
@pytest.mark.rule("DLX-FAQ-07")
@pytest.mark.rule("DLR-END-02")
def test_a_player_without_a_king_takes_no_turns_and_its_units_stay_routed() -> None:
    state = build(
        players=[{"people": "orcs"}, {"people": "dwarves", "alive": False}, {"people": "elves"}],
        phase="reinforce",
        spaces={
            "gorefort": force(0, 3, {"token": "king"}),
            "bonefield": force(1, 4),
            "lumenhall": force(2, 3, {"token": "king"}),
        },
    )
    state, _ = act(state, "done")
    assert state.current == 2
    assert state.spaces["bonefield"].plain == 4  # routed units stay
    state = build(
        players=[{"people": "orcs"}, {"people": "dwarves", "alive": False}, {"people": "elves"}],
        spaces={
            "gorefort": force(0, 5, {"token": "king"}),
            "bonefield": force(1, 1),
            "lumenhall": force(2, 3, {"token": "king"}),
        },
    )
    assert "attack gorefort bonefield 3" in legal(state)  # routed units can be attacked


@pytest.mark.rule("DLR-END-02")
def test_losing_the_king_discards_the_cards_and_the_gold() -> None:
    state = build(
        players=[
            {"people": "orcs"},
            {"people": "dwarves", "hand": ["storm"], "gold": 9},
            {"people": "elves"},
        ],
        spaces={
            "gorefort": force(0, 5, {"token": "king"}),
            "bonefield": force(1, 0, {"token": "king"}),
            "khaz_thurn": force(1, 2),
            "lumenhall": force(2, 3, {"token": "king"}),
        },
    )
    dice(state, 1, 6)
    state, events = act(state, "attack gorefort bonefield 1")
    while state.battle is not None:
        state, more = act(state, "done")
        events += more
    assert "eliminated" in kinds(events)
    seat = state.players[1]
    assert not seat.alive and seat.hand == () and seat.gold == 0
    assert "storm" in state.spell_deck.discard_pile
    assert state.spaces["khaz_thurn"].owner == 1  # routed, still on the board


@pytest.mark.rule("DLR-TRN-03")
def test_the_round_cap_ends_the_game_ranked_by_realms() -> None:
    state = build(
        options={"max_rounds": 1},
        phase="reinforce",
        current=1,
        spaces={
            "gorefort": force(0, 3, {"token": "king"}),
            "lumenhall": force(0, 1),
            "khaz_thurn": force(1, 3, {"token": "king"}),
        },
    )
    state, events = act(state, "done")
    assert state.is_terminal and "game_over" in kinds(events)
    results = state.results()
    assert results is not None and results.winners == frozenset({0})


@pytest.mark.rule("DLR-BUY-01")
def test_prices_orcs_lots_barbarians_and_ships() -> None:
    state = build(
        players=[{"people": "orcs", "gold": 12}, {"people": "barbarians", "gold": 12}],
        phase="purchase",
        spaces={"gorefort": force(0, 3, {"token": "king"}), "jarls_seat": force(1, 3, {"token": "king"})},
    )
    assert "buy units 4" in legal(state) and "buy units 5" not in legal(state)  # 10, then 10 + 3 = 13
    state, _ = act(state, "buy units 4")
    assert state.players[0].gold == 2 and state.players[0].to_place == 4
    assert "buy ship 1" not in legal(state)
    state, _ = act(state, "done", "done", "done", "done", "done")
    assert state.phase is Phase.REINFORCE
    state, _ = act(state, "place gorefort 4")
    assert state.spaces["gorefort"].plain == 7
    state, _ = act(state, "done")
    assert "buy units 3" in legal(state) and "buy units 4" not in legal(state)  # Barbarians pay 4
    assert "buy ship 1" in legal(state)
    state, _ = act(state, "buy ship 1")
    state.phase = Phase.REINFORCE
    zones = {a.split()[1] for a in legal(state) if a.startswith("launch")}
    assert zones == set()  # Jarl's Seat has no coast: the ship waits for a Kingdom by the sea


@pytest.mark.rule("DLR-MOV-01")
@pytest.mark.rule("DLX-CMB-02")
def test_an_attack_leaves_a_unit_behind_and_conquerors_attack_onwards() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 4, {"id": 1, "token": "king"}),
            "bonefield": force(1, 1),
            "tusk_ridge": force(1, 1, {"id": 2, "token": "king"}),
        }
    )
    options = legal(state)
    assert "attack gorefort bonefield 4 with 1" not in options  # the Kingdom would be empty
    assert "attack gorefort bonefield 4" in options
    dice(state, 1, 1, 1, 1, 6)
    state, events = act(state, "attack gorefort bonefield 4")
    assert state.owner("bonefield") == 0 and "conquest" in kinds(events)
    assert any(a.startswith("attack bonefield tusk_ridge") for a in legal(state))


@pytest.mark.rule("DLR-MOV-02")
def test_a_forced_march_claims_an_empty_territory_once_per_unit() -> None:
    state = build(
        spaces={"gorefort": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 1, {"token": "king"})}
    )
    state, _ = act(state, "move gorefort bonefield 2")
    assert state.owner("bonefield") == 0
    assert not any(a.startswith("move bonefield") for a in legal(state))  # marched already


@pytest.mark.rule("DLR-MOV-03")
def test_transfer_moves_only_units_that_have_not_moved() -> None:
    state = build(
        phase="transfer",
        spaces={
            "gorefort": force(0, 3, {"token": "king"}),
            "bonefield": force(0, 2, moved=2),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
    )
    options = legal(state)
    assert not any(a.startswith("move bonefield") for a in options)
    assert "move gorefort bonefield 2" in options
    assert not any(a.startswith("attack") for a in options)


@pytest.mark.rule("DLR-PEO-04")
@pytest.mark.rule("DLR-NAV-05")
def test_barbarian_ships_sail_ten_zones_others_six_under_the_land_bridge_too() -> None:
    def reach(people: str) -> set[str]:
        state = build(
            players=[{"people": people}, {"people": "dwarves"}],
            phase="naval",
            spaces={"gorefort": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 1, {"token": "king"})},
            ships=[{"zone": "sea_frostbight", "aboard": force(0, 1)}],
        )
        return {a.split()[2] for a in legal(state) if a.startswith("sail")}

    orcs, barbarians = reach("orcs"), reach("barbarians")
    assert "sea_eastfar" in barbarians and "sea_eastfar" not in orcs  # seven zones away
    assert "sea_eastwater" in orcs  # through the strait under the land bridge
    assert orcs < barbarians


@pytest.mark.rule("DLR-NAV-01")
def test_units_board_a_ship_sail_and_land() -> None:
    state = build(
        phase="naval",
        spaces={
            "gorefort": force(0, 3, {"token": "king"}),
            "skullcrag": force(0, 3),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
        ships=[{"zone": "sea_frostbight", "aboard": force(0, 1)}],
    )
    state, _ = act(state, "board 0 skullcrag 2")
    assert state.ships[0].aboard is not None and state.ships[0].aboard.units == 3
    state, _ = act(state, "sail 0 sea_gullsound", "land 0 isle_of_gulls 3")
    assert state.owner("isle_of_gulls") == 0 and state.ships[0].owner is None


@pytest.mark.rule("DLR-NAV-02")
@pytest.mark.rule("DLX-CMB-03")
def test_a_ship_entering_an_enemy_zone_stops_fights_and_the_loser_sinks() -> None:
    state = build(
        phase="naval",
        spaces={"gorefort": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 3, {"token": "king"})},
        ships=[
            {"id": 0, "zone": "sea_frostbight", "aboard": force(0, 2)},
            {"id": 1, "zone": "sea_gullsound", "aboard": force(1, 1)},
        ],
    )
    assert "sail 0 sea_tor" not in legal(state)  # the enemy ship's zone stops the ship
    dice(state, 1, 6, 6)
    state, events = act(state, "sail 0 sea_gullsound")
    assert "battle" in kinds(events) and "sunk" in kinds(events)
    assert 1 not in state.ships and state.ships[0].zone == "sea_gullsound"
    assert state.ships[0].aboard is not None and state.ships[0].aboard.units == 2  # no step 1: still aboard


@pytest.mark.rule("DLR-NAV-03")
def test_an_amphibious_attack_retreats_only_back_aboard() -> None:
    state = build(
        spaces={"gorefort": force(0, 3, {"token": "king"}), "skullcrag": force(1, 3, {"token": "king"})},
        ships=[{"zone": "sea_frostbight", "aboard": force(0, 3)}],
    )
    dice(state, 6, 6, 6, 6, 6, 6)
    state, _ = act(state, "attack ship:0 skullcrag 2")
    assert state.pending().kind in ("tas", "retreat")
    while state.pending().kind != "retreat":
        state, _ = act(state, "done")
    assert legal(state) == {"fight", "retreat ship:0"}
    state, _ = act(state, "retreat ship:0")
    assert state.ships[0].aboard is not None and state.ships[0].aboard.units == 3


@pytest.mark.rule("DLR-NAV-04")
@pytest.mark.rule("DLX-FAQ-03")
def test_a_ship_with_nobody_aboard_belongs_to_nobody_and_anyone_may_board_it() -> None:
    state = build(
        phase="naval",
        spaces={"moonhollow": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 3, {"token": "king"})},
        ships=[{"zone": "sea_village_harbour"}],
    )
    assert state.ships[0].owner is None
    state, _ = act(state, "board 0 moonhollow 1")
    assert state.ships[0].owner == 0


@pytest.mark.rule("DLR-PRT-01")
@pytest.mark.rule("DLX-FAQ-11")
def test_a_sorcerer_leads_an_army_through_a_portal() -> None:
    spaces = {
        "ashen_pits": force(0, 4, {"id": 1, "token": "sorcerer"}, {"id": 2, "token": "king"}),
        "horn_hill": force(1, 1, {"token": "king"}),
    }
    state = build(spaces=spaces)
    portal_attacks = {a for a in legal(state) if a.endswith("via portal")}
    assert "attack ashen_pits horn_hill 3 with 1 via portal" in portal_attacks
    assert all("with 1" in a or "with 1,2" in a for a in portal_attacks)
    state = build(
        phase="transfer",
        spaces={**spaces, "horn_hill": force(0, 1), "khaz_thurn": force(1, 1, {"token": "king"})},
    )
    assert "move ashen_pits horn_hill 3 with 1 via portal" in legal(state)
    state = build(
        spaces={"ashen_pits": force(0, 4, {"token": "king"}), "horn_hill": force(1, 1, {"token": "king"})}
    )
    assert not any("via portal" in a for a in legal(state))


@pytest.mark.rule("DLR-PRT-02")
@pytest.mark.rule("DLX-FAQ-06")
def test_teleport_takes_a_sorcerer_and_five_units_to_friendly_ground_once_a_turn() -> None:
    state = build(
        phase="transfer",
        spaces={
            "gorefort": force(
                0, 8, {"id": 1, "token": "sorcerer", "spells": ["heal", "teleport"]}, {"token": "king"}
            ),
            "lumenhall": force(0, 1),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
        parties=[{"owner": 0, "track": "north", "square": 3, "force": force(0, 2)}],
    )
    options = {a for a in legal(state) if a.startswith("teleport")}
    assert all(int(a.split()[3]) <= 5 for a in options)
    assert "teleport 1 track:north 3 with 1" in options  # a Wastelands square with friendly units
    state, _ = act(state, "teleport 1 lumenhall 3 with 1")
    assert state.spaces["lumenhall"].units == 5
    assert not any(a.startswith("teleport") for a in legal(state))
    plain = build(
        phase="transfer",
        spaces={
            "gorefort": force(0, 8, {"token": "sorcerer"}, {"token": "king"}),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
    )
    assert not any(a.startswith("teleport") for a in legal(plain))  # Teleport not yet learned


@pytest.mark.rule("DLR-DRL-02")
@pytest.mark.rule("DLX-OPT-01")
def test_a_dragonlord_flies_three_spaces_to_attack_but_not_into_a_kingdom_when_weak() -> None:
    spaces = {
        "tusk_ridge": force(0, 4, {"id": 1, "token": "dragonlord"}, {"token": "king"}),
        "anvilgate": force(1, 1),
        "khaz_thurn": force(1, 1, {"token": "king"}),
    }
    state = build(spaces=spaces)
    flights = {a for a in legal(state) if a.endswith("via fly")}
    assert any(a.startswith("attack tusk_ridge anvilgate") for a in flights)  # over the sea
    assert any(a.startswith("attack tusk_ridge khaz_thurn") for a in flights)  # three spaces away
    assert all("with 1" in a for a in flights)
    weak = build(options={"weak_dragonlords": True}, spaces=spaces)
    assert not any(" khaz_thurn " in a for a in legal(weak) if a.endswith("via fly"))


@pytest.mark.rule("DLX-OPT-04")
def test_soft_elimination_lets_a_kingless_player_play_on_with_three_units() -> None:
    state = build(
        options={"soft_elimination": True},
        players=[{"people": "orcs", "alive": False}, {"people": "dwarves"}, {"people": "elves"}],
        phase="transfer",
        spaces={
            "bonefield": force(0, 2),
            "khaz_thurn": force(1, 3, {"token": "king"}),
            "lumenhall": force(2, 3, {"token": "king"}),
        },
    )
    state, _ = act(state, "done")
    assert state.phase is Phase.REINFORCE and state.players[0].to_place == 3
    assert "place bonefield 3" in legal(state)
    state, _ = act(state, "place bonefield 3", "done")
    assert state.current == 1


@pytest.mark.rule("DLR-END-01")
@pytest.mark.rule("DLX-END-01")
def test_a_short_game_is_won_at_once_by_the_third_realm() -> None:
    spaces = {
        "gorefort": force(0, 4, {"token": "king"}),
        "lumenhall": force(0, 1),
        "bonefield": force(0, 3),
        "khaz_thurn": force(1, 1, {"token": "king"}),
        "tusk_ridge": force(1, 3),
    }
    state = build(options={"victory": "short"}, spaces=spaces)
    # Orcs hold Orcmarch and Silverwood: a third Kingdom wins. Take it by a forced march-free attack:
    state.spaces["jarls_seat"] = state.spaces["tusk_ridge"].__class__(1, "dwarves", 1)
    state.spaces["horn_hill"] = state.spaces["gorefort"].__class__(0, "orcs", 3)
    dice(state, 1, 1, 6)
    state, _ = act(state, "attack horn_hill jarls_seat 2")
    assert state.is_terminal and state.results().winners == frozenset({0})
    bloodbath = build(spaces=spaces)
    dice(bloodbath, 1, 1, 6)
    bloodbath.spaces["jarls_seat"] = bloodbath.spaces["tusk_ridge"].__class__(1, "dwarves", 1)
    bloodbath.spaces["horn_hill"] = bloodbath.spaces["gorefort"].__class__(0, "orcs", 3)
    bloodbath, _ = act(bloodbath, "attack horn_hill jarls_seat 2")
    assert not bloodbath.is_terminal  # the bloodbath game goes on while two Kings stand


def test_positions_round_trip() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 4, {"token": "king", "items": ["potion"]}),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
        ships=[{"zone": "sea_frostbight", "aboard": force(0, 1)}],
        parties=[{"owner": 1, "track": "north", "square": 2, "force": force(1, 2), "gold": 5, "torch": True}],
    )
    again = build(**{k: v for k, v in to_position(state).items()})
    assert again.digest() == state.digest()


def test_a_bad_position_is_refused_naming_the_key() -> None:
    from warhorn.engine.errors import ContentErrors

    with pytest.raises(ContentErrors, match=r"spaces\.atlantis"):
        build(spaces={"atlantis": force(0, 1)})


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    state = build(
        spaces={"gorefort": force(0, 3, {"token": "king"}), "khaz_thurn": force(1, 1, {"token": "king"})}
    )
    before = state.digest()
    with pytest.raises(IllegalActionError, match="DLR-MOV-01"):
        act(state, "attack gorefort khaz_thurn 2")
    assert state.digest() == before


@pytest.mark.rule("DLX-SPC-TEL")
def test_the_teleport_card_in_its_players_own_turn_sends_a_sorcerer_and_units_anywhere() -> None:
    spaces = {
        "gorefort": force(0, 4, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer"}),
        "khaz_thurn": force(1, 2, {"id": 20, "token": "king"}),
        "moonhollow": force(1, 1),
    }
    players = [{"people": "orcs", "hand": ["teleport"]}, {"people": "dwarves"}]
    state = build(phase="transfer", spaces=spaces, players=players)
    assert "play teleport" in legal(state)
    state, _ = act(state, "play teleport")
    assert state.pending().kind == "teleport" and state.players[0].hand == ()
    moves = legal(state)
    assert "teleport 11 starwatch 2 with 11" in moves  # an empty territory far away
    assert not any(" khaz_thurn " in m for m in moves)  # no attack outside the combat phase
    assert all("11" in m.split(" with ")[-1] for m in moves)  # the sorcerer always goes
    assert max(int(m.split()[3]) for m in moves) <= 4 and "play teleport" not in moves
    state, _ = act(state, "teleport 11 starwatch 2 with 11")
    assert state.spaces["starwatch"].units == 3 and state.spaces["gorefort"].units == 3
    assert state.pending().kind == "transfer" and "teleport" in state.spell_deck.discard_pile
    # in the combat phase the card may land on an enemy: an attack with nowhere to retreat to
    state = build(phase="combat", spaces=spaces, players=players)
    dice(state, 6, 6, 6, 6, 6, 6)
    state, _ = act(state, "play teleport", "teleport 11 moonhollow 2 with 11")
    assert state.battle is not None and state.battle.space == "moonhollow"
    state, _ = until(state, "retreat")
    assert legal(state) == {"fight"}
    # without a sorcerer that could go (alone in its territory), the card is not offered
    alone = build(
        phase="transfer",
        spaces={
            **spaces,
            "gorefort": force(0, 0, {"id": 11, "token": "sorcerer"}),
            "bonefield": force(0, 1, {"id": 10, "token": "king"}),
        },
        players=[{"people": "orcs", "hand": ["teleport"]}, {"people": "dwarves"}],
    )
    assert "play teleport" not in legal(alone)


@pytest.mark.rule("DLR-MOV-05")
def test_any_count_may_move_the_exact_count_of_an_up_to_order_is_asked_next() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 9, {"id": 10, "token": "king"}),
            "bonefield": force(1, 2, {"id": 20, "token": "king"}),
        }
    )
    attacks = {a for a in legal(state) if a.startswith("attack gorefort bonefield") and "with" not in a}
    # the short list: 1-3, half and all; and "up to 9", which asks for the count next
    assert attacks == {f"attack gorefort bonefield {n}" for n in (1, 2, 3, 4, 9)} | {
        "attack gorefort bonefield 9 up_to yes"
    }
    state, events = act(state, "attack gorefort bonefield 9 up_to yes")
    assert events == [] and state.battle is None
    decision = state.pending()
    assert (decision.kind, decision.player, decision.rule) == ("count", 0, "DLR-MOV-05")
    assert legal(state) == {f"attack gorefort bonefield {n}" for n in range(1, 10)}
    dice(state, *[6] * 7)
    state, _ = act(state, "attack gorefort bonefield 5")  # exactly 5 of the 9
    assert state.battle is not None and len(state.battle.att.fighters) == 5
    assert state.spaces["gorefort"].units == 5
    # a stack whose every count is listed offers no up_to order
    small = build(
        spaces={
            "gorefort": force(0, 4, {"id": 10, "token": "king"}),
            "bonefield": force(1, 2, {"id": 20, "token": "king"}),
        }
    )
    assert not any("up_to" in a for a in legal(small))


@pytest.mark.rule("DLR-CMB-07")
def test_a_combat_has_no_round_limit() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 5, {"id": 10, "token": "king"}),
            "bonefield": force(1, 3, {"id": 20, "token": "king"}),
        }
    )
    dice(state, *[6] * 7)
    state, _ = act(state, "attack gorefort bonefield 3")
    for _ in range(12):  # rounds in which nobody hits: the attacker may always fight on
        state, _ = until(state, "retreat")
        assert legal(state) == {"fight", "retreat gorefort"}
        dice(state, *[6] * 7)
        state, _ = act(state, "fight")
    assert state.battle is not None and state.battle.round == 13
