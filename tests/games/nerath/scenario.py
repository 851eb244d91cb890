"""Helpers to build Nerath positions by hand, with scripted dice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.games.nerath.boards import small_board
from warhorn.engine.events import Event
from warhorn.engine.rng import ScriptedRng
from warhorn.games.nerath.board import KINGDOM_IDS, NerathBoard
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.state import MOVEMENT, GuardianSlot

K, V, IC, N = 0, 1, 2, 3  # Karkoth, Vailin, Iron Circle, Nerath

_BOARD = small_board()


def position(
    pieces: Iterable[tuple[int, str, str, int]] = (),
    *,
    rolls: Iterable[int] = (),
    choices: Iterable[int] = (),
    options: dict[str, Any] | None = None,
    kingdom: int = K,
    phase: int = MOVEMENT,
    control: dict[str, int] | None = None,
    gold: dict[int, int] | None = None,
    guardians: dict[str, list[str]] | None = None,
    board: NerathBoard | None = None,
    cargo: dict[int, list[str]] | None = None,
) -> NerathState:
    """A position with only the given pieces (kingdom, space, piece, count), at ``kingdom``'s ``phase``.

    ``cargo`` maps the n-th listed warship (0-based over warships in listing order) to pieces aboard.
    ``guardians`` places face-down guardian tiles on dungeons.
    """
    b = board or _BOARD
    s = NerathState.empty(b, options, rng=ScriptedRng(rolls, choices=choices))
    ships = []
    for k, space, ptype, count in pieces:
        for _ in range(count):
            u = s.add_unit(k, ptype, b.idx(space))
            if ptype == "warship":
                ships.append(u)
    for n, aboard in (cargo or {}).items():
        ship = ships[n]
        for ptype in aboard:
            s.add_unit(ship.kingdom, ptype, ship.space, carrier=ship.uid)
    for space, k in (control or {}).items():
        s.d.control[b.idx(space)] = k
    for k, g in (gold or {}).items():
        s.d.gold[k] = g
    for space, tiles in (guardians or {}).items():
        s.d.guardians[b.idx(space)] = tuple(GuardianSlot(t, b.guardian(t).dice) for t in tiles)
    s.begin_turn_for_test(phase, kingdom)
    return s


def play(s: NerathState, *texts: str) -> tuple[NerathState, list[Event]]:
    """Apply actions given as text; return the final state and every event."""
    events: list[Event] = []
    for text in texts:
        s, ev = s.apply(s.parse(text))
        events += ev
    return s, events


def pieces_at(s: NerathState, space: str) -> list[tuple[str, str]]:
    """Sorted (kingdom id, piece) pairs on a space, carried pieces included."""
    out = []
    for u in s.units_at(s.board.idx(space)):
        out.append((KINGDOM_IDS[u.kingdom], u.ptype))
        out += [(KINGDOM_IDS[c.kingdom], c.ptype) for c in s.cargo_of(u.uid)]
    return sorted(out)


def notations(s: NerathState) -> list[str]:
    return [a.notation() for a in s.legal_actions()]


def ship_uid(s: NerathState, space: str, k: int = K) -> int:
    return next(u.uid for u in s.units_at(s.board.idx(space)) if u.ptype == "warship" and u.kingdom == k)
