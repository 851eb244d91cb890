"""What MCTS needs to play Nerath sensibly: a leaf value and a cheap rollout policy.

The leaf value turns each player's VP, treasury, income and pieces on the
board (all public) into a gold-like strength and gives each player its
share through a softmax, so a clear lead in VP reads close to a win. The
rollout policy mostly ends phases (random movement is slow and aimless),
takes the cheapest casualties and fights on.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from warhorn.ai.heuristic import heuristic_prior
from warhorn.ai.hooks import GameHooks
from warhorn.ai.nerath.battle_tactics import choose_damage
from warhorn.ai.nerath.situation import VP_WORTH
from warhorn.engine import Action, GameState, Rng
from warhorn.games.nerath.actions import ContinueBattle, Pass
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import economy

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Softmax temperature in strength units (about two VP).
TEMPERATURE = 8.0
#: Actions a rollout takes before the leaf value is asked.
ROLLOUT_DEPTH = 12


#: What one piece of each type is worth to the leaf value (its cost in gold).
_PIECE_COST = {ptype: stats.cost for ptype, stats in PIECES.items()}


def kingdom_strengths(s: NerathState) -> list[float]:
    """Each kingdom's gold-like strength: VP, treasury, income and the cost of its pieces."""
    material = [0, 0, 0, 0]
    # pieces by (kingdom, type) from the index: one count per type, not one look-up per piece
    for (k, ptype), uids in s.index().typed.items():
        cost = _PIECE_COST.get(ptype)
        if cost is not None and 0 <= k < 4:
            material[k] += cost * len(uids)
    incomes = economy.incomes(s)
    d = s.d
    return [d.vp[k] * VP_WORTH + 0.5 * d.gold[k] + 1.5 * incomes[k] + 0.4 * material[k] for k in range(4)]


def leaf_values(state: GameState) -> list[float]:
    """Each player's share of all players' strength (softmax), in [0, 1], in player order."""
    s = cast("NerathState", state)
    per_player: dict[int, float] = {}
    for k, strength in enumerate(kingdom_strengths(s)):
        p = s.player_of[k]
        per_player[p] = per_player.get(p, 0.0) + strength
    top = max(per_player.values())
    weights = {p: math.exp((v - top) / TEMPERATURE) for p, v in per_player.items()}
    total = sum(weights.values())
    return [weights.get(p, 0.0) / total for p in range(s.num_players)]


def evaluate(state: GameState, player: int) -> float:
    """The player's share of all players' strength (softmax), in [0, 1]."""
    return leaf_values(state)[player]


#: The actions without fields the rollout policy plays most (values: one of each serves every rollout).
_PASS = Pass()
_CONTINUE = ContinueBattle()


def rollout_policy(state: GameState, rng: Rng) -> Action:
    """A cheap, mostly phase-ending policy for rollouts."""
    s = cast("NerathState", state)
    pending = s.pending()
    assert pending is not None
    kind = pending.kind
    if kind in ("movement", "reinforcements", "card_window") and rng.below(10) < 7:
        return _PASS
    if kind == "reposition" and s.is_legal(_PASS):
        return _PASS
    if kind == "continue_or_retreat" and s.is_legal(_CONTINUE):
        return _CONTINUE
    legal = s.legal_actions()
    if kind == "damage":
        return choose_damage(s, pending.player, legal).action
    return legal[rng.below(len(legal))]


#: What the game's plugin gives search: this leaf value (one player's, every player's) and rollout
#: policy, and the heuristic as the prior.
HOOKS = GameHooks(
    evaluate=evaluate,
    evaluate_all=leaf_values,
    rollout_policy=rollout_policy,
    rollout_depth=ROLLOUT_DEPTH,
    prior=heuristic_prior("nerath"),
)
