"""Battle scenarios (phase 3) with scripted dice."""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import K, N, V, begin_turn, notations, pieces_at, play, position, ship_uid
from warhorn.engine.errors import IllegalActionError
from warhorn.games.nerath.state import BATTLES, REPOSITION


def rolls_of(events):  # type: ignore[no-untyped-def]
    return [[f for _, f in e.data["dice"]] for e in events if e.kind == "roll"]


@pytest.mark.rule("NER-BAT-01")
def test_sea_battles_come_first_then_the_attacker_picks_the_order() -> None:
    s = position(
        [(K, "s1", "warship", 1), (V, "s2", "warship", 1), (K, "k2", "soldier", 1), (K, "k3", "soldier", 1),
         (V, "v2", "soldier", 1), (V, "v3", "soldier", 1)],
        rolls=[6, 1],
    )  # fmt: skip
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2", "move 1 soldier k2>v2", "move 1 soldier k3>v3")
    s, events = play(s, "pass")
    starts = [e.data["space"] for e in events if e.kind == "battle.start"]
    assert starts == ["s2"]  # the only sea battle is fought first, before any choice
    assert sorted(notations(s)) == ["fight v2", "fight v3"]


@pytest.mark.rule("NER-BAT-02")
@pytest.mark.rule("NER-PCS-03")
def test_first_strike_hits_land_before_the_others_roll() -> None:
    s = position([(K, "k2", "mage", 1), (V, "v2", "soldier", 1)], rolls=[6])
    s, _ = play(s, "move 1 mage k2>v2")
    s, events = play(s, "pass")  # the soldier dies to the mage's first strike and never rolls
    assert rolls_of(events) == [[6]]
    assert s.d.control[s.board.idx("v2")] == K


@pytest.mark.rule("NER-BAT-02")
def test_every_battle_lasts_a_round_then_the_attacker_decides() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[1, 1])
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.pending().kind == "continue_or_retreat" and s.pending().player == 0
    assert "continue" in notations(s)


@pytest.mark.rule("NER-BAT-03")
@pytest.mark.rule("NER-PCS-07")
def test_one_volley_cannot_put_two_damage_on_one_dragon() -> None:
    s = position([(K, "k2", "soldier", 2), (V, "v2", "dragon", 1)], rolls=[6, 6, 1])
    s, _ = play(s, "move 2 soldier k2>v2")
    s, _ = play(s, "pass")
    dragon = next(u for u in s.units_at(s.board.idx("v2")) if u.ptype == "dragon")
    assert dragon.damage == 1  # two hits, one piece: one damage, the other lost
    # the other reading, as an option: the second damage doubles up and kills it
    d = position(
        [(K, "k2", "soldier", 2), (V, "v2", "dragon", 1)], rolls=[6, 6, 1], options={"damage_doubling": True}
    )
    d, _ = play(d, "move 2 soldier k2>v2", "pass")
    assert pieces_at(d, "v2") == [("karkoth", "soldier"), ("karkoth", "soldier")]


@pytest.mark.rule("NER-BAT-03")
@pytest.mark.rule("NER-BAT-04")
def test_the_owner_chooses_which_pieces_take_damage() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1), (V, "v2", "warrior", 1)], rolls=[6, 1, 1])
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.pending().kind == "damage" and s.pending().player == 1  # Vailin picks during Karkoth's turn
    assert sorted(notations(s)) == ["damage soldier", "damage warrior"]
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse("damage soldier,warrior"))
    assert exc.value.rule == "NER-BAT-03"
    s, _ = play(s, "damage warrior")
    assert pieces_at(s, "v2") == [("karkoth", "soldier"), ("vailin", "soldier")]


@pytest.mark.rule("NER-BAT-05")
def test_a_wounded_dragon_heals_after_the_battle() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "dragon", 1)], rolls=[6, 1])
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    dragon = next(u for u in s.units_at(s.board.idx("v2")) if u.ptype == "dragon")
    assert dragon.damage == 1
    s, _ = play(s, "retreat soldier>k2")
    dragon = next(u for u in s.units_at(s.board.idx("v2")) if u.ptype == "dragon")
    assert dragon.damage == 0


