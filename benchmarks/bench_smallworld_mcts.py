"""Small World of Warcraft: MCTS against the heuristic, win rate and CPU time per decision.

Run from the repository root (a long run: in the background, niced, on a shared machine):

    export PYTHONPATH=src
    nice -n 10 python benchmarks/bench_smallworld_mcts.py --games 50 --jobs 2 \
        --agent mcts:iterations=150 --out smallworld-mcts.jsonl
    python benchmarks/bench_smallworld_mcts.py --report smallworld-mcts.jsonl

plays GAMES two-player games on the islands (seeds FIRST.., MCTS in seat 0 in even games and seat
1 in odd ones) and writes one JSON line per game as it finishes: the winners, the coins, and the
process CPU time of every MCTS decision that ran a search (a single legal action, or a root the
prior decides alone, is not a search). The report prints the MCTS win rate with its 95 % Wilson
interval (a shared first place counts as a win) and the CPU seconds per searched decision
(median, mean, 95th percentile, maximum): CPU time does not depend on what else the machine
runs, unlike the wall clock.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from duel import append_records, duel_against_heuristic, print_searched_cpu

from warhorn.sim import wilson_interval


def play_one(args: tuple[int, int, str]) -> dict[str, Any]:
    """One game of ``agent`` against the heuristic; MCTS sits in seat ``game % 2``."""
    game, seed, agent = args
    duel = duel_against_heuristic("smallworld", agent, game, seed)
    return {
        "game": game,
        "seed": seed,
        "mcts_seat": duel.agent_seat,
        "agent": agent,
        "winners": sorted(duel.results.winners),
        "coins": [duel.results.scores[p] for p in range(2)],
        "mcts_decisions": duel.decisions,
        "searched_cpu": duel.searched_cpu,
    }


def play(games: int, first: int, agent: str, jobs: int, out: Path) -> None:
    append_records(play_one, [(g, first + g, agent) for g in range(games)], jobs, out)


def report(path: Path) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not records:
        print("no games recorded")
        return
    n = len(records)
    wins = sum(1 for r in records if r["mcts_seat"] in r["winners"])
    interval = wilson_interval(wins, n)
    agents = sorted({r["agent"] for r in records})
    print(f"{', '.join(agents)} vs heuristic: {n} two-player games, seats alternated")
    print(f"MCTS wins {wins} / {n} = {wins / n:.1%} (95 % Wilson {interval.low:.1%}-{interval.high:.1%})")
    print_searched_cpu(records)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--agent", default="mcts:iterations=150")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("smallworld-mcts.jsonl"))
    parser.add_argument("--report", type=Path, help="only report on a file written before")
    args = parser.parse_args()
    if args.report is not None:
        report(args.report)
        return
    play(args.games, args.first_seed, args.agent, args.jobs, args.out)
    report(args.out)


if __name__ == "__main__":
    main()
