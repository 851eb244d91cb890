"""The typed actions of Quest for the DragonLords, each with a short text notation.

Spaces are written by id (``attack gorefort bonefield 3``); a player's token-bearing units
("pieces": the units carrying a King, sorcerer, decoy, hero, DragonLord, items or shards) by
number after ``with`` (``attack gorefort bonefield 3 with 4,7``). Piece numbers are the owner's
own knowledge: other players never see them (DLR-HID-01).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from warhorn.engine.actions import Action, ActionCodec, written_as

_WITH = written_as(keyword="with", omit_default=True)
#: ``up_to yes``: the count is the most that may go, and the exact count is asked next (DLR-MOV-05).
_UP_TO = written_as(keyword="up_to", omit_default=True)


@dataclass(frozen=True, slots=True)
class ChoosePeople(Action):
    """Set-up: take a people and its home realm (DLR-SET-04)."""

    kind: ClassVar[str] = "people"
    people: str


@dataclass(frozen=True, slots=True)
class PickRealm(Action):
    """Set-up with 2-3 players: take one more realm (DLR-SET-04)."""

    kind: ClassVar[str] = "realm"
    realm: str


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """Set-up: put a hidden token under a unit in one of your territories (DLR-HID-01)."""

    kind: ClassVar[str] = "token"
    token: str
    territory: str


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the current phase, step or exchange (DLR-TRN-02: every phase may be passed)."""

    kind: ClassVar[str] = "done"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Purchase phase: units (priced by people, DLR-BUY-01) or a ship."""

    kind: ClassVar[str] = "buy"
    what: Literal["units", "ship"]
    count: int = 1


@dataclass(frozen=True, slots=True)
class Sail(Action):
    """Naval movement: a ship with units aboard sails to a sea zone in range (DLR-NAV-01)."""

    kind: ClassVar[str] = "sail"
    ship: int
    zone: str


@dataclass(frozen=True, slots=True)
class Board(Action):
    """Naval movement: units board a ship from a territory next to its zone (DLR-NAV-01); in the quest
    phase a party in the Village boards a ship docked there (``track:<id>``, DLR-QST-04)."""

    kind: ClassVar[str] = "board"
    ship: int
    territory: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class Land(Action):
    """Naval movement: units aboard land in a friendly or empty territory next to the ship (DLR-NAV-01)."""

    kind: ClassVar[str] = "land"
    ship: int
    territory: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class Teleport(Action):
    """The Teleport spell (DLR-PRT-02, DLX-FAQ-06): a sorcerer and up to 5 units go elsewhere."""

    kind: ClassVar[str] = "teleport"
    sorcerer: int
    to: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class SendParty(Action):
    """Quest phase: units from a territory next to a track, or aboard a ship docked at the Village
    (``ship:<n>``, DLR-NAV-04), form a party (DLR-QST-01)."""

    kind: ClassVar[str] = "party"
    track: str
    territory: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class QuestMove(Action):
    """Quest phase: a party on a track rolls a d6 and moves (DLR-QST-02)."""

    kind: ClassVar[str] = "quest"
    track: str
    forward: bool = True


@dataclass(frozen=True, slots=True)
class BuyItem(Action):
    """A party stopped in the Village buys an item (DLR-BUY-02, DLR-QST-04)."""

    kind: ClassVar[str] = "item"
    track: str
    item: str


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Combat phase: attack an adjacent space (DLR-MOV-01); from a ship (``ship:N``, DLR-NAV-03);
    ``via`` a portal (DLR-PRT-01) or a DragonLord's flight (``fly``, DLR-DRL-02)."""

    kind: ClassVar[str] = "attack"
    frm: str
    to: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    via: Literal["", "portal", "fly"] = field(
        default="", metadata=written_as(keyword="via", omit_default=True)
    )
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Forced march (combat phase, DLR-MOV-02), transfer (DLR-MOV-03) or a portal move (DLR-PRT-01)."""

    kind: ClassVar[str] = "move"
    frm: str
    to: str
    count: int
    pieces: tuple[int, ...] = field(default=(), metadata=_WITH)
    via: Literal["", "portal"] = field(default="", metadata=written_as(keyword="via", omit_default=True))
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class Charm(Action):
    """Amazons' charm attack from a territory of theirs (DLX-AMZ-02)."""

    kind: ClassVar[str] = "charm"
    frm: str
    to: str
    count: int
    up_to: bool = field(default=False, metadata=_UP_TO)


