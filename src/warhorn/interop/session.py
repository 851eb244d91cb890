"""One game played action by action or token by token: what every wrapper (PettingZoo, Gymnasium,
OpenSpiel) shares.

A decision of the game (``state.pending()``) belongs to the player it asks —
not only the player whose turn it is: a defender choosing casualties, a
player answering a card window. That player chooses the decision's action in
one step where the game has a flat action index
(:class:`~warhorn.interop.action_index.FlatChooser`), else one token at a time
(:class:`~warhorn.interop.action_index.TokenChooser`); the game moves on when
the action is determined.

With a flat index the observation of a player is what it sees, from the game's
observation encoder (:mod:`warhorn.interop.observation`): E float32 numbers.
With tokens it is one float32 vector of E + 2 × V numbers:

- ``[0, E)``: what the player sees, from the game's observation encoder (or its
  view hashed, for a game without one: :mod:`warhorn.interop.observation`);
- ``[E, E + V)``: how many times each token was chosen so far in the pending
  action (V = the action index's size; zeros for a player who is not choosing);
- ``[E + V, E + 2V)``: the token chosen last (one-hot).

Rewards (:func:`seat_rewards`): a winner gets 1; a player in the last group of
the ranking — or every player when nobody won (a cooperative game lost) —
gets −1; anyone ranked in between gets 0. A cooperative game that is won has
every seat among the winners, so every seat gets the team's result.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Results
from warhorn.engine.registry import game_spec, load_game
from warhorn.engine.state import GameState
from warhorn.interop.action_index import (
    AnyActionIndex,
    AnyChooser,
    FlatActionIndex,
    action_index_for,
    chooser_for,
)
from warhorn.interop.observation import ObservationEncoder, observation_encoder


def observation_vector(
    view: npt.NDArray[np.float32], chosen: Sequence[int], index_size: int
) -> npt.NDArray[np.float32]:
    """The observation of a player whose encoded view is ``view`` and who chose ``chosen`` so far in
    the pending action (empty for a player not choosing): the layout of the module text."""
    seen = len(view)
    out = np.zeros(seen + 2 * index_size, dtype=np.float32)
    out[:seen] = view
    if chosen:
        for token in chosen:
            out[seen + token] += 1.0
        out[seen + index_size + chosen[-1]] = 1.0
    return out


def observation_of(
    view: npt.NDArray[np.float32], chosen: Sequence[int], index: AnyActionIndex
) -> npt.NDArray[np.float32]:
    """A player's observation over ``index``: its encoded view alone for a flat index (a copy), with
    the tokens chosen so far for a token index (:func:`observation_vector`)."""
    if isinstance(index, FlatActionIndex):
        return view.copy()
    return observation_vector(view, chosen, index.size)


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


# compiled build: ``__new__`` without ``__init__`` (``__deepcopy__``), as for the game states
@mypyc_attr(allow_interpreted_subclasses=True)
class TokenSession:
    """A game of ``game`` with ``options`` whose actions are chosen in one step (a flat index) or
    token by token (``action_index``: ``"auto"``, the flat index where the game declares one, else
    tokens; ``"flat"``; ``"tokens"``)."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        content: Any = None,
        observation: str = "game",
        action_index: str = "auto",
    ) -> None:
        self.game = game
        self.options = dict(options or {})
        self.content = content
        self.spec = game_spec(game)
        self.state: GameState = load_game(game, seed=0, content=content, **self.options)
        # the index is read from seed 0's first state of the option set with the game's own content
        first = self.state if content is None else load_game(game, seed=0, **self.options)
        self.index: AnyActionIndex = action_index_for(first, action_index)
        #: Whether one step chooses one action (a flat index) rather than one token.
        self.flat = isinstance(self.index, FlatActionIndex)
        self.num_players = self.state.num_players
        #: What a player sees as numbers (``observation``: ``"game"`` or ``"hashed-view"``).
        self.encoder: ObservationEncoder = observation_encoder(self.state, observation)
        self.observation_size = self.encoder.size + (0 if self.flat else 2 * self.index.size)
        self._chooser: AnyChooser | None = None
        self._views: dict[int, dict[str, Any]] = {}
        self._encoded: dict[int, npt.NDArray[np.float32]] = {}
        self._texts: dict[int, str] = {}
        self._begin_decision()

    def __deepcopy__(self, memo: dict[int, Any]) -> TokenSession:
        """An independent game: the state and the choice so far copied, the (immutable) index and the
        encoder shared. Every attribute is named (``__new__`` without ``__init__``: a compiled class
        has no instance ``__dict__`` for ``copy.copy`` to copy, see docs/compiled.md);
        tests/interop/test_session.py checks that none is missed."""
        twin = type(self).__new__(type(self))
        twin.game = self.game
        twin.options = self.options
        twin.content = self.content
        twin.spec = self.spec
        twin.state = self.state.copy()
        twin.index = self.index
        twin.flat = self.flat
        twin.num_players = self.num_players
        twin.encoder = self.encoder
        twin.observation_size = self.observation_size
        twin._chooser = None if self._chooser is None else self._chooser.copy()
        twin._views = dict(self._views)
        twin._encoded = dict(self._encoded)
        twin._texts = dict(self._texts)
        twin._acting = self._acting
        return twin

    def reset(self, seed: int) -> None:
        """Start a new game with ``seed``."""
        self.start_from(self.first_state(seed))

    def first_state(self, seed: int) -> GameState:
        """The first state of this game and option set with ``seed``."""
        return load_game(self.game, seed=seed, content=self.content, **self.options)

    def start_from(self, state: GameState) -> None:
        """Go on from ``state`` (states never change: it may be shared), the choice of its decision
        not begun."""
        self.state = state
        self._begin_decision()

    def _begin_decision(self) -> None:
        self._views = {}
        self._encoded = {}
        self._texts = {}
        decision = None if self.state.is_terminal else self.state.pending()
        self._acting = None if decision is None else decision.player
        self._chooser = None

    @property
    def chooser(self) -> AnyChooser | None:
        """The pending decision's chooser (None once the game is over), built when first asked:
        a decision a built-in agent takes whole (:meth:`apply`) never codes its legal actions."""
        if self._chooser is None and self._acting is not None:
            self._chooser = chooser_for(self.index, self.state.legal_actions())
        return self._chooser

    @property
    def is_terminal(self) -> bool:
        return self.state.is_terminal

    @property
    def acting_player(self) -> int | None:
        """The player the pending decision asks (None once the game is over)."""
        return self._acting

    def view(self, player: int) -> dict[str, Any]:
        """``player``'s view (cached until the state changes)."""
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self.state.view(player)
        return view

    def view_text(self, player: int) -> str:
        """``player``'s view as compact JSON with sorted keys (cached until the state changes)."""
        text = self._texts.get(player)
        if text is None:
            text = self._texts[player] = json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))
        return text

    def encoded_view(self, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` sees, encoded (:attr:`encoder`; cached until the state changes, so the
        tokens of one action encode it once). Do not modify it."""
        encoded = self._encoded.get(player)
        if encoded is None:
            encoded = self._encoded[player] = self.encoder.encode(self.state, player)
        return encoded

    def mask(self, player: int) -> npt.NDArray[np.int8]:
        """The tokens ``player`` may choose next (all zeros when the pending decision is not theirs)."""
        chooser = self.chooser if player == self._acting else None
        if chooser is None:
            return np.zeros(self.index.size, dtype=np.int8)
        return chooser.mask()

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """``player``'s observation vector (layout in the module text)."""
        if self.flat:
            return self.encoded_view(player).copy()
        chooser = self.chooser if player == self._acting else None
        chosen = chooser.chosen if chooser is not None else []
        return observation_vector(self.encoded_view(player), chosen, self.index.size)

    def choose(self, token: int) -> Action | None:
        """The acting player takes ``token`` (an action's number, for a flat index); the action applied
        once it is determined, else None."""
        chooser = self.chooser
        if chooser is None:
            raise ValueError("the game is over: no token can be chosen")
        action = chooser.choose(token)
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


class LazyInfo(dict[str, Any]):
    """An ``info`` dict whose costly entries (the JSON view, the decision) are computed when first read.

    It is a real ``dict``: ``info["view"]``, ``"view" in info``, ``info.get("view")``, iteration,
    comparison, copying and pickling all see every entry (reading one computes and keeps it), so
    nothing is built for an agent loop that never looks.
    """

    def __init__(self, eager: Mapping[str, Any], lazy: Mapping[str, Callable[[], Any]]) -> None:
        super().__init__(eager)
        self._lazy = dict(lazy)

    def _fill(self) -> LazyInfo:
        for key in list(self._lazy):
            dict.__setitem__(self, key, self._lazy.pop(key)())
        return self

    def __missing__(self, key: str) -> Any:
        thunk = self._lazy.pop(key, None)
        if thunk is None:
            raise KeyError(key)
        value = thunk()
        dict.__setitem__(self, key, value)
        return value

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._lazy

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self:
            return default
        return self[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._lazy.pop(key, None)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        if self._lazy.pop(key, None) is None:
            dict.__delitem__(self, key)

    def __len__(self) -> int:
        return dict.__len__(self) + len(self._lazy)

    def __iter__(self) -> Iterator[str]:
        return iter(self._fill().copy())

    def keys(self) -> Any:
        return dict.keys(self._fill())

    def values(self) -> Any:
        return dict.values(self._fill())

    def items(self) -> Any:
        return dict.items(self._fill())

    def copy(self) -> dict[str, Any]:
        return dict(dict.items(self._fill()))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, LazyInfo):
            other._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        return dict.__repr__(self._fill())

    def __reduce__(self) -> Any:
        return (dict, (dict(dict.items(self._fill())),))

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(dict.items(self._fill())), memo)
