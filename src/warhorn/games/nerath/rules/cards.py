"""Event and treasure cards: timing windows and the effect primitives cards are made of (NER-CRD-*).

Each op of :mod:`warhorn.games.nerath.effects_vocabulary` has one function in
:data:`EFFECTS`; a card is its list of ops, and no card is a special case.

Timing windows. The kingdom whose turn it is plays its own-turn cards
(``movement``, ``reposition``, ``reinforcements``, ``own_turn``, ``any_time``,
and ``before_battle``/``dungeon`` before choosing a battle) as ordinary
actions. Other moments open a :class:`CardWindow` offered, in turn order, to
each kingdom holding a card playable there, which plays or passes:

* ``before_battle`` — after a battle is declared (and dungeon guardians are
  revealed), before the first roll: the attacker (``before_battle``,
  ``dungeon``, ``own_turn``, ``any_time``) and the defenders (``before_battle``,
  ``when_attacked``, ``opponent_turn``, ``any_time``);
* ``battle_round`` — after each step's dice are rolled, before hits apply:
  both sides' ``battle_round`` cards (rerolls, cancelled hits, healing...);
* ``on_conquest`` and ``income`` — the current kingdom's cards of that timing;
* a response window whenever a card is played: enemies holding a card with a
  ``cancel_card`` effect may cancel it.

A window is offered to every kingdom holding any card (see :func:`offered`;
the ``card_windows`` option can limit it to holders of a playable card).
``opponent_turn`` cards are thus offered at battles in another kingdom's turn
(not at every moment of it). Modifiers live in ``state.d.effects`` as
(kingdom, effect) pairs until their ``duration`` ends (round, battle, turn);
a treasure's property without ``when`` is a standing modifier for the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations, product
from typing import TYPE_CHECKING

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.games.nerath.actions import PlayEvent, PlayTreasure
from warhorn.games.nerath.board import KINGDOM_IDS, LAND, CardEffect
from warhorn.games.nerath.effects_vocabulary import piece_matches
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.state import BATTLES, MOVEMENT, REINFORCEMENTS, REPOSITION, CardWindow, Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Timings the current kingdom may play as ordinary actions, by phase.
_OWN_TURN: dict[int, tuple[str, ...]] = {
    MOVEMENT: ("movement", "own_turn", "any_time"),
    REPOSITION: ("reposition", "own_turn", "any_time"),
    REINFORCEMENTS: ("reinforcements", "own_turn", "any_time"),
    BATTLES: ("own_turn", "any_time"),
}
_ATTACKER_BEFORE = ("before_battle", "dungeon", "own_turn", "any_time")
_DEFENDER_BEFORE = ("before_battle", "when_attacked", "opponent_turn", "any_time")


# --- modifiers in force ----------------------------------------------------------------------
def active(s: NerathState, k: int, op: str) -> list[CardEffect]:
    """Modifiers with op ``op`` in force for kingdom ``k``: played cards and standing treasure properties."""
    if not s.d.effects and not s.d.treasures_in_play[k]:
        return []  # nothing in force (most of the time; asked for every piece type at every step)
    out = [e for kk, e in s.d.effects if kk == k and e.op == op]
    for card in s.d.treasures_in_play[k]:
        out += [
            e
            for e in s.board.treasure(card).property
            if e.op == op and e.when is None and not _counted_each_turn(e)
        ]
    return out


def _counted_each_turn(e: CardEffect) -> bool:
    """A standing property whose use is counted: an extra move for ``count`` pieces serves that many
    pieces each turn, so each turn it is put in force afresh (:func:`standing_counters`)."""
    return e.op == "extra_move" and int(e.param("count", 0)) > 0


def standing_counters(s: NerathState, k: int, cards: Sequence[str]) -> None:
    """Put in force, with their uses whole, the counted standing properties of ``k``'s treasures
    ``cards`` (at the start of each of ``k``'s turns, and when such a treasure is played: its
    property holds from then on, that turn included)."""
    fresh = [
        (k, e)
        for card in cards
        for e in s.board.treasure(card).property
        if e.when is None and _counted_each_turn(e)
    ]
    if fresh:
        s.d.effects = (*s.d.effects, *fresh)


def end_effects(s: NerathState, duration: str, kingdoms: list[int]) -> None:
    """Drop modifiers of ``kingdoms`` that last one ``round`` (or one ``battle``: also round ones)."""
    ending = {"round"} if duration == "round" else {"round", "battle"}
    s.d.effects = tuple((k, e) for k, e in s.d.effects if not (k in kingdoms and duration_of(e) in ending))


def side_hit_number(s: NerathState, units: list[Unit], opponents: list[Unit]) -> int | None:
    """A card's hit number for a battle side (NER-CRD-05): the side's own best number first, else a worse
    number the enemy imposed. A piece filter other than ``any`` counts only if every piece matches."""
    kingdoms = {u.kingdom for u in units}
    own: list[int] = []
    for k in kingdoms:
        for e in active(s, k, "modify_hit_number"):
            if e.param("side", "own") == "own" and all(
                piece_matches(u.ptype, str(e.param("piece", "any"))) for u in units
            ):
                own.append(int(e.param("hit_on", 6)))
    if own:
        return min(own)
    imposed: list[int] = []
    for k in {u.kingdom for u in opponents}:
        for e in active(s, k, "modify_hit_number"):
            if e.param("side", "own") == "enemy":
                imposed.append(int(e.param("hit_on", 6)))
    return max(imposed) if imposed else None


def first_strike_units(s: NerathState, units: list[Unit]) -> list[Unit]:
    """Pieces a card grants first strike: the pieces its holder named when playing it (``units``:
    their ids, for a card for ``count`` pieces), else every matching piece (``count`` 0)."""
    out: list[Unit] = []
    for k in sorted({u.kingdom for u in units}):
        for e in active(s, k, "grant_first_strike"):
            filt, count = str(e.param("piece", "any")), int(e.param("count", 0))
            named = e.param("units", None)
            if named is not None:
                ids = str(named).split(",")
                out += [u for u in units if u.kingdom == k and str(u.uid) in ids and u not in out]
                continue
            match = [u for u in units if u.kingdom == k and piece_matches(u.ptype, filt) and u not in out]
            out += match[: count or len(match)]
    return out


def extra_toughness(s: NerathState, u: Unit) -> int:
    """1 if a card makes this piece resilient (NER-BAT-05), else 0."""
    for e in active(s, u.kingdom, "grant_resilience"):
        units = e.param("units", None)
        if units is not None:
            if str(u.uid) in str(units).split(","):
                return 1
        elif piece_matches(u.ptype, str(e.param("piece", "any"))):
            return 1
    return 0


def extra_dice(s: NerathState, units: list[Unit]) -> list[int]:
    """Die sizes a side rolls on top of its pieces' dice this step (``extra_dice``)."""
    out: list[int] = []
    for k in sorted({u.kingdom for u in units}):
        for e in active(s, k, "extra_dice"):
            filt, sides, count = (
                str(e.param("piece", "any")),
                int(e.param("sides", 6)),
                int(e.param("count", 1)),
            )
            times = (
                1
                if filt == "any"
                else sum(1 for u in units if u.kingdom == k and piece_matches(u.ptype, filt))
            )
            out += [sides] * (count * times)
    return out


