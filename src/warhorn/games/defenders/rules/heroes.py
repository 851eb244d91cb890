"""Heroes' life: starting life tokens (DEF-VAR-01/02), wounds, a hero's defeat and its
replacement (DEF-TRN-03); and where a hero may not go."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warhorn.games.defenders.board import COLOURS, DefendersBoard
from warhorn.games.defenders.rules import cards, victory

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState


def hero_life(board: DefendersBoard, hero: str, options: dict[str, Any]) -> int:
    """Starting life tokens, with the easier (+1) and harder (-1) variants (DEF-VAR-01/02)."""
    life = board.hero_by_id[hero].life
    if options.get("easy_extra_life"):
        life += 1
    if options.get("hard_less_life"):
        life -= 1
    return max(1, life)


def wound(state: DefendersState, slot: int, n: int) -> None:
    """Flip ``n`` life tokens aside (DEF-TRN-03); no tokens left → the hero falls."""
    s = state.slots[slot]
    s.life -= n
    s.actions = max(0, min(s.actions, s.life))
    if s.life <= 0:
        hero_defeated(state, slot)


def hero_defeated(state: DefendersState, slot: int) -> None:
    s = state.slots[slot]
    state.log("hero_defeated", f"{state.hero_name(slot)} is defeated and leaves the game", hero=s.hero)
    for card in list(s.hand):
        cards.discard(state, slot, card)
    if s.quest is not None:
        state.quest_deck = state.quest_deck.discard(s.quest)
    for c in range(4):
        state.supply[c] += s.quest_minions[c]
        s.quest_minions[c] = 0
    s.quest = None
    s.quest_progress = []
    state.quest_deck = state.quest_deck.discard(*s.rewards)
    s.rewards = []
    s.slain = []
    s.hero = None
    s.life = 0
    s.actions = 0
    state.owed_discards = [o for o in state.owed_discards if o[0] != slot]
    if len(state.unused_heroes) > len(state.replacements):
        state.own_replacements().append(slot)
    elif all(x.hero is None for x in state.slots) and not state.replacements:
        victory.lose(state, "no hero is left to defend the realm", "DEF-TRN-03", "no_heroes")


def replace_hero(state: DefendersState, slot: int, hero: str) -> None:
    """DEF-TRN-03: the new hero starts in Monarch City with 2 hero cards and 1 quest."""

    s = state.slots[slot]
    state.own_unused_heroes().remove(hero)
    life = hero_life(state.board, hero, state.options)
    s.hero, s.loc, s.life, s.max_life = hero, state.board.monarch, life, life
    s.actions = 0
    s.turn = {"begun": 1, "chosen": 1} if slot == state.current and state.phase != "start" else {}
    state.log("hero_joins", f"{state.hero_name(slot)} joins in Monarch City", hero=hero, player=s.player)
    cards.draw_hero_cards(state, slot, 2)
    cards.draw_quest(state, slot)


def forbidden_destinations(state: DefendersState, slot: int) -> frozenset[str]:
    """Where the hero may not go: a Sorceress in enemy form may not enter Monarch City or an Inn."""
    s = state.slots[slot]
    if s.hero == "sorceress" and s.turn.get("shape") in COLOURS:
        b = state.board
        return frozenset(loc.name for i, loc in enumerate(b.locations) if i == b.monarch or loc.inn)
    return frozenset()


def barred(state: DefendersState, slot: int, dest: int) -> bool:
    """Whether the hero in ``slot`` may not enter ``dest`` however it travels or is carried (a
    card or reward moving it included): see :func:`forbidden_destinations`."""
    return state.board.location_names[dest] in forbidden_destinations(state, slot)
