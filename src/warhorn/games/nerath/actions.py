"""Conquest of Nerath's actions: typed, frozen values with a readable text notation.

Spaces are named by their ids, pieces by their type id (``soldier``,
``siege``, ``warrior``, ``mage``, ``monster``, ``castle``, ``elemental``,
``dragon``, ``warship``); warships are also named by their number (``uid``)
because each one carries its own cargo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from warhorn.engine.actions import Action, ActionCodec, written_as

#: A path is written as its spaces joined by ``>``.
_PATH = written_as(separator=">")


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move ``count`` identical pieces from ``path[0]`` along ``path`` (NER-MOV-01).

    Used in movement (phase 2), reposition (phase 4) and for new pieces in
    reinforcements (phase 5). Ending on an enemy space declares an attack.
    """

    kind: ClassVar[str] = "move"
    notation_order: ClassVar[tuple[str, ...]] = ("count", "piece", "path")
    piece: str
    count: int
    path: tuple[str, ...] = field(metadata=_PATH)


@dataclass(frozen=True, slots=True)
class ShipMove(Action):
    """Move warship number ``ship`` (with its cargo) along ``path`` (NER-PCS-08, NER-SEA-01)."""

    kind: ClassVar[str] = "sail"
    ship: int
    path: tuple[str, ...] = field(metadata=_PATH)


@dataclass(frozen=True, slots=True)
class Load(Action):
    """Put one land piece from ``space`` aboard warship ``ship`` in an adjacent sea (NER-SEA-01)."""

    kind: ClassVar[str] = "load"
    ship: int
    piece: str
    space: str


@dataclass(frozen=True, slots=True)
class Unload(Action):
    """Set carried pieces ashore: ``drops`` are (piece, space) pairs, at most two spaces (NER-SEA-03)."""

    kind: ClassVar[str] = "unload"
    ship: int
    drops: tuple[tuple[str, str], ...] = field(metadata=written_as(pair_separator=">"))


@dataclass(frozen=True, slots=True)
class StayAboard(Action):
    """After a won sea battle: keep warship ``ship``'s cargo aboard (NER-BAT-09)."""

    kind: ClassVar[str] = "stay"
    ship: int


@dataclass(frozen=True, slots=True)
class Fight(Action):
    """Choose the next battle to fight (NER-BAT-01)."""

    kind: ClassVar[str] = "fight"
    space: str


@dataclass(frozen=True, slots=True)
class AssignDamage(Action):
    """Put one volley's damage on pieces (or guardian dice) named by token (NER-BAT-03).

    Tokens: a piece type (``soldier``), ``wounded-dragon`` for a dragon already
    damaged, ``warship`` / ``warship(soldier+mage)`` for warships by cargo, and
    ``<guardian-id>:d<sides>`` for a guardian's die.
    """

    kind: ClassVar[str] = "damage"
    targets: tuple[str, ...] = field(metadata=written_as(when_empty="none"))


@dataclass(frozen=True, slots=True)
class SplitDamage(Action):
    """Allied defenders: offer how the volley's damage is shared, as (kingdom id, hits) pairs (NER-BAT-07).

    Written ``split vailin:2,nerath:1``. When one player holds both allies the
    offer is final; otherwise the ally answers with ``accept`` or ``refuse``.
    """

    kind: ClassVar[str] = "split"
    shares: tuple[tuple[str, int], ...] = field(metadata=written_as(pair_separator=":"))


@dataclass(frozen=True, slots=True)
class AcceptSplit(Action):
    """Agree to the ally's offered damage split (NER-BAT-07)."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class RefuseSplit(Action):
    """Refuse the ally's offer: the damage is split by the rule's default (NER-BAT-07)."""

    kind: ClassVar[str] = "refuse"


@dataclass(frozen=True, slots=True)
class ContinueBattle(Action):
    """The attacker fights another round (NER-BAT-02 step 4)."""

    kind: ClassVar[str] = "continue"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """The attacker retreats every attacking piece: ``moves`` are (token, destination) pairs (NER-BAT-12/13).

    Pieces not named go to the first destination given when they may; pieces
    with nowhere to go are destroyed.
    """

    kind: ClassVar[str] = "retreat"
    moves: tuple[tuple[str, str], ...] = field(metadata=written_as(pair_separator=">"))


@dataclass(frozen=True, slots=True)
class RunAmok(Action):
    """A surviving monster moves into an adjacent empty enemy territory and conquers it (NER-BAT-20)."""

    kind: ClassVar[str] = "amok"
    target: str


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Buy one piece and place it on ``space``; ``via`` names the castle a sea placement counts against."""

    kind: ClassVar[str] = "buy"
    piece: str
    space: str
    via: str = field(default="", metadata=written_as(keyword="via"))


@dataclass(frozen=True, slots=True)
class PlayTreasure(Action):
    """Play a treasure card from hand: score its VP, keep it in play (NER-CRD-02/03).

    ``target`` carries the holder's choices its text leaves open (NER-CRD-04), as for :class:`PlayEvent`.
    """

    kind: ClassVar[str] = "treasure"
    card: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class PlayEvent(Action):
    """Play an event card from hand in its timing window (NER-CRD-01).

    ``target`` carries the holder's choices the card's text leaves open (NER-CRD-04): a space, an
    enemy kingdom, pieces or dice joined by ``+``; one part per effect, joined by ``;``, for a card
    of several effects (``rules.cards.card_targets`` lists them).
    """

    kind: ClassVar[str] = "play"
    card: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline: end the current phase, or pass a card window / a Run Amok offer."""

    kind: ClassVar[str] = "pass"


ACTION_TYPES: tuple[type[Action], ...] = (
    Move,
    ShipMove,
    Load,
    Unload,
    StayAboard,
    Fight,
    AssignDamage,
    SplitDamage,
    AcceptSplit,
    RefuseSplit,
    ContinueBattle,
    Retreat,
    RunAmok,
    Buy,
    PlayTreasure,
    PlayEvent,
    Pass,
)

NERATH_CODEC = ActionCodec(ACTION_TYPES)