def extra_moves(s: NerathState, k: int, ptype: str) -> int:
    """The extra moves cards give ``k``'s ``ptype`` now (an effect for ``count`` pieces counts while it
    has uses left)."""
    return sum(
        int(e.param("moves", 1))
        for e in active(s, k, "extra_move")
        if piece_matches(ptype, str(e.param("piece", "mobile"))) and _uses_left(e) != 0
    )


def _uses_left(e: CardEffect) -> int | None:
    """How many more pieces an ``extra_move`` for ``count`` pieces may serve (None: every piece)."""
    count = int(e.param("count", 0))
    return int(e.param("left", count)) if count else None


def _extra_move_plan(s: NerathState, k: int, ptype: str, steps: int, count: int) -> list[int] | None:
    """Which counted ``extra_move`` effects in ``state.d.effects`` a move of ``count`` pieces over
    ``steps`` spaces uses ([] when none is needed), or None when they cannot serve it."""
    unlimited = sum(
        int(e.param("moves", 1))
        for e in active(s, k, "extra_move")
        if piece_matches(ptype, str(e.param("piece", "mobile"))) and _uses_left(e) is None
    )
    need = steps - PIECES[ptype].move - unlimited
    plan: list[int] = []
    counted = [
        (n, e)
        for n, (kk, e) in enumerate(s.d.effects)
        if kk == k and e.op == "extra_move" and piece_matches(ptype, str(e.param("piece", "mobile")))
    ]
    for n, e in sorted(counted, key=lambda ne: -int(ne[1].param("moves", 1))):
        if need <= 0:
            break
        left = _uses_left(e)
        if left is not None and left >= count:
            plan.append(n)
            need -= int(e.param("moves", 1))
    return plan if need <= 0 else None


def counted_extra_moves(s: NerathState, k: int) -> bool:
    """Whether ``k`` has an extra move in force for a number of pieces (so moves must be counted)."""
    return any(kk == k and e.op == "extra_move" and _uses_left(e) is not None for kk, e in s.d.effects)


def extra_move_allows(s: NerathState, k: int, ptype: str, steps: int, count: int) -> bool:
    """Whether cards let ``count`` of ``k``'s ``ptype`` move ``steps`` spaces: a card's extra move for
    a number of pieces serves only that many (its holder picks them by moving them)."""
    if not counted_extra_moves(s, k):
        return True
    return _extra_move_plan(s, k, ptype, steps, count) is not None


def use_extra_moves(s: NerathState, k: int, ptype: str, steps: int, count: int) -> None:
    """Spend the uses of counted extra moves a move of ``count`` pieces over ``steps`` spaces needed."""
    if not counted_extra_moves(s, k):
        return
    plan = _extra_move_plan(s, k, ptype, steps, count) or []
    effects = list(s.d.effects)
    for n in plan:
        kk, e = effects[n]
        left = _uses_left(e)
        assert left is not None
        params = tuple((name, value) for name, value in e.params if name != "left")
        effects[n] = (kk, CardEffect(e.op, (*params, ("left", left - count)), e.when))
    s.d.effects = tuple(effects)


#: No discount makes a piece cheaper than this: a free piece would let a kingdom buy without limit.
MIN_PRICE = 1


def cost(s: NerathState, k: int, ptype: str) -> int:
    """A piece's price for kingdom ``k`` this turn (``reduce_cost``; never below :data:`MIN_PRICE`)."""
    off = sum(
        int(e.param("amount", 1))
        for e in active(s, k, "reduce_cost")
        if piece_matches(ptype, str(e.param("piece", "any")))
    )
    return max(MIN_PRICE, PIECES[ptype].cost - off)


def trigger(s: NerathState, when: str, k: int, space: int) -> list[Event]:
    """Run lasting treasure properties whose window is ``when`` (one of :data:`PROPERTY_MOMENTS`)."""
    window = {"turn_start": "start_of_turn", "conquer": "on_conquest"}.get(when, when)
    if window == "start_of_turn":
        standing_counters(s, k, s.d.treasures_in_play[k])
    events: list[Event] = []
    for card in s.d.treasures_in_play[k]:
        effects = tuple(e for e in s.board.treasure(card).property if e.when == window)
        if effects and not _ask_choice(s, k, card, window, effects, treasure=True):
            events += run_effects(s, k, effects, "", source=card)
    return events


def on_draw(s: NerathState, k: int, card: str) -> list[Event]:
    """NER-TRN-02: a play-immediately card takes effect as soon as it is drawn."""
    ev = s.board.event(card)
    if not ev.play_immediately:
        return []
    if _ask_choice(s, k, card, "", ev.effects, treasure=False):
        hand = list(s.d.hands[k])
        hand.remove(card)
        s.d.hands[k] = tuple(hand)
        s.d.event_decks[k] = s.d.event_decks[k].discard(card)
        return [Event("card.play", {"kingdom": k, "card": card}, f"{s.kingdom_name(k)} plays {ev.name}")]
    return _play_event(s, k, card, "")


# --- windows ---------------------------------------------------------------------------------
def _timings_for(s: NerathState, window: CardWindow | None, k: int) -> tuple[str, ...]:
    if window is None:
        if k != s.current_kingdom:
            return ()
        d = s.d
        if d.pos.phase == BATTLES and (d.battle is not None or d.landings or d.amok or not d.battles_todo):
            return ()
        return _OWN_TURN.get(d.pos.phase, ())
    if window.name == "before_battle":
        return _ATTACKER_BEFORE if k == s.current_kingdom else _DEFENDER_BEFORE
    if window.name == "cancel":
        return ("cancel",)
    return (window.name,)


def _event_ok(s: NerathState, card: str, timings: tuple[str, ...]) -> bool:
    ev = s.board.event(card)
    if timings == ("cancel",):
        return any(e.op == "cancel_card" for e in ev.effects)
    return ev.timing in timings and not any(e.op == "cancel_card" for e in ev.effects)


def _treasure_ok(s: NerathState, card: str, timings: tuple[str, ...]) -> bool:
    t = s.board.treasure(card)
    if timings == ("cancel",):
        return any(e.op == "cancel_card" for e in t.power)
    return (t.timing in timings or (t.timing == "immediately" and "own_turn" in timings)) and not any(
        e.op == "cancel_card" for e in t.power
    )


