"""The typed actions of Small World of Warcraft, each with a short text notation.

Regions are written by id (``conquer l1_04``); an ability that a conquest uses is
written after ``via`` (``conquer m2_03 via frostmourne``). Counts follow the region
(``deploy l1_04 3``); a unit other than race tokens is named after the count
(``deploy l1_04 1 champion``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from warhorn.engine.actions import Action, ActionCodec, written_as

#: What a conquest may use beyond the ordinary rules (each is once per turn):
#: champion (SWW-POW-CHA), doomhammer (SWW-ART-01), alar (Ashes of Al'ar, SWW-ART-02),
#: frostmourne (SWW-ART-05), airborne (Gnomes, SWW-RAC-GNO), ethereal (Ethereals' discount on a
#: legendary place, SWW-RAC-ETH).
Via = Literal["", "champion", "doomhammer", "alar", "frostmourne", "airborne", "ethereal"]
VIAS: tuple[str, ...] = ("champion", "doomhammer", "alar", "frostmourne", "airborne", "ethereal")
Unit = Literal["token", "beast", "champion"]


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Take the combo at ``index`` (0 = top of the column) (SWW-CMB-01)."""

    kind: ClassVar[str] = "pick"
    index: int


@dataclass(frozen=True, slots=True)
class Form(Action):
    """Worgen: choose human (+2 coins) or worgen form (pay 1, conquests cost 1 less) (SWW-RAC-WOR)."""

    kind: ClassVar[str] = "form"
    form: Literal["human", "worgen"]


@dataclass(frozen=True, slots=True)
class Conquer(Action):
    """Conquer a region with tokens from hand (SWW-CNQ-01..03), optionally using an ability."""

    kind: ClassVar[str] = "conquer"
    region: str
    via: Via = field(default="", metadata=written_as(keyword="via"))


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    """The final conquest: name a region and roll the reinforcement die (SWW-CNQ-05)."""

    kind: ClassVar[str] = "reinforce"
    region: str


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """Empty one of your regions before conquering, taking its tokens in hand (SWW-EXP-01)."""

    kind: ClassVar[str] = "abandon"
    region: str


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Put your active race in decline instead of conquering (SWW-DCL-01)."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Intimidate(Action):
    """Intimidating: move one token out of a neighbouring opponent region (SWW-POW-MEN)."""

    kind: ClassVar[str] = "intimidate"
    region: str


@dataclass(frozen=True, slots=True)
class Portal(Action):
    """Portal Mage: swap everything movable between two magic regions (SWW-POW-POR)."""

    kind: ClassVar[str] = "portal"
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Ethereals: move an artifact from a region next to yours into your region (SWW-RAC-ETH)."""

    kind: ClassVar[str] = "steal"
    source: str
    target: str


@dataclass(frozen=True, slots=True)
class EndConquests(Action):
    """Stop conquering and go on to redeployment (SWW-RDP-01)."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Forsaken: buy extra tokens for 1 coin each, one per token you made a race lose (SWW-RAC-FOR)."""

    kind: ClassVar[str] = "recruit"
    count: int


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Put units from hand into one of your regions (your redeployment or a defender's)."""

    kind: ClassVar[str] = "deploy"
    region: str
    count: int = 1
    unit: Unit = field(default="token", metadata=written_as(omit_default=True))


@dataclass(frozen=True, slots=True)
class PlaceArtifact(Action):
    """Aegis of Aggramar / Heart of Azeroth: lay it in one of your regions at the end of your turn."""

    kind: ClassVar[str] = "place"
    artifact: str
    region: str


@dataclass(frozen=True, slots=True)
class Objective(Action):
    """Humans: lay a Military Objective on a region not held by an Alliance race (SWW-RAC-HUM)."""

    kind: ClassVar[str] = "objective"
    region: str


@dataclass(frozen=True, slots=True)
class Bomb(Action):
    """Goblins: lay the top bomb of the stack face down on a neighbouring opponent region (SWW-RAC-GOB)."""

    kind: ClassVar[str] = "bomb"
    region: str


@dataclass(frozen=True, slots=True)
class Side(Action):
    """A neutral race at the Battleground fights with the Alliance or the Horde this turn (SWW-LEG-01)."""

    kind: ClassVar[str] = "side"
    faction: Literal["alliance", "horde"]


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Lay no more Military Objectives (SWW-RAC-HUM) or bombs (SWW-RAC-GOB) this turn."""

    kind: ClassVar[str] = "done"


ACTION_TYPES: tuple[type[Action], ...] = (
    Pick,
    Form,
    Conquer,
    Reinforce,
    Abandon,
    Decline,
    Intimidate,
    Portal,
    Steal,
    EndConquests,
    Recruit,
    Deploy,
    PlaceArtifact,
    Objective,
    Bomb,
    Side,
    Done,
)
CODEC = ActionCodec(ACTION_TYPES)
