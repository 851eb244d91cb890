"""Random legal play to the end (a fuzzer, not a proof), views and determinization."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.nerath.boards import small_board
from warhorn.engine.rng import Rng
from warhorn.games.nerath import NerathState

CASES: list[dict[str, Any]] = [
    {},
    {"mode": "alliance", "players": 2},
    {"mode": "alliance", "players": 3, "length": "long"},
    {"mode": "alliance", "players": 4, "length": "short"},
    {"length": "short", "damage_doubling": True, "reposition_flyers_cross_enemy": False},
]


@pytest.mark.parametrize("options", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_end_and_keep_invariants(options: dict[str, Any], seed: int) -> None:
    s = NerathState.new(small_board(), {"round_cap": 12, **options}, seed=seed)
    chooser = Rng(seed * 7919)
    for step in range(20_000):
        if s.pending() is None:
            break
        legal = s.legal_actions()
        assert legal and len(legal) == len(set(legal))
        s, _ = s.apply(legal[chooser.below(len(legal))])
        assert s.invariants() == [], step
        if step % 97 == 0:
            for p in range(s.num_players):
                assert s.determinize(p, Rng(step)).view_json(p) == s.view_json(p)
    res = s.results()
    assert res is not None and res.winners


def test_views_hide_hands_decks_and_face_down_guardians() -> None:
    s = NerathState.new(small_board(), {}, seed=3)
    s.d.treasure_hands[1] = ("crown",)
    mine = s.view(0)["kingdoms"]
    assert "hand" in mine[0] and "hand" not in mine[1] and mine[1]["hand_count"] == 2
    assert mine[1]["treasure_hand_count"] == 1 and "treasure_hand" not in mine[1]
    d1 = next(x for x in s.view(0)["spaces"] if x["id"] == "d1")
    assert d1["guardians_face_down"] == 1 and "guardians" not in d1
    text = s.view_json(0)
    assert "crown" not in text and all(card not in text for card in s.d.hands[1])
    other = s.determinize(0, Rng(5))
    assert other.view_json(0) == text and other.d.hands[0] == s.d.hands[0]


def test_listed_actions_and_the_legality_check_agree() -> None:
    """Every action kind, moves, sails and retreats included: an action seen listed earlier is
    legal now exactly when it is listed now, and every kind of action shows up."""
    s = NerathState.new(small_board(), {"round_cap": 6}, seed=11)
    chooser = Rng(5)
    pool: list[Any] = []
    kinds: set[str] = set()
    while s.pending() is not None:
        legal = s.legal_actions()
        listed = set(legal)
        kinds |= {a.kind for a in legal}
        for a in pool[-300:]:
            assert s.is_legal(a) == (a in listed), a
        for a in legal:  # the notation reads back to the same action (how typed text is read)
            assert s.codec.decode_text(a.notation()) == a, a.notation()
        pool += [a for a in legal if a not in pool]
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert {"move", "sail", "retreat", "fight", "damage", "buy", "pass"} <= kinds, sorted(kinds)


def test_another_path_is_the_listed_move_and_a_bad_one_is_refused_by_rule() -> None:
    """Text resolves through the listed notations: a legal move written along another path is the
    listed move (same pieces, same destination); an illegal one is refused naming the rule."""
    from tests.games.nerath.scenario import K, position
    from warhorn.engine.errors import IllegalActionError
    from warhorn.games.nerath.actions import Move

    s = position([(K, "k1", "warrior", 1)])
    listed = Move("warrior", 1, ("k1", "k3"))
    assert listed in s.legal_actions() and not s.is_legal(Move("warrior", 1, ("k1", "k2", "k3")))
    assert s.parse("move 1 warrior k1>k2>k3") == listed
    unlisted = Move("warrior", 1, ("k1", "v3"))
    assert not s.is_legal(unlisted)
    with pytest.raises(IllegalActionError) as exc:
        s.apply(s.parse("move 1 warrior k1>v3"))
    assert exc.value.rule == "NER-MAP-02"


@pytest.mark.parametrize("options", [{}, {"mode": "alliance", "players": 2}])
def test_a_listing_carried_from_the_previous_state_is_the_fresh_listing(options: dict[str, Any]) -> None:
    """The moves, sails, loads and unloads a state derives from its predecessor's listing (after an
    own move, sail, load, unload or buy) are exactly what listing afresh gives, in the same order,
    and so are the lists made from the game's memo of path searches and moves."""
    s = NerathState.new(small_board(), {"round_cap": 8, **options}, seed=4)
    chooser = Rng(17)
    derived = 0
    while s.pending() is not None:
        carried = s._listing
        legal = s.legal_actions()
        if carried is not None and s._listing is carried:
            fresh = s.copy()
            fresh.touch()
            fresh._memo = {}
            assert fresh.legal_actions() == legal
            derived += 1
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert derived > 100


@pytest.mark.rule("NER-INC-01")
def test_income_is_base_plus_conquered_less_lost_territories() -> None:
    """Income counted as the rule words it (conquered and lost territories, halved without the
    capital, NER-INC-03) matches the game's count at every step of a random game."""
    from warhorn.games.nerath.board import LAND
    from warhorn.games.nerath.rules.economy import income_of

    s = NerathState.new(small_board(), {"round_cap": 8}, seed=6)
    chooser = Rng(3)
    board = s.board
    changed = False
    while s.pending() is not None:
        for k in range(4):
            lands = [i for i in range(len(board)) if board.kind[i] == LAND]
            conquered = sum(1 for i in lands if s.d.control[i] == k and board.owner[i] != k)
            lost = sum(1 for i in lands if board.owner[i] == k and s.d.control[i] != k)
            total = max(0, board.base_income[k] + conquered - lost)
            changed = changed or bool(conquered or lost)
            if not s.holds_own_capital(k):
                total = (total + 1) // 2
            assert income_of(s, k) == total
        legal = s.legal_actions()
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert changed  # territories did change hands