def playable_cards(s: NerathState, k: int, window: CardWindow | None) -> list[PlayEvent | PlayTreasure]:
    """Every card play open to ``k`` now (one per way to fill in its choices): a card is offered
    only when its timing fits and playing it can change something (:func:`can_change`)."""
    timings = _timings_for(s, window, k)
    if not timings:
        return []
    out: list[PlayEvent | PlayTreasure] = []
    if window is not None and window.name == "choose":
        return _choice_actions(s, window)
    for c in sorted(set(s.d.hands[k])):
        if _event_ok(s, c, timings):
            effects = s.board.event(c).effects
            if any(can_change(s, k, e) for e in effects):
                out += [PlayEvent(c, t) for t in card_targets(s, k, effects)]
    for c in sorted(set(s.d.treasure_hands[k])):
        if _treasure_ok(s, c, timings):
            # a treasure played scores its VP and puts its property in force: never idle
            out += [PlayTreasure(c, t) for t in card_targets(s, k, s.board.treasure(c).power)]
    if window is not None and window.name == "cancel" and window.card is not None:
        answered = "treasure" if window.card[3] else "event"
        out = [a for a in out if _cancels(s, a, answered)]
    return out


def can_change(s: NerathState, k: int, e: CardEffect) -> bool:
    """Whether effect ``e`` played by ``k`` now would change anything (an event whose every effect
    would do nothing is not offered: NER-CRD-01)."""
    op = e.op
    b = s.d.battle
    if op == "place_pieces":
        ptype = str(e.param("piece"))
        return ptype in PIECES and bool(place_spots(s, k, str(e.param("where", "friendly_territory")), ptype))
    if op == "gain_gold":
        return _gold_amount(s, k, e) > 0
    if op == "steal_gold":
        return any(s.d.gold[j] > 0 for j in _gold_victims(s, k, str(e.param("from", "chosen_enemy"))))
    if op == "gain_vp":
        return int(e.param("amount", 1)) > 0
    if op == "draw_cards":
        deck = s.d.treasure_deck if e.param("deck", "event") == "treasure" else s.d.event_decks[k]
        return bool(deck.draw_pile or deck.discard_pile)
    if op == "discard_cards":
        return any(s.d.hands[j] for j in range(4) if not s.allied(j, k))
    if op == "destroy_piece":
        return bool(_victims(s, k, e))
    if op == "destroy_guardian":
        return b is not None and b.kind == "dungeon" and any(g.dice for g in s.d.guardians.get(b.space, ()))
    if op == "reroll":
        return bool(_reroll_dice(s, k, e)[1])
    if op == "heal":
        return bool(_hurt(s, k))
    if op == "negate_hits":
        if b is None:
            return False
        mine = 0 if _holder_is_attacker(s, k) else 1
        scored = sum(1 for _, face, need in b.rolled[1 - mine] if face >= need)
        return scored > b.negate[mine]
    if op in ("grant_resilience", "grant_first_strike"):
        return bool(_battle_pieces(s, k, e))
    if op in ("extra_dice", "modify_hit_number"):
        return _in_battle(s, k, str(e.param("piece", "any")), e.param("side", "own") == "own")
    if op == "force_retreat":
        return b is not None and not _holder_is_attacker(s, k)
    if op == "transfer_pieces":
        return any(_transfer_sources(s, k, e, dest) for dest in _transfer_dests(s, k, e))
    if op == "extra_move":
        from warhorn.games.nerath.rules.movement import movable, ship_can_sail

        filt = str(e.param("piece", "mobile"))
        return any(
            u.ptype != "castle"
            and piece_matches(u.ptype, filt)
            and (ship_can_sail(s, u) if u.ptype == "warship" else movable(s, u))
            for u in s.units_of(k)
        )
    if op == "reduce_cost":  # a matching piece gets cheaper and the holder can pay its new price
        amount = int(e.param("amount", 1))
        filt = str(e.param("piece", "any"))
        return any(
            piece_matches(p, filt)
            and cost(s, k, p) > MIN_PRICE
            and s.d.gold[k] >= max(MIN_PRICE, cost(s, k, p) - amount)
            for p in PIECES
        )
    return True  # cancel_card: its window asks only when it applies


def _in_battle(s: NerathState, k: int, filt: str, own: bool) -> bool:
    """Whether a battle modifier of ``k`` would touch a side: ``k`` fights in the battle with a piece
    matching ``filt`` (``own``), or the enemy side has pieces (an effect on the enemy)."""
    b = s.d.battle
    if b is None:
        return False
    from warhorn.games.nerath.rules.battle_flow import participants

    attacker = _holder_is_attacker(s, k)
    if not own:
        return bool(participants(s, defenders=attacker))
    side = [u for u in participants(s, defenders=not attacker) if u.kingdom == k]
    return any(piece_matches(u.ptype, filt) for u in side)


def _gold_victims(s: NerathState, k: int, mode: str) -> list[int]:
    """The kingdoms a ``steal_gold`` effect may take gold from (before the holder's choice)."""
    if mode == "battle_enemy":
        b = s.d.battle
        if b is None:
            return []
        return sorted({u.kingdom for u in s.units_at(b.space) if not s.allied(u.kingdom, k)})
    return _steal_victims(s, k, mode)


def _cancels(s: NerathState, a: PlayEvent | PlayTreasure, answered: str) -> bool:
    """Whether the card's cancel effect applies to the kind of card being answered."""
    effects = s.board.treasure(a.card).power if isinstance(a, PlayTreasure) else s.board.event(a.card).effects
    return any(e.op == "cancel_card" and e.param("card", "event") in ("any", answered) for e in effects)


def offered(s: NerathState, k: int, window: CardWindow | None) -> bool:
    """Whether kingdom ``k`` is asked to play or pass at ``window`` (``None``: its own turn's step).

    By default (option ``card_windows = "every_holder"``) every kingdom holding
    any card is asked, whether or not one of its cards fits, so being asked
    tells the others only what the public hand counts already say. With
    ``"playable_only"`` only holders of a playable card are asked: fewer
    decisions, but the question itself reveals that such a card is held.
    """
    if s.options.get("card_windows", "every_holder") == "playable_only":
        return bool(playable_cards(s, k, window))
    if window is None and not _timings_for(s, None, k):
        return False
    return bool(s.d.hands[k] or s.d.treasure_hands[k])


def window(s: NerathState) -> CardWindow | None:
    return s.d.windows[-1] if s.d.windows else None


def open_window(
    s: NerathState,
    name: str,
    kingdoms: list[int],
    resume: str,
    card: tuple[int, str, str, bool] | None = None,
) -> bool:
    """Open a card window for those of ``kingdoms`` it is offered to (:func:`offered`); False if none."""
    probe = CardWindow(name, (), resume, card)
    queue = tuple(k for k in dict.fromkeys(kingdoms) if offered(s, k, probe))
    if not queue:
        return False
    s.d.windows = (*s.d.windows, CardWindow(name, queue, resume, card))
    return True


def acting_kingdom(s: NerathState) -> int:
    w = window(s)
    return w.queue[0] if w is not None else s.current_kingdom


def legal_plays(s: NerathState, k: int) -> list[PlayEvent | PlayTreasure]:
    return playable_cards(s, k, window(s))


