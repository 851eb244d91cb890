"""Who carries a shard or an item a player receives (DLX-SHD-02, DLX-SHD-04, DLR-CMB-09, DLR-SHD-01).

Orcs (player 0) against Dwarves (player 1) in player 0's combat phase, with the advanced rules.
The receiver is asked which of its units carries each shard (and each item won in a combat); the
shard's colour and the unit's number stay hidden from the other players.
"""

from __future__ import annotations

import pytest

from warhorn.games.dragonlords.state import DragonLordsState

from .helpers import act, build, dice, force, legal

ORC_KING = {"id": 10, "token": "king"}
ORC_SORCERER = {"id": 11, "token": "sorcerer"}
DWARF_KING = {"id": 20, "token": "king"}


def fight_out(state: DragonLordsState) -> DragonLordsState:
    """Play the combat to its end, passing where possible."""
    while state.battle is not None and not state.questions:
        options = sorted(legal(state))
        state, _ = act(state, "done" if "done" in options else "fight" if "fight" in options else options[0])
    return state


def carriers(state: DragonLordsState, space: str) -> dict[int | None, tuple[str, ...]]:
    """What each unit in ``space`` carries: piece number -> shards and items (None: plain units)."""
    f = state.spaces[space]
    return {pc.id: (*pc.shards, *pc.items) for pc in f.pieces if pc.shards or pc.items}


@pytest.mark.rule("DLR-CMB-09")
@pytest.mark.rule("DLX-SHD-02")
@pytest.mark.rule("DLR-SHD-01")
def test_the_winner_chooses_the_units_that_carry_the_spoils() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 4, ORC_KING, ORC_SORCERER),
            "bonefield": force(1, 0, {"id": 21, "shards": ["red"], "items": ["potion"]}),
            "skullcrag": force(1, 2, DWARF_KING),
        },
        options={"advanced": True},
    )
    state, _ = act(state, "attack gorefort bonefield 3 with 10,11")
    dice(state, 1, 1, 1, 1, 1, 6)
    state = fight_out(state)
    assert state.battle is None and state.owner("bonefield") == 0
    decision = state.pending()
    assert decision is not None and (decision.kind, decision.player, decision.rule) == (
        "carry",
        0,
        "DLR-SHD-01",
    )
    # first the shard: the unit carrying it now (the force's first piece, listed first), the other
    # piece, or a plain unit
    first = state.spaces["bonefield"].pieces[0].id
    assert first in (10, 11) and state.spaces["bonefield"].pieces[0].shards == ("red",)
    assert [a.notation() for a in state.legal_actions()] == [
        f"carry bonefield with {first}",
        f"carry bonefield with {21 - first}",
        "carry bonefield",
    ]
    # the other player sees that a shard is placed, not its colour nor the unit
    public = state.view(1)
    assert public["questions"][0]["kind"] == "carry" and "shard" not in public["questions"][0]
    assert "carrier" not in public["questions"][0]
    assert state.view(0)["questions"][0]["shard"] == "red"
    state, events = act(state, "carry bonefield with 11")  # under the sorcerer, who can use it
    [event] = [e for e in events if e.kind == "carry"]
    seen = event.for_player(1)
    assert seen is not None and "shard" not in seen.data and "piece" not in seen.data
    assert event.data["shard"] == "red" and event.data["piece"] == 11
    # then the item, under a plain unit this time
    assert state.pending().kind == "carry" and state.view(1)["questions"][0]["item"] == "potion"
    state, _ = act(state, "carry bonefield")
    held = carriers(state, "bonefield")
    assert held[11] == ("red",)
    [new] = [pid for pid in held if pid not in (10, 11)]
    assert held[new] == ("potion",)
    f = state.spaces["bonefield"]
    assert f.units == 5 and f.plain == 2 and not state.questions
    assert state.invariants() == []


@pytest.mark.rule("DLR-SHD-01")
def test_a_carrier_left_with_nothing_is_a_plain_unit_again_and_one_choice_is_not_asked() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 4, ORC_KING),
            "bonefield": force(1, 0, {"id": 21, "shards": ["red"]}),
            "skullcrag": force(1, 2, DWARF_KING),
        },
        options={"advanced": True},
    )
    # only plain units win: the shard goes under one of them, and no question comes (one choice)
    state, _ = act(state, "attack gorefort bonefield 3")
    dice(state, 1, 1, 1, 6)
    state = fight_out(state)
    f = state.spaces["bonefield"]
    assert state.owner("bonefield") == 0 and not state.questions
    assert f.plain == 2 and [pc.shards for pc in f.pieces] == [("red",)]
    # two pieces: the shard moves from the King to the plain units; the King keeps nothing
    state = build(
        spaces={
            "gorefort": force(0, 4, ORC_KING),
            "bonefield": force(1, 0, {"id": 21, "shards": ["red"]}),
            "skullcrag": force(1, 2, DWARF_KING),
        },
        options={"advanced": True},
    )
    state, _ = act(state, "attack gorefort bonefield 3 with 10")
    dice(state, 1, 1, 1, 1, 6)
    state = fight_out(state)
    assert sorted(legal(state)) == ["carry bonefield", "carry bonefield with 10"]
    state, _ = act(state, "carry bonefield")
    f = state.spaces["bonefield"]
    assert f.piece(10) is not None and f.piece(10).shards == ()
    assert f.plain == 2 and sorted(pc.shards for pc in f.pieces) == [(), ("red",)]


