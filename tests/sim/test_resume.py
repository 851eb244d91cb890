"""Streaming records, resumable runs (also a real ``warhorn tournament`` killed midway) and Parquet output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from warhorn.sim import plan_tournament, read_records, run_tournament, write_records
from warhorn.sim.runner import RecordStream, parquet_rows, resume_records, write_parquet

SETUP = ("fixture_game:register",)
ROOT = Path(__file__).resolve().parents[2]


def without_durations(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in {"duration_s", "think_s"}} for r in records]


def test_a_resumed_run_plays_only_the_missing_games_and_ends_as_a_whole_run(tmp_path: Path) -> None:
    plan = plan_tournament("dice-race", ["mcts:iterations=5", "random"], 10, seed=11, setup=SETUP)
    whole = run_tournament(plan)
    out = tmp_path / "run.jsonl"
    # a stopped run: games 0-3 and 6 were written (finishing order), then a line cut short by the kill
    kept = [whole[i] for i in (0, 1, 3, 2, 6)]
    out.write_text("".join(json.dumps(r) + "\n" for r in kept) + '{"game": "dice-ra', encoding="utf-8")
    done = resume_records(out, plan)
    assert [r["index"] for r in done] == [0, 1, 2, 3, 6]
    played: list[int] = []
    with RecordStream(out, done) as stream:
        records = run_tournament(
            plan, done=done, on_record=lambda r: (played.append(r["index"]), stream.write(r))
        )
        stream.close(records)
    assert sorted(played) == [4, 5, 7, 8, 9]  # no game played twice
    assert without_durations(records) == without_durations(whole)
    assert without_durations(read_records(out)) == without_durations(whole)  # rewritten in index order


def test_resume_refuses_another_runs_records(tmp_path: Path) -> None:
    plan = plan_tournament("dice-race", ["random", "random"], 4, seed=1, setup=SETUP)
    other = run_tournament(plan_tournament("dice-race", ["random", "random"], 4, seed=2, setup=SETUP))
    out = tmp_path / "run.jsonl"
    write_records(other[:2], out)
    with pytest.raises(ValueError, match="another game, seed, options, content or agents"):
        resume_records(out, plan)
    longer = run_tournament(plan_tournament("dice-race", ["random", "random"], 6, seed=1, setup=SETUP))
    write_records(longer[4:], out)
    with pytest.raises(ValueError, match="not one of this run's 4 games"):
        resume_records(out, plan)
    out.write_text("not json\n{}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"run\.jsonl:1: not a JSON line"):
        resume_records(out, plan)
    assert resume_records(tmp_path / "missing.jsonl", plan) == []


def test_parquet_table_has_a_row_per_game(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    records = run_tournament(plan_tournament("dice-race", ["random", "random"], 5, seed=3, setup=SETUP))
    path = tmp_path / "run.parquet"
    write_parquet(records, path)
    table = pq.read_table(path)
    assert table.num_rows == 5
    assert table.column("index").to_pylist() == [0, 1, 2, 3, 4]
    assert table.column("winners").to_pylist() == [row["winners"] for row in parquet_rows(records)]
    assert table.column("seats").to_pylist()[0] == records[0]["seats"]
    assert json.loads(table.column("options_json").to_pylist()[0]) == records[0]["options"]


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen[bytes], deadline_s: float) -> int:
    """Poll the record file until it holds ``count`` complete lines (the run's own progress, not a guess)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if path.exists():
            lines = path.read_text(encoding="utf-8").count("\n")
            if lines >= count:
                return lines
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"the run wrote fewer than {count} records (exit {process.poll()})")


def test_a_killed_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    """A real ``warhorn tournament`` process is killed (SIGKILL) after a few games; ``--resume`` plays only
    the rest, and the records equal those of an uninterrupted run."""
    games = 400
    args = ["defenders", "--agents", "random", "--games", str(games), "--seed", "4", "-o", "players=2"]
    out = tmp_path / "run.jsonl"
    env = {**os.environ, "COLUMNS": "120"}
    command = [str(Path(sys.executable).parent / "warhorn"), "tournament", *args, "--out", str(out)]
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_lines(out, 40, process, deadline_s=300)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    kept = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.endswith("}")]
    assert 40 <= len(kept) < games, "the run was not stopped midway"
    resumed = subprocess.run(
        [*command, "--resume"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept)} of {games} games already played" in resumed.stdout
    records = read_records(out)
    assert [r["index"] for r in records] == list(range(games))  # none lost, none twice
    for old in kept:  # the games played before the kill are kept as they were
        assert records[old["index"]] == old
    plan = plan_tournament("defenders", ["random"], games, seed=4, options={"players": 2})
    assert without_durations(records) == without_durations(run_tournament(plan, jobs=2))
