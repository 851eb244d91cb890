"""Turn structure as data: rounds, turns, phases and steps, moved through one transition at a time.

A game declares its phases once (:class:`TurnFlow`) and keeps a
:class:`FlowPosition` in its state. Every transition returns the event that
logs it, so the history shows each phase change.
"""

from __future__ import annotations

from dataclasses import dataclass

from warhorn.engine.events import Event


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a turn: an id used in code, a name shown to players, optional steps and rule."""

    id: str
    name: str
    steps: tuple[str, ...] = ()
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class FlowPosition:
    """Where the game is: round (from 1), turn index within the round, phase and step index."""

    round: int = 1
    turn: int = 0
    phase: int = 0
    step: int = 0


@dataclass(frozen=True, slots=True)
class TurnFlow:
    """The phases of one turn, in order, for a game with ``turns_per_round`` turns a round."""

    phases: tuple[Phase, ...]

    def phase(self, pos: FlowPosition) -> Phase:
        return self.phases[pos.phase]

    def phase_id(self, pos: FlowPosition) -> str:
        return self.phases[pos.phase].id

    def step_id(self, pos: FlowPosition) -> str | None:
        steps = self.phases[pos.phase].steps
        return steps[pos.step] if steps else None

    def index(self, phase_id: str) -> int:
        for i, phase in enumerate(self.phases):
            if phase.id == phase_id:
                return i
        raise KeyError(phase_id)

    def _event(self, pos: FlowPosition, who: str, kind: str) -> Event:
        phase = self.phases[pos.phase]
        step = self.step_id(pos)
        text = f"round {pos.round}, {who}: {phase.name}" + (f" — {step}" if step else "")
        return Event(
            kind,
            {"round": pos.round, "turn": pos.turn, "phase": phase.id, "step": step, "who": who},
            text,
        )

    def start(self, who: str) -> tuple[FlowPosition, Event]:
        pos = FlowPosition()
        return pos, self._event(pos, who, "flow.turn")

    def next_step(self, pos: FlowPosition, who: str) -> tuple[FlowPosition, Event] | None:
        """The next step within this phase, or None when the phase has no more steps."""
        steps = self.phases[pos.phase].steps
        if pos.step + 1 < len(steps):
            nxt = FlowPosition(pos.round, pos.turn, pos.phase, pos.step + 1)
            return nxt, self._event(nxt, who, "flow.step")
        return None

    def next_phase(self, pos: FlowPosition, who: str) -> tuple[FlowPosition, Event] | None:
        """The first step of the next phase of this turn, or None after the last phase."""
        if pos.phase + 1 < len(self.phases):
            nxt = FlowPosition(pos.round, pos.turn, pos.phase + 1, 0)
            return nxt, self._event(nxt, who, "flow.phase")
        return None

    def goto_phase(self, pos: FlowPosition, phase_id: str, who: str) -> tuple[FlowPosition, Event]:
        nxt = FlowPosition(pos.round, pos.turn, self.index(phase_id), 0)
        return nxt, self._event(nxt, who, "flow.phase")

    def next_turn(
        self, pos: FlowPosition, turns_per_round: int, who: str
    ) -> tuple[FlowPosition, list[Event]]:
        """The first phase of the next turn; a new round after the last turn of a round."""
        events: list[Event] = []
        if pos.turn + 1 < turns_per_round:
            nxt = FlowPosition(pos.round, pos.turn + 1, 0, 0)
        else:
            nxt = FlowPosition(pos.round + 1, 0, 0, 0)
            events.append(Event("flow.round", {"round": nxt.round}, f"round {nxt.round} begins"))
        events.append(self._event(nxt, who, "flow.turn"))
        return nxt, events
