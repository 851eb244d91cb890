"""Movement (phase 2) and sea transport scenarios."""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import IC, K, V, notations, pieces_at, play, position, ship_uid
from warhorn.engine.errors import IllegalActionError
from warhorn.games.nerath.state import BATTLES


def refused(s, text, rule):  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse(text))
    assert exc.value.rule == rule, str(exc.value)


@pytest.mark.rule("NER-MOV-01")
def test_pieces_move_up_to_their_move_value_or_not_at_all() -> None:
    s = position([(K, "k1", "soldier", 1), (K, "k1", "warrior", 1)])
    refused(s, "move 1 soldier k1>k2>k3", "NER-MOV-01")
    s2, _ = play(s, "move 1 warrior k1>k2>k3", "move 1 soldier k1>k2")
    assert pieces_at(s2, "k3") == [("karkoth", "warrior")]
    # moving nothing at all is fine: pass ends the phase
    s3, _ = play(s, "pass")
    assert pieces_at(s3, "k1") == [("karkoth", "soldier"), ("karkoth", "warrior")]


@pytest.mark.rule("NER-MOV-02")
def test_entering_an_enemy_space_stops_and_declares_an_attack() -> None:
    s = position([(K, "k2", "warrior", 1), (V, "v1", "soldier", 1)])
    refused(s, "move 1 warrior k2>v2>v1", "NER-MOV-02")
    s2, events = play(s, "move 1 warrior k2>v2")
    assert "attack declared" in events[0].text
    s3, _ = play(s2, "pass")
    assert s3.d.pos.phase == BATTLES or s3.d.battle is None


@pytest.mark.rule("NER-MOV-03")
@pytest.mark.rule("NER-MAP-01")
def test_land_pieces_stay_on_land_and_castles_never_move() -> None:
    s = position([(K, "k1", "soldier", 1), (K, "k1", "castle", 1)])
    refused(s, "move 1 soldier k1>s1", "NER-MOV-03")
    refused(s, "move 1 castle k1>k2", "NER-PCS-05")
    assert not any(n.startswith("move 1 castle") for n in notations(s))


@pytest.mark.rule("NER-MOV-04")
@pytest.mark.rule("NER-PCS-09")
def test_only_heroes_enter_dungeons_and_they_stop_there() -> None:
    s = position([(K, "k3", "soldier", 1), (K, "k3", "warrior", 1)])
    refused(s, "move 1 soldier k3>d1", "NER-MOV-04")
    refused(s, "move 1 warrior k3>d1>v3", "NER-MOV-04")
    s2, _ = play(s, "move 1 warrior k3>d1")
    assert pieces_at(s2, "d1") == [("karkoth", "warrior")]


@pytest.mark.rule("NER-MOV-05")
def test_flyers_pass_over_enemies_and_dungeons_but_never_end_on_a_dungeon() -> None:
    s = position([(K, "k1", "dragon", 1), (K, "k3", "elemental", 1), (V, "v2", "soldier", 3)])
    _, events = play(s, "move 1 dragon k1>k2>v2>v1")  # over the enemy v2, ends on enemy v1
    assert "attack declared" in events[0].text
    s3, _ = play(s, "move 1 elemental k3>d1>s1")  # over a dungeon to a sea space
    assert pieces_at(s3, "s1") == [("karkoth", "elemental")]
    refused(s, "move 1 elemental k3>d1", "NER-MOV-05")


@pytest.mark.rule("NER-MOV-06")
def test_all_movement_ends_before_any_battle() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)])
    s2, events = play(s, "move 1 soldier k2>v2")
    assert not [e for e in events if e.kind in ("roll", "battle.start")]
    assert s2.d.pos.phase != BATTLES
    assert pieces_at(s2, "v2") == [("karkoth", "soldier"), ("vailin", "soldier")]


@pytest.mark.rule("NER-MOV-07")
def test_attack_one_space_from_several_and_split_one_stack() -> None:
    s = position([(K, "k2", "warrior", 1), (K, "k3", "warrior", 2), (V, "v3", "soldier", 1)], rolls=[1, 1, 1])
    s2, _ = play(s, "move 1 warrior k2>k3>v3", "move 1 warrior k3>v3", "move 1 warrior k3>d1")
    from warhorn.games.nerath.rules.battle_flow import find_battles

    assert [s2.board.sid(i) for i in find_battles(s2, K)] == ["v3", "d1"]
    assert pieces_at(s2, "v3").count(("karkoth", "warrior")) == 2


@pytest.mark.rule("NER-MOV-08")
def test_allies_share_spaces_without_a_fight_and_move_only_their_own() -> None:
    opts = {"mode": "alliance", "players": 2}
    s = position([(K, "k1", "soldier", 1), (IC, "k2", "soldier", 1)], options=opts, control={"k2": IC})
    assert not any("move 1 soldier k2" in n for n in notations(s))  # the ally's soldier is not ours
    s2, _ = play(s, "move 1 soldier k1>k2", "pass")
    assert s2.d.pos.phase > BATTLES and pieces_at(s2, "k2") == [
        ("iron_circle", "soldier"),
        ("karkoth", "soldier"),
    ]
    # free-for-all: the same move is an attack
    f = position([(K, "k1", "soldier", 1), (IC, "k2", "soldier", 1)], control={"k2": IC}, rolls=[1, 1])
    _, events = play(f, "move 1 soldier k1>k2")
    assert "attack declared" in events[0].text


