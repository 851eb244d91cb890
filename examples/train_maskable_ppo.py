"""Train a warhorn agent with sb3-contrib's MaskablePPO on the Gymnasium wrapper, then judge it.

The game: two-player Small World (``warhorn/Smallworld-v0``, ``players=2``). The
learner holds seat 0 in half of the four training environments and seat 1 in
the other half, against the random agent. Each environment gives the learner
its observation vector (seen through :func:`symlog`) and the mask of the next
token; MaskablePPO reads the mask through ``action_masks()``. The reward is the
game's result at the end (win 1, loss −1).

After training (a wall-clock budget), the script

1. saves the policy (``model.zip``) and a learning curve (``learning_curve.png``:
   the learner's win rate over its last training games, by environment step);
2. registers the agent kind ``ppo`` (``ppo:model=<path>``: the saved policy
   playing token by token through :class:`warhorn.interop.policy.TokenPolicyAgent`)
   and plays it against ``random`` and ``heuristic`` with the tournament runner
   (seats rotated over shared deals), printing win rates with Wilson intervals,
   and the same for an untrained policy (uniform over the mask) as a baseline;
3. writes every figure to ``results.json``.

Not part of the test suite. Needs the ``rl-train`` extra (PyTorch: take the CPU
build, e.g. ``pip install torch==2.13.0`` from a local wheel; never a CUDA one)::

    pip install -e '.[rl-train]'
    python examples/train_maskable_ppo.py --minutes 25 --out examples/results/smallworld-ppo
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt
import torch
from gymnasium.wrappers import TransformObservation
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import warhorn.interop.gymnasium  # noqa: F401  (registers warhorn/<GameId>-v0)
from warhorn.ai import Budget
from warhorn.ai.agents import Agent, register_agent
from warhorn.interop.gymnasium import env_id
from warhorn.interop.policy import TokenPolicyAgent, random_token_policy
from warhorn.sim.runner import plan_tournament, run_tournament
from warhorn.sim.stats import agent_win_rates

GAME = "smallworld"
OPTIONS: dict[str, Any] = {"players": 2}
#: The policy chooses token by token (the interface its recorded run in docs/interop.md trained on;
#: Small World also has a flat index, one step per action: ``"auto"``).
ACTION_INDEX = "tokens"
#: (seat, opponent) of each training environment.
TRAINING = [(0, "random"), (1, "random"), (0, "random"), (1, "random")]


def symlog(observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """sign(x)·log(1 + |x|): the observation holds counts and sums (coins, tokens) of any size, and
    PPO learns badly from large inputs; training and play both see the observation through this."""
    return np.sign(observation) * np.log1p(np.abs(observation))


class Progress(BaseCallback):
    """Records each finished training game (step, environment, reward) and stops once ``seconds`` passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.episodes: list[tuple[int, int, float]] = []

    def _on_step(self) -> bool:
        for env, info in enumerate(self.locals["infos"]):
            if "episode" in info:
                self.episodes.append((self.num_timesteps, env, float(info["episode"]["r"])))
        return time.monotonic() < self.deadline


def make_env(seat: int, opponent: str) -> Any:
    def build() -> gymnasium.Env[Any, Any]:
        env = gymnasium.make(
            env_id(GAME), seat=seat, opponents=opponent, action_index=ACTION_INDEX, **OPTIONS
        )
        space = env.observation_space
        return Monitor(TransformObservation(env, symlog, space))

    return build


def train(out: Path, minutes: float, seed: int) -> tuple[float, int, list[tuple[int, int, float]]]:
    envs = DummyVecEnv([make_env(seat, opponent) for seat, opponent in TRAINING])
    envs.seed(seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=512,
        batch_size=512,
        n_epochs=4,
        gamma=0.998,
        gae_lambda=0.95,
        learning_rate=1e-4,
        ent_coef=0.01,
        target_kl=0.03,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        verbose=0,
    )
    started = time.monotonic()
    progress = Progress(minutes * 60)
    model.learn(total_timesteps=10**9, callback=progress)
    model.save(out / "model.zip")
    (out / "episodes.json").write_text(json.dumps(progress.episodes) + "\n", encoding="utf-8")
    return time.monotonic() - started, model.num_timesteps, progress.episodes


