"""The state of a game of Conquest of Nerath: pieces, treasuries, VP, cards, control and flow.

The state is data plus queries; the rules that change it live in
:mod:`warhorn.games.nerath.rules`. Pieces are frozen :class:`Unit` values in a
dict keyed by number, so copying a state copies one dict of references
(copy-on-write), never the pieces themselves.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from warhorn.engine.deck import Deck
from warhorn.games.nerath.board import KINGDOM_IDS, KINGDOM_NAMES, LAND, SEA, NerathBoard
from warhorn.games.nerath.pieces import PIECES, Mobility

if TYPE_CHECKING:
    from warhorn.games.nerath.rules.movement import OwnTurnListing


class Phase(IntEnum):
    """The six phases of a kingdom's turn, in order (NER-TRN-01)."""

    DRAW = 0
    MOVEMENT = 1
    BATTLES = 2
    REPOSITION = 3
    REINFORCEMENTS = 4
    INCOME = 5

    @property
    def id(self) -> str:
        """The phase's id in views, events and positions (``movement``)."""
        return self.name.lower()

    @property
    def title(self) -> str:
        return _PHASE_TITLES[self]

    @property
    def rule(self) -> str:
        return _PHASE_RULES[self]


_PHASE_TITLES = ("Draw", "Movement", "Battles", "Reposition", "Reinforcements", "Collect income")
_PHASE_RULES = ("NER-TRN-02", "NER-MOV-01", "NER-BAT-01", "NER-REP-01", "NER-REI-01", "NER-INC-01")
DRAW, MOVEMENT, BATTLES, REPOSITION, REINFORCEMENTS, INCOME = Phase


@dataclass(frozen=True, slots=True)
class TurnPosition:
    """Where the game is: the round (from 1), whose turn (the kingdom's index) and the phase."""

    round: int = 1
    turn: int = 0
    phase: Phase = Phase.DRAW


#: Alliance teams (NER-SET-05): Karkoth + Iron Circle, Vailin + Nerath.
ALLIANCE_TEAM: tuple[int, ...] = (0, 1, 0, 1)