def pass_window(s: NerathState) -> list[Event]:
    """The kingdom at the head of the window's queue passes; the window closes when nobody is left."""
    w = window(s)
    assert w is not None
    rest = w.queue[1:]
    if rest:
        s.d.windows = (*s.d.windows[:-1], replace(w, queue=rest))
        return []
    s.d.windows = s.d.windows[:-1]
    return _resume(s, w)


def _resume(s: NerathState, w: CardWindow) -> list[Event]:
    from warhorn.games.nerath.rules import battle_flow

    if w.resume == "battle_roll" and s.d.battle is not None:
        return battle_flow.roll_step(s)
    if w.resume == "battle_hits" and s.d.battle is not None:
        return battle_flow.resolve_hits(s)
    if w.resume == "card" and w.card is not None:
        k, card, target, treasure = w.card
        return _carry_out(s, k, card, target, treasure) + _close_finished_after(s)
    if w.name == "choose":  # a card's choice forgone: the step its play interrupted goes on
        return _close_finished_after(s)
    return []


def check_play(s: NerathState, k: int, a: PlayEvent | PlayTreasure) -> IllegalActionError | None:
    w = window(s)
    if w is not None and w.name == "choose":
        options = _choice_actions(s, w)
        if a in options:
            return None
        shown = ", ".join(x.target for x in options[:12]) + (" ..." if len(options) > 12 else "")
        return IllegalActionError(
            f"choose what {options[0].card} leaves to its holder: {shown} (or pass to forgo it)", "NER-CRD-04"
        )
    if isinstance(a, PlayTreasure):
        if a.card not in s.d.treasure_hands[k]:
            return IllegalActionError(f"{s.kingdom_name(k)} holds no treasure {a.card!r}", "NER-CRD-02")
    elif a.card not in s.d.hands[k]:
        return IllegalActionError(f"{s.kingdom_name(k)} holds no event card {a.card!r}", "NER-CRD-01")
    legal = legal_plays(s, k)
    if a in legal:
        return None
    targets = [x.target for x in legal if type(x) is type(a) and x.card == a.card]
    if targets and targets != [""]:
        shown = ", ".join(targets[:12]) + (" ..." if len(targets) > 12 else "")
        return IllegalActionError(
            f"{a.card}: its holder chooses {'' if a.target else 'what its text leaves open '}"
            f"among {shown}" + (f" (not {a.target!r})" if a.target else ""),
            "NER-CRD-04",
        )
    if targets:
        return IllegalActionError(
            f"{a.card} leaves nothing to choose: play it without a target", "NER-CRD-04"
        )
    if isinstance(a, PlayEvent):
        timing = s.board.event(a.card).timing
        return IllegalActionError(f"{a.card} may not be played now (its timing is {timing})", "NER-CRD-01")
    timing = s.board.treasure(a.card).timing
    return IllegalActionError(f"{a.card} may not be played now (its timing is {timing})", "NER-CRD-02")


def apply_play(s: NerathState, k: int, a: PlayEvent | PlayTreasure) -> list[Event]:
    """Play a card: take it from the hand, let enemies answer with a cancel card, then carry it out."""
    treasure = isinstance(a, PlayTreasure)
    target = a.target
    w = window(s)
    if w is not None and w.name == "choose":
        return _apply_choice(s, w, a.target)
    if treasure:
        hand = list(s.d.treasure_hands[k])
        hand.remove(a.card)
        s.d.treasure_hands[k] = tuple(hand)
        name = s.board.treasure(a.card).name
    else:
        hand = list(s.d.hands[k])
        hand.remove(a.card)
        s.d.hands[k] = tuple(hand)
        name = s.board.event(a.card).name
    events = [Event("card.play", {"kingdom": k, "card": a.card}, f"{s.kingdom_name(k)} plays {name}")]
    if w is not None and w.name == "cancel":
        # a cancel card answers the card the window was opened for; the window closes at once
        events += _carry_out(s, k, a.card, "", treasure)
        s.d.windows = s.d.windows[:-1]
        return events + _resume(s, w)
    closed: CardWindow | None = None
    if w is not None and not playable_cards(s, k, w):
        if w.queue[1:]:
            s.d.windows = (*s.d.windows[:-1], replace(w, queue=w.queue[1:]))
        else:
            s.d.windows = s.d.windows[:-1]
            closed = w
    enemies = [j for j in _turn_order_from(s, k) if not s.allied(j, k)]
    if open_window(s, "cancel", enemies, "card", (k, a.card, target, treasure)):
        if closed is not None:  # resume the closed window's step after the answer
            s.d.windows = (*s.d.windows[:-1], CardWindow("after", (), closed.resume), s.d.windows[-1])
        return events
    events += _carry_out(s, k, a.card, target, treasure)
    if closed is not None:
        events += _resume(s, closed)
    return events


def _turn_order_from(s: NerathState, k: int) -> list[int]:
    return [(k + n) % 4 for n in range(1, 4)]


def _carry_out(s: NerathState, k: int, card: str, target: str, treasure: bool) -> list[Event]:
    """NER-CRD-01..04: an event's effects then to the discard; a treasure scores, powers, stays in play."""
    events: list[Event] = []
    cancelled = s.d.cancelled == (k, card)
    s.d.cancelled = None
    if treasure:
        if cancelled:
            s.d.treasure_deck = s.d.treasure_deck.discard(card)
            return [Event("card.cancelled", {"card": card}, f"{card} is cancelled")]
        t = s.board.treasure(card)
        s.d.treasures_in_play[k] = (*s.d.treasures_in_play[k], card)
        standing_counters(s, k, (card,))
        s.d.vp[k] += t.vp
        events.append(
            Event("treasure.play", {"kingdom": k, "card": card, "vp": t.vp}, f"{t.name} scores {t.vp} VP")
        )
        events += run_effects(s, k, t.power, target, source=card)
    else:
        s.d.event_decks[k] = s.d.event_decks[k].discard(card)
        if cancelled:
            return [Event("card.cancelled", {"card": card}, f"{card} is cancelled")]
        events += run_effects(s, k, s.board.event(card).effects, target, source=card)
    return events


def _close_finished_after(s: NerathState) -> list[Event]:
    """Resume a window whose step waits behind a finished cancel window (or the choice a card
    asked for once the answer came)."""
    w = window(s)
    if w is not None and w.name == "after":
        s.d.windows = s.d.windows[:-1]
        return _resume(s, w)
    return []


def play_treasure(s: NerathState, k: int, card: str) -> list[Event]:
    """Play a treasure from hand at once (used by scenario tests and effects)."""
    hand = list(s.d.treasure_hands[k])
    hand.remove(card)
    s.d.treasure_hands[k] = tuple(hand)
    return _carry_out(s, k, card, "", True)


def _play_event(s: NerathState, k: int, card: str, target: str) -> list[Event]:
    hand = list(s.d.hands[k])
    hand.remove(card)
    s.d.hands[k] = tuple(hand)
    events = [
        Event(
            "card.play", {"kingdom": k, "card": card}, f"{s.kingdom_name(k)} plays {s.board.event(card).name}"
        )
    ]
    return events + _carry_out(s, k, card, target, False)


