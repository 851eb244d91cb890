"""One generic information-set Monte Carlo tree search for every registered game.

The search is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012)
run open-loop:

- every iteration starts from ``state.determinize(player, rng)``: a state the
  deciding player cannot tell from the real one, hidden facts resampled; its
  random generator is then replaced by a fresh one from the search's own
  generator, so future dice and draws are unknown too (even for games whose
  ``determinize`` keeps the generator). The real state is never read beyond
  its pending decision and the deciding player's legal actions;
- a tree node stands for a sequence of actions, not for a state: chance
  outcomes and hidden facts differ from one iteration to the next, so the
  player to move and the legal actions at a node may differ too. Each node
  keeps the summed reward of *every* player; whoever is to move in the
  current iteration (``pending().player``, any player, not only the one whose
  turn it is) picks the child that is best for them;
- selection is UCB1 with *availability* counts: a child's exploration term
  uses how often its action was legal, not how often its parent was visited;
- with a policy prior (the game's ``prior`` hook, e.g. its heuristic), the
  root selects by PUCT instead (the rule of AlphaZero, Silver et al. 2017):
  ``mean + c * prior * sqrt(root visits) / (1 + visits)``, an unvisited action
  counting at the root's mean. The first iteration follows the prior's
  favourite, and an action the prior rates low is tried only once the
  favourite's mean falls behind; a small budget plays like the prior and a
  larger one departs from it where the search finds better. Below the root,
  selection stays UCB1 (a prior there would be asked once per new node);
- with a budget in iterations, a root whose prior is so concentrated that
  the budget cannot overturn it is not searched (see :func:`prior_decides`):
  the prior's favourite is taken at once, the same action the search would
  have chosen, without its cost (``skip=False`` searches anyway);
- a leaf is valued by a rollout (uniform random, or the game's policy) to the
  end or to a depth limit, then the game's ``reward`` — or, where the rollout
  stops early, the game's ``evaluate`` (neutral ``1/n`` when there is none).

Game knowledge plugs in through :class:`warhorn.ai.hooks.GameHooks`. The
clock is read only here (the rules core has none); budgets in iterations give
reproducible searches.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from warhorn.ai.agents import Agent, Budget, register_agent
from warhorn.ai.hooks import (
    Evaluator,
    LeafValues,
    Prior,
    PriorFactory,
    RewardFunction,
    RolloutPolicy,
    game_hooks,
    random_rollout,
    rank_reward,
    shared_win_reward,
    win_share_reward,
)
from warhorn.engine import Action, GameState, Rng

DEFAULT_ITERATIONS = 500
DEFAULT_EXPLORATION = 0.7
#: Rollouts without a depth of their own stop after this many actions (or the game's limit, if lower).
DEFAULT_ROLLOUT_LIMIT = 1_000

REWARDS: dict[str, RewardFunction] = {
    "win-share": win_share_reward,
    "shared-win": shared_win_reward,
    "rank": rank_reward,
}


class _Node:
    """Statistics of one action sequence from the root."""

    __slots__ = ("_by_identity", "available", "children", "priors", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.children: dict[Action, _Node] = {}
        #: The policy prior over this node's actions (PUCT selection), or None (UCB1).
        self.priors: dict[Action, float] | None = None
        #: ``children`` by the identity of an action object already looked up (with the object,
        #: which keeps it alive so its id stays its own): games hand out the same action objects
        #: from one listing to the next, and hashing an action (a dataclass) costs far more than
        #: hashing its id. Only a shortcut: an equal action, new or not, finds the same child.
        self._by_identity: dict[int, tuple[Action, _Node]] = {}

    def child(self, action: Action) -> _Node | None:
        """The child of ``action`` (or of an action equal to it), None if there is none yet."""
        known = self._by_identity.get(id(action))
        if known is not None:
            return known[1]
        found = self.children.get(action)
        if found is not None:
            self._by_identity[id(action)] = (action, found)
        return found

    def add_child(self, action: Action, players: int) -> _Node:
        """A new, unvisited child for ``action``."""
        made = self.children[action] = _Node(players)
        self._by_identity[id(action)] = (action, made)
        return made


@dataclass(frozen=True, slots=True)
class ActionStats:
    """How one root action fared: visits, the deciding player's mean reward, its prior (nan: none)."""

    action: Action
    visits: int
    mean: float
    prior: float = math.nan


