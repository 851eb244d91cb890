"""Defenders of the Realm: how often the cooperative heuristic team wins, how games end, how fast it decides.

Run (one at a time, on a shared machine with ``nice``; the figures in
docs/ai-results-defenders.md come from exactly these commands):

    export PYTHONPATH=src
    nice -n 10 python benchmarks/bench_defenders_ai.py results --players 4 --games 500 --jobs 2
    nice -n 10 python benchmarks/bench_defenders_ai.py results --players 2 --games 500 --jobs 2
    nice -n 10 python benchmarks/bench_defenders_ai.py timing --games 20

``results`` plays ``--games`` seeded games (standard rules, ``--players`` heroes, one
per player) for a team of ``heuristic`` seats and for a team of ``random`` seats
(the baseline), through the tournament runner (the same games as
``warhorn tournament defenders --agents heuristic --games 500 --jobs 2 -o players=4
--seed 2026``), and prints each team's win rate with its 95 % Wilson interval and
how often each ending closed the game (the code before the first colon of the
results' reason, see ``warhorn.games.defenders.rules.victory.ENDINGS``), plus the
mean number of turns and generals defeated. ``--out DIR`` keeps the records.

``screen`` plays agent specs on the same seeds of ``load_game`` (``--first`` on, ``--games``
of them, played by the tournament runner's ``play_game``) and prints each arm's wins and
endings, and against the first arm the games won by one and lost by the other: the tuning
screens of docs/ai-results-defenders.md ("Sixth round"), e.g.

    nice -n 5 python benchmarks/bench_defenders_ai.py screen --agents heuristic:spare=0,heuristic \
        --first 21000

``timing`` plays ``--games`` four-hero games with the heuristic and, at every
decision, also times the random agent on the same position (the baseline in the
same process): median and 95th percentile per decision, for all decisions and
for Daytime actions alone.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from warhorn.ai import make_agent
from warhorn.engine import Rng, load_game
from warhorn.sim import plan_tournament, run_tournament, wilson_interval, write_records
from warhorn.sim.runner import GameJob, play_game

SEED = 2026


def ending_of(record: dict[str, Any]) -> str:
    result = record.get("result")
    if not result:
        return "unfinished" if not record.get("error") else "error"
    reason = str(result.get("reason", ""))
    return reason.split(":", 1)[0] if ":" in reason else reason


def team_results(agent: str, players: int, games: int, jobs: int, out: Path | None) -> dict[str, Any]:
    plan = plan_tournament("defenders", [agent], games, seed=SEED, options={"players": players})
    began = time.perf_counter()
    records = run_tournament(plan, jobs=jobs)
    wall = time.perf_counter() - began
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_records(records, out / f"defenders-{agent}-{players}p.jsonl")
    wins = sum(1 for r in records if r.get("result") and r["result"]["winners"])
    endings = Counter(ending_of(r) for r in records)
    rounds = [r["rounds"] for r in records if r.get("rounds") is not None]
    errors = [r["error"] for r in records if r.get("error")]
    return {
        "agent": agent,
        "players": players,
        "games": len(records),
        "wins": wins,
        "interval": wilson_interval(wins, len(records)),
        "endings": endings,
        "mean_actions": statistics.fmean(r["actions"] for r in records),
        "mean_rounds": statistics.fmean(rounds) if rounds else None,
        "errors": errors,
        "wall_s": wall,
    }


def print_results(row: dict[str, Any]) -> None:
    games = row["games"]
    low, high = row["interval"].low, row["interval"].high
    print(
        f"{row['agent']} team, {row['players']} heroes: {row['wins']}/{games} wins = "
        f"{row['wins'] / games:.1%} (95 % Wilson {low:.1%}–{high:.1%}); "
        f"mean {row['mean_actions']:.0f} actions"
        + (f", {row['mean_rounds']:.1f} rounds" if row["mean_rounds"] is not None else "")
        + f"; {row['wall_s']:.0f} s wall"
    )
    for ending, count in row["endings"].most_common():
        share = wilson_interval(count, games)
        print(f"    {ending:<18} {count:>4}  {count / games:6.1%}  (95 % {share.low:.1%}–{share.high:.1%})")
    if row["errors"]:
        print(f"    errors: {len(row['errors'])}, first: {row['errors'][0]}")


def timing(games: int, players: int) -> None:
    heuristic = make_agent("heuristic")
    random_agent = make_agent("random")
    all_h: list[float] = []
    all_r: list[float] = []
    day_h: list[float] = []
    generals: Counter[int] = Counter()
    for g in range(games):
        state = load_game("defenders", seed=SEED + g, players=players)
        rng_h, rng_r = Rng(g), Rng(10_000 + g)
        while state.results() is None:
            decision = state.pending()
            assert decision is not None
            began = time.perf_counter()
            action = heuristic.choose(state, decision.player, rng_h)
            spent = time.perf_counter() - began
            began = time.perf_counter()
            random_agent.choose(state, decision.player, rng_r)
            all_r.append(time.perf_counter() - began)
            all_h.append(spent)
            if decision.kind == "action":
                day_h.append(spent)
            state, _ = state.apply(action)
        generals[sum(1 for x in state.generals if x is None)] += 1

    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    print(f"decision time over {games} games of {players} heroes ({len(all_h)} decisions):")
    print(f"    heuristic, all decisions:   median {p(all_h, 0.5):.2f} ms, p95 {p(all_h, 0.95):.2f} ms")
    print(f"    heuristic, Daytime actions: median {p(day_h, 0.5):.2f} ms, p95 {p(day_h, 0.95):.2f} ms")
    print(f"    random (same positions):    median {p(all_r, 0.5):.3f} ms, p95 {p(all_r, 0.95):.3f} ms")
    print(f"    generals defeated per game: {dict(sorted(generals.items()))}")


def screen_job(spec: str, seed: int, players: int) -> GameJob:
    """One game of a screen: every seat plays ``spec``, the game is ``load_game`` seed ``seed``."""
    return GameJob(
        game="defenders",
        options={"players": players},
        index=seed,
        game_seed=seed,
        agent_seed=seed,
        seat_specs=(spec,) * players,
        seat_labels=(spec,) * players,
        budget=None,
        max_actions=None,
    )


def screen(specs: list[str], first: int, games: int, players: int, jobs: int) -> None:
    """Every arm on the same seeds ``first`` .. ``first + games - 1``: wins, endings, and against
    the first arm the games won by one and lost by the other."""
    seeds = range(first, first + games)
    outcomes: dict[str, list[tuple[bool, str]]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for spec in specs:
            began = time.perf_counter()
            screen_jobs = [screen_job(spec, seed, players) for seed in seeds]
            outcomes[spec] = [
                (bool(r["result"] and r["result"]["winners"]), ending_of(r))
                for r in pool.map(play_game, screen_jobs, chunksize=10)
            ]
            wins = sum(won for won, _ in outcomes[spec])
            interval = wilson_interval(wins, games)
            endings = Counter(ending for _, ending in outcomes[spec])
            line = (
                f"{spec}: {wins}/{games} = {wins / games:.1%} "
                f"(95 % Wilson {interval.low:.1%}–{interval.high:.1%})"
            )
            if spec != specs[0]:
                base = outcomes[specs[0]]
                gained = sum(1 for a, b in zip(outcomes[spec], base, strict=True) if a[0] and not b[0])
                lost = sum(1 for a, b in zip(outcomes[spec], base, strict=True) if b[0] and not a[0])
                line += f"; against {specs[0]}: +{gained} -{lost}"
            print(f"{line}; {time.perf_counter() - began:.0f} s")
            print("    " + ", ".join(f"{e} {n}" for e, n in endings.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    res = sub.add_parser("results", help="win rates and endings of heuristic and random teams")
    res.add_argument("--players", type=int, default=4)
    res.add_argument("--games", type=int, default=500)
    res.add_argument("--jobs", type=int, default=2)
    res.add_argument("--agents", default="heuristic,random")
    res.add_argument("--out", type=Path, default=None)
    tim = sub.add_parser("timing", help="decision time of the heuristic against random")
    tim.add_argument("--games", type=int, default=20)
    tim.add_argument("--players", type=int, default=4)
    scr = sub.add_parser("screen", help="agent specs on the same seeds of load_game (tuning screens)")
    scr.add_argument("--agents", required=True, help="comma-separated specs; the first is the base")
    scr.add_argument("--first", type=int, default=20_000, help="first seed of load_game")
    scr.add_argument("--games", type=int, default=1000)
    scr.add_argument("--players", type=int, default=4)
    scr.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.command == "results":
        for agent in args.agents.split(","):
            print_results(team_results(agent, args.players, args.games, args.jobs, args.out))
    elif args.command == "screen":
        screen(args.agents.split(","), args.first, args.games, args.players, args.jobs)
    else:
        timing(args.games, args.players)


if __name__ == "__main__":
    main()