def players_of_mode(mode: str, players: int) -> tuple[int, ...]:
    """Which player (seat) controls each kingdom, in turn order (NER-SET-05)."""
    if mode == "free_for_all":
        if players != 4:
            raise ValueError("free-for-all needs 4 players (NER-SET-05)")
        return (0, 1, 2, 3)
    if players == 2:
        return (0, 1, 0, 1)
    if players == 3:
        return (1, 0, 2, 0)
    if players == 4:
        return (0, 1, 2, 3)
    raise ValueError("alliance mode takes 2, 3 or 4 players (NER-SET-05)")


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece on the board.

    ``space`` is where it is (a carried piece: its warship's space); ``carrier``
    the warship's number or -1. ``moved``: movement spent this phase (steps for
    warships, 1 = spent for other pieces). ``done``: may not move again this
    turn (loaded, landed, retreated). ``new``: bought this turn. ``damage``:
    damage taken in the current battle; ``inactive``: a castle knocked out for
    the current battle (NER-BAT-06).
    """

    uid: int
    kingdom: int
    ptype: str
    space: int
    carrier: int = -1
    moved: int = 0
    done: bool = False
    new: bool = False
    damage: int = 0
    inactive: bool = False
    boarded: bool = False


#: Unit's fields in order (BoardQueries.update writes them out in this order).
_UNIT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Unit))
assert _UNIT_FIELDS == (
    "uid",
    "kingdom",
    "ptype",
    "space",
    "carrier",
    "moved",
    "done",
    "new",
    "damage",
    "inactive",
    "boarded",
), "BoardQueries.update lists Unit's fields in order"
#: The fields BoardQueries.update may change (all but the number).
_CHANGEABLE = frozenset(_UNIT_FIELDS[1:])


@dataclass(frozen=True, slots=True)
class GuardianSlot:
    """A guardian tile on a dungeon entrance: its id, the dice it has left, and whether face up."""

    tile: str
    dice: tuple[int, ...]
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class DamageOrder:
    """One volley's damage waiting to be assigned by ``player`` to ``kingdom``'s pieces (-1: guardians)."""

    player: int
    kingdom: int
    hits: int


@dataclass(frozen=True, slots=True)
class DamageSplit:
    """Damage that two allied defenders share out by agreement (NER-BAT-07).

    ``proposer`` (the ally with more pieces in the battle) offers how many of
    the ``hits`` each takes; ``offer`` is ``(proposer's hits, partner's hits)``
    once made, waiting for ``partner``'s answer. A refusal falls back to the
    rule's default split.
    """

    hits: int
    proposer: int
    partner: int
    offer: tuple[int, int] | None = None


#: One rolled die: (sides, face, least face that hits).
Die = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class BattleState:
    """The battle being fought (NER-BAT-02). ``step``: first_strike | normal | decide.

    ``rolled``: the attacker's and the defenders' dice of the current step, kept
    until the battle-round card window closes (rerolls change them); ``negate``:
    hits cancelled against the attacker and against the defenders this step;
    ``forced_retreat``: a card forces the attacker out after this round;
    ``split``: allied defenders still to agree how to share this volley's damage
    (the attacker's own damage order waits in ``orders`` meanwhile).
    """

    space: int
    kind: str  # land | sea | dungeon
    attacker: int
    round: int = 1
    step: str = "first_strike"
    orders: tuple[DamageOrder, ...] = ()
    rolled: tuple[tuple[Die, ...], tuple[Die, ...]] = ((), ())
    negate: tuple[int, int] = (0, 0)
    forced_retreat: bool = False
    split: DamageSplit | None = None


@dataclass(frozen=True, slots=True)
class CardWindow:
    """A timing window open for cards (NER-CRD-01): ``queue`` = kingdoms still to play or pass.

    ``resume`` says what happens when it closes: ``battle_roll`` (roll the first
    step), ``battle_hits`` (turn the rolled dice into damage), ``card`` (carry out
    the card in ``card``: kingdom, card id, target, treasure?) or ``none``.
    """

    name: str
    queue: tuple[int, ...]
    resume: str = "none"
    card: tuple[int, str, str, bool] | None = None


#: Who may see a field of the state: everybody, the kingdom it belongs to (its player), or nobody
#: (deck orders, face-down tiles: the view shows counts or nothing).
PUBLIC, OWNER, NOBODY = "public", "owner", "nobody"


def declared(seen_by: str, copy: Any = None, **kwargs: Any) -> Any:
    """A NerathData field with who may see it and how a copy of the state copies it.

    ``copy``: a function making the copy's own container (``dict``, ``list``), or None when
    the value is immutable and is shared. ``copy()`` is derived from these declarations and
    tests check every field has one (tests/games/nerath/test_state_declaration.py).
    """
    return field(metadata={"seen_by": seen_by, "copy": copy}, **kwargs)


@dataclass
class NerathData:
    """Everything that changes during a game, each field declared once with who may see it and
    how it is copied (:func:`declared`)."""

    units: dict[int, Unit] = declared(PUBLIC, dict)
    next_uid: int = declared(PUBLIC)
    gold: list[int] = declared(PUBLIC, list)
    vp: list[int] = declared(PUBLIC, list)
    control: list[int] = declared(PUBLIC, list)
    hands: list[tuple[str, ...]] = declared(OWNER, list)
    treasure_hands: list[tuple[str, ...]] = declared(OWNER, list)
    treasures_in_play: list[tuple[str, ...]] = declared(PUBLIC, list)
    event_decks: list[Deck] = declared(NOBODY, list)  # draw piles hidden (counted), discards public
    treasure_deck: Deck = declared(NOBODY)
    guardians: dict[int, tuple[GuardianSlot, ...]] = declared(PUBLIC, dict)  # face-down tiles hidden
    guardian_stack: Deck = declared(NOBODY)
    pos: TurnPosition = declared(PUBLIC, default_factory=TurnPosition)
    battles_todo: tuple[int, ...] = declared(PUBLIC, default=())
    battle: BattleState | None = declared(PUBLIC, default=None)
    #: warships that won a sea battle and may still land cargo
    landings: tuple[int, ...] = declared(PUBLIC, default=())
    amok: tuple[int, ...] = declared(PUBLIC, default=())  # monsters offered Run Amok
    amok_from: int = declared(PUBLIC, default=-1)
    control_at_start: tuple[int, ...] = declared(PUBLIC, default=())
    #: spaces whose castle changed hands this turn
    captured: frozenset[int] = declared(PUBLIC, default=frozenset())
    #: (castle space, new pieces counted) this turn
    placed: tuple[tuple[int, int], ...] = declared(PUBLIC, default=())
    new_castles: frozenset[int] = declared(PUBLIC, default=frozenset())
    new_pieces_on: frozenset[int] = declared(PUBLIC, default=frozenset())
    result: Any = declared(PUBLIC, default=None)
    round_cap_hit: bool = declared(PUBLIC, default=False)
    winner_pending: tuple[int, ...] = declared(PUBLIC, default=())
    #: (kingdom, CardEffect) modifiers in force (see cards.py)
    effects: tuple[tuple[int, Any], ...] = declared(PUBLIC, default=())
    windows: tuple[CardWindow, ...] = declared(PUBLIC, default=())  # open card windows, innermost last
    #: (kingdom, card) cancelled while its answer window is open
    cancelled: tuple[int, str] | None = declared(PUBLIC, default=None)

    def copy(self) -> NerathData:
        """A copy whose containers are its own (the values in them are immutable and shared)."""
        twin = NerathData.__new__(NerathData)
        values: dict[str, Any] | None = getattr(twin, "__dict__", None)
        if values is None:  # the compiled build (docs/compiled.md): no instance __dict__
            for name, copier in _COPIERS:
                value = getattr(self, name)
                setattr(twin, name, value if copier is None else copier(value))
            return twin
        values.update(self.__dict__)  # every value shared, then each container copied
        for name, copier in _CONTAINER_COPIERS:
            values[name] = copier(values[name])
        return twin


#: (field name, copy function or None) for every NerathData field, in declared order.
_COPIERS: tuple[tuple[str, Any], ...] = tuple((f.name, f.metadata["copy"]) for f in fields(NerathData))
#: The fields whose values are containers, with their copy functions.
_CONTAINER_COPIERS: tuple[tuple[str, Any], ...] = tuple((name, copier) for name, copier in _COPIERS if copier)


class PieceIndex:
    """Where the pieces are, by number: kept up to date piece by piece and shared by copies.

    ``occ[space]``: the pieces on a space that are not carried; ``cargo[ship]``: what a
    warship carries; ``castles[k]``: the spaces of ``k``'s castles; ``kingdom[k]``: all of
    ``k``'s pieces; ``typed[(k, ptype)]``: ``k``'s pieces of one type. Every tuple is in
    ascending order. A copied state shares its parent's index until either of them changes a
    piece (copy on write, :meth:`BoardQueries._own_index`).
    """

    __slots__ = ("cargo", "castles", "kingdom", "occ", "typed")

    def __init__(
        self,
        occ: dict[int, tuple[int, ...]],
        cargo: dict[int, tuple[int, ...]],
        castles: dict[int, tuple[int, ...]],
        kingdom: dict[int, tuple[int, ...]],
        typed: dict[tuple[int, str], tuple[int, ...]],
    ) -> None:
        self.occ, self.cargo, self.castles, self.kingdom, self.typed = occ, cargo, castles, kingdom, typed

    @classmethod
    def of(cls, units: dict[int, Unit]) -> PieceIndex:
        index = cls({}, {}, {}, {}, {})
        for u in sorted(units.values(), key=lambda x: x.uid):
            index.add(u)
        return index

    def clone(self) -> PieceIndex:
        return PieceIndex(
            dict(self.occ), dict(self.cargo), dict(self.castles), dict(self.kingdom), dict(self.typed)
        )

    @staticmethod
    def _insert(table: dict[Any, tuple[int, ...]], key: Any, value: int) -> None:
        old = table.get(key, ())
        if not old or old[-1] < value:
            table[key] = (*old, value)
        else:
            at = bisect_left(old, value)
            table[key] = (*old[:at], value, *old[at:])

    @staticmethod
    def _delete(table: dict[Any, tuple[int, ...]], key: Any, value: int) -> None:
        old = table[key]
        if len(old) == 1:
            del table[key]
            return
        at = old.index(value)
        table[key] = old[:at] + old[at + 1 :]

    def add(self, u: Unit) -> None:
        self._insert(self.kingdom, u.kingdom, u.uid)
        self._insert(self.typed, (u.kingdom, u.ptype), u.uid)
        self._place(u)

    def discard(self, u: Unit) -> None:
        self._delete(self.kingdom, u.kingdom, u.uid)
        self._delete(self.typed, (u.kingdom, u.ptype), u.uid)
        self._lift(u)

    def relocate(self, old: Unit, new: Unit) -> None:
        """The same piece (number, kingdom and type) moved or boarded: only where it is changes."""
        self._lift(old)
        self._place(new)

    def _place(self, u: Unit) -> None:
        if u.carrier >= 0:
            self._insert(self.cargo, u.carrier, u.uid)
            return
        self._insert(self.occ, u.space, u.uid)
        if u.ptype == "castle":
            self._insert(self.castles, u.kingdom, u.space)

    def _lift(self, u: Unit) -> None:
        if u.carrier >= 0:
            self._delete(self.cargo, u.carrier, u.uid)
            return
        self._delete(self.occ, u.space, u.uid)
        if u.ptype == "castle":
            self._delete(self.castles, u.kingdom, u.space)


# compiled build: NerathState, whose base this is, allows interpreted subclasses
@mypyc_attr(allow_interpreted_subclasses=True)
class BoardQueries:
    """Read-only questions about pieces and control, shared by every rules module.

    Mixed into the state; needs ``board``, ``d`` (:class:`NerathData`), ``team`` and
    ``options``. Pieces change only through :meth:`put`, :meth:`update`, :meth:`remove`
    and :meth:`add_unit`, which keep the :class:`PieceIndex` up to date; code that
    changes ``d.units`` by hand calls :meth:`touch` afterwards.
    """

    board: NerathBoard
    d: NerathData
    team: tuple[int, ...]
    player_of: tuple[int, ...]
    options: dict[str, Any]
    _ix: PieceIndex | None
    _ix_own: bool
    #: The movement situation last found for a kingdom (see rules.movement._situation); forgotten
    #: whenever the state changes.
    _situation: tuple[int, dict[tuple[object, ...], object]] | None
    #: The legal actions last listed (``NerathState.legal_actions``); forgotten whenever the state changes.
    _legal: tuple[Any, ...] | None
    #: The own-turn moves, sails, loads and unloads listed (rules.movement.OwnTurnListing); forgotten
    #: whenever the state changes.
    _listing: OwnTurnListing | None
    #: The sides of the current battle as the battle model sees them (rules.battle_flow.side_model);
    #: forgotten whenever a piece changes.
    _sides: dict[tuple[object, ...], Any] | None

    # --- pieces ----------------------------------------------------------------
    def touch(self) -> None:
        """Forget what is derived from the data (after changing ``d`` by hand): the piece index is
        rebuilt, the movement situation found and the legal actions listed again when next asked."""
        self._ix = None
        self._situation = None
        self._legal = None
        self._listing = None
        self._sides = None

    def index(self) -> PieceIndex:
        """The piece index (read only: change pieces through put/update/remove)."""
        ix = self._ix
        if ix is None:
            ix = self._ix = PieceIndex.of(self.d.units)
            self._ix_own = True
        return ix

    def _own_index(self) -> PieceIndex:
        """The index, copied first if a copy of this state still shares it."""
        ix = self.index()
        if not self._ix_own:
            ix = self._ix = ix.clone()
            self._ix_own = True
        return ix

    def units_at(self, space: int) -> list[Unit]:
        """Pieces on ``space`` that are not carried, in number order."""
        units = self.d.units
        return [units[u] for u in self.index().occ.get(space, ())]

    def cargo_of(self, ship: int) -> list[Unit]:
        units = self.d.units
        return [units[u] for u in self.index().cargo.get(ship, ())]

    def units_of(self, k: int, ptype: str | None = None) -> list[Unit]:
        """Kingdom ``k``'s pieces (of type ``ptype`` if given; carried ones included), in number order."""
        units = self.d.units
        ix = self.index()
        uids = ix.kingdom.get(k, ()) if ptype is None else ix.typed.get((k, ptype), ())
        return [units[u] for u in uids]

    def put(self, unit: Unit) -> None:
        self._situation = self._legal = self._listing = self._sides = None
        ix = self._own_index()
        old = self.d.units.get(unit.uid)
        if old is not None:
            ix.discard(old)
        self.d.units[unit.uid] = unit
        ix.add(unit)

    def update(self, unit: Unit, **changes: Any) -> Unit:
        if not changes.keys() <= _CHANGEABLE:
            raise TypeError(f"a piece has no changeable field {sorted(changes.keys() - _CHANGEABLE)}")
        get = changes.get
        # every field but the number (which never changes), written out in Unit's order: this runs for
        # every piece that moves
        new = Unit(
            unit.uid,
            get("kingdom", unit.kingdom),
            get("ptype", unit.ptype),
            get("space", unit.space),
            get("carrier", unit.carrier),
            get("moved", unit.moved),
            get("done", unit.done),
            get("new", unit.new),
            get("damage", unit.damage),
            get("inactive", unit.inactive),
            get("boarded", unit.boarded),
        )
        self._situation = self._legal = self._listing = self._sides = None
        if "kingdom" in changes or "ptype" in changes:
            ix = self._own_index()
            ix.discard(self.d.units[unit.uid])
            ix.add(new)
        elif "space" in changes or "carrier" in changes:
            self._own_index().relocate(self.d.units[unit.uid], new)
        self.d.units[unit.uid] = new
        return new

    def remove(self, uid: int) -> list[Unit]:
        """Remove a piece (and, for a warship, everything it carries, NER-SEA-07); return what left."""
        self._situation = self._legal = self._listing = self._sides = None
        ix = self._own_index()
        units = self.d.units
        gone = [units.pop(uid)]
        gone += [units.pop(c) for c in ix.cargo.get(uid, ())]
        for u in gone:
            ix.discard(u)
        return gone

    def add_unit(self, kingdom: int, ptype: str, space: int, **flags: Any) -> Unit:
        unit = Unit(self.d.next_uid, kingdom, ptype, space, **flags)
        self.d.next_uid += 1
        self.put(unit)
        return unit

    # --- sides -----------------------------------------------------------------
    def allied(self, a: int, b: int) -> bool:
        """Same kingdom, or allies in alliance mode (NER-MAP-05, NER-MOV-08)."""
        return self.team[a] == self.team[b]

    def controller(self, space: int) -> int:
        """The kingdom controlling a territory (-1: none; sea and dungeons) (NER-MAP-04)."""
        return self.d.control[space]

    def enemy_units_at(self, space: int, k: int) -> list[Unit]:
        return [u for u in self.units_at(space) if not self.allied(u.kingdom, k)]

    def has_enemy_units(self, space: int, k: int) -> bool:
        units, team = self.d.units, self.team
        mine = team[k]
        return any(team[units[u].kingdom] != mine for u in self.index().occ.get(space, ()))

    def is_friendly(self, space: int, k: int) -> bool:
        """NER-MAP-05: own/allied territory; a sea space without enemy pieces. Dungeons never (NER-MAP-06)."""
        kind = self.board.kind[space]
        if kind == LAND:
            c = self.d.control[space]
            return c >= 0 and self.allied(c, k)
        if kind == SEA:
            return not self.has_enemy_units(space, k)
        return False

    def is_enemy(self, space: int, k: int) -> bool:
        """NER-MAP-05: a territory controlled by an enemy (even empty); a sea space with enemy pieces."""
        kind = self.board.kind[space]
        if kind == LAND:
            c = self.d.control[space]
            return c < 0 or not self.allied(c, k)
        if kind == SEA:
            return self.has_enemy_units(space, k)
        return False

    def castle_at(self, space: int) -> Unit | None:
        units = self.d.units
        for uid in self.index().occ.get(space, ()):
            u = units[uid]
            if u.ptype == "castle":
                return u
        return None

    def own_castles(self, k: int) -> tuple[int, ...]:
        """Spaces holding one of ``k``'s castles, in board order."""
        return self.index().castles.get(k, ())

    def kingdom_name(self, k: int) -> str:
        return KINGDOM_NAMES[k]

    def space_name(self, space: int) -> str:
        return self.board.sid(space)

    def mobility(self, ptype: str) -> Mobility:
        return PIECES[ptype].mobility

    def holds_own_capital(self, k: int) -> bool:
        cap = self.board.capitals[k]
        return cap >= 0 and self.d.control[cap] == k

    def treasure_count(self, k: int) -> int:
        return len(self.d.treasure_hands[k]) + len(self.d.treasures_in_play[k])


def kingdom_id(k: int) -> str:
    return KINGDOM_IDS[k]
