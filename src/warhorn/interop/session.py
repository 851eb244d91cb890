"""One game played token by token: what every wrapper (PettingZoo, Gymnasium, OpenSpiel) shares.

A decision of the game (``state.pending()``) belongs to the player it asks —
not only the player whose turn it is: a defender choosing casualties, a
player answering a card window. That player chooses the decision's action one
token at a time (:class:`~warhorn.interop.action_index.TokenChooser`); the
game moves on when the action is determined.

The observation of a player is one float32 vector:

- ``[0, VIEW_SIZE)``: the player's view, hashed (:mod:`warhorn.interop.observation`);
- ``[VIEW_SIZE, VIEW_SIZE + V)``: how many times each token was chosen so far
  in the pending action (V = the action index's size; zeros for a player who
  is not choosing);
- ``[VIEW_SIZE + V, VIEW_SIZE + 2V)``: the token chosen last (one-hot).

Rewards (:func:`seat_rewards`): a winner gets 1; a player in the last group of
the ranking — or every player when nobody won (a cooperative game lost) —
gets −1; anyone ranked in between gets 0. A cooperative game that is won has
every seat among the winners, so every seat gets the team's result.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Results
from warhorn.engine.registry import game_spec, load_game
from warhorn.engine.state import GameState
from warhorn.interop.action_index import ActionIndex, TokenChooser
from warhorn.interop.observation import VIEW_SIZE, encode_view


def seat_rewards(results: Results, num_players: int) -> list[float]:
    """Each seat's reward from a finished game's results (see the module text)."""
    last = set(results.ranking[-1]) if len(results.ranking) > 1 else set()
    out = []
    for player in range(num_players):
        if player in results.winners:
            out.append(1.0)
        elif not results.winners or player in last:
            out.append(-1.0)
        else:
            out.append(0.0)
    return out


class TokenSession:
    """A game of ``game`` with ``options`` whose actions are chosen token by token."""

    def __init__(self, game: str, options: Mapping[str, Any] | None = None, content: Any = None) -> None:
        self.game = game
        self.options = dict(options or {})
        self.content = content
        self.spec = game_spec(game)
        self.index = ActionIndex.for_game(game, self.options)
        self.num_players = load_game(game, seed=0, content=content, **self.options).num_players
        self.observation_size = VIEW_SIZE + 2 * self.index.size
        self.state: GameState = load_game(game, seed=0, content=content, **self.options)
        self.chooser: TokenChooser | None = None
        self._views: dict[int, dict[str, Any]] = {}
        self._begin_decision()

    def __deepcopy__(self, memo: dict[int, Any]) -> TokenSession:
        """An independent game: the state and the choice so far copied, the (immutable) index shared."""
        twin = copy.copy(self)
        twin.state = self.state.copy()
        twin._views = dict(self._views)
        if self.chooser is not None:
            twin.chooser = copy.copy(self.chooser)
            twin.chooser.chosen = list(self.chooser.chosen)
        return twin

    def reset(self, seed: int) -> None:
        """Start a new game with ``seed``."""
        self.state = load_game(self.game, seed=seed, content=self.content, **self.options)
        self._begin_decision()

    def _begin_decision(self) -> None:
        self._views = {}
        self.chooser = (
            None if self.state.is_terminal else TokenChooser(self.index, self.state.legal_actions())
        )

    @property
    def is_terminal(self) -> bool:
        return self.state.is_terminal

    @property
    def acting_player(self) -> int | None:
        """The player the pending decision asks (None once the game is over)."""
        decision = self.state.pending()
        return None if decision is None else decision.player

    def view(self, player: int) -> dict[str, Any]:
        """``player``'s view (cached until the state changes)."""
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self.state.view(player)
        return view

    def mask(self, player: int) -> npt.NDArray[np.int8]:
        """The tokens ``player`` may choose next (all zeros when the pending decision is not theirs)."""
        if self.chooser is None or player != self.acting_player:
            return np.zeros(self.index.size, dtype=np.int8)
        return self.chooser.mask()

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """``player``'s observation vector (layout in the module text)."""
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[:VIEW_SIZE] = encode_view(self.view(player))
        if self.chooser is not None and player == self.acting_player and self.chooser.chosen:
            size = self.index.size
            np.add.at(out, [VIEW_SIZE + token for token in self.chooser.chosen], 1.0)
            out[VIEW_SIZE + size + self.chooser.chosen[-1]] = 1.0
        return out

    def choose(self, token: int) -> Action | None:
        """The acting player takes ``token``; the action applied once it is determined, else None."""
        if self.chooser is None:
            raise ValueError("the game is over: no token can be chosen")
        action = self.chooser.choose(token)
        if action is not None:
            self.state, _ = self.state.apply(action)
            self._begin_decision()
        return action

    def apply(self, action: Action) -> None:
        """Carry out a whole legal action for the acting player (a built-in agent's choice)."""
        self.state, _ = self.state.apply(action)
        self._begin_decision()

    def rewards(self) -> list[float]:
        """Each seat's reward: from the results once the game is over, else zeros."""
        results = self.state.results()
        if results is None:
            return [0.0] * self.num_players
        return seat_rewards(results, self.num_players)
