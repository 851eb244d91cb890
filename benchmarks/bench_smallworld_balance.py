"""Small World of Warcraft balance: win rate per race, per power and per combo in heuristic games.

Run from the repository root (a long run: in the background, niced, on a shared machine):

    export PYTHONPATH=src
    nice -n 10 python benchmarks/bench_smallworld_balance.py play --games 2000 --players 4 --jobs 2 \
        --out benchmarks/results/smallworld-balance.jsonl
    python benchmarks/bench_smallworld_balance.py report benchmarks/results/smallworld-balance.jsonl

``play`` plays seeded games (seeds 0, 1, ...; islands board) with the heuristic in every seat and
writes one JSON line per game as it finishes: each player's final coins and every combo
(race, power) it played, and the winners. A run that is stopped keeps the lines written so far.

``report`` reads the lines and prints, for each race, each power and each combo, how many players
used it and how often such a player won (a shared first place counts as a win for each), with
the 95 % Wilson interval, and the expected rate 1/players beside it; combos need ``--min-combo``
uses (default 8) to be ranked among the 10 most and least successful.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from warhorn.ai.smallworld.player import SmallWorldHeuristic
from warhorn.engine import Rng, load_game
from warhorn.games.smallworld.actions import Pick
from warhorn.sim import wilson_interval


def play_one(args: tuple[int, int]) -> dict[str, Any]:
    """One heuristic game: each player's combos, coins, and the winners."""
    seed, players = args
    state = load_game("smallworld", seed=seed, players=players)
    heuristic = SmallWorldHeuristic()
    rng = Rng(seed ^ 0xBA1A)
    combos: list[list[tuple[str, str]]] = [[] for _ in range(players)]
    while not state.is_terminal:
        decision = state.pending()
        assert decision is not None
        action = heuristic.choose(state, decision.player, rng).action
        if isinstance(action, Pick):
            race, power, _ = state.combos()[action.index]  # type: ignore[attr-defined]
            combos[decision.player].append((race, power))
        state, _ = state.apply(action)
    results = state.results()
    assert results is not None
    return {
        "seed": seed,
        "players": players,
        "winners": sorted(results.winners),
        "coins": [results.scores[p] for p in range(players)],
        "combos": combos,
    }


def play(games: int, players: int, jobs: int, out: Path, first: int) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    jobs_list = [(seed, players) for seed in range(first, first + games)]
    with out.open("a", encoding="utf-8") as sink:
        if jobs <= 1:
            for job in jobs_list:
                sink.write(json.dumps(play_one(job)) + "\n")
                sink.flush()
        else:
            with ProcessPoolExecutor(jobs) as pool:
                for record in pool.map(play_one, jobs_list, chunksize=4):
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()


def report(path: Path, min_combo: int) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not records:
        print("no games recorded")
        return
    players = records[0]["players"]
    tallies: dict[str, dict[str, list[int]]] = {
        "race": defaultdict(lambda: [0, 0]),
        "power": defaultdict(lambda: [0, 0]),
    }
    combos: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in records:
        for p, played in enumerate(record["combos"]):
            won = int(p in record["winners"])
            for kind, index in (("race", 0), ("power", 1)):
                for name in {c[index] for c in played}:
                    tallies[kind][name][0] += 1
                    tallies[kind][name][1] += won
            for race, power in {tuple(c) for c in played}:
                combos[f"{power} {race}"][0] += 1
                combos[f"{power} {race}"][1] += won
    print(
        f"{len(records)} games, {players} players, heuristic in every seat; expected rate {1 / players:.1%}"
    )
    for kind in ("race", "power"):
        print(f"\n{kind:<14} players  wins   rate   95 % interval")
        for name, (used, won) in sorted(tallies[kind].items(), key=lambda kv: -kv[1][1] / max(kv[1][0], 1)):
            ci = wilson_interval(won, used)
            print(f"{name:<14} {used:>7} {won:>5} {won / used:>6.1%}   {ci.low:.1%}-{ci.high:.1%}")
    ranked = sorted(((w / u, u, w, n) for n, (u, w) in combos.items() if u >= min_combo), reverse=True)
    for title, rows in (("most", ranked[:10]), ("least", ranked[-10:][::-1])):
        print(f"\n10 {title} successful combos (at least {min_combo} uses)")
        for rate, used, won, name in rows:
            ci = wilson_interval(won, used)
            print(f"{name:<28} {used:>4} {won:>4} {rate:>6.1%}   {ci.low:.1%}-{ci.high:.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_play = sub.add_parser("play")
    p_play.add_argument("--games", type=int, default=2000)
    p_play.add_argument("--players", type=int, default=4)
    p_play.add_argument("--jobs", type=int, default=1)
    p_play.add_argument("--first", type=int, default=0, help="first seed")
    p_play.add_argument("--out", type=Path, required=True)
    p_report = sub.add_parser("report")
    p_report.add_argument("path", type=Path)
    p_report.add_argument("--min-combo", type=int, default=8)
    args = parser.parse_args()
    if args.command == "play":
        play(args.games, args.players, args.jobs, args.out, args.first)
    else:
        report(args.path, args.min_combo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
