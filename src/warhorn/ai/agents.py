"""The agent interface, budgets, the agent registry and the uniform random agent.

An agent sees what its player may see. The state is passed so that an agent
can call ``pending``, ``legal_actions`` and ``view``; an agent that searches
must work on ``state.determinize(player, rng)`` and never read hidden facts
directly. Every random choice comes from the ``rng`` argument, so a seeded
game with seeded agents is reproducible.

Agents are named by a *spec*: a registered kind, optionally followed by
parameters, ``kind[:name=value[:name=value…]]`` — for example ``random``,
``mcts``, ``mcts:iterations=400:c=0.7``. Specs contain no commas, so a comma
list of them names the seats of a game or the field of a tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from warhorn.engine import Action, GameState, Rng


class Agent(Protocol):
    """Chooses an action for the player whose decision is pending."""

    name: str

    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        """A legal action for ``player`` (who must be ``state.pending().player``)."""
        ...

    def explain(self) -> str:
        """A one-line reason for the last choice ("" when the agent has none).

        It is shown to every player, so it states nothing the other players may not know: in a
        game with hidden information not even how many legal actions there were, when that
        number depends on the player's own hidden cards.
        """
        ...


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking one decision may take: iterations, seconds, or both (whichever ends first).

    Only the AI layer reads a clock; a budget with ``seconds`` makes search
    results depend on machine speed, so reproducible runs use ``iterations``.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"budget iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"budget seconds must be positive, got {self.seconds}")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"400"`` (iterations), ``"0.5s"`` (seconds) or ``"iterations=400,seconds=2"``."""
        text = text.strip()
        try:
            if "=" in text:
                fields: dict[str, str] = {}
                for part in text.split(","):
                    name, _, value = part.partition("=")
                    fields[name.strip()] = value.strip()
                unknown = set(fields) - {"iterations", "seconds"}
                if unknown:
                    raise ValueError(f"unknown budget field(s) {', '.join(sorted(unknown))}")
                its = fields.get("iterations")
                secs = fields.get("seconds")
                return cls(int(its) if its else None, float(secs) if secs else None)
            if text.endswith("s"):
                return cls(seconds=float(text[:-1]))
            return cls(iterations=int(text))
        except ValueError as exc:
            raise ValueError(
                f"bad budget {text!r} ({exc}); use e.g. 400, 0.5s or iterations=400,seconds=2"
            ) from None

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts) or "default"


class AgentFactory(Protocol):
    """Builds an agent from its spec parameters (text values) and an optional budget.

    Raises ValueError naming the parameter when one is unknown or malformed.
    """

    def __call__(self, params: Mapping[str, str], budget: Budget | None) -> Agent: ...


class RandomAgent:
    """Uniform over the legal actions (also the fuzzer)."""

    name = "random"

    def __init__(self) -> None:
        self._count = 0
        self._hidden = False

    def choose(self, state: GameState, player: int, rng: Rng) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action to choose from")
        self._count = len(legal)
        self._hidden = state.spec.hidden_information
        return legal[rng.below(len(legal))]

    def explain(self) -> str:
        # With hidden information the number of legal actions may count the plays of cards only
        # this player holds (e.g. whether it could answer at a card window), so it is not told.
        if self._hidden:
            return "chosen at random among its legal actions"
        return f"chosen at random among {self._count} legal actions"


def _make_random(params: Mapping[str, str], budget: Budget | None) -> Agent:
    if params:
        raise ValueError(f"the random agent takes no parameters (got {', '.join(sorted(params))})")
    return RandomAgent()


#: Agent kinds by name. Modules add theirs with :func:`register_agent` on import.
AGENTS: dict[str, AgentFactory] = {"random": _make_random}


def register_agent(kind: str, factory: AgentFactory, *, replace: bool = False) -> None:
    """Make ``kind`` available to :func:`make_agent` (and so to ``--seats`` and ``--agents``)."""
    if not kind or not kind.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"agent kind {kind!r} must be letters, digits, '-' or '_'")
    if kind in AGENTS and not replace and AGENTS[kind] is not factory:
        raise ValueError(f"an agent kind {kind!r} is already registered")
    AGENTS[kind] = factory


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400:c=0.7"`` → ``("mcts", {"iterations": "400", "c": "0.7"})``."""
    kind, *parts = spec.strip().split(":")
    params: dict[str, str] = {}
    for part in parts:
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"agent parameter {part!r} in {spec!r} must look like name=value")
        params[name.strip()] = value.strip()
    return kind.strip(), params


def make_agent(spec: str, budget: Budget | None = None) -> Agent:
    """An agent from its spec (``kind[:name=value…]``); ValueError lists the known kinds.

    ``budget`` is the default budget for agents that search; a budget given
    in the spec's own parameters wins over it.
    """
    kind, params = parse_agent_spec(spec)
    try:
        factory = AGENTS[kind]
    except KeyError:
        raise ValueError(f"unknown agent {kind!r} (known: {', '.join(sorted(AGENTS))})") from None
    return factory(params, budget)
