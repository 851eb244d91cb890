"""Choices written on treasures and events belong to their holder (NER-CRD-04).

Each effect whose text leaves something open (where new pieces go, which enemy
pays, which pieces, dice or guardians) lists one play action per option; an
effect that runs without a play action (a treasure property, a card played the
moment it is drawn) asks its holder in a ``choose`` window.
"""

from __future__ import annotations

import pytest

from tests.games.nerath.boards import BORDERS, EVENTS, GUARDIANS, SETUP, SPACES, TREASURES
from tests.games.nerath.scenario import IC, K, N, V, begin_turn, notations, pieces_at, play, position
from warhorn.engine.errors import IllegalActionError
from warhorn.games.nerath.board import CardEffect, EventCard, TreasureCard, build_board
from warhorn.games.nerath.rules import economy
from warhorn.games.nerath.state import DRAW, REINFORCEMENTS


def fx(op: str, **params: object) -> CardEffect:
    return CardEffect(op, tuple(sorted(params.items())))  # type: ignore[arg-type]


EXTRA_EVENTS = [
    EventCard(
        "levy",
        K,
        "Levy",
        play_immediately=True,
        timing="immediately",
        effects=(fx("place_pieces", piece="soldier", count=1, where="friendly_territory"),),
    ),
    EventCard(
        "volley", K, "Volley", timing="battle_round", effects=(fx("destroy_piece", count=1, where="battle"),)
    ),
    EventCard("again", K, "Again", timing="battle_round", effects=(fx("reroll", count=1, side="own"),)),
    EventCard("curse", K, "Curse", timing="battle_round", effects=(fx("reroll", count=1, side="enemy"),)),
    EventCard("banish", K, "Banish", timing="dungeon", effects=(fx("destroy_guardian", count=1),)),
    EventCard(
        "stout",
        K,
        "Stout",
        timing="before_battle",
        effects=(fx("grant_resilience", piece="mobile", count=1, duration="battle"),),
    ),
    EventCard(
        "portal",
        K,
        "Portal",
        timing="before_battle",
        effects=(
            fx("transfer_pieces", piece="land", count=2, **{"from": "own_capital", "to": "battle_space"}),
        ),
    ),
    EventCard("mend", K, "Mend", timing="battle_round", effects=(fx("heal", count=1),)),
    EventCard(
        "march", K, "March", timing="movement", effects=(fx("extra_move", piece="soldier", moves=1, count=2),)
    ),
]
BOARD = build_board(
    SPACES, BORDERS, setup=SETUP, guardians=GUARDIANS, treasures=TREASURES, events=[*EVENTS, *EXTRA_EVENTS]
)


def at(pieces, **kw):  # type: ignore[no-untyped-def]
    return position(pieces, board=BOARD, **kw)


@pytest.mark.rule("NER-CRD-04")
def test_the_horns_holder_chooses_the_territory_of_its_three_soldiers() -> None:
    s = at([(K, "k1", "soldier", 1)])
    s.d.treasure_hands[K] = ("horn",)
    assert [n for n in notations(s) if n.startswith("treasure")] == [
        "treasure horn k1",
        "treasure horn k2",
        "treasure horn k3",
    ]
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="holder chooses"):
        s.apply(s.parse("treasure horn v2"))
    assert s.snapshot() == before
    s, _ = play(s, "treasure horn k3")
    assert pieces_at(s, "k3") == [("karkoth", "soldier")] * 3


