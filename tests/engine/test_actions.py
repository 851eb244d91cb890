from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from warhorn.engine import (
    Action,
    ActionCodec,
    AmbiguousActionError,
    MalformedActionError,
)
from warhorn.engine.actions import written_as


@dataclass(frozen=True, slots=True)
class Move(Action):
    kind: ClassVar[str] = "move"
    piece: str
    path: tuple[str, ...]
    count: int = 1


@dataclass(frozen=True, slots=True)
class Done(Action):
    kind: ClassVar[str] = "done"


CODEC = ActionCodec([Move, Done])


def test_json_round_trip() -> None:
    action = Move("soldier", ("a", "b"), 2)
    data = json.loads(json.dumps(action.to_json()))
    assert data == {"kind": "move", "piece": "soldier", "path": ["a", "b"], "count": 2}
    assert CODEC.from_json(data) == action
    assert hash(CODEC.from_json(data)) == hash(action)


def test_actions_are_frozen() -> None:
    action = Move("soldier", ("a",))
    with pytest.raises(AttributeError):
        action.piece = "dragon"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("move", "JSON object"),
        ({"piece": "x"}, "'kind'"),
        ({"kind": "fly"}, "unknown action kind 'fly'"),
        ({"kind": "move", "piece": "x", "path": ["a"], "speed": 3}, "no field"),
        ({"kind": "move", "piece": "x", "path": "a", "count": "many"}, "count"),
        ({"kind": "move", "path": ["a"]}, "piece"),
    ],
)
def test_malformed_json_names_the_fault(data: object, message: str) -> None:
    with pytest.raises(MalformedActionError, match=message):
        CODEC.from_json(data)


def test_text_resolution_exact_prefix_and_ambiguous() -> None:
    legal = [Move("soldier", ("a", "b")), Move("soldier", ("a", "c")), Move("dragon", ("a", "b")), Done()]
    assert CODEC.resolve_text("done", legal) == Done()
    assert CODEC.resolve_text("move dragon", legal) == Move("dragon", ("a", "b"))
    assert CODEC.resolve_text("MOVE soldier a,c 1", legal) == Move("soldier", ("a", "c"))
    with pytest.raises(AmbiguousActionError) as info:
        CODEC.resolve_text("move soldier", legal)
    assert len(info.value.candidates) == 2
    with pytest.raises(MalformedActionError, match="no action kind"):
        CODEC.resolve_text("dance", legal)
    with pytest.raises(LookupError):
        CODEC.resolve_text("move monster", legal)


def test_duplicate_kinds_are_refused() -> None:
    with pytest.raises(ValueError, match="share the kind"):
        ActionCodec([Move, Move])


@dataclass(frozen=True, slots=True)
class EndDay(Action):
    kind: ClassVar[str] = "end_day"


def test_kind_with_underscore_is_recognised_when_not_legal() -> None:
    codec = ActionCodec([EndDay, Done])
    with pytest.raises(LookupError):
        codec.resolve_text("end_day", [Done()])
    assert codec.resolve_text("end day", [EndDay()]) == EndDay()


@dataclass(frozen=True, slots=True)
class March(Action):
    kind: ClassVar[str] = "march"
    notation_order: ClassVar[tuple[str, ...]] = ("count", "piece", "path")
    piece: str
    count: int
    path: tuple[str, ...] = field(metadata=written_as(separator=">"))
    escorts: tuple[tuple[str, str], ...] = field(default=(), metadata=written_as(pair_separator=">"))
    via: str = field(default="", metadata=written_as(keyword="via"))
    pace: str = field(default="walk", metadata=written_as(keyword="at", omit_default=True))
    losses: tuple[str, ...] = field(default=(), metadata=written_as(when_empty="none", separator=" "))
    note: str | None = None


def test_field_notation_keywords_separators_order_and_empty_values() -> None:
    plain = March("soldier", 2, ("a", "b c"))
    assert plain.notation() == "march 2 soldier a>b_c none -"
    full = March("soldier", 2, ("a",), (("x", "y"), ("z", "w")), "keep", "run", ("p", "q r"), "hi there")
    assert full.notation() == "march 2 soldier a x>y,z>w via keep at run p q_r hi_there"
    assert str(full) == full.notation()
    codec = ActionCodec([March])
    assert codec.from_json(json.loads(json.dumps(full.to_json()))) == full
    assert codec.resolve_text("march 2 soldier a", [plain, March("soldier", 2, ("a",))]) == March(
        "soldier", 2, ("a",)
    )


def test_actions_without_field_notation_keep_the_plain_form() -> None:
    assert Move("soldier", ("a b", "c"), 3).notation() == "move soldier a_b,c 3"
    assert Done().notation() == "done"
