"""What the Darkness threatens: the board's geometry and the cost of minions, overruns and generals.

Everything here reads only what every hero sees: the board, the minions, the
crystals, the supply, the generals, and the Darkness Spreads cards by kind
(which cards exist, which have been discarded; never the order of the pile).

Costs are in "harm points", one point being roughly one ordinary minion on the
board. A taint crystal costs more as the twelve run out, and anything that
loses the game at once costs :data:`LOSS`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from warhorn.games.defenders.board import KILL_NUMBER, RED, DefendersBoard, colour_index
from warhorn.games.defenders.rules import darkness, turn
from warhorn.games.defenders.state import DefendersState

LOSS = 1000.0
#: Counts of minions at a location: four colours.
Counts = Sequence[int]


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """Geometry and Darkness statistics of one board, computed once."""

    dist: tuple[tuple[int, ...], ...]
    #: Per location: the (colour, count) placements of every Darkness card that names it.
    placements: tuple[tuple[tuple[int, int], ...], ...]
    next_to_monarch: frozenset[int]
    inns: tuple[int, ...]
    deck_size: int


_INFO: dict[int, tuple[DefendersBoard, BoardInfo]] = {}


def board_info(board: DefendersBoard) -> BoardInfo:
    cached = _INFO.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    n = len(board.locations)
    dist = []
    for start in range(n):
        row = [99] * n
        row[start] = 0
        queue = deque([start])
        while queue:
            i = queue.popleft()
            for j in board.neighbours(i):
                if row[j] == 99:
                    row[j] = row[i] + 1
                    queue.append(j)
        dist.append(tuple(row))
    places: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for card in board.darkness:
        for loc_name, colour, count in card.placements:
            places[board.loc(loc_name)].append((colour_index(colour), count))
    info = BoardInfo(
        tuple(dist),
        tuple(tuple(p) for p in places),
        frozenset(board.neighbours(board.monarch)),
        tuple(i for i, loc in enumerate(board.locations) if loc.inn),
        max(1, len(board.darkness)),
    )
    _INFO[id(board)] = (board, info)
    return info


# --- costs -----------------------------------------------------------------------------------
def crystal_cost(crystals_left: int) -> float:
    """Harm of placing one more crystal with ``crystals_left`` in the box (the last one loses)."""
    if crystals_left <= 1:
        return LOSS
    return 4.0 + 48.0 / crystals_left


def minion_cost(state: DefendersState, colour: int, taken: int = 0) -> float:
    """Harm of one more minion of ``colour`` on the board (the last of the supply loses)."""
    left = state.supply[colour] + state.on_quests(colour) - taken
    if left <= 0:
        return LOSS
    return 1.0 + 8.0 / (left + 1)


def monarch_cost(in_city: int) -> float:
    """Harm of one more minion in Monarch City holding ``in_city`` (five lose)."""
    if in_city >= 4:
        return LOSS
    return 4.0 + 6.0 * in_city


def placement_harm(
    state: DefendersState,
    loc: int,
    colour: int,
    count: int,
    counts: Counts | None = None,
) -> float:
    """Harm of ``count`` minions of ``colour`` arriving at ``loc`` (with ``counts`` there instead of
    the real ones), following the overrun rules (DEF-OVR-01..05)."""
    b = state.board
    here = list(counts) if counts is not None else list(state.minions[loc])
    crystals = state.crystals_left
    harm = 0.0
    if loc == b.monarch:
        total = sum(here)
        for k in range(count):
            harm += monarch_cost(total + k)
        return harm
    for k in range(count):
        if sum(here) >= 3:
            harm += crystal_cost(crystals)
            crystals -= 1
            for nb in b.neighbours(loc):
                if nb == b.monarch:
                    harm += monarch_cost(state.minion_total(nb))
                elif state.minion_total(nb) >= 3:
                    harm += crystal_cost(crystals)
                    crystals -= 1
                else:
                    harm += minion_cost(state, colour, k + 1) + (2.0 if state.minion_total(nb) == 2 else 0.0)
            return harm
        here[colour] += 1
        harm += minion_cost(state, colour, k)
        if here[RED] == 3 and sum(here) == 3:
            harm += crystal_cost(crystals)
            crystals -= 1
    return harm


def steps_to_city(state: DefendersState, colour: int) -> int:
    """How many advances the general of ``colour`` still needs to enter Monarch City (99: none)."""
    g = state.generals[colour]
    gd = state.board.general_by_colour[colour]
    if g is None or gd is None or g.loc < 0:
        return 99
    here = state.board.name(g.loc)
    if here not in gd.path:
        return 99
    return len(gd.path) - 1 - gd.path.index(here)


def general_step(state: DefendersState, colour: int, target: str) -> int | None:
    """Where the general of ``colour`` goes if a card names ``target`` (None: it stays)."""
    g = state.generals[colour]
    gd = state.board.general_by_colour[colour]
    if g is None or gd is None or g.loc < 0:
        return None
    here = state.board.name(g.loc)
    if here not in gd.path:
        return None
    idx = gd.path.index(here)
    if idx + 1 >= len(gd.path):
        return None
    nxt = gd.path[idx + 1]
    if target not in ("next", nxt) or darkness.is_gravely_wounded(state, colour):
        return None
    return state.board.loc(nxt)


def general_harm(state: DefendersState, colour: int, target: str, count: int) -> float:
    """Harm of a card's general part: one step nearer the city (entering it loses)."""
    to = general_step(state, colour, target)
    if to is None:
        return 0.0
    if to == state.board.monarch:
        return LOSS
    left = steps_to_city(state, colour) - 1
    return 12.0 / left + placement_harm(state, to, colour, count)


