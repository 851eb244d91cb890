"""What Monte Carlo tree search needs to play Defenders sensibly: a leaf value, a rollout policy,
the cooperative reward and a rollout depth (named by the game's plugin)."""

from __future__ import annotations

from warhorn.ai.defenders import battle_odds, threat
from warhorn.ai.defenders.player import DefendersHeuristic
from warhorn.ai.heuristic import heuristic_rollout
from warhorn.ai.hooks import GameHooks, shared_win_reward
from warhorn.engine import GameState
from warhorn.games.defenders.state import DefendersState

#: Actions a rollout plays (about two hero turns) before the evaluator scores the position.
ROLLOUT_DEPTH = 24


def evaluate(state: GameState, player: int) -> float:
    """A rough chance that the heroes win from ``state``, in [0, 1] (the same for every hero).

    Counts defeated generals and the team's odds against the best target, and takes off for
    what brings the loss nearer: crystals used, the scarcest minion colour, minions in
    Monarch City and the general nearest to it.
    """
    assert isinstance(state, DefendersState)
    results = state.results()
    if results is not None:
        return shared_win_reward(results, player)
    alive = state.generals_in_play()
    defeated = 4 - len(alive)
    heroes = [i for i, s in enumerate(state.slots) if s.hero is not None]
    best_odds = max((battle_odds.team_chance(state, c, heroes)[0] for c in alive), default=1.0)
    value = 0.12 + 0.17 * defeated + 0.10 * best_odds
    used = 1.0 - state.crystals_left / 12
    value -= 0.25 * used * used
    scarcest = min(state.supply)
    value -= 0.15 * max(0.0, (8 - scarcest) / 8)
    value -= 0.04 * state.minion_total(state.board.monarch)
    nearest = min((threat.steps_to_city(state, c) for c in alive), default=99)
    value -= {1: 0.10, 2: 0.04}.get(nearest, 0.0)
    return min(0.99, max(0.01, value))


#: The heuristic itself plays the rollouts (it reads no hidden fact and draws nothing from ``rng``).
rollout_policy = heuristic_rollout(DefendersHeuristic())


HOOKS = GameHooks(
    evaluate=evaluate,
    rollout_policy=rollout_policy,
    reward=shared_win_reward,
    rollout_depth=ROLLOUT_DEPTH,
)
