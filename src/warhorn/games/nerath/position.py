"""Conquest of Nerath positions: a game state written as data, and read back (docs/positions.md).

:func:`position_from` builds a :class:`~warhorn.games.nerath.game.NerathState` from a mapping
(a JSON or TOML file's), validated with pydantic: every mistake names its key, e.g.
``spaces.k1.pieces[2].piece: unknown piece 'dragn'``. :func:`to_position` writes a state back;
``position_from(to_position(s))`` has the same snapshot digest as ``s`` (round trip).

What may be left out: a kingdom's gold (its starting gold), VP, hands and cards in play
(none); the order of a deck (the cards nobody holds, shuffled with the position's dice
generator); a land space's controller (its starting owner); everything of the turn in
progress (nothing done yet). Space ids are the board's, kingdoms their ids (``karkoth``,
``vailin``, ``iron_circle``, ``nerath``), pieces their type ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

import pydantic

from warhorn.engine.decisions import Results
from warhorn.engine.deck import Deck
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.rng import Rng
from warhorn.games.nerath.board import KINGDOM_IDS, LAND, CardEffect, NerathBoard
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.state import (
    BATTLES,
    REPOSITION,
    BattleState,
    CardWindow,
    DamageOrder,
    DamageSplit,
    GuardianSlot,
    NerathData,
    Phase,
    TurnPosition,
    Unit,
)

PHASE_IDS: tuple[str, ...] = tuple(p.id for p in Phase)
KingdomId = Literal["karkoth", "vailin", "iron_circle", "nerath"]


class _Model(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


class PieceSpec(_Model):
    """Pieces of one kind on a space: ``count`` alike, or one piece with its number ``uid``."""

    piece: str
    kingdom: KingdomId
    count: int = pydantic.Field(default=1, ge=1)
    uid: int | None = pydantic.Field(default=None, ge=1)
    moved: int = pydantic.Field(default=0, ge=0)
    done: bool = False
    new: bool = False
    damage: int = pydantic.Field(default=0, ge=0)
    inactive: bool = False
    boarded: bool = False
    #: What a warship carries (land pieces of its kingdom).
    cargo: tuple[PieceSpec, ...] = ()


class GuardianSpec(_Model):
    tile: str
    face_up: bool = False
    #: The dice it has left (default: all of its tile's dice).
    dice: tuple[int, ...] | None = None


class SpaceSpec(_Model):
    #: The kingdom controlling a land space (None: nobody); left out: its starting owner.
    control: KingdomId | None = None
    pieces: tuple[PieceSpec, ...] = ()
    guardians: tuple[GuardianSpec, ...] = ()


class KingdomSpec(_Model):
    gold: int | None = pydantic.Field(default=None, ge=0)
    vp: int = pydantic.Field(default=0, ge=0)
    hand: tuple[str, ...] = ()
    treasure_hand: tuple[str, ...] = ()
    treasures_in_play: tuple[str, ...] = ()
    #: The event deck's draw pile, top first (None: the kingdom's other cards, shuffled).
    event_deck: tuple[str, ...] | None = None
    event_discard: tuple[str, ...] = ()


class EffectSpec(_Model):
    """A card's modifier in force for ``kingdom``: its op and parameters (as the card texts write
    them) and, for a treasure's property, the moment it acts at."""

    kingdom: KingdomId
    op: str
    params: dict[str, Any] = {}
    when: str | None = None


class CardPlaySpec(_Model):
    """The card a window is about: who played it, its id, its target (a ``choose`` window: the
    moment the card's choice is for) and whether it is a treasure."""

    kingdom: KingdomId
    card: str
    target: str = ""
    treasure: bool = False


class WindowSpec(_Model):
    """A card window open (NER-CRD-01): its name (``before_battle``, ``battle_round``,
    ``on_conquest``, ``income``, ``cancel``, ``after``, ``choose``), the kingdoms still to play
    or pass, in order, what happens when it closes and the card it is about."""

    name: str = pydantic.Field(min_length=1)
    queue: tuple[KingdomId, ...] = ()
    resume: Literal["none", "battle_roll", "battle_hits", "card"] = "none"
    card: CardPlaySpec | None = None


class DieSpec(_Model):
    """One rolled die: its size, the face rolled and the least face that hits."""

    sides: int = pydantic.Field(ge=2)
    face: int = pydantic.Field(ge=1)
    hits_on: int = pydantic.Field(ge=1)


