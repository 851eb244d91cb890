from __future__ import annotations

import pytest

from warhorn.engine import BoardGraph, Deck, Rng, ScriptedRng, Space


def line_board(n: int) -> BoardGraph:
    spaces = [Space(f"s{i}", "sea" if i % 4 == 3 else "land") for i in range(n)]
    return BoardGraph(spaces, [(f"s{i}", f"s{i + 1}") for i in range(n - 1)])


def test_adjacency_is_symmetric_and_only_listed() -> None:
    board = line_board(4)
    assert board.adjacent("s0", "s1") and board.adjacent("s1", "s0")
    assert not board.adjacent("s0", "s2")
    assert board.neighbors_of("s1") == ("s0", "s2")
    assert board.edges() == [("s0", "s1"), ("s1", "s2"), ("s2", "s3")]


def test_bad_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown space 'x'"):
        BoardGraph([Space("a", "land")], [("a", "x")])
    with pytest.raises(ValueError, match="duplicate"):
        BoardGraph([Space("a", "land"), Space("a", "sea")], [])
    with pytest.raises(ValueError, match="itself"):
        BoardGraph([Space("a", "land")], [("a", "a")])


def test_distance_and_reachable_with_passability() -> None:
    board = line_board(8)
    assert board.distance("s0", "s5") == 5
    assert board.reachable("s0", 2) == {"s0": 0, "s1": 1, "s2": 2}
    # s3 is sea: land movers cannot enter it
    land_only = board.reachable("s1", 5, can_enter=lambda s: board.space(s).kind == "land")
    assert set(land_only) == {"s0", "s1", "s2"}
    # s2 stops movement (an enemy space): it can be entered but not passed
    stop = board.reachable("s0", 5, can_continue=lambda s: s != "s2")
    assert set(stop) == {"s0", "s1", "s2"}
    path = board.shortest_path_i(0, 4)
    assert path == [0, 1, 2, 3, 4]
    assert board.shortest_path_i(0, 4, can_continue=lambda i: i != 2) is None
    assert board.connected()
    island = BoardGraph([Space("a", "land"), Space("b", "land")], [])
    assert island.distance("a", "b") is None and not island.connected()


def test_deck_draws_in_order_and_reshuffles_discard() -> None:
    deck = Deck(("a", "b"), ())
    rng = ScriptedRng()
    deck, card, reshuffled = deck.draw(rng)
    assert card == "a" and not reshuffled
    deck = deck.discard("a")
    deck, card, _ = deck.draw(rng)
    assert card == "b"
    deck, card, reshuffled = deck.draw(rng)
    assert card == "a" and reshuffled and deck.discard_pile == ()
    deck, card, _ = Deck().draw(rng)
    assert card is None


def test_seeded_deck_is_reproducible() -> None:
    cards = [str(i) for i in range(20)]
    assert Deck.shuffled(cards, Rng(5)) == Deck.shuffled(cards, Rng(5))
    deck, drawn, _ = Deck.shuffled(cards, Rng(5)).draw_many(25, Rng(1))
    assert len(drawn) == 20 and deck.empty