@pytest.mark.rule("NER-BAT-06")
@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-BAT-16")
@pytest.mark.rule("NER-PCS-05")
def test_an_inactive_castle_is_captured_when_the_rest_falls() -> None:
    # round 1: attackers 6,1 (one hit); defenders soldier 1, castle 1
    # round 2: attackers 6,1; the inactive castle does not roll, the soldier rolls 1
    s = position(
        [(K, "k2", "soldier", 2), (V, "v2", "soldier", 1), (V, "v2", "castle", 1)],
        rolls=[6, 1, 1, 1, 6, 1, 1],
    )
    s, _ = play(s, "move 2 soldier k2>v2", "pass", "damage castle", "continue")
    assert s.d.battle is None
    v2 = s.board.idx("v2")
    assert s.d.control[v2] == K
    castle = s.castle_at(v2)
    assert castle is not None and castle.kingdom == K and not castle.inactive


@pytest.mark.rule("NER-BAT-15")
def test_when_both_sides_die_together_the_defender_keeps_the_space() -> None:
    s = position([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 6])
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.d.control[s.board.idx("v2")] == V and pieces_at(s, "v2") == []


def _allied_defence(players: int, **options: object):  # type: ignore[no-untyped-def]
    """Karkoth hits 3 times at v2: Vailin holds 2 soldiers and a warrior there, allied Nerath 2 soldiers."""
    return position(
        [(K, "k2", "soldier", 3), (V, "v2", "soldier", 2), (V, "v2", "warrior", 1), (N, "v2", "soldier", 2)],
        rolls=[6, 6, 6, 1, 1, 1, 1, 1],
        options={"mode": "alliance", "players": players, **options},
    )


@pytest.mark.rule("NER-BAT-07")
def test_without_agreement_allied_defenders_split_damage_half_each_odd_to_the_larger() -> None:
    # option allied_damage=fixed: the default split at once
    t = _allied_defence(4, allied_damage="fixed")
    t, _ = play(t, "move 3 soldier k2>v2", "pass")
    orders = t.d.battle.orders
    assert sorted((o.kingdom, o.hits) for o in orders)[:2] == [(V, 2), (N, 1)]  # 1 + 1, the odd one to Vailin
    assert t.pending().player == t.player_of[V] and t.pending().rule == "NER-BAT-07"


@pytest.mark.rule("NER-BAT-07")
def test_allied_defenders_agree_on_a_split_offered_by_the_ally_with_more_pieces() -> None:
    s = _allied_defence(4)
    s, events = play(s, "move 3 soldier k2>v2", "pass")
    assert any(e.kind == "battle.split_asked" for e in events)
    p = s.pending()
    assert (p.kind, p.player, p.rule) == ("damage_split", s.player_of[V], "NER-BAT-07")
    # every share each ally can hold: Vailin 0..3 pieces, Nerath 0..2
    assert sorted(notations(s)) == [
        "split vailin:1,nerath:2",
        "split vailin:2,nerath:1",
        "split vailin:3,nerath:0",
    ]
    s, _ = play(s, "split vailin:3,nerath:0")
    p = s.pending()
    assert (p.kind, p.player) == ("split_answer", s.player_of[N])
    assert sorted(notations(s)) == ["accept", "refuse"]
    s, _ = play(s, "accept")
    # Vailin's three pieces take the three damage (no choice left); Nerath's two soldiers are untouched
    assert pieces_at(s, "v2") == [("karkoth", "soldier")] * 3 + [("nerath", "soldier")] * 2
    assert s.pending().kind == "continue_or_retreat"


@pytest.mark.rule("NER-BAT-07")
def test_a_refused_offer_falls_back_to_the_default_split() -> None:
    s = _allied_defence(4)
    s, _ = play(s, "move 3 soldier k2>v2", "pass", "split vailin:1,nerath:2")
    s, events = play(s, "refuse")
    assert any(e.kind == "battle.split_refused" for e in events)
    assert sorted((o.kingdom, o.hits) for o in s.d.battle.orders) == [(V, 2), (N, 1)]