@dataclass(frozen=True, slots=True)
class SearchReport:
    """The last search: root actions best first, iterations run and time taken.

    ``skipped``: the prior decided alone (no iterations were run), because the
    budget could not have overturned its favourite; ``budget`` is the
    iteration budget that was judged.
    """

    player: int
    iterations: int
    seconds: float
    actions: tuple[ActionStats, ...]
    skipped: bool = False
    budget: int | None = None

    @property
    def chosen(self) -> ActionStats:
        return self.actions[0]


class MCTSAgent:
    """Information-set MCTS with a per-decision budget.

    ``evaluate``, ``rollout_policy``, ``reward``, ``rollout_depth`` and
    ``prior`` default to the hooks registered for the game being played, then
    to uniform random rollouts to the end (at most
    :data:`DEFAULT_ROLLOUT_LIMIT` actions; a rollout cut short without an
    evaluator counts as neutral), :func:`win_share_reward` and no prior.
    ``use_prior=False`` ignores a registered prior (plain UCB1 everywhere).
    ``skip=False`` searches even where the prior alone decides (see
    :func:`prior_decides`; same choice, more time).
    """

    name = "mcts"

    def __init__(
        self,
        budget: Budget | None = None,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        evaluate: Evaluator | None = None,
        rollout_policy: RolloutPolicy | None = None,
        reward: RewardFunction | None = None,
        rollout_depth: int | None = None,
        prior: Prior | None = None,
        use_prior: bool = True,
        skip: bool = True,
    ) -> None:
        if budget is None or (budget.iterations is None and budget.seconds is None):
            budget = Budget(iterations=DEFAULT_ITERATIONS)
        if exploration < 0:
            raise ValueError(f"exploration constant c must be >= 0, got {exploration}")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"rollout depth must be >= 0, got {rollout_depth}")
        self.budget = budget
        self.exploration = exploration
        self.evaluate = evaluate
        self.rollout_policy = rollout_policy
        self.reward = reward
        self.rollout_depth = rollout_depth
        self.prior = prior
        self.use_prior = use_prior
        self.skip = skip
        #: Priors made from the games' hooks, one per game id, kept between decisions.
        self._priors: dict[str, Prior] = {}
        self.last: SearchReport | None = None
        self._only_action = False
        self._hidden = False

    # -- the agent interface ---------------------------------------------------
    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        decision = state.pending()
        if decision is None:
            raise ValueError("the game is over: there is nothing to choose")
        if decision.player != player:
            raise ValueError(f"player {player} is not the one to decide (player {decision.player} is)")
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        search_rng = Rng(rng.next_u64())  # one draw from the caller's generator, whatever the budget
        self._hidden = state.spec.hidden_information
        if len(legal) == 1:
            self._only_action = True
            self.last = SearchReport(player, 0, 0.0, (ActionStats(legal[0], 0, math.nan),))
            return legal[0]
        self._only_action = False
        self.last = self.search(state, player, search_rng, legal)
        return self.last.chosen.action

    def explain(self) -> str:
        report = self.last
        if report is None:
            return ""
        if self._hidden:
            # The figures and the runners-up come from positions dealt around this player's own
            # hidden cards (and may name plays of them); being alone also tells what it holds.
            return f"{report.chosen.action.notation()}: chosen by information-set search"
        if self._only_action:
            return f"{report.chosen.action.notation()}: the only legal action"
        best = report.chosen
        if report.skipped:
            runner_up = max((_or_zero(a.prior) for a in report.actions[1:]), default=0.0)
            return (
                f"{best.action.notation()}: prior's choice, search skipped: prior {_percent(best.prior)} "
                f"against at most {_percent_fine(runner_up)} for any other action, so "
                f"{report.budget} iterations could not overturn it"
            )
        first = (
            f"{best.action.notation()}: {best.visits}/{report.iterations} visits, "
            f"{_percent(best.mean)} expected win rate"
        )
        if not math.isnan(best.prior):
            first += f", prior {_percent(best.prior)}"
        parts = [first]
        others = [a for a in report.actions[1:3] if a.visits > 0]
        if others:
            listed = ", ".join(f"{a.action.notation()} {_percent(a.mean)} ({a.visits})" for a in others)
            parts.append(f"next best {listed}")
        parts.append(f"{report.iterations} determinized iterations")
        return "; ".join(parts)

    # -- the search ------------------------------------------------------------
    def search(
        self, state: GameState, player: int, rng: Rng, legal: list[Action] | None = None
    ) -> SearchReport:
        """Search from ``state`` for ``player`` within the budget; root actions best first."""
        hooks = game_hooks(state.spec.id)
        leaf_values = _leaf_values(self.evaluate, hooks.evaluate_all, hooks.evaluate)
        policy = self.rollout_policy or hooks.rollout_policy or random_rollout
        reward = self.reward or hooks.reward or win_share_reward
        depth = self.rollout_depth if self.rollout_depth is not None else hooks.rollout_depth
        limit = depth if depth is not None else min(state.spec.max_actions, DEFAULT_ROLLOUT_LIMIT)
        players = state.num_players
        root = _Node(players)
        legal = state.legal_actions() if legal is None else legal
        prior = self._prior_for(state.spec.id, hooks.prior)
        if prior is not None:
            # Asked on a determinization, like everything else the search looks at.
            root.priors = _normalised(legal, prior(state.determinize(player, rng), legal, rng))

        max_iterations = self.budget.iterations
        if (
            self.skip
            and root.priors is not None
            and max_iterations is not None
            and prior_decides([root.priors[a] for a in legal], max_iterations, self.exploration)
        ):
            stats = [ActionStats(action, 0, math.nan, root.priors[action]) for action in legal]
            # The favourite (the first action of highest prior) first, then by prior.
            order = sorted(range(len(stats)), key=lambda i: (-stats[i].prior, i))
            return SearchReport(
                player, 0, 0.0, tuple(stats[i] for i in order), skipped=True, budget=max_iterations
            )
        started = time.perf_counter()
        deadline = started + self.budget.seconds if self.budget.seconds is not None else None
        done = 0
        while True:
            self._iterate(root, state, player, rng, players, leaf_values, policy, reward, limit)
            done += 1
            if max_iterations is not None and done >= max_iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        elapsed = time.perf_counter() - started

        stats = []
        priors = root.priors or {}
        for action in legal:
            child = root.children.get(action)
            weight = priors.get(action, math.nan)
            if child is None or child.visits == 0:
                stats.append(ActionStats(action, 0, math.nan, weight))
            else:
                stats.append(ActionStats(action, child.visits, child.totals[player] / child.visits, weight))
        # Most visits first; on equal visits the prior's favourite (the search found nothing
        # better), then the higher mean, then the game's order.
        order = sorted(
            range(len(stats)),
            key=lambda i: (-stats[i].visits, -_or_zero(stats[i].prior), -_or_zero(stats[i].mean), i),
        )
        return SearchReport(player, done, elapsed, tuple(stats[i] for i in order))

    def _prior_for(self, game_id: str, factory: PriorFactory | None) -> Prior | None:
        if not self.use_prior:
            return None
        if self.prior is not None:
            return self.prior
        if factory is None:
            return None
        made = self._priors.get(game_id)
        if made is None:
            made = self._priors[game_id] = factory()
        return made

    def _iterate(
        self,
        root: _Node,
        real: GameState,
        player: int,
        rng: Rng,
        players: int,
        leaf_values: LeafValues | None,
        policy: RolloutPolicy,
        reward: RewardFunction,
        limit: int,
    ) -> None:
        state = real.determinize(player, rng)
        state.rng = Rng(rng.next_u64())
        node = root
        path = [root]
        c = self.exploration
        # Selection and expansion. The determinized state is private to this
        # iteration, so actions (taken from its own legal list) are applied in place.
        while True:
            decision = state.pending()
            if decision is None:
                break
            legal = state.legal_actions()
            mover = decision.player
            if node.priors is not None:
                action = self._puct(node, legal, mover, c)
                child = node.child(action)
                state._apply_in_place(action)
                if child is None:
                    child = node.add_child(action, players)
                child.available += 1
                path.append(child)
                if child.visits == 0:
                    break
                node = child
                continue
            untried: list[Action] = []
            tried: list[_Node] = []  # the children of legal's actions, in its order (when all are tried)
            for action in legal:
                found = node.child(action)
                if found is None:
                    untried.append(action)
                else:
                    found.available += 1
                    tried.append(found)
            if untried:
                action = untried[rng.below(len(untried))]
                child = node.add_child(action, players)
                child.available = 1
                state._apply_in_place(action)
                path.append(child)
                break
            best_action = legal[0]
            best_child = tried[0]
            best_score = -math.inf
            for action, child in zip(legal, tried, strict=True):
                score = child.totals[mover] / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best_score = score
                    best_action = action
                    best_child = child
            state._apply_in_place(best_action)
            node = best_child
            path.append(node)

        values = self._value(state, players, rng, leaf_values, policy, reward, limit)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for p in range(players):
                totals[p] += values[p]

    @staticmethod
    def _puct(node: _Node, legal: list[Action], mover: int, c: float) -> Action:
        """The action with the highest PUCT score; an unvisited one counts at the node's mean."""
        priors = node.priors
        assert priors is not None
        first = node.totals[mover] / node.visits if node.visits else 0.0
        scale = c * math.sqrt(max(1, node.visits))
        best_action = legal[0]
        best = (-math.inf, -math.inf)
        for action in legal:
            weight = priors.get(action, 0.0)
            child = node.child(action)
            if child is None or child.visits == 0:
                score = first + scale * weight
            else:
                score = child.totals[mover] / child.visits + scale * weight / (1 + child.visits)
            if (score, weight) > best:
                best = (score, weight)
                best_action = action
        return best_action

    @staticmethod
    def _value(
        state: GameState,
        players: int,
        rng: Rng,
        leaf_values: LeafValues | None,
        policy: RolloutPolicy,
        reward: RewardFunction,
        limit: int,
    ) -> list[float]:
        steps = 0
        while steps < limit and state.pending() is not None:
            state._apply_in_place(policy(state, rng))
            steps += 1
        results = state.results()
        if results is not None:
            return [reward(results, p) for p in range(players)]
        if leaf_values is not None:
            return [min(1.0, max(0.0, value)) for value in leaf_values(state)]
        return [1.0 / players] * players


