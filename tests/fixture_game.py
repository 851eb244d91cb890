"""A small game that exercises the engine contract before (and beside) the real games.

"Dice race": players race to a target score. On your turn you either roll a
d6 (add it) or play a card from your hidden hand (add its value, draw a new
one). A rolled 6 lets the next player decide whether to "block" it (both
lose 2) or "allow" it — a decision asked of a player whose turn it is not.
Hands and the deck order are hidden.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, Self

import pydantic

from warhorn.ai.heuristic import Choice
from warhorn.engine import (
    Action,
    ActionCodec,
    ContentError,
    ContentErrors,
    Decision,
    Deck,
    Event,
    GameSpec,
    GameState,
    IllegalActionError,
    OptionError,
    OptionSpec,
    Results,
    Rng,
    roll_event,
)
from warhorn.engine.plugin import ConformanceCases, GamePlugin
from warhorn.engine.registry import register_plugin


@dataclass(frozen=True, slots=True)
class Roll(Action):
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True, slots=True)
class Respond(Action):
    kind: ClassVar[str] = "respond"
    block: bool

    def notation(self) -> str:
        return "respond block" if self.block else "respond allow"


class Stage(StrEnum):
    """Where a turn is: the active player acts, or the next player answers a rolled 6."""

    ACT = "act"
    RESPOND = "respond"


STAGE_NAMES = {Stage.ACT: "Act", Stage.RESPOND: "Respond"}
STAGE_RULES = {Stage.ACT: "FIX-TRN-01", Stage.RESPOND: "FIX-TRN-02"}


@dataclass(frozen=True, slots=True)
class TurnPosition:
    """Round (from 1), whose turn (a player index) and the stage of that turn."""

    round: int = 1
    turn: int = 0
    stage: Stage = Stage.ACT

    def event(self, kind: str, who: str) -> Event:
        """The ``flow.*`` event logging this position (tournaments count ``flow.round`` events)."""
        return Event(
            kind,
            {"round": self.round, "turn": self.turn, "phase": self.stage.value, "step": None, "who": who},
            f"round {self.round}, {who}: {STAGE_NAMES[self.stage]}",
        )

    def next_turn(self, players: int, who: str) -> tuple[TurnPosition, list[Event]]:
        """The next player's turn; a new round after the last player's."""
        events: list[Event] = []
        if self.turn + 1 < players:
            nxt = TurnPosition(self.round, self.turn + 1)
        else:
            nxt = TurnPosition(self.round + 1, 0)
            events.append(Event("flow.round", {"round": nxt.round}, f"round {nxt.round} begins"))
        events.append(nxt.event("flow.turn", who))
        return nxt, events


CARDS = tuple(f"c{value}{copy}" for value in range(1, 6) for copy in "abc")

SPEC = GameSpec(
    id="dice-race",
    name="Dice race (test fixture)",
    rules_version="1",
    min_players=2,
    max_players=4,
    has_chance=True,
    hidden_information=True,
    options=(
        OptionSpec("players", int, 2, "number of players", minimum=2, maximum=4),
        OptionSpec("target", int, 20, "score that wins", minimum=5, maximum=100),
        OptionSpec("hand_size", int, 2, "cards in hand", minimum=0, maximum=4),
    ),
    max_actions=2_000,
)


def card_value(card: str) -> int:
    return int(card[1])


class DiceRace(GameState):
    spec: ClassVar[GameSpec] = SPEC
    codec: ClassVar[ActionCodec] = ActionCodec([Roll, PlayCard, Respond])

    def __init__(self, options: dict[str, Any], seed: int, rng: Rng | None = None) -> None:
        self.options = dict(options)
        self.seed = seed
        self.rng = rng if rng is not None else Rng(seed)
        n = self.options["players"]
        self.scores = [0] * n
        self.hands: list[tuple[str, ...]] = [() for _ in range(n)]
        self.deck = Deck.shuffled(list(CARDS), self.rng)
        for p in range(n):
            self.deck, cards, _ = self.deck.draw_many(self.options["hand_size"], self.rng)
            self.hands[p] = tuple(cards)
        self.pos = TurnPosition()
        self.last_roll = 0
        self.winner: int | None = None

    # -- contract -------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.scores)

    @property
    def active(self) -> int:
        return self.pos.turn

    def pending(self) -> Decision | None:
        if self.winner is not None:
            return None
        if self.pos.stage is Stage.RESPOND:
            responder = (self.active + 1) % self.num_players
            return Decision(responder, "respond", "block or allow the rolled 6", "FIX-TRN-02")
        return Decision(self.active, "act", "roll or play a card", "FIX-TRN-01")

    def legal_actions(self) -> list[Action]:
        decision = self.pending()
        if decision is None:
            return []
        if decision.kind == "respond":
            return [Respond(True), Respond(False)]
        return [Roll(), *(PlayCard(c) for c in sorted(set(self.hands[self.active])))]

    def why_illegal(self, action: Action) -> IllegalActionError:
        if isinstance(action, PlayCard) and action.card not in self.hands[self.active]:
            return IllegalActionError(f"card {action.card} is not in your hand", "FIX-CRD-01")
        return super().why_illegal(action)

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.scores = list(self.scores)
        twin.hands = list(self.hands)
        twin.deck = self.deck
        twin.pos = self.pos
        twin.last_roll = self.last_roll
        twin.winner = self.winner
        return twin

    def _end_turn(self, events: list[Event]) -> None:
        best = max(range(self.num_players), key=lambda p: self.scores[p])
        if self.scores[best] >= self.options["target"]:
            self.winner = best
            events.append(Event("game.won", {"player": best}, f"player {best} wins"))
            return
        self.pos, flow_events = self.pos.next_turn(self.num_players, f"player {self.active}")
        events.extend(flow_events)

    def _apply_in_place(self, action: Action) -> list[Event]:
        events: list[Event] = []
        p = self.active
        if isinstance(action, Roll):
            face = self.rng.roll(6)
            events.append(roll_event(f"player {p}", [(6, face)], purpose="points"))
            self.scores[p] += face
            if face == 6:
                self.pos = dataclasses.replace(self.pos, stage=Stage.RESPOND)
                events.append(self.pos.event("flow.phase", f"player {p}"))
                return events
        elif isinstance(action, PlayCard):
            hand = list(self.hands[p])
            hand.remove(action.card)
            self.scores[p] += card_value(action.card)
            self.deck = self.deck.discard(action.card)
            events.append(
                Event("card.played", {"player": p, "card": action.card}, f"player {p} plays {action.card}")
            )
            self.deck, card, reshuffled = self.deck.draw(self.rng)
            if card is not None:
                hand.append(card)
                events.append(
                    Event(
                        "card.drawn",
                        {"player": p, "card": card, "reshuffled": reshuffled},
                        f"player {p} draws {card}",
                        chance=True,
                        visible_to=frozenset({p}),
                        public_data={"player": p, "reshuffled": reshuffled},
                        public_text=f"player {p} draws a card",
                    )
                )
            self.hands[p] = tuple(hand)
        elif isinstance(action, Respond):
            responder = (p + 1) % self.num_players
            if action.block:
                self.scores[p] = max(0, self.scores[p] - 2)
                self.scores[responder] = max(0, self.scores[responder] - 2)
            events.append(
                Event("respond", {"player": responder, "block": action.block}, f"player {responder} responds")
            )
        self._end_turn(events)
        return events

    def results(self) -> Results | None:
        if self.winner is None:
            return None
        order = sorted(range(self.num_players), key=lambda q: -self.scores[q])
        return Results(
            frozenset({self.winner}),
            tuple((q,) for q in order),
            {q: float(s) for q, s in enumerate(self.scores)},
            "reached the target",
        )

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "hand": list(self.hands[player]) if player is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "deck": self.deck.public_json(),
            "phase": self.pos.stage.value,
            "turn": self.active,
            "round": self.pos.round,
            "winner": self.winner,
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "hands": [list(h) for h in self.hands],
            "deck": self.deck.to_json(),
            "pos": [self.pos.round, self.pos.turn, list(Stage).index(self.pos.stage), 0],
            "winner": self.winner,
            "rng": self.rng.state,
        }

    def determinize(self, player: int, rng: Rng) -> Self:
        twin = self.copy()
        unseen = [c for q, hand in enumerate(self.hands) if q != player for c in hand]
        unseen += list(self.deck.draw_pile)
        rng.shuffle(unseen)
        for q in range(self.num_players):
            if q != player:
                k = len(self.hands[q])
                twin.hands[q] = tuple(unseen[:k])
                unseen = unseen[k:]
        twin.deck = Deck(tuple(unseen), self.deck.discard_pile)
        twin.rng = Rng(rng.next_u64())
        return twin

    def invariants(self) -> list[str]:
        problems = []
        cards = [c for h in self.hands for c in h] + list(self.deck.draw_pile) + list(self.deck.discard_pile)
        if sorted(cards) != sorted(CARDS):
            problems.append("cards were created or lost")
        if any(s < 0 for s in self.scores):
            problems.append("negative score")
        return problems

    def describe(self) -> str:
        return f"scores {self.scores}; turn of player {self.active}"


def new_dice_race(options: dict[str, Any], seed: int, content: Any = None) -> DiceRace:
    return DiceRace(options, seed)


class _PositionModel(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    scores: list[Annotated[int, pydantic.Field(ge=0)]] = pydantic.Field(min_length=2, max_length=4)
    hands: list[list[str]]
    deck: list[str] = []
    discard: list[str] = []
    turn: int = pydantic.Field(default=0, ge=0)
    phase: Literal["act", "respond"] = "act"
    round: int = pydantic.Field(default=1, ge=1)
    target: int = 20
    hand_size: int = 2
    rng: int = pydantic.Field(default=0, ge=0, lt=2**64)
    winner: int | None = None


def _mistake(key: str, message: str) -> ContentError:
    return ContentError("position", key, message)


def position_from(data: Mapping[str, Any], content: Any = None) -> DiceRace:
    """A dice race from a position: scores, hands, deck (top first) and discard, whose turn, phase,
    round, options and the dice generator's state. Mistakes name the key (file ``position``)."""
    try:
        model = _PositionModel.model_validate(dict(data))
    except pydantic.ValidationError as exc:
        raise ContentErrors(
            [_mistake(".".join(map(str, e["loc"])) or "(top level)", e["msg"]) for e in exc.errors()]
        ) from None
    n = len(model.scores)
    problems = []
    if len(model.hands) != n:
        problems.append(_mistake("hands", f"one hand per player: {n} scores, {len(model.hands)} hands"))
    for i, hand in enumerate(model.hands):
        for j, card in enumerate(hand):
            if card not in CARDS:
                problems.append(_mistake(f"hands[{i}][{j}]", f"unknown card {card!r}"))
    cards = [c for hand in model.hands for c in hand] + model.deck + model.discard
    if not problems and sorted(cards) != sorted(CARDS):
        problems.append(_mistake("deck", "hands, deck and discard must hold every card exactly once"))
    if model.turn >= n:
        problems.append(_mistake("turn", f"no player {model.turn} among {n}"))
    if problems:
        raise ContentErrors(problems)
    try:
        options = SPEC.resolve_options({"players": n, "target": model.target, "hand_size": model.hand_size})
    except OptionError as exc:
        raise ContentErrors([_mistake(exc.option, str(exc))]) from None
    state = DiceRace(options, 0, Rng(0))
    state.scores = list(model.scores)
    state.hands = [tuple(h) for h in model.hands]
    state.deck = Deck(tuple(model.deck), tuple(model.discard))
    state.pos = TurnPosition(model.round, model.turn, Stage(model.phase))
    state.rng = Rng(model.rng)
    state.winner = model.winner
    return state