# --- effect primitives ----------------------------------------------------------------------------
Effect = Callable[["NerathState", int, CardEffect, str], list[Event]]


def run_effects(
    s: NerathState, k: int, effects: Sequence[CardEffect], target: str, *, source: str
) -> list[Event]:
    """Carry out a card's effects in order; ``target`` holds one choice per effect, joined by ``;``."""
    parts = target.split(";") if len(effects) > 1 else [target]
    parts += [""] * (len(effects) - len(parts))
    events: list[Event] = []
    for e, part in zip(effects, parts, strict=False):
        events += run_effect(s, k, e, part, source=source)
    return events


# --- the holder's choices (NER-CRD-04) --------------------------------------------------------------
def card_targets(s: NerathState, k: int, effects: Sequence[CardEffect]) -> list[str]:
    """Every way the holder may fill in what the card's text leaves open now (``[""]``: nothing).

    A card with one effect: that effect's options. Several: one option per
    effect joined by ``;`` (an empty part where an effect leaves no choice).
    """
    options = [effect_choices(s, k, e) for e in effects]
    if not any(options):
        return [""]
    if len(effects) == 1:
        return options[0]
    return [";".join(combo) for combo in product(*[o or [""] for o in options])]


def effect_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    """The holder's options for one effect now; ``[]`` when its text leaves no choice (one way or none)."""
    chooser = CHOICES.get(e.op)
    options = chooser(s, k, e) if chooser is not None else []
    return options if len(options) > 1 else []


def _picks(tokens: Sequence[str], n: int) -> list[str]:
    """Each distinct way to pick ``n`` of ``tokens`` (a multiset), as tokens joined by ``,``."""
    return sorted({",".join(c) for c in combinations(sorted(tokens), n)})


def _place_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    ptype = str(e.param("piece"))
    if ptype not in PIECES:
        return []
    return [s.board.sid(i) for i in place_spots(s, k, str(e.param("where", "friendly_territory")), ptype)]


def _steal_victims(s: NerathState, k: int, mode: str) -> list[int]:
    """The kingdoms a steal or discard may hit, before the holder's choice."""
    enemies = [j for j in range(4) if not s.allied(j, k)]
    if mode == "richest_enemy" and enemies:
        most = max(s.d.gold[j] for j in enemies)
        return [j for j in enemies if s.d.gold[j] == most]
    return enemies


def _kingdom_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    mode = str(e.param("from", "chosen_enemy"))
    if mode not in ("chosen_enemy", "richest_enemy"):
        return []
    return [KINGDOM_IDS[j] for j in _steal_victims(s, k, mode)]


def _victim_token(u: Unit, where: str, s: NerathState) -> str:
    from warhorn.games.nerath.rules.battle_flow import token_of

    name = token_of(s, u) if s.d.battle is not None and u.space == s.d.battle.space else u.ptype
    return f"{KINGDOM_IDS[u.kingdom]}:{name}" + ("" if where == "battle" else f"@{s.board.sid(u.space)}")


def _victims(s: NerathState, k: int, e: CardEffect) -> list[Unit]:
    where = str(e.param("where", "battle"))
    filt = str(e.param("piece", "mobile"))
    out = []
    for u in sorted(s.d.units.values(), key=lambda x: x.uid):
        if (
            s.allied(u.kingdom, k)
            or u.ptype == "castle"
            or u.carrier >= 0
            or not piece_matches(u.ptype, filt)
        ):
            continue
        if where == "battle" and (s.d.battle is None or u.space != s.d.battle.space):
            continue
        if where == "adjacent" and not any(s.d.control[n] == k for n in s.board.neighbors(u.space)):
            continue
        out.append(u)
    return out


def _destroy_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    where = str(e.param("where", "battle"))
    tokens = [_victim_token(u, where, s) for u in _victims(s, k, e)]
    return _picks(tokens, min(int(e.param("count", 1)), len(tokens)))


def _guardian_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    b = s.d.battle
    if b is None or b.kind != "dungeon":
        return []
    tokens = [f"{g.tile}@{n + 1}" for n, g in enumerate(s.d.guardians.get(b.space, ())) if g.dice]
    return _picks(tokens, min(int(e.param("count", 1)), len(tokens)))


def _reroll_dice(s: NerathState, k: int, e: CardEffect) -> tuple[int, list[int]]:
    """Which side's dice (0 attacker, 1 defender) and the indices of those the card may roll again."""
    b = s.d.battle
    if b is None:
        return 0, []
    mine = 0 if _holder_is_attacker(s, k) else 1
    own = e.param("side", "own") == "own"
    which = mine if own else 1 - mine
    dice = b.rolled[which]
    return which, [n for n, (_, face, need) in enumerate(dice) if (face < need if own else face >= need)]


def _die_token(die: tuple[int, int, int]) -> str:
    return f"d{die[0]}:{die[1]}"


def _reroll_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    b = s.d.battle
    which, eligible = _reroll_dice(s, k, e)
    if b is None:
        return []
    tokens = [_die_token(b.rolled[which][n]) for n in eligible]
    return _picks(tokens, min(int(e.param("count", 1)), len(tokens)))


def _hurt(s: NerathState, k: int) -> list[Unit]:
    b = s.d.battle
    return (
        [] if b is None else [u for u in s.units_at(b.space) if u.kingdom == k and (u.damage or u.inactive)]
    )


def _hurt_token(u: Unit) -> str:
    return u.ptype if u.inactive else f"wounded-{u.ptype}"


def _heal_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    tokens = [_hurt_token(u) for u in _hurt(s, k)]
    return _picks(tokens, min(int(e.param("count", 1)), len(tokens)))


def _battle_pieces(s: NerathState, k: int, e: CardEffect) -> list[Unit]:
    """The holder's pieces in the battle a ``grant_resilience`` or ``grant_first_strike`` effect may
    serve (matching its ``piece``; never a castle)."""
    b = s.d.battle
    if b is None:
        return []
    filt = str(e.param("piece", "any"))
    return [
        u
        for u in s.units_at(b.space)
        if u.kingdom == k and u.ptype != "castle" and piece_matches(u.ptype, filt)
    ]


def _battle_piece_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    """Which of the holder's pieces a card for ``count`` of them serves (their types; the holder's
    choice, NER-CRD-04)."""
    count = int(e.param("count", 0))
    if not count:
        return []  # every matching piece: nothing to choose
    tokens = [u.ptype for u in _battle_pieces(s, k, e)]
    return _picks(tokens, min(count, len(tokens)))


def _transfer_sources(s: NerathState, k: int, e: CardEffect, dest: int) -> list[Unit]:
    filt = str(e.param("piece", "land"))
    src = str(e.param("from", "friendly_territory"))
    return [
        u
        for u in sorted(s.d.units.values(), key=lambda x: x.uid)
        if u.kingdom == k
        and u.carrier < 0
        and u.space != dest
        and piece_matches(u.ptype, filt)
        and PIECES[u.ptype].mobility != Mobility.IMMOBILE
        and (
            src == "anywhere"
            or (src == "own_capital" and u.space == s.board.capitals[k])
            or (src != "own_capital" and s.d.control[u.space] == k)
        )
        and _fits(u.ptype, s.board.kind[dest])
    ]


