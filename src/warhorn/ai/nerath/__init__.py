"""The Conquest of Nerath AI: the ``heuristic`` agent for game ``nerath`` and MCTS hooks.

Modules: :mod:`.knowledge` (piece strengths, board distances),
:mod:`.odds_cache` (memoised exact battle odds), :mod:`.situation` (a
kingdom's reading of the public board: values, threats), :mod:`.attack_planning`
(the movement plan), :mod:`.battle_tactics` (battle and reposition decisions),
:mod:`.reinforcement` (buying and placing), :mod:`.card_play` (card windows),
:mod:`.player` (the heuristic) and :mod:`.search_hooks` (leaf value and
rollout policy for MCTS; the heuristic is MCTS's prior at the root). Importing
the package registers both.
"""

from __future__ import annotations

from warhorn.ai.heuristic import heuristic_prior, register_heuristic
from warhorn.ai.hooks import GameHooks, register_game_hooks
from warhorn.ai.nerath.player import NerathHeuristic
from warhorn.ai.nerath.search_hooks import ROLLOUT_DEPTH, evaluate, rollout_policy

register_heuristic("nerath", NerathHeuristic)
register_game_hooks(
    "nerath",
    GameHooks(
        evaluate=evaluate,
        rollout_policy=rollout_policy,
        rollout_depth=ROLLOUT_DEPTH,
        prior=heuristic_prior("nerath"),
    ),
)

__all__ = ["NerathHeuristic", "evaluate", "rollout_policy"]
