"""Defenders of the Realm: full games between uniformly random agents.

Run:  PYTHONPATH=src python benchmarks/bench_defenders.py [--games N] [--players P]

Prints the median wall time of a whole game (setup included), steps (actions)
per second, the median number of turns, and how the games ended. Random heroes
nearly always lose, usually within a few rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.defenders import game as _game  # noqa: F401  (registers the game)


def play_one(seed: int, players: int) -> tuple[float, int, int, str]:
    start = time.perf_counter()
    state = load_game("defenders", seed=seed, players=players)
    chooser = Rng(seed ^ 0xBEEF)
    steps = 0
    while state.pending() is not None:
        legal = state.legal_actions()
        state, _ = state.apply(legal[chooser.below(len(legal))])
        steps += 1
    return time.perf_counter() - start, steps, state.turn_no, str(state.outcome)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    load_game("defenders", seed=0, players=args.players)  # load the content once
    times, steps, turns, ends = [], [], [], Counter()
    for seed in range(args.games):
        t, n, turn_no, outcome = play_one(seed, args.players)
        times.append(t)
        steps.append(n)
        turns.append(turn_no)
        ends[outcome] += 1
    print(f"games: {args.games}, players: {args.players}")
    print(f"median game: {statistics.median(times) * 1000:.2f} ms, {statistics.median(steps)} actions")
    print(f"steps per second: {sum(steps) / sum(times):,.0f}")
    print(f"median turns: {statistics.median(turns)}, longest: {max(turns)}")
    for outcome, count in ends.most_common():
        print(f"  {count:4d}  {outcome}")


if __name__ == "__main__":
    main()
