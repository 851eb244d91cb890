"""The ``heuristic`` agent kind: one name for every game's hand-written player.

A game's heuristic is a :class:`GameHeuristic`, built by the factory its plugin
names (``GamePlugin.heuristic``, imported on first use); a program or test may
also set one with :func:`register_heuristic`. The ``heuristic`` agent looks the
game up from the state it is asked about, so ``--seats human,heuristic`` works
for any game that has one.

A heuristic returns its action together with a one-line reason built from
what ``player`` may see (never a hidden fact of another player), which
:meth:`HeuristicAgent.explain` hands to narration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from warhorn.ai.agents import Agent, Budget, register_agent
from warhorn.ai.hooks import Prior, PriorFactory, RolloutPolicy
from warhorn.engine import Action, GameState, Rng, UnknownGameError, game_plugin
from warhorn.engine.plugin import resolve


@dataclass(frozen=True, slots=True)
class Choice:
    """An action and why it was chosen (one line, with numbers where they help)."""

    action: Action
    reason: str = ""


class GameHeuristic(Protocol):
    """A game's hand-written player."""

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        """A legal action for ``player`` (the pending player) and its reason."""
        ...


#: Builds a game's heuristic from the agent spec's parameters (text values);
#: raises ValueError naming an unknown or malformed parameter.
HeuristicFactory = Callable[[Mapping[str, str]], GameHeuristic]

_HEURISTICS: dict[str, HeuristicFactory] = {}


def register_heuristic(game_id: str, factory: HeuristicFactory) -> None:
    """Make ``factory`` the ``heuristic`` agent of game ``game_id`` (replaces an earlier one)."""
    _HEURISTICS[game_id] = factory


def heuristic_for(game_id: str, params: Mapping[str, str] | None = None) -> GameHeuristic:
    """The heuristic of ``game_id`` (registered here, else its plugin's); ValueError when it has none."""
    factory = _HEURISTICS.get(game_id)
    if factory is None:
        try:
            reference = game_plugin(game_id).heuristic
        except UnknownGameError:
            reference = None
        if reference is None:
            raise ValueError(
                f"game {game_id!r} has no heuristic agent (games with one: {games_with_heuristic()})"
            )
        factory = resolve(reference)
    return factory(params or {})


def games_with_heuristic() -> str:
    """The ids of the games that have a heuristic, comma-separated (for messages)."""
    from warhorn.engine import registered_plugins

    ids = set(_HEURISTICS) | {gid for gid, p in registered_plugins().items() if p.heuristic is not None}
    return ", ".join(sorted(ids)) or "none"


#: The share of the prior that :func:`heuristic_prior` gives the heuristic's own choice.
HEURISTIC_PRIOR_SHARE = 0.75


def heuristic_prior(
    game_id: str, share: float = HEURISTIC_PRIOR_SHARE, params: Mapping[str, str] | None = None
) -> PriorFactory:
    """A policy prior for MCTS from the game's heuristic: ``share`` on its choice, the rest evenly.

    Each prior made by the factory holds its own heuristic, so a heuristic that
    plans ahead (Nerath plans a turn and plays the plan) keeps its plan from one
    root to the next, as it would when playing. With one legal action the
    heuristic is not asked.
    """
    if not 0.0 < share <= 1.0:
        raise ValueError(f"the heuristic's share of the prior must be in (0, 1], got {share}")

    def make() -> Prior:
        heuristic = heuristic_for(game_id, params)

        def prior(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
            n = len(legal)
            if n == 1:
                return [1.0]
            decision = state.pending()
            assert decision is not None, "a prior is asked only where a decision is pending"
            picked = heuristic.choose(state, decision.player, rng).action
            if picked not in legal:
                return [1.0] * n
            rest = (1.0 - share) / (n - 1)
            return [share if action == picked else rest for action in legal]

        return prior

    return make


def heuristic_rollout(heuristic: GameHeuristic) -> RolloutPolicy:
    """A rollout policy that plays ``heuristic``'s choice for whoever is to move.

    The heuristic must read only what the deciding seat sees, and draw its random choices (if
    any) from the generator it is given: search calls the policy on determinized states.
    """

    def policy(state: GameState, rng: Rng) -> Action:
        decision = state.pending()
        assert decision is not None, "a rollout asks only where a decision is pending"
        return heuristic.choose(state, decision.player, rng).action

    return policy


class HeuristicAgent:
    """Plays each game with that game's registered heuristic and remembers its last reason."""

    name = "heuristic"

    def __init__(self, params: Mapping[str, str] | None = None) -> None:
        self._params = dict(params or {})
        self._by_game: dict[str, GameHeuristic] = {}
        self._reason = ""

    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        game_id = state.spec.id
        heuristic = self._by_game.get(game_id)
        if heuristic is None:
            heuristic = self._by_game[game_id] = heuristic_for(game_id, self._params)
        choice = heuristic.choose(state, player, rng)
        self._reason = choice.reason
        return choice.action

    def explain(self) -> str:
        return self._reason


def _make_heuristic(params: Mapping[str, str], budget: Budget | None) -> Agent:
    return HeuristicAgent(params)


register_agent("heuristic", _make_heuristic, replace=True)