@pytest.mark.rule("NER-SEA-01")
def test_a_warship_loads_along_its_path_from_several_coasts() -> None:
    s = position([(V, "s1", "warship", 1), (V, "v2", "soldier", 1), (V, "v1", "warrior", 1)], kingdom=V)
    ship = ship_uid(s, "s1", V)
    s2, _ = play(s, f"load {ship} soldier v2", f"sail {ship} s1>s2>s3", f"load {ship} warrior v1")
    assert pieces_at(s2, "s3") == [("vailin", "soldier"), ("vailin", "warrior"), ("vailin", "warship")]


@pytest.mark.rule("NER-SEA-02")
def test_only_unmoved_pieces_load_and_landed_pieces_stay_put() -> None:
    s = position([(V, "s1", "warship", 1), (V, "v3", "soldier", 1), (V, "v2", "soldier", 1)], kingdom=V)
    ship = ship_uid(s, "s1", V)
    s2, _ = play(s, "move 1 soldier v3>v2")
    # one soldier on v2 has not moved, so one load is still possible, but not two
    s3, _ = play(s2, f"load {ship} soldier v2")
    refused(s3, f"load {ship} soldier v2", "NER-SEA-02")
    s4, _ = play(s3, f"unload {ship} soldier>k2")
    assert not any(n.startswith("move 1 soldier k2") for n in notations(s4))


@pytest.mark.rule("NER-SEA-03")
def test_unloading_ends_the_warships_move_into_at_most_two_territories() -> None:
    s = position([(V, "s1", "warship", 1), (V, "v2", "soldier", 2)], kingdom=V)
    ship = ship_uid(s, "s1", V)
    s2, _ = play(s, f"load {ship} soldier v2", f"load {ship} soldier v2")
    s3, _ = play(s2, f"unload {ship} soldier>k1,soldier>k2")
    assert pieces_at(s3, "k1") == [("vailin", "soldier")] and pieces_at(s3, "k2") == [("vailin", "soldier")]
    refused(s3, f"sail {ship} s1>s2", "NER-SEA-03")
    s4, _ = play(s2, f"unload {ship} soldier>k1")
    refused(s4, f"unload {ship} soldier>k2", "NER-SEA-03")


@pytest.mark.rule("NER-SEA-04")
def test_warships_carry_only_their_own_kingdoms_pieces() -> None:
    opts = {"mode": "alliance", "players": 2}
    s = position([(K, "s1", "warship", 1), (IC, "k2", "soldier", 1)], options=opts, control={"k2": IC})
    ship = ship_uid(s, "s1", K)
    assert not any(n.startswith("load") for n in notations(s))
    refused(s, f"load {ship} soldier k2", "NER-SEA-04")


@pytest.mark.rule("NER-SEA-05")
def test_bridging_loads_and_unloads_without_moving() -> None:
    s = position([(K, "s1", "warship", 1), (K, "k1", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 1])
    ship = ship_uid(s, "s1", K)
    s2, _ = play(s, f"load {ship} soldier k1", f"unload {ship} soldier>v2")
    assert ("karkoth", "soldier") in pieces_at(s2, "v2")
    s3, _ = play(s2, "pass")  # the bridged soldier fights for v2
    assert s3.d.control[s3.board.idx("v2")] == K


@pytest.mark.rule("NER-SEA-06")
def test_a_warship_stops_on_entering_an_enemy_sea() -> None:
    s = position([(V, "s3", "warship", 1), (K, "s2", "warship", 1)], kingdom=V)
    ship = ship_uid(s, "s3", V)
    refused(s, f"sail {ship} s3>s2>s1", "NER-SEA-06")
    s2, _ = play(s, f"sail {ship} s3>s2")
    assert not any(n.startswith(f"sail {ship}") for n in notations(s2))


@pytest.mark.rule("NER-SEA-08")
def test_heroes_land_from_a_warship_onto_an_adjacent_dungeon() -> None:
    s = position(
        [(K, "s1", "warship", 1)],
        cargo={0: ["warrior", "soldier"]},
        guardians={"d1": ["goblins"]},
        rolls=[6, 1],
    )
    ship = ship_uid(s, "s1", K)
    refused(s, f"unload {ship} soldier>d1", "NER-SEA-08")
    s2, _ = play(s, f"unload {ship} warrior>d1")
    assert pieces_at(s2, "d1") == [("karkoth", "warrior")]


@pytest.mark.rule("NER-PCS-08")
def test_warships_carry_two_land_pieces_and_never_go_ashore() -> None:
    s = position([(K, "s1", "warship", 1), (K, "k1", "soldier", 3), (K, "k1", "dragon", 1)])
    ship = ship_uid(s, "s1", K)
    refused(s, f"load {ship} dragon k1", "NER-PCS-08")
    s2, _ = play(s, f"load {ship} soldier k1", f"load {ship} soldier k1")
    refused(s2, f"load {ship} soldier k1", "NER-PCS-08")
    refused(s2, f"sail {ship} s1>k1", "NER-PCS-08")
