"""Replays: a finished game, or an uploaded save, stepped through action by action.

The server replays the actions through the engine (no second rules implementation in the browser) and
sends one step at a time as a *frame*: the public view after that action (``state.view(None)``, what a
spectator sees), who decides next, the public form of the events of the actions the page has not seen
yet, and the results at the end. Hidden facts stay hidden in a replay too (the save itself, which holds
the seed, is offered only to the game's own seats).

States are kept every ``CHECKPOINT_EVERY`` actions; a step between two checkpoints is replayed from the
one before it, so a long game costs little memory and any step answers fast. Uploaded saves are kept in
memory (the ``MAX_UPLOADS`` latest); the replay of a finished game is named by the game's id.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from warhorn.engine import Event, GameState, Match, SaveFile, WarhornError, events_for
from warhorn.server.errors import ApiError

#: One kept state per this many actions.
CHECKPOINT_EVERY = 32
#: How many uploaded saves (and finished games) are kept ready at once.
MAX_UPLOADS = 16
#: The prefix of an uploaded save's replay id (a finished game's replay id is the game's id).
UPLOAD_PREFIX = "u"


@dataclass
class Replay:
    """A game's actions and events, with its states every ``CHECKPOINT_EVERY`` actions."""

    replay_id: str
    game: str
    game_name: str
    actions: list[dict[str, Any]]
    events: list[list[Event]]
    checkpoints: list[GameState]
    seats: list[dict[str, Any]]

    @property
    def length(self) -> int:
        return len(self.actions)

    def state_at(self, version: int) -> GameState:
        """The state after ``version`` actions (replayed from the checkpoint before it)."""
        state = self.checkpoints[version // CHECKPOINT_EVERY]
        for action_json in self.actions[version - version % CHECKPOINT_EVERY : version]:
            state, _ = state.apply(state.decode(action_json))
        return state

    def frame(self, version: int, after: int) -> dict[str, Any]:
        """What the replay page shows at step ``version`` (0: the start); ``after``: the step up to
        which the page holds the events (the events after it are sent)."""
        if not 0 <= version <= self.length:
            raise ApiError(400, "bad_step", f"step {version}: this replay has steps 0 to {self.length}")
        state = self.state_at(version)
        decision = state.pending()
        results = state.results()
        events: list[dict[str, Any]] = []
        for number in range(max(after, 0) + 1, version + 1):
            for index, event in enumerate(events_for(self.events[number - 1], None)):
                events.append({"action": number, "index": index, **event.to_json()})
        return {
            "replay_id": self.replay_id,
            "game_id": self.replay_id,
            "game": self.game,
            "game_name": self.game_name,
            "seat": None,
            "seats": self.seats,
            "seat_names": state.seat_roles(),
            "version": version,
            "actions": self.length,
            "status": "finished" if state.is_terminal else "active",
            "view": state.view(None),
            "pending": (
                {"player": decision.player, "kind": decision.kind, "rule": decision.rule, "yours": False}
                if decision is not None
                else None
            ),
            "results": results.to_json() if results is not None else None,
            "ai_error": None,
            "undos": 0,
            "undo": None,
            "rematch": None,
            "legal": [],
            "events": events,
        }


def build_replay(
    replay_id: str,
    save: SaveFile | dict[str, Any],
    seats: list[dict[str, Any]] | None = None,
    events: list[list[Event]] | None = None,
) -> Replay:
    """Replay ``save`` (a save, or its JSON as uploaded) through the engine, checking its final digest;
    a refusal is a 400 naming why. ``events``: the events the server stored with each action (a
    finished game's, with its AI seats' reasons), shown instead of the replay's own."""
    try:
        match = Match.from_save(save)
    except WarhornError as exc:
        raise ApiError(400, "bad_save", f"the save cannot be replayed: {exc}") from None
    checkpoints = [s for i, s in enumerate(match.states) if i % CHECKPOINT_EVERY == 0]
    first = match.states[0]
    return Replay(
        replay_id=replay_id,
        game=match.game,
        game_name=first.spec.name,
        actions=[a.to_json() for a in match.actions],
        events=list(events)
        if events is not None and len(events) == len(match.events)
        else list(match.events),
        checkpoints=checkpoints,
        seats=seats or [{"seat": i, "kind": "player"} for i in range(first.num_players)],
    )


class Replays:
    """The replays ready to be stepped through (the latest ``MAX_UPLOADS``)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Replay] = OrderedDict()

    def get(self, replay_id: str) -> Replay | None:
        found = self._kept.get(replay_id)
        if found is not None:
            self._kept.move_to_end(replay_id)
        return found

    def keep(self, replay: Replay) -> Replay:
        self._kept[replay.replay_id] = replay
        self._kept.move_to_end(replay.replay_id)
        while len(self._kept) > MAX_UPLOADS:
            self._kept.popitem(last=False)
        return replay

    @staticmethod
    def upload_id() -> str:
        return UPLOAD_PREFIX + secrets.token_hex(8)
