"""MCTS on Nerath: decision time, and how often the search departs from its heuristic prior.

Run from the repository root:

    PYTHONPATH=src python benchmarks/bench_nerath_mcts.py --games 2 --agent mcts:iterations=100

plays GAMES alliance-mode games (2 players, each two allied kingdoms) of the
MCTS agent against the heuristic, MCTS taking seat 0 in even games and seat
1 in odd ones (seeds 0..GAMES-1), and times every MCTS decision. Prints the
median, 95th percentile and maximum per decision, over all decisions and
over those that needed a search (more than one legal action; a single legal
action is taken at once, and so is the prior's favourite where the budget
could not overturn it: "skipped"), the median per decision kind, how many
searched decisions chose another action than the prior's favourite (the
heuristic's choice), with examples, and per game the MCTS side's decisions
(searched, skipped, single action), its CPU time and a digest of the game's
actions (two runs with the same digests played the same games). Times are
wall clock (what a player waits) and, as a figure that does not depend on
what else the machine runs, the process's CPU time per searched decision.

Strength is measured with `warhorn tournament` (see docs/ai-results.md):

    PYTHONPATH=src nice -n 10 warhorn tournament nerath --agents mcts:iterations=100,heuristic \\
        --games 20 --jobs 2 --seed 2027 -o mode=alliance -o players=2 --out mcts_prior_2027.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import statistics
import time
from collections import defaultdict

from warhorn.ai import MCTSAgent, make_agent
from warhorn.engine import Rng, load_game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, seconds: list[float]) -> str:
    ms = [1000 * t for t in seconds]
    return (
        f"{label:<28} {len(ms):>6}  median {statistics.median(ms):8.1f} ms  "
        f"p95 {percentile(ms, 0.95):8.1f} ms  max {max(ms):8.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--agent", default="mcts:iterations=100")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()

    every: list[float] = []
    searched: list[float] = []
    searched_cpu: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    departures: list[str] = []
    wins = 0
    skipped_total = 0
    single_total = 0
    cpu_per_game: list[float] = []
    width: dict[str, list[int]] = defaultdict(list)
    for g in range(args.games):
        seed = args.first_seed + g
        me = g % 2
        state = load_game("nerath", seed=seed, mode="alliance", players=2)
        agents = [make_agent(args.agent), make_agent("heuristic")]
        if me == 1:
            agents.reverse()
        rngs = [Rng(2 * seed + 1), Rng(2 * seed + 2)]
        digest = hashlib.sha256()
        game_cpu = 0.0
        counts = {"searched": 0, "skipped": 0, "single": 0}
        while (decision := state.pending()) is not None:
            player = decision.player
            started = time.perf_counter()
            cpu = time.process_time()
            action = agents[player].choose(state, player, rngs[player])
            took = time.perf_counter() - started
            cpu = time.process_time() - cpu
            digest.update(action.notation().encode() + b"\n")
            if player == me:
                every.append(took)
                game_cpu += cpu
                search = getattr(agents[me], "last", None)
                if isinstance(agents[me], MCTSAgent) and search is not None:
                    kind = "skipped" if search.skipped else "single" if search.iterations == 0 else "searched"
                    counts[kind] += 1
                    width[kind].append(len(search.actions))
                if isinstance(agents[me], MCTSAgent) and search is not None and search.iterations > 0:
                    searched.append(took)
                    searched_cpu.append(cpu)
                    by_kind[decision.kind].append(took)
                    favourite = max(search.actions, key=lambda a: -1.0 if math.isnan(a.prior) else a.prior)
                    if not math.isnan(favourite.prior) and favourite.action != action:
                        stats = ", ".join(
                            f"{a.action.notation()} {a.visits}v {a.mean:.2f}" for a in search.actions[:3]
                        )
                        departures.append(
                            f"{decision.kind}: {action.notation()} instead of "
                            f"{favourite.action.notation()} ({stats})"
                        )
            state, _ = state.apply(action)
        results = state.results()
        won = results is not None and me in results.winners
        wins += won
        skipped_total += counts["skipped"]
        single_total += counts["single"]
        cpu_per_game.append(game_cpu)
        print(
            f"game {g} seed {seed}: MCTS seat {me} {'won' if won else 'lost'} {results}; MCTS decisions: "
            f"{counts['searched']} searched, {counts['skipped']} skipped, {counts['single']} single; "
            f"MCTS CPU {game_cpu:.1f} s; actions digest {digest.hexdigest()[:16]}"
        )

    print(f"\n{args.agent} vs heuristic, {args.games} alliance games; load average {os.getloadavg()}")
    print(line("every MCTS decision", every))
    if searched:
        print(line("searched decisions", searched))
        print(line("searched, CPU time", searched_cpu))
        for kind, times in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
            print(line(f"  {kind}", times))
    print(
        f"MCTS decisions: {len(searched)} searched, {skipped_total} skipped (prior decides), "
        f"{single_total} single action; MCTS CPU per game: mean {statistics.mean(cpu_per_game):.1f} s"
    )
    for kind, sizes in width.items():
        if kind != "single":
            print(
                f"legal actions in {kind} decisions: median {statistics.median(sizes):g}, "
                f"min {min(sizes)}, max {max(sizes)}"
            )
    print(f"MCTS won {wins} of {args.games}")
    print(f"searched decisions departing from the prior's favourite: {len(departures)} of {len(searched)}")
    for text in departures[:12]:
        print("  " + text)


if __name__ == "__main__":
    main()
