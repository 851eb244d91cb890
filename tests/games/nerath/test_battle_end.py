"""A battle ends the moment a side has nothing left able to fight (NER-BAT-15, NER-BAT-02).

Scenarios with scripted dice: after every application of hits (first strike
included) the end is checked, so a decided battle rolls no more dice and opens
no more card window.
"""

from __future__ import annotations

import pytest

from tests.games.nerath.boards import BORDERS, EVENTS, GUARDIANS, SETUP, SPACES, TREASURES
from tests.games.nerath.scenario import K, V, notations, pieces_at, play, position, ship_uid
from warhorn.engine.events import Event
from warhorn.games.nerath.board import CardEffect, EventCard, build_board

PARRY = EventCard(
    "parry", V, "Parry", timing="battle_round", effects=(CardEffect("negate_hits", (("count", 1),)),)
)
AMBUSH = EventCard(
    "ambush",
    V,
    "Ambush",
    timing="when_attacked",
    effects=(CardEffect("destroy_piece", (("count", 1), ("piece", "land"), ("where", "battle"))),),
)
BOARD = build_board(
    SPACES, BORDERS, setup=SETUP, guardians=GUARDIANS, treasures=TREASURES, events=[*EVENTS, PARRY, AMBUSH]
)


def rolls_of(events: list[Event]) -> list[list[int]]:
    return [[f for _, f in e.data["dice"]] for e in events if e.kind == "roll"]


def windows_of(events: list[Event]) -> int:
    return sum(1 for e in events if e.kind == "card_window")


@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-BAT-02")
def test_no_normal_step_after_first_strike_destroys_every_defender() -> None:
    # the mage's first strike kills the lone soldier: the attacking soldiers never roll
    s = position([(K, "k2", "mage", 1), (K, "k2", "soldier", 2), (V, "v2", "soldier", 1)], rolls=[6])
    s, _ = play(s, "move 1 mage k2>v2", "move 2 soldier k2>v2")
    s, events = play(s, "pass")
    assert rolls_of(events) == [[6]]
    assert s.d.battle is None and s.d.control[s.board.idx("v2")] == K
    assert pieces_at(s, "v2") == [("karkoth", "mage"), ("karkoth", "soldier"), ("karkoth", "soldier")]


@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-BAT-02")
def test_no_normal_step_after_first_strike_destroys_every_attacker() -> None:
    # the other way round: the defending mage kills the only attacker; the defenders' soldiers never roll
    s = position([(K, "k2", "soldier", 1), (V, "v2", "mage", 1), (V, "v2", "soldier", 2)], rolls=[7])
    s, _ = play(s, "move 1 soldier k2>v2")
    s, events = play(s, "pass")
    assert rolls_of(events) == [[7]]
    assert s.d.battle is None and s.d.control[s.board.idx("v2")] == V
    assert pieces_at(s, "v2") == [("vailin", "mage"), ("vailin", "soldier"), ("vailin", "soldier")]


@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-BAT-11")
def test_at_sea_a_carried_mage_sinking_the_only_enemy_warship_ends_the_battle() -> None:
    s = position([(K, "s1", "warship", 1), (V, "s2", "warship", 1)], cargo={0: ["mage"]}, rolls=[6])
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2")
    s, events = play(s, "pass")
    assert rolls_of(events) == [[6]]  # the warship's own d8 does not roll
    assert pieces_at(s, "s2") == [("karkoth", "mage"), ("karkoth", "warship")]


@pytest.mark.rule("NER-BAT-15")
def test_first_strikes_destroying_both_sides_leave_the_space_to_the_defender() -> None:
    # each side's mage kills the other's only fighter in the first-strike step: nothing else rolls
    s = position(
        [(K, "k2", "mage", 1), (K, "k2", "soldier", 1), (V, "v2", "mage", 1), (V, "v2", "soldier", 1)],
        rolls=[6, 6, 1, 1],
    )
    s, _ = play(s, "move 1 mage k2>v2", "move 1 soldier k2>v2")
    s, events = play(s, "pass", "damage mage", "damage mage")
    assert rolls_of(events) == [[6], [6], [1], [1]]  # the soldiers still can fight: they roll
    both = position([(K, "k2", "mage", 1), (V, "v2", "mage", 1)], rolls=[6, 6])
    both, _ = play(both, "move 1 mage k2>v2")
    both, events = play(both, "pass")
    assert rolls_of(events) == [[6], [6]]
    assert both.d.battle is None and both.d.control[both.board.idx("v2")] == V
    assert pieces_at(both, "v2") == []


@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-CRD-01")
def test_no_card_window_opens_for_a_battle_the_first_strike_decided() -> None:
    s = position(
        [(K, "k2", "mage", 1), (K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6], board=BOARD
    )
    s.d.hands[V] = ("parry",)
    s, _ = play(s, "move 1 mage k2>v2", "move 1 soldier k2>v2", "pass")
    assert s.pending().kind == "card_window"  # before the battle: Vailin holds a card
    s, _ = play(s, "pass")
    assert s.pending().kind == "card_window"  # after the first-strike dice, before its hits: still open
    s, events = play(s, "pass")  # the hit lands; the battle is over, no window after it
    assert rolls_of(events) == []
    assert s.d.battle is None and s.d.control[s.board.idx("v2")] == K
    assert s.d.hands[V] == ("parry",)


@pytest.mark.rule("NER-BAT-15")
def test_a_card_that_leaves_the_attacker_nothing_before_the_first_roll_ends_the_battle() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[], board=BOARD)
    s.d.hands[V] = ("ambush",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.pending().kind == "card_window" and "play ambush" in notations(s)
    s, events = play(s, "play ambush")
    assert rolls_of(events) == []  # nothing left to attack: no dice at all
    assert s.d.battle is None and s.d.control[s.board.idx("v2")] == V