def _leaf_values(
    agents: Evaluator | None, games_all: LeafValues | None, games: Evaluator | None
) -> LeafValues | None:
    """Every player's leaf value at once: the agent's own evaluator asked per player, else the
    game's ``evaluate_all``, else its ``evaluate`` asked per player (None: no evaluator)."""
    evaluate = agents
    if evaluate is None:
        if games_all is not None:
            return games_all
        evaluate = games
    if evaluate is None:
        return None
    per_player = evaluate

    def each_player(state: GameState) -> list[float]:
        return [per_player(state, p) for p in range(state.num_players)]

    return each_player


def prior_decides(priors: Sequence[float], iterations: int, exploration: float) -> bool:
    """Whether a root searched by PUCT within ``iterations`` must end on the prior's favourite.

    ``priors`` are the normalised root priors, the favourite being the first of
    the highest, ``p``; ``q`` is the highest of the others. While only the
    favourite has been visited, the root's mean is the favourite's mean, so
    after ``t`` iterations an unvisited action scores ``mean + c q sqrt(t)``
    against the favourite's ``mean + c p sqrt(t) / (1 + t)``: whatever the
    rewards, the favourite takes every iteration while ``q (1 + t) <= p``,
    that is the first ``T = floor(p / q)`` ones (all of them with ``q = 0`` or
    ``c = 0``). The other actions then share at most ``iterations - T``
    visits, and the search chooses the most visited action, the higher prior
    on equal visits. So the favourite is chosen whatever happens when
    ``iterations - T < T``, or ``iterations - T == T`` with ``p > q``.

    Conservative at the boundary: where ``p / q`` is a whole number (within
    rounding), ``T`` is taken one lower, since the search breaks that tie by
    floating-point arithmetic.
    """
    if iterations < 1 or not priors:
        raise ValueError("need at least one iteration and one prior weight")
    best = max(range(len(priors)), key=lambda i: (priors[i], -i))
    p = priors[best]
    q = max((w for i, w in enumerate(priors) if i != best), default=0.0)
    if q <= 0.0 or exploration == 0.0:
        return True
    favourite = max(1, min(iterations, math.floor(p / q * (1 - 1e-9))))
    others = iterations - favourite
    return others < favourite or (others == favourite and p > q)