class RolledSpec(_Model):
    """The dice of the battle step in progress, each side's, kept until the step's card window closes."""

    attacker: tuple[DieSpec, ...] = ()
    defenders: tuple[DieSpec, ...] = ()


class DamageOrderSpec(_Model):
    """Damage waiting to be assigned: by ``player``, to ``kingdom``'s pieces (or the guardians')."""

    player: int = pydantic.Field(ge=0, le=3)
    kingdom: KingdomId | Literal["guardians"]
    hits: int = pydantic.Field(ge=0)


class CancelledSpec(_Model):
    """Hits cancelled this step by cards: those against the attacker and those against the defenders."""

    attacker: int = pydantic.Field(default=0, ge=0)
    defenders: int = pydantic.Field(default=0, ge=0)


class SplitSpec(_Model):
    """Allied defenders sharing a volley's ``hits`` (NER-BAT-07): ``offer`` is (proposer's, partner's)."""

    hits: int = pydantic.Field(ge=0)
    proposer: KingdomId
    partner: KingdomId
    offer: tuple[int, int] | None = None


class BattleSpec(_Model):
    """The battle being fought (NER-BAT-02): where, what kind, who attacks, the round and step
    (``first_strike``, ``normal``, ``decide``), damage still to assign, the dice rolled, hits
    cancelled, whether a card forces a retreat, and an allied split under way."""

    space: str
    kind: Literal["land", "sea", "dungeon"]
    attacker: KingdomId
    round: int = pydantic.Field(default=1, ge=1)
    step: Literal["first_strike", "normal", "decide"] = "first_strike"
    orders: tuple[DamageOrderSpec, ...] = ()
    rolled: RolledSpec = RolledSpec()
    negate: CancelledSpec = CancelledSpec()
    forced_retreat: bool = False
    split: SplitSpec | None = None


class TurnSpec(_Model):
    """What the turn in progress has done (all optional: nothing yet). Spaces by id, pieces by uid."""

    control_at_start: dict[str, KingdomId | None] | None = None
    captured: tuple[str, ...] = ()
    placed: tuple[tuple[str, int], ...] = ()
    new_castles: tuple[str, ...] = ()
    new_pieces_on: tuple[str, ...] = ()
    #: Declared battles still to fight (None in the battles phase: found from the pieces).
    battles_todo: tuple[str, ...] | None = None
    landings: tuple[int, ...] = ()
    amok: tuple[int, ...] = ()
    amok_from: str | None = None
    effects: tuple[EffectSpec, ...] = ()
    #: Open card windows, innermost last.
    windows: tuple[WindowSpec, ...] = ()
    battle: BattleSpec | None = None
    cancelled: tuple[KingdomId, str] | None = None
    round_cap_hit: bool = False
    winner_pending: tuple[KingdomId, ...] = ()
    #: The game's result once it is over (winners and ranking by player, scores, reason).
    result: dict[str, Any] | None = None


class PositionSpec(_Model):
    options: dict[str, Any] = {}
    seed: int = 0
    #: The dice generator's state (default: from ``seed``).
    rng: int | None = pydantic.Field(default=None, ge=0, lt=2**64)
    round: int = pydantic.Field(default=1, ge=1)
    kingdom: KingdomId = "karkoth"
    phase: Literal["draw", "movement", "battles", "reposition", "reinforcements", "income"] = "movement"
    #: Start the kingdom's turn here: its pieces' flags are cleared and start-of-turn cards act.
    begin_turn: bool = False
    kingdoms: dict[KingdomId, KingdomSpec] = {}
    spaces: dict[str, SpaceSpec] = {}
    treasure_deck: tuple[str, ...] | None = None
    treasure_discard: tuple[str, ...] = ()
    guardian_stack: tuple[str, ...] | None = None
    guardians_defeated: tuple[str, ...] = ()
    next_uid: int | None = pydantic.Field(default=None, ge=1)
    turn: TurnSpec = TurnSpec()


def _errors(exc: pydantic.ValidationError) -> ContentErrors:
    return ContentErrors(
        [ContentError("position", _loc(e["loc"]) or "(top level)", e["msg"]) for e in exc.errors()]
    )


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _board(content: Any) -> NerathBoard:
    from warhorn.games.nerath.game import _board_cache, _shipped_content

    if isinstance(content, NerathBoard):
        return content
    return _board_cache(content if content is not None else _shipped_content())


