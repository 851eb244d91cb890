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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from warhorn.games.smallworld.board import load_board_set
from warhorn.games.smallworld.content import DATA_DIR
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


class SmallWorldObservation:
    """The encoder of one board, content and number of players (see the module text)."""

    def __init__(self, first: SmallWorldState) -> None:
        self.players = first.num_players
        regions = set(first.index.order)
        if first.board_ref is not None:
            folder = None if first.content.folder == DATA_DIR else first.content.folder
            board_set = load_board_set(first.board_ref["set"], folder)
            drawable = (  # an islands set draws among all its islands; a map set has one map per count
                board_set.islands
                if board_set.set.kind == "islands"
                else board_set.layout(first.num_players).islands
            )
            for island in drawable:
                regions.update(region.id for region in board_set.islands[island].regions)
        self.regions = tuple(sorted(regions))
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

    @property
    def size(self) -> int:
        return self._size

    def _tribe(self, tribe: Tribe | None, at: int, where: list[int], values: list[float]) -> None:
        if tribe is None:
            return
        race = self.races.get(tribe.race)
        if race is not None:
            where.append(at + race)
            values.append(1.0)
        power = None if tribe.power is None else self.powers.get(tribe.power)
        if power is not None:
            where.append(at + len(self.races) + power)
            values.append(1.0)

    def encode(self, state: SmallWorldState, player: int) -> npt.NDArray[np.float32]:
        n = self.players
        where: list[int] = []
        values: list[float] = []
        races, markers = self.races, self.markers
        flags_at = (n + 1) + len(races) + 2
        markers_at = flags_at + len(_REGION_FLAGS)
        tail_at = markers_at + len(markers)
        areas = state.areas
        on_board = [0] * n
        slots, width = self.slots, self.region_width
        for rid, a in areas.items():  # the regions of the islands drawn this game
            at = slots[rid] * width
            if a.owner is not None:
                where.append(at + (a.owner - player) % n)
                values.append(1.0)
                on_board[a.owner] += a.tokens
            elif a.race == MURLOCS:
                where.append(at + n)
                values.append(1.0)
            race = None if a.race is None else races.get(a.race)
            if race is not None:
                where.append(at + n + 1 + race)
                values.append(1.0)
            if a.tokens:
                where.append(at + flags_at - 2)
                values.append(float(a.tokens))
            if a.beasts:
                where.append(at + flags_at - 1)
                values.append(float(a.beasts))
            for f, name in enumerate(_REGION_FLAGS):
                if getattr(a, name):
                    where.append(at + flags_at + f)
                    values.append(1.0)
            for marker in a.markers:
                m = markers.get(marker)
                if m is not None:
                    where.append(at + markers_at + m)
                    values.append(1.0)
            if a.hidden_marker is not None:
                where.append(at + tail_at)
                values.append(1.0)
            if a.bomb_by is not None:
                where.append(at + tail_at + 1)
                values.append(1.0)
                if a.bomb_by == player:
                    where.append(at + tail_at + 2)
                    values.append(1.0)
        tribes = len(races) + len(self.powers)
        for p, seat in enumerate(state.players):
            at = self.at_seats + ((p - player) % n) * self.seat_width
            self._tribe(seat.active, at, where, values)
            self._tribe(seat.declined, at + tribes, where, values)
            at += 2 * tribes
            if seat.active is not None and seat.active.form in _FORMS:
                where.append(at + _FORMS.index(seat.active.form))
                values.append(1.0)
            at += len(_FORMS)
            for c, name in enumerate(_SEAT_COUNTS):
                where.append(at + c)
                values.append(float(getattr(seat, name)))
            at += len(_SEAT_COUNTS)
            where += [at, at + 1, at + 2, at + 3]
            values += [
                float(on_board[p]),
                float(seat.hand_champion),
                float(seat.returning_champion),
                float(seat.harmony_from is not None),
            ]
            if p == player:
                where.append(at + 4)
                values.append(float(seat.coins))
        for c, (race_id, power_id, coins) in enumerate(state.combos()):
            at = self.at_combos + c * self.combo_width
            self._tribe(Tribe(race_id, power_id), at, where, values)
            where.append(at + self.combo_width - 1)
            values.append(float(coins))
        at = self.at_globals
        where += [at, at + 1, at + 2 + (state.current - player) % n]
        values += [float(state.round), float(state.rounds), 1.0]
        at += 2 + n
        where.append(at + self.stages[state.stage])
        values.append(1.0)
        at += len(self.stages)
        where.append(at)
        values.append(float(len(state.bombs)))
        at += 1
        for power in state.powers_discard:
            p_index = self.powers.get(power)
            if p_index is not None:
                where.append(at + p_index)
                values.append(1.0)
        at += len(self.powers)
        turn = state.turn
        where += [at, at + 1, at + 2, at + 3]
        values += [
            float(turn.conquests),
            float(turn.intimidations),
            float(turn.portals),
            float(turn.objectives_left),
        ]
        return _vector(self._size, where, values)


def _vector(size: int, where: Sequence[int], values: Sequence[float]) -> npt.NDArray[np.float32]:
    return np.bincount(where, weights=values, minlength=size).astype(np.float32)


def observation_encoder(first: SmallWorldState) -> SmallWorldObservation:
    """The plugin's ``observation`` factory."""
    return SmallWorldObservation(first)
