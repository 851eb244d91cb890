"""Dungeon scenarios: guardians, the next player rolling for them, rewards, looting, repopulation."""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import K, V, notations, pieces_at, play, position
from warhorn.engine.deck import Deck
from warhorn.games.nerath.board import CardEffect
from warhorn.games.nerath.rules import cards
from warhorn.games.nerath.state import REINFORCEMENTS, REPOSITION


def explore(pieces, guardians, rolls, stack=("troll", "beholder"), **kw):  # type: ignore[no-untyped-def]
    s = position(pieces, guardians={"d1": guardians}, rolls=rolls, **kw)
    s.d.treasure_deck = Deck(("crown", "ring"))
    s.d.guardian_stack = Deck(tuple(stack))
    return s


@pytest.mark.rule("NER-DUN-01")
@pytest.mark.rule("NER-DUN-02")
def test_guardians_are_revealed_and_the_next_player_assigns_their_damage() -> None:
    # first strike: Medusa 1 (miss); then the warrior 6 (hit) and the goblins 1 (miss)
    s = explore([(K, "k3", "warrior", 1)], ["goblins", "medusa"], [1, 6, 1])
    s, events = play(s, "move 1 warrior k3>d1", "pass")
    assert any(e.kind == "guardians.revealed" for e in events)
    assert all(g.face_up for g in s.d.guardians[s.board.idx("d1")])
    p = s.pending()
    assert p.kind == "damage" and p.player == s.player_of[V] and p.rule == "NER-DUN-02"
    assert sorted(notations(s)) == ["damage goblins@1:d6", "damage medusa@2:d20"]


@pytest.mark.rule("NER-DUN-03")
def test_a_guardian_with_several_dice_loses_one_die_per_damage() -> None:
    # warrior 6 hits the beholder (d6 + d20); it keeps fighting with the die its roller keeps
    s = explore([(K, "k3", "warrior", 1)], ["beholder"], [6, 1, 1])
    s, _ = play(s, "move 1 warrior k3>d1", "pass")
    assert sorted(notations(s)) == ["damage beholder@1:d20", "damage beholder@1:d6"]
    s, _ = play(s, "damage beholder@1:d20")
    assert s.d.guardians[s.board.idx("d1")][0].dice == (6,)


@pytest.mark.rule("NER-DUN-04")
def test_a_first_strike_guardian_rolls_with_first_strike_heroes() -> None:
    # mage (first strike) 6 and Medusa (first strike) 6: both fall in the same step
    s = explore([(K, "k3", "mage", 1)], ["medusa"], [6, 6])
    s, events = play(s, "move 1 mage k3>d1", "pass")
    assert [len(e.data["dice"]) for e in events if e.kind == "roll"] == [1, 1]
    assert pieces_at(s, "d1") == []
    assert s.d.guardians.get(s.board.idx("d1"), ()) == ()  # Medusa is beaten too; nothing is looted


@pytest.mark.rule("NER-DUN-05")
@pytest.mark.rule("NER-CRD-05")
def test_a_troll_makes_every_hero_die_need_seven_unless_a_card_says_better() -> None:
    # the warrior's 6 misses even against the goblins, because a troll is there
    s = explore([(K, "k3", "warrior", 1)], ["goblins", "troll"], [6, 1, 1, 1])
    s, _ = play(s, "move 1 warrior k3>d1", "pass")
    assert s.pending().kind == "continue_or_retreat"
    # a card granting hits on 5+ overrides the penalty: 5 now hits
    t = explore([(K, "k3", "warrior", 1)], ["troll"], [5, 1, 1])
    t, _ = play(t, "move 1 warrior k3>d1")
    cards.run_effect(t, K, CardEffect("modify_hit_number", (("hit_on", 5),)), "", source="test")
    t, _ = play(t, "pass")
    assert t.d.guardians[t.board.idx("d1")][0].dice == (8,)


@pytest.mark.rule("NER-DUN-06")
@pytest.mark.rule("NER-DUN-09")
def test_winning_heroes_take_the_reward_and_exactly_one_treasure() -> None:
    s = explore([(K, "k3", "warrior", 2)], ["goblins"], [6, 6, 1])
    gold = s.d.gold[K]
    s, events = play(s, "move 2 warrior k3>d1", "pass")
    assert s.d.gold[K] == gold + 2
    assert s.d.treasure_hands[K] == ("crown",)
    drawn = next(e for e in events if e.kind == "treasure.draw")
    assert drawn.for_player(s.player_of[V]).data == {"kingdom": K}  # others see only that one was drawn


@pytest.mark.rule("NER-DUN-07")
def test_guardians_that_hold_stay_face_up_with_full_dice() -> None:
    # warrior 8 hits the troll (needs 7+), trolls roll 6,1: the warrior dies
    s = explore([(K, "k3", "warrior", 1)], ["troll"], [8, 6, 1])
    s, _ = play(s, "move 1 warrior k3>d1", "pass")
    slot = s.d.guardians[s.board.idx("d1")][0]
    assert slot.face_up and slot.dice == (8, 8)
    assert pieces_at(s, "d1") == []


@pytest.mark.rule("NER-DUN-08")
def test_effects_on_pieces_do_not_touch_guardians() -> None:
    s = explore([(K, "k3", "warrior", 1)], ["goblins"], [])
    cards.run_effect(
        s, K, CardEffect("destroy_piece", (("count", 5), ("where", "anywhere"))), "", source="test"
    )
    assert len(s.d.guardians[s.board.idx("d1")]) == 1


@pytest.mark.rule("NER-DUN-10")
def test_a_looted_dungeon_gets_two_new_face_down_guardians() -> None:
    s = explore([(K, "k3", "warrior", 1)], ["goblins"], [6, 1], stack=())
    s, events = play(s, "move 1 warrior k3>d1", "pass")
    slots = s.d.guardians[s.board.idx("d1")]
    # the stack was empty: the defeated goblins were shuffled into a new stack; only one tile exists
    assert [g.tile for g in slots] == ["goblins"] and not slots[0].face_up
    assert any(e.kind == "shuffle" for e in events)
    t = explore([(K, "k3", "warrior", 1)], ["goblins"], [6, 1])
    t, _ = play(t, "move 1 warrior k3>d1", "pass")
    assert [(g.tile, g.face_up) for g in t.d.guardians[t.board.idx("d1")]] == [
        ("troll", False),
        ("beholder", False),
    ]


@pytest.mark.rule("NER-DUN-11")
@pytest.mark.rule("NER-REP-02")
def test_heroes_leave_the_dungeon_in_the_reposition_phase() -> None:
    s = explore([(K, "k3", "warrior", 2), (K, "s1", "warship", 1)], ["goblins"], [6, 6, 1])
    s, _ = play(s, "move 2 warrior k3>d1", "pass")
    assert s.d.pos.phase == REPOSITION
    assert "pass" not in notations(s)  # they must leave first
    ship = next(u.uid for u in s.d.units.values() if u.ptype == "warship")
    assert f"load {ship} warrior d1" in notations(s) and "move 1 warrior d1>k3" in notations(s)
    s, _ = play(s, "move 1 warrior d1>k3", f"load {ship} warrior d1", "pass")
    assert s.d.pos.phase == REINFORCEMENTS
    assert pieces_at(s, "s1") == [("karkoth", "warrior"), ("karkoth", "warship")]
