"""The conformance checks catch a planted invariant break, replay break, view leak and legality hole."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from fixture_game import SPEC, DiceRace, Roll
from warhorn.conformance import random_playthrough, replay_problems
from warhorn.engine import Action, Event, register_game, unregister_game


class BrokenInvariant(DiceRace):
    def invariants(self) -> list[str]:
        return ["planted"] if sum(self.scores) > 10 else []


class LeakyView(DiceRace):
    def view(self, player: int | None) -> dict[str, Any]:
        out = super().view(player)
        out["all_hands"] = [list(h) for h in self.hands]
        return out


_calls = [0]  # a hidden global that changes on every call: the planted non-determinism


class NonDeterministic(DiceRace):
    def _apply_in_place(self, action: Action) -> list[Event]:
        events = super()._apply_in_place(action)
        if isinstance(action, Roll):
            _calls[0] += 1
            self.scores[self.active] += _calls[0] % 3
        return events


class AcceptsAnything(DiceRace):
    def is_legal(self, action: Action) -> bool:
        return True


@pytest.fixture
def planted(request: pytest.FixtureRequest) -> Iterator[str]:
    cls = request.param
    game_id = f"planted-{cls.__name__.lower()}"
    spec = dataclasses.replace(SPEC, id=game_id)

    class Planted(cls):  # type: ignore[valid-type, misc]
        pass

    Planted.spec = spec
    register_game(spec, lambda options, seed, content=None: Planted(options, seed))
    yield game_id
    unregister_game(game_id)


@pytest.mark.parametrize("planted", [BrokenInvariant], indirect=True)
def test_invariant_break_is_caught(planted: str) -> None:
    report = random_playthrough(planted, 1)
    assert any("invariant broken" in p for p in report.problems)


@pytest.mark.parametrize("planted", [LeakyView], indirect=True)
def test_view_leak_is_caught(planted: str) -> None:
    report = random_playthrough(planted, 1)
    assert any("hidden from them" in p for p in report.problems)


@pytest.mark.parametrize("planted", [NonDeterministic], indirect=True)
def test_replay_break_is_caught(planted: str) -> None:
    problems: list[str] = []
    for seed in range(5):
        report = random_playthrough(planted, seed)
        problems += replay_problems(report)
    assert any("different" in p or "did not" in p for p in problems)


@pytest.mark.parametrize("planted", [AcceptsAnything], indirect=True)
def test_accepting_illegal_actions_is_caught(planted: str) -> None:
    report = random_playthrough(planted, 2)
    assert any("was accepted" in p for p in report.problems)
