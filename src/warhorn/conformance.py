"""The conformance checks every registered game must pass (used by ``tests/conformance``).

Each check plays or replays a game and returns the problems it found, in
words, instead of asserting: the test suite asserts there are none, and
tests that plant a bug assert that the check notices it. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warhorn.engine import (
    Action,
    ActionError,
    GameState,
    Match,
    Rng,
    load_game,
)
from warhorn.engine.registry import registered_plugins
from warhorn.engine.session import replay_actions


def conformance_cases() -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, seed) for every registered game: each option set its plugin lists, with its seeds."""
    cases = []
    for game, plugin in registered_plugins().items():
        for options in plugin.conformance.option_sets:
            for seed in range(plugin.conformance.seeds):
                cases.append((game, dict(options), seed))
    return cases


@dataclass
class PlaythroughReport:
    """What one random playthrough saw."""

    game: str
    seed: int
    options: dict[str, Any]
    actions: list[Action] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    final: GameState | None = None

    @property
    def finished(self) -> bool:
        return self.final is not None and self.final.is_terminal


def _problem(report: PlaythroughReport, step: int, message: str) -> None:
    if len(report.problems) < 20:
        report.problems.append(f"{report.game} seed {report.seed} step {step}: {message}")


def _foreign_actions(pool: list[Action], legal: list[Action], rng: Rng, count: int) -> list[Action]:
    """Actions seen legal elsewhere in the game but not legal now."""
    legal_set = set(legal)
    candidates = [a for a in pool if a not in legal_set]
    if len(candidates) <= count:
        return candidates
    return [candidates[rng.below(len(candidates))] for _ in range(count)]


def random_playthrough(
    game: str,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    content: Any = None,
    check_every: int = 1,
    views_every: int = 7,
    probe_actions: int = 2,
    max_actions: int | None = None,
) -> PlaythroughReport:
    """Play uniformly random legal actions to the end, checking the contract along the way.

    After every ``check_every`` actions: invariants hold; a sample of other
    legal actions applies; a sample of actions that are not legal now (seen
    legal earlier) and malformed JSON are refused with the state unchanged.
    Every ``views_every`` actions: each player's view is unchanged by
    determinizing what that player cannot see (no leak). The game must end
    within ``max_actions`` (default: the spec's bound).
    """
    opts = dict(options or {})
    state = load_game(game, seed=seed, content=content, **opts)
    report = PlaythroughReport(game, seed, dict(state.options))
    bound = max_actions if max_actions is not None else state.spec.max_actions
    chooser = Rng(seed ^ 0x5EED)
    seen_pool: list[Action] = []
    for problem in state.invariants():
        _problem(report, 0, f"invariant broken at start: {problem}")
    step = 0
    while not state.is_terminal:
        if step >= bound:
            _problem(report, step, f"no end within {bound} actions")
            break
        legal = state.legal_actions()
        if not legal:
            _problem(report, step, "not terminal but no legal action")
            break
        if len(legal) != len(set(legal)):
            _problem(report, step, "legal_actions() lists an action twice")
        decision = state.pending()
        if decision is None or not 0 <= decision.player < state.num_players:
            _problem(report, step, f"pending decision names no valid player: {decision}")
        if step % check_every == 0:
            _check_refusals(report, state, legal, seen_pool, chooser, step, probe_actions)
            for extra in (legal[chooser.below(len(legal))] for _ in range(probe_actions)):
                try:
                    state.apply(extra)
                except ActionError as exc:
                    _problem(report, step, f"generated legal action {extra} was refused: {exc}")
        if views_every and step % views_every == 0:
            for problem in view_leaks(state, chooser):
                _problem(report, step, problem)
        action = legal[chooser.below(len(legal))]
        if len(seen_pool) < 400:
            seen_pool.append(action)
        elif chooser.below(4) == 0:
            seen_pool[chooser.below(len(seen_pool))] = action
        try:
            state, _ = state.apply(action)
        except ActionError as exc:
            _problem(report, step, f"chosen legal action {action} was refused: {exc}")
            break
        report.actions.append(action)
        step += 1
        if step % check_every == 0:
            for problem in state.invariants():
                _problem(report, step, f"invariant broken after {action}: {problem}")
        if len(report.problems) >= 20:
            break
    else:
        if state.results() is None:
            _problem(report, step, "terminal state without results")
    report.final = state
    return report


def _check_refusals(
    report: PlaythroughReport,
    state: GameState,
    legal: list[Action],
    pool: list[Action],
    chooser: Rng,
    step: int,
    count: int,
) -> None:
    before = state.digest()
    for bad in _foreign_actions(pool, legal, chooser, count):
        try:
            state.apply(bad)
        except ActionError:
            pass
        except Exception as exc:  # a crash instead of a clear refusal is itself the problem
            _problem(report, step, f"illegal action {bad} was accepted and crashed: {exc!r}")
        else:
            _problem(report, step, f"illegal action {bad} was accepted")
    for junk in ({"kind": "no-such-action"}, {"nokind": 1}, ["list"]):
        try:
            state.apply(state.decode(junk))
        except ActionError:
            pass
        else:
            _problem(report, step, f"malformed input {junk!r} was accepted")
    if state.digest() != before:
        _problem(report, step, "a refused action changed the state")


def view_leaks(state: GameState, rng: Rng) -> list[str]:
    """Problems where a player's view would change if hidden facts were different (a leak)."""
    problems = []
    for player in range(state.num_players):
        seen = state.view_json(player)
        other = state.determinize(player, Rng(rng.next_u64()))
        if other.view_json(player) != seen:
            problems.append(f"player {player}'s view depends on facts hidden from them")
        if json.loads(seen) != state.view(player):
            problems.append(f"player {player}'s view is not plain JSON")
    return problems


def replay_problems(report: PlaythroughReport, *, content: Any = None) -> list[str]:
    """Same seed + same actions → the same events and final state; save → load gives the same state."""
    problems: list[str] = []
    first_a = load_game(report.game, seed=report.seed, content=content, **report.options)
    first_b = load_game(report.game, seed=report.seed, content=content, **report.options)
    try:
        end_a, events_a = replay_actions(first_a, report.actions)
        end_b, events_b = replay_actions(first_b, report.actions)
    except Exception as exc:  # a replay that crashes or is refused is the problem reported
        return [f"replaying the same seed and actions did not reproduce the game: {exc}"]
    if [e.to_json() for e in events_a] != [e.to_json() for e in events_b]:
        problems.append("the same seed and actions gave different event logs")
    if end_a.digest() != end_b.digest():
        problems.append("the same seed and actions gave different final states")
    if report.final is not None and end_a.digest() != report.final.digest():
        problems.append("replaying the actions did not reach the played final state")
    match = Match.from_state(load_game(report.game, seed=report.seed, content=content, **report.options))
    for action in report.actions:
        match.play(action)
    text = match.dumps()
    try:
        loaded = Match.from_save(text, content=content)
    except Exception as exc:  # any failure here is a conformance problem to report
        problems.append(f"save did not load: {exc}")
        return problems
    if loaded.state.digest() != end_a.digest():
        problems.append("save → load did not reproduce the final state")
    if json.loads(loaded.dumps()) != json.loads(text):
        problems.append("save → load → save is not identical")
    return problems


Check = Callable[[PlaythroughReport], list[str]]
