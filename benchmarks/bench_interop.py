"""What an environment step costs over a raw engine step, on identical games, in the same run.

For every registered game (its first conformance option set) and each seed, the same game is played
twice, alternately, with the same actions:

- **raw**: ``legal_actions()``, a uniformly random legal action (``Rng(seed)``), ``apply()``;
- **env**: the PettingZoo AEC environment of :mod:`warhorn.interop.pettingzoo` on the same game (the
  seed its ``reset`` draws is the raw game's seed), choosing the *same* action as raw (the same
  generator over the same list of legal actions) in one step by its number (a game with a flat
  action index) or token by token, with ``last()`` — the observation and the mask — before every
  step, as an agent loop does.

The figure is time per game action (an action takes one or more token steps in the environment);
the overhead is env / raw − 1 over the same actions. The two runs of a game alternate, so load on
the machine falls on both alike.

    .venv/bin/python benchmarks/bench_interop.py [--games 3] [--action-index tokens]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from warhorn.engine.registry import load_game, registered_plugins
from warhorn.engine.rng import Rng
from warhorn.interop.pettingzoo import WarhornAECEnv, env


def game_seed(seed: int) -> int:
    """The game seed ``WarhornAECEnv.reset(seed=seed)`` draws (so raw plays the same game)."""
    return int(np.random.default_rng(seed).integers(2**31))


def raw_game(game: str, options: dict[str, object], seed: int) -> tuple[float, int, str]:
    """Seconds (setting up included) and actions of one raw game, and its final digest."""
    actions, start = 0, time.process_time()
    state, rng = load_game(game, seed=game_seed(seed), **options), Rng(seed)
    while not state.is_terminal:
        state, _ = state.apply(rng.choice(state.legal_actions()))
        actions += 1
    return time.process_time() - start, actions, state.digest()


def env_game(aec: WarhornAECEnv, seed: int) -> tuple[float, int, int, str]:
    """Seconds, actions and token steps of the same game through the environment, and its final digest."""
    rng = Rng(seed)
    actions = tokens = 0
    start = time.process_time()
    aec.reset(seed=seed)
    code: tuple[int, ...] = ()
    encode = aec.session.index.encode
    decision = None
    for _ in aec.agent_iter():
        _, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        chooser = aec.session.chooser
        assert chooser is not None
        if chooser is not decision:  # a new decision: the action raw play chooses, over the same list
            decision = chooser
            number = encode(rng.choice(chooser.legal))
            code = (number,) if isinstance(number, int) else number
            actions += 1
        aec.step(code[len(chooser.chosen)])
        tokens += 1
    return time.process_time() - start, actions, tokens, aec.session.state.digest()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3, help="games per registered game (seeds 0..n-1)")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default: every one)")
    parser.add_argument(
        "--observation", default="game", help="the environment's observation: game (default) or hashed-view"
    )
    parser.add_argument(
        "--action-index", default="auto", help="auto (default: flat where the game has one), flat or tokens"
    )
    args = parser.parse_args()
    print(
        f"{'game':<28} {'actions':>8} {'raw µs/action':>14} {'env µs/action':>14} "
        f"{'steps/action':>14} {'overhead':>9}"
    )
    for game, plugin in registered_plugins().items():
        if args.game and game not in args.game:
            continue
        options = dict(plugin.conformance.option_sets[0])
        aec = env(game, observation=args.observation, action_index=args.action_index, **options)
        raw_s = env_s = 0.0
        actions = tokens = 0
        for seed in range(args.games):
            seconds, raw_actions, raw_digest = raw_game(game, options, seed)
            through_env, env_actions, env_tokens, env_digest = env_game(aec, seed)
            if (raw_actions, raw_digest) != (env_actions, env_digest):
                raise SystemExit(f"{game} seed {seed}: the environment played another game than raw")
            raw_s, env_s = raw_s + seconds, env_s + through_env
            actions, tokens = actions + raw_actions, tokens + env_tokens
        label = f"{game} {options}" if options else game
        print(
            f"{label:<28} {actions:>8} {raw_s / actions * 1e6:>14.0f} {env_s / actions * 1e6:>14.0f} "
            f"{tokens / actions:>14.2f} {(env_s / raw_s - 1) * 100:>8.0f}%",
            flush=True,
        )


if __name__ == "__main__":
    main()
