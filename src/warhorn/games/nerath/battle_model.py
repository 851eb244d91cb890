"""Conquest of Nerath's battle model: the pure mechanics, shared by the game rules, the odds
calculator and the AI.

Everything here is pure: functions take sides and return new sides; dice come
from the :class:`~warhorn.engine.rng.Rng` the caller passes in. The battle as the
game plays it — a state machine in ``state.d.battle`` that waits for decisions —
is :mod:`warhorn.games.nerath.rules.battle_flow`, which builds its sides here.

Model
-----
A :class:`BattleSide` holds the pieces of one side by type as counts (pieces
of one type are interchangeable), split into *healthy* pieces and *damaged*
ones, plus any dungeon guardians:

* a resilient piece (dragon, NER-PCS-07; or a type a card made resilient)
  with one damage is counted in ``damaged``: it still fights and heals at the
  end of the battle (NER-BAT-05);
* a castle that took damage is counted in ``damaged`` too: that means
  *inactive* — it neither rolls nor can take more damage, and it is never
  destroyed (NER-BAT-06, NER-PCS-05);
* guardians (NER-DUN-03) are listed with the dice they still have; each
  damage removes one die chosen by their roller, and a guardian with no dice
  left is beaten.

A battle round (NER-BAT-02) is a first-strike volley (mages, first-strike
guardians: :func:`volley_dice` with ``first_strike=True``) and then, if both
sides can still fight, the normal volley of every other surviving piece.
In each volley both sides roll (:func:`roll_volley`), then each side's owner
assigns the hits it took (:func:`validate_assignment`,
:func:`apply_damage`; :func:`default_assignment` is the documented automatic
choice). :func:`battle_outcome` says whether the battle is over; at the end
:func:`heal` restores damaged dragons and inactive castles.

How the game rules drive one battle (one step = one volley of each side)::

    check_sides(att, dfn, sea=sea)                      # refuse impossible battles
    for first_strike in (True, False):                  # NER-BAT-02
        va = roll_volley(att, dfn, rng, attacking=True, sea=sea, first_strike=first_strike)
        vd = roll_volley(dfn, att, rng, attacking=False, sea=sea, first_strike=first_strike)
        events += [volley_event(va, "Karkoth"), volley_event(vd, "Nerath")]
        # ask each owner (Decision) for an assignment; legal_assignments(...) lists them,
        # validate_assignment(...) checks one, default_assignment(...) is the automatic choice
        att = apply_damage(att, att_choice, sea=sea, hits=vd.hits)
        dfn = apply_damage(dfn, dfn_choice, sea=sea, hits=va.hits)
        if battle_outcome(att, dfn) is not None: break  # NER-BAT-15
    # after a complete round: the attacker may retreat (NER-BAT-12)
    # at the end: heal(att), heal(dfn)                  # NER-BAT-05/06, NER-DUN-07

:func:`fight_battle` does all of this automatically (default loss order, a
:class:`RetreatRule`); :func:`fight_step` is one automatic step with a log.

Damage targets (the keys of an assignment ``Mapping[str, int]``), in the same words as the
game's damage actions (``damage soldier,wounded-dragon``, :mod:`.rules.battle_flow`):

* ``"soldier"``, ``"dragon"``, ``"castle"``… — that many *healthy* pieces of
  the type (for ``"castle"``: active castles) take one damage each;
* ``"wounded-dragon"`` — that many dragons that were already damaged take one
  more damage and are destroyed;
* ``"<guardian id>@<n>:d<sides>"`` (``troll@1:d8``) — guardian number ``n`` (1 for the
  first of ``side.guardians``) loses that many of its ``d<sides>`` dice.

(The game also writes a warship with its cargo, ``warship(soldier+mage)``; the model's
target is the warship.)

Decisions this module takes (documented in ``docs/odds.md``):

* NER-BAT-03 is applied strictly by default: the damage of one volley goes to
  distinct pieces, so a side can take at most as many damage per volley as it
  has pieces able to take damage; the rest is lost. ``double_up=True`` gives
  the other reading (every piece one damage first, then pieces with toughness
  left take a second).
* Guardians are not pieces (NER-DUN-08), so the distinct-pieces limit does
  not bind them: every hit on a guardian side removes one guardian die until
  none is left.
* The dungeon hit penalty (NER-DUN-05) is the highest ``hero_hit_min`` of the
  guardians present at the start of the battle and lasts the whole battle; a
  side's ``hit_min`` (a card's better hit number, NER-CRD-05) replaces it and
  the normal 6+ for every die of that side.
* At sea (NER-BAT-08) heroes fight only as warship passengers, at most two per
  warship (NER-PCS-08). When warships sink, heroes beyond two per surviving
  warship sink with them (NER-SEA-07; as if heroes fill ships two by two and
  the owner loses the emptiest ship); warriors go down before mages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Protocol

from warhorn.engine.errors import IllegalActionError, WarhornError
from warhorn.engine.events import Event, roll_event
from warhorn.engine.rng import Rng
from warhorn.games.nerath.pieces import HIT_ON, PIECE_ALIASES, PIECES, PieceStats, piece

#: Piece ids in the fixed order used by the count tuples of :class:`BattleSide`.
PIECE_IDS: tuple[str, ...] = tuple(PIECES)
PIECE_INDEX: dict[str, int] = {pid: i for i, pid in enumerate(PIECE_IDS)}
_STATS: tuple[PieceStats, ...] = tuple(PIECES[pid] for pid in PIECE_IDS)
_N = len(PIECE_IDS)
_CASTLE = PIECE_INDEX["castle"]
_WARSHIP = PIECE_INDEX["warship"]
_WARRIOR = PIECE_INDEX["warrior"]
_MAGE = PIECE_INDEX["mage"]
_ZERO: tuple[int, ...] = (0,) * _N

#: Passengers one warship carries (NER-PCS-08).
WARSHIP_CAPACITY = 2

#: The documented default loss order (issue 4): healthy dragons first (they
#: survive one damage and heal), then the cheap pieces, the castle, and
#: damaged dragons last.
DEFAULT_LOSS_ORDER: tuple[str, ...] = (
    "dragon",
    "soldier",
    "siege",
    "warrior",
    "warship",
    "mage",
    "monster",
    "elemental",
    "castle",
    "wounded-dragon",
)

#: The prefix of a damage target naming pieces already damaged (``wounded-dragon``).
WOUNDED = "wounded-"


class ArmyError(WarhornError, ValueError):
    """A description of an army (piece names, counts, guardians) is malformed or impossible."""


# ---------------------------------------------------------------------------
# Guardians


@dataclass(frozen=True, slots=True)
class Guardian:
    """A dungeon guardian tile (NER-DUN-03..06).

    ``dice``: die sizes it rolls (one die lost per damage); ``first_strike``:
    rolls in the first-strike step (NER-DUN-04); ``hero_hit_min``: the result
    every hero die needs against the guardians of its dungeon (6 = no penalty,
    7 or 8, NER-DUN-05); ``reward_gold``: gold the heroes gain if they win
    (NER-DUN-06).
    """

    id: str
    name: str
    dice: tuple[int, ...]
    first_strike: bool = False
    hero_hit_min: int = HIT_ON
    reward_gold: int = 0

    def __post_init__(self) -> None:
        if not self.dice or any(s < 2 for s in self.dice):
            raise ArmyError(f"guardian {self.id!r}: dice must be one or more die sizes >= 2")
        if not HIT_ON <= self.hero_hit_min <= 20:
            raise ArmyError(f"guardian {self.id!r}: hero_hit_min must be 6..20")


class GuardianLike(Protocol):
    """Anything with a guardian tile's fields, e.g. the content model ``GuardianDef``."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def dice(self) -> Sequence[int]: ...
    @property
    def first_strike(self) -> bool: ...
    @property
    def hero_hit_min(self) -> int: ...
    @property
    def reward_gold(self) -> int: ...


