"""What a Nerath player sees, as a fixed-size float32 vector (the ``observation`` of the plugin).

Read from the state directly — facts the view shows, nothing it hides — for
:mod:`warhorn.interop`'s environments, which would otherwise hash the JSON view
at every action. Kingdoms keep their order (Karkoth, Vailin, Iron Circle,
Nerath: they differ), with a flag for those the viewer plays. The layout is
fixed by the board and the content:

- per space of the board: who controls it (a kingdom, or nobody), and per
  kingdom and piece type the pieces there (carried pieces at their warship's
  space), then per kingdom the pieces that moved, are new, or took damage;
  face-down and face-up guardians, and the dice face-up guardians have left;
- per kingdom: played by the viewer, gold, victory points, cards in hand,
  treasures in hand, event cards left in its deck and discarded, treasures
  in play; and, for the viewer's kingdoms only, the event cards and
  treasures in hand (one slot per card id: the others' hands are hidden);
- the round, the kingdom whose turn it is, the phase, the battles still to
  fight, the space of the battle being fought, its round, and the treasure
  deck's and guardian stack's sizes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from warhorn.games.nerath.board import KINGDOM_IDS, LAND
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.state import Phase

_KINGDOMS = len(KINGDOM_IDS)


class NerathObservation:
    """The encoder of one board and content (see the module text)."""

    def __init__(self, first: NerathState) -> None:
        d = first.d
        self.spaces = len(first.board)
        self.land = [kind == LAND for kind in first.board.kind]
        self.pieces = {piece: i for i, piece in enumerate(PIECES)}
        cards: set[str] = set()
        for k in range(_KINGDOMS):
            cards.update(d.hands[k], d.event_decks[k].draw_pile, d.event_decks[k].discard_pile)
        self.cards = {card: i for i, card in enumerate(sorted(cards))}
        treasures = {*d.treasure_deck.draw_pile, *d.treasure_deck.discard_pile}
        for k in range(_KINGDOMS):
            treasures.update(d.treasure_hands[k], d.treasures_in_play[k])
        self.treasures = {treasure: i for i, treasure in enumerate(sorted(treasures))}
        # per space: control (kingdoms + nobody), pieces per kingdom and type, moved/new/damaged per
        # kingdom, guardians face down, face up, their dice
        self.unit_at = _KINGDOMS + 1
        self.flags_at = self.unit_at + _KINGDOMS * len(self.pieces)
        self.guardians_at = self.flags_at + 3 * _KINGDOMS
        self.space_width = self.guardians_at + 3
        self.at_kingdoms = self.spaces * self.space_width
        self.kingdom_width = 8 + len(self.cards) + len(self.treasures)
        self.at_globals = self.at_kingdoms + _KINGDOMS * self.kingdom_width
        # round, whose turn, phase, battles to fight, battle space, battle round, treasure deck, stack
        self._size = self.at_globals + 1 + _KINGDOMS + len(Phase) + 1 + (self.spaces + 1) + 1 + 2

    @property
    def size(self) -> int:
        return self._size

    def encode(self, state: NerathState, player: int) -> npt.NDArray[np.float32]:
        d = state.d
        where: list[int] = []
        values: list[float] = []
        width, pieces = self.space_width, self.pieces
        unit_at, flags_at, per_kingdom = self.unit_at, self.flags_at, len(pieces)
        for i, c in enumerate(d.control):
            if self.land[i]:
                where.append(i * width + (c if c >= 0 else _KINGDOMS))
                values.append(1.0)
        for u in d.units.values():
            at = u.space * width
            where.append(at + unit_at + u.kingdom * per_kingdom + pieces[u.ptype])
            values.append(1.0)
            if u.moved:
                where.append(at + flags_at + u.kingdom)
                values.append(1.0)
            if u.new:
                where.append(at + flags_at + _KINGDOMS + u.kingdom)
                values.append(1.0)
            if u.damage:
                where.append(at + flags_at + 2 * _KINGDOMS + u.kingdom)
                values.append(float(u.damage))
        for i, slots in d.guardians.items():
            at = i * width + self.guardians_at
            for g in slots:
                if g.face_up:
                    where += [at + 1, at + 2]
                    values += [1.0, float(len(g.dice))]
                else:
                    where.append(at)
                    values.append(1.0)
        mine = {k for k in range(_KINGDOMS) if state.player_of[k] == player}
        cards, treasures = self.cards, self.treasures
        for k in range(_KINGDOMS):
            at = self.at_kingdoms + k * self.kingdom_width
            deck = d.event_decks[k]
            where += [at, at + 1, at + 2, at + 3, at + 4, at + 5, at + 6, at + 7]
            values += [
                float(k in mine),
                float(d.gold[k]),
                float(d.vp[k]),
                float(len(d.hands[k])),
                float(len(d.treasure_hands[k])),
                float(len(deck.draw_pile)),
                float(len(deck.discard_pile)),
                float(len(d.treasures_in_play[k])),
            ]
            if k in mine:
                at += 8
                for card in d.hands[k]:
                    where.append(at + cards[card])
                    values.append(1.0)
                at += len(cards)
                for treasure in d.treasure_hands[k]:
                    where.append(at + treasures[treasure])
                    values.append(1.0)
        at = self.at_globals
        pos = d.pos
        where += [at, at + 1 + pos.turn, at + 1 + _KINGDOMS + int(pos.phase)]
        values += [float(pos.round), 1.0, 1.0]
        at += 1 + _KINGDOMS + len(Phase)
        where.append(at)
        values.append(float(len(d.battles_todo)))
        at += 1
        battle = d.battle
        where.append(at + (battle.space if battle is not None else self.spaces))
        values.append(1.0)
        at += self.spaces + 1
        where += [at, at + 1, at + 2]
        values += [
            float(battle.round) if battle is not None else 0.0,
            float(len(d.treasure_deck.draw_pile)),
            float(len(d.guardian_stack.draw_pile)),
        ]
        return np.bincount(where, weights=values, minlength=self._size).astype(np.float32)


def observation_encoder(first: NerathState) -> NerathObservation:
    """The plugin's ``observation`` factory."""
    return NerathObservation(first)
