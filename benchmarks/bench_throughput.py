"""Random-play throughput of every registered game, OpenSpiel's backgammon beside it, and MCTS on Nerath.

Run from the repository root:

    .venv/bin/python benchmarks/bench_throughput.py [--seconds S] [--mcts-searches N] [--mcts-iterations I]

1. Random legal play, one loop per game (``load_game`` -> ``legal_actions`` ->
   a uniformly random choice -> ``apply``), whole games from seeds 0, 1, 2, ...
   until at least S seconds (default 20) have been spent on the game; prints
   actions per second. All times are the process's CPU time (the machine is
   shared; wall-clock rates move with whatever else runs). Options: Nerath 4 kingdoms with a round cap of 30,
   Defenders 4 heroes; any other registered game its defaults (``--option
   game:name=value`` adds or changes one).
2. OpenSpiel's backgammon random playouts (C++ through Python: ``legal_actions``
   -> random choice -> ``apply_action``, chance outcomes sampled by their
   probabilities) in the same run, for the same S seconds, and the ratio of its
   rate to each game's. OpenSpiel is the optional extra ``bench``
   (``pip install -e '.[bench]'``); without it the benchmark says so and
   prints the games alone.
3. MCTS iterations per second on Nerath (4 kingdoms, round cap 30): N searches
   (default 6) of I iterations each (default 200) with the game's registered
   hooks (rollout policy, rollout depth and leaf value), no prior and no
   skipping, from the first decision of the games of seeds 0..N-1 (positions
   that do not depend on how the legal actions are listed). The hooks (the game's AI
   package) are imported before the clock starts: the first search used to count
   that import, about a second, as search time.

``--seconds 0`` skips the random play (and backgammon): the MCTS figure alone.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Any

from warhorn.ai.agents import Budget
from warhorn.ai.hooks import game_hooks
from warhorn.ai.mcts import MCTSAgent
from warhorn.engine import Rng, load_game
from warhorn.engine.registry import registered_games

#: The process's CPU time: the machine is shared, and CPU time does not count other programs' turns.
CLOCK = time.process_time

#: Random-play options per game (the issue's measuring conditions); other games play their defaults.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "nerath": {"round_cap": 30},
    "defenders": {"players": 4},
}


def parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text in ("true", "false"):
        return text == "true"
    return text


def random_play(game: str, options: dict[str, Any], seconds: float) -> tuple[int, float, int]:
    """Whole random games until ``seconds`` are spent: (actions, seconds, games)."""
    actions = games = 0
    spent = 0.0
    seed = 0
    while spent < seconds:
        chooser = Rng(seed + 1)
        started = CLOCK()
        state = load_game(game, seed=seed, **options)
        while state.pending() is not None:
            legal = state.legal_actions()
            state, _ = state.apply(legal[chooser.below(len(legal))])
            actions += 1
        spent += CLOCK() - started
        games += 1
        seed += 1
    return actions, spent, games


def backgammon_play(seconds: float) -> tuple[int, float, int] | None:
    """OpenSpiel backgammon random playouts for ``seconds`` (None: OpenSpiel is not installed)."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    chooser = random.Random(1)
    actions = games = 0
    spent = 0.0
    while spent < seconds:
        started = CLOCK()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chooser.choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[chooser.randrange(len(legal))])
            actions += 1
        spent += CLOCK() - started
        games += 1
    return actions, spent, games


def mcts_rate(searches: int, iterations: int) -> tuple[int, float]:
    """MCTS on Nerath: (iterations run, seconds) over ``searches`` searches."""
    agent = MCTSAgent(Budget(iterations=iterations), use_prior=False, skip=False)
    game_hooks("nerath")  # import the game's search hooks (its AI package) before the clock starts
    total_iterations = 0
    total_seconds = 0.0
    for seed in range(searches):
        state = load_game("nerath", seed=seed, round_cap=30)
        decision = state.pending()
        assert decision is not None
        started = CLOCK()
        report = agent.search(state, decision.player, Rng(seed))
        total_seconds += CLOCK() - started
        total_iterations += report.iterations
    return total_iterations, total_seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of random play per game")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered)")
    parser.add_argument(
        "--option", action="append", default=[], help="game:name=value, an option for one game's play"
    )
    parser.add_argument("--mcts-searches", type=int, default=6)
    parser.add_argument("--mcts-iterations", type=int, default=200)
    args = parser.parse_args()

    options = {game: dict(opts) for game, opts in DEFAULT_OPTIONS.items()}
    for text in args.option:
        game, _, setting = text.partition(":")
        name, _, value = setting.partition("=")
        if not game or not name or not value:
            parser.error(f"--option {text!r}: expected game:name=value")
        options.setdefault(game, {})[name] = parse_value(value)
    games = args.games.split(",") if args.games else sorted(registered_games())

    print(f"python {platform.python_version()} on {platform.machine()}; load average {os.getloadavg()}")
    rates: dict[str, float] = {}
    for game in games if args.seconds > 0 else []:
        opts = options.get(game, {})
        actions, spent, played = random_play(game, opts, args.seconds)
        rates[game] = actions / spent
        shown = ", ".join(f"{k}={v}" for k, v in sorted(opts.items())) or "defaults"
        print(
            f"{game:<12} random play ({shown}): {actions} actions in {played} games, "
            f"{spent:.1f} s: {rates[game]:,.0f} actions/s"
        )
    bg = backgammon_play(args.seconds) if args.seconds > 0 else None
    if args.seconds <= 0:
        pass
    elif bg is None:
        print("open_spiel backgammon: not installed (pip install -e '.[bench]'); no ratios")
    else:
        actions, spent, played = bg
        bg_rate = actions / spent
        print(
            f"{'backgammon':<12} OpenSpiel random playouts: {actions} actions in {played} games, "
            f"{spent:.1f} s: {bg_rate:,.0f} actions/s"
        )
        for game, rate in rates.items():
            print(f"backgammon / {game}: {bg_rate / rate:.1f}x")
    if args.mcts_searches > 0:
        iterations, seconds = mcts_rate(args.mcts_searches, args.mcts_iterations)
        print(
            f"nerath MCTS: {iterations} iterations in {args.mcts_searches} searches, {seconds:.1f} s: "
            f"{iterations / seconds:,.0f} iterations/s"
        )


if __name__ == "__main__":
    main()