@pytest.mark.rule("NER-CRD-04")
def test_the_horns_property_asks_its_holder_where_the_soldier_goes_each_turn() -> None:
    s = at([(K, "k1", "soldier", 1)])
    s.d.treasure_hands[K] = ("horn",)
    s, _ = play(s, "treasure horn k1")
    s = begin_turn(s, DRAW)
    p = s.pending()
    assert p is not None and p.kind == "card_window" and p.player == s.player_of[K]
    assert notations(s) == ["treasure horn k1", "treasure horn k2", "treasure horn k3", "pass"]
    s, _ = play(s, "treasure horn k2")
    assert pieces_at(s, "k2") == [("karkoth", "soldier")]
    s = begin_turn(s, DRAW)
    s, _ = play(s, "pass")  # the holder may forgo it
    assert len(pieces_at(s, "k1")) == 4 and len(pieces_at(s, "k2")) == 1


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-TRN-02")
def test_a_card_played_as_drawn_asks_its_holder_what_its_text_leaves_open() -> None:
    s = at([(K, "k1", "soldier", 1)])
    s.d.event_decks[K] = s.d.event_decks[K].__class__(("levy",), ())
    s = begin_turn(s, DRAW)
    assert s.pending().kind == "card_window"
    assert notations(s) == ["play levy k1", "play levy k2", "play levy k3", "pass"]
    s, _ = play(s, "play levy k3")
    assert pieces_at(s, "k3") == [("karkoth", "soldier")]
    assert "levy" in s.d.event_decks[K].discard_pile and "levy" not in s.d.hands[K]


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-CRD-06")
def test_the_holder_names_the_enemy_that_pays() -> None:
    s = at([(K, "k1", "soldier", 1)], gold={K: 0, V: 5, IC: 5, N: 5})
    s.d.hands[K] = ("raid0",)
    assert [n for n in notations(s) if n.startswith("play")] == [
        "play raid0 vailin",
        "play raid0 iron_circle",
        "play raid0 nerath",
    ]
    s, _ = play(s, "play raid0 nerath")
    assert s.d.gold == [2, 5, 5, 3]


