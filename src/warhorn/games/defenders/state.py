"""The Defenders of the Realm game state: board, heroes, decks, turn position.

The state holds data; the rules live in :mod:`warhorn.games.defenders.rules`.
``_apply_in_place`` hands an action to the rule that owns the pending decision
and then lets :func:`rules.turn.advance` run every automatic step (evening
draws, the night, healing, the next turn) until a player must decide again.

What is hidden (decided from the digest and the seed): the order of the hero,
Darkness Spreads and quest decks is hidden from everyone. Hands and quest
cards are open: the game is cooperative and the rules never ask a player to
hide cards, so every player sees every hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.decisions import Decision, GameSpec, Results
from warhorn.engine.deck import Deck
from warhorn.engine.declared import (
    Copied,
    Seen,
    StateField,
    deck_redaction,
    determinize,
    first_write,
    reshuffle_draw_pile,
    view_from_snapshot,
)
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng
from warhorn.engine.state import GameState
from warhorn.games.defenders.actions import CODEC
from warhorn.games.defenders.board import (
    COLOURS,
    CRYSTALS,
    GATE_TOKENS,
    MINIONS_PER_COLOUR,
    DefendersBoard,
)
from warhorn.games.defenders.records import (
    WAR_NAMES,
    Battle,
    GeneralState,
    HeroSlot,
    Night,
    Phase,
    Picking,
    Window,
)
from warhorn.games.defenders.rules import decisions, turn, victory


class _Unknown:
    """Marks a cached answer not computed yet (None is a real answer: the game is over)."""


_UNKNOWN = _Unknown()


def _known_darkness_top(state: DefendersState) -> int:
    return state.ds_known_top


def _field(
    name: str,
    copied: Copied,
    *snapshot: str,
    seen: Seen = Seen.EVERYONE,
    note: str = "",
    copy_as: str = "copy",
) -> StateField:
    return StateField(name, copied, seen, snapshot or (name,), note, copy_as)


def _deck(name: str, key: str, known_on_top: Callable[[DefendersState], int] | None = None) -> StateField:
    """A deck: everyone sees its size and discard pile, nobody the order of its draw pile."""
    return StateField(
        name,
        Copied.SHARED,
        Seen.HIDDEN,
        (key,),
        redact=deck_redaction,
        resample=reshuffle_draw_pile(name, known_on_top),
    )


def _fresh_unknown() -> _Unknown:
    return _UNKNOWN


SHARED, OWN, ON_WRITE, FRESH = Copied.SHARED, Copied.OWN, Copied.ON_WRITE, Copied.FRESH
#: Every field of a Defenders state, declared once: views are the snapshot less what it hides,
#: determinize resamples its hidden fields (engine/declared.py); ``copy`` is written out as it
#: says. ``tests/defenders/test_declared_state.py`` checks ``__init__``, ``copy`` and ``snapshot``
#: against it.
STATE_FIELDS: tuple[StateField, ...] = (
    StateField("board", SHARED, Seen.EVERYONE, (), "the content; saves record its hash"),
    _field("options", SHARED),
    StateField("seed", SHARED, Seen.EVERYONE, (), "where the game started; the state is the rng's"),
    _field("rng", OWN, seen=Seen.NOBODY),
    _field("minions", ON_WRITE),
    _field("taint", ON_WRITE),
    _field("gates", ON_WRITE),
    _field("gate_supply", SHARED),
    _field("crystals_left", SHARED),
    _field("supply", OWN),
    _field("generals", ON_WRITE),
    _field("war", SHARED, "war", "war_status"),
    _field("players", SHARED),
    _field("slots", OWN, "heroes", copy_as="copy_each"),
    _field("unused_heroes", ON_WRITE),
    # The order of the three decks is hidden from everyone (hands and quests are open: the game
    # is cooperative), but for Darkness Spreads cards Dark Visions put back on top.
    _deck("hero_deck", "hero_deck"),
    _deck("ds_deck", "darkness_deck", _known_darkness_top),
    _deck("quest_deck", "quest_deck"),
    _field("removed_cards", ON_WRITE),
    _field("quests_done", ON_WRITE),
    _field("quests_done_names", ON_WRITE),
    _field("generals_slain", ON_WRITE),
    _field("current", SHARED),
    _field("turn_no", SHARED, "turn"),
    _field("phase", SHARED),
    _field("battle", OWN, copy_as="copy_or_none"),
    _field("window", OWN, copy_as="copy_or_none"),
    _field("night", OWN, copy_as="copy_or_none"),
    _field("owed_discards", OWN, copy_as="lists"),
    _field("replacements", ON_WRITE),
    _field("turn_undead_slot", SHARED),
    _field("picking", OWN, copy_as="copy_or_none"),
    _field("ds_known_top", SHARED, "darkness_known_top"),
    _field("skip_night", SHARED),
    _field("outcome", SHARED),
    _field("ending", SHARED),
    StateField("won", SHARED, Seen.EVERYONE, (), "follows from outcome ('win')"),
    StateField("events", FRESH, Seen.NOT_STATE, (), "what the last action did", fresh=list),
    StateField("_legal", FRESH, Seen.NOT_STATE, (), "cache of legal_actions()"),
    StateField("_pending", FRESH, Seen.NOT_STATE, (), "cache of pending()", fresh=_fresh_unknown),
    StateField("_shared", FRESH, Seen.NOT_STATE, (), "the ON_WRITE fields shared with other states"),
)
#: The fields a copy shares until it changes them (the rules change them through ``own_*``).
ON_WRITE_FIELDS = frozenset(f.name for f in STATE_FIELDS if f.copied is Copied.ON_WRITE)


# compiled build: ``__new__`` without ``__init__`` (``copy()``), ``__init__`` when built from interpreted code
@mypyc_attr(allow_interpreted_subclasses=True)
class DefendersState(GameState):
    """A Defenders of the Realm position."""

    spec: ClassVar[GameSpec]
    codec: ClassVar[ActionCodec] = CODEC

    def __init__(self, board: DefendersBoard, options: dict[str, Any], seed: int, rng: Rng) -> None:
        self.board = board
        self.options = options
        self.seed = seed
        self.rng = rng
        n = len(board.locations)
        self.minions: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        self.taint: list[int] = [0] * n
        self.gates: list[bool] = [False] * n
        self.gate_supply = GATE_TOKENS
        self.crystals_left = CRYSTALS
        self.supply: list[int] = [MINIONS_PER_COLOUR] * 4
        self.generals: list[GeneralState | None] = [None, None, None, None]
        self.war = 0
        self.players = 1
        self.slots: list[HeroSlot] = []
        self.unused_heroes: list[str] = []
        self.hero_deck = Deck()
        self.ds_deck = Deck()
        self.quest_deck = Deck()
        self.removed_cards: list[str] = []  # used purple cards, out of the game (DEF-CRD-02)
        self.quests_done: list[int] = []
        self.quests_done_names: list[list[str]] = []
        self.generals_slain: list[int] = []
        self.current = 0
        self.turn_no = 0
        self.phase = Phase.START
        self.battle: Battle | None = None
        self.window: Window | None = None
        self.night: Night | None = None
        self.owed_discards: list[list[int]] = []  # [slot, count]
        self.replacements: list[int] = []  # slots whose hero fell and must be replaced
        self.turn_undead_slot: int | None = None
        self.picking: Picking | None = None
        self.ds_known_top = 0  # Darkness Spreads cards on top of the pile everyone has seen
        self.skip_night = False
        self.outcome: str | None = None  # "win" or a loss reason
        self.ending: str | None = None  # machine-readable code (rules.victory.ENDINGS)
        self.won = False
        self.events: list[Event] = []
        # What this position's decision allows and asks, once asked (see edited()).
        self._legal: list[Action] | None = None
        self._pending: Decision | _Unknown | None = _UNKNOWN
        # ON_WRITE fields this state shares with another (a fresh state owns them all).
        self._shared: frozenset[str] = frozenset()

    # --- engine contract ---------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.players

    @property
    def content_hash(self) -> str:
        return self.board.content_hash

    def copy(self) -> Self:
        """The copy :data:`STATE_FIELDS` declares, written out field by field in declaration order:
        SHARED and ON_WRITE fields shared (the ON_WRITE ones marked shared on both sides, see
        ``own_*``), OWN fields copied in their declared ``copy_as`` shape, FRESH ones started
        afresh. Written out rather than generated so that the compiled build compiles it too
        (a generated function stays interpreted and cost a third of a compiled step);
        ``tests/defenders/test_declared_state.py`` checks every line against the declaration."""
        new = self.__class__.__new__(self.__class__)
        new.board = self.board
        new.options = self.options
        new.seed = self.seed
        new.rng = self.rng.copy()
        new.minions = self.minions
        new.taint = self.taint
        new.gates = self.gates
        new.gate_supply = self.gate_supply
        new.crystals_left = self.crystals_left
        new.supply = self.supply.copy()
        new.generals = self.generals
        new.war = self.war
        new.players = self.players
        new.slots = [x.copy() for x in self.slots]
        new.unused_heroes = self.unused_heroes
        new.hero_deck = self.hero_deck
        new.ds_deck = self.ds_deck
        new.quest_deck = self.quest_deck
        new.removed_cards = self.removed_cards
        new.quests_done = self.quests_done
        new.quests_done_names = self.quests_done_names
        new.generals_slain = self.generals_slain
        new.current = self.current
        new.turn_no = self.turn_no
        new.phase = self.phase
        new.battle = None if self.battle is None else self.battle.copy()
        new.window = None if self.window is None else self.window.copy()
        new.night = None if self.night is None else self.night.copy()
        new.owed_discards = list(map(list.copy, self.owed_discards))
        new.replacements = self.replacements
        new.turn_undead_slot = self.turn_undead_slot
        new.picking = None if self.picking is None else self.picking.copy()
        new.ds_known_top = self.ds_known_top
        new.skip_night = self.skip_night
        new.outcome = self.outcome
        new.ending = self.ending
        new.won = self.won
        new.events = []
        new._legal = None
        new._pending = _UNKNOWN
        self._shared = new._shared = ON_WRITE_FIELDS
        return new

    # --- copy on write: the rules change an ON_WRITE field only through these ----------
    def own_minions(self) -> list[list[int]]:
        """The minions per location, to change (copied first if another state shares them)."""
        if not first_write(self, "minions"):
            self.minions = list(map(list.copy, self.minions))
        return self.minions

    def own_taint(self) -> list[int]:
        """The taint crystals per location, to change."""
        if not first_write(self, "taint"):
            self.taint = self.taint.copy()
        return self.taint

    def own_gates(self) -> list[bool]:
        """The magic gates per location, to change."""
        if not first_write(self, "gates"):
            self.gates = self.gates.copy()
        return self.gates

    def own_generals(self) -> list[GeneralState | None]:
        """The generals, to change (the list and each general's record)."""
        if not first_write(self, "generals"):
            self.generals = [g.copy() if g else None for g in self.generals]
        return self.generals

    def own_unused_heroes(self) -> list[str]:
        """The heroes not in play, to change."""
        if not first_write(self, "unused_heroes"):
            self.unused_heroes = self.unused_heroes.copy()
        return self.unused_heroes

    def own_removed_cards(self) -> list[str]:
        """The used purple cards out of the game, to change."""
        if not first_write(self, "removed_cards"):
            self.removed_cards = self.removed_cards.copy()
        return self.removed_cards

    def own_quests_done(self) -> list[int]:
        """Quests completed per player, to change."""
        if not first_write(self, "quests_done"):
            self.quests_done = self.quests_done.copy()
        return self.quests_done

    def own_quests_done_names(self) -> list[list[str]]:
        """The quests each player completed, to change (the list and each player's list)."""
        if not first_write(self, "quests_done_names"):
            self.quests_done_names = list(map(list.copy, self.quests_done_names))
        return self.quests_done_names

    def own_generals_slain(self) -> list[int]:
        """Generals slain per player, to change."""
        if not first_write(self, "generals_slain"):
            self.generals_slain = self.generals_slain.copy()
        return self.generals_slain

    def own_replacements(self) -> list[int]:
        """The seats whose fallen hero waits for a replacement, to change."""
        if not first_write(self, "replacements"):
            self.replacements = self.replacements.copy()
        return self.replacements

    def own_general(self, colour: int) -> GeneralState:
        """The general of ``colour`` (still in the game), to change."""
        g = self.own_generals()[colour]
        assert g is not None
        return g

    def pending(self) -> Decision | None:
        if self._pending is _UNKNOWN:
            handler = decisions.handler_for(self)
            self._pending = handler.decision(self) if handler is not None else None
        assert not isinstance(self._pending, _Unknown)
        return self._pending

    def edited(self) -> None:
        """Forget what was computed from this position (its legal actions): call it after
        changing a state's fields by hand, as scenario tests do. ``apply`` never needs it."""
        self._legal = None
        self._pending = _UNKNOWN

    def legal_actions(self) -> list[Action]:
        """The pending decision's actions, computed once per position (a state changes only in
        ``_apply_in_place``, which forgets them, or by hand, see :meth:`edited`); callers get
        their own list."""
        if self._legal is None:
            handler = decisions.handler_for(self)
            self._legal = handler.legal(self) if handler is not None else []
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        """Legal means listed by the pending decision's generator (and nothing else)."""
        if self._legal is None:
            self.legal_actions()
        assert self._legal is not None
        # Usually one of the listed objects itself: found by identity before comparing fields.
        return any(map(is_, self._legal, repeat(action))) or action in self._legal

    def why_illegal(self, action: Action) -> IllegalActionError:
        handler = decisions.handler_for(self)
        if handler is None:
            return IllegalActionError("the game is over: no action is legal", "DEF-END-02")
        return handler.refusal(self, action)

    def _apply_in_place(self, action: Action) -> list[Event]:
        handler = decisions.handler_for(self)
        assert handler is not None
        self.events = []
        self._legal = None
        self._pending = _UNKNOWN
        handler.apply(self, action)
        turn.advance(self)
        out, self.events = self.events, []
        return out

    def rounds_played(self) -> int:
        """Rounds begun: a round is one turn of every hero in play (``turn_no`` counts turns ended)."""
        return self.turn_no // max(1, len(self.slots)) + 1

    def results(self) -> Results | None:
        return victory.results(self)

    # --- helpers used by the rules --------------------------------------------
    def log(
        self,
        kind: str,
        text: str,
        *,
        chance: bool = False,
        **data: Any,
    ) -> None:
        self.events.append(Event(kind, data, text, chance))

    def player_scores(self) -> dict[int, float]:
        """Each player's champion points so far: quests completed + generals slain (DEF-END-03)."""
        return {p: float(points) for p, (points, _quests) in victory.champion_scores(self).items()}

    def stage_name(self) -> str:
        """The war status reached (the track the darkness spreads along)."""
        return WAR_NAMES[self.war]

    def seat_roles(self) -> list[str]:
        """The hero(es) each player runs (joined by ``+`` when a player runs several)."""
        return [
            "+".join(self.hero_name(i) for i, slot in enumerate(self.slots) if slot.player == p)
            for p in range(self.players)
        ]

    def hero_name(self, slot: int) -> str:
        hero = self.slots[slot].hero
        return self.board.hero_by_id[hero].name if hero else f"seat {slot}"

    def slot_of(self, hero_id: str) -> int:
        for i, s in enumerate(self.slots):
            if s.hero == hero_id:
                return i
        raise IllegalActionError(f"no hero {hero_id!r} is in play")

    def minion_total(self, loc: int) -> int:
        return sum(self.minions[loc])

    def general_at(self, loc: int) -> int | None:
        for c, g in enumerate(self.generals):
            if g is not None and g.loc == loc:
                return c
        return None

    def generals_at(self, loc: int) -> list[int]:
        return [c for c, g in enumerate(self.generals) if g is not None and g.loc == loc]

    def generals_in_play(self) -> list[int]:
        """Colours of the generals still on the board (not yet defeated), in colour order."""
        return [c for c, g in enumerate(self.generals) if g is not None and g.loc >= 0]

    def on_board(self, colour: int) -> int:
        return sum(m[colour] for m in self.minions)

    def on_quests(self, colour: int) -> int:
        return sum(s.quest_minions[colour] for s in self.slots)

    # --- views -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Every fact of the position (the decks' order and the dice generator included), as JSON."""
        b = self.board
        gens = {}
        for c, g in enumerate(self.generals):
            gd = b.general_by_colour[c]
            if gd is None or g is None:
                continue
            gens[COLOURS[c]] = {
                "name": gd.name,
                "location": b.location_names[g.loc] if g.loc >= 0 else None,
                "defeated": g.loc < 0,
                "wounds": g.wounds,
                "life_left": gd.life - g.wounds,
                "heal_from_turn": g.heal_from,
                "no_heal_turn": g.no_heal_turn,
            }
        return {
            "war": self.war,
            "war_status": WAR_NAMES[self.war],
            "turn": self.turn_no,
            "current": self.current,
            "phase": self.phase,
            "players": self.players,
            "minions": {
                b.location_names[i]: dict(zip(COLOURS, m, strict=True))
                for i, m in enumerate(self.minions)
                if any(m)
            },
            "taint": {b.location_names[i]: t for i, t in enumerate(self.taint) if t},
            "gates": [b.location_names[i] for i, g in enumerate(self.gates) if g],
            "gate_supply": self.gate_supply,
            "crystals_left": self.crystals_left,
            "supply": dict(zip(COLOURS, self.supply, strict=True)),
            "generals": gens,
            "heroes": [s.to_json(b) for s in self.slots],
            "unused_heroes": list(self.unused_heroes),
            "hero_deck": self.hero_deck.to_json(),
            "darkness_deck": self.ds_deck.to_json(),
            "quest_deck": self.quest_deck.to_json(),
            "removed_cards": list(self.removed_cards),
            "quests_done": list(self.quests_done),
            "quests_done_names": [list(q) for q in self.quests_done_names],
            "generals_slain": list(self.generals_slain),
            "battle": self.battle.to_json() if self.battle else None,
            "window": dataclasses.asdict(self.window) if self.window else None,
            "night": dataclasses.asdict(self.night) if self.night else None,
            "owed_discards": [list(o) for o in self.owed_discards],
            "replacements": list(self.replacements),
            "turn_undead_slot": self.turn_undead_slot,
            "picking": self.picking.to_json() if self.picking else None,
            "darkness_known_top": list(self.ds_deck.draw_pile[: self.ds_known_top]),
            "skip_night": self.skip_night,
            "outcome": self.outcome,
            "ending": self.ending,
            "rng": self.rng.state,
            "options": dict(sorted(self.options.items())),
        }

    def view(self, player: int | None) -> dict[str, Any]:
        """The snapshot less what :data:`STATE_FIELDS` hides: the order of the three decks (from
        everyone), but for Darkness Spreads cards Dark Visions put back on top (everyone saw
        them), and the dice generator."""
        return view_from_snapshot(STATE_FIELDS, self.snapshot(), player)

    def determinize(self, player: int, rng: Rng) -> Self:
        """Each hidden field resampled as declared: the three draw piles reshuffled (the
        Darkness Spreads cards everyone saw on top stay there)."""
        return determinize(self, STATE_FIELDS, player, rng)

    def invariants(self) -> list[str]:
        problems: list[str] = []
        b = self.board
        for c in range(4):
            total = self.supply[c] + self.on_board(c) + self.on_quests(c)
            if self.supply[c] < 0:
                problems.append(f"{COLOURS[c]} supply is negative")
            if total > MINIONS_PER_COLOUR:
                problems.append(f"{COLOURS[c]} minions exceed the box: {total}")
        for i, m in enumerate(self.minions):
            if min(m) < 0:
                problems.append(f"negative minions at {b.location_names[i]}")
            if i != b.monarch and sum(m) > 3:
                problems.append(f"{b.location_names[i]} holds {sum(m)} minions (max 3, DEF-OVR-01)")
            if i == b.monarch and self.taint[i]:
                problems.append("Monarch City is tainted (DEF-OVR-05)")
        if self.crystals_left + sum(self.taint) != CRYSTALS and self.outcome is None:
            problems.append("taint crystals do not add up to 12")
        for s in self.slots:
            if s.hero is not None and not 0 < s.life <= s.max_life and not self.replacements:
                problems.append(f"{s.hero} life {s.life} outside 1..{s.max_life}")
            if s.actions < 0:
                problems.append(f"{s.hero} has negative actions")
        if sum(self.gates) + self.gate_supply != GATE_TOKENS:
            problems.append("magic gates on the board and in the supply do not add up to 5")
        all_cards = list(self.hero_deck.draw_pile) + list(self.hero_deck.discard_pile) + self.removed_cards
        for s in self.slots:
            all_cards += s.hand
        if self.battle:
            for cards in self.battle.committed.values():
                all_cards += cards
        if sorted(all_cards) != sorted(c.id for c in b.hero_cards):
            problems.append("hero cards were lost or duplicated")
        quests = list(self.quest_deck.draw_pile) + list(self.quest_deck.discard_pile)
        for s in self.slots:
            quests += s.rewards + ([s.quest] if s.quest else [])
        if sorted(quests) != sorted(q.id for q in b.quests):
            problems.append("quest cards were lost or duplicated")
        return problems

    def describe(self) -> str:
        decision = self.pending()
        return turn.describe(self, decision.prompt if decision else f"game over: {self.outcome}")