def position_from(data: Mapping[str, Any], content: Any = None, *, rng: Rng | None = None) -> Any:
    """A state from ``data`` (see the module doc); every mistake names its key.

    ``content``: a :class:`NerathBoard`, loaded Nerath content, or None (the shipped game).
    ``rng``: a dice generator to use instead of the position's (tests script dice with it).
    """
    from warhorn.games.nerath.game import NERATH_SPEC, NerathState
    from warhorn.games.nerath.rules import battle_flow

    try:
        spec = PositionSpec.model_validate(dict(data))
    except pydantic.ValidationError as exc:
        raise _errors(exc) from None
    board = _board(content)
    bad: list[ContentError] = []

    def err(key: str, message: str) -> None:
        bad.append(ContentError("position", key, message))

    try:
        options = NERATH_SPEC.resolve_options(spec.options)
    except Exception as exc:  # an OptionError names the option
        raise ContentErrors([ContentError("position", "options", str(exc))]) from None
    ids = board.graph.index
    kingdom_of = {kid: k for k, kid in enumerate(KINGDOM_IDS)}

    def space(key: str, sid: str) -> int:
        if sid not in ids:
            err(key, f"unknown space {sid!r}")
            return -1
        return ids[sid]

    units: dict[int, Unit] = {}
    wanted_uids = [
        p.uid for s in spec.spaces.values() for p in s.pieces for p in (p, *p.cargo) if p.uid is not None
    ]
    taken = set(wanted_uids)
    fresh = iter(n for n in range(1, 10**9) if n not in taken)
    duplicates = [uid for uid, n in Counter(wanted_uids).items() if n > 1]
    if duplicates:
        err("spaces", f"piece number(s) used twice: {sorted(duplicates)}")
    control = [o if board.kind[i] == LAND else -1 for i, o in enumerate(board.owner)]
    guardians: dict[int, tuple[GuardianSlot, ...]] = {}
    for sid, here in spec.spaces.items():
        key = f"spaces.{sid}"
        i = space(key, sid)
        if i < 0:
            continue
        if "control" in here.model_fields_set:
            if board.kind[i] != LAND:
                err(f"{key}.control", "only land spaces are controlled")
            else:
                control[i] = -1 if here.control is None else kingdom_of[here.control]
        for n, p in enumerate(here.pieces):
            pkey = f"{key}.pieces[{n}]"
            if p.piece not in PIECES:
                err(f"{pkey}.piece", f"unknown piece {p.piece!r}")
                continue
            if p.uid is not None and p.count != 1:
                err(f"{pkey}.count", "a piece given by number is one piece")
            if p.cargo and p.piece != "warship":
                err(f"{pkey}.cargo", "only warships carry pieces")
            k = kingdom_of[p.kingdom]
            for _ in range(p.count):
                uid = p.uid if p.uid is not None else next(fresh)
                units[uid] = _unit(uid, k, p, i, -1)
                for c, carried in enumerate(p.cargo):
                    ckey = f"{pkey}.cargo[{c}]"
                    if carried.piece not in PIECES:
                        err(f"{ckey}.piece", f"unknown piece {carried.piece!r}")
                        continue
                    if kingdom_of[carried.kingdom] != k:
                        err(f"{ckey}.kingdom", "a warship carries only its own kingdom's pieces (NER-SEA-04)")
                    for _ in range(carried.count):
                        cuid = carried.uid if carried.uid is not None else next(fresh)
                        units[cuid] = _unit(cuid, k, carried, i, uid)
        slots = []
        for n, g in enumerate(here.guardians):
            if g.tile not in board.extra.get("guardians", {}):
                err(f"{key}.guardians[{n}].tile", f"unknown guardian tile {g.tile!r}")
                continue
            slots.append(
                GuardianSlot(g.tile, board.guardian(g.tile).dice if g.dice is None else g.dice, g.face_up)
            )
        if slots:
            guardians[i] = tuple(slots)

    # cards: every card in at most one place; decks not given hold the rest, shuffled
    r = rng if rng is not None else Rng(spec.seed if spec.rng is None else spec.rng)
    hands: list[tuple[str, ...]] = [(), (), (), ()]
    treasure_hands: list[tuple[str, ...]] = [(), (), (), ()]
    in_play: list[tuple[str, ...]] = [(), (), (), ()]
    decks = [Deck(), Deck(), Deck(), Deck()]
    gold = list(board.start_gold)
    vp = [0, 0, 0, 0]
    treasures_seen: Counter[str] = Counter()
    for k, kid in enumerate(KINGDOM_IDS):
        ks = spec.kingdoms.get(kid, KingdomSpec())  # type: ignore[call-overload]
        key = f"kingdoms.{kid}"
        own = Counter(board.event_cards(k))
        used: Counter[str] = Counter()
        for field_name in ("hand", "event_discard", *(("event_deck",) if ks.event_deck is not None else ())):
            for n, card in enumerate(getattr(ks, field_name) or ()):
                if own[card] - used[card] <= 0:
                    err(f"{key}.{field_name}[{n}]", f"{card!r} is not (another) card of {kid}'s event deck")
                used[card] += 1
        hands[k] = ks.hand
        if ks.event_deck is None:
            decks[k] = Deck(tuple(r.shuffled(list((own - used).elements()))), ks.event_discard)
        else:
            decks[k] = Deck(ks.event_deck, ks.event_discard)
        for field_name in ("treasure_hand", "treasures_in_play"):
            for n, card in enumerate(getattr(ks, field_name)):
                if card not in board.extra.get("treasures", {}):
                    err(f"{key}.{field_name}[{n}]", f"unknown treasure {card!r}")
                treasures_seen[card] += 1
        treasure_hands[k] = ks.treasure_hand
        in_play[k] = ks.treasures_in_play
        gold[k] = board.start_gold[k] if ks.gold is None else ks.gold
        vp[k] = ks.vp
    treasure_deck = _deck(
        "treasure_deck",
        spec.treasure_deck,
        spec.treasure_discard,
        board.treasure_cards(),
        treasures_seen,
        r,
        err,
    )
    on_board: Counter[str] = Counter(g.tile for slots in guardians.values() for g in slots)
    guardian_stack = _deck(
        "guardian_stack",
        spec.guardian_stack,
        spec.guardians_defeated,
        board.guardian_tiles(),
        on_board,
        r,
        err,
    )

    t = spec.turn
    d = NerathData(
        units=dict(sorted(units.items())),
        next_uid=spec.next_uid if spec.next_uid is not None else max(units, default=0) + 1,
        gold=gold,
        vp=vp,
        control=control,
        hands=hands,
        treasure_hands=treasure_hands,
        treasures_in_play=in_play,
        event_decks=decks,
        treasure_deck=treasure_deck,
        guardians=guardians,
        guardian_stack=guardian_stack,
    )
    if d.next_uid <= max(units, default=0):
        err("next_uid", f"must be above every piece number (the highest is {max(units)})")
    k = kingdom_of[spec.kingdom]
    phase = Phase(PHASE_IDS.index(spec.phase))
    d.pos = TurnPosition(spec.round, k, phase)  # the round stays through begin_turn
    if t.control_at_start is None:
        d.control_at_start = tuple(control)
    else:
        start = list(control)
        for sid, owner in t.control_at_start.items():
            i = space(f"turn.control_at_start.{sid}", sid)
            if i >= 0:
                start[i] = -1 if owner is None else kingdom_of[owner]
        d.control_at_start = tuple(start)
    d.captured = frozenset(space("turn.captured", x) for x in t.captured)
    d.placed = tuple((space("turn.placed", x), n) for x, n in t.placed)
    d.new_castles = frozenset(space("turn.new_castles", x) for x in t.new_castles)
    d.new_pieces_on = frozenset(space("turn.new_pieces_on", x) for x in t.new_pieces_on)
    for n, uid in enumerate((*t.landings, *t.amok)):
        if uid not in units:
            err("turn.landings" if n < len(t.landings) else "turn.amok", f"no piece number {uid}")
    d.landings, d.amok = t.landings, t.amok
    d.amok_from = -1 if t.amok_from is None else space("turn.amok_from", t.amok_from)
    d.round_cap_hit = t.round_cap_hit
    d.winner_pending = tuple(kingdom_of[x] for x in t.winner_pending)
    d.cancelled = None if t.cancelled is None else (kingdom_of[t.cancelled[0]], t.cancelled[1])
    if t.result is not None:
        res = t.result
        d.result = Results(
            frozenset(int(p) for p in res.get("winners", [])),
            tuple(tuple(int(p) for p in group) for group in res.get("ranking", [])),
            {int(p): float(v) for p, v in res.get("scores", {}).items()},
            str(res.get("reason", "")),
        )
    d.effects = tuple(
        (kingdom_of[e.kingdom], CardEffect(e.op, tuple(e.params.items()), e.when)) for e in t.effects
    )
    d.windows = tuple(_window_from(w, kingdom_of) for w in t.windows)
    if t.battle is not None:
        d.battle = _battle_from(t.battle, space("turn.battle.space", t.battle.space), kingdom_of)
    if bad:
        raise ContentErrors(bad)

    state = NerathState(board, d, options, spec.seed, r)
    if spec.begin_turn:
        begin_turn(state, k, phase)
    elif phase == BATTLES and d.battle is None and t.battles_todo is None:
        state.d.battles_todo = battle_flow.find_battles(state, k)
    if t.battles_todo is not None:
        state.d.battles_todo = tuple(space("turn.battles_todo", x) for x in t.battles_todo)
    if bad:
        raise ContentErrors(bad)
    state._advance([])
    return state


