"""The engine's state declaration: copy, views and determinize derived from one list of fields."""

from __future__ import annotations

from typing import Any

import pytest

from warhorn.engine.deck import Deck
from warhorn.engine.declared import (
    Copied,
    Seen,
    StateField,
    deck_redaction,
    derive_copy,
    determinize,
    first_write,
    reshuffle_draw_pile,
    view_from_snapshot,
)
from warhorn.engine.rng import Rng


class Toy:
    """A state of five fields, one of each kind."""

    def __init__(self) -> None:
        self.score = 3
        self.rng = Rng(5)
        self.rows = [[1, 2], [3]]
        self.marks = [0, 0]
        self.deck = Deck(tuple("abcdefgh"), ("z",))
        self.log: list[str] = ["started"]
        self._shared: frozenset[str] = frozenset()

    def snapshot(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "rng": self.rng.state,
            "rows": self.rows,
            "marks": self.marks,
            "deck": self.deck.to_json(),
        }

    def copy(self) -> Toy:
        return COPY(self)


FIELDS = (
    StateField("score", Copied.SHARED, snapshot=("score",)),
    StateField("rng", Copied.OWN, Seen.NOBODY, ("rng",)),
    StateField("rows", Copied.OWN, snapshot=("rows",), copy_as="lists"),
    StateField("marks", Copied.ON_WRITE, snapshot=("marks",)),
    StateField(
        "deck",
        Copied.SHARED,
        Seen.HIDDEN,
        ("deck",),
        redact=deck_redaction,
        resample=reshuffle_draw_pile("deck", lambda state: 2),
    ),
    StateField("log", Copied.FRESH, Seen.NOT_STATE, (), "what happened last", fresh=list),
    StateField("_shared", Copied.FRESH, Seen.NOT_STATE, (), "ON_WRITE fields shared"),
)
COPY = derive_copy(FIELDS)


def test_the_derived_copy_follows_the_declaration() -> None:
    toy = Toy()
    twin = toy.copy()
    assert twin.snapshot() == toy.snapshot() and twin.log == []
    assert twin.rows is not toy.rows and twin.rows[0] is not toy.rows[0]  # OWN, "lists"
    assert twin.rng is not toy.rng and twin.rng.state == toy.rng.state
    assert twin.marks is toy.marks and "marks" in twin._shared and "marks" in toy._shared  # ON_WRITE
    assert not first_write(twin, "marks")  # shared: the writer copies it first
    twin.marks = twin.marks.copy()
    twin.marks[0] = 9
    assert toy.marks == [0, 0] and first_write(twin, "marks")  # owned from now on


def test_views_and_determinize_follow_the_declaration() -> None:
    toy = Toy()
    view = view_from_snapshot(FIELDS, toy.snapshot(), 0)
    assert view == {
        "score": 3,
        "rows": [[1, 2], [3]],
        "marks": [0, 0],
        "deck": {"draw_count": 8, "discard": ["z"]},
    }
    other = determinize(toy, FIELDS, 0, Rng(1))
    assert view_from_snapshot(FIELDS, other.snapshot(), 0) == view
    assert other.deck.draw_pile[:2] == ("a", "b") and other.deck.draw_pile != toy.deck.draw_pile
    assert sorted(other.deck.draw_pile) == sorted(toy.deck.draw_pile) and toy.deck.draw_pile == tuple(
        "abcdefgh"
    )


def test_a_declaration_says_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="copy_as"):
        StateField("x", Copied.OWN, snapshot=("x",), copy_as="deep")
    with pytest.raises(ValueError, match="redaction and a resampler"):
        StateField("x", Copied.SHARED, Seen.HIDDEN, ("x",))
    with pytest.raises(ValueError, match="snapshot keys"):
        StateField("x", Copied.SHARED)
