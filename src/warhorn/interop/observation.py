"""A player's view as a fixed-shape float32 vector, for any game, read from ``view(player)`` alone.

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
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

#: Slots of the hashed view (the default observation size).
VIEW_SIZE = 2048


@lru_cache(maxsize=1 << 16)
def _slot(feature: str, size: int) -> tuple[int, float]:
    digest = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
    return digest % size, 1.0 if (digest >> 63) & 1 else -1.0


def _features(data: Any, path: str, out: dict[str, float]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            _features(value, f"{path}/{key}" if path else str(key), out)
    elif isinstance(data, list):
        for item in data:
            _features(item, path, out)
    elif isinstance(data, bool) or data is None or isinstance(data, str):
        name = f"{path}={data}"
        out[name] = out.get(name, 0.0) + 1.0
    elif isinstance(data, (int, float)):
        out[path] = out.get(path, 0.0) + float(data)


def view_features(view: dict[str, Any]) -> dict[str, float]:
    """The named features of a view (before hashing): ``path`` -> summed number, ``path=value`` -> count."""
    out: dict[str, float] = {}
    _features(view, "", out)
    return out


def encode_view(view: dict[str, Any], size: int = VIEW_SIZE) -> npt.NDArray[np.float32]:
    """The view hashed into a float32 vector of ``size`` slots (see the module text for the layout)."""
    vector = np.zeros(size, dtype=np.float32)
    for name, value in view_features(view).items():
        slot, sign = _slot(name, size)
        vector[slot] += sign * value
    return vector
