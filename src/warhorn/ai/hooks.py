"""Per-game knowledge that generic search plugs in: rewards, leaf values, rollout policies.

The search in :mod:`warhorn.ai.mcts` knows games only through the engine
contract. A game's AI improves it through :class:`GameHooks`,
named by the game's plugin (``GamePlugin.search_hooks``, a ``"module:attribute"``
reference imported on first use, so the rules core never imports ``warhorn.ai``).
A program or test may also set a game's hooks itself::

    register_game_hooks("nim-test", GameHooks(evaluate=nim_value, rollout_policy=nim_greedy))

Contracts:

- ``evaluate(state, player) -> float`` in ``[0, 1]``: the expected reward of
  ``player`` from a non-final ``state`` on the same scale as ``reward``
  (with the default reward, roughly the chance to win). It must use only what
  the state holds; search calls it on determinized states.
- ``evaluate_all(state) -> values``: optional, the same leaf value for every
  player at once (one per player, in player order, each equal to
  ``evaluate(state, player)``); search asks it instead of ``evaluate`` once
  per player, for games whose reading of the board is shared by all players
  (Nerath's leaf value weighs every kingdom's strength for each player).
- ``rollout_policy(state, rng) -> Action``: a legal action for
  ``state.pending().player``, random choices drawn from ``rng`` only.
- ``reward(results, player) -> float`` in ``[0, 1]``: what a finished game is
  worth to ``player``.
- ``prior() -> Prior``, where ``Prior`` is ``(state, legal, rng) -> weights``:
  a policy prior over the legal actions of the player to move (one
  non-negative weight per action of ``legal``, in order, not all zero; the
  search normalises them). The hook is a factory: the search makes one prior
  per agent and game and keeps it, so a prior may keep state from one decision
  to the next (the Nerath heuristic keeps its turn plan). It is asked at the
  root of each search, on a determinized state, with the search's generator.
  :func:`warhorn.ai.heuristic.heuristic_prior` builds one from a game's
  registered heuristic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from warhorn.engine import Action, GameState, Results, Rng, UnknownGameError, game_plugin
from warhorn.engine.plugin import resolve

Evaluator = Callable[[GameState, int], float]
LeafValues = Callable[[GameState], Sequence[float]]
RolloutPolicy = Callable[[GameState, Rng], Action]
RewardFunction = Callable[[Results, int], float]
Prior = Callable[[GameState, Sequence[Action], Rng], Sequence[float]]
PriorFactory = Callable[[], Prior]


def win_share_reward(results: Results, player: int) -> float:
    """1 for the only winner; tied winners split 1; every other player gets 0."""
    if player not in results.winners:
        return 0.0
    return 1.0 / len(results.winners)


def shared_win_reward(results: Results, player: int) -> float:
    """1 for every winner (cooperative games, where the whole team wins or loses), else 0."""
    return 1.0 if player in results.winners else 0.0


def rank_reward(results: Results, player: int) -> float:
    """The share of the other players ranked below ``player``, ties counting half (0 to 1).

    Falls back to :func:`win_share_reward` when the results carry no ranking.
    """
    groups = results.ranking
    if not groups:
        return win_share_reward(results, player)
    total = sum(len(g) for g in groups)
    if total <= 1:
        return 1.0
    below = 0.0
    for index, group in enumerate(groups):
        if player in group:
            below += sum(len(g) for g in groups[index + 1 :]) + 0.5 * (len(group) - 1)
            return below / (total - 1)
    return 0.0


def random_rollout(state: GameState, rng: Rng) -> Action:
    """Uniform over the legal actions."""
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


@dataclass(frozen=True, slots=True)
class GameHooks:
    """What a game adds to generic search; every field is optional.

    ``rollout_depth``: actions a rollout may take before it stops and asks
    ``evaluate`` (``None``: play to the end, bounded by the game's
    ``max_actions``; ``0`` with an evaluator: pure leaf evaluation).
    ``prior``: makes the policy prior that steers the search at its root
    (PUCT selection there instead of UCB1); see the module docs.
    ``evaluate_all``: ``evaluate`` for every player in one call (see the module docs).
    """

    evaluate: Evaluator | None = None
    rollout_policy: RolloutPolicy | None = None
    reward: RewardFunction | None = None
    rollout_depth: int | None = None
    prior: PriorFactory | None = None
    evaluate_all: LeafValues | None = None


_HOOKS: dict[str, GameHooks] = {}


def register_game_hooks(game_id: str, hooks: GameHooks) -> None:
    """Use ``hooks`` whenever search plays game ``game_id`` (replaces earlier hooks)."""
    _HOOKS[game_id] = hooks


def unregister_game_hooks(game_id: str) -> None:
    _HOOKS.pop(game_id, None)


def game_hooks(game_id: str) -> GameHooks:
    """The hooks of ``game_id``: those registered here, else its plugin's, else empty hooks."""
    hooks = _HOOKS.get(game_id)
    if hooks is not None:
        return hooks
    try:
        reference = game_plugin(game_id).search_hooks
    except UnknownGameError:
        reference = None
    hooks = GameHooks() if reference is None else resolve(reference)
    if not isinstance(hooks, GameHooks):
        raise TypeError(f"search hooks {reference!r} of game {game_id!r} are not GameHooks: {hooks!r}")
    return hooks
