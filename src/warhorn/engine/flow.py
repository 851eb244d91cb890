"""A phase table: a turn's phases (id, name, steps, rule) and a position in rounds, turns and phases.

Games keep their phases and stages as enums in their own package (Defenders, Small World,
the fixture game); the engine runs no turn structure for them. Conquest of Nerath still
reads its phases from a :class:`TurnFlow` table and keeps a :class:`FlowPosition`; this
module goes once that is an enum too. The transitions that once lived here (start,
next step, next phase, next turn) were used only by the fixture game, which now has its
own (``tests/fixture_game.py``).
"""

from __future__ import annotations

from dataclasses import dataclass


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
    """The phases of one turn, in order."""

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
