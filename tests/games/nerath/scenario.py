"""Helpers to build Nerath positions by hand, with scripted dice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.games.nerath.boards import small_board
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng, ScriptedRng
from warhorn.games.nerath.board import KINGDOM_IDS, NerathBoard
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.position import PHASE_IDS, position_from, to_position
from warhorn.games.nerath.state import MOVEMENT

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
    rng: Rng | None = None,
) -> NerathState:
    """A position with only the given pieces (kingdom, space, piece, count), at ``kingdom``'s ``phase``.

    Built through the public position builder (:func:`warhorn.games.nerath.position.position_from`),
    pieces numbered in listing order and cargo after them.

    ``cargo`` maps the n-th listed warship (0-based over warships in listing order) to pieces aboard.
    ``guardians`` places face-down guardian tiles on dungeons. ``rng``: a dice generator instead
    of the scripted ``rolls`` and ``choices``.
    """
    b = board or _BOARD
    spaces: dict[str, dict[str, Any]] = {}
    uid = 0
    ships: list[dict[str, Any]] = []
    for k, space, ptype, count in pieces:
        for _ in range(count):
            uid += 1
            piece = {"piece": ptype, "kingdom": KINGDOM_IDS[k], "uid": uid}
            spaces.setdefault(space, {}).setdefault("pieces", []).append(piece)
            if ptype == "warship":
                ships.append(piece)
    for n, aboard in (cargo or {}).items():
        for ptype in aboard:
            uid += 1
            ships[n].setdefault("cargo", []).append(
                {"piece": ptype, "kingdom": ships[n]["kingdom"], "uid": uid}
            )
    for space, k in (control or {}).items():
        spaces.setdefault(space, {})["control"] = KINGDOM_IDS[k] if k >= 0 else None
    for space, tiles in (guardians or {}).items():
        spaces.setdefault(space, {})["guardians"] = [{"tile": t} for t in tiles]
    data = {
        "options": options or {},
        "kingdom": KINGDOM_IDS[kingdom],
        "phase": PHASE_IDS[phase],
        "begin_turn": True,
        "spaces": spaces,
        # no cards and no other guardians than those given
        "kingdoms": {
            kid: {"event_deck": [], **({"gold": gold[k]} if gold and k in gold else {})}
            for k, kid in enumerate(KINGDOM_IDS)
        },
        "treasure_deck": [],
        "guardian_stack": [],
    }
    s = position_from(data, b, rng=rng if rng is not None else ScriptedRng(rolls, choices=choices))
    assert isinstance(s, NerathState)
    return s


def begin_turn(s: NerathState, phase: int = MOVEMENT, kingdom: int | None = None) -> NerathState:
    """``s`` with ``kingdom``'s turn (default: the current kingdom's) begun at ``phase``, rebuilt
    through the public position builder: ``to_position`` with ``begin_turn`` set, then
    ``position_from`` on the same board and dice generator (the scripted dice carry on)."""
    data = to_position(s)
    data["kingdom"] = KINGDOM_IDS[s.current_kingdom if kingdom is None else kingdom]
    data["phase"] = PHASE_IDS[phase]
    data["begin_turn"] = True
    data["turn"]["battles_todo"] = None  # the new phase finds its own battles
    t = position_from(data, s.board, rng=s.rng)
    assert isinstance(t, NerathState)
    return t


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
