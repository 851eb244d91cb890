"""Setup, turn flow, control, income, victory and cards."""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import IC, K, N, V, begin_turn, notations, pieces_at, play, position
from warhorn.engine.deck import Deck
from warhorn.engine.errors import IllegalActionError, OptionError
from warhorn.engine.registry import load_game
from warhorn.games.nerath import NerathState
from warhorn.games.nerath.board import DUNGEON, LAND, CardEffect
from warhorn.games.nerath.rules import cards
from warhorn.games.nerath.rules.economy import income_of
from warhorn.games.nerath.state import DRAW, INCOME, MOVEMENT, REINFORCEMENTS


def shipped(**options):  # type: ignore[no-untyped-def]
    state = load_game("nerath", seed=7, **options)
    assert isinstance(state, NerathState)
    return state


# --- setup ---------------------------------------------------------------------------
@pytest.mark.rule("NER-SET-01")
@pytest.mark.rule("NER-TRN-01")
def test_turns_run_six_phases_in_kingdom_order_and_rounds_of_four() -> None:
    s = position([(K, "k1", "soldier", 1)], phase=DRAW)
    seen = []
    for _ in range(4):
        seen.append((s.current_kingdom, s.d.pos.phase))
        s, events = play(s, "pass", "pass", "pass")  # movement, reposition, reinforcements
        phases = [e.data["phase"] for e in events if e.kind == "flow.phase"]
        assert phases[:4] == ["battles", "reposition", "reinforcements", "income"]
    assert seen == [(K, MOVEMENT), (V, MOVEMENT), (IC, MOVEMENT), (N, MOVEMENT)]
    assert s.d.pos.round == 2 and s.current_kingdom == K


@pytest.mark.rule("NER-SET-02")
@pytest.mark.rule("NER-SET-03")
@pytest.mark.rule("NER-SET-04")
def test_capitals_treasuries_and_base_income_of_the_four_kingdoms() -> None:
    s = shipped()
    caps = [s.board.sid(c) for c in s.board.capitals]
    assert caps == ["karkothi_throneholds", "vailindor", "citadel_of_irons_grasp", "mithralfast"]
    # Karkoth already drew in its first turn; the treasuries are the starting ones (a windfall card aside)
    assert list(s.board.start_gold) == [10, 11, 12, 13]
    assert [s.d.gold[k] for k in (V, IC, N)] == [11, 12, 13]
    assert (
        list(s.board.base_income)
        == [len(s.board.starting_territories(k)) for k in range(4)]
        == [15, 13, 13, 14]
    )


@pytest.mark.rule("NER-SET-05")
def test_modes_and_who_plays_which_kingdom() -> None:
    assert shipped().player_of == (0, 1, 2, 3)
    two = shipped(mode="alliance", players=2)
    assert two.player_of == (0, 1, 0, 1) and two.allied(K, IC) and not two.allied(K, V)
    three = shipped(mode="alliance", players=3)
    assert three.player_of == (1, 0, 2, 0)  # P1 Vailin+Nerath, P2 Karkoth, P3 Iron Circle
    four = shipped(mode="alliance", players=4)
    assert four.player_of == (0, 1, 2, 3) and four.allied(V, N)
    assert not shipped().allied(K, IC)  # free-for-all: no alliances
    with pytest.raises(OptionError):
        load_game("nerath", players=3)
    # a player with two kingdoms plays each one's turn separately
    assert two.pending().player == 0 and two.current_kingdom == K


@pytest.mark.rule("NER-SET-06")
def test_setup_deals_two_events_and_one_guardian_per_dungeon() -> None:
    s = shipped()
    for k in (V, IC, N):
        assert len(s.d.hands[k]) == 2
    assert len(s.d.hands[K]) in (2, 3)  # Karkoth's first draw has happened (or a play-immediately card)
    dungeons = [i for i in range(len(s.board)) if s.board.kind[i] == DUNGEON]
    assert len(dungeons) == 10 and all(len(s.d.guardians[i]) == 1 for i in dungeons)
    assert all(not g.face_up for i in dungeons for g in s.d.guardians[i])
    assert len(s.d.guardian_stack.draw_pile) == len(s.board.guardian_tiles()) - 10
    assert s.d.vp == [0, 0, 0, 0]
    assert all(s.d.control[i] == s.board.owner[i] for i in range(len(s.board)) if s.board.kind[i] == LAND)
    for u in s.d.units.values():
        assert s.board.owner[u.space] in (u.kingdom, -1) and s.board.kind[u.space] != DUNGEON


@pytest.mark.rule("NER-SET-07")
def test_game_length_is_an_option() -> None:
    assert shipped().options["length"] == "medium"
    assert shipped(length="short").options["length"] == "short"
    with pytest.raises(OptionError):
        load_game("nerath", length="endless")


