"""Benchmark of the exact Nerath battle-odds calculator (issues 4 and 15).

Run from the repository root:  python benchmarks/bench_odds.py  [--repeat N] [--mc-runs N]
                               [--aacalc2 DIR] [--sizes 10,20,...] [--anchor-only]

Prints the median time of repeated exact computations of a 10-vs-10 and a 40-vs-40 mixed land
battle (cold: every memo table cleared before each run; warm: tables kept), the time of 10,000
Monte Carlo battles through the game's own battle code (fight_battle) on the 10-vs-10 battle,
measured in the same process, and the ratio. BLAS threads are limited to one core.

Then, side by side in the same run, the anchor: the exact A&A calculator aacalc2 (a built copy in
``../shared/anchors/aacalc2``, run with Node.js) on the dice-matched chain - A&A infantry
attacking bombers (each hits on a 1 of a d6) is the Markov chain of Nerath soldiers against
soldiers (each hits on a 6). Per size: aacalc2's best and median of ``--repeat`` calls after its
first (JIT) call, warhorn's best and median cold (every memo table cleared before each call) and
warm, the ratios warhorn / aacalc2 (below 1 = warhorn faster) and the largest difference of the
win probabilities. Without the anchor (or without ``node``) the table says so and shows
warhorn's times only.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warhorn.engine.rng import Rng  # noqa: E402
from warhorn.games.nerath.battle_model import BattleOutcome, BattleSide, fight_battle  # noqa: E402
from warhorn.games.nerath.odds import BattleOdds, battle_odds, clear_caches  # noqa: E402

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


ROOT = Path(__file__).resolve().parent.parent
#: Sizes of the anchor table (attacker v defender); 55v49 is the size the issue names.
ANCHOR_SIZES = "10v10,15v15,20v20,25v25,30v30,40v40,55v49,55v55,70v70,85v85,100v100"


def find_aacalc2(given: str | None) -> Path | None:
    """The built aacalc2 (a directory holding bench.mjs): --aacalc2, $WARHORN_AACALC2, or the
    shared anchors next to the repository (or next to the worktree folder)."""
    candidates = [given, os.environ.get("WARHORN_AACALC2")]
    candidates += [
        str(ROOT.parent / "shared/anchors/aacalc2"),
        str(ROOT.parent.parent / "shared/anchors/aacalc2"),
    ]
    for c in candidates:
        if c and (Path(c) / "bench.mjs").is_file():
            return Path(c)
    return None


def aacalc2_run(where: Path, attackers: int, defenders: int, repeat: int) -> dict[str, float]:
    """One aacalc2 process: ``repeat`` exact calls of infantry v bombers (timings in ms, results)."""
    out = subprocess.run(
        ["node", "bench.mjs", str(repeat + 1), f"att=inf:{attackers}", f"def=bom:{defenders}"],
        cwd=where,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    data: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def warhorn_times(attackers: int, defenders: int, repeat: int) -> tuple[list[float], list[float], BattleOdds]:
    """Cold and warm times (ms) of ``repeat`` exact soldier-v-soldier computations, and the odds."""
    a, d = f"{attackers} soldier", f"{defenders} soldier"
    cold, warm = [], []
    result = battle_odds(a, d)
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        result = battle_odds(a, d)
        cold.append((time.perf_counter() - start) * 1000)
    for _ in range(repeat):
        start = time.perf_counter()
        battle_odds(a, d)
        warm.append((time.perf_counter() - start) * 1000)
    return cold, warm, result


def anchor_table(sizes: str, repeat: int, where: Path | None) -> None:
    node = shutil.which("node")
    if where is None or node is None:
        why = "no node on PATH" if node is None else "aacalc2 not found (--aacalc2 DIR or $WARHORN_AACALC2)"
        print(f"\nanchor: {why}; warhorn's times only")
    else:
        print(f"\nanchor: aacalc2 in {where} ({node}); A&A infantry v bombers = Nerath soldiers v soldiers")
    print(f"best / median of {repeat} calls, ms; ratio = warhorn / aacalc2 (<= 1: warhorn no slower)")
    head = (
        f"{'size':>8} {'aacalc2':>15} {'warhorn cold':>15} {'warhorn warm':>15}"
        f" {'cold ratio':>11} {'warm ratio':>11} {'max diff':>9}"
    )
    print(head)
    for item in sizes.split(","):
        att, dfn = (int(x) for x in item.lower().split("v"))
        cold, warm, odds = warhorn_times(att, dfn, repeat)
        w_cold = (min(cold), statistics.median(cold))
        w_warm = (min(warm), statistics.median(warm))
        if where is None or node is None:
            print(f"{item:>8} {'-':>15} {w_cold[0]:7.2f} {w_cold[1]:7.2f} {w_warm[0]:7.2f} {w_warm[1]:7.2f}")
            continue
        ref = aacalc2_run(where, att, dfn, repeat)
        aa = (ref["min_ms"], ref["med_ms"])
        diff = max(abs(ref["takes"] - odds.attacker_win), abs(ref["def_survives"] - odds.defender_win))
        times = (
            f"{aa[0]:7.2f} {aa[1]:7.2f} {w_cold[0]:7.2f} {w_cold[1]:7.2f} {w_warm[0]:7.2f} {w_warm[1]:7.2f}"
        )
        ratios = " ".join(f"{w[k] / aa[k]:5.2f}" for w in (w_cold, w_warm) for k in (0, 1))
        print(f"{item:>8} {times} {ratios} {diff:9.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="exact runs per battle (median)")
    parser.add_argument("--mc-runs", type=int, default=10_000, help="Monte Carlo battles per repetition")
    parser.add_argument("--mc-repeat", type=int, default=3, help="Monte Carlo repetitions (median)")
    parser.add_argument("--aacalc2", help="directory of the built aacalc2 anchor (holds bench.mjs)")
    parser.add_argument("--sizes", default=ANCHOR_SIZES, help="anchor sizes, e.g. 10v10,55v49")
    parser.add_argument("--anchor-only", action="store_true", help="only the table against aacalc2")
    args = parser.parse_args()
    if args.anchor_only:
        anchor_table(args.sizes, args.repeat, find_aacalc2(args.aacalc2))
        return

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
    anchor_table(args.sizes, args.repeat, find_aacalc2(args.aacalc2))


if __name__ == "__main__":
    main()
