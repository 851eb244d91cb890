"""The records a Defenders of the Realm state is made of: hero seats, generals, and the
battle, window, night and picking in progress. Plain data; the rules change them.

Each record writes its ``__init__`` out although it is a dataclass: the compiled build
(docs/compiled.md) compiles a written ``__init__``, while the one ``dataclasses`` generates
stays interpreted and made every record built or copied a call into the interpreter. The
dataclass still gives ``__eq__`` and ``__repr__``; the fields and their defaults are the
``__init__``'s parameters, in the same order (``tests/defenders/test_records.py`` checks)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from warhorn.games.defenders.board import COLOURS, DefendersBoard


class Phase(StrEnum):
    """Where the active hero's turn stands (DEF-TRN-01): its start (the Eagle Rider's and the
    Sorceress's choice), the Daytime, the Evening draws, the Night (a window for purple cards,
    then the Darkness Spreads cards) and the end of the turn (generals heal)."""

    START = "start"
    DAY = "day"
    EVENING = "evening"
    NIGHT_START = "night_start"
    NIGHT_BEGIN = "night_begin"
    NIGHT = "night"
    END = "end"


class DecisionKind(StrEnum):
    """The kinds of decision the game asks for (``Decision.kind``); one handler each in
    :mod:`warhorn.games.defenders.rules.decisions` (the battle's three share one)."""

    CHOOSE_HERO = "choose_hero"
    DISCARD = "discard"
    PICK = "pick"
    JOIN = "join"
    COMMIT = "commit"
    NEXT_ATTACKER = "next_attacker"
    SPECIAL = "special"
    TURN_UNDEAD = "turn_undead"
    WISDOM = "wisdom"
    TURN_CHOICE = "turn_choice"
    ACTION = "action"


class BattleStage(StrEnum):
    JOIN = "join"  # each other hero on the location is asked
    COMMIT = "commit"  # each participant commits cards
    ORDER = "order"  # the starter picks the next roller


class NightStage(StrEnum):
    DRAW = "draw"
    WISDOM = "wisdom"  # the Wizard may redraw the card
    REACT = "react"  # a window for reactions to the card
    RESOLVE = "resolve"


class PickStage(StrEnum):
    MINION = "minion"
    LOCATION = "location"
    GENERAL = "general"
    HERO = "hero"
    TO = "to"
    DISCARD = "discard"
    ORDER = "order"
    DONE = "done"


WAR_NAMES = ("Early War", "Mid War", "Mid War (second space)", "Late War")


@dataclass(slots=True)
class HeroSlot:
    """One seat in the turn order: a hero and the player running it."""

    player: int
    hero: str | None
    loc: int
    life: int
    max_life: int
    actions: int = 0
    hand: list[str] = field(default_factory=list)
    quest: str | None = None
    quest_progress: list[str] = field(default_factory=list)
    quest_minions: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    rewards: list[str] = field(default_factory=list)  # quest ids whose reward the hero holds
    slain: list[int] = field(default_factory=list)  # colours of generals this hero slew (Slayer)
    turn: dict[str, Any] = field(default_factory=dict)  # per-turn flags

    def __init__(
        self,
        player: int,
        hero: str | None,
        loc: int,
        life: int,
        max_life: int,
        actions: int = 0,
        hand: list[str] | None = None,
        quest: str | None = None,
        quest_progress: list[str] | None = None,
        quest_minions: list[int] | None = None,
        rewards: list[str] | None = None,
        slain: list[int] | None = None,
        turn: dict[str, Any] | None = None,
    ) -> None:
        self.player = player
        self.hero = hero
        self.loc = loc
        self.life = life
        self.max_life = max_life
        self.actions = actions
        self.hand = [] if hand is None else hand
        self.quest = quest
        self.quest_progress = [] if quest_progress is None else quest_progress
        self.quest_minions = [0, 0, 0, 0] if quest_minions is None else quest_minions
        self.rewards = [] if rewards is None else rewards
        self.slain = [] if slain is None else slain
        self.turn = {} if turn is None else turn

    def copy(self) -> HeroSlot:
        return HeroSlot(
            self.player,
            self.hero,
            self.loc,
            self.life,
            self.max_life,
            self.actions,
            self.hand.copy(),
            self.quest,
            self.quest_progress.copy(),
            self.quest_minions.copy(),
            self.rewards.copy(),
            self.slain.copy(),
            self.turn.copy(),
        )

    def to_json(self, board: DefendersBoard) -> dict[str, Any]:
        return {
            "player": self.player,
            "hero": self.hero,
            "location": board.location_names[self.loc],
            "life": self.life,
            "max_life": self.max_life,
            "actions": self.actions,
            "hand": list(self.hand),
            "quest": self.quest,
            "quest_progress": list(self.quest_progress),
            "quest_minions": dict(zip(COLOURS, self.quest_minions, strict=True)),
            "rewards": list(self.rewards),
            "slain": [COLOURS[c] for c in self.slain],
            "turn": dict(sorted(self.turn.items())),
        }


@dataclass(slots=True)
class GeneralState:
    loc: int  # -1 once defeated
    wounds: int = 0
    heal_from: int = -1  # first turn number at whose end it heals (-1: not healing)
    no_heal_turn: int = -1  # Spy in the Camp: no healing at the end of this turn

    def __init__(self, loc: int, wounds: int = 0, heal_from: int = -1, no_heal_turn: int = -1) -> None:
        self.loc = loc
        self.wounds = wounds
        self.heal_from = heal_from
        self.no_heal_turn = no_heal_turn

    def copy(self) -> GeneralState:
        return GeneralState(self.loc, self.wounds, self.heal_from, self.no_heal_turn)


@dataclass(slots=True)
class Battle:
    """A general battle in progress (DEF-GEN-01, DEF-GEN-06)."""

    general: int
    loc: int
    starter: int
    stage: BattleStage
    to_ask: list[int]
    participants: list[int]
    committed: dict[int, list[str]] = field(default_factory=dict)
    commit_queue: list[int] = field(default_factory=list)
    rolled: list[int] = field(default_factory=list)
    hits: int = 0  # successful hits rolled in this battle, before parries
    extra_dice: dict[int, int] = field(default_factory=dict)  # from spent quest rewards
    parries: int = 0  # 1s rolled in this battle against Gorgutt (DEF-GEN-08)

    def __init__(
        self,
        general: int,
        loc: int,
        starter: int,
        stage: BattleStage,
        to_ask: list[int],
        participants: list[int],
        committed: dict[int, list[str]] | None = None,
        commit_queue: list[int] | None = None,
        rolled: list[int] | None = None,
        hits: int = 0,
        extra_dice: dict[int, int] | None = None,
        parries: int = 0,
    ) -> None:
        self.general = general
        self.loc = loc
        self.starter = starter
        self.stage = stage
        self.to_ask = to_ask
        self.participants = participants
        self.committed = {} if committed is None else committed
        self.commit_queue = [] if commit_queue is None else commit_queue
        self.rolled = [] if rolled is None else rolled
        self.hits = hits
        self.extra_dice = {} if extra_dice is None else extra_dice
        self.parries = parries

    def copy(self) -> Battle:
        return Battle(
            self.general,
            self.loc,
            self.starter,
            self.stage,
            list(self.to_ask),
            list(self.participants),
            {k: list(v) for k, v in self.committed.items()},
            list(self.commit_queue),
            list(self.rolled),
            self.hits,
            dict(self.extra_dice),
            self.parries,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "general": COLOURS[self.general],
            "starter": self.starter,
            "stage": self.stage,
            "to_ask": list(self.to_ask),
            "participants": list(self.participants),
            "committed": {str(k): list(v) for k, v in sorted(self.committed.items())},
            "commit_queue": list(self.commit_queue),
            "rolled": list(self.rolled),
            "hits": self.hits,
            "extra_dice": {str(k): v for k, v in sorted(self.extra_dice.items())},
            "parries": self.parries,
        }


@dataclass(slots=True)
class Window:
    """A moment where players may play special cards (or react); asked one player at a time."""

    kind: str  # "night" (before the night's draws) or "card" (a drawn Darkness Spreads card)
    players: list[int]

    def __init__(self, kind: str, players: list[int]) -> None:
        self.kind = kind
        self.players = players

    def copy(self) -> Window:
        return Window(self.kind, list(self.players))


@dataclass(slots=True)
class Night:
    """The night in progress: the draws left and the card being resolved."""

    modes: list[str]  # "full" or "general" for each card still to draw
    card: str | None = None
    mode: str = "full"
    stage: NightStage = NightStage.DRAW
    cancelled: list[str] = field(default_factory=list)  # placements cancelled ("loc") or "general"
    redrawn: bool = False

    def __init__(
        self,
        modes: list[str],
        card: str | None = None,
        mode: str = "full",
        stage: NightStage = NightStage.DRAW,
        cancelled: list[str] | None = None,
        redrawn: bool = False,
    ) -> None:
        self.modes = modes
        self.card = card
        self.mode = mode
        self.stage = stage
        self.cancelled = [] if cancelled is None else cancelled
        self.redrawn = redrawn

    def copy(self) -> Night:
        return Night(list(self.modes), self.card, self.mode, self.stage, list(self.cancelled), self.redrawn)


@dataclass(slots=True)
class Picking:
    """A card or reward whose targets are chosen one at a time (see rules/picks.py)."""

    slot: int
    effect: str
    stage: PickStage
    left: int
    allowed: list[int] = field(default_factory=list)
    taken: dict[int, int] = field(default_factory=dict)
    chosen: list[str] = field(default_factory=list)

    def __init__(
        self,
        slot: int,
        effect: str,
        stage: PickStage,
        left: int,
        allowed: list[int] | None = None,
        taken: dict[int, int] | None = None,
        chosen: list[str] | None = None,
    ) -> None:
        self.slot = slot
        self.effect = effect
        self.stage = stage
        self.left = left
        self.allowed = [] if allowed is None else allowed
        self.taken = {} if taken is None else taken
        self.chosen = [] if chosen is None else chosen

    def copy(self) -> Picking:
        return Picking(
            self.slot,
            self.effect,
            self.stage,
            self.left,
            list(self.allowed),
            dict(self.taken),
            list(self.chosen),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "effect": self.effect,
            "stage": self.stage,
            "left": self.left,
            "allowed": list(self.allowed),
            "taken": {str(k): v for k, v in sorted(self.taken.items())},
            "chosen": list(self.chosen),
        }