@pytest.mark.rule("NER-TRN-02")
@pytest.mark.rule("NER-CRD-01")
def test_draw_one_card_play_immediately_cards_and_reshuffle() -> None:
    s = position([(K, "k1", "soldier", 1)])
    s.d.event_decks[K] = Deck((), ("tax0", "windfall0"))
    s.d.hands[K] = ("raid0", "warlord0", "tax0")  # the rest of the deck in hand: no hand limit
    gold = s.d.gold[K]
    s = begin_turn(s, DRAW)  # the deck is empty: the discards are shuffled in (order kept by the script)
    assert s.d.hands[K] == ("raid0", "warlord0", "tax0", "tax0")
    assert s.d.event_decks[K].draw_pile == ("windfall0",)
    s = begin_turn(s, DRAW)  # windfall is played at once: +1 gold, discarded face up
    assert s.d.gold[K] == gold + 1 and "windfall0" in s.d.event_decks[K].discard_pile
    assert "windfall0" not in s.d.hands[K]
    assert "play tax0" in notations(s)
    s, _ = play(s, "play tax0")
    assert s.d.gold[K] == gold + 3 and s.d.event_decks[K].discard_pile[-1] == "tax0"


@pytest.mark.rule("NER-CRD-01")
def test_cards_are_played_only_in_their_window() -> None:
    s = position(
        [(K, "k2", "soldier", 1), (K, "k3", "soldier", 1), (V, "v2", "soldier", 1), (V, "v3", "soldier", 1)],
        rolls=[5, 1, 6, 1],
    )
    s.d.hands[K] = ("warlord0",)
    assert "play warlord0" not in notations(s)  # a battle card, not a movement card
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse("play warlord0"))
    assert exc.value.rule == "NER-CRD-01"
    s, _ = play(s, "move 1 soldier k2>v2", "move 1 soldier k3>v3", "pass", "fight v2")
    assert notations(s) == ["play warlord0", "pass"]  # offered once the battle is declared
    s, _ = play(s, "play warlord0")  # Karkoth hits on 5+: the 5 hits
    assert s.d.control[s.board.idx("v2")] == K


# --- the board ---------------------------------------------------------------------------
@pytest.mark.rule("NER-MAP-02")
def test_only_listed_borders_count() -> None:
    s = position([(K, "k1", "warrior", 1)])
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse("move 1 warrior k1>v3"))
    assert exc.value.rule == "NER-MAP-02"


@pytest.mark.rule("NER-MAP-03")
def test_coastal_territories_and_islands() -> None:
    b = position().board
    assert b.coastal[b.idx("k1")] and b.coastal[b.idx("t1")]
    assert not b.coastal[b.idx("k3")] and not b.coastal[b.idx("s1")]


@pytest.mark.rule("NER-MAP-04")
@pytest.mark.rule("NER-MAP-05")
@pytest.mark.rule("NER-MAP-06")
def test_control_friendly_and_enemy_spaces() -> None:
    s = position([(V, "s2", "warship", 1)], control={"k2": V})
    k1, k2, s1, s2, d1 = (s.board.idx(x) for x in ("k1", "k2", "s1", "s2", "d1"))
    assert s.controller(k1) == K  # empty and unmarked: its original kingdom
    assert s.controller(k2) == V and s.controller(s1) == -1  # a marker; nobody controls the sea
    assert s.is_friendly(k1, K) and s.is_enemy(k2, K) and s.is_friendly(s1, K) and s.is_enemy(s2, K)
    assert not s.is_friendly(d1, K) and not s.is_enemy(d1, K)  # dungeons: friendly to none, not "enemy"
    assert not s.is_friendly(d1, V)


@pytest.mark.rule("NER-MAP-07")
def test_no_stacking_limit() -> None:
    s = position([(K, "k1", "soldier", 30)])
    s, _ = play(s, "move 30 soldier k1>k2")
    assert len(pieces_at(s, "k2")) == 30


@pytest.mark.rule("NER-MOV-09")
def test_card_transfers_are_not_movement() -> None:
    s = position([(K, "k1", "soldier", 2)], control={"t1": K})
    cards.run_effect(
        s,
        K,
        CardEffect("transfer_pieces", (("count", 2), ("piece", "soldier"), ("to", "friendly_territory"))),
        "t1",
        source="test",
    )
    assert pieces_at(s, "t1") == [("karkoth", "soldier"), ("karkoth", "soldier")]  # far from k1: not a move
    assert not any(n.startswith("move") for n in notations(s))  # they may not move on this turn


# --- income and victory ------------------------------------------------------------------------
@pytest.mark.rule("NER-INC-01")
@pytest.mark.rule("NER-INC-04")
def test_income_is_base_plus_gains_minus_losses() -> None:
    s = position([], control={"v1": K, "v2": K, "k3": V}, kingdom=K, phase=REINFORCEMENTS)
    # Karkoth: base 3, +2 (v1 Vailin's capital counts 1 like any territory), -1 (k3)
    assert income_of(s, K) == 3 + 2 - 1
    gold = s.d.gold[K]
    s, events = play(s, "pass")
    assert s.d.gold[K] == gold + 4 and any(e.kind == "income" for e in events)
    assert s.d.pos.phase != INCOME and s.current_kingdom == V