@pytest.mark.rule("NER-CRD-04")
def test_the_holder_chooses_which_enemy_piece_a_card_destroys() -> None:
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1), (V, "v2", "dragon", 1)], rolls=[1, 1, 1])
    s.d.hands[K] = ("volley",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2", "pass")  # nothing to play before it
    assert s.pending().kind == "card_window"
    assert [n for n in notations(s) if n.startswith("play")] == [
        "play volley vailin:dragon",
        "play volley vailin:soldier",
    ]
    s, _ = play(s, "play volley vailin:dragon")
    assert ("vailin", "dragon") not in pieces_at(s, "v2")


@pytest.mark.rule("NER-CRD-04")
def test_the_holder_chooses_which_missed_die_to_roll_again() -> None:
    s = at([(K, "k2", "soldier", 1), (K, "k2", "monster", 1), (V, "v2", "soldier", 2)], rolls=[2, 3, 1, 1, 9])
    s.d.hands[K] = ("again",)
    s, _ = play(s, "move 1 soldier k2>v2", "move 1 monster k2>v2", "pass", "fight v2", "pass")
    plays = [n for n in notations(s) if n.startswith("play")]
    assert plays == ["play again d12:3", "play again d6:2"]
    s, events = play(s, "play again d12:3")  # the monster's d12 rolls again: 9 hits
    assert next([f for _, f in e.data["dice"]] for e in events if e.kind == "roll") == [9]


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-DUN-08")
def test_the_holder_chooses_which_guardian_a_card_defeats() -> None:
    s = at([(K, "k3", "warrior", 1)], guardians={"d1": ["goblins", "troll"]}, rolls=[1, 1])
    s.d.hands[K] = ("banish",)
    s, _ = play(s, "move 1 warrior k3>d1", "pass", "fight d1")
    assert s.pending().kind == "card_window"
    assert [n for n in notations(s) if n.startswith("play")] == [
        "play banish goblins@1",
        "play banish troll@2",
    ]
    s, _ = play(s, "play banish troll@2")
    slots = s.d.guardians[s.board.idx("d1")]
    assert [g.tile for g in slots if g.dice] in (["goblins"], [])


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-BAT-05")
def test_resilience_for_one_piece_goes_to_the_piece_the_holder_names_and_to_no_other() -> None:
    s = at([(K, "k2", "soldier", 1), (K, "k2", "monster", 1), (V, "v2", "soldier", 2)], rolls=[1, 1, 6, 6])
    s.d.hands[K] = ("stout",)
    s, _ = play(s, "move 1 soldier k2>v2", "move 1 monster k2>v2", "pass", "fight v2")
    assert [n for n in notations(s) if n.startswith("play")] == ["play stout monster", "play stout soldier"]
    s, _ = play(s, "play stout monster")
    # two hits, one on each attacker: the soldier dies, the named monster survives wounded
    assert [u.ptype for u in s.units_at(s.board.idx("v2")) if u.kingdom == K] == ["monster"]


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-MOV-09")
def test_the_holder_chooses_which_pieces_a_card_sets_down_and_how_many() -> None:
    s = at(
        [(K, "k2", "soldier", 1), (K, "k1", "soldier", 1), (K, "k1", "monster", 1), (V, "v2", "soldier", 1)],
        rolls=[1, 1, 1],
    )
    s.d.hands[K] = ("portal",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2")
    plays = [n for n in notations(s) if n.startswith("play")]
    assert plays == ["play portal v2:monster", "play portal v2:soldier", "play portal v2:monster,soldier"]
    s, _ = play(s, "play portal v2:monster")
    assert pieces_at(s, "k1") == [("karkoth", "soldier")]  # the soldier stays to guard the capital


# --- treasure properties repeat at their moment (found in the audit: only start_of_turn and
# on_conquest ran before; income, movement and dungeon properties never did) ---------------------
PROPERTY_TREASURES = [
    TreasureCard(
        "purse",
        "Purse",
        1,
        timing="own_turn",
        property=(CardEffect("gain_gold", (("amount", 1),), when="income"),),
    ),
    TreasureCard(
        "boots",
        "Boots",
        1,
        timing="own_turn",
        property=(CardEffect("extra_move", (("moves", 1), ("piece", "land")), when="movement"),),
    ),
    TreasureCard(
        "shard",
        "Shard",
        1,
        timing="own_turn",
        property=(
            CardEffect(
                "modify_hit_number",
                (("duration", "battle"), ("hit_on", 6), ("piece", "hero")),
                when="dungeon",
            ),
        ),
    ),
]
PROPERTY_BOARD = build_board(
    SPACES,
    BORDERS,
    setup=SETUP,
    guardians=GUARDIANS,
    treasures=[*TREASURES, *PROPERTY_TREASURES],
    events=EVENTS,
)


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-INC-01")
def test_a_property_of_the_income_phase_pays_in_every_income_phase() -> None:
    s = position([(K, "k1", "soldier", 1)], board=PROPERTY_BOARD, phase=REINFORCEMENTS, gold={K: 0})
    s.d.treasures_in_play[K] = ("purse",)
    s, events = play(s, "pass")  # to income: base income, then the purse's gold
    assert s.d.gold[K] == economy.income_of(s, K) + 1
    assert [e.data["gold"] for e in events if e.kind == "gold"] == [1]


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-MOV-01")
def test_a_property_of_the_movement_phase_works_in_every_movement_phase() -> None:
    s = position([(K, "k1", "soldier", 1)], board=PROPERTY_BOARD)
    s.d.treasures_in_play[K] = ("boots",)
    s = begin_turn(s, DRAW)  # draw, then the movement phase: the boots' extra move
    assert "move 1 soldier k1>k2>v2" in notations(s)


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-CRD-05")
def test_a_property_for_dungeon_battles_works_in_every_dungeon_battle() -> None:
    s = position(
        [(K, "k3", "warrior", 1)], board=PROPERTY_BOARD, guardians={"d1": ["troll"]}, rolls=[6, 1, 1]
    )
    s.d.treasures_in_play[K] = ("shard",)
    s, events = play(s, "move 1 warrior k3>d1", "pass")
    hero = next(e for e in events if e.kind == "roll")
    assert hero.data["hits"] == 1  # a 6 hits the troll despite its 7+ penalty


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-MOV-01")
def test_an_extra_move_for_two_soldiers_serves_two_soldiers_and_no_more() -> None:
    """Found in the audit: a card's extra move for a number of pieces gave it to every matching piece.
    The holder picks which pieces use it by moving them."""
    s = at([(K, "k1", "soldier", 3)])
    s.d.hands[K] = ("march",)
    s, _ = play(s, "play march")
    listed = notations(s)
    assert "move 2 soldier k1>k2>v2" in listed and "move 3 soldier k1>k2>v2" not in listed
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="extra move"):
        s.apply(s.parse("move 3 soldier k1>k2>v2"))
    assert s.snapshot() == before
    s, _ = play(s, "move 1 soldier k1>k2")  # a plain move spends nothing
    s, _ = play(s, "move 2 soldier k1>k2>v2")  # both uses spent by the two that go further
    assert pieces_at(s, "v2") == [("karkoth", "soldier")] * 2
    t = at([(K, "k1", "soldier", 3)])
    t.d.hands[K] = ("march",)
    t, _ = play(t, "play march", "move 2 soldier k1>k2>v2")
    assert not [n for n in notations(t) if n.startswith("move 1 soldier k1>k2>")]  # the third: 1 space