def begin_turn(state: Any, k: int, phase: Phase) -> None:
    """Start kingdom ``k``'s turn at ``phase`` (the position key ``begin_turn``): its pieces get
    their moves back, start-of-turn cards act, and the phase is entered (battles found, flyers
    ready to reposition). The automatic steps that follow are the caller's (``_advance``)."""
    from warhorn.games.nerath.rules import battle_flow, reposition

    state.d.pos = TurnPosition(state.d.pos.round, k, phase)
    state._begin_turn()
    state.d.pos = TurnPosition(state.d.pos.round, k, phase)
    if phase == BATTLES:
        state.d.battles_todo = battle_flow.find_battles(state, k)
    elif phase == REPOSITION:
        reposition.start(state, k)


def _unit(uid: int, k: int, p: PieceSpec, space: int, carrier: int) -> Unit:
    return Unit(uid, k, p.piece, space, carrier, p.moved, p.done, p.new, p.damage, p.inactive, p.boarded)


def _deck(
    key: str,
    pile: tuple[str, ...] | None,
    discard: tuple[str, ...],
    every: list[str],
    elsewhere: Counter[str],
    r: Rng,
    err: Any,
) -> Deck:
    """A deck from its draw pile (None: every card not ``elsewhere`` nor discarded, shuffled)."""
    pool = Counter(every)
    for card in (*discard, *(pile or ())):
        if card not in pool:
            err(key, f"unknown card or tile {card!r}")
            return Deck()
        elsewhere[card] += 1
        if elsewhere[card] > pool[card]:
            err(key, f"more {card!r} than the game has")
            return Deck()
    if pile is not None:
        return Deck(pile, discard)
    return Deck(tuple(r.shuffled(list((pool - elsewhere).elements()))), discard)


