"""``Event`` writes its ``__init__`` out (compiled in the compiled build): it must take the
dataclass's fields, in order, with the fields' defaults."""

from __future__ import annotations

import dataclasses

from warhorn.engine.events import Event


def test_event_init_takes_the_fields_with_their_defaults() -> None:
    fields = dataclasses.fields(Event)
    values = ("k", {"a": 1}, "text", True, frozenset({1}), {"b": 2}, "public")
    full = Event(*values)
    assert [getattr(full, f.name) for f in fields] == list(values)
    assert Event(**{f.name: v for f, v in zip(fields, values, strict=True)}) == full
    bare, other = Event("k"), Event("k")
    for f in fields[1:]:
        expected = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        assert getattr(bare, f.name) == expected, f.name
    assert bare.data is not other.data