def _normalised(legal: Sequence[Action], weights: Sequence[float]) -> dict[Action, float]:
    if len(weights) != len(legal):
        raise ValueError(f"the prior gave {len(weights)} weights for {len(legal)} legal actions")
    if any(not w >= 0 or math.isinf(w) for w in weights):
        raise ValueError("prior weights must be finite and non-negative")
    total = sum(weights)
    if total <= 0:
        raise ValueError("prior weights must not all be zero")
    return {action: w / total for action, w in zip(legal, weights, strict=True)}


def _or_zero(value: float) -> float:
    return 0.0 if math.isnan(value) else value


def _percent(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.0%}"


def _percent_fine(value: float) -> str:
    """Like :func:`_percent`, with one decimal below 10 % (small priors would all read 0% or 1%)."""
    if math.isnan(value) or value >= 0.1:
        return _percent(value)
    return f"{value:.1%}"


def _make_mcts(params: Mapping[str, str], budget: Budget | None) -> Agent:
    """``mcts[:iterations=N][:seconds=S][:c=C][:depth=D][:reward=…][:prior=0|1][:skip=0|1]``."""
    known = {"iterations", "seconds", "c", "depth", "reward", "prior", "skip"}
    unknown = set(params) - known
    if unknown:
        raise ValueError(
            f"unknown mcts parameter(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
        )

    def number(name: str, kind: type[int] | type[float]) -> float | None:
        if name not in params:
            return None
        try:
            return kind(params[name])
        except ValueError:
            raise ValueError(
                f"mcts parameter {name} must be a {kind.__name__}, got {params[name]!r}"
            ) from None

    iterations = number("iterations", int)
    seconds = number("seconds", float)
    if iterations is not None or seconds is not None:
        budget = Budget(None if iterations is None else int(iterations), seconds)
    exploration = number("c", float)
    depth = number("depth", int)
    reward: RewardFunction | None = None
    if "reward" in params:
        try:
            reward = REWARDS[params["reward"]]
        except KeyError:
            raise ValueError(
                f"mcts reward must be one of {', '.join(REWARDS)}, got {params['reward']!r}"
            ) from None
    use_prior = params.get("prior", "1")
    if use_prior not in ("0", "1"):
        raise ValueError(f"mcts parameter prior must be 0 or 1, got {use_prior!r}")
    skip = params.get("skip", "1")
    if skip not in ("0", "1"):
        raise ValueError(f"mcts parameter skip must be 0 or 1, got {skip!r}")
    return MCTSAgent(
        budget,
        exploration=DEFAULT_EXPLORATION if exploration is None else exploration,
        rollout_depth=None if depth is None else int(depth),
        reward=reward,
        use_prior=use_prior == "1",
        skip=skip == "1",
    )


register_agent("mcts", _make_mcts)
