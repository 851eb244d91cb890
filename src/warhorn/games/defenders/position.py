"""Defenders of the Realm positions: a game state written as data, and read back.

:func:`position_from` builds a :class:`DefendersState` from a mapping (the keys are
described in ``docs/positions.md``, section "Defenders of the Realm"); every mistake is
reported with its key (``heroes[1].location: unknown location 'Wolf Pas'``) and nothing is
built. :func:`to_position` writes a state back; the two agree (``position_from(
to_position(s))`` has the same snapshot digest as ``s``).

Only what a position names is required: left out, the decks hold the cards found nowhere
else (shuffled with ``seed``), a general stands on its start (``null``: defeated), the printed gates are the
only gates, the supply and the crystals left are what the box holds minus what is on the
board, and the dice generator starts from ``seed``. After building, the automatic steps run
until a player must decide (a hero whose turn starts gets its actions), so a written
position - already waiting for a decision - reads back unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from warhorn.engine.deck import Deck
from warhorn.engine.errors import ContentError, ContentErrors, OptionError
from warhorn.engine.rng import Rng
from warhorn.games.defenders.board import (
    COLOURS,
    CRYSTALS,
    GATE_TOKENS,
    MINIONS_PER_COLOUR,
    MONARCH_CITY,
    DefendersBoard,
)
from warhorn.games.defenders.game import SPEC, load_board
from warhorn.games.defenders.records import (
    Battle,
    BattleStage,
    GeneralState,
    HeroSlot,
    Night,
    NightStage,
    Phase,
    Picking,
    PickStage,
    Window,
)
from warhorn.games.defenders.rules import heroes, picks, turn
from warhorn.games.defenders.state import DefendersState

FILE = "position"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Minions(_Strict):
    """Minions by colour (red demons, green orcs, blue dragonkin, black undead)."""

    red: int = Field(0, ge=0)
    green: int = Field(0, ge=0)
    blue: int = Field(0, ge=0)
    black: int = Field(0, ge=0)

    def counts(self) -> list[int]:
        return [self.red, self.green, self.blue, self.black]


class HeroPosition(_Strict):
    """One seat in turn order. ``hero`` null: the seat's hero fell and awaits a replacement."""

    player: int = Field(ge=0, le=3)
    hero: str | None
    location: str = MONARCH_CITY
    life: int | None = Field(None, ge=0)  # default: the hero's starting life
    max_life: int | None = Field(None, ge=0)
    actions: int = Field(0, ge=0)
    hand: list[str] = []
    quest: str | None = None
    quest_progress: list[str] = []
    quest_minions: Minions = Minions()
    rewards: list[str] = []
    slain: list[str] = []
    turn: dict[str, int | str] = {}  # this turn's flags (rules' own notes: "rumors", "shape", ...)


class GeneralPosition(_Strict):
    location: str | None  # null: off the board
    wounds: int = Field(0, ge=0)
    heal_from: int = -1
    no_heal_turn: int = -1


class DeckPosition(_Strict):
    draw: list[str] | None = None  # top first; null: every card found nowhere else, shuffled
    discard: list[str] = []


class PlayerRecord(_Strict):
    """What counts for King's Champion (DEF-END-03)."""

    quests_done: list[str] = []
    generals_slain: int = Field(0, ge=0)


class BattlePosition(_Strict):
    general: str
    location: str
    starter: int
    stage: BattleStage
    to_ask: list[int] = []
    participants: list[int]
    committed: dict[int, list[str]] = {}
    commit_queue: list[int] = []
    rolled: list[int] = []
    hits: int = 0
    parries: int = 0
    extra_dice: dict[int, int] = {}


class WindowPosition(_Strict):
    kind: Literal["night", "card"]
    players: list[int]


class NightPosition(_Strict):
    modes: list[Literal["full", "general"]] = []
    card: str | None = None
    mode: Literal["full", "general"] = "full"
    stage: NightStage = NightStage.DRAW
    cancelled: list[str] = []
    redrawn: bool = False


class PickingPosition(_Strict):
    seat: int
    effect: str
    stage: PickStage
    left: int = 0
    allowed: list[str] = []  # locations (minion effects)
    put_back: int = 0  # Dark Visions: cards already put back on top
    taken: dict[str, int] = {}
    chosen: list[str] = []


class OwedDiscard(_Strict):
    seat: int
    count: int = Field(ge=1)


