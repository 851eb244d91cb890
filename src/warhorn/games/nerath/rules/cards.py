"""Event and treasure cards: timing windows and the effect primitives cards are made of (NER-CRD-*).

Each op of :mod:`warhorn.games.nerath.effects_vocabulary` that the rules
carry out has one function in :data:`EFFECTS`; a card is its list of ops.
Cards are offered only to the kingdom holding them, in the windows their
timing names. Ops that need a choice take the first legal target in board
order unless the action names one (``target``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.games.nerath.actions import PlayEvent, PlayTreasure
from warhorn.games.nerath.board import LAND, CardEffect
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.state import BATTLES, MOVEMENT, REINFORCEMENTS, REPOSITION

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Timing windows (effects_vocabulary.TIMINGS) open in the holder's own turn, by phase.
_WINDOWS_BY_PHASE: dict[int, tuple[str, ...]] = {
    MOVEMENT: ("movement", "own_turn", "any_time"),
    REPOSITION: ("reposition", "own_turn", "any_time"),
    REINFORCEMENTS: ("reinforcements", "own_turn", "any_time"),
}
_BATTLE_WINDOWS = ("before_battle", "dungeon")


def _open_windows(s: NerathState, k: int) -> tuple[str, ...]:
    d = s.d
    if k != s.current_kingdom:
        return ()
    if d.pos.phase == BATTLES:
        # before the next battle is chosen: the holder may prepare battle cards for it
        if d.battle is None and not d.landings and not d.amok and d.battles_todo:
            return (*_BATTLE_WINDOWS, "own_turn", "any_time")
        return ()
    return _WINDOWS_BY_PHASE.get(d.pos.phase, ())


# --- hooks used by the battle and flow code --------------------------------------------------
def hit_overrides(s: NerathState, k: int) -> tuple[tuple[int, int], ...]:
    """(kingdom, hit number) for battle-long hit modifiers of the attacker and of kingdoms with properties."""
    out = []
    for op, kingdom, value in s.d.effects:
        if op == "hit_on":
            out.append((kingdom, value))
    for j in range(4):
        for card in s.d.treasures_in_play[j]:
            for e in s.board.treasure(card).property:
                if e.op == "modify_hit_number" and e.when is None and e.param("side", "own") == "own":
                    out.append((j, int(e.param("hit_on", 6))))
    return tuple(out)


def grants(s: NerathState, what: str, k: int) -> bool:
    return any(op == what and kingdom == k for op, kingdom, _ in s.d.effects)


def trigger(s: NerathState, when: str, k: int, space: int) -> list[Event]:
    """Run lasting treasure properties whose window is ``when`` (e.g. start_of_turn)."""
    window = {"turn_start": "start_of_turn", "conquer": "on_conquest"}.get(when, when)
    events: list[Event] = []
    for card in s.d.treasures_in_play[k]:
        for e in s.board.treasure(card).property:
            if e.when == window:
                events += run_effect(s, k, e, "", source=card)
    return events


def on_draw(s: NerathState, k: int, card: str) -> list[Event]:
    """NER-TRN-02: a play-immediately card takes effect as soon as it is drawn."""
    ev = s.board.event(card)
    if not ev.play_immediately:
        return []
    return _play_event(s, k, card, "")


# --- legal plays --------------------------------------------------------------------------------
def legal_plays(s: NerathState, k: int) -> list[PlayEvent | PlayTreasure]:
    windows = _open_windows(s, k)
    if not windows:
        return []
    out: list[PlayEvent | PlayTreasure] = []
    for card in sorted(set(s.d.hands[k])):
        if s.board.event(card).timing in windows and _playable(s, k, s.board.event(card).effects):
            out.append(PlayEvent(card))
    for card in sorted(set(s.d.treasure_hands[k])):
        if s.board.treasure(card).timing in windows or s.board.treasure(card).timing == "immediately":
            out.append(PlayTreasure(card))
    return out


def _playable(s: NerathState, k: int, effects: tuple[CardEffect, ...]) -> bool:
    return all(e.op in EFFECTS for e in effects)


def check_play(s: NerathState, k: int, a: PlayEvent | PlayTreasure) -> IllegalActionError | None:
    if isinstance(a, PlayTreasure):
        if a.card not in s.d.treasure_hands[k]:
            return IllegalActionError(f"{s.kingdom_name(k)} holds no treasure {a.card!r}", "NER-CRD-02")
    elif a.card not in s.d.hands[k]:
        return IllegalActionError(f"{s.kingdom_name(k)} holds no event card {a.card!r}", "NER-CRD-01")
    legal = legal_plays(s, k)
    if isinstance(a, PlayEvent):
        if PlayEvent(a.card) in legal:
            return None
        timing = s.board.event(a.card).timing
        return IllegalActionError(f"{a.card} may not be played now (its timing is {timing})", "NER-CRD-01")
    if a in legal:
        return None
    timing = s.board.treasure(a.card).timing
    return IllegalActionError(f"{a.card} may not be played now (its timing is {timing})", "NER-CRD-02")


def apply_play(s: NerathState, k: int, a: PlayEvent | PlayTreasure) -> list[Event]:
    if isinstance(a, PlayTreasure):
        return play_treasure(s, k, a.card)
    return _play_event(s, k, a.card, a.target)


def play_treasure(s: NerathState, k: int, card: str) -> list[Event]:
    """NER-CRD-02/03/04: score the VP, run the power once, keep the card in play for its property."""
    hand = list(s.d.treasure_hands[k])
    hand.remove(card)
    s.d.treasure_hands[k] = tuple(hand)
    s.d.treasures_in_play[k] = (*s.d.treasures_in_play[k], card)
    t = s.board.treasure(card)
    s.d.vp[k] += t.vp
    events = [
        Event(
            "treasure.play",
            {"kingdom": k, "card": card, "vp": t.vp},
            f"{s.kingdom_name(k)} plays {t.name} (+{t.vp} VP)",
        )
    ]
    for e in t.power:
        events += run_effect(s, k, e, "", source=card)
    return events


def _play_event(s: NerathState, k: int, card: str, target: str) -> list[Event]:
    hand = list(s.d.hands[k])
    hand.remove(card)
    s.d.hands[k] = tuple(hand)
    s.d.event_decks[k] = s.d.event_decks[k].discard(card)
    ev = s.board.event(card)
    events = [Event("card.play", {"kingdom": k, "card": card}, f"{s.kingdom_name(k)} plays {ev.name}")]
    for e in ev.effects:
        events += run_effect(s, k, e, target, source=card)
    return events


# --- effect primitives ----------------------------------------------------------------------------
Effect = Callable[["NerathState", int, CardEffect, str], list[Event]]


def run_effect(s: NerathState, k: int, e: CardEffect, target: str, *, source: str) -> list[Event]:
    fn = EFFECTS.get(e.op)
    if fn is None:
        return [
            Event("card.unsupported", {"op": e.op, "card": source}, f"({e.op} has no effect in this version)")
        ]
    return fn(s, k, e, target)


def _friendly_territories(s: NerathState, k: int) -> list[int]:
    return [i for i in range(len(s.board)) if s.board.kind[i] == LAND and s.d.control[i] == k]


def _place_spot(s: NerathState, k: int, where: str, target: str) -> int | None:
    if where == "own_capital":
        cap = s.board.capitals[k]
        return cap if cap >= 0 and s.d.control[cap] == k else None
    candidates = _friendly_territories(s, k)
    if where == "castle_territory":
        candidates = [i for i in candidates if (c := s.castle_at(i)) is not None and c.kingdom == k]
    if where == "conquered_territory":
        candidates = [i for i in candidates if s.d.control_at_start[i] != k]
    if where == "battle_space" and s.d.battle is not None:
        candidates = [s.d.battle.space]
    if target:
        try:
            t = s.board.idx(target)
        except KeyError:
            return None
        return t if t in candidates else None
    return candidates[0] if candidates else None


def op_place_pieces(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    ptype = str(e.param("piece"))
    count = int(e.param("count", 1))
    spot = _place_spot(s, k, str(e.param("where", "friendly_territory")), target)
    if spot is None or ptype not in PIECES:
        return [Event("card.fizzle", {"op": "place_pieces"}, "no place to put the new pieces")]
    mob = PIECES[ptype].mobility
    if mob == Mobility.SEA or (ptype == "castle" and s.castle_at(spot) is not None):
        return [Event("card.fizzle", {"op": "place_pieces"}, "those pieces cannot go there")]
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
    s.d.gold[k] += amount
    return [Event("gold", {"kingdom": k, "gold": amount}, f"{s.kingdom_name(k)} gains {amount} gold")]


def op_steal_gold(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """NER-CRD-06: gold moves from enemy treasuries to the holder's."""
    amount = int(e.param("amount", 1))
    mode = str(e.param("from", "chosen_enemy"))
    enemies = [j for j in range(4) if not s.allied(j, k)]
    if mode == "each_enemy":
        victims = enemies
    elif mode == "richest_enemy":
        victims = [max(enemies, key=lambda j: (s.d.gold[j], -j))] if enemies else []
    elif mode == "battle_enemy" and s.d.battle is not None:
        victims = sorted({u.kingdom for u in s.units_at(s.d.battle.space) if not s.allied(u.kingdom, k)})
    else:
        from warhorn.games.nerath.board import KINGDOM_IDS

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


