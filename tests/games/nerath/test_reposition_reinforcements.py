"""Reposition (phase 4) and reinforcement (phase 5) scenarios."""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import K, V, notations, pieces_at, play, position, ship_uid
from warhorn.engine.errors import IllegalActionError
from warhorn.games.nerath.state import INCOME, REINFORCEMENTS, REPOSITION


def refused(s, text, rule):  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse(text))
    assert exc.value.rule == rule, str(exc.value)


@pytest.mark.rule("NER-REP-01")
@pytest.mark.rule("NER-REP-03")
def test_flyers_reposition_over_enemies_by_default_or_are_lost() -> None:
    pieces = [(K, "s3", "dragon", 1), (V, "s1", "warship", 1), (V, "s2", "warship", 1)]
    s = position(pieces, phase=REPOSITION)
    assert "move 1 dragon s3>s2>s1>k1" in notations(s)
    assert "pass" not in notations(s)  # the dragon must reach a friendly territory
    # the Russian reading (option): no flying over enemy spaces, so it cannot get home and is lost
    t = position(pieces, phase=REPOSITION, options={"reposition_flyers_cross_enemy": False})
    assert not any(n.startswith("move 1 dragon") for n in notations(t))
    t, events = play(t, "pass")
    assert any(e.kind == "destroyed" for e in events) and not pieces_at(t, "s3")


@pytest.mark.rule("NER-REP-03")
@pytest.mark.rule("NER-PCS-06")
def test_flyers_move_again_to_friendly_land_and_elementals_may_hover_at_sea() -> None:
    s = position([(K, "k1", "dragon", 1), (K, "k1", "elemental", 2)], rolls=[20, 1])
    s, _ = play(s, "move 1 dragon k1>k2>v2", "pass")  # v2 was empty: conquered
    assert s.d.pos.phase == REPOSITION
    refused(s, "move 1 dragon v2>k2>s1", "NER-REP-03")  # a dragon may not end at sea
    refused(s, "move 1 dragon v2>v3", "NER-REP-03")  # v3 is Vailin's
    s, _ = play(s, "move 1 dragon v2>k2", "move 1 elemental k1>s1", "move 1 elemental k1>k2>v2")
    assert pieces_at(s, "s1") == [("karkoth", "elemental")]
    assert pieces_at(s, "v2") == [("karkoth", "elemental")]  # conquered this turn: friendly


@pytest.mark.rule("NER-REP-01")
def test_no_new_battles_in_the_reposition_phase() -> None:
    s = position([(K, "k2", "dragon", 1), (V, "v2", "soldier", 1)], phase=REPOSITION)
    refused(s, "move 1 dragon k2>v2", "NER-REP-03")


@pytest.mark.rule("NER-REI-01")
@pytest.mark.rule("NER-SET-08")
def test_buying_costs_gold_and_pieces_are_unlimited() -> None:
    s = position([(K, "k1", "castle", 1)], phase=REINFORCEMENTS, gold={K: 40})
    for _ in range(8):
        s, _ = play(s, "buy dragon k1")
    assert s.d.gold[K] == 0 and pieces_at(s, "k1").count(("karkoth", "dragon")) == 8
    refused(s, "buy soldier k1", "NER-REI-01")


@pytest.mark.rule("NER-REI-02")
@pytest.mark.rule("NER-REI-03")
def test_new_pieces_go_to_castles_four_at_most_except_the_capital() -> None:
    s = position([(K, "k1", "castle", 1), (K, "k2", "castle", 1)], phase=REINFORCEMENTS, gold={K: 20})
    refused(s, "buy soldier k3", "NER-REI-02")
    for _ in range(4):
        s, _ = play(s, "buy soldier k2")
    refused(s, "buy soldier k2", "NER-REI-03")
    for _ in range(6):
        s, _ = play(s, "buy soldier k1")  # the capital has no limit
    # a lone castle has no limit either
    t = position([(K, "k2", "castle", 1)], phase=REINFORCEMENTS, gold={K: 20})
    for _ in range(6):
        t, _ = play(t, "buy soldier k2")