def end_round(s):  # type: ignore[no-untyped-def]
    """Pass through Nerath's turn (the last of the round)."""
    s = begin_turn(s, REINFORCEMENTS, N)
    s, _ = play(s, "pass")
    while s.results() is None and s.pending().kind == "card_window":  # Nerath holds cards: income window
        s, _ = play(s, "pass")
    return s


@pytest.mark.rule("NER-WIN-01")
@pytest.mark.rule("NER-VP-01")
def test_free_for_all_targets_strict_lead_checked_at_round_end() -> None:
    s = position([(K, "k1", "soldier", 1)])
    s.d.vp = [20, 5, 0, 0]
    s, _ = play(s, "pass", "pass", "pass")  # Karkoth's turn ends: no victory before the round ends
    assert s.results() is None
    s = end_round(s)
    assert s.results() is not None and s.results().winners == frozenset({0})
    tie = position([(K, "k1", "soldier", 1)], options={"length": "short"})
    tie.d.vp = [13, 13, 0, 0]
    tie = end_round(tie)
    assert tie.results() is None and tie.d.pos.round == 2  # tied for most: play on
    tie.d.vp = [14, 13, 0, 0]
    tie = end_round(tie)
    assert tie.results().winners == frozenset({0})


@pytest.mark.rule("NER-WIN-02")
def test_long_game_all_capitals_or_eight_treasures() -> None:
    s = position(
        [(K, "k1", "soldier", 1)],
        options={"length": "long"},
        control={"v1": K, "i1": K, "n1": K},
        phase=REINFORCEMENTS,
    )
    s, _ = play(s, "pass")  # the end of Karkoth's own turn: it holds every capital
    assert s.results() is not None and s.results().winners == frozenset({0})
    t = position([(K, "k1", "soldier", 1)], options={"length": "long"})
    t.d.treasure_hands[V] = ("ring",) * 5
    t.d.treasures_in_play[V] = ("crown",) * 3
    t.d.treasure_hands[K] = ("ring",) * 8
    t = end_round(t)
    assert t.results() is None  # 8 each: nobody has strictly more
    t.d.treasure_hands[K] = ("ring",) * 9
    t = end_round(t)
    assert t.results().winners == frozenset({0})


@pytest.mark.rule("NER-WIN-03")
def test_allies_pool_vp_and_treasures() -> None:
    opts = {"mode": "alliance", "players": 2}
    s = position([(K, "k1", "soldier", 1)], options=opts)
    s.d.vp = [15, 10, 14, 9]  # Karkoth + Iron Circle: 29 < 30
    s = end_round(s)
    assert s.results() is None
    s.d.vp = [16, 10, 14, 9]
    s = end_round(s)
    assert s.results().winners == frozenset({0}) and s.results().scores[0] == 30
    short = position([(K, "k1", "soldier", 1)], options={**opts, "length": "short", "alliance_short_vp": 13})
    short.d.vp = [7, 0, 6, 0]
    assert end_round(short).results().winners == frozenset({0})
    long = position([(K, "k1", "soldier", 1)], options={**opts, "length": "long"})
    long.d.treasure_hands[V] = ("ring",) * 6
    long.d.treasure_hands[N] = ("ring",) * 6
    assert end_round(long).results().winners == frozenset({1})


# --- treasures and gold ---------------------------------------------------------------------------
@pytest.mark.rule("NER-CRD-02")
@pytest.mark.rule("NER-CRD-03")
@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-VP-03")
def test_treasures_score_their_vp_run_the_power_once_and_keep_the_property() -> None:
    s = position([(K, "k1", "soldier", 1)])
    s.d.treasure_hands[K] = ("horn",)
    s, _ = play(s, "treasure horn k1")
    assert s.d.vp[K] == 2 and s.d.treasures_in_play[K] == ("horn",) and s.d.treasure_hands[K] == ()
    assert len(pieces_at(s, "k1")) == 4  # the power: 3 new soldiers, once
    s = begin_turn(s, DRAW)  # the property: 1 new soldier at the start of each of Karkoth's turns
    s, _ = play(s, "treasure horn k1")  # where it goes is the holder's choice (NER-CRD-04)
    assert len(pieces_at(s, "k1")) == 5


@pytest.mark.rule("NER-CRD-06")
def test_stolen_gold_moves_between_treasuries() -> None:
    s = position([(K, "k1", "soldier", 1)], gold={K: 3, V: 1, IC: 9, N: 0})
    s.d.hands[K] = ("raid0",)
    s, _ = play(s, "play raid0 iron_circle")  # the enemy the holder names loses 2 (NER-CRD-04)
    assert s.d.gold == [5, 1, 7, 0]
