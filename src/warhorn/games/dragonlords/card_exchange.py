"""The spell-card exchange of a combat round's ranged steps (DLX-CMB-05, DLX-CMB-06, DLX-CMB-07).

When both sides of a combat have a sorcerer, spell cards are played one at a time, alternately,
starting with the defender (the player whose territory, square or naval block is attacked).

* A player may pass instead of playing. When both pass in a row, the exchange ends and the round
  goes on to step 5.
* Each player may play one damage card per combat round.
* A damage card may be answered by the other player, on his next play, with Reflection or Dispel
  Magic, which reflect or cancel it. If the other player plays anything else, or passes, the damage
  card is resolved first.
* A card needs a sorcerer of its player in the space. A side whose sorcerers are all killed by a
  damage card plays no more cards.
* Summon Elemental is the one damage card also playable outside the ranged steps, in its player's
  own turn. So in an exchange only the attacker may play it.
* Invincible Shield and Death Seeker are cards of a defending sorcerer, so only the defender may
  play them.
* Step-2 cards (Wrath, the Hope and Panic scrolls) and step-7 cards (the Heal scroll) are played in
  those steps, not here.

:class:`CardExchange` is immutable. :meth:`CardExchange.refusal` is the one legality test, read
both by the legal-move list and by a refused play. :meth:`CardExchange.play` and
:meth:`CardExchange.pass_turn` return the next exchange and the events the game must carry out,
in order: resolve a damage card on a side, cancel it, or reflect it on its caster's side. After
resolving a damage card, the game reports dead sorcerers with
:meth:`CardExchange.without_sorcerer`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from warhorn.games.dragonlords.content import SpellCard

Side = Literal["attacker", "defender"]
EventKind = Literal["resolve", "cancelled", "reflected"]

ANSWERS: frozenset[str] = frozenset({"reflection", "dispel_magic"})
EXCHANGE_TIMINGS: frozenset[str] = frozenset({"ranged", "own_turn", "defending", "any_turn"})


def other(side: Side) -> Side:
    return "defender" if side == "attacker" else "attacker"


@dataclass(frozen=True, slots=True)
class Event:
    """What the game carries out: ``resolve`` ``card`` against ``target`` (a damage card's victims,
    or, for other cards, the side that benefits), or note that it was ``cancelled``/``reflected``."""

    kind: EventKind
    card: str
    target: Side


@dataclass(frozen=True, slots=True)
class CardExchange:
    """The state of one round's exchange; build it with :meth:`start`."""

    attacker_sorcerer: bool
    defender_sorcerer: bool
    to_play: Side = "defender"
    damage_played: frozenset[Side] = frozenset()
    pending: tuple[Side, str] | None = None  # a damage card played by this side, not yet answered
    passes: int = 0
    finished: bool = False

    @classmethod
    def start(cls, *, attacker_sorcerer: bool, defender_sorcerer: bool) -> CardExchange:
        """A new round's exchange: the defender plays first; with no sorcerer anywhere it is over."""
        exchange = cls(attacker_sorcerer, defender_sorcerer)
        if not (attacker_sorcerer or defender_sorcerer):
            return replace(exchange, finished=True)
        return exchange if defender_sorcerer else replace(exchange, to_play="attacker")

    def has_sorcerer(self, side: Side) -> bool:
        return self.attacker_sorcerer if side == "attacker" else self.defender_sorcerer

    def refusal(self, side: Side, card: SpellCard) -> str | None:
        """Why ``side`` may not play ``card`` now (None: it may), naming the rule at fault."""
        if self.finished:
            return "DLX-CMB-05: the card exchange of this round is over"
        if side != self.to_play:
            return f"DLX-CMB-05: it is the {self.to_play}'s turn to play or pass"
        if not self.has_sorcerer(side):
            return "DLX-CMB-07: a card needs a sorcerer of its player in the space"
        if card.when not in EXCHANGE_TIMINGS:
            return f"DLX-CMB-05: {card.name} is played in another step of the combat round"
        if card.when == "own_turn" and side != "attacker":
            return f"DLX-CMB-06: {card.name} is played only in its player's own turn"
        if card.when == "defending" and side != "defender":
            return f"DLX-CMB-07: {card.name} is cast only by a defending sorcerer"
        if card.kind == "damage" and side in self.damage_played:
            return "DLX-CMB-05: one damage card per player per combat round"
        if card.id in ANSWERS and self.pending is None:
            return f"DLX-CMB-07: {card.name} answers a damage card, and none is waiting"
        return None

    def _settle_pending(self, side: Side, answer: str | None) -> tuple[Event, ...]:
        if self.pending is None:
            return ()
        caster, card = self.pending
        if answer == "dispel_magic":
            return (Event("cancelled", card, other(caster)),)
        if answer == "reflection":
            return (Event("reflected", card, other(caster)), Event("resolve", card, caster))
        return (Event("resolve", card, side),)

    def play(self, side: Side, card: SpellCard) -> tuple[CardExchange, tuple[Event, ...]]:
        """``side`` plays ``card``; raises ValueError with the rule when it may not."""
        reason = self.refusal(side, card)
        if reason is not None:
            raise ValueError(reason)
        answer = card.id if card.id in ANSWERS else None
        events = self._settle_pending(side, answer)
        pending: tuple[Side, str] | None = None
        damage_played = self.damage_played
        if card.kind == "damage":
            damage_played = damage_played | {side}
            if self.has_sorcerer(other(side)):
                pending = (side, card.id)
            else:  # nobody there can answer it: it takes effect at once
                events += (Event("resolve", card.id, other(side)),)
        elif answer is None:
            events += (Event("resolve", card.id, side),)
        nxt = replace(self, pending=pending, damage_played=damage_played, passes=0)
        return nxt._hand_over(side), events

    def pass_turn(self, side: Side) -> tuple[CardExchange, tuple[Event, ...]]:
        """``side`` passes; a waiting damage card against it is resolved; two passes end the exchange."""
        if self.finished or side != self.to_play:
            raise ValueError(f"DLX-CMB-05: it is not the {side}'s turn in the card exchange")
        events = self._settle_pending(side, None)
        nxt = replace(self, pending=None, passes=self.passes + 1)
        if nxt.passes >= 2 or not nxt.has_sorcerer(other(side)):
            return replace(nxt, finished=True), events
        return nxt._hand_over(side), events

    def without_sorcerer(self, side: Side) -> CardExchange:
        """DLX-CMB-07: ``side`` lost its last sorcerer in the space and plays no more cards."""
        if side == "attacker":
            nxt = replace(self, attacker_sorcerer=False)
        else:
            nxt = replace(self, defender_sorcerer=False)
        if not (nxt.attacker_sorcerer or nxt.defender_sorcerer):
            return replace(nxt, finished=True)
        if nxt.to_play == side:
            return replace(nxt, to_play=other(side))
        return nxt

    def _hand_over(self, side: Side) -> CardExchange:
        """The other side plays next if it can; a side alone with a sorcerer keeps playing."""
        return replace(self, to_play=other(side) if self.has_sorcerer(other(side)) else side)
