"""Quest for the DragonLords: MCTS against the heuristic, win rate and CPU time per decision.

Run from the repository root (a long run: in the background, niced, on a shared machine):

    export PYTHONPATH=src
    nice -n 10 python benchmarks/bench_dragonlords_mcts.py --games 40 --jobs 2 --max-rounds 10 \
        --agent mcts:iterations=10 --out dragonlords-mcts.jsonl
    python benchmarks/bench_dragonlords_mcts.py --report dragonlords-mcts.jsonl

plays GAMES two-player games (seeds FIRST.., MCTS in seat 0 in even games and seat 1 in odd ones;
the ``max_rounds`` option MAX_ROUNDS, the game ranked by realms, territories and units at the cap)
and writes one JSON line per game as it finishes: the winners, the realms held, the ending, and the
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


def play_one(args: tuple[int, int, str, int]) -> dict[str, Any]:
    """One game of ``agent`` against the heuristic; MCTS sits in seat ``game % 2``."""
    game, seed, agent, max_rounds = args
    duel = duel_against_heuristic("dragonlords", agent, game, seed, max_rounds=max_rounds)
    return {
        "game": game,
        "seed": seed,
        "mcts_seat": duel.agent_seat,
        "agent": agent,
        "max_rounds": max_rounds,
        "winners": sorted(duel.results.winners),
        "realms": [duel.results.scores[p] for p in range(2)],
        "reason": duel.results.reason,
        "mcts_decisions": duel.decisions,
        "searched_cpu": duel.searched_cpu,
    }


def play(games: int, first: int, agent: str, jobs: int, out: Path, max_rounds: int) -> None:
    append_records(play_one, [(g, first + g, agent, max_rounds) for g in range(games)], jobs, out)


def report(path: Path) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not records:
        print("no games recorded")
        return
    n = len(records)
    wins = sum(1 for r in records if r["mcts_seat"] in r["winners"])
    interval = wilson_interval(wins, n)
    agents = sorted({r["agent"] for r in records})
    caps = ", ".join(str(c) for c in sorted({r["max_rounds"] for r in records}))
    print(f"{', '.join(agents)} vs heuristic: {n} two-player games, seats alternated, max_rounds {caps}")
    capped = sum(1 for r in records if "without a winner" in r["reason"])
    print(f"won outright: {n - capped}; ranked at the round cap (DLR-TRN-03): {capped}")
    print(f"MCTS wins {wins} / {n} = {wins / n:.1%} (95 % Wilson {interval.low:.1%}-{interval.high:.1%})")
    print_searched_cpu(records)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--agent", default="mcts:iterations=10")
    parser.add_argument("--max-rounds", type=int, default=10, help="the max_rounds option")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("dragonlords-mcts.jsonl"))
    parser.add_argument("--report", type=Path, help="only report on a file written before")
    args = parser.parse_args()
    if args.report is not None:
        report(args.report)
        return
    play(args.games, args.first_seed, args.agent, args.jobs, args.out, args.max_rounds)
    report(args.out)


if __name__ == "__main__":
    main()
