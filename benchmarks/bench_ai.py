"""Search speed, search strength and tournament throughput on the fixture game (dice race).

Run:  PYTHONPATH=src python benchmarks/bench_ai.py [--games N] [--iterations N]

1. MCTS iterations per second (2 and 4 players), against the baseline of
   plain random playouts per second (copy + random play to the end), which
   bounds what any rollout-based search could reach;
2. MCTS against random over seeded games with seats swapped: win rate with
   its 95 % Wilson interval (default rules, and with 4-card hands, where
   choosing cards matters more);
3. tournament throughput in games per second with --jobs 1 and --jobs 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fixture_game import register
from warhorn.ai import Budget, MCTSAgent
from warhorn.engine import GameState, Rng, load_game
from warhorn.sim import plan_tournament, run_tournament, wilson_interval

register()
SETUP = ("fixture_game:register",)


def playouts_per_second(players: int, count: int) -> float:
    start = load_game("dice-race", seed=1, players=players)
    rng = Rng(2)
    began = time.perf_counter()
    for _ in range(count):
        state: GameState = start.determinize(0, rng)
        while state.pending() is not None:
            legal = state.legal_actions()
            state._apply_in_place(legal[rng.below(len(legal))])
    return count / (time.perf_counter() - began)


def mcts_iterations_per_second(players: int, iterations: int, repeats: int = 3) -> float:
    rates = []
    for seed in range(repeats):
        state = load_game("dice-race", seed=seed, players=players)
        agent = MCTSAgent(Budget(iterations=iterations))
        began = time.perf_counter()
        agent.choose(state, 0, Rng(seed))
        rates.append(iterations / (time.perf_counter() - began))
    return statistics.median(rates)


def mcts_vs_random(games: int, iterations: int, hand_size: int, jobs: int) -> tuple[int, int]:
    plan = plan_tournament(
        "dice-race",
        [f"mcts:iterations={iterations}", "random"],
        games,
        seed=1,
        options={"hand_size": hand_size},
        setup=SETUP,
    )
    records = run_tournament(plan, jobs=jobs)
    wins = sum(1 for r in records if r["seats"][r["result"]["winners"][0]].startswith("mcts"))
    return wins, len(records)


def throughput(games: int, jobs: int) -> float:
    plan = plan_tournament("dice-race", ["mcts:iterations=50", "random"], games, seed=3, setup=SETUP)
    began = time.perf_counter()
    run_tournament(plan, jobs=jobs)
    return games / (time.perf_counter() - began)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per strength measurement")
    parser.add_argument("--iterations", type=int, default=100, help="MCTS iterations per decision")
    parser.add_argument("--throughput-games", type=int, default=200)
    parser.add_argument(
        "--parts", default="speed,strength,throughput", help="comma list of speed, strength, throughput"
    )
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    print(f"python {sys.version.split()[0]}")
    if "speed" in parts:
        speed()
    if "strength" in parts:
        strength(args.games, args.iterations)
    if "throughput" in parts:
        tournament_throughput(args.throughput_games)


def speed() -> None:

    for players in (2, 4):
        playouts = playouts_per_second(players, 2000)
        its = mcts_iterations_per_second(players, 2000)
        print(
            f"{players} players: MCTS {its:7.0f} iterations/s   "
            f"baseline random playouts {playouts:7.0f}/s ({its / playouts:.0%} of it)"
        )


def strength(games_wanted: int, iterations: int) -> None:
    for hand_size in (2, 4):
        wins, games = mcts_vs_random(games_wanted, iterations, hand_size, jobs=2)
        interval = wilson_interval(wins, games)
        print(
            f"mcts:iterations={iterations} vs random, hand_size={hand_size}: "
            f"{wins}/{games} = {wins / games:.1%} (95 % Wilson {interval.low:.1%}–{interval.high:.1%})"
        )


def tournament_throughput(games: int) -> None:
    one = throughput(games, 1)
    two = throughput(games, 2)
    print(
        f"tournament mcts:iterations=50 vs random, {games} games: "
        f"{one:.1f} games/s with --jobs 1, {two:.1f} games/s with --jobs 2 ({two / one:.2f}x)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