def to_position(state: GameState) -> dict[str, Any]:
    assert isinstance(state, DiceRace)
    return {
        "scores": list(state.scores),
        "hands": [list(h) for h in state.hands],
        "deck": list(state.deck.draw_pile),
        "discard": list(state.deck.discard_pile),
        "turn": state.pos.turn,
        "phase": state.pos.stage.value,
        "round": state.pos.round,
        "target": state.options["target"],
        "hand_size": state.options["hand_size"],
        "rng": state.rng.state,
        "winner": state.winner,
    }


class DiceRaceHeuristic:
    """The fixture game's ``heuristic`` agent: a card worth more than a roll's average (3.5) is played,
    else the die is rolled; a rolled 6 is always allowed (blocking costs the blocker 2 as well)."""

    def __init__(self, params: Mapping[str, str]) -> None:
        if params:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(params))}")

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        legal = state.legal_actions()
        allow = Respond(block=False)
        if allow in legal:
            return Choice(allow, "blocking costs me 2 as well")
        cards = [a for a in legal if isinstance(a, PlayCard)]
        best = max(cards, key=lambda a: card_value(a.card), default=None)
        if best is not None and card_value(best.card) > 3.5:
            return Choice(best, f"card worth {card_value(best.card)} beats a roll's 3.5")
        reason = f"a roll's 3.5 beats my best card ({card_value(best.card)})" if best else "no card in hand"
        return Choice(Roll(), reason)


#: The fixture game as a plugin: registered from the tests (conftest), not installed with warhorn.
PLUGIN = GamePlugin(
    spec=SPEC,
    factory=new_dice_race,
    heuristic="fixture_game:DiceRaceHeuristic",
    positions="fixture_game",
    conformance=ConformanceCases(option_sets=({}, {"players": 3}, {"players": 4, "hand_size": 0}), seeds=12),
)


def register() -> None:
    register_plugin(PLUGIN, replace=True)