@pytest.mark.rule("NER-BAT-07")
def test_one_player_holding_both_allies_settles_the_split_alone() -> None:
    s = _allied_defence(2)
    assert s.player_of[V] == s.player_of[N]
    s, _ = play(s, "move 3 soldier k2>v2", "pass", "split vailin:1,nerath:2")
    assert s.d.battle.split is None
    assert sorted((o.kingdom, o.hits) for o in s.d.battle.orders) == [(V, 1), (N, 2)]


@pytest.mark.rule("NER-BAT-07")
def test_an_impossible_offer_is_refused_naming_the_rule_and_changes_nothing() -> None:
    s = _allied_defence(4)
    s, _ = play(s, "move 3 soldier k2>v2", "pass")
    before = s.snapshot()
    for text in ("split vailin:0,nerath:3", "split vailin:2,nerath:2", "damage soldier", "continue"):
        with pytest.raises(IllegalActionError) as exc:
            s.apply(s.parse(text))
        assert exc.value.rule == "NER-BAT-07"
    assert s.snapshot() == before


@pytest.mark.rule("NER-BAT-07")
def test_no_split_is_asked_when_the_allies_must_take_everything() -> None:
    # five hits on five pieces: each ally loses every piece, nothing to agree on
    s = position(
        [(K, "k2", "soldier", 5), (V, "v2", "soldier", 3), (N, "v2", "soldier", 2)],
        rolls=[6, 6, 6, 6, 6, 1, 1, 1, 1, 1],
        options={"mode": "alliance", "players": 4},
    )
    s, events = play(s, "move 5 soldier k2>v2", "pass")
    assert not any(e.kind == "battle.split_asked" for e in events)
    assert pieces_at(s, "v2") == [("karkoth", "soldier")] * 5


@pytest.mark.rule("NER-BAT-08")
@pytest.mark.rule("NER-SEA-07")
def test_cargo_does_not_fight_at_sea_and_sinks_with_its_warship() -> None:
    s = position([(K, "s1", "warship", 1), (V, "s2", "warship", 1)], cargo={0: ["soldier"]}, rolls=[1, 6])
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2")
    s, events = play(s, "pass")
    assert rolls_of(events) == [[1], [6]]  # one d8 each: the soldier aboard does not roll
    assert pieces_at(s, "s2") == [("vailin", "warship")]
    assert not [u for u in s.d.units.values() if u.kingdom == K]


@pytest.mark.rule("NER-BAT-09")
def test_from_an_enemy_sea_the_landing_is_declared_after_the_sea_battle() -> None:
    s = position(
        [(K, "s1", "warship", 1), (V, "s2", "warship", 1), (V, "t1", "soldier", 1)],
        cargo={0: ["soldier", "warrior"]},
        rolls=[6, 1, 1, 6, 1, 1],
    )
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2")
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse(f"unload {ship} soldier>t1"))
    assert exc.value.rule == "NER-BAT-09"
    s, _ = play(s, "pass")
    assert s.pending().kind == "landing"
    s, events = play(s, f"unload {ship} soldier>t1,warrior>t1")
    assert [e.data["space"] for e in events if e.kind == "battle.start"] == ["t1"]
    assert s.d.control[s.board.idx("t1")] == K


@pytest.mark.rule("NER-BAT-10")
def test_pieces_arriving_by_land_and_sea_fight_as_one_force() -> None:
    s = position(
        [(K, "s1", "warship", 1), (K, "k1", "soldier", 1), (K, "k2", "soldier", 1), (V, "v2", "soldier", 2)],
        rolls=[6, 6, 1, 1],
    )
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"load {ship} soldier k1", f"unload {ship} soldier>v2", "move 1 soldier k2>v2")
    s, events = play(s, "pass")
    assert [e.data["space"] for e in events if e.kind == "battle.start"] == ["v2"]
    assert rolls_of(events)[0] == [6, 6]  # both attackers roll together
    assert s.d.control[s.board.idx("v2")] == K