def _transfer_token(s: NerathState, u: Unit, e: CardEffect) -> str:
    return (
        u.ptype
        if e.param("from", "friendly_territory") == "own_capital"
        else f"{u.ptype}@{s.board.sid(u.space)}"
    )


def _transfer_choices(s: NerathState, k: int, e: CardEffect) -> list[str]:
    """``dest:pieces`` for each destination and each pick of one to ``count`` pieces ("up to")."""
    out = []
    for dest in _transfer_dests(s, k, e):
        tokens = [_transfer_token(s, u, e) for u in _transfer_sources(s, k, e, dest)]
        for n in range(1, min(int(e.param("count", 1)), len(tokens)) + 1):
            out += [f"{s.board.sid(dest)}:{pick}" for pick in _picks(tokens, n)]
    return out


#: For each effect op whose text leaves the holder a choice, the options it has now.
CHOICES: dict[str, Callable[[NerathState, int, CardEffect], list[str]]] = {
    "place_pieces": _place_choices,
    "steal_gold": _kingdom_choices,
    "discard_cards": _kingdom_choices,
    "destroy_piece": _destroy_choices,
    "destroy_guardian": _guardian_choices,
    "reroll": _reroll_choices,
    "heal": _heal_choices,
    "grant_resilience": _battle_piece_choices,
    "grant_first_strike": _battle_piece_choices,
    "transfer_pieces": _transfer_choices,
}


def _take(units: Sequence[Unit], tokens: Sequence[str], token: Callable[[Unit], str]) -> list[Unit]:
    """The units named by ``tokens`` (each token once per unit), in order; unknown tokens are skipped."""
    pool = list(units)
    out = []
    for want in tokens:
        match = next((u for u in pool if token(u) == want), None)
        if match is not None:
            pool.remove(match)
            out.append(match)
    return out


def _split(target: str) -> list[str]:
    return [x for x in target.split(",") if x]


def _ask_choice(
    s: NerathState, k: int, card: str, moment: str, effects: Sequence[CardEffect], *, treasure: bool
) -> bool:
    """When effects that run without a play action leave the holder a choice, ask it (NER-CRD-04).

    Opens a ``choose`` window for ``k`` (the window's card names the card and, in place of a
    target, the ``moment`` whose effects wait: "" for a play-immediately event's effects, else
    the property's ``when``); True if asked.
    """
    if card_targets(s, k, effects) == [""]:
        return False
    s.d.windows = (*s.d.windows, CardWindow("choose", (k,), "none", (k, card, moment, treasure)))
    return True


def _waiting_effects(s: NerathState, w: CardWindow) -> tuple[CardEffect, ...]:
    assert w.card is not None
    _, card, moment, treasure = w.card
    if treasure:
        return tuple(e for e in s.board.treasure(card).property if e.when == moment)
    return s.board.event(card).effects


def _choice_actions(s: NerathState, w: CardWindow) -> list[PlayEvent | PlayTreasure]:
    assert w.card is not None
    k, card, _, treasure = w.card
    targets = card_targets(s, k, _waiting_effects(s, w))
    return [PlayTreasure(card, t) if treasure else PlayEvent(card, t) for t in targets]


def _apply_choice(s: NerathState, w: CardWindow, target: str) -> list[Event]:
    """Carry out the effects that waited for the holder's choice, then close the window."""
    assert w.card is not None
    k, card, _, _ = w.card
    effects = _waiting_effects(s, w)
    s.d.windows = s.d.windows[:-1]
    # then the step the card's play interrupted goes on (a window closed by the play waits behind it)
    return run_effects(s, k, effects, target, source=card) + _close_finished_after(s)


def run_effect(s: NerathState, k: int, e: CardEffect, target: str, *, source: str) -> list[Event]:
    fn = EFFECTS.get(e.op)
    if fn is None:
        return [
            Event("card.unsupported", {"op": e.op, "card": source}, f"({e.op} has no effect in this version)")
        ]
    return fn(s, k, e, target)


def _friendly_territories(s: NerathState, k: int) -> list[int]:
    return [i for i in range(len(s.board)) if s.board.kind[i] == LAND and s.d.control[i] == k]


def place_spots(s: NerathState, k: int, where: str, ptype: str) -> list[int]:
    """Spaces where a card may set down new ``ptype`` pieces of ``k`` (``place_pieces`` ``where``)."""
    board = s.board
    if where == "own_capital":
        cap = board.capitals[k]
        spots = [cap] if cap >= 0 and s.d.control[cap] == k else []
    elif where == "battle_space":
        b = s.d.battle
        spots = [b.space] if b is not None and s.allied(k, b.attacker) == (k == b.attacker) else []
        if b is not None and k != b.attacker and any(u.kingdom == k for u in s.units_at(b.space)):
            spots = [b.space]
    elif where == "friendly_sea_near_castle":
        spots = sorted(
            {
                n
                for c in s.own_castles(k)
                for n in board.neighbors(c)
                if board.is_sea(n) and s.is_friendly(n, k)
            }
        )
    else:
        spots = _friendly_territories(s, k)
        if where == "castle_territory":
            spots = [i for i in spots if (c := s.castle_at(i)) is not None and c.kingdom == k]
        elif where == "conquered_territory":
            spots = [i for i in spots if s.d.control_at_start[i] != k]
    mob = PIECES[ptype].mobility
    out = []
    for i in spots:
        kind = board.kind[i]
        if mob == Mobility.SEA and kind != "sea":
            continue
        if mob in (Mobility.LAND, Mobility.IMMOBILE) and kind != LAND:
            continue
        if mob == Mobility.FLYING and kind == "dungeon":
            continue
        if ptype == "castle" and s.castle_at(i) is not None:
            continue
        out.append(i)
    return out