class Position(_Strict):
    options: dict[str, Any] = {}
    seed: int = 0
    rng: int | None = Field(None, ge=0)
    heroes: list[HeroPosition] = Field(min_length=1)
    unused_heroes: list[str] | None = None
    current: int = Field(0, ge=0)
    turn: int = Field(0, ge=0)
    phase: Phase = Phase.START
    war: int = Field(0, ge=0, le=3)
    minions: dict[str, Minions] = {}
    taint: dict[str, int] = {}
    gates: list[str] | None = None
    generals: dict[str, GeneralPosition | None] | None = None
    supply: Minions | None = None
    crystals_left: int | None = Field(None, ge=0, le=CRYSTALS)
    hero_deck: DeckPosition = DeckPosition()
    darkness_deck: DeckPosition = DeckPosition()
    darkness_known_top: int = Field(0, ge=0)
    quest_deck: DeckPosition = DeckPosition()
    removed_cards: list[str] = []
    players: list[PlayerRecord] | None = None
    battle: BattlePosition | None = None
    window: WindowPosition | None = None
    night: NightPosition | None = None
    picking: PickingPosition | None = None
    owed_discards: list[OwedDiscard] = []
    replacements: list[int] = []
    turn_undead_seat: int | None = None
    skip_night: bool = False
    outcome: str | None = None
    ending: str | None = None


class _Checker:
    """Collects every mistake of a position, each with its key."""

    def __init__(self, board: DefendersBoard) -> None:
        self.board = board
        self.problems: list[ContentError] = []

    def fail(self, key: str, message: str) -> None:
        self.problems.append(ContentError(FILE, key, message))

    def location(self, key: str, name: str) -> int:
        if name not in self.board.index:
            self.fail(key, f"unknown location {name!r}")
            return self.board.monarch
        return self.board.index[name]

    def colour(self, key: str, name: str) -> int:
        if name not in COLOURS:
            self.fail(key, f"unknown colour {name!r} (one of {', '.join(COLOURS)})")
            return 0
        return COLOURS.index(name)

    def known(self, key: str, value: str, pool: Mapping[str, Any], what: str) -> None:
        if value not in pool:
            self.fail(key, f"unknown {what} {value!r}")

    def seat(self, key: str, seat: int, seats: int) -> None:
        if not 0 <= seat < seats:
            self.fail(key, f"no seat {seat} among {seats} heroes")


def _validation_errors(exc: pydantic.ValidationError) -> ContentErrors:
    out = []
    for e in exc.errors():
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e["loc"]).lstrip(".")
        out.append(ContentError(FILE, key or "(top level)", e["msg"]))
    return ContentErrors(out)


def position_from(data: Mapping[str, Any], content: Any = None) -> DefendersState:
    """The Defenders state ``data`` describes (see the module and ``docs/positions.md``);
    :class:`ContentErrors` naming every key at fault when it is not a possible position."""
    try:
        model = Position.model_validate(dict(data))
    except pydantic.ValidationError as exc:
        raise _validation_errors(exc) from None
    board = load_board(content)
    check = _Checker(board)
    seats = len(model.heroes)
    named = max(h.player for h in model.heroes) + 1
    try:
        options = SPEC.resolve_options({"players": named, **model.options})
    except OptionError as exc:
        raise ContentErrors([ContentError(FILE, f"options.{exc.option}", str(exc))]) from None
    players = int(options["players"])
    if players < named:
        check.fail("options.players", f"{players} players, but the heroes name player {named - 1}")
    state = DefendersState(board, options, model.seed, Rng(model.seed if model.rng is None else model.rng))
    state.players = players
    _heroes(state, model, check)
    _board(state, model, check)
    _decks(state, model, check)
    _in_progress(state, model, check, seats)
    if not 0 <= model.current < seats:
        check.fail("current", f"no seat {model.current} among {seats} heroes")
    if check.problems:
        raise ContentErrors(check.problems)
    state.current = model.current
    state.turn_no = model.turn
    state.phase = model.phase
    state.war = model.war
    state.skip_night = model.skip_night
    state.outcome = model.outcome
    state.ending = model.ending
    state.won = model.outcome == "win"
    problems = state.invariants()
    if problems:
        raise ContentErrors([ContentError(FILE, "(position)", p) for p in problems])
    turn.advance(state)
    state.events = []
    return state


