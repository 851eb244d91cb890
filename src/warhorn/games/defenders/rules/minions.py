"""Minions on the board: placement, overruns, taint crystals and the losses they cause.

DEF-OVR-01..07, DEF-END-02 (supply, crystals, Monarch City), DEF-CRD-03 (quest minions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.games.defenders.board import COLOURS, MINION_NAMES, RED
from warhorn.games.defenders.rules import quests, victory

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState


def article(noun: str) -> str:
    """``a demon``, ``an orc``, ``an undead``."""
    return f"{'An' if noun[0] in 'aeiou' else 'A'} {noun}"


#: Machine-readable codes of the ways a game ends (``DefendersState.ending``, the results' reason prefix).


def can_be_tainted(state: DefendersState, loc: int) -> bool:
    """Whether ``loc`` can be overrun or tainted: Monarch City (DEF-OVR-05) and the Inns
    (DEF-OVR-07) never are; every other location can."""
    b = state.board
    return loc != b.monarch and not b.locations[loc].inn


def place_crystal(state: DefendersState, loc: int) -> None:
    """Put one taint crystal on ``loc``; the last of the twelve loses the game (DEF-OVR-06).

    Monarch City and the Inns never take a crystal (DEF-OVR-05, DEF-OVR-07), whatever puts it there.
    """
    if not can_be_tainted(state, loc) or state.outcome is not None:
        return
    b = state.board
    if state.crystals_left <= 0:
        return
    state.crystals_left -= 1
    state.own_taint()[loc] += 1
    state.log(
        "taint",
        f"A taint crystal falls on {b.location_names[loc]} ({state.crystals_left} left)",
        location=b.location_names[loc],
        crystals_left=state.crystals_left,
    )
    if state.crystals_left == 0:
        victory.lose(state, "the last taint crystal was placed", "DEF-OVR-06", "taint_crystals")


def take_from_supply(state: DefendersState, colour: int, *, night: bool) -> bool:
    """Take one minion of ``colour`` from the supply; False (and the game lost) if none is left.

    At night, minions held on quest cards go back to the supply first (DEF-CRD-03), one at a
    time from the quest card holding the most of them (the English original; on a tie, the
    first such hero in turn order).
    """
    if state.supply[colour] == 0 and night:
        holders = [s for s in state.slots if s.quest_minions[colour] > 0]
        if holders:
            slot = max(holders, key=lambda s: sum(s.quest_minions))
            slot.quest_minions[colour] -= 1
            state.supply[colour] += 1
            state.log(
                "quest_minion_returned",
                f"{article(MINION_NAMES[colour])} leaves {slot.hero}'s quest card for the supply",
                hero=slot.hero,
                colour=COLOURS[colour],
            )
    if state.supply[colour] == 0:
        victory.lose(state, f"no {MINION_NAMES[colour]} left in the supply", "DEF-END-02", "minion_supply")
        return False
    state.supply[colour] -= 1
    return True


def _demon_taint(state: DefendersState, loc: int, *, may_spill: bool = False) -> None:
    """DEF-OVR-04: the third minion on a location, all three demons, taints it.

    With the option ``demons_overrun_at_three`` (the digest's "and overrun as for 4")
    a placement, not a fleeing minion and not setup, also spills one demon to every
    neighbour as an overrun does. By default the demons only taint (see
    docs/defenders-rules-choices.md).
    """
    m = state.minions[loc]
    if can_be_tainted(state, loc) and m[RED] == 3 and sum(m) == 3:
        state.log(
            "demon_taint",
            f"Three demons taint {state.board.location_names[loc]}",
            location=state.board.location_names[loc],
        )
        if may_spill and state.options.get("demons_overrun_at_three"):
            overrun(state, loc, RED)
        else:
            place_crystal(state, loc)


def add_minions(
    state: DefendersState,
    loc: int,
    colour: int,
    count: int,
    *,
    night: bool = True,
    may_overrun: bool = True,
) -> None:
    """Add ``count`` minions of ``colour`` to ``loc`` one at a time, overrunning when a 4th arrives.

    One placement overruns at most once: minions of the same placement that
    would follow the overrun are not placed (the flood has already spilled).
    An Inn holding 3 takes no more and is neither overrun nor tainted (DEF-OVR-07).
    With ``may_overrun`` False (setup) the caller has ruled out a 4th minion.
    """
    b = state.board
    for _ in range(count):
        if state.outcome is not None:
            return
        if loc != b.monarch and sum(state.minions[loc]) >= 3:
            if not can_be_tainted(state, loc):
                _inn_full(state, loc, colour)
                return
            if not may_overrun:
                raise ValueError(f"setup would put a 4th minion on {b.location_names[loc]}")
            overrun(state, loc, colour, night=night)
            return
        if not take_from_supply(state, colour, night=night):
            return
        state.own_minions()[loc][colour] += 1
        state.log(
            "minion_placed",
            f"{article(MINION_NAMES[colour])} arrives at {b.location_names[loc]}",
            location=b.location_names[loc],
            colour=COLOURS[colour],
        )
        if loc == b.monarch:
            check_monarch(state)
        else:
            _demon_taint(state, loc, may_spill=may_overrun and night)


def _inn_full(state: DefendersState, loc: int, colour: int) -> None:
    """DEF-OVR-07: a minion that would be a 4th at an Inn is not placed; no crystal, no overrun."""
    name = state.board.location_names[loc]
    state.log(
        "inn_full",
        f"{name} is full: {article(MINION_NAMES[colour]).lower()} is not placed there (never overrun)",
        location=name,
        colour=COLOURS[colour],
        rule="DEF-OVR-07",
    )


def check_monarch(state: DefendersState) -> None:
    """Five or more minions in Monarch City lose the game (DEF-OVR-05)."""
    if sum(state.minions[state.board.monarch]) >= 5:
        victory.lose(state, "five minions stand in Monarch City", "DEF-OVR-05", "city_overrun")


def overrun(state: DefendersState, loc: int, colour: int, *, night: bool = True) -> None:
    """DEF-OVR-01/02/03: taint ``loc`` and send one minion of ``colour`` to each neighbour.

    A neighbour already holding 3 is tainted instead and does not overrun in turn;
    a full Inn is neither (DEF-OVR-07): the fleeing minion is simply not placed there.
    """
    b = state.board
    state.log(
        "overrun",
        f"{b.location_names[loc]} is overrun by {MINION_NAMES[colour]}s",
        location=b.location_names[loc],
        colour=COLOURS[colour],
    )
    place_crystal(state, loc)
    for nb in b.neighbours(loc):
        if state.outcome is not None:
            return
        if nb != b.monarch and sum(state.minions[nb]) >= 3:
            if can_be_tainted(state, nb):
                state.log(
                    "overrun_spill",
                    f"Fleeing minions taint {b.location_names[nb]}",
                    location=b.location_names[nb],
                )
                place_crystal(state, nb)
            else:
                _inn_full(state, nb, colour)
            continue
        if not take_from_supply(state, colour, night=night):
            return
        state.own_minions()[nb][colour] += 1
        state.log(
            "minion_placed",
            f"A fleeing {MINION_NAMES[colour]} reaches {b.location_names[nb]}",
            location=b.location_names[nb],
            colour=COLOURS[colour],
        )
        if nb == b.monarch:
            check_monarch(state)
        else:
            _demon_taint(state, nb)


def remove_minions(state: DefendersState, loc: int, colour: int, count: int, *, by: int | None = None) -> int:
    """Kill up to ``count`` minions of ``colour`` at ``loc``; they return to the supply, or to
    the killer's hunting quest card (DEF-CRD-03). Returns how many died."""
    n = min(count, state.minions[loc][colour])
    for _ in range(n):
        state.own_minions()[loc][colour] -= 1
        if by is None or not quests.keep_kill(state, by, colour):
            state.supply[colour] += 1
    if n:
        state.log(
            "minions_killed",
            f"{n} {MINION_NAMES[colour]}(s) die at {state.board.location_names[loc]}",
            location=state.board.location_names[loc],
            colour=COLOURS[colour],
            count=n,
        )
    return n


def clear_location(state: DefendersState, loc: int, *, by: int | None = None) -> int:
    """Kill every minion at ``loc``; returns how many."""
    return sum(remove_minions(state, loc, c, state.minions[loc][c], by=by) for c in range(4))
