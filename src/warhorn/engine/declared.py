"""A game state's fields declared once: how each is copied, who may see it, how it is hidden.

A game lists every attribute of its state as a :class:`StateField`. From that one
declaration the engine derives:

- ``copy()``: :func:`derive_copy` writes the copy function as code (one statement per field,
  as fast as a hand-written one): immutable fields are shared, mutable ones copied in their
  declared shape, rarely changed ones shared until the state first changes them
  (copy on write, see :func:`first_write`), bookkeeping started afresh;
- views: :func:`view_from_snapshot` takes the state's snapshot (every fact, as JSON) and keeps
  what a player may see: a field seen by everyone as it is, a hidden one through its
  redaction, one seen by nobody not at all;
- determinize: :func:`determinize` copies the state and resamples exactly the hidden fields,
  each by its own rule (a deck reshuffles its draw pile, keeping the cards everyone saw).

A field added to the state and not declared, or declared and not snapshotted, fails the
game's declaration test, so nothing is copied, shown or resampled by a forgotten hand.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from warhorn.engine.deck import Deck
from warhorn.engine.rng import Rng

JSON = Any


class Seen(StrEnum):
    """Who may see a field."""

    EVERYONE = "everyone"  # in every view as in the snapshot
    HIDDEN = "hidden"  # in a view only through its redaction; determinize resamples it
    NOBODY = "nobody"  # in the snapshot only (the dice generator)
    NOT_STATE = "not_state"  # bookkeeping (events, caches): neither viewed nor saved


class Copied(StrEnum):
    """What ``copy()`` does with a field."""

    SHARED = "shared"  # immutable (numbers, text, enums, decks, the board, the options): shared
    OWN = "own"  # mutable: the copy gets its own, in the field's ``copy_as`` shape
    ON_WRITE = "on_write"  # mutable, rarely changed: shared until a state changes it (first_write)
    FRESH = "fresh"  # bookkeeping: a copy starts afresh with ``fresh()``


#: How an OWN field is copied, by shape (``{0}`` is the field's value).
COPY_SHAPES: Mapping[str, str] = {
    "copy": "{0}.copy()",  # a list, dict or set of immutable items, or an object with copy()
    "copy_or_none": "(None if {0} is None else {0}.copy())",
    "copy_each": "[x.copy() for x in {0}]",  # a list of records
    "copy_each_or_none": "[None if x is None else x.copy() for x in {0}]",
    "lists": "list(map(list.copy, {0}))",  # a list of lists of immutable items
}


class Redaction(Protocol):
    def __call__(self, value: JSON, player: int | None) -> JSON: ...


class Resampler(Protocol):
    def __call__(self, state: Any, player: int, rng: Rng) -> None: ...


def _none() -> None:
    return None


@dataclass(frozen=True, slots=True)
class StateField:
    """One attribute of a game state.

    ``snapshot``: the snapshot keys that hold it (none only with a ``note`` saying why).
    ``copy_as``: for OWN fields, a key of :data:`COPY_SHAPES`. ``fresh``: for FRESH fields,
    what a copy starts with. ``redact`` (HIDDEN): what a player sees of each of the field's
    snapshot values. ``resample`` (HIDDEN): changes a determinized copy's field to one the
    player cannot tell from the truth.
    """

    name: str
    copied: Copied
    seen: Seen = Seen.EVERYONE
    snapshot: tuple[str, ...] = ()
    note: str = ""
    copy_as: str = "copy"
    fresh: Callable[[], Any] = _none
    redact: Redaction | None = None
    resample: Resampler | None = None

    def __post_init__(self) -> None:
        if self.copied is Copied.OWN and self.copy_as not in COPY_SHAPES:
            raise ValueError(f"{self.name}: copy_as {self.copy_as!r} is not one of {sorted(COPY_SHAPES)}")
        if self.seen is Seen.HIDDEN and (self.redact is None or self.resample is None):
            raise ValueError(f"{self.name}: a hidden field needs a redaction and a resampler")
        if not self.snapshot and not self.note:
            raise ValueError(f"{self.name}: name its snapshot keys or say why it has none")


S = TypeVar("S")


def derive_copy(fields: Iterable[StateField], cls: type | None = None) -> Callable[[S], S]:
    """The ``copy`` function the declaration describes, generated as code.

    A state with ON_WRITE fields keeps, in ``_shared``, the names of those it shares with another
    state: a copy marks them shared on both sides (see :func:`first_write`). Shared fields are
    carried over with the instance ``__dict__``; given the state class ``cls``, those the class
    stores outside it (``__slots__``, or the attributes of a class compiled with mypyc, which has
    no instance ``__dict__``) are assigned one by one.
    """
    fields = tuple(fields)
    namespace: dict[str, Any] = {}
    lines = ["def copy(self):", "    new = self.__class__.__new__(self.__class__)"]
    if cls is None or cls.__dictoffset__:  # instances with a __dict__
        lines.append("    new.__dict__ = self.__dict__.copy()")  # several times cheaper than update()
    if cls is not None:
        lines += [
            f"    new.{f.name} = self.{f.name}"
            for f in fields
            if f.copied in (Copied.SHARED, Copied.ON_WRITE) and _stored_outside_dict(cls, f.name)
        ]
    on_write = frozenset(f.name for f in fields if f.copied is Copied.ON_WRITE)
    if on_write:
        namespace["_ON_WRITE"] = on_write
        lines.append("    self._shared = new._shared = _ON_WRITE")
    for f in fields:
        if not f.name.isidentifier():
            raise ValueError(f"{f.name!r} is not an attribute name")
        if f.copied is Copied.OWN:
            lines.append(f"    new.{f.name} = {COPY_SHAPES[f.copy_as].format('self.' + f.name)}")
        elif f.copied is Copied.FRESH and f.name != "_shared":
            namespace[f"_fresh_{f.name}"] = f.fresh
            lines.append(f"    new.{f.name} = _fresh_{f.name}()")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # the code is built from the declaration's names only
    copy: Callable[[S], S] = namespace["copy"]
    return copy


def _stored_outside_dict(cls: type, name: str) -> bool:
    """True if instances of ``cls`` keep attribute ``name`` in a slot (a data descriptor on the
    class), not in their ``__dict__``."""
    attr = inspect.getattr_static(cls, name, None)
    return attr is not None and hasattr(type(attr), "__set__")


def first_write(state: Any, name: str) -> bool:
    """Call before changing the ON_WRITE field ``name``: False if the state shared it (the
    caller must now give the state its own copy), True if the state already owns it."""
    shared: frozenset[str] = state._shared
    if name not in shared:
        return True
    state._shared = shared - {name}
    return False


def view_from_snapshot(
    fields: Iterable[StateField], snapshot: Mapping[str, JSON], player: int | None
) -> dict[str, JSON]:
    """What ``player`` (None: a spectator) sees of a state whose snapshot is ``snapshot``."""
    view: dict[str, JSON] = {}
    for f in fields:
        if f.seen is Seen.EVERYONE:
            for key in f.snapshot:
                view[key] = snapshot[key]
        elif f.seen is Seen.HIDDEN:
            assert f.redact is not None
            for key in f.snapshot:
                view[key] = f.redact(snapshot[key], player)
    return view


def determinize(state: S, fields: Iterable[StateField], player: int, rng: Rng) -> S:
    """A copy of ``state`` with every hidden field resampled (in declaration order) with ``rng``."""
    new: S = state.copy()  # type: ignore[attr-defined]
    for f in fields:
        if f.seen is Seen.HIDDEN:
            assert f.resample is not None
            f.resample(new, player, rng)
    return new


# --- decks: the order of the draw pile hidden, its size and the discard seen ------------------
def deck_redaction(value: JSON, player: int | None) -> JSON:
    """A deck's snapshot (``Deck.to_json``) as anyone sees it: the pile's size and the discard."""
    return {"draw_count": len(value["draw"]), "discard": list(value["discard"])}


def reshuffle_draw_pile(name: str, known_on_top: Callable[[Any], int] | None = None) -> Resampler:
    """A resampler for the :class:`Deck` in attribute ``name``: its draw pile reshuffled, but for
    the ``known_on_top(state)`` cards on top that everyone has seen."""

    def resample(state: Any, player: int, rng: Rng) -> None:
        deck: Deck = getattr(state, name)
        keep = known_on_top(state) if known_on_top is not None else 0
        top, rest = deck.draw_pile[:keep], deck.draw_pile[keep:]
        setattr(state, name, Deck(top + tuple(rng.shuffled(rest)), deck.discard_pile))

    return resample
