"""The tournament runner: fair seating, per-seed determinism, parallel play, JSON lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warhorn.engine import OptionError, UnknownGameError, load_game
from warhorn.sim import plan_tournament, read_records, run_tournament, seatings, write_records
from warhorn.sim.local_cluster import PATIENT_RAY_ENV
from warhorn.sim.runner import (
    agent_labels,
    derive_seed,
    join_ray_cluster,
    play_game,
    ray_available,
    seating_blocks,
    start_local_ray,
)

SETUP = ("fixture_game:register",)


def without_durations(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in {"duration_s", "think_s"}} for r in records]


def test_seatings_rotate_fairly() -> None:
    assert seating_blocks(2, 2) == [[(0, 1), (1, 0)]]
    assert seating_blocks(2, 4) == [[(0, 1, 0, 1), (1, 0, 1, 0)]]
    assert seating_blocks(1, 3) == [[(0, 0, 0)]]
    three = seating_blocks(3, 2)
    assert len(three) == 3 and all(len(block) == 2 for block in three)
    for block in three:  # within a block, the same agents hold every seat once
        assert sorted(block[0]) == sorted(block[1]) and block[0] != block[1]
    flat = seatings(3, 2)
    for seat in range(2):
        assert sorted(s[seat] for s in flat) == [0, 0, 1, 1, 2, 2]


def test_large_fields_take_part_evenly_from_the_start() -> None:
    """Six agents, four seats: 90 groups; after every block, participation differs by at most 4 games."""
    blocks = seating_blocks(6, 4)
    assert len(blocks) == 90
    played = [0] * 6
    for block in blocks:
        for seating in block:
            for agent in seating:
                played[agent] += 1
        assert max(played) - min(played) <= 4
    for seat in range(4):
        per_agent = [sum(1 for b in blocks for s in b if s[seat] == a) for a in range(6)]
        assert len(set(per_agent)) == 1


def test_labels_tell_duplicate_specs_apart() -> None:
    assert agent_labels(["random", "mcts", "random"]) == ["random#1", "mcts", "random#2"]


def test_derive_seed_is_stable() -> None:
    assert derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    assert 0 <= derive_seed(123) < 2**63


def test_plan_blocks_share_a_deal_and_rotate_seats() -> None:
    plan = plan_tournament("dice-race", ["mcts:iterations=5", "random"], 5, seed=7, setup=SETUP)
    seeds = [job.game_seed for job in plan.jobs]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3] != seeds[4]
    assert [job.seat_labels for job in plan.jobs[:2]] == [
        ("mcts:iterations=5", "random"),
        ("random", "mcts:iterations=5"),
    ]
    assert plan.options == {"players": 2, "target": 20, "hand_size": 2}


def test_plan_refuses_bad_input_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        plan_tournament("dice-race", ["random", "oracle"], 2)
    with pytest.raises(OptionError):
        plan_tournament("dice-race", ["random"], 2, options={"target": 1})
    with pytest.raises(UnknownGameError):
        plan_tournament("no-such-game", ["random"], 2)
    with pytest.raises(ValueError, match="at least 1"):
        plan_tournament("dice-race", ["random"], 0)
    with pytest.raises(ValueError, match="cannot import"):
        plan_tournament("dice-race", ["random"], 1, setup=["no_such_module:register"])


def test_records_hold_the_game_facts() -> None:
    plan = plan_tournament("dice-race", ["random", "random"], 1, seed=1, options={"players": 3})
    record = play_game(plan.jobs[0])
    assert set(record) == {
        "game", "rules_version", "content_hash", "options", "index", "seed", "seats",
        "result", "actions", "rounds", "duration_s", "decisions", "think_s", "error",
        "cooperative", "roles", "roles_played", "score_by_round", "first_seat", "final_stage",
    }  # fmt: skip
    # the fixture game keeps no score, no roles and no stages; it is competitive and seat 0 starts
    assert record["cooperative"] is False and record["roles"] is None and record["score_by_round"] is None
    assert record["roles_played"] is None
    assert record["first_seat"] == 0 and record["final_stage"] is None
    assert sum(record["decisions"]) == record["actions"] and len(record["think_s"]) == 3
    assert record["game"] == "dice-race" and record["rules_version"] == "1"
    assert record["seats"] == ["random#1", "random#2", "random#1"]
    assert record["result"]["winners"] and record["error"] is None
    assert record["rounds"] >= 1 and record["actions"] >= record["rounds"]


def test_action_limit_is_recorded_as_unfinished() -> None:
    plan = plan_tournament("dice-race", ["random", "random"], 1, max_actions=3)
    record = play_game(plan.jobs[0])
    assert record["result"] is None and record["actions"] == 3
    assert "action limit" in record["error"]


def test_same_seed_same_results_in_one_or_two_processes(tmp_path: Path) -> None:
    plan = plan_tournament(
        "dice-race", ["mcts:iterations=10", "random"], 12, seed=42, setup=SETUP, options={"players": 2}
    )
    seen: list[int] = []
    serial = run_tournament(plan, jobs=1, on_record=lambda r: seen.append(r["index"]))
    parallel = run_tournament(plan, jobs=2, chunk_size=2)
    assert sorted(seen) == list(range(12))
    assert [r["index"] for r in parallel] == list(range(12))
    assert without_durations(serial) == without_durations(parallel)
    other_seed = run_tournament(plan_tournament("dice-race", ["mcts:iterations=10", "random"], 12, seed=43))
    assert without_durations(other_seed) != without_durations(serial)
    out = tmp_path / "results.jsonl"
    write_records(serial, out)
    assert read_records(out) == serial


def test_read_records_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"seats": ["random"], "actions": 3}\nnot json\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: not a JSON line"):
        read_records(path)
    path.write_text('{"seats": ["random"], "actions": 3}\n{"a": 1}\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: not a game record: seats"):
        read_records(path)


def test_unknown_backend_and_bad_jobs() -> None:
    plan = plan_tournament("dice-race", ["random"], 1)
    with pytest.raises(ValueError, match="unknown backend"):
        run_tournament(plan, backend="cluster")
    with pytest.raises(ValueError, match="at least 1"):
        run_tournament(plan, jobs=0)


@pytest.mark.skipif(not ray_available(), reason="ray is not installed")
def test_ray_backend_gives_the_local_results(monkeypatch: pytest.MonkeyPatch) -> None:  # pragma: no cover
    """A local Ray instance started in this process (patient timeouts: a loaded machine once made it fail
    with 'RPC Deadline Exceeded'), shut down afterwards."""
    import ray

    for name, value in PATIENT_RAY_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    plan = plan_tournament("dice-race", ["random", "random"], 4, seed=3, setup=SETUP)
    try:
        on_ray = run_tournament(plan, backend="ray")
    finally:
        ray.shutdown()
    assert without_durations(on_ray) == without_durations(run_tournament(plan))


def test_teams_rotate_as_units() -> None:
    plan = plan_tournament(
        "dice-race", ["mcts:iterations=5", "random"], 4, options={"players": 4}, teams=[(0, 2), (1, 3)]
    )
    assert [job.seat_specs for job in plan.jobs[:2]] == [
        ("mcts:iterations=5", "random", "mcts:iterations=5", "random"),
        ("random", "mcts:iterations=5", "random", "mcts:iterations=5"),
    ]
    plan = plan_tournament("dice-race", ["random", "mcts"], 2, options={"players": 4}, teams=[(0, 1), (2, 3)])
    assert plan.jobs[0].seat_specs == ("random", "random", "mcts", "mcts")
    with pytest.raises(ValueError, match="must split the seats"):
        plan_tournament("dice-race", ["random"], 1, options={"players": 4}, teams=[(0, 1), (1, 2, 3)])


def test_games_without_a_turn_flow_report_their_own_rounds() -> None:
    # Defenders drives its turns itself (no flow events): the runner asks the game for its round count.
    plan = plan_tournament("defenders", ["random"], 1, seed=3, options={"players": 2}, max_actions=30)
    record = play_game(plan.jobs[0])
    assert isinstance(record["rounds"], int) and record["rounds"] >= 1
    state = load_game("defenders", seed=record["seed"], players=4)
    assert state.rounds_played() == 1  # the first round has begun
    state.turn_no = 9  # nine hero turns ended: two full rounds of four, the third begun
    assert state.rounds_played() == 3
    assert load_game("dice-race", seed=1).rounds_played() is None  # flow games count by their events


class _FlakyRay:
    """Stands in for the ``ray`` module: ``init`` times out ``failures`` times, as Ray does when its raylet
    misses the 30 s it is given to register on a loaded machine."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.inits = 0
        self.shutdowns = 0

    def init(self, **_: object) -> None:
        self.inits += 1
        if self.inits <= self.failures:
            raise Exception("The current node timed out during startup.")

    def shutdown(self) -> None:
        self.shutdowns += 1


