"""A match in progress: its states, actions and events, with undo and JSON saves.

The save format is the action log (never pickle): format version, game id,
rules version, content hash, seed, options and the actions; loading replays
them and checks the replay ends in the recorded state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pydantic

from warhorn.engine.actions import Action
from warhorn.engine.errors import SaveError, UndoError, WarhornError
from warhorn.engine.events import Event
from warhorn.engine.positions import check_position
from warhorn.engine.registry import game_spec, load_game
from warhorn.engine.state import GameState

SAVE_FORMAT_VERSION = 1


#: Bounds on a save's fields: far above anything a real game writes, low enough that a hostile file
#: cannot make loading it, or printing its errors, take unbounded time or memory.
MAX_SAVE_NAME_CHARS = 64
MAX_SAVE_OPTIONS = 64
MAX_SAVE_ACTIONS = 200_000


class SaveFile(pydantic.BaseModel):
    """The JSON save format.

    ``final_digest`` is the digest of the state the recorded actions reach; a save without one cannot
    show that its history is the one that was played, and is refused unless replayed as unverified.
    ``meta`` is for front ends (e.g. which seats were AI players); it is not part of what is verified.
    ``position``: for a game set up from a position (``docs/positions.md``) instead of from the seed,
    that position (without its ``game`` key); the actions replay from it.
    """

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    format: int = SAVE_FORMAT_VERSION
    game: str = pydantic.Field(max_length=MAX_SAVE_NAME_CHARS)
    rules_version: str = pydantic.Field(max_length=MAX_SAVE_NAME_CHARS)
    content_hash: str = pydantic.Field(default="", max_length=MAX_SAVE_NAME_CHARS)
    seed: int = pydantic.Field(ge=-(2**63), lt=2**64)
    options: dict[str, str | int | float | bool | None] = pydantic.Field(
        default_factory=dict, max_length=MAX_SAVE_OPTIONS
    )
    actions: list[dict[str, Any]] = pydantic.Field(default_factory=list, max_length=MAX_SAVE_ACTIONS)
    final_digest: str | None = pydantic.Field(default=None, max_length=128)
    hotseat_undo: bool = False
    meta: dict[str, Any] = pydantic.Field(default_factory=dict, max_length=MAX_SAVE_OPTIONS)
    position: dict[str, Any] | None = None

    def text(self) -> str:
        """The save as JSON text; a game set up from its seed writes no ``position`` key."""
        return self.model_dump_json(indent=1, exclude={"position"} if self.position is None else None)


def undoable_actions(events: Sequence[Sequence[Event]], *, hotseat_undo: bool = False) -> int:
    """How many of the last actions (given by their events, one batch per action) the undo rules let
    a player take back: those after the last roll, draw or shuffle (``chance`` event), or all of them
    in a hotseat game with undo enabled (the same dice come back: the generator lives in the state)."""
    if hotseat_undo:
        return len(events)
    count = 0
    for batch in reversed(events):
        if any(e.chance for e in batch):
            break
        count += 1
    return count


@dataclass
class Match:
    """The states and log of one game, from its first state on.

    ``hotseat_undo`` (a local game where every seat is at one table) lets undo
    cross rolls and draws; the same dice come back, since the generator lives
    in the state.
    """

    game: str
    seed: int
    options: dict[str, Any]
    states: list[GameState]
    actions: list[Action] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)
    hotseat_undo: bool = False
    content: Any = None
    #: Front ends' notes kept in the save but outside what replay verifies (e.g. the seats' kinds).
    meta: dict[str, Any] = field(default_factory=dict)
    #: False for a match replayed from a save without a final digest (nothing checks its history).
    verified: bool = True
    #: The position the match started from (None: from the seed and options).
    position: dict[str, Any] | None = None

    @classmethod
    def new(
        cls,
        game: str,
        *,
        seed: int = 0,
        content: Any = None,
        hotseat_undo: bool = False,
        **options: Any,
    ) -> Match:
        first = load_game(game, seed=seed, content=content, **options)
        return cls(game, seed, dict(first.options), [first], hotseat_undo=hotseat_undo, content=content)

    @classmethod
    def from_position(
        cls, game: str, position: dict[str, Any], *, content: Any = None, hotseat_undo: bool = False
    ) -> Match:
        """A match that starts from ``position`` (the game's part, without ``game``); saved with it."""
        first = check_position(game, position, content)
        return cls(
            game,
            first.seed,
            dict(first.options),
            [first],
            hotseat_undo=hotseat_undo,
            content=content,
            position=dict(position),
        )

    @classmethod
    def from_state(cls, state: GameState, *, hotseat_undo: bool = False) -> Match:
        return cls(state.spec.id, state.seed, dict(state.options), [state], hotseat_undo=hotseat_undo)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def all_events(self) -> list[Event]:
        return [e for batch in self.events for e in batch]

    def play(self, action: Action | str | dict[str, Any]) -> list[Event]:
        """Apply an action (a value, its text notation or its JSON); return its events."""
        current = self.state
        if isinstance(action, str):
            action = current.parse(action)
        elif isinstance(action, dict):
            action = current.decode(action)
        after, events = current.apply(action)
        self.states.append(after)
        self.actions.append(action)
        self.events.append(events)
        return events

    def undoable(self) -> int:
        """How many of the last actions may be undone now."""
        return undoable_actions(self.events, hotseat_undo=self.hotseat_undo)

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` actions.

        Refused when that would cross a roll, draw or shuffle, unless this is a
        hotseat game with undo enabled.
        """
        if count < 1:
            raise UndoError("undo needs a count of at least 1")
        if count > len(self.actions):
            raise UndoError(f"only {len(self.actions)} action(s) to undo")
        if count > self.undoable():
            raise UndoError("undo may not take back a roll or a draw (enable hotseat undo for a local game)")
        del self.states[-count:]
        del self.actions[-count:]
        del self.events[-count:]

    # --- saves -------------------------------------------------------------
    def to_save(self) -> SaveFile:
        first = self.states[0]
        return SaveFile(
            game=self.game,
            rules_version=first.spec.rules_version,
            content_hash=first.content_hash,
            seed=self.seed,
            options=self.options,
            actions=[a.to_json() for a in self.actions],
            final_digest=self.state.digest(),
            hotseat_undo=self.hotseat_undo,
            meta=self.meta,
            position=self.position,
        )

    def dumps(self) -> str:
        return self.to_save().text()

    @classmethod
    def from_save(
        cls, save: SaveFile | str | dict[str, Any], *, content: Any = None, unverified: bool = False
    ) -> Match:
        """Replay a save. Raises :class:`SaveError` when it is malformed or does not replay exactly.

        A save without ``final_digest`` is refused (an edited history would replay as if it were the
        game played) unless ``unverified`` says the caller will present it as unverified.
        """
        data = _parse_save(save)
        if data.final_digest is None and not unverified:
            raise SaveError(
                "the save has no final_digest, so an edited history could not be told apart from the "
                "game played; it can only be replayed as unverified (warhorn replay --unverified)"
            )
        if data.format != SAVE_FORMAT_VERSION:
            raise SaveError(f"save format {data.format} is not supported (expected {SAVE_FORMAT_VERSION})")
        try:
            spec = game_spec(data.game)
        except WarhornError as exc:
            raise SaveError(str(exc)) from None
        if data.rules_version != spec.rules_version:
            raise SaveError(
                f"save was made with rules version {data.rules_version}, "
                f"this warhorn has {spec.rules_version}"
            )
        try:
            if data.position is not None:
                match = cls.from_position(
                    data.game, data.position, content=content, hotseat_undo=data.hotseat_undo
                )
            else:
                match = cls.new(
                    data.game, seed=data.seed, content=content, hotseat_undo=data.hotseat_undo, **data.options
                )
        except WarhornError as exc:
            raise SaveError(f"save {'position' if data.position is not None else 'options'}: {exc}") from None
        match.meta = dict(data.meta)
        match.verified = data.final_digest is not None
        if data.content_hash != match.state.content_hash:
            raise SaveError("save was made with different content (board or cards) than loaded now")
        for number, raw in enumerate(data.actions, start=1):
            try:
                match.play(raw)
            except WarhornError as exc:
                raise SaveError(f"action {number} does not replay: {exc}") from None
        if data.final_digest is not None and data.final_digest != match.state.digest():
            raise SaveError("replay does not reproduce the saved state (digest differs)")
        return match


def _parse_save(save: SaveFile | str | dict[str, Any]) -> SaveFile:
    if isinstance(save, SaveFile):
        return save
    try:
        if isinstance(save, str):
            return SaveFile.model_validate_json(save)
        return SaveFile.model_validate(save)
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'save'}: {err['msg']}" for err in exc.errors()
        )
        raise SaveError(f"not a warhorn save: {problems}") from None
    except json.JSONDecodeError as exc:  # pragma: no cover - pydantic wraps this
        raise SaveError(f"not JSON: {exc}") from None


def replay_actions(state: GameState, actions: Sequence[Action]) -> tuple[GameState, list[Event]]:
    """Apply actions in order; return the final state and all events."""
    events: list[Event] = []
    for action in actions:
        state, batch = state.apply(action)
        events.extend(batch)
    return state, events
