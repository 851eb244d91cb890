"""``warhorn tournament --backend ray --address``: a real Ray cluster (head on loopback, one worker CPU,
started here and stopped afterwards) plays a tournament joined by address, with the local pool's records."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from warhorn.sim import plan_tournament, read_records, run_tournament
from warhorn.sim.local_cluster import LocalRayCluster
from warhorn.sim.runner import ray_available

ROOT = Path(__file__).resolve().parents[2]


def without_durations(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in {"duration_s", "think_s"}} for r in records]


@pytest.mark.skipif(not ray_available(), reason="ray is not installed")
def test_a_tournament_on_a_ray_cluster_joined_by_address(tmp_path: Path) -> None:
    """By the head's address and through Ray Client (ray://), each in its own driver process."""
    args = ["defenders", "--agents", "heuristic,random", "--games", "8", "--seed", "6", "-o", "players=2"]
    warhorn = str(Path(sys.executable).parent / "warhorn")
    outputs = []
    # A head that starts at all starts in 15-50 s here even under load; once in a while an attempt hangs
    # instead, and 120 s per attempt (not the default 300) bounds what that costs the suite before a retry.
    with LocalRayCluster(cpus=1, start_timeout_s=120) as cluster:
        # by the head's address; through Ray Client with three games per Ray task (how a driver reaches
        # the cluster and how games are grouped into tasks are independent: one run covers both)
        for address, extra in (
            (cluster.address, []),
            (cluster.client_address, ["--chunk", "3"]),
        ):
            out = tmp_path / f"cluster{len(outputs)}.jsonl"
            finished = subprocess.run(
                [
                    warhorn,
                    "tournament",
                    *args,
                    *extra,
                    "--out",
                    str(out),
                    "--backend",
                    "ray",
                    "--address",
                    address,
                ],
                env=cluster.driver_env(),
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=900,
                check=False,
            )
            assert finished.returncode == 0, f"{address}: {finished.stdout}{finished.stderr}"
            outputs.append(out)
    plan = plan_tournament("defenders", ["heuristic", "random"], 8, seed=6, options={"players": 2})
    local = without_durations(run_tournament(plan, jobs=2))
    for out in outputs:
        assert without_durations(read_records(out)) == local


def test_an_address_needs_the_ray_backend() -> None:
    plan = plan_tournament("defenders", ["random"], 1, options={"players": 2})
    with pytest.raises(ValueError, match="use it with --backend ray"):
        run_tournament(plan, address="auto")
