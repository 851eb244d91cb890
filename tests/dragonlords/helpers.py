"""DragonLords scenario helpers: positions through the position builder, scripted dice, actions by text.

The usual duel: player 0 plays Orcs, player 1 Dwarves, in the combat phase of player 0's turn.
Territories used (The Sundered Realms): gorefort (Orc Kingdom) borders bonefield, tusk_ridge,
skullcrag, ashen_pits (a portal) and rustmire (a mine).
"""

from __future__ import annotations

from typing import Any

from warhorn.engine.actions import Action
from warhorn.engine.events import Event
from warhorn.engine.rng import ScriptedRng
from warhorn.games.dragonlords.actions import CODEC
from warhorn.games.dragonlords.position import position_from
from warhorn.games.dragonlords.state import DragonLordsState


def build(**data: Any) -> DragonLordsState:
    """A position; ``players`` defaults to Orcs against Dwarves."""
    data.setdefault("players", [{"people": "orcs"}, {"people": "dwarves"}])
    return position_from(data)


def dice(state: DragonLordsState, *faces: int) -> DragonLordsState:
    """Script the next die faces (shuffles keep their order)."""
    state.rng = ScriptedRng(faces)
    return state


def action(text: str) -> Action:
    found = CODEC.decode_text(text)
    assert found is not None, f"not an action: {text}"
    return found


def act(state: DragonLordsState, *texts: str) -> tuple[DragonLordsState, list[Event]]:
    """Apply actions written in notation, one after another; returns the last state and all events."""
    events: list[Event] = []
    for text in texts:
        state, more = state.apply(action(text))
        events += more
    return state, events


def legal(state: DragonLordsState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def force(owner: int, plain: int, *pieces: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"owner": owner, "plain": plain, "pieces": list(pieces), **extra}


def until(
    state: DragonLordsState, kind: str, player: int | None = None
) -> tuple[DragonLordsState, list[Event]]:
    """Pass ('done') until the pending decision is of ``kind`` (and ``player``)."""
    events: list[Event] = []
    for _ in range(50):
        decision = state.pending()
        if decision is None or (decision.kind == kind and (player is None or decision.player == player)):
            return state, events
        state, more = act(state, "done")
        events += more
    raise AssertionError(f"no {kind} decision came")
