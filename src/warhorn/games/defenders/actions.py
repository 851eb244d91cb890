"""The typed actions of Defenders of the Realm, each with a readable notation.

Locations are written with underscores for spaces in text (``move Wolf_Pass``);
heroes are named by their id (``paladin``); cards by their id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from warhorn.engine.actions import Action, ActionCodec


def _t(name: str) -> str:
    return name.replace(" ", "_")


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move the active hero (DEF-ACT-01..04 and movement abilities).

    ``by``: foot, horse, eagle, gate (card), gatelink (gate to gate, no card),
    eagle_flight (Eagle Rider), noble_steed (Paladin), teleport (Wizard).
    """

    kind: ClassVar[str] = "move"
    to: str
    by: str = "foot"
    card: str | None = None

    def notation(self) -> str:
        out = f"move {_t(self.to)}"
        if self.by != "foot":
            out += f" by {self.by}"
        if self.card:
            out += f" {self.card}"
        return out


@dataclass(frozen=True, slots=True)
class BuildGate(Action):
    kind: ClassVar[str] = "build_gate"
    card: str

    def notation(self) -> str:
        return f"build_gate {self.card}"


@dataclass(frozen=True, slots=True)
class Rumors(Action):
    """Rumors at the Inn (DEF-ACT-07): name a colour, spend 1 or 2 tokens."""

    kind: ClassVar[str] = "rumors"
    colour: str
    tokens: int = 1

    def notation(self) -> str:
        return f"rumors {self.colour} {self.tokens}"


@dataclass(frozen=True, slots=True)
class HealLand(Action):
    """Heal the land (DEF-ACT-08); ``card`` None is the Cleric's Sanctify Land."""

    kind: ClassVar[str] = "heal_land"
    card: str | None = None

    def notation(self) -> str:
        return f"heal_land {self.card or 'sanctify'}"


@dataclass(frozen=True, slots=True)
class Rest(Action):
    kind: ClassVar[str] = "rest"

    def notation(self) -> str:
        return "rest"


@dataclass(frozen=True, slots=True)
class Fight(Action):
    """Fight all minions at ``at`` (the hero's location, or next to it for the Ranger's Archery)."""

    kind: ClassVar[str] = "fight"
    at: str

    def notation(self) -> str:
        return f"fight {_t(self.at)}"


@dataclass(frozen=True, slots=True)
class Fireball(Action):
    """Wizard: discard a card of a present minion's colour; every die of 2+ kills one minion."""

    kind: ClassVar[str] = "fireball"
    card: str

    def notation(self) -> str:
        return f"fireball {self.card}"


@dataclass(frozen=True, slots=True)
class Slay(Action):
    """Slayer (DEF-GEN-03): kill every minion of a slain general's colour here, no roll."""

    kind: ClassVar[str] = "slay"
    colour: str

    def notation(self) -> str:
        return f"slay {self.colour}"


@dataclass(frozen=True, slots=True)
class AttackGeneral(Action):
    kind: ClassVar[str] = "attack_general"

    def notation(self) -> str:
        return "attack_general"


@dataclass(frozen=True, slots=True)
class QuestAction(Action):
    """Spend an action on the active hero's quest at this location."""

    kind: ClassVar[str] = "quest"

    def notation(self) -> str:
        return "quest"


@dataclass(frozen=True, slots=True)
class UseReward(Action):
    """Discard a held quest reward for its effect; ``target`` as the reward needs."""

    kind: ClassVar[str] = "use_reward"
    hero: str
    reward: str
    target: str | None = None

    def notation(self) -> str:
        return f"use_reward {self.hero} {self.reward}" + (f" {_t(self.target)}" if self.target else "")


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a purple (special) card held by ``hero``; ``targets`` as the card needs."""

    kind: ClassVar[str] = "play"
    hero: str
    card: str
    targets: tuple[str, ...] = ()

    def notation(self) -> str:
        out = f"play {self.hero} {self.card}"
        if self.targets:
            out += " " + " ".join(_t(t) for t in self.targets)
        return out


@dataclass(frozen=True, slots=True)
class EndDay(Action):
    kind: ClassVar[str] = "end_day"

    def notation(self) -> str:
        return "end_day"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    kind: ClassVar[str] = "discard"
    hero: str
    card: str

    def notation(self) -> str:
        return f"discard {self.hero} {self.card}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline the offered window (special cards, a join, a redraw)."""

    kind: ClassVar[str] = "pass"

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Join(Action):
    kind: ClassVar[str] = "join"
    hero: str

    def notation(self) -> str:
        return f"join {self.hero}"


@dataclass(frozen=True, slots=True)
class Commit(Action):
    kind: ClassVar[str] = "commit"
    hero: str
    card: str

    def notation(self) -> str:
        return f"commit {self.hero} {self.card}"


@dataclass(frozen=True, slots=True)
class CommitDone(Action):
    kind: ClassVar[str] = "commit_done"
    hero: str

    def notation(self) -> str:
        return f"commit_done {self.hero}"


@dataclass(frozen=True, slots=True)
class NextAttacker(Action):
    kind: ClassVar[str] = "next_attacker"
    hero: str

    def notation(self) -> str:
        return f"next_attacker {self.hero}"


@dataclass(frozen=True, slots=True)
class ChooseHero(Action):
    kind: ClassVar[str] = "choose_hero"
    hero: str

    def notation(self) -> str:
        return f"choose_hero {self.hero}"


@dataclass(frozen=True, slots=True)
class TurnChoice(Action):
    """A start-of-turn choice: Eagle Rider's style (sky/ground) or the Sorceress's shape (colour/none)."""

    kind: ClassVar[str] = "turn_choice"
    choice: str

    def notation(self) -> str:
        return f"turn_choice {self.choice}"


@dataclass(frozen=True, slots=True)
class TurnUndead(Action):
    kind: ClassVar[str] = "turn_undead"
    to: str

    def notation(self) -> str:
        return f"turn_undead {_t(self.to)}"


@dataclass(frozen=True, slots=True)
class Redraw(Action):
    """Wizard's Wisdom: discard the Darkness Spreads card just drawn and draw another."""

    kind: ClassVar[str] = "redraw"

    def notation(self) -> str:
        return "redraw"


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """One target of a card or reward chosen step by step: ``what`` is a minion colour,
    ``location``, ``general``, ``hero``, ``to``, ``discard`` or ``top``; ``where`` names it."""

    kind: ClassVar[str] = "pick"
    what: str
    where: str

    def notation(self) -> str:
        return f"pick {self.what} {_t(self.where)}"


ACTION_TYPES: tuple[type[Action], ...] = (
    Move,
    BuildGate,
    Rumors,
    HealLand,
    Rest,
    Fight,
    Fireball,
    Slay,
    AttackGeneral,
    QuestAction,
    UseReward,
    PlayCard,
    EndDay,
    Discard,
    Pass,
    Join,
    Commit,
    CommitDone,
    NextAttacker,
    ChooseHero,
    TurnChoice,
    TurnUndead,
    Redraw,
    Pick,
)

CODEC = ActionCodec(ACTION_TYPES)