def guardian_from(tile: GuardianLike) -> Guardian:
    """The battle stats of a guardian tile defined as content (``GuardianDef`` or alike)."""
    return Guardian(
        tile.id,
        tile.name,
        tuple(tile.dice),
        bool(tile.first_strike),
        int(tile.hero_hit_min),
        int(tile.reward_gold),
    )


#: Three guardians the rulebook describes as examples (NER-DUN-03..05).
MEDUSA = Guardian("medusa", "Medusa", (20,), first_strike=True)
TROLL = Guardian("troll", "Troll", (8, 8), hero_hit_min=7)
BEHOLDER = Guardian("beholder", "Beholder", (6, 20))
BUILTIN_GUARDIANS: dict[str, Guardian] = {g.id: g for g in (MEDUSA, TROLL, BEHOLDER)}


# ---------------------------------------------------------------------------
# Sides


@dataclass(frozen=True, slots=True)
class BattleSide:
    """One side of a battle, immutable and hashable (see the module docstring).

    ``healthy``/``damaged``: counts per piece type, indexed like
    :data:`PIECE_IDS`. ``guardians`` and ``guardian_dice`` (same length): the
    guardians present at the start and the dice each still has (empty =
    beaten). ``hit_min``: a better hit number granted by a card, replacing 6+
    and the dungeon penalty for every die of this side (NER-CRD-05).
    ``resilient``: extra piece types made resilient by a card (NER-BAT-05).
    Build one with :meth:`of`.
    """

    healthy: tuple[int, ...] = _ZERO
    damaged: tuple[int, ...] = _ZERO
    guardians: tuple[Guardian, ...] = ()
    guardian_dice: tuple[tuple[int, ...], ...] = ()
    hit_min: int | None = None
    resilient: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(
        cls,
        pieces: Mapping[str, int] | str = "",
        *,
        guardians: Iterable[Guardian] = (),
        hit_min: int | None = None,
        resilient: Iterable[str] = (),
    ) -> BattleSide:
        """A fresh side: ``pieces`` as text (``"4 soldier, 1 dragon"``) or a mapping name → count."""
        counts = parse_army(pieces) if isinstance(pieces, str) else _normalize_counts(pieces)
        healthy = tuple(counts.get(pid, 0) for pid in PIECE_IDS)
        gs = tuple(guardians)
        if hit_min is not None and not 1 <= hit_min <= 20:
            raise ArmyError(f"hit_min must be 1..20, not {hit_min}")
        res = frozenset(piece(name).id for name in resilient)
        if "castle" in res:
            raise ArmyError("a castle cannot be made resilient")
        return cls(healthy, _ZERO, gs, tuple(g.dice for g in gs), hit_min, res)

    # -- queries -----------------------------------------------------------

    def count(self, piece_id: str) -> int:
        """Pieces of that type still on the battlefield (healthy + damaged/inactive)."""
        i = PIECE_INDEX[piece(piece_id).id]
        return self.healthy[i] + self.damaged[i]

    def counts(self) -> dict[str, int]:
        """Pieces still present by type (damaged dragons and inactive castles included), non-zero only."""
        return {pid: h + d for pid, h, d in zip(PIECE_IDS, self.healthy, self.damaged, strict=True) if h + d}

    @property
    def piece_total(self) -> int:
        """All pieces still present, inactive castles included."""
        return sum(self.healthy) + sum(self.damaged)

    @property
    def guardians_alive(self) -> tuple[Guardian, ...]:
        return tuple(g for g, d in zip(self.guardians, self.guardian_dice, strict=True) if d)

    @property
    def can_fight(self) -> bool:
        """Has something that can still roll: a piece other than an inactive castle, or a guardian die."""
        if any(self.healthy):
            return True
        if any(d for i, d in enumerate(self.damaged) if i != _CASTLE):
            return True
        return any(self.guardian_dice)

    @property
    def remains(self) -> bool:
        """Has anything left at all (an inactive castle or a living guardian counts, NER-BAT-15)."""
        return self.piece_total > 0 or any(self.guardian_dice)

    def toughness(self, i: int) -> int:
        """Damage a piece of type index ``i`` takes to be destroyed (castles: 1 to go inactive)."""
        st = _STATS[i]
        if st.castle:
            return 1
        return 2 if st.toughness >= 2 or st.id in self.resilient else 1

    def describe(self) -> str:
        parts = []
        for pid, h, d in zip(PIECE_IDS, self.healthy, self.damaged, strict=True):
            if h:
                parts.append(f"{h} {pid}")
            if d:
                parts.append(f"{d} {'inactive' if pid == 'castle' else 'damaged'} {pid}")
        for g, dice in zip(self.guardians, self.guardian_dice, strict=True):
            if dice:
                parts.append(f"{g.name} ({'+'.join(f'd{s}' for s in dice)})")
        return ", ".join(parts) or "nothing"


