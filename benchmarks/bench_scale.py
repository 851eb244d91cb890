"""Games per second with the local process pool and with a real Ray cluster, in the same run.

    python benchmarks/bench_scale.py --game defenders --agents heuristic -o players=2 --games 200 --jobs 2

Plays the same seeded tournament four times: serially in this process (the anchor: the per-game cost
without any scheduling), with the local process pool (``--jobs`` workers), and twice on a Ray cluster
started on loopback with ``--jobs`` CPUs (:class:`warhorn.sim.local_cluster.LocalRayCluster`) and joined
by address, as ``warhorn tournament --backend ray --address`` does: one game per Ray task, then
``--chunk`` games per task. For each: wall time, games/s, the
play time summed over games, the scheduling overhead per game (``(wall × workers − Σ play) / games``)
and the result volume (bytes of JSON per game record). The runs must give the same records.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from warhorn.sim import plan_tournament, run_tournament
from warhorn.sim.local_cluster import PATIENT_RAY_ENV, LocalRayCluster
from warhorn.sim.runner import GameRecord


def stripped(records: list[GameRecord]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in {"duration_s", "think_s"}} for r in records]


def line(name: str, records: list[GameRecord], wall: float, workers: int) -> None:
    games = len(records)
    play = sum(float(r["duration_s"]) for r in records)
    overhead = (wall * workers - play) / games
    volume = sum(len(json.dumps(r, sort_keys=True)) + 1 for r in records) / games
    print(
        f"{name:<22} {games} games in {wall:7.2f} s wall: {games / wall:6.2f} games/s; "
        f"play {play / games * 1000:7.1f} ms/game; overhead {overhead * 1000:7.1f} ms/game "
        f"({workers} worker(s)); {volume:,.0f} B/record",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="defenders")
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("-o", "--option", action="append", default=[], help="game option name=value")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=16, help="games per Ray task in the second Ray run")
    parser.add_argument(
        "--serial-games", type=int, default=None, help="games of the serial anchor (default all)"
    )
    args = parser.parse_args()
    options = dict(pair.split("=", 1) for pair in args.option)
    plan = plan_tournament(args.game, args.agents.split(","), args.games, seed=args.seed, options=options)
    print(
        f"{args.game} {options} agents {args.agents}: {args.games} games, seed {args.seed}, "
        f"{os.cpu_count()} CPUs"
    )

    serial_plan = plan
    if args.serial_games is not None:
        serial_plan = plan_tournament(
            args.game, args.agents.split(","), args.serial_games, seed=args.seed, options=options
        )
    started = time.perf_counter()
    serial = run_tournament(serial_plan, jobs=1)
    line("serial (anchor)", serial, time.perf_counter() - started, 1)

    started = time.perf_counter()
    local = run_tournament(plan, jobs=args.jobs)
    line(f"local pool, {args.jobs} jobs", local, time.perf_counter() - started, args.jobs)

    os.environ.update(PATIENT_RAY_ENV)
    import ray

    started_cluster = time.perf_counter()
    with LocalRayCluster(cpus=args.jobs) as cluster:
        print(
            f"Ray head on {cluster.address} up in {time.perf_counter() - started_cluster:.1f} s", flush=True
        )
        started = time.perf_counter()
        ray.init(address=cluster.address, log_to_driver=False)
        joined = time.perf_counter() - started
        try:
            on_ray = run_tournament(plan, backend="ray", jobs=args.jobs)
            wall = time.perf_counter() - started
            started = time.perf_counter()
            chunked = run_tournament(plan, backend="ray", jobs=args.jobs, chunk_size=args.chunk)
            wall_chunked = time.perf_counter() - started
        finally:
            ray.shutdown()
    print(f"(joining the cluster took {joined:.1f} s, counted in the first Ray run's wall time)")
    line(f"Ray, {args.jobs} CPUs, 1 game/task", on_ray, wall, args.jobs)
    line(f"Ray, {args.jobs} CPUs, {args.chunk} games/task", chunked, wall_chunked, args.jobs)
    same = (
        stripped(on_ray) == stripped(local) == stripped(chunked)
        and stripped(serial) == stripped(local)[: len(serial)]
    )
    print("records identical in every run:", same)


if __name__ == "__main__":
    main()
