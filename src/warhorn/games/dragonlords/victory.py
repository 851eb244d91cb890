"""Victory conditions (DLX-END-01, DLR-END-01): short, long and bloodbath games.

* A short game is won by the first player to hold 4 shards or to control 3 realms.
* A long game is won by the first player to hold all 9 shards or to control all 6 realms.
* A bloodbath is won by the last King or Queen standing.

A realm is controlled by holding its Kingdom territory; the game counts those and the shards its
units carry, and asks after every action. In short and long games the last King standing also
wins, since nobody is left to play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

Victory = Literal["bloodbath", "short", "long"]

#: (shards, realms) that win at once.
THRESHOLDS: dict[str, tuple[int, int]] = {"short": (4, 3), "long": (9, 6)}


def winner(
    victory: Victory,
    *,
    kings_alive: Mapping[str, bool],
    shards: Mapping[str, int],
    realms: Mapping[str, int],
    active: str,
) -> str | None:
    """The winner now, or None. ``active``: the player whose action is being checked, who wins if
    several players meet the condition at once (he reached it first)."""
    alive = [player for player, king in kings_alive.items() if king]
    if victory in THRESHOLDS:
        need_shards, need_realms = THRESHOLDS[victory]
        reached = [p for p in alive if shards.get(p, 0) >= need_shards or realms.get(p, 0) >= need_realms]
        if reached:
            return active if active in reached else reached[0]
    elif victory != "bloodbath":
        raise ValueError(f"victory: {victory!r} is not bloodbath, short or long (DLR-END-01)")
    return alive[0] if len(alive) == 1 else None