def test_a_local_ray_start_that_times_out_is_tried_again() -> None:
    flaky = _FlakyRay(failures=2)
    start_local_ray(flaky, jobs=2)
    assert (flaky.inits, flaky.shutdowns) == (3, 2)


def test_a_local_ray_start_that_keeps_timing_out_is_one_clear_error() -> None:
    flaky = _FlakyRay(failures=5)
    expected = r"could not start a local Ray instance \(3 attempts\): The current node timed out"
    with pytest.raises(ValueError, match=expected):
        start_local_ray(flaky, jobs=2)
    assert flaky.inits == 3


class _RefusingRay(_FlakyRay):
    """A Ray Client head whose per-client server fails to start ``failures`` times."""

    def init(self, **_: object) -> None:
        self.inits += 1
        if self.inits <= self.failures:
            raise RuntimeError("Starting Ray client server failed.")


def test_joining_a_ray_cluster_is_tried_again_then_one_clear_error() -> None:
    refusing = _RefusingRay(failures=1)
    join_ray_cluster(refusing, "ray://127.0.0.1:1")
    assert (refusing.inits, refusing.shutdowns) == (2, 1)
    refusing = _RefusingRay(failures=9)
    with pytest.raises(ValueError, match=r"--address 'ray://127.0.0.1:1': cannot join a Ray cluster there"):
        join_ray_cluster(refusing, "ray://127.0.0.1:1")
    assert refusing.inits == 3
