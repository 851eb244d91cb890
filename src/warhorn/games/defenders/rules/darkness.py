"""Night: Darkness Spreads cards by war status, general advances (DEF-DRK-01..05, DEF-GEN-11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.games.defenders.board import COLOURS, GREEN, colour_index
from warhorn.games.defenders.records import Night, NightStage
from warhorn.games.defenders.rules import minions, specials, victory

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

#: Cards drawn per war status and how each is used (DEF-DRK-01, DEF-DRK-03).
MODES_BY_WAR: tuple[tuple[str, ...], ...] = (
    ("full",),
    ("full", "general"),
    ("full", "general"),
    ("full", "full", "general"),
)


def start_night(state: DefendersState) -> None:

    if state.skip_night:
        state.log("quiet_night", "No Darkness Spreads cards are drawn this night")
        state.night = None
        return
    state.night = Night(list(MODES_BY_WAR[state.war]))


def wizard_slot(state: DefendersState) -> int | None:
    for i, s in enumerate(state.slots):
        if s.hero == "wizard":
            return i
    return None


def _draw(state: DefendersState) -> str | None:
    deck, card, reshuffled = state.ds_deck.draw(state.rng)
    state.ds_deck = deck
    state.ds_known_top = max(0, state.ds_known_top - 1)
    if reshuffled:
        state.log("shuffle", "The Darkness Spreads deck is rebuilt from its discard", chance=True)
    if card is not None:
        state.log("darkness_drawn", f"Darkness spreads: {describe_card(state, card)}", chance=True, card=card)
    return card


def describe_card(state: DefendersState, card_id: str) -> str:
    """A Darkness Spreads card in words (its id, "ds_20", means nothing to a person); worked out
    once per card and board."""
    key = ("darkness.describe_card", card_id)
    text: str | None = state.board.derived.get(key)
    if text is None:
        text = state.board.derived[key] = _card_in_words(state, card_id)
    return text


def _card_in_words(state: DefendersState, card_id: str) -> str:
    card = state.board.ds_cards[card_id]
    if card.kind != "regular":
        return card.kind.replace("_", " ")
    parts = [f"{n} {col} on {loc}" for loc, col, n in card.placements]
    gen = ""
    if card.general:
        gd = state.board.general_by_colour[colour_index(card.general)]
        gen = f"; {gd.name if gd else card.general} to {card.target} with {card.general_minions}"
    return f"{', '.join(parts)}{gen}"


def night_step(state: DefendersState) -> bool:
    """Resolve the night as far as possible; True when a player must decide."""
    n = state.night
    while n is not None and state.outcome is None:
        if n.stage == NightStage.DRAW:
            if not n.modes:
                state.night = None
                return False
            n.mode = n.modes.pop(0)
            n.card = _draw(state)
            n.cancelled = []
            n.redrawn = False
            if n.card is None:
                continue
            n.stage = NightStage.WISDOM if wizard_slot(state) is not None else NightStage.REACT
            if n.stage == NightStage.WISDOM:
                return True
        if n.stage == NightStage.REACT:
            n.stage = NightStage.RESOLVE
            if specials.open_window(state, "card"):
                return True
        if n.stage == NightStage.RESOLVE:
            assert n.card is not None
            resolve(state, n.card, n.mode, n.cancelled)
            state.ds_deck = state.ds_deck.discard(n.card)
            if state.board.ds_cards[n.card].kind == "monarch_city":
                reshuffle_after_monarch(state)
            n.card = None
            n.stage = NightStage.DRAW
        if n.stage == NightStage.WISDOM:
            return True
    return False


def apply_wisdom(state: DefendersState, redraw: bool) -> None:
    """Wizard's Wisdom: optionally replace the drawn card (the replacement must be used)."""
    n = state.night
    assert n is not None and n.card is not None
    if redraw:
        state.ds_deck = state.ds_deck.discard(n.card)
        state.log("wisdom", f"The Wizard sets aside {n.card}", card=n.card)
        n.card = _draw(state)
        n.redrawn = True
        if n.card is None:
            n.stage = NightStage.DRAW
            return
    n.stage = NightStage.REACT