@pytest.mark.rule("NER-REI-04")
def test_no_placement_at_a_castle_captured_this_turn_except_the_own_capital() -> None:
    s = position(
        [(K, "k2", "soldier", 2), (V, "v2", "castle", 1), (K, "k1", "castle", 1)],
        rolls=[6, 1, 1],
        gold={K: 10},
    )
    s, _ = play(s, "move 2 soldier k2>v2", "pass", "pass")  # castle knocked out; no defence left: captured
    assert s.d.control[s.board.idx("v2")] == K
    assert s.d.pos.phase == REINFORCEMENTS
    refused(s, "buy soldier v2", "NER-REI-04")
    # Karkoth retakes its own capital this turn: usable at once
    t = position(
        [(K, "k2", "soldier", 2), (V, "k1", "castle", 1), (K, "k3", "castle", 1)],
        control={"k1": V},
        rolls=[6, 1, 1],
        gold={K: 10},
    )
    t, _ = play(t, "move 2 soldier k2>k1", "pass", "pass")
    t, _ = play(t, "buy soldier k1")


@pytest.mark.rule("NER-REI-05")
@pytest.mark.rule("NER-PCS-05")
def test_a_new_castle_needs_a_territory_held_since_the_turn_began() -> None:
    s = position([(K, "k1", "castle", 1)], phase=REINFORCEMENTS, gold={K: 20}, control={"v2": K})
    refused(s, "buy castle k1", "NER-PCS-05")  # one castle per territory
    s.d.control_at_start = tuple(
        V if i == s.board.idx("v2") else c for i, c in enumerate(s.d.control_at_start)
    )
    refused(s, "buy castle v2", "NER-REI-05")
    s, _ = play(s, "buy castle k2")
    refused(s, "buy soldier k2", "NER-REI-02")  # nothing else new there this turn


@pytest.mark.rule("NER-REI-06")
def test_without_castles_new_pieces_go_nearest_to_the_capital() -> None:
    s = position([(K, "k2", "soldier", 1)], phase=REINFORCEMENTS, gold={K: 5}, control={"k1": V})
    # Karkoth lost its capital k1 and has no castle: k2 and k3 are both one step from k1
    targets = sorted(n for n in notations(s) if n.startswith("buy soldier"))
    assert targets == ["buy soldier k2", "buy soldier k3"]
    refused(s, "buy warship s1 via k2", "NER-REI-07")


@pytest.mark.rule("NER-REI-07")
def test_new_warships_go_on_a_friendly_sea_next_to_a_castle_and_count_against_it() -> None:
    s = position(
        [(K, "k2", "castle", 1), (K, "k1", "castle", 1), (V, "s2", "warship", 1)],
        phase=REINFORCEMENTS,
        gold={K: 20},
    )
    assert "buy warship s1 via k2" in notations(s) and "buy elemental s1 via k2" in notations(s)
    for _ in range(3):
        s, _ = play(s, "buy soldier k2")
    s, _ = play(s, "buy warship s1 via k2")
    refused(s, "buy warship s1 via k2", "NER-REI-07")  # k2's four are used up
    assert not any("s2" in n for n in notations(s) if n.startswith("buy"))


@pytest.mark.rule("NER-REI-08")
@pytest.mark.rule("NER-REI-09")
def test_new_pieces_may_board_new_warships_and_move_without_battles() -> None:
    s = position(
        [(K, "k1", "castle", 1), (K, "s1", "warship", 1), (V, "v2", "soldier", 1)],
        phase=REINFORCEMENTS,
        gold={K: 20},
    )
    old = ship_uid(s, "s1")
    s, _ = play(s, "buy warship s1 via k1", "buy soldier k1", "buy monster k1")
    new = max(u.uid for u in s.d.units.values() if u.ptype == "warship")
    s, _ = play(s, f"load {new} soldier k1", f"sail {new} s1>s2")
    refused(s, f"unload {new} soldier>t1", "NER-REI-09")  # only onto friendly territory
    refused(s, "move 1 monster k1>k2>v2", "NER-REI-09")  # no battles
    s, _ = play(s, "move 1 monster k1>k2>k3")
    # an old warship that takes new pieces aboard may not move
    t = position([(K, "k1", "castle", 1), (K, "s1", "warship", 1)], phase=REINFORCEMENTS, gold={K: 20})
    t, _ = play(t, "buy soldier k1", f"load {old} soldier k1")
    refused(t, f"sail {old} s1>s2", "NER-REI-09")
    t, _ = play(t, "pass")
    assert t.d.pos.phase != REINFORCEMENTS and t.d.pos.phase != INCOME
