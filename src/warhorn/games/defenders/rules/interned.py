"""Actions made once: the generators of legal actions ask here instead of building a new action
object each time.

Actions are frozen values (compared by their fields), so one object can stand for every equal
action of every state. Building one is the most expensive thing a generator does in the compiled
build (docs/compiled.md): the action classes are dataclasses of an interpreted module, whose
generated ``__init__`` sets each field through ``object.__setattr__``. A dictionary lookup costs a
fraction of that, and the number of distinct actions is bounded by the content.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from warhorn.engine.actions import Action

A = TypeVar("A", bound=Action)

_MADE: dict[tuple[object, ...], Action] = {}


def made(cls: type[A], *fields: object) -> A:
    """``cls(*fields)``, the same object each time it is asked for with the same fields."""
    key = (cls, *fields)
    found = _MADE.get(key)
    if found is None:
        found = _MADE[key] = cast(Callable[..., A], cls)(*fields)
    return cast(A, found)
