"""Every registered game as an OpenSpiel Python game: ``pyspiel.load_game("python_warhorn_nerath")``.

Importing this module registers ``python_warhorn_<game id>`` for every
registered game. Its parameters are the game's options (with their defaults),
``rng_seed`` — the first state of the n-th ``new_initial_state()`` call is
built with a seed drawn from a generator seeded with ``rng_seed`` — and
``action_index`` (``"auto"``, ``"flat"`` or ``"tokens"``: :mod:`warhorn.interop.session`).

The game type is declared from the game's spec:

- dynamics **sequential**: one player decides at a time — the player the
  pending decision asks (a defender choosing casualties included);
- information **imperfect** when the game has hidden information, else perfect;
- chance **sampled stochastic** when the game rolls dice or shuffles (warhorn
  draws inside the state with its own seeded generator; no chance nodes are
  exposed), else deterministic;
- utility **identical** for a cooperative game (every seat gets the team's
  result), else **general-sum** (a winner 1, the last of the ranking −1, the
  others 0: :func:`warhorn.interop.session.seat_rewards`); terminal rewards.

Actions are the numbers of the game's flat action index where it has one (one
action per step), else the tokens of :mod:`warhorn.interop.action_index`
(a player chooses a decision's action token by token);
``num_distinct_actions`` is the index's size.

Observation tensor and string (what the player sees now): the player's
observation vector of :mod:`warhorn.interop.session` and the view's JSON with
the tokens chosen so far.

Information state (perfect recall: everything the player has observed — the
view it was shown after every action — and every token it chose):

- string: a BLAKE2b chain over that history, one fixed-length string that
  identifies it;
- tensor (:func:`information_state_tensor_size`, fixed per game and option
  set): the observation vector, then how many times the player chose each
  token in the whole game, then the mean of its encoded views after every
  action so far, then how many actions it has seen (``log1p``). It is a
  function of the information state (equal histories give equal tensors); as
  a game's length has no bound, no fixed-size tensor can tell every history
  apart, and two histories may share a tensor — algorithms that need an exact
  key use the string.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import numpy as np
import pyspiel

from warhorn.engine.decisions import GameSpec
from warhorn.engine.registry import game_spec, registered_games
from warhorn.engine.state import GameState
from warhorn.interop.session import TokenSession

#: How many first states (by seed) a game keeps for the states it deals.
FIRST_STATES_KEPT = 64

#: A bound on tokens per action, for ``max_game_length`` (spec.max_actions × this).
TOKENS_PER_ACTION_BOUND = 64


def short_name(game: str) -> str:
    """The OpenSpiel name of registered ``game``: ``python_warhorn_<game id>``."""
    return f"python_warhorn_{game}"


def game_type(spec: GameSpec) -> pyspiel.GameType:
    """The OpenSpiel game type of a warhorn game, declared from its spec (see the module text)."""
    parameters: dict[str, Any] = {option.name: option.default for option in spec.options}
    parameters["rng_seed"] = 0
    parameters["action_index"] = "auto"
    return pyspiel.GameType(
        short_name=short_name(spec.id),
        long_name=f"warhorn {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
            if spec.has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if spec.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.IDENTICAL if spec.cooperative else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class WarhornSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A warhorn game with fixed options, as an OpenSpiel game."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        spec = game_spec(game)
        given = dict(params or {})
        rng_seed = int(given.pop("rng_seed", 0))
        action_index = str(given.pop("action_index", "auto"))
        options = spec.resolve_options(given)
        self.session_template = TokenSession(game, options, action_index=action_index)
        self.shared = _Shared(self.session_template)
        self.warhorn_game = game
        self.warhorn_options = options
        self._seeds = np.random.default_rng(rng_seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.session_template.index.size,
            max_chance_outcomes=0,
            num_players=self.session_template.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=spec.max_actions * (1 if self.session_template.flat else TOKENS_PER_ACTION_BOUND),
        )
        super().__init__(
            game_type(spec), info, {**options, "rng_seed": rng_seed, "action_index": action_index}
        )

    def new_initial_state(self) -> WarhornSpielState:
        return WarhornSpielState(self, int(self._seeds.integers(2**31)))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None or not iig_obs_type.perfect_recall:
            return ViewObserver(self.session_template.observation_size)
        return InformationStateObserver(
            self.session_template.observation_size,
            self.session_template.index.size,
            self.session_template.encoder.size,
        )


class WarhornSpielState(pyspiel.State):  # type: ignore[misc]
    """A position of a warhorn game, with the tokens chosen so far in the pending action."""

    def __init__(self, game: WarhornSpielGame, seed: int) -> None:
        super().__init__(game)
        # Built when first used: OpenSpiel clones a Python state by making a new initial state and
        # overwriting its attributes with copies of the original's, so a state that is only ever
        # overwritten never deals a game.
        self._template = game.shared
        self._seed = seed
        self._session: TokenSession | None = None

    @property
    def session(self) -> TokenSession:
        """The game played token by token (dealt with this state's seed when first asked)."""
        if self._session is None:
            self._session = copy.deepcopy(self._template.value)
            self._session.start_from(self._template.first_state(self._seed))
            players, size = self._session.num_players, self._session.index.size
            self._recall = [""] * players
            #: per player: tokens chosen in the whole game, the sum of its hashed views, how many views
            self._tokens_chosen = np.zeros((players, size), np.float32)
            self._views_seen = np.zeros((players, self._session.encoder.size), np.float32)
            self._actions_seen = 0
            self._remember_views()
        return self._session

    def _remember_views(self) -> None:
        self._actions_seen += 1
        for player in range(self.session.num_players):
            self._recall[player] = _chain(self._recall[player], "view:" + self.session.view_text(player))
            self._views_seen[player] += self.session.encoded_view(player)

    def current_player(self) -> int:
        if self.session.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.session.acting_player
        assert player is not None
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return [int(token) for token in np.flatnonzero(self.session.mask(player))]

    def _apply_action(self, action: int) -> None:
        player = self.current_player()  # (deals the game if not yet done)
        self._recall[player] = _chain(self._recall[player], f"token:{action}")
        self._tokens_chosen[player, action] += 1.0
        if self.session.choose(int(action)) is not None:
            self._remember_views()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.session.index.describe(action)

    def is_terminal(self) -> bool:
        return self.session.is_terminal

    def returns(self) -> list[float]:
        return self.session.rewards()

    def __str__(self) -> str:
        return self.session.state.describe()


class _Shared:
    """A value every copy of a state shares (``deepcopy`` leaves it as it is): the session template,
    and the first states dealt lately by seed (OpenSpiel's tests observe many fresh states and
    clones of the same deal; a state never changes, so one deal serves them all)."""

    def __init__(self, value: TokenSession) -> None:
        self.value = value
        self._first: dict[int, GameState] = {}

    def first_state(self, seed: int) -> GameState:
        state = self._first.get(seed)
        if state is None:
            if len(self._first) >= FIRST_STATES_KEPT:
                self._first.clear()
            state = self._first[seed] = self.value.first_state(seed)
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


def _chain(previous: str, item: str) -> str:
    return hashlib.blake2b(f"{previous}|{item}".encode(), digest_size=16).hexdigest()


class ViewObserver:
    """OpenSpiel observer of what a player sees now: the observation vector and the view's JSON."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: WarhornSpielState, player: int) -> None:
        self.tensor[:] = state.session.observation(player)

    def string_from(self, state: WarhornSpielState, player: int) -> str:
        chooser = state.session.chooser
        chosen = chooser.chosen if chooser is not None and player == state.session.acting_player else []
        view = state.session.view_text(player)
        return f"{view} chosen:{','.join(map(str, chosen))}"


class InformationStateObserver:
    """OpenSpiel perfect-recall observer: the string identifies everything the player has observed; the
    tensor summarises it in a fixed shape (see the module text)."""

    def __init__(self, observation_size: int, index_size: int, view_size: int) -> None:
        self.observation_size = observation_size
        self.index_size = index_size
        self.view_size = view_size
        self.tensor = np.zeros(
            information_state_tensor_size(observation_size, index_size, view_size), np.float32
        )
        self.dict = {"information_state": self.tensor}

    def set_from(self, state: WarhornSpielState, player: int) -> None:
        at = self.observation_size
        self.tensor[:at] = state.session.observation(player)
        self.tensor[at : at + self.index_size] = state._tokens_chosen[player]
        at += self.index_size
        self.tensor[at : at + self.view_size] = state._views_seen[player] / state._actions_seen
        self.tensor[-1] = np.log1p(state._actions_seen)

    def string_from(self, state: WarhornSpielState, player: int) -> str:
        state.session  # noqa: B018 (deals the game if not yet done)
        return f"player {player} recall {state._recall[player]}"


def information_state_tensor_size(observation_size: int, index_size: int, view_size: int) -> int:
    """The information-state tensor's length: observation, token counts, mean encoded view (``view_size``
    numbers), actions seen."""
    return observation_size + index_size + view_size + 1


def register_games() -> list[str]:
    """Register ``python_warhorn_<game id>`` for every registered game not registered yet; the names."""
    known = set(pyspiel.registered_names())
    names = []
    for game in registered_games():
        name = short_name(game)
        if name not in known:
            pyspiel.register_game(game_type(game_spec(game)), _factory(game))
        names.append(name)
    return names


def _factory(game: str) -> type[WarhornSpielGame]:
    """A subclass of :class:`WarhornSpielGame` bound to ``game`` (OpenSpiel calls it with the parameters)."""

    def __init__(self: WarhornSpielGame, params: dict[str, Any] | None = None) -> None:
        WarhornSpielGame.__init__(self, game, params)

    return type(f"WarhornSpielGame_{game}", (WarhornSpielGame,), {"__init__": __init__})


register_games()
