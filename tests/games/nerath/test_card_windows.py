"""Card timing windows offered to whoever holds a card, and the effect primitives (NER-CRD-*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.games.nerath.boards import BORDERS, EVENTS, GUARDIANS, SETUP, SPACES, TREASURES
from tests.games.nerath.scenario import K, V, notations, pieces_at, play, position
from warhorn.games.nerath.board import CardEffect, EventCard, build_board
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.position import position_from
from warhorn.games.nerath.rules import cards
from warhorn.games.nerath.state import BATTLES, INCOME


def fx(op: str, **params: object) -> CardEffect:
    return CardEffect(op, tuple(sorted(params.items())))  # type: ignore[arg-type]


EXTRA = [
    EventCard("parry", V, "Parry", timing="battle_round", effects=(fx("negate_hits", count=1),)),
    EventCard(
        "second_chance",
        K,
        "Second Chance",
        timing="battle_round",
        effects=(fx("reroll", count=1, side="own"),),
    ),
    EventCard("dispel", V, "Dispel", timing="opponent_turn", effects=(fx("cancel_card", card="event"),)),
    EventCard("ambush", V, "Ambush", timing="when_attacked", effects=(fx("modify_hit_number", hit_on=4),)),
    EventCard("plunder", K, "Plunder", timing="on_conquest", effects=(fx("gain_gold", amount=2),)),
    EventCard("harvest", K, "Harvest", timing="income", effects=(fx("gain_gold", amount=3),)),
    EventCard("hold_fast", V, "Hold Fast", timing="battle_round", effects=(fx("force_retreat"),)),
    EventCard("banish", K, "Banish", timing="dungeon", effects=(fx("destroy_guardian", count=1),)),
]
BOARD = build_board(
    SPACES, BORDERS, setup=SETUP, guardians=GUARDIANS, treasures=TREASURES, events=[*EVENTS, *EXTRA]
)


def at(pieces, **kw):  # type: ignore[no-untyped-def]
    return position(pieces, board=BOARD, **kw)


@pytest.mark.rule("NER-CRD-01")
def test_a_battle_round_card_is_offered_to_the_defender_in_the_attackers_turn() -> None:
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 1])
    s.d.hands[V] = ("parry",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    # Vailin holds a card, so it is asked before the battle too (only "pass" fits there)
    assert s.pending().kind == "card_window" and notations(s) == ["pass"]
    s, _ = play(s, "pass")
    p = s.pending()
    assert p.kind == "card_window" and p.player == s.player_of[V]
    assert notations(s) == ["play parry", "pass"]
    s, _ = play(s, "play parry")  # Karkoth's hit is cancelled
    assert pieces_at(s, "v2") == [("karkoth", "soldier"), ("vailin", "soldier")]
    assert s.pending().kind == "continue_or_retreat" and "parry" in s.d.event_decks[V].discard_pile


@pytest.mark.rule("NER-CRD-01")
def test_a_reroll_changes_the_dice_before_hits_apply() -> None:
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[1, 1, 6])
    s.d.hands[K] = ("second_chance",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass", "fight v2", "pass", "play second_chance")
    assert s.d.control[s.board.idx("v2")] == K


@pytest.mark.rule("NER-CRD-01")
def test_a_card_may_be_cancelled_as_it_is_played() -> None:
    s = at([(K, "k1", "soldier", 1)])
    s.d.hands[K] = ("tax0", "tax0")
    s.d.hands[V] = ("dispel",)
    gold = s.d.gold[K]
    s, _ = play(s, "play tax0")
    assert s.pending().kind == "card_window" and s.pending().player == s.player_of[V]
    s, events = play(s, "play dispel")
    assert s.d.gold[K] == gold and any(e.kind == "card.cancelled" for e in events)
    assert s.d.event_decks[K].discard_pile == ("tax0",)
    s, _ = play(s, "play tax0")  # nobody can answer now: it takes effect
    assert s.d.gold[K] == gold + 2


@pytest.mark.rule("NER-CRD-05")
def test_a_defenders_card_before_the_battle_gives_a_better_hit_number() -> None:
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[1, 4])
    s.d.hands[V] = ("ambush",)
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    assert s.pending().kind == "card_window" and s.d.battle is not None
    s, _ = play(s, "play ambush")  # Vailin's soldier now hits on 4+
    assert pieces_at(s, "v2") == [("vailin", "soldier")]


@pytest.mark.rule("NER-CRD-01")
def test_conquest_and_income_windows() -> None:
    s = at([(K, "k2", "soldier", 1)], rolls=[])
    s.d.hands[K] = ("plunder", "harvest")
    gold = s.d.gold[K]
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    # Karkoth holds cards, so it chooses its (only) battle itself rather than the game starting it
    assert s.pending().kind == "battle_order" and notations(s) == ["fight v2"]
    s, _ = play(s, "fight v2")
    assert s.pending().kind == "card_window" and notations(s) == ["play plunder", "pass"]
    s, _ = play(s, "play plunder", "pass", "pass")
    assert s.d.pos.phase == INCOME and notations(s) == ["play harvest", "pass"]
    s, _ = play(s, "play harvest")
    assert s.current_kingdom == V and s.d.gold[K] == gold + 2 + 3 + 4  # income: 3 base + v2


@pytest.mark.rule("NER-BAT-12")
def test_a_card_can_force_the_attacker_out_after_the_round() -> None:
    s = at([(K, "k2", "soldier", 2), (V, "v2", "soldier", 2)], rolls=[1, 1, 1, 1])
    s.d.hands[V] = ("hold_fast",)
    s, _ = play(s, "move 2 soldier k2>v2", "pass", "pass", "play hold_fast")
    assert "continue" not in notations(s) and all(n.startswith("retreat") for n in notations(s))


@pytest.mark.rule("NER-DUN-08")
def test_a_card_may_defeat_guardians_before_a_dungeon_battle() -> None:
    s = at([(K, "k3", "warrior", 1)], guardians={"d1": ["troll"]}, rolls=[1])
    s.d.hands[K] = ("banish",)
    s.d.treasure_deck = s.d.treasure_deck.put_on_top("crown")
    s, _ = play(s, "move 1 warrior k3>d1", "pass", "fight d1")
    assert s.d.pos.phase == BATTLES and notations(s) == ["play banish", "pass"]
    s, _ = play(s, "play banish")
    assert s.d.treasure_hands[K] == ("crown",)


@pytest.mark.rule("NER-CRD-04")
def test_modifier_primitives() -> None:
    # extra moves: a soldier moves 2
    s = at([(K, "k1", "soldier", 1)])
    cards.run_effect(s, K, fx("extra_move", piece="soldier", moves=1), "", source="t")
    s, _ = play(s, "move 1 soldier k1>k2>v2")
    # cheaper pieces
    r = at([(K, "k1", "castle", 1)], phase=4, gold={K: 3})
    cards.run_effect(r, K, fx("reduce_cost", piece="monster", amount=1), "", source="t")
    r, _ = play(r, "buy monster k1")
    assert r.d.gold[K] == 3 - (PIECES["monster"].cost - 1)
    # ... but never below 1 gold: a free piece could be bought without limit
    z = at([(K, "k1", "castle", 1)], phase=4, gold={K: 1})
    cards.run_effect(z, K, fx("reduce_cost", piece="soldier", amount=1), "", source="t")
    assert cards.cost(z, K, "soldier") == 1
    z, _ = play(z, "buy soldier k1")
    assert z.d.gold[K] == 0 and "buy soldier k1" not in notations(z)
    # first strike for soldiers: Vailin's soldier dies before it rolls
    f = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6])
    cards.run_effect(f, K, fx("grant_first_strike", piece="soldier"), "", source="t")
    f, _ = play(f, "move 1 soldier k2>v2", "pass")
    assert f.d.control[f.board.idx("v2")] == K
    # extra dice: one more d6 in the normal step
    x = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[1, 6, 1])
    cards.run_effect(x, K, fx("extra_dice", sides=6, count=1), "", source="t")
    x, events = play(x, "move 1 soldier k2>v2", "pass")
    assert [len(e.data["dice"]) for e in events if e.kind == "roll"] == [2, 1]
    assert x.d.control[x.board.idx("v2")] == K
    # resilience: Vailin's soldier survives one damage
    z = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 1], kingdom=K)
    cards.run_effect(z, V, fx("grant_resilience", piece="soldier"), "", source="t")
    z, _ = play(z, "move 1 soldier k2>v2", "pass")
    assert next(u for u in z.units_at(z.board.idx("v2")) if u.kingdom == V).damage == 1


@pytest.mark.rule("NER-CRD-06")
def test_discard_and_draw_primitives() -> None:
    s = at([(K, "k1", "soldier", 1)], choices=[0])
    s.d.hands[V] = ("parry", "ambush")
    cards.run_effect(s, K, fx("discard_cards", count=1), "vailin", source="t")
    assert s.d.hands[V] == ("ambush",) and s.d.event_decks[V].discard_pile == ("parry",)


def _asked(hand: tuple[str, ...], **options: object) -> list[tuple[str, int]]:
    """Who is asked what, from the attack to the end of the first battle round (Karkoth hits, Vailin
    misses: a card cancelling a hit has one to cancel), when Vailin holds ``hand``."""
    s = at([(K, "k2", "soldier", 1), (V, "v2", "soldier", 1)], rolls=[6, 1], options=options)
    s.d.hands[V] = hand
    s, _ = play(s, "move 1 soldier k2>v2", "pass")
    asked = []
    while s.pending() is not None and s.pending().kind == "card_window":
        asked.append((s.pending().kind, s.pending().player))
        s, _ = play(s, "pass")
    return asked


@pytest.mark.rule("NER-CRD-01")
def test_being_asked_at_a_window_does_not_reveal_what_the_hand_holds() -> None:
    # Parry fits a battle round, Plunder does not fit any moment of this battle: the same questions come
    fits, does_not_fit = _asked(("parry",)), _asked(("plunder",))
    assert fits == does_not_fit == [("card_window", 1), ("card_window", 1)]
    assert _asked(()) == []  # an empty hand (public: hand counts are shown) is never asked


@pytest.mark.rule("NER-CRD-01")
def test_playable_only_windows_ask_only_holders_of_a_fitting_card() -> None:
    assert _asked(("parry",), card_windows="playable_only") == [("card_window", 1)]
    assert _asked(("plunder",), card_windows="playable_only") == []


@pytest.mark.rule("NER-CRD-01")
def test_a_choice_a_card_asks_after_its_answer_window_lets_the_interrupted_battle_go_on() -> None:
    """Found by random play (seed 4, round cap 30, step 4896): Iron Circle played Hellhound Pack at a
    battle-round window, closing it; the enemies' answer window passed; the card then asked where
    its monster appears. Once answered, the battle's roll waited behind an emptied window for ever
    (``pending()`` failed). The position is that moment, written by ``to_position``."""
    data = json.loads((Path(__file__).parent / "data" / "choice_after_cancel_window.json").read_text())
    s = position_from(data)
    assert [w.name for w in s.d.windows] == ["after", "choose"]
    s, events = play(s, "play hellhound_pack emberplain")
    assert all(w.queue for w in s.d.windows) and s.pending() is not None
    assert any(e.kind == "card.place" for e in events) and any(e.kind == "roll" for e in events)
