"""The Defenders records write their ``__init__`` out (the compiled build compiles it; see
records.py): each must take the dataclass's fields, in order, with the fields' defaults."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

import warhorn.games.defenders
from warhorn.games.defenders import records
from warhorn.games.defenders.records import BattleStage, PickStage

#: Each record with values for its fields without a default.
REQUIRED: dict[type, tuple[Any, ...]] = {
    records.HeroSlot: (1, "dwarf", 3, 5, 6),
    records.GeneralState: (4,),
    records.Battle: (2, 7, 0, BattleStage.JOIN, [1], [0]),
    records.Window: ("night", [0, 1]),
    records.Night: (["full"],),
    records.Picking: (0, "fireball", PickStage.MINION, 2),
}


def _written_init_parameters(cls: type) -> list[str]:
    """The parameter names of ``cls.__init__`` as written in records.py (a compiled build has no
    signature to inspect)."""
    tree = ast.parse((Path(warhorn.games.defenders.__file__).parent / "records.py").read_text())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    init = next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return [a.arg for a in init.args.args[1:]]


def test_every_dataclass_record_is_listed() -> None:
    declared = {
        v
        for v in vars(records).values()
        if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == records.__name__
    }
    assert declared == set(REQUIRED)


@pytest.mark.parametrize("cls", list(REQUIRED), ids=lambda c: c.__name__)
def test_a_record_init_takes_the_fields_with_their_defaults(cls: type) -> None:
    fields = dataclasses.fields(cls)
    assert _written_init_parameters(cls) == [f.name for f in fields]
    required = REQUIRED[cls]
    built, other = cls(*required), cls(*required)
    for i, f in enumerate(fields):
        value = getattr(built, f.name)
        if i < len(required):
            assert value is required[i], f.name
        elif f.default is not dataclasses.MISSING:
            assert value == f.default, f.name
        else:
            assert value == f.default_factory(), f.name  # type: ignore[misc]
            assert value is not getattr(other, f.name), f"{f.name}: each record gets its own"
    assert built == other and built.copy() == built
