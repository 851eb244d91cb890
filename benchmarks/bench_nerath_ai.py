"""The Nerath heuristic AI: decision time, and the commands of its statistical runs.

Decision time (run from the repository root):

    PYTHONPATH=src python benchmarks/bench_nerath_ai.py --games 4

plays GAMES free-for-all games with the heuristic in all four seats (seeds
0..GAMES-1, default length) and times every heuristic decision. As the
baseline, the random agent chooses on the very same states in the same
process (its choice is not played). Prints the median, 95th percentile and
maximum per decision for both, and the heuristic's median per decision kind
(a turn's movement plan is made at its first movement decision, shown apart
as "movement (turn plan)"). The first decisions of a process fill the odds cache, so the figures include
that warm-up.

Statistical runs reported in docs/ai-results.md (each a `warhorn tournament`;
`--jobs 2` on the 2-core machine; the records files give every game):

    # alliance mode, 2 players, heuristic vs random (seats swap every other game)
    PYTHONPATH=src nice -n 10 warhorn tournament nerath --agents heuristic,random --games 200 \\
        --jobs 2 --seed 2026 -o mode=alliance -o players=2 --out alliance_h_vs_r.jsonl

    # alliance mode, MCTS (heuristic prior at the root, 100 iterations) vs heuristic; also with
    # --seed 2029 (20 games) and --seed 2031 (10 games); decision time: bench_nerath_mcts.py
    PYTHONPATH=src nice -n 10 warhorn tournament nerath --agents mcts:iterations=100,heuristic \\
        --games 20 --jobs 2 --seed 2027 -o mode=alliance -o players=2 --out alliance_mcts_vs_h.jsonl

    # free-for-all, heuristic in all four seats (a seat = a kingdom: 0 Karkoth, 1 Vailin,
    # 2 Iron Circle, 3 Nerath)
    PYTHONPATH=src nice -n 10 warhorn tournament nerath --agents heuristic --games 1000 \\
        --jobs 2 --seed 2028 --out ffa_heuristic.jsonl

    # rules version 4 (docs/ai-results.md): the same, as ten runs of 100 pooled
    for n in $(seq 3201 3210); do PYTHONPATH=src nice -n 10 warhorn tournament nerath \\
        --agents heuristic --games 100 --jobs 2 --seed $n --out ffa_$n.jsonl; done
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from warhorn.ai import make_agent
from warhorn.engine import Rng, load_game


def _plan_key(agent: object) -> object:
    """The turn the agent's Nerath heuristic last planned (to tell planning decisions apart)."""
    inner = getattr(agent, "_by_game", {}).get("nerath")
    return getattr(inner, "_plan_key", None)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--round-cap", type=int, default=0, help="0 = play to the end")
    args = parser.parse_args()
    heuristic_times: list[float] = []
    random_times: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    rounds = []
    for seed in range(args.games):
        state = load_game("nerath", seed=seed, round_cap=args.round_cap)
        agents = [make_agent("heuristic") for _ in range(4)]
        baseline = make_agent("random")
        rng, baseline_rng = Rng(seed), Rng(seed + 10_000)
        while state.results() is None:
            pending = state.pending()
            assert pending is not None
            start = time.perf_counter()
            baseline.choose(state, pending.player, baseline_rng)
            random_times.append(time.perf_counter() - start)
            agent = agents[pending.player]
            before = _plan_key(agent)
            start = time.perf_counter()
            action = agent.choose(state, pending.player, rng)
            spent = time.perf_counter() - start
            heuristic_times.append(spent)
            kind = pending.kind
            if kind == "movement" and _plan_key(agent) != before:
                kind = "movement (turn plan)"
            by_kind[kind].append(spent)
            state, _ = state.apply(action)
        rounds.append(state.d.pos.round)  # type: ignore[attr-defined]
    print(f"{args.games} free-for-all games, {len(heuristic_times)} decisions, rounds {rounds}")
    for name, times in (("heuristic", heuristic_times), ("random (baseline)", random_times)):
        print(
            f"{name:18} median {1000 * statistics.median(times):7.2f} ms   "
            f"p95 {1000 * percentile(times, 0.95):7.2f} ms   max {1000 * max(times):7.1f} ms"
        )
    print("heuristic median by decision kind:")
    for kind, times in sorted(by_kind.items()):
        print(
            f"  {kind:22} {len(times):6} decisions  median {1000 * statistics.median(times):7.2f} ms"
            f"  p95 {1000 * percentile(times, 0.95):7.2f} ms"
        )


if __name__ == "__main__":
    main()