def resolve(state: DefendersState, card_id: str, mode: str, cancelled: list[str]) -> None:
    """Carry out one card: ``full`` places minions and moves a general; ``general`` only moves."""
    card = state.board.ds_cards[card_id]
    b = state.board
    full = mode == "full"
    if card.kind == "all_quiet":
        state.log("all_quiet", "All is quiet: nothing happens")
        return
    if card.kind == "regular" and full:
        for loc_name, colour, count in card.placements:
            if loc_name in cancelled:
                state.log("placement_cancelled", f"No minions arrive at {loc_name}", location=loc_name)
                continue
            minions.add_minions(state, b.loc(loc_name), colour_index(colour), count)
    elif card.kind == "orc_patrols" and full:
        empty = [
            i for i, loc in enumerate(b.locations) if b.colour_of[i] == GREEN and sum(state.minions[i]) == 0
        ]
        state.log("orc_patrols", f"Orc patrols: an orc on each of {len(empty)} empty green locations")
        for i in empty:
            if b.location_names[i] not in cancelled:
                minions.add_minions(state, i, GREEN, 1)
    elif card.kind == "orc_war_party" and full:
        lone = [
            i
            for i in range(len(b.locations))
            if state.minions[i][GREEN] == 1 and sum(state.minions[i]) == 1 and i != b.monarch
        ]
        state.log("orc_war_party", f"Orc war party: a second orc joins {len(lone)} lone orcs")
        for i in lone:
            if b.location_names[i] not in cancelled:
                minions.add_minions(state, i, GREEN, 1)
    elif card.kind == "monarch_city" and full:
        adjacent = b.neighbours(b.monarch)
        for c in range(4):
            if any(state.minions[i][c] > 0 for i in adjacent):
                minions.add_minions(state, b.monarch, c, 1)
    if card.general is not None and card.kind != "monarch_city" and state.outcome is None:
        if "general" in cancelled:
            state.log("general_stopped", "The general is held back and does not move")
        else:
            advance_general(state, colour_index(card.general), card.target or "next", card.general_minions)


def reshuffle_after_monarch(state: DefendersState) -> None:
    """DEF-DRK-05: after the Monarch City card, both decks are reshuffled (used purple cards stay out)."""
    state.hero_deck = state.hero_deck.reshuffle_all(state.rng)
    state.ds_deck = state.ds_deck.reshuffle_all(state.rng)
    state.ds_known_top = 0
    state.log("shuffle", "Monarch City card: hero and Darkness Spreads decks are reshuffled", chance=True)


def is_gravely_wounded(state: DefendersState, colour: int) -> bool:
    g = state.generals[colour]
    gd = state.board.general_by_colour[colour]
    if g is None or gd is None or gd.grave_at is None or g.wounds == 0:
        return False
    return gd.life - g.wounds <= gd.grave_at


def advance_general(state: DefendersState, colour: int, target: str, count: int) -> None:
    """DEF-DRK-02 / DEF-GEN-11: the general moves one step along its path only if ``target`` is
    that next step (or ``next``); it brings ``count`` minions. Entering Monarch City loses."""
    b = state.board
    g = state.generals[colour]
    gd = b.general_by_colour[colour]
    if g is None or gd is None or g.loc < 0:
        return
    here = b.location_names[g.loc]
    if here not in gd.path:
        return
    idx = gd.path.index(here)
    if idx + 1 >= len(gd.path):
        return
    nxt = gd.path[idx + 1]
    if target not in ("next", nxt):
        state.log("general_stays", f"{gd.name} is not one step from {target} and stays at {here}")
        return
    if is_gravely_wounded(state, colour):
        state.log("general_stays", f"{gd.name} is gravely wounded and does not advance", rule="DEF-GEN-05")
        return
    g = state.own_general(colour)
    g.loc = b.loc(nxt)
    state.log("general_moves", f"{gd.name} advances to {nxt}", general=COLOURS[colour], to=nxt)
    if g.loc == b.monarch:
        victory.lose(state, f"{gd.name} entered Monarch City", "DEF-END-02", "general_in_city")
        return
    minions.add_minions(state, g.loc, colour, count)
