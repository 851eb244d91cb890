"""What a player sees as a fixed-shape float32 vector: the game's own encoder, or its view hashed.

A game may name an observation encoder in its plugin (``GamePlugin.observation``:
a factory ``(first_state) -> encoder`` with ``size`` and ``encode(state,
player)``): it reads the state directly, which is much cheaper than building
the JSON view, and must show nothing the view hides. :func:`observation_encoder`
returns it, or, for a game without one, :class:`HashedViewEncoder`: the view
hashed, as below.

Views are JSON of any shape (lists of pieces, maps of spaces, hands of
cards), so the encoding is generic feature hashing over the view's leaves:

- every leaf (a number, a string, a boolean, null) is named by its **path**:
  the object keys from the root down, with list positions left out (a list is
  a bag of items) — e.g. ``spaces/zaarnath/pieces/kind``;
- a number adds its value to the feature ``path``; a string, a boolean or
  null adds 1 to the feature ``path=value`` (``spaces/zaarnath/owner=karkoth``);
- each feature's name is hashed (BLAKE2b, 8 bytes, stable across runs and
  machines) to one of ``size`` slots and a sign ±1, and the slot gets
  ``sign × value`` (signed hashing, so collisions cancel on average instead of
  piling up).

The vector depends on nothing but the view, so it shows a player nothing the
view does not (``tests/interop/test_observation.py`` runs the conformance leak
check — hidden facts resampled with ``determinize`` — on the vector too).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from warhorn.engine.plugin import resolve
from warhorn.engine.registry import game_plugin
from warhorn.engine.state import GameState

#: Slots of the hashed view (the default observation size).
VIEW_SIZE = 2048


#: Per vector size: the slot and sign of every feature name met so far (BLAKE2b: stable across runs
#: and machines, unlike Python's salted ``hash``).
_SLOTS: dict[int, dict[str, tuple[int, float]]] = {}
#: Past this many names a table is emptied and filled again.
_SLOTS_LIMIT = 1 << 18


def _slot(feature: str, size: int) -> tuple[int, float]:
    table = _SLOTS.setdefault(size, {})
    found = table.get(feature)
    if found is None:
        digest = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
        if len(table) >= _SLOTS_LIMIT:
            table.clear()
        found = table[feature] = (digest % size, 1.0 if (digest >> 63) & 1 else -1.0)
    return found


def _leaf(name: str, value: Any, names: list[str], numbers: list[tuple[str, float]]) -> None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        names.append(f"{name}={value}")
    elif isinstance(value, (int, float)):
        numbers.append((name, float(value)))


def _pairs(data: Any, path: str) -> Iterable[tuple[str, Any]]:
    """``data``'s children with their names: a dict's values under ``path/key``, a list's items under
    ``path`` itself."""
    if isinstance(data, dict):
        prefix = path + "/" if path else ""
        return ((prefix + str(key), value) for key, value in data.items())
    if isinstance(data, (list, tuple)):
        return ((path, item) for item in data)
    return ((path, data),)


def _leaves(data: Any, path: str, names: list[str], numbers: list[tuple[str, float]]) -> None:
    """Collect the leaves under ``data`` (named ``path``): ``path=value`` names (strings, booleans,
    null) and ``(path, number)`` pairs. Leaves are handled in the loop, containers recursively."""
    for name, value in _pairs(data, path):
        kind = type(value)
        if kind is str:
            names.append(name + "=" + value)
        elif kind is dict or kind is list or kind is tuple:
            _leaves(value, name, names, numbers)
        elif kind is int or kind is float:
            numbers.append((name, value))
        elif isinstance(value, (dict, list, tuple)):
            _leaves(value, name, names, numbers)
        else:
            _leaf(name, value, names, numbers)


def _features_of(names: list[str], numbers: list[tuple[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {name: float(count) for name, count in Counter(names).items()}
    for path, number in numbers:
        out[path] = out.get(path, 0.0) + float(number)
    return out


def view_features(view: dict[str, Any]) -> dict[str, float]:
    """The named features of a view (before hashing): ``path`` -> summed number, ``path=value`` -> count."""
    names: list[str] = []
    numbers: list[tuple[str, float]] = []
    _leaves(view, "", names, numbers)
    return _features_of(names, numbers)


Part = tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]

#: The hashed features of subtrees met lately, by (size, path, ``repr``) — a view is JSON data (strings,
#: numbers, booleans, None, lists, dicts), whose ``repr`` tells its values apart: a view changes a few
#: spaces or cards per action, so most of its subtrees were hashed before.
_PARTS: dict[tuple[int, str, str], Part] = {}
_PARTS_LIMIT = 1 << 15
#: Containers this deep (the root is 0: a view's lists and maps are 1, their items 2) are hashed whole
#: and remembered.
PART_DEPTH = 2


def _hashed(names: list[str], numbers: list[tuple[str, float]], size: int) -> Part:
    where: list[int] = []
    weight: list[float] = []
    for name, value in _features_of(names, numbers).items():
        slot, sign = _slot(name, size)
        where.append(slot)
        weight.append(sign * value)
    return np.array(where, dtype=np.intp), np.array(weight, dtype=np.float64)


def _split(
    data: Any,
    path: str,
    depth: int,
    size: int,
    names: list[str],
    numbers: list[tuple[str, float]],
    parts: list[Part],
) -> None:
    """Leaves above :data:`PART_DEPTH` into ``names``/``numbers``; each container at that depth hashed
    (or found again) as a whole into ``parts``."""
    for name, value in _pairs(data, path):
        if not isinstance(value, (dict, list, tuple)):
            _leaf(name, value, names, numbers)
        elif depth + 1 < PART_DEPTH:
            _split(value, name, depth + 1, size, names, numbers, parts)
        else:
            key = (size, name, repr(value))
            part = _PARTS.get(key)
            if part is None:
                inner_names: list[str] = []
                inner_numbers: list[tuple[str, float]] = []
                _leaves(value, name, inner_names, inner_numbers)
                if len(_PARTS) >= _PARTS_LIMIT:
                    _PARTS.clear()
                part = _PARTS[key] = _hashed(inner_names, inner_numbers, size)
            parts.append(part)


def encode_view(view: dict[str, Any], size: int = VIEW_SIZE) -> npt.NDArray[np.float32]:
    """The view hashed into a float32 vector of ``size`` slots (see the module text for the layout).

    The hashing is linear (each feature adds ``sign × value`` to its slot), so the view is hashed
    by parts: the leaves near the root, plus each subtree at :data:`PART_DEPTH` — a space, a card, a
    kingdom — hashed once and found again by its text (``repr``) while it stays the same.
    """
    names: list[str] = []
    numbers: list[tuple[str, float]] = []
    parts: list[Part] = []
    _split(view, "", 0, size, names, numbers, parts)
    parts.append(_hashed(names, numbers, size))
    where = np.concatenate([w for w, _ in parts])
    weight = np.concatenate([v for _, v in parts])
    return np.bincount(where, weights=weight, minlength=size).astype(np.float32)


class ObservationEncoder(Protocol):
    """What a player sees, as ``size`` float32 numbers, for every state of one game and option set."""

    @property
    def size(self) -> int: ...

    def encode(self, state: GameState, player: int) -> npt.NDArray[np.float32]: ...


class HashedViewEncoder:
    """The generic encoder: ``view(player)`` hashed into ``size`` slots (:func:`encode_view`)."""

    name = "hashed-view"

    def __init__(self, size: int = VIEW_SIZE) -> None:
        self._size = size

    @property
    def size(self) -> int:
        return self._size

    def encode(self, state: GameState, player: int) -> npt.NDArray[np.float32]:
        return encode_view(state.view(player), self._size)


#: The ``observation`` argument of the wrappers: the game's own encoder when it has one, else the view
#: hashed (``"game"``), or always the view hashed (``"hashed-view"``).
OBSERVATION_KINDS = ("game", "hashed-view")


def observation_encoder(first_state: GameState, kind: str = "game") -> ObservationEncoder:
    """The encoder of ``first_state``'s game and option set (see the module text)."""
    if kind not in OBSERVATION_KINDS:
        raise ValueError(f"observation: {kind!r} is not one of {', '.join(OBSERVATION_KINDS)}")
    reference = game_plugin(first_state.spec.id).observation
    if kind == "hashed-view" or reference is None:
        return HashedViewEncoder()
    encoder: ObservationEncoder = resolve(reference)(first_state)
    return encoder