def _heroes(state: DefendersState, model: Position, check: _Checker) -> None:
    b = state.board
    seated = []
    for i, h in enumerate(model.heroes):
        key = f"heroes[{i}]"
        life = max_life = 0
        if h.hero is not None:
            check.known(f"{key}.hero", h.hero, b.hero_by_id, "hero")
            seated.append(h.hero)
            if h.hero in b.hero_by_id:
                max_life = heroes.hero_life(b, h.hero, state.options)
        life = h.life if h.life is not None else max_life
        slot = HeroSlot(
            h.player,
            h.hero,
            check.location(f"{key}.location", h.location),
            life,
            h.max_life if h.max_life is not None else max_life,
            h.actions,
        )
        for j, cid in enumerate(h.hand):
            check.known(f"{key}.hand[{j}]", cid, b.cards, "hero card")
        slot.hand = list(h.hand)
        if h.quest is not None:
            check.known(f"{key}.quest", h.quest, b.quest_by_id, "quest")
        slot.quest = h.quest
        slot.quest_progress = list(h.quest_progress)
        slot.quest_minions = h.quest_minions.counts()
        for j, q in enumerate(h.rewards):
            check.known(f"{key}.rewards[{j}]", q, b.quest_by_id, "quest")
        slot.rewards = list(h.rewards)
        slot.slain = [check.colour(f"{key}.slain[{j}]", c) for j, c in enumerate(h.slain)]
        slot.turn = dict(h.turn)
        state.slots.append(slot)
    if len(set(seated)) != len(seated):
        check.fail("heroes", "a hero may sit in only one seat")
    if model.unused_heroes is None:
        state.unused_heroes = [h.id for h in b.heroes if h.id not in seated]
    else:
        for j, hid in enumerate(model.unused_heroes):
            check.known(f"unused_heroes[{j}]", hid, b.hero_by_id, "hero")
            if hid in seated:
                check.fail(f"unused_heroes[{j}]", f"{hid!r} is already in a seat")
        state.unused_heroes = list(model.unused_heroes)
    records = model.players if model.players is not None else [PlayerRecord() for _ in range(state.players)]
    if len(records) != state.players:
        check.fail("players", f"one record per player: {state.players} players, {len(records)} records")
        records = [PlayerRecord() for _ in range(state.players)]
    state.quests_done = [len(r.quests_done) for r in records]
    state.quests_done_names = [list(r.quests_done) for r in records]
    state.generals_slain = [r.generals_slain for r in records]


def _board(state: DefendersState, model: Position, check: _Checker) -> None:
    b = state.board
    for name, counts in model.minions.items():
        state.minions[check.location(f"minions.{name}", name)] = counts.counts()
    for name, n in model.taint.items():
        i = check.location(f"taint.{name}", name)
        if n < 0:
            check.fail(f"taint.{name}", "a number of crystals cannot be negative")
        state.taint[i] = n
    if model.gates is None:
        state.gates = [loc.gate_printed for loc in b.locations]
    else:
        state.gates = [False] * len(b.locations)
        for j, name in enumerate(model.gates):
            state.gates[check.location(f"gates[{j}]", name)] = True
    state.gate_supply = GATE_TOKENS - sum(state.gates)
    for gd in b.generals:  # on their starts unless the position says otherwise
        state.generals[COLOURS.index(gd.colour)] = GeneralState(b.loc(gd.path[0]))
    if model.generals is not None:
        for colour, g in model.generals.items():
            c = check.colour(f"generals.{colour}", colour)
            if b.general_by_colour[c] is None:
                check.fail(f"generals.{colour}", f"the content has no {colour} general")
            if g is not None:
                loc = -1 if g.location is None else check.location(f"generals.{colour}.location", g.location)
                state.generals[c] = GeneralState(loc, g.wounds, g.heal_from, g.no_heal_turn)
            else:
                state.generals[c] = None  # defeated
    box = MINIONS_PER_COLOUR - (5 if state.options.get("hard_fewer_minions") else 0)
    if model.supply is None:
        state.supply = [box - state.on_board(c) - state.on_quests(c) for c in range(4)]
    else:
        state.supply = model.supply.counts()
    state.crystals_left = CRYSTALS - sum(state.taint) if model.crystals_left is None else model.crystals_left


