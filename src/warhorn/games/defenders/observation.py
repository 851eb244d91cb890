"""What a Defenders player sees, as a fixed-size float32 vector (the ``observation`` of the plugin).

Read from the state directly — facts the view shows, nothing it hides (the
game is cooperative: hands and quests are open; only the order of the three
decks is hidden) — for :mod:`warhorn.interop`'s environments, which would
otherwise hash the JSON view at every action. The layout is fixed by the
board:

- per location: minions of each colour, taint crystals, a magic gate, the
  generals there (by colour) and the heroes there (by seat);
- per general (by colour): wounds, defeated;
- per seat: played by the viewer, whose turn it is, the hero (one slot per
  hero), life, maximum life, actions left, the hero cards in hand (one slot
  per card), the quest (one slot per quest), its progress, the minions counted
  for it (by colour), rewards held and generals slain;
- the war status, the turn, the phase, the magic gates and taint crystals
  left, the minions left in supply (by colour), each deck's size and discard
  pile's size, the Darkness Spreads cards known on top (how many), and
  whether a battle, a card window, a night or a pick is under way.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt

from warhorn.games.defenders.records import Phase
from warhorn.games.defenders.state import DefendersState

_COLOURS = 4


class DefendersObservation:
    """The encoder of one board and number of players (see the module text)."""

    def __init__(self, first: DefendersState) -> None:
        board = first.board
        self.players = len(first.slots)
        self.locations = len(board.location_names)
        self.heroes = {hero.id: i for i, hero in enumerate(board.heroes)}
        self.cards = {card: i for i, card in enumerate(sorted(board.cards))}
        self.quests = {quest.id: i for i, quest in enumerate(board.quests)}
        self.phases = {phase: i for i, phase in enumerate(Phase)}
        n = self.players
        # per location: minions, taint, gate, generals, heroes
        self.location_width = _COLOURS + 2 + _COLOURS + n
        self.at_generals = self.locations * self.location_width
        self.at_seats = self.at_generals + 2 * _COLOURS
        self.seat_width = 2 + len(self.heroes) + 3 + len(self.cards) + len(self.quests) + 1 + _COLOURS + 2
        self.at_globals = self.at_seats + n * self.seat_width
        # war, turn, phase, gates left, crystals left, supply, 3 decks x (draw, discard), known top, 4 flags
        self._size = self.at_globals + 2 + len(self.phases) + 2 + _COLOURS + 6 + 1 + 4
        #: The lists the last board part was read from (minions, taint, gates), and that part.
        self._last_board: tuple[tuple[Any, ...], tuple[list[int], list[float]]] | None = None

    @property
    def size(self) -> int:
        return self._size

    def _board_part(self, state: DefendersState) -> tuple[list[int], list[float]]:
        """The minions, taint and gates per location. The state changes these lists only by copying
        them first (copy on write: ``own_minions`` …), so while a state holds the very lists the
        last part was read from, the part is the same."""
        lists = (state.minions, state.taint, state.gates)
        last = self._last_board
        if last is not None and all(map(operator.is_, lists, last[0])):
            return last[1]
        where: list[int] = []
        values: list[float] = []
        width = self.location_width
        for i, counts in enumerate(state.minions):
            at = i * width
            for c, count in enumerate(counts):
                if count:
                    where.append(at + c)
                    values.append(float(count))
        for i, taint in enumerate(state.taint):
            if taint:
                where.append(i * width + _COLOURS)
                values.append(float(taint))
        for i, gate in enumerate(state.gates):
            if gate:
                where.append(i * width + _COLOURS + 1)
                values.append(1.0)
        self._last_board = (lists, (where, values))  # the lists kept: their ids stay theirs
        return where, values

    def encode(self, state: DefendersState, player: int) -> npt.NDArray[np.float32]:
        board_where, board_values = self._board_part(state)
        where = list(board_where)
        values = list(board_values)
        width = self.location_width
        for c, general in enumerate(state.generals):
            if general is None:
                continue
            if general.loc >= 0:
                where.append(general.loc * width + _COLOURS + 2 + c)
                values.append(1.0)
            where += [self.at_generals + 2 * c, self.at_generals + 2 * c + 1]
            values += [float(general.wounds), float(general.loc < 0)]
        cards, quests = self.cards, self.quests
        for s, slot in enumerate(state.slots):
            if slot.loc >= 0:
                where.append(slot.loc * width + 2 * _COLOURS + 2 + s)
                values.append(1.0)
            at = self.at_seats + s * self.seat_width
            where += [at, at + 1]
            values += [float(slot.player == player), float(s == state.current)]
            at += 2
            hero = None if slot.hero is None else self.heroes.get(slot.hero)
            if hero is not None:
                where.append(at + hero)
                values.append(1.0)
            at += len(self.heroes)
            where += [at, at + 1, at + 2]
            values += [float(slot.life), float(slot.max_life), float(slot.actions)]
            at += 3
            for card in slot.hand:
                index = cards.get(card)
                if index is not None:
                    where.append(at + index)
                    values.append(1.0)
            at += len(cards)
            quest = None if slot.quest is None else quests.get(slot.quest)
            if quest is not None:
                where.append(at + quest)
                values.append(1.0)
            at += len(quests)
            where.append(at)
            values.append(float(len(slot.quest_progress)))
            at += 1
            for c, count in enumerate(slot.quest_minions):
                where.append(at + c)
                values.append(float(count))
            at += _COLOURS
            where += [at, at + 1]
            values += [float(len(slot.rewards)), float(len(slot.slain))]
        at = self.at_globals
        where += [at, at + 1, at + 2 + self.phases[Phase(state.phase)]]
        values += [float(state.war), float(state.turn_no), 1.0]
        at += 2 + len(self.phases)
        where += [at, at + 1]
        values += [float(state.gate_supply), float(state.crystals_left)]
        at += 2
        for c, count in enumerate(state.supply):
            where.append(at + c)
            values.append(float(count))
        at += _COLOURS
        for deck in (state.hero_deck, state.ds_deck, state.quest_deck):
            where += [at, at + 1]
            values += [float(len(deck.draw_pile)), float(len(deck.discard_pile))]
            at += 2
        where += [at, at + 1, at + 2, at + 3, at + 4]
        values += [
            float(state.ds_known_top),
            float(state.battle is not None),
            float(state.window is not None),
            float(state.night is not None),
            float(state.picking is not None),
        ]
        return np.bincount(where, weights=values, minlength=self._size).astype(np.float32)


def observation_encoder(first: DefendersState) -> DefendersObservation:
    """The plugin's ``observation`` factory."""
    return DefendersObservation(first)
