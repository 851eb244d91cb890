"""The Conquest of Nerath AI: the ``heuristic`` agent for game ``nerath`` and MCTS hooks.

Modules: :mod:`.knowledge` (piece strengths, board distances),
:mod:`.odds_cache` (memoised exact battle odds), :mod:`.situation` (a
kingdom's reading of the public board: values, threats), :mod:`.attack_planning`
(the movement plan), :mod:`.battle_tactics` (battle and reposition decisions),
:mod:`.reinforcement` (buying and placing), :mod:`.card_play` (card windows),
:mod:`.player` (the heuristic) and :mod:`.search_hooks` (leaf value and
rollout policy for MCTS; the heuristic is MCTS's prior at the root). The game's
plugin (``warhorn.games.nerath.plugin``) names both.
"""

from __future__ import annotations

from warhorn.ai.nerath.player import NerathHeuristic
from warhorn.ai.nerath.search_hooks import HOOKS, evaluate, rollout_policy

__all__ = ["HOOKS", "NerathHeuristic", "evaluate", "rollout_policy"]
