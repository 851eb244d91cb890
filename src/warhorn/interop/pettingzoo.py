"""Every registered game as a PettingZoo AEC environment: ``env("nerath", round_cap=4)``.

Agents are the seats (``player_0`` …). The agent selected is the one the
pending decision asks — a defender choosing casualties or a player answering
a card window gets the turn, not only the player whose turn it is. An agent
chooses a decision's action in one step where the game has a flat action index
(Small World), else token by token (:mod:`warhorn.interop.action_index`; it
may then act several times in a row); ``action_index="tokens"`` asks for tokens
in every game. Each observation is a dict with ``"observation"`` (the float32
vector of :mod:`warhorn.interop.session`) and ``"action_mask"`` (the legal
actions' numbers, or the tokens that continue a legal action). ``infos[agent]``
holds the JSON view of the agent selected (``"view"``) and the decision
(``"decision"``), built only when read (:class:`~warhorn.interop.session.LazyInfo`).
Rewards come at the end from the results
(:func:`warhorn.interop.session.seat_rewards`).

``observation="game"`` (default) encodes what a player sees with the game's own
encoder when it has one; ``"hashed-view"`` hashes the JSON view for every game
(:mod:`warhorn.interop.observation`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from warhorn.interop.session import LazyInfo, TokenSession


class WarhornAECEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int | None]):  # type: ignore[misc]
    """A warhorn game as a PettingZoo AEC environment (see the module text)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "warhorn_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        content: Any = None,
        observation: str = "game",
        action_index: str = "auto",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.session = TokenSession(game, options, content, observation, action_index)
        self.possible_agents = [f"player_{i}" for i in range(self.session.num_players)]
        size = self.session.index.size
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.session.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.session.reset(int(self._seeds.integers(2**31)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select_acting_agent()

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _select_acting_agent(self) -> None:
        player = self.session.acting_player
        if player is None:
            return
        self.agent_selection = self.possible_agents[player]
        state = self.session.state  # states never change: the entries read this one when asked
        self.infos = {agent: {} for agent in self.agents}
        self.infos[self.agent_selection] = LazyInfo(
            {},
            {
                "view": lambda: state.view(player),
                "decision": lambda: None if (d := state.pending()) is None else d.to_json(),
            },
        )

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        player = self._player(agent)
        return {"observation": self.session.observation(player), "action_mask": self.session.mask(player)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose a token: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        if self.session.choose(int(action)) is None:
            # the same decision goes on: the same agent chooses its next token
            self._accumulate_rewards()
            return
        if self.session.is_terminal:
            for player, reward in enumerate(self.session.rewards()):
                self.rewards[self.possible_agents[player]] = reward
                self.terminations[self.possible_agents[player]] = True
            results = self.session.state.results()
            for name in self.agents:
                self.infos[name] = {"results": results.to_json() if results else None}
        else:
            self._select_acting_agent()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.session.state.describe()
        return None

    def close(self) -> None:
        pass


def env(
    game: str,
    render_mode: str | None = None,
    content: Any = None,
    observation: str = "game",
    action_index: str = "auto",
    **options: Any,
) -> WarhornAECEnv:
    """The PettingZoo AEC environment of registered ``game`` with ``options`` (e.g. ``round_cap=4``)."""
    return WarhornAECEnv(
        game,
        render_mode=render_mode,
        content=content,
        observation=observation,
        action_index=action_index,
        **options,
    )