@pytest.mark.rule("NER-BAT-11")
@pytest.mark.rule("NER-PCS-09")
def test_a_carried_mage_strikes_first_in_a_sea_battle() -> None:
    s = position([(K, "s1", "warship", 1), (V, "s2", "warship", 1)], cargo={0: ["mage"]}, rolls=[6])
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2")
    s, events = play(s, "pass")
    # the mage's first strike sinks the enemy before it rolls; the battle is then over (NER-BAT-15)
    assert rolls_of(events) == [[6]]
    assert pieces_at(s, "s2") == [("karkoth", "mage"), ("karkoth", "warship")]


@pytest.mark.rule("NER-BAT-12")
@pytest.mark.rule("NER-BAT-13")
def test_the_attacker_retreats_all_pieces_together_to_friendly_spaces() -> None:
    s = position(
        [(K, "k2", "soldier", 1), (K, "k3", "soldier", 1), (K, "k1", "dragon", 1), (V, "v2", "soldier", 2)],
        rolls=[1, 1, 1, 1, 1],
    )
    s, _ = play(s, "move 1 soldier k2>v2", "move 1 soldier k3>v3", "move 1 dragon k1>k2>v2")
    s, _ = play(s, "pass", "fight v2")
    # one retreat per destination: soldiers to a friendly territory, the dragon also to a friendly sea
    options = notations(s)
    assert "retreat dragon>k2,soldier>k2" in options
    assert any(n.startswith("retreat dragon>s1") for n in options)
    s2, _ = play(s, "retreat dragon>s1,soldier>k2")
    assert pieces_at(s2, "s1") == [("karkoth", "dragon")] and ("karkoth", "soldier") in pieces_at(s2, "k2")
    assert s2.d.control[s2.board.idx("v2")] == V
    with pytest.raises(IllegalActionError):
        s.apply(s.parse("retreat soldier>v1"))


@pytest.mark.rule("NER-BAT-13")
def test_without_friendly_land_retreat_is_onto_warships_and_the_excess_is_lost() -> None:
    # Karkoth soldiers landed on the island t1 (no friendly land next to it): they may go back aboard
    s = position(
        [(K, "s2", "warship", 1), (K, "t1", "soldier", 3), (V, "t1", "soldier", 3)],
        control={},
        rolls=[1, 1, 1, 1, 1, 1],
    )
    s = begin_turn(s, BATTLES)
    ship = ship_uid(s, "s2")
    assert notations(s)[-1] == f"retreat soldier>ship:{ship},soldier>ship:{ship},soldier>ship:{ship}"
    s, events = play(s, f"retreat soldier>ship:{ship},soldier>ship:{ship},soldier>ship:{ship}")
    assert len(s.cargo_of(ship)) == 2 and any(e.kind == "destroyed" for e in events)


@pytest.mark.rule("NER-BAT-14")
def test_naval_retreat_takes_the_cargo_along() -> None:
    s = position([(K, "s1", "warship", 1), (V, "s2", "warship", 1)], cargo={0: ["soldier"]}, rolls=[1, 1])
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2", "pass")
    assert notations(s) == ["continue", "retreat warship(soldier)>s1", "retreat warship(soldier)>s3"]
    s, _ = play(s, "retreat warship(soldier)>s1")
    assert pieces_at(s, "s1") == [("karkoth", "soldier"), ("karkoth", "warship")]