@dataclass(frozen=True, slots=True)
class Summon(Action):
    """Play a Summon Elemental card on a space next to one of your sorcerers (DLR-SCR-02)."""

    kind: ClassVar[str] = "summon"
    card: str
    target: str


@dataclass(frozen=True, slots=True)
class Ultimatum(Action):
    """Demand shards from another player (DLX-SHD-04)."""

    kind: ClassVar[str] = "ultimatum"
    target: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """Answer an ultimatum, an offer of mercy or an elemental's Dispel Magic question: ``yes`` or ``no``;
    handing shards over names them."""

    kind: ClassVar[str] = "answer"
    accept: bool
    shards: tuple[str, ...] = field(default=(), metadata=_WITH)


@dataclass(frozen=True, slots=True)
class Carry(Action):
    """A shard or item its receiver places (DLX-SHD-02, DLR-CMB-09, DLR-SHD-01): under the piece
    ``with <n>`` of its units at ``at`` (a territory, ``ship:<n>`` or ``track:<id>``), or, without
    a piece (None), under a plain unit there."""

    kind: ClassVar[str] = "carry"
    at: str
    piece: int | None = field(default=None, metadata=_WITH)


@dataclass(frozen=True, slots=True)
class Cast(Action):
    """In a combat: cast a spell by a caster (``p<piece>``), a shard (``shard:<colour>``), an item
    (``item:<piece>``) or a DragonLord's fire (``p<piece>``) (DLX-CMB-04, DLR-CMB-04)."""

    kind: ClassVar[str] = "cast"
    spell: str
    by: str


@dataclass(frozen=True, slots=True)
class Play(Action):
    """In a combat: play a spell card from the hand (DLX-CMB-05..07, DLR-SCR-*)."""

    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True, slots=True)
class Casualties(Action):
    """Step 7: the pieces (token-bearing units) the owner gives up to the hits (DLR-HID-03)."""

    kind: ClassVar[str] = "lose"
    pieces: tuple[int, ...] = field(default=(), metadata=written_as(when_empty="none"))


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """After step 7 the attacker retreats to a space it attacked from (DLR-CMB-07)."""

    kind: ClassVar[str] = "retreat"
    to: str


@dataclass(frozen=True, slots=True)
class FightOn(Action):
    """After step 7 the attacker fights another round (DLX-CMB-02)."""

    kind: ClassVar[str] = "fight"


@dataclass(frozen=True, slots=True)
class OfferMercy(Action):
    """A defender offers a shard for mercy (DLX-SHD-04)."""

    kind: ClassVar[str] = "mercy"
    shard: str


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Reinforcement phase: place bought units in a Kingdom you hold (DLR-BUY-01), or, with no realm
    under the soft elimination option, in any of your territories (DLX-OPT-04)."""

    kind: ClassVar[str] = "place"
    territory: str
    count: int


@dataclass(frozen=True, slots=True)
class PlaceShip(Action):
    """Reinforcement phase: put a bought ship in a sea zone next to a Kingdom you hold (DLR-BUY-01)."""

    kind: ClassVar[str] = "launch"
    zone: str


ACTION_TYPES: tuple[type[Action], ...] = (
    ChoosePeople,
    PickRealm,
    PlaceToken,
    Done,
    Buy,
    Sail,
    Board,
    Land,
    Teleport,
    SendParty,
    QuestMove,
    BuyItem,
    Attack,
    Move,
    Charm,
    Summon,
    Ultimatum,
    Answer,
    Carry,
    Cast,
    Play,
    Casualties,
    Retreat,
    FightOn,
    OfferMercy,
    Place,
    PlaceShip,
)

CODEC = ActionCodec(ACTION_TYPES)