def op_place_pieces(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """New pieces for free where the card says (the first such space unless ``target`` names one)."""
    ptype = str(e.param("piece"))
    count = int(e.param("count", 1))
    spots = place_spots(s, k, str(e.param("where", "friendly_territory")), ptype) if ptype in PIECES else []
    if target:
        spots = [i for i in spots if s.board.sid(i) == target]
    if not spots:
        return [Event("card.fizzle", {"op": "place_pieces"}, "no place to put the new pieces")]
    spot = spots[0]
    if ptype == "castle":
        count = 1  # NER-PCS-05: one castle per territory
    for _ in range(count):
        s.add_unit(k, ptype, spot, moved=1, done=True)
    return [
        Event(
            "card.place",
            {"kingdom": k, "piece": ptype, "count": count, "space": s.board.sid(spot)},
            f"{count} {ptype} appear on {s.board.sid(spot)} for {s.kingdom_name(k)}",
        )
    ]


def op_gain_gold(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    amount = _gold_amount(s, k, e)
    s.d.gold[k] += amount
    return [Event("gold", {"kingdom": k, "gold": amount}, f"{s.kingdom_name(k)} gains {amount} gold")]


def _gold_amount(s: NerathState, k: int, e: CardEffect) -> int:
    """The gold a ``gain_gold`` effect brings ``k`` now: ``amount``, or ``amount`` per counted thing
    (at most ``maximum``)."""
    amount = int(e.param("amount", 1))
    per = str(e.param("per", "none"))
    if per != "none":
        n = 0
        if per == "coastal_territory":
            n = sum(1 for i in _friendly_territories(s, k) if s.board.coastal[i])
        elif per == "warship":
            n = sum(1 for u in s.d.units.values() if u.kingdom == k and u.ptype == "warship")
        elif per == "sea_space_with_warship":
            n = len({u.space for u in s.d.units.values() if u.kingdom == k and u.ptype == "warship"})
        elif per == "castle":
            n = len(s.own_castles(k))
        elif per == "conquest_this_turn":
            n = sum(1 for i in _friendly_territories(s, k) if s.d.control_at_start[i] != k)
        amount *= n
        cap = int(e.param("maximum", 0))
        if cap:
            amount = min(amount, cap)
    return amount


def op_steal_gold(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """NER-CRD-06: gold moves from enemy treasuries to the holder's."""
    amount = int(e.param("amount", 1))
    mode = str(e.param("from", "chosen_enemy"))
    enemies = [j for j in range(4) if not s.allied(j, k)]
    if mode == "each_enemy":
        victims = enemies
    elif mode == "richest_enemy":
        tied = _steal_victims(s, k, mode)
        victims = [j for j in tied if KINGDOM_IDS[j] == target] or tied[:1]
    elif mode == "battle_enemy" and s.d.battle is not None:
        victims = _gold_victims(s, k, mode)
    else:
        chosen = [j for j in enemies if KINGDOM_IDS[j] == target]
        victims = chosen or ([max(enemies, key=lambda j: (s.d.gold[j], -j))] if enemies else [])
    events = []
    for j in victims:
        took = min(amount, s.d.gold[j])
        s.d.gold[j] -= took
        s.d.gold[k] += took
        events.append(
            Event(
                "gold.steal",
                {"from": j, "to": k, "gold": took},
                f"{s.kingdom_name(k)} takes {took} gold from {s.kingdom_name(j)}",
            )
        )
    return events


def op_gain_vp(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    amount = int(e.param("amount", 1))
    s.d.vp[k] += amount
    return [Event("vp", {"kingdom": k, "vp": amount}, f"{s.kingdom_name(k)} scores {amount} VP")]


def op_draw_cards(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    events: list[Event] = []
    for _ in range(int(e.param("count", 1))):
        if e.param("deck", "event") == "treasure":
            events += s.draw_treasure(k)
        else:
            events += s._draw(k)
    return events


def op_destroy_piece(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """Destroy the enemy pieces the holder names (never castles, never guardians: NER-DUN-08)."""
    where = str(e.param("where", "battle"))
    victims = _victims(s, k, e)
    count = min(int(e.param("count", 1)), len(victims))
    chosen = _take(victims, _split(target), lambda u: _victim_token(u, where, s))[:count]
    if len(chosen) < count:  # no (or a partial) choice given: the first ones listed
        chosen += [u for u in victims if u not in chosen][: count - len(chosen)]
    events = []
    for u in chosen:
        s.remove(u.uid)
        events.append(
            Event(
                "destroyed",
                {"kingdom": u.kingdom, "pieces": [u.ptype]},
                f"a card destroys {s.kingdom_name(u.kingdom)}'s {u.ptype} on {s.board.sid(u.space)}",
            )
        )
    return events


def _fits(ptype: str, kind: str) -> bool:
    """Whether a piece of this type may stand on a space of this kind (NER-MOV-03/04, NER-PCS-08)."""
    mob = PIECES[ptype].mobility
    if mob == Mobility.SEA:
        return kind == "sea"
    if mob == Mobility.FLYING:
        return kind != "dungeon"
    return kind == LAND or (kind == "dungeon" and PIECES[ptype].hero)


def _transfer_dests(s: NerathState, k: int, e: CardEffect) -> list[int]:
    dest_kind = str(e.param("to", "friendly_territory"))
    if dest_kind == "coastal_territory":
        return [i for i in _friendly_territories(s, k) if s.board.coastal[i]]
    if dest_kind == "battle_space":
        return [s.d.battle.space] if s.d.battle is not None else []
    if dest_kind == "own_capital":
        return [c for c in (s.board.capitals[k],) if c >= 0 and s.d.control[c] == k]
    return _friendly_territories(s, k)


def op_transfer_pieces(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """NER-MOV-09: lift own pieces and set them down elsewhere; not movement (no adjacency, no attack).

    ``target`` is ``destination:pieces`` (:func:`_transfer_choices`); without one, the first
    destination and as many pieces as the card allows, first listed first.
    """
    count = int(e.param("count", 1))
    where, _, picked = target.partition(":")
    dests = _transfer_dests(s, k, e)
    if where:
        dests = [i for i in dests if s.board.sid(i) == where]
    if not dests:
        return [Event("card.fizzle", {"op": "transfer_pieces"}, "no place to set the pieces down")]
    dest = dests[0]
    sources = _transfer_sources(s, k, e, dest)
    if picked:
        movers = _take(sources, _split(picked), lambda u: _transfer_token(s, u, e))[:count]
    else:
        movers = sources[:count]
    for u in movers:
        s.update(u, space=dest, moved=1, done=True)
    return [
        Event(
            "card.transfer",
            {"kingdom": k, "pieces": [u.ptype for u in movers], "to": s.board.sid(dest)},
            f"{len(movers)} piece(s) of {s.kingdom_name(k)} are set down on {s.board.sid(dest)}",
        )
    ]


_BATTLE_LONG = {"modify_hit_number", "extra_dice", "grant_first_strike", "grant_resilience"}


def duration_of(e: CardEffect) -> str:
    """How long a modifier lasts: its ``duration``, else one battle (battle modifiers) or the turn."""
    return str(e.param("duration", "battle" if e.op in _BATTLE_LONG else "turn"))


def op_modifier(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """Modifiers (hit number, first strike, resilience, extra dice, extra moves, cheaper pieces) stay in
    force until their duration ends; the rules code reads them through :func:`active`.

    Resilience and first strike for ``count`` pieces bind the pieces the holder named
    (``units``: their ids; NER-CRD-04).
    """
    if e.op in ("grant_resilience", "grant_first_strike") and int(e.param("count", 0)):
        candidates = _battle_pieces(s, k, e)
        n = min(int(e.param("count", 0)), len(candidates))
        chosen = _take(candidates, _split(target), lambda u: u.ptype)[:n]
        chosen += [u for u in candidates if u not in chosen][: n - len(chosen)]
        e = CardEffect(e.op, (*e.params, ("units", ",".join(str(u.uid) for u in chosen))), e.when)
    s.d.effects = (*s.d.effects, (k, e))
    return [
        Event(
            "card.modifier",
            {"kingdom": k, "op": e.op, "params": dict(e.params)},
            f"{s.kingdom_name(k)}: {e.op.replace('_', ' ')} ({duration_of(e)})",
        )
    ]


def _holder_is_attacker(s: NerathState, k: int) -> bool:
    b = s.d.battle
    return b is not None and s.allied(k, b.attacker)


def op_reroll(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """Reroll up to ``count`` of the holder's missed dice (side own) or the enemy's hits (side enemy),
    the ones the holder names (``d<sides>:<face>``, joined by ``,``)."""
    b = s.d.battle
    if b is None or not (b.rolled[0] or b.rolled[1]):
        return [Event("card.fizzle", {"op": "reroll"}, "no dice to roll again")]
    which, eligible = _reroll_dice(s, k, e)
    dice = list(b.rolled[which])
    count = min(int(e.param("count", 1)), len(eligible))
    picked = [n for n in _take_indices(dice, eligible, _split(target))][:count]
    picked += [n for n in eligible if n not in picked][: count - len(picked)]
    pairs = []
    for n in sorted(picked):
        sides, _, need = dice[n]
        new = s.rng.roll(sides)
        dice[n] = (sides, new, need)
        pairs.append((sides, new))
    rolled = (tuple(dice), b.rolled[1]) if which == 0 else (b.rolled[0], tuple(dice))
    s.d.battle = replace(b, rolled=rolled)
    who = s.kingdom_name(k)
    return [roll_event_for(who, pairs)]


def _take_indices(dice: list[tuple[int, int, int]], eligible: list[int], tokens: list[str]) -> list[int]:
    pool = list(eligible)
    out = []
    for want in tokens:
        n = next((i for i in pool if _die_token(dice[i]) == want), None)
        if n is not None:
            pool.remove(n)
            out.append(n)
    return out


def roll_event_for(who: str, pairs: list[tuple[int, int]]) -> Event:
    from warhorn.engine.events import roll_event

    return roll_event(who, pairs, purpose="a reroll")


def op_negate_hits(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    b = s.d.battle
    if b is None:
        return [Event("card.fizzle", {"op": "negate_hits"}, "no battle")]
    n = int(e.param("count", 1))
    a, d = b.negate
    s.d.battle = replace(b, negate=(a + n, d) if _holder_is_attacker(s, k) else (a, d + n))
    return [
        Event(
            "card.negate",
            {"kingdom": k, "hits": n},
            f"up to {n} hit(s) against {s.kingdom_name(k)} are cancelled",
        )
    ]


def op_heal(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    b = s.d.battle
    if b is None:
        return [Event("card.fizzle", {"op": "heal"}, "no battle")]
    hurt = _hurt(s, k)
    n = min(int(e.param("count", 1)), len(hurt))
    chosen = _take(hurt, _split(target), _hurt_token)[:n]
    chosen += [u for u in hurt if u not in chosen][: n - len(chosen)]
    for u in chosen:
        s.update(u, damage=0, inactive=False)
    healed = len(chosen)
    return [
        Event(
            "card.heal", {"kingdom": k, "count": healed}, f"{healed} piece(s) of {s.kingdom_name(k)} healed"
        )
    ]


def op_force_retreat(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    b = s.d.battle
    if b is None or _holder_is_attacker(s, k):
        return [Event("card.fizzle", {"op": "force_retreat"}, "no attacker to drive off")]
    s.d.battle = replace(b, forced_retreat=True)
    return [
        Event(
            "card.force_retreat",
            {"space": s.board.sid(b.space)},
            "the attackers must retreat after this round",
        )
    ]


def op_destroy_guardian(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    b = s.d.battle
    if b is None or b.kind != "dungeon":
        return [Event("card.fizzle", {"op": "destroy_guardian"}, "no dungeon battle")]
    from warhorn.games.nerath.state import GuardianSlot

    slots = list(s.d.guardians.get(b.space, ()))
    alive = [n for n, g in enumerate(slots) if g.dice]
    count = min(int(e.param("count", 1)), len(alive))
    named = [int(tok.rpartition("@")[2]) - 1 for tok in _split(target) if tok.rpartition("@")[2].isdigit()]
    picked = [n for n in dict.fromkeys(named) if n in alive][:count]
    picked += [n for n in alive if n not in picked][: count - len(picked)]
    for n in picked:
        g = slots[n]
        slots[n] = GuardianSlot(g.tile, (), True)
    s.d.guardians[b.space] = tuple(slots)
    return [Event("card.guardians", {"space": s.board.sid(b.space)}, "guardians are defeated by a card")]


def op_cancel_card(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    w = window(s)
    if w is None or w.name != "cancel" or w.card is None:
        return [Event("card.fizzle", {"op": "cancel_card"}, "no card to cancel")]
    owner, card, _, treasure = w.card
    kind = str(e.param("card", "event"))
    if kind == "any" or (kind == "treasure") == treasure:
        s.d.cancelled = (owner, card)
    return []


def op_discard_cards(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    enemies = [j for j in range(4) if not s.allied(j, k)]
    if e.param("from", "chosen_enemy") == "chosen_enemy":
        chosen = [j for j in enemies if KINGDOM_IDS[j] == target]
        enemies = chosen or ([max(enemies, key=lambda j: (len(s.d.hands[j]), -j))] if enemies else [])
    events = []
    for j in enemies:
        for _ in range(int(e.param("count", 1))):
            hand = list(s.d.hands[j])
            if not hand:
                break
            card = hand.pop(s.rng.below(len(hand)))
            s.d.hands[j] = tuple(hand)
            s.d.event_decks[j] = s.d.event_decks[j].discard(card)
            events.append(
                Event(
                    "card.discard",
                    {"kingdom": j, "card": card},
                    f"{s.kingdom_name(j)} discards {card}",
                    chance=True,
                )
            )
    return events


EFFECTS: dict[str, Effect] = {
    "place_pieces": op_place_pieces,
    "destroy_piece": op_destroy_piece,
    "transfer_pieces": op_transfer_pieces,
    "steal_gold": op_steal_gold,
    "gain_gold": op_gain_gold,
    "gain_vp": op_gain_vp,
    "modify_hit_number": op_modifier,
    "extra_dice": op_modifier,
    "grant_first_strike": op_modifier,
    "grant_resilience": op_modifier,
    "extra_move": op_modifier,
    "reroll": op_reroll,
    "negate_hits": op_negate_hits,
    "heal": op_heal,
    "force_retreat": op_force_retreat,
    "cancel_card": op_cancel_card,
    "draw_cards": op_draw_cards,
    "discard_cards": op_discard_cards,
    "reduce_cost": op_modifier,
    "destroy_guardian": op_destroy_guardian,
}
