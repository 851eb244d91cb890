"""Pending decisions, results and the per-game specification."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warhorn.engine.errors import OptionError


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now, and what kind of decision it is.

    Any player may be asked, not only the one whose turn it is: a defender
    choosing casualties, the player on the left rolling for guardians, a card
    offered in another player's turn.
    """

    player: int
    kind: str
    prompt: str
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Results:
    """How a finished game ended.

    ``ranking`` lists groups of tied players, best first. ``scores`` holds
    each player's final score as the game counts it (VP, points…).
    """

    winners: frozenset[int]
    ranking: tuple[tuple[int, ...], ...]
    scores: Mapping[int, float] = field(default_factory=dict)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": sorted(self.winners),
            "ranking": [list(group) for group in self.ranking],
            "scores": {str(k): v for k, v in self.scores.items()},
            "reason": self.reason,
        }


#: The longest text a text option takes (a comma list of ids fits many times over).
MAX_OPTION_TEXT = 200


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One named game option with its type, default and allowed values."""

    name: str
    type: type
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        # Every number a client may choose is bounded: an unbounded option (a round cap of 10**100)
        # lets anyone who can create a game make the server compute without limit.
        if self.type is int and self.choices is None and (self.minimum is None or self.maximum is None):
            raise ValueError(f"option {self.name!r}: a whole-number option needs a minimum and a maximum")

    def validate(self, value: Any) -> Any:
        if self.type is bool:
            if isinstance(value, str) and value.lower() in {"true", "yes", "1", "false", "no", "0"}:
                value = value.lower() in {"true", "yes", "1"}
            if not isinstance(value, bool):
                raise OptionError(self.name, f"expected true or false, got {value!r}")
        elif self.type is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise OptionError(self.name, f"expected a whole number, got {value!r}") from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(self.name, f"expected a whole number, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(self.name, f"must be at least {self.minimum}, got {value}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(self.name, f"must be at most {self.maximum}, got {value}")
        elif self.type is str:
            if not isinstance(value, str):
                raise OptionError(self.name, f"expected text, got {value!r}")
            if len(value) > MAX_OPTION_TEXT:
                raise OptionError(self.name, f"at most {MAX_OPTION_TEXT} characters, got {len(value):,}")
        elif not isinstance(value, self.type):
            raise OptionError(self.name, f"expected {self.type.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(self.name, f"must be one of {allowed}, got {value!r}")
        return value


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Static facts about a game: what the registry and every front end need before a game starts."""

    id: str
    name: str
    rules_version: str
    min_players: int
    max_players: int
    has_chance: bool
    hidden_information: bool
    options: tuple[OptionSpec, ...] = ()
    max_actions: int = 100_000
    description: str = ""
    #: The players win or lose together (Defenders): reports give the team win rate, no rating between seats.
    cooperative: bool = False

    def option(self, name: str) -> OptionSpec:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(name, f"unknown option for {self.id} (known: {known})")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``given``, each validated. Unknown names are refused."""
        out = {o.name: o.default for o in self.options}
        for name, value in given.items():
            out[name] = self.option(name).validate(value)
        return out
