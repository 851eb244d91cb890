"""Cards and rewards whose targets are chosen one at a time by their player.

Effects: ``kings_guard`` (up to 6 minions in or next to Monarch City),
``envoy`` (D6 minions within 2 of a location), ``cavalry_sweep`` (6 minions, at
most 2 a location, spreading outward from the first location, a dragonkin
counting 2), ``battle_strategy`` (clear up to 3 locations, then push a general
one step back along its path), ``move_heroes`` (up to 2 heroes anywhere),
``dark_visions`` (look at the top 5 Darkness Spreads cards, discard any, put
the rest back in a chosen order), ``fireball`` (the Wizard's hits: which minions
die, one at a time, at the Wizard's location). ``pass`` ends a step early,
except in a fireball, whose every hit kills.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.deck import Deck
from warhorn.games.defenders.actions import Pass, Pick
from warhorn.games.defenders.board import BLUE, COLOURS
from warhorn.games.defenders.records import Picking, PickStage
from warhorn.games.defenders.rules import heroes
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

MINION_EFFECTS = frozenset({"kings_guard", "envoy", "cavalry_sweep", "fireball"})
#: Minion pickings that remove every pick they hold (the fireball's hits all kill: no passing).
MUST_PICK = frozenset({"fireball"})


def start(
    state: DefendersState, slot: int, effect: str, *, count: int = 0, allowed: list[int] | None = None
) -> None:
    """Begin choosing targets for ``effect`` (the decision goes to the slot's player)."""

    b = state.board
    if effect in MINION_EFFECTS:
        where = allowed if allowed is not None else list(range(len(b.locations)))
        state.picking = Picking(slot, effect, PickStage.MINION, count, where)
    elif effect == "battle_strategy":
        state.picking = Picking(slot, effect, PickStage.LOCATION, 3)
    elif effect == "move_heroes":
        state.picking = Picking(slot, effect, PickStage.HERO, 2)
    elif effect == "dark_visions":
        deck, cards, reshuffled = state.ds_deck.draw_many(5, state.rng)
        if reshuffled:
            state.log("shuffle", "The Darkness Spreads deck is rebuilt from its discard", chance=True)
        state.ds_deck = deck
        state.ds_known_top = 0
        state.log("dark_visions", f"Dark Visions reveal {', '.join(cards)}", chance=True, cards=cards)
        state.picking = Picking(slot, effect, PickStage.DISCARD, len(cards), chosen=list(cards))
    else:
        raise AssertionError(f"no picking for {effect}")
    settle(state)


def _minion_options(state: DefendersState) -> list[Action]:
    p = state.picking
    assert p is not None
    b = state.board
    out: list[Action] = []
    for i in p.allowed:
        if p.effect == "cavalry_sweep":
            if p.taken.get(i, 0) >= 2:
                continue
            if p.taken and i not in p.taken and not any(b.graph.adjacent_i(i, j) for j in p.taken):
                continue
        for c in range(4):
            weight = 2 if p.effect == "cavalry_sweep" and c == BLUE else 1
            if state.minions[i][c] > 0 and weight <= p.left:
                out.append(made(Pick, COLOURS[c], b.location_names[i]))
    return out


def legal(state: DefendersState) -> list[Action]:
    p = state.picking
    assert p is not None
    b = state.board
    if p.stage == PickStage.MINION:
        if p.effect in MUST_PICK:
            return _minion_options(state)
        return [*_minion_options(state), made(Pass)]
    if p.stage == PickStage.LOCATION:
        chosen = set(p.chosen)
        return [
            *(
                made(Pick, "location", b.location_names[i])
                for i in range(len(b.locations))
                if sum(state.minions[i]) and b.location_names[i] not in chosen
            ),
            made(Pass),
        ]
    if p.stage == PickStage.GENERAL:
        out: list[Action] = []
        for c, g in enumerate(state.generals):
            gd = b.general_by_colour[c]
            if (
                g is not None
                and gd is not None
                and b.location_names[g.loc] in gd.path
                and gd.path.index(b.location_names[g.loc]) > 0
            ):
                out.append(made(Pick, "general", COLOURS[c]))
        return [*out, made(Pass)]
    if p.stage == PickStage.HERO:  # up to 2 different heroes
        return [
            *(
                made(Pick, "hero", s.hero)
                for s in state.slots
                if s.hero is not None and s.hero not in p.chosen
            ),
            made(Pass),
        ]
    if p.stage == PickStage.TO:
        moved = state.slot_of(p.chosen[-1])
        return [
            made(Pick, "to", b.location_names[i])
            for i in range(len(b.locations))
            if not heroes.barred(state, moved, i)
        ]
    if p.stage == PickStage.DISCARD:
        return [*(made(Pick, "discard", c) for c in p.chosen), made(Pass)]
    if p.stage == PickStage.ORDER:
        return [made(Pick, "top", c) for c in p.chosen]
    raise AssertionError(p.stage)


def pending(state: DefendersState) -> Decision:
    p = state.picking
    assert p is not None
    prompts = {
        "minion": f"choose a minion to remove ({p.left} left)"
        + ("" if p.effect in MUST_PICK else ", or pass"),
        "location": f"choose a location to clear ({p.left} left), or pass",
        "general": "choose a general to push one step back, or pass",
        "hero": f"choose a hero to move ({p.left} left), or pass",
        "to": f"choose where {p.chosen[-1] if p.chosen else 'the hero'} goes",
        "discard": "choose a revealed Darkness Spreads card to discard, or pass",
        "order": "choose the next card to put back on top (first chosen is drawn first)",
    }
    rule = {"envoy": "DEF-CRD-03", "move_heroes": "DEF-CRD-03", "fireball": "DEF-ACT-05"}.get(
        p.effect, "DEF-CRD-02"
    )
    return made(
        Decision,
        state.slots[p.slot].player,
        "pick",
        f"{p.effect.replace('_', ' ')}: {prompts[p.stage]}",
        rule,
    )


def put_back_next(state: DefendersState, card: str) -> None:
    """Dark Visions: put ``card`` back on the pile, so that the first card chosen ends on top."""
    p = state.picking
    assert p is not None
    k = len(p.allowed)  # ``allowed`` counts the cards already put back
    p.allowed.append(k)
    top = list(state.ds_deck.draw_pile)
    top.insert(k, card)
    state.ds_deck = Deck(tuple(top), state.ds_deck.discard_pile)
    state.ds_known_top = k + 1


def _nothing_left(state: DefendersState) -> bool:
    """Whether the picking is over: no picks left, or nothing left to pick."""
    p = state.picking
    assert p is not None
    if p.stage == PickStage.MINION:
        return p.left <= 0 or not _minion_options(state)
    if p.stage == PickStage.GENERAL:
        return not [a for a in legal(state) if isinstance(a, Pick)]
    if p.stage == PickStage.HERO:
        return p.left <= 0
    if p.stage == PickStage.DISCARD:
        return not p.chosen
    return p.stage == PickStage.DONE


def settle(state: DefendersState) -> None:
    """Move past steps with nothing to choose; finish the picking when it is over."""
    p = state.picking
    if p is None:
        return
    if p.stage == PickStage.LOCATION and not [a for a in legal(state) if isinstance(a, Pick)]:
        p.stage = PickStage.GENERAL
    if p.stage == PickStage.ORDER and len(p.chosen) <= 1:
        if p.chosen:
            put_back_next(state, p.chosen.pop())
        p.stage = PickStage.DONE
    if _nothing_left(state):
        state.picking = None
