"""What an environment costs over the raw engine: time per game action, raw and through PettingZoo.

Raw: ``legal_actions()`` and ``apply()`` of a uniformly random legal action.
PettingZoo: the AEC environment of :mod:`warhorn.interop.pettingzoo`, a uniformly random token of the
mask at every step, with ``last()`` (the observation: the view hashed, the mask) before each one — what
an agent loop does. Both play games of the same seeds to the end, in the same run; the choices differ
(uniform over legal actions, uniform over the mask's tokens), so the games differ too. The figure is
time per *game action* (an action takes one or more token steps in the environment).

    .venv/bin/python benchmarks/bench_interop.py [--games 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from warhorn.engine.registry import load_game, registered_plugins
from warhorn.engine.rng import Rng
from warhorn.interop.pettingzoo import env


def raw_seconds_per_action(game: str, options: dict[str, object], seeds: range) -> tuple[float, int]:
    actions, start = 0, time.perf_counter()
    for seed in seeds:
        state, rng = load_game(game, seed=seed, **options), Rng(seed)
        while not state.is_terminal:
            state, _ = state.apply(rng.choice(state.legal_actions()))
            actions += 1
    return (time.perf_counter() - start) / actions, actions


def env_seconds_per_action(game: str, options: dict[str, object], seeds: range) -> tuple[float, int, int]:
    aec = env(game, **options)
    actions = tokens = 0
    start = time.perf_counter()
    for seed in seeds:
        aec.reset(seed=seed)
        pick = np.random.default_rng(seed)
        for agent in aec.agent_iter():
            observation, _, termination, truncation, _ = aec.last()
            if termination or truncation:
                aec.step(None)
                continue
            before = aec.session.state
            aec.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
            tokens += 1
            actions += aec.session.state is not before
            del agent
    return (time.perf_counter() - start) / actions, actions, tokens


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3, help="games per registered game (seeds 0..n-1)")
    args = parser.parse_args()
    seeds = range(args.games)
    print(f"{'game':<28} {'raw µs/action':>14} {'env µs/action':>14} {'tokens/action':>14} {'overhead':>9}")
    for game, plugin in registered_plugins().items():
        options = dict(plugin.conformance.option_sets[0])
        raw, _ = raw_seconds_per_action(game, options, seeds)
        through_env, actions, tokens = env_seconds_per_action(game, options, seeds)
        label = f"{game} {options}" if options else game
        print(
            f"{label:<28} {raw * 1e6:>14.0f} {through_env * 1e6:>14.0f} {tokens / actions:>14.2f} "
            f"{(through_env / raw - 1) * 100:>8.0f}%"
        )


if __name__ == "__main__":
    main()
