"""A card is offered only when playing it can change something (NER-CRD-01), pieces a card serves
are its holder's choice (NER-CRD-04), and a standing extra move for a number of pieces is counted
afresh each turn.

Found in the round-2 audit of issue 18: Unholy Vigour ("one of your monsters in this battle") was
offered in battles where its holder had no monster; first strike for a number of pieces went to the
first matching pieces; a standing property "extra move for N pieces" served every piece.
"""

from __future__ import annotations

import pytest

from tests.games.nerath.boards import BORDERS, EVENTS, GUARDIANS, SETUP, SPACES, TREASURES
from tests.games.nerath.scenario import K, V, begin_turn, notations, pieces_at, play, position
from warhorn.games.nerath.actions import Pass
from warhorn.games.nerath.board import CardEffect, EventCard, TreasureCard, build_board
from warhorn.games.nerath.rules import battle_flow, cards
from warhorn.games.nerath.state import DRAW, REINFORCEMENTS, CardWindow


def fx(op: str, **params: object) -> CardEffect:
    return CardEffect(op, tuple(sorted(params.items())))  # type: ignore[arg-type]


def event(cid: str, timing: str, effect: CardEffect) -> EventCard:
    return EventCard(cid, K, cid.title(), timing=timing, effects=(effect,))


PLAYABILITY_EVENTS = [
    event("vigour", "before_battle", fx("grant_resilience", piece="monster", count=1, duration="battle")),
    event("archers", "before_battle", fx("grant_first_strike", piece="any", count=1, duration="battle")),
    event("mist", "battle_round", fx("negate_hits", count=1)),
    event("again", "battle_round", fx("reroll", count=1, side="own")),
    event("mend", "battle_round", fx("heal", count=1)),
    event("sails", "movement", fx("extra_move", piece="warship", moves=1, count=0)),
    event("tithe", "income", fx("gain_gold", amount=1, per="conquest_this_turn", maximum=3)),
    event("levy", "own_turn", fx("place_pieces", piece="castle", count=1, where="friendly_territory")),
    event("guild", "reinforcements", fx("reduce_cost", piece="warship", amount=1)),
]
SADDLE = TreasureCard(
    "saddle",
    "Saddle",
    1,
    timing="own_turn",
    property=(CardEffect("extra_move", (("count", 1), ("moves", 1), ("piece", "land"))),),
)
BOARD = build_board(
    SPACES,
    BORDERS,
    setup=SETUP,
    guardians=GUARDIANS,
    treasures=[*TREASURES, SADDLE],
    events=[*EVENTS, *PLAYABILITY_EVENTS],
)


def at(pieces, **kw):  # type: ignore[no-untyped-def]
    return position(pieces, board=BOARD, **kw)


def plays(s) -> list[str]:  # type: ignore[no-untyped-def]
    return [n for n in notations(s) if n.startswith(("play", "treasure"))]


@pytest.mark.rule("NER-CRD-01")
def test_a_card_for_your_monster_in_the_battle_is_not_offered_without_one() -> None:
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)])
    s.d.hands[K] = ("vigour",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2")
    p = s.pending()
    assert p is not None and p.kind == "card_window" and p.player == s.player_of[K]  # still asked
    assert notations(s) == ["pass"]
    t = at([(K, "k2", "soldier", 1), (K, "k2", "monster", 1), (V, "v2", "soldier", 1)])
    t.d.hands[K] = ("vigour",)
    t, _ = play(t, "move 1 soldier k2>v2", "move 1 monster k2>v2", "pass", "fight v2")
    assert plays(t) == ["play vigour"]  # one monster: nothing to choose


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-BAT-04")
def test_first_strike_for_one_piece_goes_to_the_piece_the_holder_names() -> None:
    s = at([(K, "k2", "soldier", 1), (K, "k2", "monster", 1), (V, "v2", "soldier", 1)], rolls=[1] * 6)
    s.d.hands[K] = ("archers",)
    s, _ = play(s, "move 1 soldier k2>v2", "move 1 monster k2>v2", "pass", "fight v2")
    assert plays(s) == ["play archers monster", "play archers soldier"]
    attackers = battle_flow.participants(s, defenders=False)
    s, events = play(s, "play archers soldier")  # the first-strike step rolls at once
    assert [u.ptype for u in cards.first_strike_units(s, attackers)] == ["soldier"]
    first_step = next(e for e in events if e.kind == "roll")
    assert [sides for sides, _ in first_step.data["dice"]] == [6]  # the soldier's d6, not the d12


@pytest.mark.rule("NER-CRD-01")
def test_battle_round_cards_are_offered_only_when_the_dice_leave_them_something_to_do() -> None:
    # Karkoth's soldier hits (6), Vailin's misses (1): no enemy hit to cancel, no missed die of
    # Karkoth's to roll again, nothing of Karkoth's hurt: nothing to play.
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 1])
    s.d.hands[K] = ("mist", "again", "mend")
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2", "pass")
    assert s.pending().kind == "card_window" and notations(s) == ["pass"]
    # The other way round: Vailin's hit may be cancelled and Karkoth's miss rolled again.
    t = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[1, 6])
    t.d.hands[K] = ("mist", "again", "mend")
    t, _ = play(t, "move 1 soldier k2>v2", "pass", "fight v2", "pass")
    assert plays(t) == ["play again", "play mist"]