def plot_learning_curve(
    out: Path, episodes: list[tuple[int, int, float]], window: int = 50
) -> dict[str, Any]:
    """Rolling win rate against each training opponent by environment step; the last window's figures."""
    figure, axes = plt.subplots(figsize=(7, 4))
    last: dict[str, Any] = {}
    for opponent in sorted({o for _, o in TRAINING}):
        mine = [(step, reward) for step, env, reward in episodes if TRAINING[env][1] == opponent]
        if not mine:
            continue
        steps = np.array([step for step, _ in mine])
        wins = np.array([reward > 0 for _, reward in mine], dtype=float)
        rolling = np.convolve(wins, np.ones(window) / window, mode="valid") if len(wins) >= window else wins
        axes.plot(steps[len(steps) - len(rolling) :], rolling, label=f"against {opponent}")
        last[opponent] = {"episodes": len(wins), "last_window_win_rate": float(wins[-window:].mean())}
    axes.set_xlabel("environment steps (tokens chosen by the learner, all environments)")
    axes.set_ylabel(f"win rate, last {window} games")
    axes.set_ylim(0, 1)
    axes.set_title("MaskablePPO on 2-player Small World (warhorn/Smallworld-v0)")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(out / "learning_curve.png", dpi=100)
    plt.close(figure)
    return last


def _ppo_agent(params: Mapping[str, str], budget: Budget | None) -> Agent:
    torch.set_num_threads(1)
    if set(params) - {"model"} or "model" not in params:
        raise ValueError("the ppo agent takes one parameter: model=<path of a saved MaskablePPO policy>")
    model = MaskablePPO.load(params["model"], device="cpu")

    def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        token, _ = model.predict(symlog(observation), action_masks=mask.astype(bool), deterministic=True)
        return int(token)

    return TokenPolicyAgent(policy, name="MaskablePPO", action_index=ACTION_INDEX)


def _untrained_agent(params: Mapping[str, str], budget: Budget | None) -> Agent:
    return TokenPolicyAgent(
        random_token_policy(int(params.get("seed", "0"))),
        name="uniform token policy",
        action_index=ACTION_INDEX,
    )


def register() -> None:
    """Register the ``ppo`` and ``untrained`` agent kinds (a tournament ``setup`` entry)."""
    register_agent("ppo", _ppo_agent, replace=True)
    register_agent("untrained", _untrained_agent, replace=True)


def evaluate(agent: str, opponent: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    plan = plan_tournament(GAME, [agent, opponent], games, seed=seed, options=OPTIONS)
    records = run_tournament(plan, jobs=jobs)
    rates = {rate.name: rate for rate in agent_win_rates(records)}
    rate = rates[plan.labels[0]]
    interval = rate.interval
    return {
        "agent": agent,
        "opponent": opponent,
        "games": rate.games,
        "wins": rate.wins,
        "win_rate": rate.rate,
        "wilson95": [interval.low, interval.high],
        "errors": sum(1 for r in records if r.get("error")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=35.0, help="training budget (wall clock)")
    parser.add_argument("--games", type=int, default=200, help="evaluation games of the policy per opponent")
    parser.add_argument("--baseline-games", type=int, default=100, help="the same for the untrained policy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the evaluation games")
    parser.add_argument("--out", type=Path, default=Path("examples/results/smallworld-ppo"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    register()

    seconds, steps, episodes = train(args.out, args.minutes, args.seed)
    curve = plot_learning_curve(args.out, episodes)
    print(f"trained {steps} steps in {seconds / 60:.1f} min; last training window: {curve}", flush=True)
    model = f"ppo:model={args.out / 'model.zip'}"
    evaluations = []
    for agent, games in ((model, args.games), ("untrained", args.baseline_games)):
        for opponent in ("random", "heuristic"):
            result = evaluate(agent, opponent, games, seed=args.seed + 1000, jobs=args.jobs)
            evaluations.append(result)
            low, high = result["wilson95"]
            print(
                f"{agent.split(':')[0]:>9} vs {opponent:<9} {result['wins']}/{result['games']} "
                f"= {result['win_rate']:.1%} (95 % Wilson {low:.1%}-{high:.1%}), errors {result['errors']}",
                flush=True,
            )
    summary = {
        "game": GAME,
        "options": OPTIONS,
        "training": {"environments": TRAINING, "steps": steps, "minutes": seconds / 60, "last_window": curve},
        "evaluation": evaluations,
    }
    (args.out / "results.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
