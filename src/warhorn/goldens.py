"""Golden playthroughs: a seeded random game recorded step by step, and the checks that replay it.

A golden records, for one game, option set and seed, the first ``max_actions``
actions of a random legal playthrough: each action (JSON), how many legal
actions there were before it, the kinds of the events it produced, and a
digest of the whole state (``snapshot()``) every ``digest_every`` steps.

Two separate checks read a golden back, so a change in how legal actions are
*listed* does not hide a change in *play*:

- :func:`replay_differences` replays the recorded actions and compares the
  events and digests step by step (stopping at the first divergence, since
  everything after it differs too);
- :func:`legal_count_differences` compares only the number of legal actions
  at each step.

Pure: no I/O (the test suite and ``make goldens`` read and write the files).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warhorn.engine import ActionError, GameState, Rng, load_game

#: Bumped when the file layout changes (a golden of another format is regenerated, not read).
GOLDEN_FORMAT = 1
#: Default length cap and digest spacing (a round-capped Nerath game of about 950 actions fits, ~100 KB).
DEFAULT_MAX_ACTIONS = 1000
DEFAULT_DIGEST_EVERY = 10


@dataclass
class GoldenStep:
    """One recorded action and what it did."""

    action: dict[str, Any]
    legal: int
    events: list[str]
    digest: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "legal": self.legal, "events": self.events}
        if self.digest is not None:
            out["digest"] = self.digest
        return out


@dataclass
class Golden:
    """A recorded playthrough of ``game`` with ``options`` and ``seed``."""

    game: str
    options: dict[str, Any]
    seed: int
    max_actions: int
    digest_every: int
    start_digest: str
    steps: list[GoldenStep] = field(default_factory=list)
    finished: bool = False

    @property
    def name(self) -> str:
        """A file-name-friendly case name, e.g. ``defenders-players=4-seed1``."""
        return golden_name(self.game, self.options, self.seed)

    def to_text(self) -> str:
        """Canonical JSON text, one step per line (so a diff shows the steps that changed)."""
        head = {
            "format": GOLDEN_FORMAT,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "max_actions": self.max_actions,
            "digest_every": self.digest_every,
            "start_digest": self.start_digest,
            "finished": self.finished,
        }
        lines = [json.dumps(head, sort_keys=True, separators=(",", ":"))[:-1] + ',"steps":[']
        body = [json.dumps(s.to_json(), sort_keys=True, separators=(",", ":")) for s in self.steps]
        lines.append(",\n".join(body))
        lines.append("]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Golden:
        if data.get("format") != GOLDEN_FORMAT:
            raise ValueError(
                f"golden format {data.get('format')!r} is not {GOLDEN_FORMAT}: regenerate with `make goldens`"
            )
        steps = [
            GoldenStep(dict(s["action"]), int(s["legal"]), list(s["events"]), s.get("digest"))
            for s in data["steps"]
        ]
        return cls(
            game=str(data["game"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            max_actions=int(data["max_actions"]),
            digest_every=int(data["digest_every"]),
            start_digest=str(data["start_digest"]),
            steps=steps,
            finished=bool(data["finished"]),
        )

    @classmethod
    def from_text(cls, text: str) -> Golden:
        return cls.from_json(json.loads(text))


def golden_name(game: str, options: Mapping[str, Any], seed: int) -> str:
    opts = ",".join(f"{k}={options[k]}" for k in sorted(options)) or "default"
    return f"{game}-{opts}-seed{seed}"


def record_golden(
    game: str,
    options: Mapping[str, Any],
    seed: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    digest_every: int = DEFAULT_DIGEST_EVERY,
) -> Golden:
    """Play uniformly random legal actions (chosen by a generator seeded from ``seed``) and record them."""
    state = load_game(game, seed=seed, **dict(options))
    golden = Golden(game, dict(options), seed, max_actions, digest_every, state.digest())
    chooser = Rng(seed ^ 0x601DE7)
    while not state.is_terminal and len(golden.steps) < max_actions:
        legal = state.legal_actions()
        action = legal[chooser.below(len(legal))]
        state, events = state.apply(action)
        number = len(golden.steps) + 1
        due = number % digest_every == 0 or state.is_terminal or number == max_actions
        golden.steps.append(
            GoldenStep(
                action.to_json(), len(legal), [e.kind for e in events], state.digest() if due else None
            )
        )
    golden.finished = state.is_terminal
    return golden


def _notation(state: GameState, data: Mapping[str, Any]) -> str:
    try:
        return state.decode(dict(data)).notation()
    except ActionError:
        return json.dumps(dict(data), sort_keys=True)


def replay_differences(golden: Golden) -> list[str]:
    """Replay the recorded actions; describe the first step where events or the state digest differ.

    Empty when the replay reproduces the golden. Step numbers count from 1
    (step N is the N-th action); a digest is checked every ``digest_every``
    steps, so a state change without different events is located to within
    that window.
    """
    state = load_game(golden.game, seed=golden.seed, **golden.options)
    where = f"{golden.name}"
    if state.digest() != golden.start_digest:
        now, was = state.digest()[:12], golden.start_digest[:12]
        return [f"{where}: the starting state differs (digest {now}, golden {was})"]
    last_checked = 0
    for number, step in enumerate(golden.steps, start=1):
        if state.is_terminal:
            return [
                f"{where} step {number}: the game ended before this step (golden plays {len(golden.steps)})"
            ]
        try:
            action = state.decode(step.action)
            state, events = state.apply(action)
        except ActionError as exc:
            return [
                f"{where} step {number}: the recorded action {_notation(state, step.action)!r} "
                f"is refused now: {exc}"
            ]
        kinds = [e.kind for e in events]
        if kinds != step.events:
            return [
                f"{where} step {number} ({action.notation()}): event kinds differ\n"
                f"  golden: {step.events}\n  now:    {kinds}"
            ]
        if step.digest is not None:
            if state.digest() != step.digest:
                window = (
                    f"step {number}" if number - last_checked == 1 else f"steps {last_checked + 1}-{number}"
                )
                return [
                    f"{where} step {number} ({action.notation()}): the state differs (same events so far); "
                    f"the change happened in {window}"
                ]
            last_checked = number
    if state.is_terminal != golden.finished:
        said = "ended" if golden.finished else "went on"
        return [f"{where}: after the last recorded step the golden game {said}, the replay did not"]
    return []


def legal_count_differences(golden: Golden, *, show: int = 5) -> list[str]:
    """Steps where the number of legal actions differs from the golden (replaying the recorded actions).

    Stops (with a note) if the replay itself fails; :func:`replay_differences`
    reports why.
    """
    state = load_game(golden.game, seed=golden.seed, **golden.options)
    differing: list[str] = []
    count = 0
    for number, step in enumerate(golden.steps, start=1):
        if state.is_terminal:
            differing.append(f"step {number}: game over in the replay (see the replay check)")
            break
        now = len(state.legal_actions())
        if now != step.legal:
            count += 1
            if len(differing) < show:
                differing.append(f"step {number}: golden {step.legal} legal actions, now {now}")
        try:
            state, _ = state.apply(state.decode(step.action))
        except ActionError as exc:
            differing.append(f"step {number}: recorded action refused (see the replay check): {exc}")
            break
    if not differing:
        return []
    head = f"{golden.name}: the number of legal actions differs at {count} of {len(golden.steps)} steps"
    return [head, *differing]
