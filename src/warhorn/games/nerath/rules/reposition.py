"""Phase 4: heroes leave looted dungeons, flyers move again, stranded pieces are lost (NER-REP-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.events import Event
from warhorn.games.nerath.board import DUNGEON, SEA
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import movement
from warhorn.games.nerath.state import Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


def must_move(s: NerathState, u: Unit) -> bool:
    """Heroes in a dungeon (NER-REP-02) and non-hovering flyers off friendly territory (NER-REP-03)."""
    if u.carrier >= 0:
        return False
    kind = s.board.kind[u.space]
    if kind == DUNGEON:
        return True
    if PIECES[u.ptype].mobility != Mobility.FLYING:
        return False
    if kind == SEA:
        return u.ptype != "elemental" or not s.is_friendly(u.space, u.kingdom)
    return not s.is_friendly(u.space, u.kingdom)


def start(s: NerathState, k: int) -> list[Event]:
    """Flyers and heroes get a fresh move for this phase."""
    for u in list(s.d.units.values()):
        if u.kingdom == k and u.moved and u.carrier < 0:
            s.update(u, moved=0)
    return []


def blocking(s: NerathState, k: int) -> bool:
    """Whether a piece that must move still has a legal way to do so (then the phase may not end)."""
    for u in s.d.units.values():
        if u.kingdom != k or not must_move(s, u) or u.moved:
            continue
        if movement.destinations(s, k, u.ptype, u.space):
            return True
        if s.board.kind[u.space] == DUNGEON and any(
            lo.space == s.board.sid(u.space) and lo.piece == u.ptype for lo in movement.legal_loads(s, k)
        ):
            return True
    return False


def finish(s: NerathState, k: int) -> list[Event]:
    """NER-REP-01: pieces that had to move and could not are destroyed."""
    events = []
    for u in sorted(s.d.units.values(), key=lambda x: x.uid):
        if u.kingdom == k and u.uid in s.d.units and must_move(s, u):
            s.remove(u.uid)
            events.append(
                Event(
                    "destroyed",
                    {"kingdom": k, "pieces": [u.ptype], "space": s.board.sid(u.space)},
                    f"{s.kingdom_name(k)}'s {u.ptype} on {s.board.sid(u.space)} "
                    "has nowhere to go and is lost",
                )
            )
    return events