@pytest.mark.rule("DLX-SHD-04")
@pytest.mark.rule("DLR-SHD-01")
def test_a_shard_handed_over_for_an_ultimatum_goes_under_a_unit_of_the_receivers_choice() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 3, ORC_KING, ORC_SORCERER),
            "tusk_ridge": force(0, 2),
            "bonefield": force(1, 1, DWARF_KING, {"id": 21, "shards": ["red", "blue"]}),
        },
        options={"advanced": True},
    )
    state, _ = act(state, "ultimatum 1 1")
    assert state.pending().player == 1
    state, _ = act(state, "answer yes with blue")
    decision = state.pending()
    assert decision is not None and (decision.kind, decision.player) == ("carry", 0)
    # any unit of the receiver's in a territory it holds: first where the rules put it (the
    # sorcerer's stack, its first piece), then the other pieces and a plain unit in each territory
    assert [a.notation() for a in state.legal_actions()] == [
        "carry gorefort with 10",
        "carry gorefort with 11",
        "carry gorefort",
        "carry tusk_ridge",
    ]
    state, _ = act(state, "carry tusk_ridge")
    assert carriers(state, "gorefort") == {}
    assert list(carriers(state, "tusk_ridge").values()) == [("blue",)]
    assert state.spaces["tusk_ridge"].plain == 1 and state.shards_of(0) == ["blue"]
    assert state.pending().kind == "combat" and state.invariants() == []


@pytest.mark.rule("DLX-SHD-04")
@pytest.mark.rule("DLR-SHD-01")
def test_a_shard_paid_for_mercy_goes_with_the_attackers_even_without_a_token_bearing_unit() -> None:
    """The attackers who fought hold no token-bearing unit: the shard goes with them (under a plain
    unit where they retreat to), as spoils and ultimatums give it, not back to the box."""
    state = build(
        spaces={
            "gorefort": force(0, 4, ORC_KING),
            "bonefield": force(1, 3, DWARF_KING, {"id": 21, "token": "sorcerer", "shards": ["red"]}),
        },
        options={"advanced": True},
    )
    state, _ = act(state, "attack gorefort bonefield 3")
    dice(state, 6, 6, 6, 6, 6, 6, 6, 6)
    for _ in range(20):
        if "mercy red" in legal(state):
            break
        options = sorted(legal(state))
        state, _ = act(state, "done" if "done" in options else options[0])
    state, _ = act(state, "mercy red")
    assert state.pending().player == 0 and state.pending().kind == "mercy"
    state, _ = act(state, "answer yes")
    assert state.battle is None and state.owner("bonefield") == 1
    # the attackers went back to Gorefort; the shard is theirs, under the King first, and then
    # under the unit their owner names
    assert state.shards_of(0) == ["red"] and state.box_shards.count("red") == 0
    assert sorted(legal(state)) == ["carry gorefort", "carry gorefort with 10"]
    state, _ = act(state, "carry gorefort")
    f = state.spaces["gorefort"]
    assert f.units == 5 and f.piece(10).shards == ()
    assert [pc.shards for pc in f.pieces if pc.id != 10] == [("red",)]
    assert state.invariants() == []


@pytest.mark.rule("DLX-SHD-04")
@pytest.mark.rule("DLR-SHD-01")
def test_when_the_attacker_cannot_leave_the_defender_does_and_the_shard_stays_with_the_attackers() -> None:
    """Sent by the Teleport card, the attackers have nowhere to retreat: the defender leaves to a
    neighbouring territory of its own, and the attackers, holding the space, place the shard."""
    state = build(
        players=[{"people": "orcs", "hand": ["teleport"]}, {"people": "dwarves"}],
        spaces={
            "gorefort": force(0, 4, ORC_KING, ORC_SORCERER),
            "bonefield": force(1, 3, {"id": 21, "token": "sorcerer", "shards": ["red"]}),
            "rustmire": force(1, 1, DWARF_KING),
        },
        options={"advanced": True},
    )
    state, _ = act(state, "play teleport", "teleport 11 bonefield 3 with 11")
    dice(state, *[6] * 30)
    for _ in range(30):
        if "mercy red" in legal(state):
            break
        options = sorted(legal(state))
        state, _ = act(state, "done" if "done" in options else options[0])
    state, _ = act(state, "mercy red", "answer yes")
    assert state.battle is None and state.owner("bonefield") == 0
    assert state.spaces["rustmire"].piece(21) is not None and state.shards_of(1) == []
    assert sorted(legal(state)) == ["carry bonefield", "carry bonefield with 11"]
    state, _ = act(state, "carry bonefield with 11")
    assert state.spaces["bonefield"].piece(11).shards == ("red",) and state.invariants() == []