def _decks(state: DefendersState, model: Position, check: _Checker) -> None:
    b = state.board
    shuffler = Rng(model.seed)
    for j, cid in enumerate(model.removed_cards):
        check.known(f"removed_cards[{j}]", cid, b.cards, "hero card")
    state.removed_cards = list(model.removed_cards)
    committed = [c for cs in (model.battle.committed.values() if model.battle else ()) for c in cs]
    held = [c for s in state.slots for c in s.hand] + committed + state.removed_cards
    state.hero_deck = _deck(
        model.hero_deck, "hero_deck", [c.id for c in b.hero_cards], held, b.cards, shuffler, check
    )
    in_play = [model.night.card] if model.night and model.night.card else []
    if model.picking is not None and model.picking.effect == "dark_visions":
        in_play += model.picking.chosen
    state.ds_deck = _deck(
        model.darkness_deck, "darkness_deck", [c.id for c in b.darkness], in_play, b.ds_cards, shuffler, check
    )
    state.ds_known_top = model.darkness_known_top
    quests = [q for s in state.slots for q in ([s.quest] if s.quest else []) + s.rewards]
    state.quest_deck = _deck(
        model.quest_deck, "quest_deck", [q.id for q in b.quests], quests, b.quest_by_id, shuffler, check
    )


def _deck(
    deck: DeckPosition,
    key: str,
    every: list[str],
    elsewhere: list[str],
    known: Mapping[str, Any],
    shuffler: Rng,
    check: _Checker,
) -> Deck:
    for j, cid in enumerate(deck.discard):
        check.known(f"{key}.discard[{j}]", cid, known, "card")
    if deck.draw is None:
        placed = set(deck.discard) | set(elsewhere)
        draw = tuple(shuffler.shuffled([c for c in every if c not in placed]))
    else:
        for j, cid in enumerate(deck.draw):
            check.known(f"{key}.draw[{j}]", cid, known, "card")
        draw = tuple(deck.draw)
    return Deck(draw, tuple(deck.discard))


def _in_progress(state: DefendersState, model: Position, check: _Checker, seats: int) -> None:
    """The battle, window, night and picking under way, owed discards and replacements."""
    b = state.board
    if model.battle is not None:
        bt = model.battle
        for name, seat in [("starter", bt.starter)] + [
            (f"{f}[{j}]", s)
            for f in ("to_ask", "participants", "commit_queue", "rolled")
            for j, s in enumerate(getattr(bt, f))
        ]:
            check.seat(f"battle.{name}", seat, seats)
        state.battle = Battle(
            check.colour("battle.general", bt.general),
            check.location("battle.location", bt.location),
            bt.starter,
            bt.stage,
            list(bt.to_ask),
            list(bt.participants),
            {k: list(v) for k, v in bt.committed.items()},
            list(bt.commit_queue),
            list(bt.rolled),
            bt.hits,
            dict(bt.extra_dice),
            bt.parries,
        )
    if model.window is not None:
        state.window = Window(model.window.kind, list(model.window.players))
    if model.night is not None:
        n = model.night
        if n.card is not None:
            check.known("night.card", n.card, b.ds_cards, "Darkness Spreads card")
        state.night = Night(list(n.modes), n.card, n.mode, n.stage, list(n.cancelled), n.redrawn)
    if model.picking is not None:
        p = model.picking
        check.seat("picking.seat", p.seat, seats)
        if p.effect == "dark_visions":
            allowed = list(range(p.put_back))
        else:
            allowed = [check.location(f"picking.allowed[{j}]", name) for j, name in enumerate(p.allowed)]
        taken = {check.location(f"picking.taken.{name}", name): n for name, n in p.taken.items()}
        known = picks.MINION_EFFECTS | {"battle_strategy", "move_heroes", "dark_visions"}
        if p.effect not in known:
            check.fail("picking.effect", f"unknown effect {p.effect!r} (one of {', '.join(sorted(known))})")
        state.picking = Picking(p.seat, p.effect, p.stage, p.left, allowed, taken, list(p.chosen))
    for j, o in enumerate(model.owed_discards):
        check.seat(f"owed_discards[{j}].seat", o.seat, seats)
    state.owed_discards = [[o.seat, o.count] for o in model.owed_discards]
    for j, seat in enumerate(model.replacements):
        check.seat(f"replacements[{j}]", seat, seats)
    state.replacements = list(model.replacements)
    if model.turn_undead_seat is not None:
        check.seat("turn_undead_seat", model.turn_undead_seat, seats)
    state.turn_undead_slot = model.turn_undead_seat


