"""The typed actions of Defenders of the Realm, each with a readable notation.

Locations are written with underscores for spaces in text (``move Wolf_Pass``);
heroes are named by their id (``paladin``); cards by their id. The notation is
the engine's (kind, then the fields), with the few special forms declared on
the fields (``move X by horse CARD``, ``heal_land sanctify``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from warhorn.engine.actions import Action, ActionCodec, written_as


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move the active hero (DEF-ACT-01..04 and movement abilities).

    ``by``: foot, horse, eagle, gate (card), gatelink (gate to gate, no card),
    eagle_flight (Eagle Rider), noble_steed (Paladin), teleport (Wizard).
    """

    kind: ClassVar[str] = "move"
    to: str
    by: str = field(default="foot", metadata=written_as(keyword="by", omit_default=True))
    card: str | None = field(default=None, metadata=written_as())


@dataclass(frozen=True, slots=True)
class BuildGate(Action):
    kind: ClassVar[str] = "build_gate"
    card: str


@dataclass(frozen=True, slots=True)
class Rumors(Action):
    """Rumors at the Inn (DEF-ACT-07): name a colour, spend 1 or 2 tokens."""

    kind: ClassVar[str] = "rumors"
    colour: str
    tokens: int = 1


@dataclass(frozen=True, slots=True)
class HealLand(Action):
    """Heal the land (DEF-ACT-08); ``card`` None is the Cleric's Sanctify Land."""

    kind: ClassVar[str] = "heal_land"
    card: str | None = field(default=None, metadata=written_as(when_empty="sanctify"))


@dataclass(frozen=True, slots=True)
class Rest(Action):
    kind: ClassVar[str] = "rest"


@dataclass(frozen=True, slots=True)
class Fight(Action):
    """Fight all minions at ``at`` (the hero's location, or next to it for the Ranger's Archery).

    ``plus``: the colours of the minions the extra dice of a spent Find Magic Gate reward are
    rolled against, one colour per die (``fight R1 plus red,black``); empty without the reward.
    """

    kind: ClassVar[str] = "fight"
    at: str
    plus: tuple[str, ...] = field(default=(), metadata=written_as(keyword="plus", omit_default=True))


@dataclass(frozen=True, slots=True)
class Fireball(Action):
    """Wizard: discard a card of a present minion's colour; every die of 2+ kills one minion,
    the Wizard choosing which. ``plus``: extra dice of a spent Find Magic Gate reward (0 or 2)."""

    kind: ClassVar[str] = "fireball"
    card: str
    plus: int = field(default=0, metadata=written_as(keyword="plus", omit_default=True))


@dataclass(frozen=True, slots=True)
class Slay(Action):
    """Slayer (DEF-GEN-03): kill every minion of a slain general's colour here, no roll."""

    kind: ClassVar[str] = "slay"
    colour: str


@dataclass(frozen=True, slots=True)
class AttackGeneral(Action):
    kind: ClassVar[str] = "attack_general"


@dataclass(frozen=True, slots=True)
class QuestAction(Action):
    """Spend an action on the active hero's quest at this location."""

    kind: ClassVar[str] = "quest"


@dataclass(frozen=True, slots=True)
class UseReward(Action):
    """Discard a held quest reward for its effect; ``target`` as the reward needs."""

    kind: ClassVar[str] = "use_reward"
    hero: str
    reward: str
    target: str | None = field(default=None, metadata=written_as())


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a purple (special) card held by ``hero``; ``targets`` as the card needs."""

    kind: ClassVar[str] = "play"
    hero: str
    card: str
    targets: tuple[str, ...] = field(default=(), metadata=written_as(separator=" "))


@dataclass(frozen=True, slots=True)
class EndDay(Action):
    kind: ClassVar[str] = "end_day"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    kind: ClassVar[str] = "discard"
    hero: str
    card: str


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline the offered window (special cards, a join, a redraw)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Join(Action):
    kind: ClassVar[str] = "join"
    hero: str


@dataclass(frozen=True, slots=True)
class Commit(Action):
    kind: ClassVar[str] = "commit"
    hero: str
    card: str


@dataclass(frozen=True, slots=True)
class CommitDone(Action):
    kind: ClassVar[str] = "commit_done"
    hero: str


@dataclass(frozen=True, slots=True)
class NextAttacker(Action):
    kind: ClassVar[str] = "next_attacker"
    hero: str


@dataclass(frozen=True, slots=True)
class ChooseHero(Action):
    kind: ClassVar[str] = "choose_hero"
    hero: str


@dataclass(frozen=True, slots=True)
class TurnChoice(Action):
    """A start-of-turn choice: Eagle Rider's style (sky/ground) or the Sorceress's shape (colour/none)."""

    kind: ClassVar[str] = "turn_choice"
    choice: str


@dataclass(frozen=True, slots=True)
class TurnUndead(Action):
    kind: ClassVar[str] = "turn_undead"
    to: str


@dataclass(frozen=True, slots=True)
class Redraw(Action):
    """Wizard's Wisdom: discard the Darkness Spreads card just drawn and draw another."""

    kind: ClassVar[str] = "redraw"


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """One target of a card or reward chosen step by step: ``what`` is a minion colour,
    ``location``, ``general``, ``hero``, ``to``, ``discard`` or ``top``; ``where`` names it."""

    kind: ClassVar[str] = "pick"
    what: str
    where: str


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