def advance_chance(state: DefendersState, colour: int) -> float:
    """Chance that one Darkness Spreads card, drawn from those still unseen, moves the general of
    ``colour`` one step (DEF-DRK-02; 0 while it is gravely wounded, DEF-GEN-05)."""
    cards = unseen_darkness(state)
    if not cards:
        return 0.0
    b = state.board
    moving = 0
    for cid in cards:
        card = b.ds_cards[cid]
        if card.kind == "monarch_city" or card.general is None or colour_index(card.general) != colour:
            continue
        if general_step(state, colour, card.target or "next") is not None:
            moving += 1
    return moving / len(cards)


def general_menace(state: DefendersState, colour: int, rounds: float = 1.0) -> float:
    """Expected harm of the general of ``colour`` reaching Monarch City within ``rounds`` rounds.

    Every Darkness card may move a general (DEF-DRK-03), so a round draws
    ``len(MODES_BY_WAR[war])`` cards per hero. The first step uses the unseen cards that name
    the general's next location; later steps the deck's average for that general. Entering the
    city loses the game (:data:`LOSS`).
    """
    steps = steps_to_city(state, colour)
    if steps >= 99:
        return 0.0
    draws = round(rounds * len(darkness.MODES_BY_WAR[state.war]) * max(1, len(state.slots)))
    if steps > draws:
        return 0.0
    first = advance_chance(state, colour)
    if first <= 0.0:
        return 0.0
    later = _mean_advance(state.board, colour)
    # reach[k]: chance of having advanced k steps after the draws so far (k == steps: in the city).
    reach = [1.0] + [0.0] * steps
    for _ in range(draws):
        nxt = [0.0] * (steps + 1)
        for k, pr in enumerate(reach):
            if pr == 0.0:
                continue
            if k == steps:
                nxt[k] += pr
                continue
            q = first if k == 0 else later
            nxt[k] += pr * (1 - q)
            nxt[k + 1] += pr * q
        reach = nxt
    return reach[steps] * LOSS


_MEAN_ADVANCE: dict[tuple[int, int], tuple[DefendersBoard, float]] = {}


def _mean_advance(board: DefendersBoard, colour: int) -> float:
    """Average over the general's path of the share of Darkness cards that move it one step."""
    cached = _MEAN_ADVANCE.get((id(board), colour))
    if cached is not None and cached[0] is board:
        return cached[1]
    gd = board.general_by_colour[colour]
    cards = [c for c in board.darkness if c.general is not None and c.kind != "monarch_city"]
    if gd is None or len(gd.path) < 2 or not board.darkness:
        return 0.0
    total = 0
    mine = [c for c in cards if colour_index(c.general or "") == colour]
    for nxt in gd.path[1:]:
        total += sum(1 for c in mine if (c.target or "next") in ("next", nxt))
    value = total / (len(gd.path) - 1) / len(board.darkness)
    _MEAN_ADVANCE[(id(board), colour)] = (board, value)
    return value