def to_position(state: Any) -> dict[str, Any]:
    """The position of a Defenders state: everything, decks in order, the dice generator's state."""
    assert isinstance(state, DefendersState)
    b = state.board
    names = b.location_names
    out: dict[str, Any] = {
        "options": dict(sorted(state.options.items())),
        "seed": state.seed,
        "rng": state.rng.state,
        "heroes": [_hero(state, s) for s in state.slots],
        "unused_heroes": list(state.unused_heroes),
        "current": state.current,
        "turn": state.turn_no,
        "phase": str(state.phase),
        "war": state.war,
        "minions": {
            names[i]: dict(zip(COLOURS, m, strict=True)) for i, m in enumerate(state.minions) if any(m)
        },
        "taint": {names[i]: t for i, t in enumerate(state.taint) if t},
        "gates": [names[i] for i, g in enumerate(state.gates) if g],
        "generals": {
            COLOURS[c]: None
            if g is None
            else {
                "location": names[g.loc] if g.loc >= 0 else None,
                "wounds": g.wounds,
                "heal_from": g.heal_from,
                "no_heal_turn": g.no_heal_turn,
            }
            for c, g in enumerate(state.generals)
            if b.general_by_colour[c] is not None
        },
        "supply": dict(zip(COLOURS, state.supply, strict=True)),
        "crystals_left": state.crystals_left,
        "hero_deck": _deck_json(state.hero_deck),
        "darkness_deck": _deck_json(state.ds_deck),
        "darkness_known_top": state.ds_known_top,
        "quest_deck": _deck_json(state.quest_deck),
        "removed_cards": list(state.removed_cards),
        "players": [
            {"quests_done": list(state.quests_done_names[p]), "generals_slain": state.generals_slain[p]}
            for p in range(state.players)
        ],
        "owed_discards": [{"seat": s, "count": n} for s, n in state.owed_discards],
        "replacements": list(state.replacements),
        "turn_undead_seat": state.turn_undead_slot,
        "skip_night": state.skip_night,
        "outcome": state.outcome,
        "ending": state.ending,
    }
    if state.battle is not None:
        bt = state.battle
        out["battle"] = {
            "general": COLOURS[bt.general],
            "location": names[bt.loc],
            "starter": bt.starter,
            "stage": str(bt.stage),
            "to_ask": list(bt.to_ask),
            "participants": list(bt.participants),
            "committed": {k: list(v) for k, v in bt.committed.items()},
            "commit_queue": list(bt.commit_queue),
            "rolled": list(bt.rolled),
            "hits": bt.hits,
            "parries": bt.parries,
            "extra_dice": dict(bt.extra_dice),
        }
    if state.window is not None:
        out["window"] = {"kind": state.window.kind, "players": list(state.window.players)}
    if state.night is not None:
        n = state.night
        out["night"] = {
            "modes": list(n.modes),
            "card": n.card,
            "mode": n.mode,
            "stage": str(n.stage),
            "cancelled": list(n.cancelled),
            "redrawn": n.redrawn,
        }
    if state.picking is not None:
        p = state.picking
        dark = p.effect == "dark_visions"
        out["picking"] = {
            "seat": p.slot,
            "effect": p.effect,
            "stage": str(p.stage),
            "left": p.left,
            "allowed": [] if dark else [names[i] for i in p.allowed],
            "put_back": len(p.allowed) if dark else 0,
            "taken": {names[i]: n for i, n in p.taken.items()},
            "chosen": list(p.chosen),
        }
    return out


def _hero(state: DefendersState, s: HeroSlot) -> dict[str, Any]:
    return {
        "player": s.player,
        "hero": s.hero,
        "location": state.board.location_names[s.loc],
        "life": s.life,
        "max_life": s.max_life,
        "actions": s.actions,
        "hand": list(s.hand),
        "quest": s.quest,
        "quest_progress": list(s.quest_progress),
        "quest_minions": dict(zip(COLOURS, s.quest_minions, strict=True)),
        "rewards": list(s.rewards),
        "slain": [COLOURS[c] for c in s.slain],
        "turn": dict(s.turn),
    }


def _deck_json(deck: Deck) -> dict[str, Any]:
    return {"draw": list(deck.draw_pile), "discard": list(deck.discard_pile)}
