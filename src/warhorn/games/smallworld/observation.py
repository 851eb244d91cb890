"""What a Small World player sees, as a fixed-size float32 vector (the ``observation`` of the plugin).

Read from the state directly — the same facts as ``view(player)``, nothing it
hides — for :mod:`warhorn.interop`'s environments, which would otherwise hash
the JSON view at every action. Seats are numbered from the viewer (0 = the
viewer, 1 = the next seat …), so a policy learns one seat's play for all.
The layout is fixed by the board set, the content and the number of players:

- per region the game may have (for an islands set every island it may draw,
  as the islands in play change with the seed; for a map set the map of that
  many players), in the order of their ids: the owner (a seat, or Murlocs), the race
  (one-hot over the content's races), declined, tokens, beasts, champion,
  mountain, fort, wisp wall, watchtower, objective, face-up markers (one slot
  per artifact or place), a face-down marker lies there (not which), a bomb
  lies there, laid by the viewer;
- per seat: active and declined race and power (one-hot), the Worgen form,
  tokens in hand, returning and on the board, beasts and champion in hand or
  returning, declined tokens returning, holds a Harmony token; coins only for
  the viewer (the others' totals are hidden, SWW-FLW-02);
- the visible combos: race, power, coins on it;
- the round and the rounds, the current seat, the stage, the bombs left in
  the stack, the discarded powers, the conquests, intimidations, portals and
  objectives left of the turn (the seat a decision asks is the viewer: an
  environment shows a player its observation when it is asked).

Encoding is incremental: the vector is made of parts (each region; each seat;
the combos; the globals), each a function of a few facts of the state, and an
encoder keeps each viewer's last vector with the facts each part showed, so
only the parts whose facts changed are written again (each part's slots are
written by it alone, so the vector is the one a fresh encoding would give).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import compress
from operator import ne
from typing import Any

import numpy as np
import numpy.typing as npt

from warhorn.games.smallworld.action_domains import regions_in_any_deal
from warhorn.games.smallworld.state import MURLOCS, SmallWorldState, Stage, Tribe

_REGION_FLAGS = ("declined", "champion", "mountain", "fort", "wisp_wall", "watchtower", "objective")
_SEAT_COUNTS = (
    "hand",
    "returning",
    "hand_beasts",
    "returning_beasts",
    "returning_declined",
)
_FORMS = ("human", "worgen")
#: What of a region its part reads.
_AREA_FACTS = operator.attrgetter(
    "owner", "race", "tokens", "beasts", *_REGION_FLAGS, "markers", "hidden_marker", "bomb_by"
)
#: What of a seat its part reads (with its tokens on the board, counted from the regions).
_SEAT_FACTS = operator.attrgetter(
    "active", "declined", *_SEAT_COUNTS, "hand_champion", "returning_champion", "harmony_from", "coins"
)
#: A part of the vector: its slots and their values.
Part = tuple[list[int], list[float]]


class _LastVector:
    """A viewer's last vector: the regions it was of, and by part name the facts it shows and the
    slots it wrote."""

    __slots__ = ("area_facts", "facts", "on_board", "rids", "slots", "vector")

    def __init__(self, rids: list[str], players: int, size: int) -> None:
        #: The regions in play (in the state's order), the facts of each shown, each seat's tokens
        #: on them.
        self.rids = rids
        self.area_facts: Sequence[tuple[Any, ...] | None] = [None] * len(rids)
        self.on_board = [0] * players
        self.facts: dict[object, tuple[object, ...]] = {}
        self.slots: dict[object, list[int]] = {}
        self.vector = np.zeros(size, dtype=np.float32)


class SmallWorldObservation:
    """The encoder of one board, content and number of players (see the module text)."""

    def __init__(self, first: SmallWorldState) -> None:
        self.players = first.num_players
        self.regions = regions_in_any_deal(first)
        self.slots = {rid: r for r, rid in enumerate(self.regions)}
        self.races = {race: i for i, race in enumerate(sorted(first.content.races))}
        self.powers = {power: i for i, power in enumerate(sorted(first.content.powers))}
        markers = sorted({*first.content.artifacts, *first.content.places})
        self.markers = {marker: i for i, marker in enumerate(markers)}
        self.stages = {stage: i for i, stage in enumerate(Stage)}
        n, races, powers = self.players, len(self.races), len(self.powers)
        # per region: owner (n seats + Murlocs), race, tokens, beasts, flags, markers, face down, bomb x2
        self.region_width = (n + 1) + races + 2 + len(_REGION_FLAGS) + len(self.markers) + 3
        # per seat: active and declined race/power, form, counts, on board, champion x2, harmony, coins
        self.seat_width = 2 * (races + powers) + len(_FORMS) + len(_SEAT_COUNTS) + 5
        self.combos = first.visible_combos
        self.combo_width = races + powers + 1
        self.at_seats = len(self.regions) * self.region_width
        self.at_combos = self.at_seats + n * self.seat_width
        self.at_globals = self.at_combos + self.combos * self.combo_width
        # round, rounds, current seat, stage, bombs left, powers discarded, turn counts (4)
        self._size = self.at_globals + 2 + n + len(self.stages) + 1 + powers + 4
        #: Per viewer, the last vector encoded and what it shows.
        self._last: dict[int, _LastVector] = {}

    @property
    def size(self) -> int:
        return self._size

    def encode(self, state: SmallWorldState, player: int) -> npt.NDArray[np.float32]:
        """What ``player`` sees in ``state`` (a new array; see the module text)."""
        rids = list(state.areas)  # the regions of the islands drawn this game
        last = self._last.get(player)
        if last is None or last.rids != rids:  # another deal: other islands
            last = self._last[player] = _LastVector(rids, self.players, self._size)
        try:
            self._update(last, state, player)
        except BaseException:
            del self._last[player]  # half updated: the next call starts afresh
            raise
        return last.vector.copy()

    def _update(self, last: _LastVector, state: SmallWorldState, player: int) -> None:
        """Bring ``last`` to what ``player`` sees in ``state``."""
        areas, rids = state.areas, last.rids
        # the regions whose facts changed (compared in C: most stay the same from one action to the next)
        facts_now = list(map(_AREA_FACTS, areas.values()))
        on_board = last.on_board
        for i in compress(range(len(rids)), map(ne, facts_now, last.area_facts)):
            before, facts = last.area_facts[i], facts_now[i]
            if before is not None and before[0] is not None:
                on_board[before[0]] -= before[2]  # owner, tokens
            if facts[0] is not None:
                on_board[facts[0]] += facts[2]
            self._show(last, rids[i], facts, player, self._area_part)
        last.area_facts = facts_now
        for p, seat in enumerate(state.players):
            self._show(last, p, (*_SEAT_FACTS(seat), on_board[p]), player, self._seat_part)
        self._show(last, "combos", tuple(state.combos()), player, self._combos_part)
        turn = state.turn
        globals_facts = (
            state.round,
            state.rounds,
            state.current,
            state.stage,
            len(state.bombs),
            tuple(state.powers_discard),
            turn.conquests,
            turn.intimidations,
            turn.portals,
            turn.objectives_left,
        )
        self._show(last, "globals", globals_facts, player, self._globals_part)

    def _show(
        self,
        last: _LastVector,
        name: object,
        facts: tuple[object, ...],
        player: int,
        build: Callable[[Any, tuple[Any, ...], int], Part],
    ) -> None:
        """Write part ``name`` of ``last``'s vector for ``facts``, unless it already shows them."""
        if last.facts.get(name) == facts:
            return
        vector = last.vector
        for slot in last.slots.get(name, ()):
            vector[slot] = 0.0
        where, values = build(name, facts, player)
        for slot, value in zip(where, values, strict=True):  # a few numbers: cheaper one by one
            vector[slot] = value
        last.facts[name] = facts
        last.slots[name] = where

    def _tribe(self, tribe: Tribe | None, at: int, where: list[int], values: list[float]) -> None:
        if tribe is None:
            return
        self._race_power(tribe.race, tribe.power, at, where, values)

    def _race_power(
        self, race_id: str, power_id: str | None, at: int, where: list[int], values: list[float]
    ) -> None:
        race = self.races.get(race_id)
        if race is not None:
            where.append(at + race)
            values.append(1.0)
        power = None if power_id is None else self.powers.get(power_id)
        if power is not None:
            where.append(at + len(self.races) + power)
            values.append(1.0)

    def _area_part(self, rid: str, facts: tuple[Any, ...], player: int) -> Part:
        """A region's slots and values (``facts``: :data:`_AREA_FACTS` of its area)."""
        n = self.players
        races, markers = self.races, self.markers
        flags_at = (n + 1) + len(races) + 2
        markers_at = flags_at + len(_REGION_FLAGS)
        tail_at = markers_at + len(markers)
        owner, race_id, tokens, beasts = facts[:4]
        flags = facts[4 : 4 + len(_REGION_FLAGS)]
        on_it, hidden_marker, bomb_by = facts[4 + len(_REGION_FLAGS) :]
        where: list[int] = []
        values: list[float] = []
        at = self.slots[rid] * self.region_width
        if owner is not None:
            where.append(at + (owner - player) % n)
            values.append(1.0)
        elif race_id == MURLOCS:
            where.append(at + n)
            values.append(1.0)
        race = None if race_id is None else races.get(race_id)
        if race is not None:
            where.append(at + n + 1 + race)
            values.append(1.0)
        if tokens:
            where.append(at + flags_at - 2)
            values.append(float(tokens))
        if beasts:
            where.append(at + flags_at - 1)
            values.append(float(beasts))
        for f, flag in enumerate(flags):
            if flag:
                where.append(at + flags_at + f)
                values.append(1.0)
        for marker in on_it:
            m = markers.get(marker)
            if m is not None:
                where.append(at + markers_at + m)
                values.append(1.0)
        if hidden_marker is not None:
            where.append(at + tail_at)
            values.append(1.0)
        if bomb_by is not None:
            where.append(at + tail_at + 1)
            values.append(1.0)
            if bomb_by == player:
                where.append(at + tail_at + 2)
                values.append(1.0)
        return where, values

    def _seat_part(self, p: int, facts: tuple[Any, ...], player: int) -> Part:
        """Seat ``p``'s slots and values (``facts``: :data:`_SEAT_FACTS` of it, then its tokens on
        the board)."""
        active, declined = facts[0], facts[1]
        counts = facts[2 : 2 + len(_SEAT_COUNTS)]
        hand_champion, returning_champion, harmony_from, coins, on_board = facts[2 + len(_SEAT_COUNTS) :]
        where: list[int] = []
        values: list[float] = []
        tribes = len(self.races) + len(self.powers)
        at = self.at_seats + ((p - player) % self.players) * self.seat_width
        self._tribe(active, at, where, values)
        self._tribe(declined, at + tribes, where, values)
        at += 2 * tribes
        if active is not None and active.form in _FORMS:
            where.append(at + _FORMS.index(active.form))
            values.append(1.0)
        at += len(_FORMS)
        where += range(at, at + len(_SEAT_COUNTS))
        values += [float(count) for count in counts]
        at += len(_SEAT_COUNTS)
        where += [at, at + 1, at + 2, at + 3]
        values += [
            float(on_board),
            float(hand_champion),
            float(returning_champion),
            float(harmony_from is not None),
        ]
        if p == player:  # coins: the viewer's own only
            where.append(at + 4)
            values.append(float(coins))
        return where, values

    def _combos_part(self, name: object, combos: tuple[Any, ...], player: int) -> Part:
        """The visible combos' slots and values (``combos``: race, power and coins of each)."""
        where: list[int] = []
        values: list[float] = []
        for c, (race_id, power_id, coins) in enumerate(combos):
            at = self.at_combos + c * self.combo_width
            self._race_power(race_id, power_id, at, where, values)
            where.append(at + self.combo_width - 1)
            values.append(float(coins))
        return where, values

    def _globals_part(self, name: object, facts: tuple[Any, ...], player: int) -> Part:
        """The round, whose turn, the stage, the bombs and powers left, the turn's counts."""
        round_, rounds, current, stage, bombs, discarded = facts[:6]
        turn_counts = facts[6:]
        n = self.players
        at = self.at_globals
        where = [at, at + 1, at + 2 + (current - player) % n]
        values = [float(round_), float(rounds), 1.0]
        at += 2 + n
        where.append(at + self.stages[stage])
        values.append(1.0)
        at += len(self.stages)
        where.append(at)
        values.append(float(bombs))
        at += 1
        for power in discarded:
            p_index = self.powers.get(power)
            if p_index is not None:
                where.append(at + p_index)
                values.append(1.0)
        at += len(self.powers)
        where += [at, at + 1, at + 2, at + 3]
        values += [float(count) for count in turn_counts]
        return where, values


def observation_encoder(first: SmallWorldState) -> SmallWorldObservation:
    """The plugin's ``observation`` factory."""
    return SmallWorldObservation(first)