def _window_from(w: WindowSpec, kingdom_of: dict[str, int]) -> CardWindow:
    c = w.card
    return CardWindow(
        w.name,
        tuple(kingdom_of[x] for x in w.queue),
        w.resume,
        None if c is None else (kingdom_of[c.kingdom], c.card, c.target, c.treasure),
    )


def _battle_from(b: BattleSpec, at: int, kingdom_of: dict[str, int]) -> BattleState:
    sp = b.split
    return BattleState(
        space=at,
        kind=b.kind,
        attacker=kingdom_of[b.attacker],
        round=b.round,
        step=b.step,
        orders=tuple(
            DamageOrder(o.player, -1 if o.kingdom == "guardians" else kingdom_of[o.kingdom], o.hits)
            for o in b.orders
        ),
        rolled=(
            tuple((x.sides, x.face, x.hits_on) for x in b.rolled.attacker),
            tuple((x.sides, x.face, x.hits_on) for x in b.rolled.defenders),
        ),
        negate=(b.negate.attacker, b.negate.defenders),
        forced_retreat=b.forced_retreat,
        split=None
        if sp is None
        else DamageSplit(sp.hits, kingdom_of[sp.proposer], kingdom_of[sp.partner], sp.offer),
    )


def _dice_json(dice: tuple[tuple[int, int, int], ...]) -> list[dict[str, int]]:
    return [{"sides": sides, "face": face, "hits_on": least} for sides, face, least in dice]