def card_harm(state: DefendersState, card_id: str, mode: str, cancelled: Sequence[str] = ()) -> float:
    """Harm of resolving a Darkness Spreads card in ``mode`` (``full`` or ``general``)."""
    b = state.board
    card = b.ds_cards[card_id]
    harm = 0.0
    full = mode == "full"
    if card.kind == "regular" and full:
        for loc_name, colour, count in card.placements:
            if loc_name not in cancelled:
                harm += placement_harm(state, b.loc(loc_name), colour_index(colour), count)
    elif card.kind == "orc_patrols" and full:
        harm += sum(
            minion_cost(state, 1, k)
            for k, i in enumerate(i for i in range(len(b.locations)) if b.colour_of[i] == 1)
            if state.minion_total(i) == 0
        )
    elif card.kind == "orc_war_party" and full:
        harm += sum(
            placement_harm(state, i, 1, 1)
            for i in range(len(b.locations))
            if i != b.monarch and state.minions[i][1] == 1 and state.minion_total(i) == 1
        )
    elif card.kind == "monarch_city" and full:
        adjacent = b.neighbours(b.monarch)
        arriving = sum(1 for c in range(4) if any(state.minions[i][c] for i in adjacent))
        harm += placement_harm(state, b.monarch, 0, arriving) if arriving else 0.0
    if card.general is not None and card.kind != "monarch_city" and "general" not in cancelled:
        harm += general_harm(state, colour_index(card.general), card.target or "next", card.general_minions)
    return harm


def unseen_darkness(state: DefendersState) -> list[str]:
    """The Darkness Spreads cards that may still come (every card not face up in the discard)."""
    discard = list(state.ds_deck.discard_pile)
    out = []
    for card in state.board.darkness:
        if card.id in discard:
            discard.remove(card.id)
        else:
            out.append(card.id)
    return out


# --- locations --------------------------------------------------------------------------------
def draws_per_round(state: DefendersState) -> float:
    """Minion-placing Darkness cards drawn in one round of hero turns."""
    full = len([m for m in darkness.MODES_BY_WAR[state.war] if m == "full"])
    return full * max(1, len(state.slots))


def location_danger(state: DefendersState, loc: int, counts: Counts | None = None) -> float:
    """Expected harm the minions at ``loc`` cause over the next round, plus their own weight.

    Compares the Darkness cards that name ``loc`` with these minions and with none; adds
    the minions' worth (supply pressure, Monarch City next door, undead fear).
    """
    info = board_info(state.board)
    here = list(counts) if counts is not None else list(state.minions[loc])
    total = sum(here)
    if total == 0:
        return 0.0
    if loc == state.board.monarch:
        return sum(monarch_cost(k) for k in range(total)) * 1.5
    chance = min(1.0, draws_per_round(state) / info.deck_size)
    empty = [0, 0, 0, 0]
    risk = 0.0
    for colour, count in info.placements[loc]:
        risk += placement_harm(state, loc, colour, count, here) - placement_harm(
            state, loc, colour, count, empty
        )
    worth = sum(here[c] * (0.4 + 12.0 / (state.supply[c] + 1)) for c in range(4))
    if loc in info.next_to_monarch:
        worth += 1.5 * total  # the Monarch City card and overruns bring them into the city
    if total == 3:
        worth += 2.0  # any card naming it, or a neighbour's overrun, taints it
    return chance * risk * 3.0 + worth


def kill_chance(colour: int, bonus: int = 0, reroll: bool = False) -> float:
    """Chance that one die kills one minion of ``colour`` (DEF-ENM-02) with a bonus and re-roll."""
    need = min(6, max(2, KILL_NUMBER[colour] - bonus))
    p = (7 - need) / 6
    return p + (1 - p) * p if reroll else p


def fight_outcomes(counts: Counts, chances: Sequence[float]) -> list[tuple[float, tuple[int, ...]]]:
    """Every result of one Fight (DEF-ACT-10): (probability, minions left per colour)."""
    outcomes: list[tuple[float, list[int]]] = [(1.0, [0, 0, 0, 0])]
    for c in range(4):
        n = counts[c]
        if n == 0:
            continue
        p = chances[c]
        nxt = []
        for pr, left in outcomes:
            for kills in range(n + 1):
                q = _binomial(n, kills, p)
                new = list(left)
                new[c] = n - kills
                nxt.append((pr * q, new))
        outcomes = nxt
    return [(pr, tuple(left)) for pr, left in outcomes]


def _binomial(n: int, k: int, p: float) -> float:
    from math import comb

    return comb(n, k) * p**k * (1 - p) ** (n - k)


def end_of_turn_wounds(state: DefendersState, slot: int, loc: int, counts: Counts | None = None) -> int:
    """Wounds the hero in ``slot`` would take ending its turn at ``loc`` (DEF-WND-01), abilities included;
    ``counts``: other minion counts to suppose there (the rule itself is the engine's)."""
    return turn.wounds_for_ending_turn(state, slot, counts if counts is not None else state.minions[loc])[0]