@pytest.mark.rule("NER-CRD-01")
def test_cards_that_would_find_nothing_to_act_on_are_not_offered() -> None:
    castles = [(K, "k1", "castle", 1), (K, "k2", "castle", 1)]
    s = at([(K, "k1", "soldier", 1), *castles])
    s.d.hands[K] = ("sails", "levy")
    assert "play sails" not in notations(s)  # no warship to sail further
    assert [n for n in notations(s) if n.startswith("play levy")] == ["play levy"]  # k3: no choice
    full = at([(K, "k1", "soldier", 1), *castles, (K, "k3", "castle", 1)])
    full.d.hands[K] = ("levy",)
    assert plays(full) == []  # a castle on every territory: nowhere to raise one
    income = CardWindow("income", (K,), "none")
    s.d.hands[K] = ("tithe",)
    assert cards.playable_cards(s, K, income) == []  # nothing conquered this turn
    s.d.control_at_start = tuple(V if s.board.sid(i) == "k2" else c for i, c in enumerate(s.d.control))
    assert [a.notation() for a in cards.playable_cards(s, K, income)] == ["play tithe"]


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-MOV-01")
def test_a_standing_extra_move_for_one_piece_serves_one_piece_each_turn() -> None:
    s = at([(K, "k1", "soldier", 3)])
    s.d.treasures_in_play[K] = ("saddle",)
    s = begin_turn(s, DRAW)  # draw, then the movement phase
    listed = notations(s)
    assert "move 1 soldier k1>k2>v2" in listed and "move 2 soldier k1>k2>v2" not in listed
    s, _ = play(s, "move 1 soldier k1>k2>v2")
    assert not [n for n in notations(s) if n.startswith("move 1 soldier k1>k2>")]  # spent this turn
    s = begin_turn(s, DRAW)  # the next turn: whole again
    assert "move 1 soldier k1>k2>v2" in notations(s)


@pytest.mark.rule("NER-CRD-04")
@pytest.mark.rule("NER-CRD-02")
def test_a_standing_extra_move_holds_from_the_moment_its_treasure_is_played() -> None:
    s = at([(K, "k1", "soldier", 3)])
    s.d.treasure_hands[K] = ("saddle",)
    assert "move 1 soldier k1>k2>v2" not in notations(s)
    s, _ = play(s, "treasure saddle")
    listed = notations(s)
    assert "move 1 soldier k1>k2>v2" in listed and "move 2 soldier k1>k2>v2" not in listed
    assert pieces_at(s, "k1") == [("karkoth", "soldier")] * 3


@pytest.mark.rule("NER-CRD-01")
def test_a_window_where_no_held_card_can_change_anything_answers_itself() -> None:
    """Issue 19: the window is still offered to every holder (being asked reveals nothing), and
    its automatic answer is a pass; a window with something playable has none."""
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)])
    s.d.hands[K] = ("vigour",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2")
    assert s.pending().kind == "card_window" and s.auto_answer() == Pass()
    t = at([(K, "k2", "monster", 1), (V, "v2", "soldier", 1)])
    t.d.hands[K] = ("vigour",)
    t, _ = play(t, "move 1 monster k2>v2", "pass", "fight v2")
    assert t.pending().kind == "card_window" and t.auto_answer() is None
    u = at([(K, "k1", "soldier", 1)])
    assert u.pending().kind != "card_window" and u.auto_answer() is None  # not a card window


@pytest.mark.rule("NER-CRD-01")
@pytest.mark.rule("NER-REI-01")
def test_a_discount_is_offered_only_to_a_holder_who_could_pay_the_lower_price() -> None:
    poor = at([(K, "k1", "soldier", 1)], phase=REINFORCEMENTS, gold={K: 0})
    poor.d.hands[K] = ("guild",)
    assert "play guild" not in notations(poor)  # not even the cheaper warship is affordable
    rich = at([(K, "k1", "soldier", 1)], phase=REINFORCEMENTS, gold={K: 1})
    rich.d.hands[K] = ("guild",)
    assert "play guild" in notations(rich)  # a warship for 1 gold instead of 2