def op_modify_hit_number(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    if e.param("side", "own") != "own":
        return [
            Event("card.unsupported", {"op": e.op}, "(enemy hit modifiers have no effect in this version)")
        ]
    value = int(e.param("hit_on", 6))
    s.d.effects = (*s.d.effects, ("hit_on", k, value))
    if s.d.battle is not None:
        b = s.d.battle
        from warhorn.games.nerath.state import BattleState

        s.d.battle = BattleState(
            b.space, b.kind, b.attacker, b.round, b.step, b.orders, b.pending_att, (*b.hit_min, (k, value))
        )
    return [
        Event(
            "card.modifier",
            {"kingdom": k, "hit_on": value},
            f"{s.kingdom_name(k)}'s pieces hit on {value}+ this turn",
        )
    ]


def op_grant_first_strike(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    s.d.effects = (*s.d.effects, ("first_strike", k, 1))
    return [
        Event("card.modifier", {"kingdom": k}, f"{s.kingdom_name(k)}'s pieces gain first strike this turn")
    ]


def op_grant_resilience(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    s.d.effects = (*s.d.effects, ("resilient", k, 1))
    return [Event("card.modifier", {"kingdom": k}, f"{s.kingdom_name(k)}'s pieces are resilient this turn")]


def op_draw_cards(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    events: list[Event] = []
    for _ in range(int(e.param("count", 1))):
        if e.param("deck", "event") == "treasure":
            events += s.draw_treasure(k)
        else:
            events += s._draw(k)
    return events


def op_destroy_piece(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """Destroy enemy pieces (never castles, never guardians: NER-DUN-08)."""
    where = str(e.param("where", "battle"))
    filt = str(e.param("piece", "mobile"))
    victims = []
    for u in sorted(s.d.units.values(), key=lambda x: x.uid):
        if s.allied(u.kingdom, k) or u.ptype == "castle" or u.carrier >= 0 or not _matches(u.ptype, filt):
            continue
        if where == "battle" and (s.d.battle is None or u.space != s.d.battle.space):
            continue
        if where == "adjacent" and not any(s.d.control[n] == k for n in s.board.neighbors(u.space)):
            continue
        if target and s.board.sid(u.space) != target:
            continue
        victims.append(u)
    events = []
    for u in victims[: int(e.param("count", 1))]:
        s.remove(u.uid)
        events.append(
            Event(
                "destroyed",
                {"kingdom": u.kingdom, "pieces": [u.ptype]},
                f"a card destroys {s.kingdom_name(u.kingdom)}'s {u.ptype} on {s.board.sid(u.space)}",
            )
        )
    return events


def _matches(ptype: str, filt: str) -> bool:
    stats = PIECES[ptype]
    if filt == ptype or filt == "any":
        return True
    if filt == "mobile":
        return not stats.castle
    if filt == "land":
        return stats.mobility == Mobility.LAND
    if filt == "hero":
        return stats.hero
    if filt == "flying":
        return stats.mobility == Mobility.FLYING
    if filt == "naval":
        return stats.mobility == Mobility.SEA
    return False


def op_transfer_pieces(s: NerathState, k: int, e: CardEffect, target: str) -> list[Event]:
    """NER-MOV-09: lift own pieces and set them down elsewhere; not movement (no adjacency, no attack).

    ``target`` names the destination (default: the first eligible space); the
    pieces come from the first eligible space holding matching pieces.
    """
    filt = str(e.param("piece", "land"))
    count = int(e.param("count", 1))
    src = str(e.param("from", "friendly_territory"))
    dest_kind = str(e.param("to", "friendly_territory"))
    if dest_kind == "coastal_territory":
        dests = [i for i in _friendly_territories(s, k) if s.board.coastal[i]]
    elif dest_kind == "battle_space" and s.d.battle is not None:
        dests = [s.d.battle.space]
    elif dest_kind == "own_capital":
        dests = [c for c in (s.board.capitals[k],) if c >= 0 and s.d.control[c] == k]
    else:
        dests = _friendly_territories(s, k)
    if target:
        dests = [i for i in dests if s.board.sid(i) == target]
    if not dests:
        return [Event("card.fizzle", {"op": "transfer_pieces"}, "no place to set the pieces down")]
    dest = dests[0]
    movers = [
        u
        for u in sorted(s.d.units.values(), key=lambda x: x.uid)
        if u.kingdom == k
        and u.carrier < 0
        and u.space != dest
        and _matches(u.ptype, filt)
        and PIECES[u.ptype].mobility != Mobility.IMMOBILE
        and (
            src == "anywhere"
            or (src == "own_capital" and u.space == s.board.capitals[k])
            or s.d.control[u.space] == k
        )
        and (s.board.kind[dest] != LAND or PIECES[u.ptype].mobility != Mobility.SEA)
    ][:count]
    for u in movers:
        s.update(u, space=dest, moved=1, done=True)
    return [
        Event(
            "card.transfer",
            {"kingdom": k, "pieces": [u.ptype for u in movers], "to": s.board.sid(dest)},
            f"{len(movers)} piece(s) of {s.kingdom_name(k)} are set down on {s.board.sid(dest)}",
        )
    ]


EFFECTS: dict[str, Effect] = {
    "transfer_pieces": op_transfer_pieces,
    "place_pieces": op_place_pieces,
    "gain_gold": op_gain_gold,
    "steal_gold": op_steal_gold,
    "gain_vp": op_gain_vp,
    "modify_hit_number": op_modify_hit_number,
    "grant_first_strike": op_grant_first_strike,
    "grant_resilience": op_grant_resilience,
    "draw_cards": op_draw_cards,
    "destroy_piece": op_destroy_piece,
}
