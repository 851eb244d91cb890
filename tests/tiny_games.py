"""Two tiny games whose best moves are known, for testing search through the engine contract.

- ``nim-test``: one pile, take 1 to 3 stones, whoever takes the last stone
  wins. The player to move wins exactly when the pile is not a multiple of 4,
  by leaving a multiple of 4. Deterministic, no hidden information.
- ``guess-test``: player 1 holds a hidden card 1..9; player 0 calls ``low``
  (1-5) or ``high`` (6-9) and wins if right. Without seeing the card ``low``
  is better (5 in 9); a search that peeked would call the card's side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from warhorn.engine import (
    Action,
    ActionCodec,
    Decision,
    Event,
    GameSpec,
    GameState,
    OptionSpec,
    Results,
    Rng,
    register_game,
)


@dataclass(frozen=True, slots=True)
class Take(Action):
    kind: ClassVar[str] = "take"
    stones: int


NIM_SPEC = GameSpec(
    id="nim-test",
    name="Nim (test game)",
    rules_version="1",
    min_players=2,
    max_players=2,
    has_chance=False,
    hidden_information=False,
    options=(OptionSpec("stones", int, 21, "stones in the pile", minimum=1, maximum=1000),),
    max_actions=1000,
)


class Nim(GameState):
    spec: ClassVar[GameSpec] = NIM_SPEC
    codec: ClassVar[ActionCodec] = ActionCodec([Take])

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.options = dict(options)
        self.seed = seed
        self.rng = Rng(seed)
        self.stones: int = self.options["stones"]
        self.to_move = 0
        self.winner: int | None = None

    @property
    def num_players(self) -> int:
        return 2

    def pending(self) -> Decision | None:
        if self.winner is not None:
            return None
        return Decision(self.to_move, "take", "take 1 to 3 stones")

    def legal_actions(self) -> list[Action]:
        if self.winner is not None:
            return []
        return [Take(k) for k in range(1, min(3, self.stones) + 1)]

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.stones = self.stones
        twin.to_move = self.to_move
        twin.winner = self.winner
        return twin

    def _apply_in_place(self, action: Action) -> list[Event]:
        assert isinstance(action, Take)
        self.stones -= action.stones
        if self.stones == 0:
            self.winner = self.to_move
        self.to_move = 1 - self.to_move
        return [Event("take", {"stones": action.stones})]

    def results(self) -> Results | None:
        if self.winner is None:
            return None
        return Results(frozenset({self.winner}), ((self.winner,), (1 - self.winner,)), {}, "took the last")

    def view(self, player: int | None) -> dict[str, Any]:
        return self.snapshot()

    def snapshot(self) -> dict[str, Any]:
        return {"stones": self.stones, "to_move": self.to_move, "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Call(Action):
    kind: ClassVar[str] = "call"
    side: str


GUESS_SPEC = GameSpec(
    id="guess-test",
    name="Guess the hidden card (test game)",
    rules_version="1",
    min_players=2,
    max_players=2,
    has_chance=True,
    hidden_information=True,
    options=(OptionSpec("card", int, 0, "the hidden card (0: dealt at random)", minimum=0, maximum=9),),
    max_actions=10,
)


class Guess(GameState):
    spec: ClassVar[GameSpec] = GUESS_SPEC
    codec: ClassVar[ActionCodec] = ActionCodec([Call])

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.options = dict(options)
        self.seed = seed
        self.rng = Rng(seed)
        self.card: int = self.options["card"] or self.rng.roll(9)
        self.called: str | None = None

    @property
    def num_players(self) -> int:
        return 2

    def pending(self) -> Decision | None:
        return None if self.called else Decision(0, "call", "call low (1-5) or high (6-9)")

    def legal_actions(self) -> list[Action]:
        return [] if self.called else [Call("high"), Call("low")]

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.card = self.card
        twin.called = self.called
        return twin

    def _apply_in_place(self, action: Action) -> list[Event]:
        assert isinstance(action, Call)
        self.called = action.side
        return [Event("call", {"side": action.side})]

    def results(self) -> Results | None:
        if self.called is None:
            return None
        right = self.called == ("low" if self.card <= 5 else "high")
        winner = 0 if right else 1
        return Results(frozenset({winner}), ((winner,), (1 - winner,)), {}, "called")

    def view(self, player: int | None) -> dict[str, Any]:
        return {"card": self.card if player == 1 or self.called else None, "called": self.called}

    def snapshot(self) -> dict[str, Any]:
        return {"card": self.card, "called": self.called, "rng": self.rng.state}

    def determinize(self, player: int, rng: Rng) -> Self:
        twin = self.copy()
        if player != 1 and not self.called:
            twin.card = rng.roll(9)
        twin.rng = Rng(rng.next_u64())
        return twin


def register() -> None:
    register_game(NIM_SPEC, lambda options, seed, content: Nim(options, seed), replace=True)
    register_game(GUESS_SPEC, lambda options, seed, content: Guess(options, seed), replace=True)
