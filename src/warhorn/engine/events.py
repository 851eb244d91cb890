"""Events: what happened, in order. The event log is the game's history and its narration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

JSON = Any


@dataclass(slots=True)
class Event:
    """One thing that happened. Treat it as immutable: nothing changes an event once logged
    (it is not frozen only because a frozen dataclass costs three times as much to build, and
    games log several events per action).

    ``chance`` marks rolls, draws and shuffles: undo does not cross them
    (except in hotseat games with undo enabled). ``visible_to`` limits who
    sees ``data`` and ``text``; everyone else sees ``public_data`` and
    ``public_text`` (for example "Karkoth draws an event card" without the card).
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    text: str = ""
    chance: bool = False
    visible_to: frozenset[int] | None = None
    public_data: Mapping[str, JSON] | None = None
    public_text: str | None = None

    # Written out (the same parameters and defaults as the fields): the compiled build compiles
    # this one, while the __init__ dataclasses would generate stays interpreted.
    def __init__(
        self,
        kind: str,
        data: Mapping[str, JSON] | None = None,
        text: str = "",
        chance: bool = False,
        visible_to: frozenset[int] | None = None,
        public_data: Mapping[str, JSON] | None = None,
        public_text: str | None = None,
    ) -> None:
        self.kind = kind
        self.data = {} if data is None else data
        self.text = text
        self.chance = chance
        self.visible_to = visible_to
        self.public_data = public_data
        self.public_text = public_text

    def for_player(self, player: int | None) -> Event | None:
        """The event as ``player`` may see it (``None`` = a spectator); None if they see nothing."""
        if self.visible_to is None or (player is not None and player in self.visible_to):
            return self
        if self.public_data is None and self.public_text is None:
            return None
        return Event(
            self.kind,
            dict(self.public_data or {}),
            self.public_text or "",
            self.chance,
            None,
        )

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind, "data": dict(self.data), "text": self.text}
        if self.chance:
            out["chance"] = True
        return out


def events_for(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events a player may see, redacted where needed."""
    out = []
    for event in events:
        seen = event.for_player(player)
        if seen is not None:
            out.append(seen)
    return out


def roll_event(who: str, dice: Iterable[tuple[int, int]], *, purpose: str = "", **extra: JSON) -> Event:
    """A public event for a roll: ``dice`` are (sides, face) pairs."""
    pairs = list(dice)
    faces = " ".join(f"d{sides}:{face}" for sides, face in pairs)
    what = f" for {purpose}" if purpose else ""
    return Event(
        "roll",
        {"who": who, "dice": [[s, f] for s, f in pairs], "purpose": purpose, **extra},
        f"{who} rolls{what}: {faces}",
        chance=True,
    )


def as_mapping(data: Mapping[str, JSON] | None) -> dict[str, JSON]:
    return dict(data) if data else {}