@pytest.mark.rule("NER-BAT-17")
@pytest.mark.rule("NER-VP-02")
def test_taking_a_capital_scores_five_and_a_territory_one() -> None:
    s = position([(K, "k2", "soldier", 1), (K, "v2", "soldier", 1)], control={"v2": K}, rolls=[])
    s, _ = play(s, "move 1 soldier k2>v2")
    t = position([(K, "v2", "soldier", 1)], control={"v2": K})
    t, _ = play(t, "move 1 soldier v2>v1", "pass")
    assert t.d.vp[K] == 5
    u = position([(K, "k2", "soldier", 1)])
    u, _ = play(u, "move 1 soldier k2>v2", "pass")
    assert u.d.vp[K] == 1
    # retaking one's own starting territory scores nothing
    w = position([(K, "k1", "soldier", 1)], control={"k2": V})
    w, _ = play(w, "move 1 soldier k1>k2", "pass")
    assert w.d.control[w.board.idx("k2")] == K and w.d.vp[K] == 0


@pytest.mark.rule("NER-VP-02")
def test_retaking_a_lost_enemy_territory_scores_again_in_a_later_turn() -> None:
    s = position([(K, "k2", "soldier", 1)])
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.d.vp[K] == 1
    s.d.control[s.board.idx("v2")] = V  # Vailin took it back meanwhile
    for u in list(s.units_at(s.board.idx("v2"))):
        s.remove(u.uid)
    s.add_unit(K, "soldier", s.board.idx("k2"))
    s = begin_turn(s, kingdom=K)
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.d.vp[K] == 2


@pytest.mark.rule("NER-BAT-19")
@pytest.mark.rule("NER-INC-02")
def test_liberating_an_allys_territory_gives_it_back() -> None:
    opts = {"mode": "alliance", "players": 2}
    s = position(
        [(N, "v2", "warrior", 1), (K, "v3", "soldier", 1)],
        control={"v3": K},
        kingdom=N,
        options=opts,
        rolls=[6, 1],
    )
    s, _ = play(s, "move 1 warrior v2>v3", "pass")
    v3 = s.board.idx("v3")
    assert s.d.control[v3] == V and s.d.vp[N] == 0
    assert pieces_at(s, "v3") == [("nerath", "warrior")]
    from warhorn.games.nerath.rules.economy import income_of

    assert income_of(s, N) == s.board.base_income[N]  # no income for Nerath from v3


@pytest.mark.rule("NER-BAT-20")
@pytest.mark.rule("NER-PCS-04")
def test_a_surviving_monster_runs_amok_into_an_empty_enemy_territory() -> None:
    s = position([(K, "k2", "monster", 1), (V, "v2", "soldier", 1), (V, "v1", "soldier", 1)], rolls=[6, 1])
    s, _ = play(s, "move 1 monster k2>v2", "pass")
    assert s.pending().kind == "run_amok"
    assert notations(s) == ["amok v3", "pass"]  # v1 holds a Vailin soldier; k-spaces are friendly
    s, _ = play(s, "amok v3")
    assert s.d.control[s.board.idx("v3")] == K and s.d.vp[K] == 2
    assert s.d.pos.phase == REPOSITION


@pytest.mark.rule("NER-BAT-21")
def test_each_battle_is_fought_with_the_pieces_there_when_phase_three_starts() -> None:
    s = position(
        [(K, "k2", "monster", 1), (K, "k3", "soldier", 1), (V, "v2", "soldier", 1), (V, "v3", "soldier", 1)],
        rolls=[6, 1, 1, 1],
    )
    s, _ = play(s, "move 1 monster k2>v2", "move 1 soldier k3>v3", "pass", "fight v2")
    s, events = play(s, "pass")  # no amok; the v3 battle starts at once, without the monster
    assert [e.data["space"] for e in events if e.kind == "battle.start"] == ["v3"]
    assert rolls_of(events)[0] == [1]  # only the soldier attacks at v3


@pytest.mark.rule("NER-BAT-18")
@pytest.mark.rule("NER-INC-03")
def test_a_kingdom_without_its_capital_plays_on_with_half_income() -> None:
    from warhorn.games.nerath.rules.economy import income_of

    s = position([(K, "v1", "soldier", 1), (V, "v2", "soldier", 1)], control={"v1": K}, kingdom=V)
    # Vailin: 4 starting territories, 1 lost (its capital): 3 gold, halved and rounded up = 2
    assert income_of(s, V) == 2
    assert s.pending().player == s.player_of[V]
    s, _ = play(s, "pass", "pass", "pass")
    assert s.d.gold[V] == s.board.start_gold[V] + 2