def _normalize_counts(pieces: Mapping[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, n in pieces.items():
        key = PIECE_ALIASES.get(str(name).strip().lower())
        if key is None:
            raise ArmyError(f"unknown piece {name!r} (known: {', '.join(PIECE_IDS)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ArmyError(f"count of {name!r} must be a whole number >= 0, not {n!r}")
        out[key] = out.get(key, 0) + n
    return out


_ITEM = re.compile(r"^\s*(?:(\d+)\s*[x×]?\s+)?([a-z][a-z ]*?)\s*$")


def parse_army(text: str) -> dict[str, int]:
    """``"4 soldier, 2 siege engines, dragon"`` → ``{"soldier": 4, "siege": 2, "dragon": 1}``.

    Items are separated by commas, semicolons or ``+``; a missing count means 1;
    names are singular or plural (:data:`~warhorn.games.nerath.pieces.PIECE_ALIASES`).
    Raises :class:`ArmyError` naming the item it cannot read.
    """
    out: dict[str, int] = {}
    for raw in re.split(r"[,;+]", text.lower()):
        if not raw.strip():
            continue
        m = _ITEM.match(raw)
        if m is None:
            raise ArmyError(f"cannot read {raw.strip()!r}: write it like '4 soldier'")
        name = m.group(2).strip()
        key = PIECE_ALIASES.get(name)
        if key is None:
            raise ArmyError(f"unknown piece {name!r} (known: {', '.join(PIECE_IDS)})")
        out[key] = out.get(key, 0) + int(m.group(1) or 1)
    return out


def check_sides(attacker: BattleSide, defender: BattleSide, *, sea: bool = False) -> None:
    """Refuse a battle the rules cannot produce; raises :class:`ArmyError` naming the rule.

    Castles only defend (NER-PCS-05); guardians only defend, and only heroes
    fight them (NER-MOV-04, NER-DUN-01); at sea only flyers, warships and heroes
    carried by warships fight (NER-BAT-08, NER-PCS-08).
    """
    if attacker.guardians:
        raise ArmyError("guardians only defend their dungeon (NER-DUN-01)")
    if attacker.count("castle"):
        raise ArmyError("castles never attack (NER-PCS-05)")
    if defender.count("castle") > 1:
        raise ArmyError("at most one castle per territory (NER-PCS-05)")
    if defender.guardians:
        if defender.piece_total:
            raise ArmyError("a dungeon holds only guardians, no pieces (NER-DUN-01)")
        if sea:
            raise ArmyError("dungeon battles are not fought at sea")
        heroes_only = all(
            n == 0 or PIECES[pid].hero for pid, n in zip(PIECE_IDS, attacker.healthy, strict=True)
        )
        if not heroes_only:
            raise ArmyError("only heroes (warriors, mages) enter dungeons (NER-MOV-04)")
    if sea:
        for side, who in ((attacker, "attacker"), (defender, "defender")):
            for pid, n in side.counts().items():
                if n and not PIECES[pid].sea_dice:
                    raise ArmyError(
                        f"{who}: {pid} takes no part in a sea battle (NER-BAT-08); leave cargo out"
                    )
            heroes = side.count("warrior") + side.count("mage")
            if heroes > WARSHIP_CAPACITY * side.count("warship"):
                raise ArmyError(
                    f"{who}: heroes fight at sea only aboard warships, {WARSHIP_CAPACITY} per "
                    "warship (NER-BAT-08, NER-PCS-08)"
                )


# ---------------------------------------------------------------------------
# Dice


def piece_dice(stats: PieceStats, *, attacking: bool, sea: bool) -> tuple[int, ...]:
    """Dice one piece rolls per round: NER-PCS table, siege 2×d8 attacking (NER-PCS-02),
    elementals 2×d8 at sea (NER-PCS-06); at sea a piece with no sea dice does not fight."""
    if sea:
        return stats.sea_dice
    return stats.attack_dice if attacking else stats.defence_dice


def hit_chance(sides: int, hit_min: int) -> float:
    """Chance that one d``sides`` shows ``hit_min`` or more (NER-PCS-01: ``hit_min`` is 6 normally)."""
    good = sides - max(hit_min, 1) + 1
    return 0.0 if good <= 0 else min(good, sides) / sides


def dungeon_penalty(opponent: BattleSide) -> int:
    """The result hero dice need against ``opponent``'s guardians (NER-DUN-05): 6 without guardians."""
    return max((g.hero_hit_min for g in opponent.guardians), default=HIT_ON)


@dataclass(frozen=True, slots=True)
class Roller:
    """One unit rolling in a volley: ``who`` (piece id or guardian name), its dice and the hit number."""

    who: str
    dice: tuple[int, ...]
    hit_min: int


def volley_dice(
    side: BattleSide, opponent: BattleSide, *, attacking: bool, sea: bool, first_strike: bool
) -> tuple[Roller, ...]:
    """Who rolls which dice in one step of a round (NER-BAT-02).

    ``first_strike=True``: mages (NER-PCS-03, also at sea NER-BAT-11) and
    first-strike guardians (NER-DUN-04); ``False``: everyone else. Inactive
    castles do not roll (NER-BAT-06); a castle rolls only when defending.
    Each piece appears once per copy.
    """
    return _volley_dice(side, dungeon_penalty(opponent), attacking, sea, first_strike)


@lru_cache(maxsize=65536)
def _volley_dice(
    side: BattleSide, penalty: int, attacking: bool, sea: bool, first_strike: bool
) -> tuple[Roller, ...]:
    out: list[Roller] = []
    for i, st in enumerate(_STATS):
        n = side.healthy[i] + (0 if st.castle else side.damaged[i])
        if not n or st.first_strike != first_strike:
            continue
        dice = piece_dice(st, attacking=attacking, sea=sea)
        if not dice:
            continue
        hm = side.hit_min if side.hit_min is not None else (penalty if st.hero else HIT_ON)
        out.extend([Roller(st.id, dice, hm)] * n)
    for g, dice in zip(side.guardians, side.guardian_dice, strict=True):
        if dice and g.first_strike == first_strike:
            out.append(Roller(g.name, dice, side.hit_min if side.hit_min is not None else HIT_ON))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RolledDice:
    """What one unit rolled: ``faces`` as (sides, face) pairs, and how many of them hit."""

    who: str
    faces: tuple[tuple[int, int], ...]
    hit_min: int
    hits: int


@dataclass(frozen=True, slots=True)
class Volley:
    """One side's roll in one step: every unit's dice, and the total hits."""

    rolls: tuple[RolledDice, ...]
    hits: int


def roll_volley(
    side: BattleSide,
    opponent: BattleSide,
    rng: Rng,
    *,
    attacking: bool,
    sea: bool = False,
    first_strike: bool,
) -> Volley:
    """Roll every die of ``side`` for one step (units in :func:`volley_dice` order); count the hits.

    The game turns ``rolls`` into roll events (``roll_event(who, faces)``).
    """
    rolled: list[RolledDice] = []
    total = 0
    for r in volley_dice(side, opponent, attacking=attacking, sea=sea, first_strike=first_strike):
        faces = tuple((s, rng.roll(s)) for s in r.dice)
        hits = sum(1 for _, f in faces if f >= r.hit_min)
        total += hits
        rolled.append(RolledDice(r.who, faces, r.hit_min, hits))
    return Volley(tuple(rolled), total)


def volley_event(volley: Volley, who: str, *, purpose: str = "battle") -> Event:
    """One public roll event for a volley (``who``: the kingdom or "guardians"); its data also
    lists each unit's faces and the total hits."""
    faces = [pair for r in volley.rolls for pair in r.faces]
    units = [{"who": r.who, "dice": [[s, f] for s, f in r.faces], "hits": r.hits} for r in volley.rolls]
    return roll_event(who, faces, purpose=purpose, hits=volley.hits, units=units)


def _count_hits(rollers: tuple[Roller, ...], rng: Rng) -> int:
    """Hits of a volley without recording faces (same dice, same order as :func:`roll_volley`)."""
    hits = 0
    roll = rng.roll
    for r in rollers:
        for s in r.dice:
            if roll(s) >= r.hit_min:
                hits += 1
    return hits


# ---------------------------------------------------------------------------
# Damage


def normalize_loss_order(order: Sequence[str] | None) -> tuple[str, ...]:
    """A complete loss order: known keys only, no repeats, missing keys appended.

    Keys are piece names (healthy pieces) and ``"wounded-<piece>"``. Missing
    piece types are appended in default order, missing damaged keys after them.
    Raises :class:`ArmyError` on unknown or repeated keys.
    """
    if order is None:
        order = DEFAULT_LOSS_ORDER
    seen: list[str] = []
    for raw in order:
        text = raw.strip().lower()
        damaged = text.startswith(WOUNDED)
        name = text[len(WOUNDED) :] if damaged else text
        pid = PIECE_ALIASES.get(name.strip())
        if pid is None:
            raise ArmyError(f"loss order: unknown piece {raw!r}")
        key = WOUNDED + pid if damaged else pid
        if key in seen:
            raise ArmyError(f"loss order: {key!r} appears twice")
        seen.append(key)
    for key in DEFAULT_LOSS_ORDER:
        if not key.startswith(WOUNDED) and key not in seen:
            seen.append(key)
    for pid in PIECE_IDS:
        key = WOUNDED + pid
        if pid != "castle" and key not in seen:
            seen.append(key)
    return tuple(seen)


#: :data:`DEFAULT_LOSS_ORDER` completed with ``"wounded-<piece>"`` keys for pieces a card made resilient.
FULL_DEFAULT_LOSS_ORDER: tuple[str, ...] = normalize_loss_order(None)


def guardian_die_key(guardian: str, index: int, sides: int) -> str:
    """The damage target of the guardian ``guardian`` (its id), ``index`` in its side's guardians
    (from 0), losing one d``sides`` die: ``troll@1:d8``."""
    return f"{guardian}@{index + 1}:d{sides}"


def _guardian_die_order(side: BattleSide) -> list[str]:
    """Guardian dice in the order the guardians' roller gives them up by default:
    the die least likely to hit first; on a tie a die of a guardian without
    first strike first; then by guardian order."""
    base = side.hit_min if side.hit_min is not None else HIT_ON
    dice = []
    for gi, (g, left) in enumerate(zip(side.guardians, side.guardian_dice, strict=True)):
        for s in left:
            dice.append((hit_chance(s, base), g.first_strike, gi, s))
    dice.sort()
    return [guardian_die_key(side.guardians[gi].id, gi, s) for _, _, gi, s in dice]


def damage_capacity(side: BattleSide, *, double_up: bool = False) -> int:
    """The most damage ``side`` can take from one volley (NER-BAT-03): one per piece able to take
    damage (active castles yes, inactive no), plus every guardian die; with ``double_up`` every
    piece's remaining toughness."""
    cap = sum(len(d) for d in side.guardian_dice)
    for i in range(_N):
        h, d = side.healthy[i], side.damaged[i]
        if i == _CASTLE:
            cap += h
        elif double_up:
            t = side.toughness(i)
            cap += h * t + d * (t - 1)
        else:
            cap += h + d
    return cap


@lru_cache(maxsize=65536)
def loss_sequence(
    side: BattleSide, order: tuple[str, ...] = FULL_DEFAULT_LOSS_ORDER, double_up: bool = False
) -> tuple[str, ...]:
    """The targets the default chooser gives damage to, one key per damage, in order.

    The first ``h`` keys (counted into a mapping) are the default assignment of
    ``h`` hits; the length is :func:`damage_capacity`. ``order`` must be
    complete (:func:`normalize_loss_order`). Strict mode: each healthy piece and
    each already-damaged piece at most once. ``double_up``: after everyone has
    one, the pieces just damaged take a second damage in the order of their
    ``"wounded-<piece>"`` keys.
    """
    seq: list[str] = []
    for key in order:
        if key.startswith(WOUNDED):
            i = PIECE_INDEX[key[len(WOUNDED) :]]
            if i != _CASTLE:
                seq.extend([key] * side.damaged[i])
        else:
            seq.extend([key] * side.healthy[PIECE_INDEX[key]])
    if double_up:
        for key in order:
            if key.startswith(WOUNDED):
                i = PIECE_INDEX[key[len(WOUNDED) :]]
                if i != _CASTLE and side.toughness(i) >= 2:
                    seq.extend([key] * side.healthy[i])
    seq.extend(_guardian_die_order(side))
    return tuple(seq)


def default_assignment(
    side: BattleSide,
    hits: int,
    order: Sequence[str] | None = None,
    *,
    double_up: bool = False,
) -> dict[str, int]:
    """The documented automatic choice for ``hits`` damage (loss order, default
    :data:`DEFAULT_LOSS_ORDER`; guardians lose their weakest die first). Excess hits are dropped."""
    seq = loss_sequence(side, normalize_loss_order(order), double_up)
    out: dict[str, int] = {}
    for key in seq[: max(hits, 0)]:
        out[key] = out.get(key, 0) + 1
    return out


def legal_assignments(side: BattleSide, hits: int, *, double_up: bool = False) -> list[dict[str, int]]:
    """Every legal way (:func:`validate_assignment`) for ``side`` to take ``hits`` damage from one
    volley, as assignment mappings without zero entries; for a casualty decision's legal actions.

    The number of ways grows with the number of piece types hit; it stays small for one volley
    against an ordinary army (a few hundred at most for 10 hits over 9 types).
    """
    slots: list[tuple[str, int]] = []
    for i in range(_N):
        if side.healthy[i]:
            slots.append((PIECE_IDS[i], side.healthy[i]))
    for i in range(_N):
        if i != _CASTLE and side.damaged[i]:
            slots.append((WOUNDED + PIECE_IDS[i], side.damaged[i]))
    for gi, dice in enumerate(side.guardian_dice):
        for sides in sorted(set(dice)):
            slots.append((guardian_die_key(side.guardians[gi].id, gi, sides), dice.count(sides)))
    strict_cap = sum(n for _, n in slots)
    need = min(max(hits, 0), damage_capacity(side, double_up=double_up))
    if need <= strict_cap:
        return [dict(c) for c in _compositions(slots, need)]
    # double_up with more damage than pieces: everyone takes one, the rest doubles up on pieces
    # with toughness left (those damaged by this volley).
    base = dict(slots)
    seconds = [
        (WOUNDED + PIECE_IDS[i], side.healthy[i])
        for i in range(_N)
        if i != _CASTLE and side.healthy[i] and side.toughness(i) >= 2
    ]
    out = []
    for extra in _compositions(seconds, need - strict_cap):
        combined = dict(base)
        for key, n in extra:
            combined[key] = combined.get(key, 0) + n
        out.append(combined)
    return out


def _compositions(slots: list[tuple[str, int]], total: int) -> list[list[tuple[str, int]]]:
    """Ways to pick ``total`` items from ``slots`` (key, at most n), zero picks left out."""
    if total == 0:
        return [[]]
    if not slots:
        return []
    (key, most), rest = slots[0], slots[1:]
    room = sum(n for _, n in rest)
    out = []
    for take in range(max(0, total - room), min(most, total) + 1):
        for tail in _compositions(rest, total - take):
            out.append(([(key, take)] if take else []) + tail)
    return out


def _parse_key(side: BattleSide, key: str) -> tuple[str, int, int]:
    """→ (kind, index, sides): kind "healthy", "damaged" or "guardian"."""
    kind, i, sides = _key_parts(key)
    if kind == "guardian":
        named = key.strip().lower().rpartition("@")[0]
        if i >= len(side.guardians) or side.guardians[i].id.lower() != named:
            raise IllegalActionError(f"there is no guardian {named} number {i + 1}", rule="NER-DUN-03")
    return kind, i, sides


@lru_cache(maxsize=1024)
def _key_parts(key: str) -> tuple[str, int, int]:
    text = key.strip().lower()
    if "@" in text and ":d" in text:
        head, _, sides_txt = text.rpartition(":d")
        gi_txt = head.rpartition("@")[2]
        if (
            gi_txt.isascii()
            and gi_txt.isdigit()
            and sides_txt.isascii()
            and sides_txt.isdigit()
            and int(gi_txt)
        ):
            return "guardian", int(gi_txt) - 1, int(sides_txt)
    damaged = text.startswith(WOUNDED)
    name = text[len(WOUNDED) :] if damaged else text
    pid = PIECE_ALIASES.get(name.strip())
    if pid is None:
        raise IllegalActionError(f"unknown damage target {key!r}", rule="NER-BAT-03")
    return ("damaged" if damaged else "healthy"), PIECE_INDEX[pid], 0


def validate_assignment(
    side: BattleSide, assignment: Mapping[str, int], hits: int, *, double_up: bool = False
) -> None:
    """Check that ``assignment`` is a legal way for ``side`` to take ``hits`` damage from one volley.

    Legal (NER-BAT-03): exactly ``min(hits, capacity)`` damage is assigned;
    healthy pieces of a type at most their count; ``"wounded-X"`` at most the
    pieces of that type damaged before this volley (an inactive castle takes
    none, NER-BAT-06); guardian dice only those the guardian has
    (NER-DUN-03). With ``double_up``, once every damageable piece has one
    damage, pieces damaged by this volley may take a second.
    Raises :class:`~warhorn.engine.errors.IllegalActionError` naming the rule.
    """
    need = min(max(hits, 0), damage_capacity(side, double_up=double_up))
    total = 0
    healthy = [0] * _N
    damaged = [0] * _N
    gdice: dict[int, list[int]] = {}
    for key, n in assignment.items():
        if not isinstance(n, int) or n < 0:
            raise IllegalActionError(f"damage on {key!r} must be a whole number >= 0", rule="NER-BAT-03")
        if n == 0:
            continue
        kind, i, sides = _parse_key(side, key)
        total += n
        if kind == "guardian":
            gdice.setdefault(i, []).extend([sides] * n)
        elif kind == "healthy":
            healthy[i] += n
        else:
            if i == _CASTLE:
                raise IllegalActionError("an inactive castle cannot take damage", rule="NER-BAT-06")
            damaged[i] += n
    if total != need:
        raise IllegalActionError(
            f"{need} damage must be assigned (hits {hits}, at most one per piece), not {total}",
            rule="NER-BAT-03",
        )
    for gi, lost in gdice.items():
        left = list(side.guardian_dice[gi])
        for s in lost:
            if s not in left:
                raise IllegalActionError(
                    f"{side.guardians[gi].name} has no d{s} left to lose", rule="NER-DUN-03"
                )
            left.remove(s)
    over_one = False
    for i in range(_N):
        name = PIECE_IDS[i]
        if healthy[i] > side.healthy[i]:
            raise IllegalActionError(
                f"only {side.healthy[i]} undamaged {name} can take damage, not {healthy[i]}",
                rule="NER-BAT-03",
            )
        extra = damaged[i] - side.damaged[i]
        if extra > 0:
            if not double_up or side.toughness(i) < 2 or extra > healthy[i]:
                raise IllegalActionError(
                    f"only {side.damaged[i]} damaged {name} can take damage, not {damaged[i]}"
                    " (each damage of a volley goes to a different piece)",
                    rule="NER-BAT-03",
                )
            over_one = True
    if over_one:
        pieces_hit = sum(healthy) + sum(min(damaged[i], side.damaged[i]) for i in range(_N))
        pieces = sum(side.healthy) + sum(side.damaged[i] for i in range(_N) if i != _CASTLE)
        if pieces_hit < pieces:
            raise IllegalActionError(
                "a piece may take a second damage only once every piece has one", rule="NER-BAT-03"
            )


def apply_damage(
    side: BattleSide,
    assignment: Mapping[str, int],
    *,
    sea: bool = False,
    double_up: bool = False,
    hits: int | None = None,
) -> BattleSide:
    """The side after taking ``assignment`` (checked with :func:`validate_assignment` when ``hits``
    is given). Healthy resilient pieces become damaged (NER-BAT-05), castles inactive (NER-BAT-06),
    other pieces and damaged resilient pieces are destroyed (NER-BAT-04), guardians lose dice
    (NER-DUN-03). At sea, heroes beyond the surviving warships' capacity sink (NER-SEA-07)."""
    if hits is not None:
        validate_assignment(side, assignment, hits, double_up=double_up)
    healthy = list(side.healthy)
    damaged = list(side.damaged)
    gdice = [list(d) for d in side.guardian_dice]
    second: list[tuple[int, int]] = []
    for key, n in assignment.items():
        if not n:
            continue
        kind, i, sides = _parse_key(side, key)
        if kind == "guardian":
            for _ in range(n):
                gdice[i].remove(sides)
        elif kind == "healthy":
            healthy[i] -= n
            if i == _CASTLE or side.toughness(i) >= 2:
                damaged[i] += n
        else:
            second.append((i, n))
    for i, n in second:
        damaged[i] -= n
    out = BattleSide(
        tuple(healthy),
        tuple(damaged),
        side.guardians,
        tuple(tuple(d) for d in gdice),
        side.hit_min,
        side.resilient,
    )
    return drown_passengers(out) if sea else out


def drown_passengers(side: BattleSide) -> BattleSide:
    """At sea: heroes beyond ``WARSHIP_CAPACITY`` per surviving warship sink with their ships
    (NER-SEA-07), warriors before mages, healthy before damaged."""
    ships = side.healthy[_WARSHIP] + side.damaged[_WARSHIP]
    excess = (
        side.healthy[_WARRIOR]
        + side.damaged[_WARRIOR]
        + side.healthy[_MAGE]
        + side.damaged[_MAGE]
        - WARSHIP_CAPACITY * ships
    )
    if excess <= 0:
        return side
    healthy = list(side.healthy)
    damaged = list(side.damaged)
    for i in (_WARRIOR, _MAGE):
        for arr in (healthy, damaged):
            k = min(excess, arr[i])
            arr[i] -= k
            excess -= k
    return BattleSide(
        tuple(healthy), tuple(damaged), side.guardians, side.guardian_dice, side.hit_min, side.resilient
    )


def heal(side: BattleSide) -> BattleSide:
    """The side after the battle: damaged resilient pieces heal (NER-BAT-05), inactive castles are
    active again (NER-BAT-06), surviving guardians return to full dice and beaten ones are gone
    (NER-DUN-07)."""
    healthy = tuple(h + d for h, d in zip(side.healthy, side.damaged, strict=True))
    alive = [g for g, d in zip(side.guardians, side.guardian_dice, strict=True) if d]
    return BattleSide(
        healthy, _ZERO, tuple(alive), tuple(g.dice for g in alive), side.hit_min, side.resilient
    )


# ---------------------------------------------------------------------------
# Outcome, rounds, whole battles


class BattleOutcome(StrEnum):
    """How a battle ended (NER-BAT-12, NER-BAT-15)."""

    ATTACKER_WINS = "attacker_wins"  # attackers left, defence cannot fight (castle captured)
    DEFENDER_WINS = "defender_wins"  # no attackers left, something of the defence remains
    MUTUAL_DESTRUCTION = "mutual_destruction"  # nothing left on either side; defender keeps the space
    ATTACKER_RETREATS = "attacker_retreats"


def battle_outcome(attacker: BattleSide, defender: BattleSide) -> BattleOutcome | None:
    """The result if the battle is over, else None (NER-BAT-15).

    The defence is beaten when nothing of it can fight (an inactive castle
    alone cannot); if the attackers are wiped out too, the defender keeps the
    space: defender win when anything of the defence remains (an inactive
    castle does), mutual destruction when nothing does.
    """
    a_fights = attacker.can_fight
    d_fights = defender.can_fight
    if a_fights and d_fights:
        return None
    if a_fights:
        return BattleOutcome.ATTACKER_WINS
    if defender.remains:
        return BattleOutcome.DEFENDER_WINS
    return BattleOutcome.MUTUAL_DESTRUCTION


@dataclass(frozen=True, slots=True)
class RetreatRule:
    """When an automatic attacker retreats (after a complete round only, NER-BAT-12):
    when it has ``at_or_below`` pieces or fewer left, or once ``after_rounds`` rounds were fought."""

    at_or_below: int | None = None
    after_rounds: int | None = None

    def __post_init__(self) -> None:
        if self.at_or_below is not None and self.at_or_below < 0:
            raise ArmyError("retreat: at_or_below must be >= 0")
        if self.after_rounds is not None and self.after_rounds < 1:
            raise ArmyError("retreat: after_rounds must be >= 1 (every battle lasts a round)")

    def retreats(self, attacker: BattleSide, rounds_fought: int) -> bool:
        if self.at_or_below is not None and attacker.piece_total <= self.at_or_below:
            return True
        return self.after_rounds is not None and rounds_fought >= self.after_rounds


@dataclass(frozen=True, slots=True)
class StepResult:
    """One step of a round: both sides' volleys and the sides after damage."""

    first_strike: bool
    attacker_volley: Volley
    defender_volley: Volley
    attacker_damage: Mapping[str, int]
    defender_damage: Mapping[str, int]
    attacker: BattleSide
    defender: BattleSide


@dataclass(frozen=True, slots=True)
class BattleResult:
    """A finished automatic battle: ``attacker``/``defender`` are the survivors after healing
    (a captured castle is still listed on the defender side); ``log`` holds the steps if recorded."""

    outcome: BattleOutcome
    rounds: int
    attacker: BattleSide
    defender: BattleSide
    log: tuple[StepResult, ...] = ()


def fight_step(
    attacker: BattleSide,
    defender: BattleSide,
    rng: Rng,
    *,
    first_strike: bool,
    sea: bool = False,
    attacker_order: tuple[str, ...] = FULL_DEFAULT_LOSS_ORDER,
    defender_order: tuple[str, ...] = FULL_DEFAULT_LOSS_ORDER,
    double_up: bool = False,
) -> StepResult:
    """One step of NER-BAT-02 with the default chooser: the attacker rolls, then the defender
    (simultaneous in effect), then both take their damage."""
    av = roll_volley(attacker, defender, rng, attacking=True, sea=sea, first_strike=first_strike)
    dv = roll_volley(defender, attacker, rng, attacking=False, sea=sea, first_strike=first_strike)
    a_dmg = default_assignment(attacker, dv.hits, attacker_order, double_up=double_up)
    d_dmg = default_assignment(defender, av.hits, defender_order, double_up=double_up)
    new_a = apply_damage(attacker, a_dmg, sea=sea, double_up=double_up)
    new_d = apply_damage(defender, d_dmg, sea=sea, double_up=double_up)
    return StepResult(first_strike, av, dv, a_dmg, d_dmg, new_a, new_d)


def fight_battle(
    attacker: BattleSide,
    defender: BattleSide,
    rng: Rng,
    *,
    sea: bool = False,
    retreat: RetreatRule | None = None,
    attacker_order: Sequence[str] | None = None,
    defender_order: Sequence[str] | None = None,
    double_up: bool = False,
    record: bool = False,
    max_rounds: int = 10_000,
) -> BattleResult:
    """Play a whole battle automatically: rounds of NER-BAT-02, the default loss order (or the
    given ones), the attacker retreating by ``retreat`` after complete rounds (NER-BAT-12).

    With ``record`` the result carries every step (volley faces for roll events). Without it the
    dice are the same (same order of rolls) but only hits are counted, which is faster.
    """
    check_sides(attacker, defender, sea=sea)
    a_order = normalize_loss_order(attacker_order)
    d_order = normalize_loss_order(defender_order)
    pen_a = dungeon_penalty(defender)
    pen_d = dungeon_penalty(attacker)
    log: list[StepResult] = []
    a, d = attacker, defender
    rounds = 0
    outcome: BattleOutcome | None = battle_outcome(a, d)
    while outcome is None and rounds < max_rounds:
        rounds += 1
        for fs in (True, False):
            if record:
                step = fight_step(
                    a,
                    d,
                    rng,
                    first_strike=fs,
                    sea=sea,
                    attacker_order=a_order,
                    defender_order=d_order,
                    double_up=double_up,
                )
                log.append(step)
                a, d = step.attacker, step.defender
            else:
                a_hits = _count_hits(_volley_dice(a, pen_a, True, sea, fs), rng)
                d_hits = _count_hits(_volley_dice(d, pen_d, False, sea, fs), rng)
                if d_hits:
                    a = _take(a, d_hits, a_order, sea, double_up)
                if a_hits:
                    d = _take(d, a_hits, d_order, sea, double_up)
            outcome = battle_outcome(a, d)
            if outcome is not None:
                break
        else:  # the round ended undecided (for-else: compiled, `outcome` would be typed as None here)
            if retreat is not None and retreat.retreats(a, rounds):
                outcome = BattleOutcome.ATTACKER_RETREATS
    if outcome is None:
        raise ArmyError(f"battle still undecided after {max_rounds} rounds (can either side hit?)")
    return BattleResult(outcome, rounds, heal(a), heal(d), tuple(log))


def _take(side: BattleSide, hits: int, order: tuple[str, ...], sea: bool, double_up: bool) -> BattleSide:
    return _take_cached(side, min(hits, 1 << 16), order, sea, double_up)


@lru_cache(maxsize=65536)
def _take_cached(
    side: BattleSide, hits: int, order: tuple[str, ...], sea: bool, double_up: bool
) -> BattleSide:
    seq = loss_sequence(side, order, double_up)
    hits = min(hits, len(seq))
    out: dict[str, int] = {}
    for key in seq[:hits]:
        out[key] = out.get(key, 0) + 1
    return apply_damage(side, out, sea=sea, double_up=double_up)


def successor_sides(
    side: BattleSide,
    order: tuple[str, ...] = FULL_DEFAULT_LOSS_ORDER,
    *,
    sea: bool = False,
    double_up: bool = False,
) -> tuple[BattleSide, ...]:
    """The side after 0, 1, 2 … capacity hits of one volley under the default chooser
    (index = hits; more hits than capacity give the last entry). The odds calculator builds its
    states with this, so it and :func:`fight_battle` share one damage model: entry ``h`` equals
    ``apply_damage(side, default_assignment(side, h, order), sea=sea)``."""
    seq = loss_sequence(side, order, double_up)
    healthy = list(side.healthy)
    damaged = list(side.damaged)
    gdice = [list(d) for d in side.guardian_dice]
    out = [side]
    for key in seq:
        kind, i, sides = _parse_key(side, key)
        if kind == "guardian":
            gdice[i].remove(sides)
        elif kind == "healthy":
            healthy[i] -= 1
            if i == _CASTLE or side.toughness(i) >= 2:
                damaged[i] += 1
        else:
            damaged[i] -= 1
        nxt = BattleSide(
            tuple(healthy),
            tuple(damaged),
            side.guardians,
            tuple(tuple(d) for d in gdice) if side.guardians else (),
            side.hit_min,
            side.resilient,
        )
        out.append(drown_passengers(nxt) if sea else nxt)
    return tuple(out)


__all__ = [
    "BEHOLDER",
    "BUILTIN_GUARDIANS",
    "DEFAULT_LOSS_ORDER",
    "FULL_DEFAULT_LOSS_ORDER",
    "MEDUSA",
    "PIECE_IDS",
    "PIECE_INDEX",
    "TROLL",
    "WARSHIP_CAPACITY",
    "WOUNDED",
    "ArmyError",
    "BattleOutcome",
    "BattleResult",
    "BattleSide",
    "Guardian",
    "GuardianLike",
    "RetreatRule",
    "RolledDice",
    "Roller",
    "StepResult",
    "Volley",
    "apply_damage",
    "battle_outcome",
    "check_sides",
    "damage_capacity",
    "default_assignment",
    "drown_passengers",
    "dungeon_penalty",
    "fight_battle",
    "fight_step",
    "guardian_die_key",
    "guardian_from",
    "heal",
    "hit_chance",
    "legal_assignments",
    "loss_sequence",
    "normalize_loss_order",
    "parse_army",
    "piece_dice",
    "roll_volley",
    "successor_sides",
    "validate_assignment",
    "volley_dice",
    "volley_event",
]