def to_position(state: Any) -> dict[str, Any]:
    """The position of ``state``: everything, so that :func:`position_from` builds the same state."""
    s = state
    d: NerathData = s.d
    board: NerathBoard = s.board
    sid = board.sid
    spaces: dict[str, dict[str, Any]] = {}
    for i in range(len(board)):
        entry: dict[str, Any] = {}
        if board.kind[i] == LAND and d.control[i] != (board.owner[i] if board.kind[i] == LAND else -1):
            entry["control"] = KINGDOM_IDS[d.control[i]] if d.control[i] >= 0 else None
        pieces = []
        for u in s.units_at(i):
            p = _piece_json(u)
            cargo = [_piece_json(c) for c in s.cargo_of(u.uid)]
            if cargo:
                p["cargo"] = cargo
            pieces.append(p)
        if pieces:
            entry["pieces"] = pieces
        slots = d.guardians.get(i, ())
        if slots:
            entry["guardians"] = [{"tile": g.tile, "face_up": g.face_up, "dice": list(g.dice)} for g in slots]
        if entry:
            spaces[sid(i)] = entry
    kingdoms = {
        KINGDOM_IDS[k]: {
            "gold": d.gold[k],
            "vp": d.vp[k],
            "hand": list(d.hands[k]),
            "treasure_hand": list(d.treasure_hands[k]),
            "treasures_in_play": list(d.treasures_in_play[k]),
            "event_deck": list(d.event_decks[k].draw_pile),
            "event_discard": list(d.event_decks[k].discard_pile),
        }
        for k in range(4)
    }
    b = d.battle
    turn: dict[str, Any] = {
        "control_at_start": {
            sid(i): (KINGDOM_IDS[c] if c >= 0 else None)
            for i, c in enumerate(d.control_at_start)
            if board.kind[i] == LAND and c != d.control[i]
        },
        "captured": sorted(sid(i) for i in d.captured),
        "placed": [[sid(c), n] for c, n in d.placed],
        "new_castles": sorted(sid(i) for i in d.new_castles),
        "new_pieces_on": sorted(sid(i) for i in d.new_pieces_on),
        "battles_todo": [sid(i) for i in d.battles_todo],
        "landings": list(d.landings),
        "amok": list(d.amok),
        "amok_from": sid(d.amok_from) if d.amok_from >= 0 else None,
        "effects": [
            {"kingdom": KINGDOM_IDS[k], "op": e.op, "params": dict(e.params), "when": e.when}
            for k, e in d.effects
        ],
        "windows": [
            {
                "name": w.name,
                "queue": [KINGDOM_IDS[x] for x in w.queue],
                "resume": w.resume,
                "card": None
                if w.card is None
                else {
                    "kingdom": KINGDOM_IDS[w.card[0]],
                    "card": w.card[1],
                    "target": w.card[2],
                    "treasure": w.card[3],
                },
            }
            for w in d.windows
        ],
        "battle": None
        if b is None
        else {
            "space": sid(b.space),
            "kind": b.kind,
            "attacker": KINGDOM_IDS[b.attacker],
            "round": b.round,
            "step": b.step,
            "orders": [
                {
                    "player": o.player,
                    "kingdom": "guardians" if o.kingdom < 0 else KINGDOM_IDS[o.kingdom],
                    "hits": o.hits,
                }
                for o in b.orders
            ],
            "rolled": {"attacker": _dice_json(b.rolled[0]), "defenders": _dice_json(b.rolled[1])},
            "negate": {"attacker": b.negate[0], "defenders": b.negate[1]},
            "forced_retreat": b.forced_retreat,
            "split": None
            if b.split is None
            else {
                "hits": b.split.hits,
                "proposer": KINGDOM_IDS[b.split.proposer],
                "partner": KINGDOM_IDS[b.split.partner],
                "offer": list(b.split.offer) if b.split.offer is not None else None,
            },
        },
        "cancelled": [KINGDOM_IDS[d.cancelled[0]], d.cancelled[1]] if d.cancelled else None,
        "round_cap_hit": d.round_cap_hit,
        "winner_pending": [KINGDOM_IDS[k] for k in d.winner_pending],
        "result": d.result.to_json() if d.result is not None else None,
    }
    return {
        "options": dict(s.options),
        "seed": s.seed,
        "rng": s.rng.state,
        "round": d.pos.round,
        "kingdom": KINGDOM_IDS[d.pos.turn],
        "phase": PHASE_IDS[d.pos.phase],
        "kingdoms": kingdoms,
        "spaces": spaces,
        "treasure_deck": list(d.treasure_deck.draw_pile),
        "treasure_discard": list(d.treasure_deck.discard_pile),
        "guardian_stack": list(d.guardian_stack.draw_pile),
        "guardians_defeated": list(d.guardian_stack.discard_pile),
        "next_uid": d.next_uid,
        "turn": turn,
    }


def _piece_json(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"piece": u.ptype, "kingdom": KINGDOM_IDS[u.kingdom], "uid": u.uid}
    for name in ("moved", "done", "new", "damage", "inactive", "boarded"):
        value = getattr(u, name)
        if value:
            out[name] = value
    return out