@pytest.mark.rule("NER-PCS-01")
def test_a_hit_is_six_or_more_on_every_die() -> None:
    # attacker: soldier d6 shows 6 (hit), warrior d10 shows 5 (miss); defender dragon d20 shows 5 (miss)
    s = position([(K, "k2", "soldier", 1), (K, "k2", "warrior", 1), (V, "v2", "dragon", 1)], rolls=[6, 5, 5])
    s, events = play(s, "move 1 soldier k2>v2", "move 1 warrior k2>v2", "pass")
    assert [e.data["hits"] for e in events if e.kind == "roll"] == [1, 0]
    dragon = next(u for u in s.units_at(s.board.idx("v2")) if u.ptype == "dragon")
    assert dragon.damage == 1


@pytest.mark.rule("NER-PCS-02")
def test_a_siege_engine_rolls_two_dice_attacking_and_one_defending() -> None:
    s = position([(K, "k2", "siege", 1), (V, "v2", "soldier", 2)], rolls=[6, 6, 1, 1])
    s, events = play(s, "move 1 siege k2>v2", "pass")
    assert [len(e.data["dice"]) for e in events if e.kind == "roll"] == [2, 2]
    assert s.d.control[s.board.idx("v2")] == K  # two hits from one siege engine
    t = position([(V, "v2", "soldier", 1), (K, "k2", "siege", 1)], rolls=[1, 1], kingdom=V)
    t, events = play(t, "move 1 soldier v2>k2", "pass")
    assert [len(e.data["dice"]) for e in events if e.kind == "roll"] == [1, 1]


@pytest.mark.rule("NER-PCS-06")
def test_an_air_elemental_rolls_two_d8_in_a_sea_battle() -> None:
    s = position([(K, "s1", "elemental", 1), (V, "s2", "warship", 1)], rolls=[6, 6, 1])
    s, events = play(s, "move 1 elemental s1>s2", "pass")
    assert [len(e.data["dice"]) for e in events if e.kind == "roll"] == [2, 1]
    assert pieces_at(s, "s2") == [("karkoth", "elemental")]


@pytest.mark.rule("NER-BAT-19")
@pytest.mark.rule("NER-REI-04")
def test_a_liberated_allied_capital_serves_its_owner_next_turn() -> None:
    opts = {"mode": "alliance", "players": 2}
    s = position(
        [(N, "v2", "warrior", 1), (K, "v1", "soldier", 1), (K, "v1", "castle", 1)],
        control={"v1": K},
        kingdom=N,
        options=opts,
        rolls=[6, 1, 1, 6, 1],
    )
    s, _ = play(s, "move 1 warrior v2>v1", "pass", "damage castle", "continue")
    v1 = s.board.idx("v1")
    assert s.d.control[v1] == V and s.castle_at(v1).kingdom == V and s.d.vp[N] == 0
    s = begin_turn(s, 4, V)  # Vailin's reinforcements: its capital castle is usable again
    assert "buy soldier v1" in notations(s)


@pytest.mark.rule("NER-BAT-09")
def test_after_a_won_sea_battle_cargo_may_land_on_friendly_land_without_a_fight() -> None:
    s = position(
        [(K, "s1", "warship", 1), (V, "s2", "warship", 1)],
        cargo={0: ["soldier"]},
        control={"t1": K},
        rolls=[6, 1],
    )
    ship = ship_uid(s, "s1")
    s, _ = play(s, f"sail {ship} s1>s2", "pass")
    assert sorted(notations(s)) == [f"stay {ship}", f"unload {ship} soldier>i2", f"unload {ship} soldier>t1"]
    s, events = play(s, f"unload {ship} soldier>t1")
    assert not [e for e in events if e.kind == "battle.start"] and pieces_at(s, "t1") == [
        ("karkoth", "soldier")
    ]
