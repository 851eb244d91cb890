"""A policy over tokens as a warhorn agent: a trained RL policy plays in tournaments, the server, the CLI.

A policy trained on the wrappers sees an observation vector and the mask of
the legal actions' numbers (a game with a flat action index) or of the next
token (:mod:`warhorn.interop.session`) and answers a number or a token.
:class:`TokenPolicyAgent` turns it into an :class:`~warhorn.ai.agents.Agent`:
at each decision it codes the legal actions, builds the same observation the
environments give, and asks the policy once (a flat index) or for tokens until
they determine one legal action. ``action_index`` must be the one the policy
was trained with (``"auto"``, ``"flat"`` or ``"tokens"``, as the wrappers take
it). Nothing but ``legal_actions()`` and the player's encoded view (the game's
observation encoder, or ``view(player)`` hashed) is read, so the agent sees
what the player may see.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from warhorn.engine.actions import Action
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.engine.state import GameState
from warhorn.interop.action_index import AnyActionIndex, action_index_for, chooser_for
from warhorn.interop.observation import ObservationEncoder, observation_encoder
from warhorn.interop.session import observation_of

#: observation vector, mask (int8) -> the number or token chosen (one the mask allows).
TokenPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


class TokenPolicyAgent:
    """A warhorn agent that chooses each action token by token with ``policy`` (see the module text)."""

    def __init__(self, policy: TokenPolicy, name: str = "token policy", action_index: str = "auto") -> None:
        self.policy = policy
        self.name = name
        self.action_index = action_index
        self._indexes: dict[tuple[str, str], tuple[AnyActionIndex, ObservationEncoder]] = {}
        self._tokens = 0

    def _index(self, state: GameState) -> tuple[AnyActionIndex, ObservationEncoder]:
        key = (state.spec.id, repr(sorted(state.options.items())))
        found = self._indexes.get(key)
        if found is None:
            first = load_game(state.spec.id, seed=0, **state.options)
            index = action_index_for(first, self.action_index)
            found = self._indexes[key] = (index, observation_encoder(first))
        return found

    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        index, encoder = self._index(state)
        chooser = chooser_for(index, state.legal_actions())
        view = encoder.encode(state, player)
        self._tokens = 0
        while True:
            mask = chooser.mask()
            token = int(self.policy(observation_of(view, chooser.chosen, index), mask))
            if not 0 <= token < index.size or not mask[token]:
                raise ValueError(f"{self.name}: {token} is outside the mask")
            self._tokens += 1
            action = chooser.choose(token)
            if action is not None:
                return action

    def explain(self) -> str:
        return f"chosen by {self.name} in {self._tokens} token(s)"


def random_token_policy(seed: int = 0) -> TokenPolicy:
    """A policy choosing uniformly among the tokens the mask allows (a baseline, and for tests)."""
    generator = np.random.default_rng(seed)

    def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        del observation
        return int(generator.choice(np.flatnonzero(mask)))

    return policy
