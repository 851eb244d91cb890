"""Benchmark of the exact Nerath battle-odds calculator (issue 4).

Run from the repository root:  python benchmarks/bench_odds.py  [--repeat N] [--mc-runs N]

Prints the median time of repeated exact computations of a 10-vs-10 and a 40-vs-40 mixed land
battle (cold: every memo table cleared before each run; warm: tables kept), the time of 10,000
Monte Carlo battles through the game's own battle code (fight_battle) on the 10-vs-10 battle,
measured in the same process, and the ratio. BLAS threads are limited to one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warhorn.engine.rng import Rng  # noqa: E402
from warhorn.games.nerath.battle import BattleOutcome, BattleSide, fight_battle  # noqa: E402
from warhorn.games.nerath.odds import battle_odds, clear_caches  # noqa: E402

A10 = "4 soldier, 2 siege, 2 warrior, 1 mage, 1 dragon"
D10 = "5 soldier, 2 monster, 1 mage, 1 castle, 1 siege"
A40 = "14 soldier, 6 siege, 6 warrior, 4 mage, 6 monster, 2 elemental, 2 dragon"
D40 = "16 soldier, 4 siege, 4 warrior, 4 mage, 8 monster, 1 castle, 2 elemental, 1 dragon"


def median_ms(attacker: str, defender: str, repeat: int, *, cold: bool) -> float:
    times = []
    for _ in range(repeat):
        if cold:
            clear_caches()
        start = time.perf_counter()
        battle_odds(attacker, defender)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def monte_carlo_ms(runs: int, repeat: int) -> tuple[float, float]:
    a, d = BattleSide.of(A10), BattleSide.of(D10)
    times = []
    wins = 0
    for r in range(repeat):
        rng = Rng(1000 + r)
        counts: Counter[BattleOutcome] = Counter()
        start = time.perf_counter()
        for _ in range(runs):
            counts[fight_battle(a, d, rng).outcome] += 1
        times.append(time.perf_counter() - start)
        wins = counts[BattleOutcome.ATTACKER_WINS]
    return statistics.median(times) * 1000, wins / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="exact runs per battle (median)")
    parser.add_argument("--mc-runs", type=int, default=10_000, help="Monte Carlo battles per repetition")
    parser.add_argument("--mc-repeat", type=int, default=3, help="Monte Carlo repetitions (median)")
    args = parser.parse_args()

    battle_odds(A10, D10)  # import-time warm-up of numpy
    exact10 = battle_odds(A10, D10)
    cold10 = median_ms(A10, D10, args.repeat, cold=True)
    warm10 = median_ms(A10, D10, args.repeat, cold=False)
    exact40 = battle_odds(A40, D40)
    cold40 = median_ms(A40, D40, args.repeat, cold=True)
    warm40 = median_ms(A40, D40, args.repeat, cold=False)
    mc, mc_win = monte_carlo_ms(args.mc_runs, args.mc_repeat)

    print(f"python {sys.version.split()[0]}, median of {args.repeat} runs")
    print(
        f"10v10 exact: {cold10:8.2f} ms cold, {warm10:8.2f} ms warm   attacker_win={exact10.attacker_win:.6f}"
    )
    print(
        f"40v40 exact: {cold40:8.2f} ms cold, {warm40:8.2f} ms warm   attacker_win={exact40.attacker_win:.6f}"
    )
    print(f"10v10 Monte Carlo, {args.mc_runs} runs of fight_battle: {mc:8.1f} ms   attacker_win~{mc_win:.4f}")
    print(f"speed-up exact (cold) vs Monte Carlo: {mc / cold10:.0f}x   (warm: {mc / warm10:.0f}x)")
    print(
        "targets: 10v10 <= 5 ms: "
        + ("met" if cold10 <= 5 else "MISSED")
        + "; 40v40 <= 100 ms: "
        + ("met" if cold40 <= 100 else "MISSED")
        + "; >= 100x Monte Carlo: "
        + ("met" if mc / cold10 >= 100 else "MISSED")
    )


if __name__ == "__main__":
    main()
