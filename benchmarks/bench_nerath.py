"""Random-agent games of Conquest of Nerath on the shipped board.

Run:  PYTHONPATH=src python benchmarks/bench_nerath.py [--games N] [--round-cap R] [--card-windows W,…]

Plays N free-for-all medium games (4 kingdoms, uniformly random legal actions,
round cap R, default 30) for each ``card_windows`` setting (default both:
``every_holder``, the rules' default that hides hands, and ``playable_only`` as
the baseline in the same process) and prints the median seconds per game,
actions per game and steps per second (a step = legal_actions() + apply()).
"""

from __future__ import annotations

import argparse
import statistics
import time

import warhorn.games.nerath  # noqa: F401  (registers the game)
from warhorn.engine import Rng, load_game


def play_one(seed: int, round_cap: int, card_windows: str) -> tuple[float, int, str]:
    state = load_game("nerath", seed=seed, round_cap=round_cap, card_windows=card_windows)
    chooser = Rng(seed + 1)
    steps = 0
    start = time.perf_counter()
    while state.pending() is not None:
        legal = state.legal_actions()
        state, _ = state.apply(legal[chooser.below(len(legal))])
        steps += 1
    elapsed = time.perf_counter() - start
    results = state.results()
    return elapsed, steps, results.reason if results else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--round-cap", type=int, default=30)
    parser.add_argument("--card-windows", default="every_holder,playable_only")
    args = parser.parse_args()
    for card_windows in args.card_windows.split(","):
        times, counts = [], []
        for seed in range(args.games):
            elapsed, steps, reason = play_one(seed, args.round_cap, card_windows)
            times.append(elapsed)
            counts.append(steps)
            print(f"[{card_windows}] game {seed}: {elapsed:.2f} s, {steps} actions ({reason})")
        print(
            f"[{card_windows}] median {statistics.median(times):.2f} s per game, "
            f"median {statistics.median(counts):.0f} actions, {sum(counts) / sum(times):.0f} steps per second"
        )


if __name__ == "__main__":
    main()
