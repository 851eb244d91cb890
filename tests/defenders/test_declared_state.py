"""The Defenders state's fields are declared once (state.STATE_FIELDS): views and determinize
are derived from the declaration (engine/declared.py); construction, the copy (written out so
the compiled build compiles it) and the snapshot are checked against it, so a field added in one
place and forgotten in another fails here."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

import warhorn.games.defenders
from warhorn.engine.deck import Deck
from warhorn.engine.declared import COPY_SHAPES, Copied, Seen
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.defenders.board import DefendersBoard
from warhorn.games.defenders.state import ON_WRITE_FIELDS, STATE_FIELDS, DefendersState

IMMUTABLE = (int, str, bool, float, type(None), Enum, Deck, DefendersBoard, tuple)


def positions() -> Iterator[DefendersState]:
    """States of a seeded random game with four heroes, battles and pickings included."""
    state = load_game("defenders", seed=7, players=4, heroes="wizard,cleric,sorceress,eagle_rider")
    rng = Rng(7)
    while True:
        assert isinstance(state, DefendersState)
        yield state
        if state.pending() is None:
            return
        legal = state.legal_actions()
        kinds = sorted({a.kind for a in legal})
        kind = kinds[rng.below(len(kinds))]
        pick = [a for a in legal if a.kind == kind]
        state, _ = state.apply(pick[rng.below(len(pick))])


def _containers(value: Any) -> Iterator[object]:
    """Every mutable object inside ``value`` (itself included)."""
    if isinstance(value, IMMUTABLE):
        return
    yield value
    if isinstance(value, list | set):
        for item in value:
            yield from _containers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _containers(item)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _containers(getattr(value, f.name))


def test_the_declaration_names_every_field_once() -> None:
    names = [f.name for f in STATE_FIELDS]
    assert len(names) == len(set(names))
    for state in (load_game("defenders", seed=1, players=2), next(positions())):
        assert set(vars(state)) == set(names), "declare the field in STATE_FIELDS"
    for f in STATE_FIELDS:
        assert f.snapshot or f.note, f"{f.name}: name its snapshot keys or say why it has none"


@pytest.mark.parametrize("every", [5])
def test_copy_shares_only_what_cannot_change(every: int) -> None:
    for n, state in enumerate(positions()):
        if n % every:
            continue
        twin = state.copy()
        for f in STATE_FIELDS:
            mine, theirs = getattr(state, f.name), getattr(twin, f.name)
            if f.copied is Copied.SHARED:
                assert isinstance(mine, IMMUTABLE) or f.name == "options", f"{f.name} is mutable: not SHARED"
                assert mine is theirs or mine == theirs
            elif f.copied is Copied.OWN:
                assert mine == theirs if not isinstance(mine, Rng) else mine.state == theirs.state, f.name
                shared = {id(x) for x in _containers(mine)} & {id(x) for x in _containers(theirs)}
                assert not shared, f"copy() shares part of {f.name}"
            elif f.copied is Copied.ON_WRITE:
                assert mine is theirs and f.name in twin._shared and f.name in state._shared, f.name
        assert twin.digest() == state.digest()
        # The first change through own_* gives the twin its own (and leaves the original's alone).
        on_write = [f.name for f in STATE_FIELDS if f.copied is Copied.ON_WRITE]
        for f in on_write:
            theirs = getattr(twin, f"own_{f}")()  # every ON_WRITE field has its own_* accessor
            shared = {id(x) for x in _containers(getattr(state, f))} & {id(x) for x in _containers(theirs)}
            assert not shared and f not in twin._shared, f"own_{f}() still shares part of {f}"
            assert getattr(twin, f) is theirs and theirs == getattr(state, f)


def _copy_method() -> ast.FunctionDef:
    """``DefendersState.copy`` as written in state.py (read from the file: a compiled build has no
    source for ``inspect``)."""
    tree = ast.parse((Path(warhorn.games.defenders.__file__).parent / "state.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "DefendersState")
    return next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "copy")


def test_copy_is_written_as_the_declaration_says() -> None:
    # copy() is written out (so the compiled build compiles it): every declared field is assigned
    # once, in declaration order, the way its declaration says.
    assigned: list[tuple[str, str]] = []
    for stmt in _copy_method().body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "new":
                    assigned.append((target.attr, ast.unparse(stmt.value)))
    assert [name for name, _ in assigned] == [f.name for f in STATE_FIELDS], "one line per field, in order"
    for f, (_, written) in zip(STATE_FIELDS, assigned, strict=True):
        if f.copied in (Copied.SHARED, Copied.ON_WRITE):
            assert written == f"self.{f.name}", f"{f.name} is {f.copied}: shared, not {written}"
        elif f.copied is Copied.OWN:
            shape = ast.unparse(ast.parse(COPY_SHAPES[f.copy_as].format(f"self.{f.name}"), mode="eval"))
            assert written == shape, f"{f.name} is copied as {f.copy_as}: {shape}, not {written}"
        elif f.name == "_shared":
            assert written == "ON_WRITE_FIELDS"
    # The FRESH fields start afresh, and both sides mark the ON_WRITE fields shared.
    for state in (load_game("defenders", seed=2, players=4), next(positions())):
        twin = state.copy()
        for f in STATE_FIELDS:
            if f.copied is Copied.FRESH and f.name != "_shared":
                assert getattr(twin, f.name) == f.fresh(), f.name
        assert twin._shared == state._shared == ON_WRITE_FIELDS


@pytest.mark.parametrize("players", [1, 4])
def test_apply_never_changes_the_state_it_is_called_on(players: int) -> None:
    # Copies share the ON_WRITE fields: a rule changing one without own_* would change the parent.
    for seed in range(6):
        state = load_game("defenders", seed=seed, players=players)
        rng = Rng(seed)
        while state.pending() is not None:
            before = state.digest()
            legal = state.legal_actions()
            after, _ = state.apply(legal[rng.below(len(legal))])
            assert state.digest() == before, "apply() changed the state it was called on"
            state = after


def test_snapshot_view_and_determinize_follow_the_declaration() -> None:
    keys = {k for f in STATE_FIELDS for k in f.snapshot}
    hidden = {k for f in STATE_FIELDS if f.seen is Seen.HIDDEN for k in f.snapshot}
    secret = {k for f in STATE_FIELDS if f.seen is Seen.NOBODY for k in f.snapshot}
    for n, state in enumerate(positions()):
        if n % 7:
            continue
        snap = state.snapshot()
        assert set(snap) == keys, "every snapshot key comes from a declared field, and back"
        view = state.view(n % 4)
        assert set(view) <= keys - secret
        for key in set(view) - hidden:
            assert view[key] == snap[key], f"{key} is declared seen by everyone"
        for key in ("hero_deck", "quest_deck", "darkness_deck"):
            assert (
                set(view[key]) == {"draw_count", "discard"} and view[key]["discard"] == snap[key]["discard"]
            )
            assert view[key]["draw_count"] == len(snap[key]["draw"])
        assert view["darkness_known_top"] == snap["darkness_deck"]["draw"][: state.ds_known_top]
        other = state.determinize(n % 4, Rng(n)).snapshot()
        changed = {k for k in keys if other[k] != snap[k]}
        assert changed <= hidden, f"determinize changed what the player sees: {changed - hidden}"
        assert other["darkness_deck"]["draw"][: state.ds_known_top] == snap["darkness_known_top"]
