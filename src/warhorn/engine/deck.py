"""Decks of cards: an immutable value with a draw pile (top first) and a discard pile.

Drawing from an empty pile shuffles the discard into a new pile with the
state's generator and says so, so the shuffle is an event.
"""

from __future__ import annotations

from dataclasses import dataclass

from warhorn.engine.rng import Rng


@dataclass(frozen=True, slots=True)
class Deck:
    draw_pile: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()

    @classmethod
    def shuffled(cls, cards: tuple[str, ...] | list[str], rng: Rng) -> Deck:
        return cls(tuple(rng.shuffled(cards)), ())

    def __len__(self) -> int:
        return len(self.draw_pile)

    @property
    def empty(self) -> bool:
        return not self.draw_pile and not self.discard_pile

    def draw(self, rng: Rng) -> tuple[Deck, str | None, bool]:
        """Draw the top card: (new deck, card or None if no card at all, whether it reshuffled)."""
        reshuffled = False
        deck = self
        if not deck.draw_pile:
            if not deck.discard_pile:
                return deck, None, False
            deck = Deck(tuple(rng.shuffled(deck.discard_pile)), ())
            reshuffled = True
        return Deck(deck.draw_pile[1:], deck.discard_pile), deck.draw_pile[0], reshuffled

    def draw_many(self, count: int, rng: Rng) -> tuple[Deck, list[str], bool]:
        deck, cards, any_shuffle = self, [], False
        for _ in range(count):
            deck, card, reshuffled = deck.draw(rng)
            any_shuffle = any_shuffle or reshuffled
            if card is None:
                break
            cards.append(card)
        return deck, cards, any_shuffle

    def discard(self, *cards: str) -> Deck:
        return Deck(self.draw_pile, self.discard_pile + cards)

    def put_on_top(self, *cards: str) -> Deck:
        return Deck(cards + self.draw_pile, self.discard_pile)

    def put_on_bottom(self, *cards: str) -> Deck:
        return Deck(self.draw_pile + cards, self.discard_pile)

    def reshuffle_all(self, rng: Rng) -> Deck:
        return Deck(tuple(rng.shuffled(self.draw_pile + self.discard_pile)), ())

    def to_json(self) -> dict[str, list[str]]:
        return {"draw": list(self.draw_pile), "discard": list(self.discard_pile)}

    def public_json(self) -> dict[str, object]:
        """What anyone may see: the pile's size and the face-up discard."""
        return {"draw_count": len(self.draw_pile), "discard": list(self.discard_pile)}
