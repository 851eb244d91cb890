"""The conformance suite: every registered game, random legal play, contract checks throughout."""

from __future__ import annotations

from typing import Any

import pytest

from warhorn.conformance import conformance_cases, random_playthrough, replay_problems

CASES = conformance_cases()


def _id(case: tuple[str, dict[str, Any], int]) -> str:
    game, options, seed = case
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
    return f"{game}[{opts}]-seed{seed}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_random_play_keeps_the_contract(case: tuple[str, dict[str, Any], int]) -> None:
    game, options, seed = case
    report = random_playthrough(game, seed, options)
    assert report.problems == []
    assert report.finished, "the game did not end"
    assert report.final is not None and report.final.results() is not None
    assert replay_problems(report) == []
