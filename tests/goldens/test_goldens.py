"""Golden playthroughs replay exactly: same events and digests; separately, the same legal-action counts.

A change that changes play regenerates the goldens (``make goldens``) in the same
commit and names the rule fix that explains it; a pure refactor leaves them as they are.
"""

from __future__ import annotations

import pytest

from tests.goldens import GOLDEN_DIR, golden_cases, golden_path
from warhorn.goldens import Golden, legal_count_differences, replay_differences

CASES = golden_cases()
IDS = [golden_path(*case).stem for case in CASES]


def _golden(case: tuple[str, dict[str, object], int]) -> Golden:
    path = golden_path(*case)
    if not path.exists():
        pytest.fail(f"no golden file {path.name}: run `make goldens`")
    return Golden.from_text(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_replay_gives_the_recorded_events_and_states(case: tuple[str, dict[str, object], int]) -> None:
    problems = replay_differences(_golden(case))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_legal_action_counts_are_as_recorded(case: tuple[str, dict[str, object], int]) -> None:
    problems = legal_count_differences(_golden(case))
    assert not problems, "\n".join(problems)


def test_every_golden_file_belongs_to_a_case() -> None:
    wanted = {golden_path(*case) for case in CASES}
    stale = sorted(p.name for p in GOLDEN_DIR.glob("*.json") if p not in wanted)
    assert not stale, f"golden files without a case (run `make goldens`): {stale}"
    assert {game for game, _, _ in CASES}, "no installed game has golden cases"


def _nerath_golden() -> Golden:
    case = next(c for c in CASES if c[0] == "nerath")
    return _golden(case)


def test_a_changed_event_is_reported_with_its_step() -> None:
    golden = _nerath_golden()
    golden.steps[6].events = [*golden.steps[6].events, "planted"]
    (problem,) = replay_differences(golden)
    assert "step 7 (" in problem and "event kinds differ" in problem and "planted" in problem


def test_a_changed_state_is_reported_with_its_window() -> None:
    golden = _nerath_golden()
    golden.steps[19].digest = "0" * 64
    (problem,) = replay_differences(golden)
    assert "step 20 (" in problem and "the state differs" in problem and "steps 11-20" in problem


def test_a_listing_change_shows_only_in_the_legal_counts() -> None:
    golden = _nerath_golden()
    golden.steps[2].legal += 5
    golden.steps[40].legal -= 1
    assert replay_differences(golden) == []
    problems = legal_count_differences(golden)
    assert "differs at 2 of" in problems[0]
    assert problems[1].startswith("step 3: golden") and problems[2].startswith("step 41: golden")


def test_a_refused_action_is_reported_with_its_step() -> None:
    golden = _nerath_golden()
    golden.steps[0].action = {
        "kind": "move",
        "count": 99,
        "path": ["zaarnath", "amil_forest"],
        "piece": "soldier",
    }
    (problem,) = replay_differences(golden)
    assert "step 1: the recorded action" in problem and "is refused now" in problem
