"""What Monte Carlo tree search needs to play Quest for the DragonLords: a leaf value, the heuristic
as rollout policy and as the prior at the root (PUCT: the heuristic's choice holds 3/4 of the prior,
so a small budget plays like the heuristic and searches where it could overturn it), and a rollout
depth (named by the game's plugin)."""

from __future__ import annotations

import math

from warhorn.ai.dragonlords.player import DragonLordsHeuristic, strength
from warhorn.ai.heuristic import heuristic_prior
from warhorn.ai.hooks import GameHooks, win_share_reward
from warhorn.engine import Action, GameState, Rng
from warhorn.games.dragonlords.state import DragonLordsState

#: Actions a rollout plays before the leaf value.
ROLLOUT_DEPTH = 30
#: Points of strength that make a win about e times likelier.
SCALE = 8.0

_ROLLOUT_PLAYER = DragonLordsHeuristic()


def evaluate(state: GameState, player: int) -> float:
    """The chance ``player`` wins: a softmax over the players' strengths (realms, land, units)."""
    assert isinstance(state, DragonLordsState)
    results = state.results()
    if results is not None:
        return win_share_reward(results, player)
    scores = [strength(state, p) for p in range(state.num_players)]
    if scores[player] <= 0:
        return 0.01
    top = max(scores)
    weights = [math.exp((x - top) / SCALE) if x > 0 else 0.0 for x in scores]
    return min(0.99, max(0.01, weights[player] / sum(weights)))


def rollout_policy(state: GameState, rng: Rng) -> Action:
    """The heuristic itself (it reads no hidden fact of another player)."""
    decision = state.pending()
    assert decision is not None
    return _ROLLOUT_PLAYER.choose(state, decision.player, rng).action


HOOKS = GameHooks(
    evaluate=evaluate,
    rollout_policy=rollout_policy,
    reward=win_share_reward,
    rollout_depth=ROLLOUT_DEPTH,
    prior=heuristic_prior("dragonlords"),
)
