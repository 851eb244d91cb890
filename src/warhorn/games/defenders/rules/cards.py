"""Hero and quest cards: drawing, discarding, the hand limit (DEF-TRN-01, DEF-CRD-01..03)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.games.defenders.board import COLOURS

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

HAND_LIMIT = 10


def draw_hero_cards(state: DefendersState, slot: int, count: int) -> list[str]:
    """Draw ``count`` hero cards into a hero's hand; an empty deck reshuffles its discard
    (used purple cards are out of the game, never in the discard: DEF-CRD-02)."""
    drawn: list[str] = []
    for _ in range(count):
        deck, card, reshuffled = state.hero_deck.draw(state.rng)
        state.hero_deck = deck
        if reshuffled:
            state.log("shuffle", "The hero deck is rebuilt from its discard pile", chance=True, deck="hero")
        if card is None:
            state.log("deck_empty", "The hero deck is empty")
            break
        drawn.append(card)
    state.slots[slot].hand.extend(drawn)
    if drawn:
        state.log(
            "hero_cards_drawn",
            f"{state.hero_name(slot)} draws {', '.join(drawn)}",
            chance=True,
            hero=state.slots[slot].hero,
            cards=drawn,
        )
    return drawn


def discard(state: DefendersState, slot: int, card: str) -> None:
    """Move a card from a hand to the hero discard; a used purple card leaves the game instead."""
    state.slots[slot].hand.remove(card)
    state.hero_deck = state.hero_deck.discard(card)


def use_special(state: DefendersState, slot: int, card: str) -> None:
    """A purple card has been used: it is removed from the game (DEF-CRD-02)."""
    state.slots[slot].hand.remove(card)
    state.own_removed_cards().append(card)


def draw_quest(state: DefendersState, slot: int) -> None:
    """Give a hero a new quest card (DEF-CRD-03); its progress starts empty."""
    s = state.slots[slot]
    if s.quest is not None:
        state.quest_deck = state.quest_deck.discard(s.quest)
    for c in range(4):
        state.supply[c] += s.quest_minions[c]
        s.quest_minions[c] = 0
    s.quest = None
    s.quest_progress = []
    deck, quest, reshuffled = state.quest_deck.draw(state.rng)
    state.quest_deck = deck
    if reshuffled:
        state.log("shuffle", "The quest deck is rebuilt", chance=True, deck="quest")
    s.quest = quest
    if quest:
        state.log(
            "quest_drawn",
            f"{state.hero_name(slot)} takes the quest {state.board.quest_by_id[quest].name}",
            chance=True,
            hero=s.hero,
            quest=quest,
        )


def matching_cards(state: DefendersState, slot: int, colour: int) -> list[str]:
    """Cards in a hand usable against ``colour``'s general or to heal its land."""
    cards = state.board.cards
    return [c for c in state.slots[slot].hand if cards[c].colour in (COLOURS[colour], "any")]


def distinct(state: DefendersState, card_ids: list[str]) -> list[str]:
    """One card per distinct face (copies of the same card give the same choice)."""
    face = state.board.card_face
    seen: set[tuple[object, ...]] = set()
    out = []
    for cid in card_ids:
        key = face[cid]
        if key not in seen:
            seen.add(key)
            out.append(cid)
    return out


def rumors(state: DefendersState, slot: int, colour: str, count: int) -> None:
    """Draw ``count`` cards, keep those of ``colour`` and the purple ones (DEF-ACT-07)."""
    drawn = draw_hero_cards(state, slot, count)
    s = state.slots[slot]
    kept = []
    for cid in drawn:
        card = state.board.cards[cid]
        if card.colour == colour or card.is_special:
            kept.append(cid)
        else:
            discard(state, slot, cid)
    state.log("rumors", f"{state.hero_name(slot)} keeps {', '.join(kept) or 'nothing'}", kept=kept)
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        state.owed_discards.append([slot, excess])
