"""Every registered game as a single-agent Gymnasium environment: one seat learns, agents play the rest.

Importing this module registers ``warhorn/<GameId>-v0`` for every registered game
(``Nerath``, ``Defenders``, ``Smallworld`` …: the game id, capitalised)::

    import gymnasium, warhorn.interop.gymnasium
    env = gymnasium.make("warhorn/Nerath-v0", opponents="heuristic", round_cap=4)

Keyword arguments: ``seat`` (the learning seat, default 0), ``opponents`` (an
agent spec of :func:`warhorn.ai.agents.make_agent` for every other seat, or a
list with one per seat, the learner's entry ignored; default ``"random"``),
``illegal_token_reward`` (what a token outside the mask earns; it changes
nothing; default 0), ``observation`` (``"game"``: the game's own encoder when it
has one, the default; ``"hashed-view"``: the JSON view hashed), ``action_index``
(``"auto"``: one step per action where the game has a flat action index, else
tokens; ``"tokens"``: tokens in every game), ``content`` and the game's own
options.

The action space is ``Discrete(N)``: the learner chooses an action's number
(a flat index) or its actions token by token (:mod:`warhorn.interop.action_index`),
with the mask of the legal numbers or of the next token in
``info["action_mask"]`` (also ``info["view"]``, the JSON view, and
``info["decision"]``, built only when read:
:class:`~warhorn.interop.session.LazyInfo`). Every decision asked of another seat — a casualty choice
in the learner's attack included — is taken by that seat's agent before
control returns. The reward comes at the end, the learner's
:func:`warhorn.interop.session.seat_rewards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from warhorn.ai.agents import Agent, make_agent
from warhorn.engine.registry import registered_games
from warhorn.engine.rng import Rng
from warhorn.interop.session import LazyInfo, TokenSession


class WarhornGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a warhorn game as a Gymnasium environment (see the module text)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium.Env declares it)

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_token_reward: float = 0.0,
        render_mode: str | None = None,
        content: Any = None,
        observation: str = "game",
        action_index: str = "auto",
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.session = TokenSession(game, options, content, observation, action_index)
        players = self.session.num_players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} outside 0..{players - 1} for {game} with {players} players")
        self.seat = seat
        specs = [opponents] * players if isinstance(opponents, str) else list(opponents)
        if len(specs) != players:
            raise ValueError(f"opponents: {len(specs)} agent specs for {players} seats")
        self.agents: dict[int, Agent] = {
            player: make_agent(spec) for player, spec in enumerate(specs) if player != seat
        }
        self.illegal_token_reward = illegal_token_reward
        self.action_space = spaces.Discrete(self.session.index.size)
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.session.observation_size,), np.float32)
        self._agent_rng = Rng(0)

    def _info(self) -> dict[str, Any]:
        state, seat = self.session.state, self.seat  # states never change: the entries read this one
        eager: dict[str, Any] = {"action_mask": self.session.mask(seat)}
        if state.is_terminal:
            results = state.results()
            eager["results"] = results.to_json() if results is not None else None
        return LazyInfo(
            eager,
            {
                "view": lambda: state.view(seat),
                "decision": lambda: None if (d := state.pending()) is None else d.to_json(),
            },
        )

    def _play_others(self) -> None:
        """Let the built-in agents take every decision until the learner is asked or the game ends."""
        while not self.session.is_terminal:
            player = self.session.acting_player
            if player is None or player == self.seat:
                return
            self.session.apply(self.agents[player].choose(self.session.state, player, self._agent_rng))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self.session.reset(int(self.np_random.integers(2**31)))
        self._agent_rng = Rng(int(self.np_random.integers(2**63)))
        self._play_others()
        return self.session.observation(self.seat), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        token = int(action)
        if self.session.is_terminal:
            raise RuntimeError("the game is over: call reset()")
        chooser = self.session.chooser if self.session.acting_player == self.seat else None
        if chooser is None or not 0 <= token < self.session.index.size or not chooser.allows(token):
            info = self._info()
            info["illegal_token"] = True
            return self.session.observation(self.seat), self.illegal_token_reward, False, False, info
        if self.session.choose(token) is not None:
            self._play_others()
        terminated = self.session.is_terminal
        reward = self.session.rewards()[self.seat] if terminated else 0.0
        return self.session.observation(self.seat), reward, terminated, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The mask (legal actions' numbers, or the next token) as booleans (what sb3-contrib's
        MaskablePPO reads)."""
        return self.session.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.session.state.describe()
        return None


def env_id(game: str) -> str:
    """The Gymnasium id of registered ``game``: ``warhorn/<GameId>-v0``."""
    return f"warhorn/{game.capitalize()}-v0"


def register_games() -> list[str]:
    """Register ``warhorn/<GameId>-v0`` for every registered game not registered yet; the ids."""
    ids = []
    for game in registered_games():
        ident = env_id(game)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:WarhornGymEnv", kwargs={"game": game})
        ids.append(ident)
    return ids


register_games()
