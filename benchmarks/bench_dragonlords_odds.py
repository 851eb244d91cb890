"""Benchmark of the exact DragonLords plain-battle odds (issue 17).

Run from the repository root:  python benchmarks/bench_dragonlords_odds.py  [--repeat N] [--mc-runs N]

For each battle size (attackers vs defenders at TAS 3 vs 3, d6), prints the median time of
``--repeat`` exact computations (warhorn.games.dragonlords.odds.plain_battle_odds) and, as the
anchor in the same run, the time of ``--mc-runs`` battles rolled through the game's own dice round
(combat.dice_round) with the win rate they give, so the exact figure can be checked against
sampling and its cost compared with it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.combat import Fighter, dice_round
from warhorn.games.dragonlords.odds import PlainBattleRequest, plain_battle_odds


def rolled_win_rate(attackers: int, defenders: int, runs: int, seed: int) -> float:
    rng = Rng(seed)
    wins = 0
    for _ in range(runs):
        a = tuple(Fighter(f"a{i}") for i in range(attackers))
        d = tuple(Fighter(f"d{i}") for i in range(defenders))
        while a and d:
            result = dice_round(rng, a, d)
            a, d = result.attackers, result.defenders
        wins += bool(a) and not d
    return wins / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--mc-runs", type=int, default=2000)
    parser.add_argument("--sizes", default="5,10,20,40")
    args = parser.parse_args()
    print(f"{'battle':>10} {'exact ms':>9} {'P(win)':>8} {'rolled ms':>10} {'rolled P':>9} {'ratio':>7}")
    for size in (int(s) for s in args.sizes.split(",")):
        request = PlainBattleRequest(attackers=size, defenders=size)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            odds = plain_battle_odds(request)
            times.append(time.perf_counter() - start)
        exact = statistics.median(times)
        start = time.perf_counter()
        rolled = rolled_win_rate(size, size, args.mc_runs, seed=size)
        sampled = time.perf_counter() - start
        print(
            f"{size:>4} v {size:<4} {exact * 1e3:9.2f} {odds.attacker_wins:8.4f} "
            f"{sampled * 1e3:10.1f} {rolled:9.4f} {sampled / exact:7.0f}"
        )


if __name__ == "__main__":
    main()
