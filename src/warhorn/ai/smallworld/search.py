"""What Monte Carlo tree search needs to play Small World of Warcraft: a leaf value, the heuristic
as rollout policy and a rollout depth (named by the game's plugin)."""

from __future__ import annotations

import math

from warhorn.ai.heuristic import heuristic_rollout
from warhorn.ai.hooks import GameHooks, win_share_reward
from warhorn.ai.smallworld.player import SmallWorldHeuristic
from warhorn.engine import GameState
from warhorn.games.smallworld.state import SmallWorldState

#: Actions a rollout plays (about one turn) before the leaf value.
ROLLOUT_DEPTH = 12
#: Coins of projected lead that make a win about e times likelier than a loss.
SCALE = 6.0


def projected_coins(state: SmallWorldState, player: int) -> float:
    """Coins now plus the regions held times the turns left (a player's income as it stands)."""
    seat = state.players[player]
    regions = len(state.regions_of(player)) + len(state.regions_of(player, declined=True))
    turns_left = state.rounds - state.round + (1 if player >= state.current else 0)
    return seat.coins + regions * max(0, turns_left)


def evaluate(state: GameState, player: int) -> float:
    """The chance ``player`` wins, from projected coins: a softmax over the players' projections.

    Search calls it on determinized states, where the other players' coins are resampled.
    """
    assert isinstance(state, SmallWorldState)
    results = state.results()
    if results is not None:
        return win_share_reward(results, player)
    scores = [projected_coins(state, p) for p in range(state.num_players)]
    top = max(scores)
    weights = [math.exp((x - top) / SCALE) for x in scores]
    return min(0.99, max(0.01, weights[player] / sum(weights)))


#: The heuristic itself plays the rollouts (it reads no hidden fact of another player).
rollout_policy = heuristic_rollout(SmallWorldHeuristic())


HOOKS = GameHooks(
    evaluate=evaluate,
    rollout_policy=rollout_policy,
    reward=win_share_reward,
    rollout_depth=ROLLOUT_DEPTH,
)
