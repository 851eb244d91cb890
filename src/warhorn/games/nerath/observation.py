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

from itertools import compress
from operator import is_not

import numpy as np
import numpy.typing as npt

from warhorn.games.nerath.board import KINGDOM_IDS, LAND
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.state import Phase, Unit

_KINGDOMS = len(KINGDOM_IDS)


class NerathObservation:
    """The encoder of one board and content (see the module text)."""

    def __init__(self, first: NerathState) -> None:
        d = first.d
        self.spaces = len(first.board)
        self.land_spaces = np.array(
            [i for i, kind in enumerate(first.board.kind) if kind == LAND], dtype=np.intp
        )
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
        #: The control the last vector showed, and its slots.
        self._last_control: tuple[int, ...] | None = None
        self._control_slots: list[int] = []
        #: The pieces the last vector counted (by number), and their part of it (see _pieces_part).
        self._last_units: dict[int, Unit] | None = None
        self._last_part = np.zeros(self._size, dtype=np.float64)

    @property
    def size(self) -> int:
        return self._size

    def encode(self, state: NerathState, player: int) -> npt.NDArray[np.float32]:
        d = state.d
        where: list[int] = []
        values: list[float] = []
        width = self.space_width
        control = tuple(d.control)
        if control != self._last_control:  # control changes seldom: its slots are kept
            land = np.asarray(control)[self.land_spaces]
            self._control_slots = (self.land_spaces * width + np.where(land >= 0, land, _KINGDOMS)).tolist()
            self._last_control = control
        where += self._control_slots
        values += [1.0] * len(self._control_slots)
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
        out = self._pieces_part(d.units) + np.bincount(where, weights=values, minlength=self._size)
        return out.astype(np.float32)

    def _unit_slots(self, u: Unit) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Where one piece counts, and how much: its kind at its space, and its moved, new and damage."""
        at = u.space * self.space_width
        flags = at + self.flags_at
        where = [at + self.unit_at + u.kingdom * len(self.pieces) + self.pieces[u.ptype]]
        values = [1.0]
        if u.moved:
            where.append(flags + u.kingdom)
            values.append(1.0)
        if u.new:
            where.append(flags + _KINGDOMS + u.kingdom)
            values.append(1.0)
        if u.damage:
            where.append(flags + 2 * _KINGDOMS + u.kingdom)
            values.append(float(u.damage))
        return tuple(where), tuple(values)

    def _pieces_part(self, units: dict[int, Unit]) -> npt.NDArray[np.float64]:
        """The pieces' part of the vector. Pieces are frozen values that states share until one
        changes, so the part is the last one computed, less the pieces gone or replaced, plus the
        new ones (found by identity; exact: the part holds small whole numbers)."""
        last = self._last_units
        if last is None or len(units) < len(last) // 2:
            part = np.zeros(self._size, dtype=np.float64)
            changed_in, changed_out = list(units.values()), []
        else:
            part = self._last_part  # updated in place: encode returns a new array made from it
            # the pieces not the very objects last counted (compared in C: most are shared)
            changed_in = list(compress(units.values(), map(is_not, map(last.get, units), units.values())))
            changed_out = [last[uid] for uid in last.keys() - units.keys()]
            changed_out += [last[u.uid] for u in changed_in if u.uid in last]
        self._last_units = None  # until the part is whole again (a failure below starts afresh next time)
        for sign, group in ((1.0, changed_in), (-1.0, changed_out)):
            for u in group:
                where, values = self._unit_slots(u)
                for slot, value in zip(where, values, strict=True):
                    part[slot] += sign * value
        self._last_units = dict(units)  # a copy: what the part was computed from
        self._last_part = part
        return part


def observation_encoder(first: NerathState) -> NerathObservation:
    """The plugin's ``observation`` factory."""
    return NerathObservation(first)
