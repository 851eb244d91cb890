from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest

from warhorn.engine import (
    Action,
    ActionCodec,
    AmbiguousActionError,
    MalformedActionError,
)


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
