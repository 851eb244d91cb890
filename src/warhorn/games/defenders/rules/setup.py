"""Setting up a game: generals, the first minions, heroes, decks (DEF-SET-01..06, DEF-VAR-01/02)."""

from __future__ import annotations

from typing import Any

from warhorn.engine.deck import Deck
from warhorn.engine.errors import OptionError
from warhorn.engine.rng import Rng
from warhorn.games.defenders.board import (
    COLOURS,
    GATE_TOKENS,
    MINIONS_PER_COLOUR,
    DarknessCard,
    DefendersBoard,
    colour_index,
)
from warhorn.games.defenders.records import GeneralState, HeroSlot, Phase
from warhorn.games.defenders.rules import cards, heroes, turn
from warhorn.games.defenders.rules.minions import add_minions
from warhorn.games.defenders.state import DefendersState


def choose_heroes(board: DefendersBoard, options: dict[str, Any], rng: Rng, count: int) -> list[str]:
    """The heroes named by the ``heroes`` option (comma separated), topped up at random."""
    wanted = [h.strip().lower() for h in str(options.get("heroes", "")).split(",") if h.strip()]
    known = [h.id for h in board.heroes]
    for h in wanted:
        if h not in known:
            raise OptionError("heroes", f"unknown hero {h!r} (known: {', '.join(known)})")
    if len(set(wanted)) != len(wanted):
        raise OptionError("heroes", "a hero may be chosen only once")
    if len(wanted) > count:
        raise OptionError("heroes", f"{len(wanted)} heroes named but only {count} seats")
    rest = rng.shuffled([h for h in known if h not in wanted])
    chosen = wanted + rest[: count - len(wanted)]
    if len(chosen) < count:
        raise OptionError("heroes", f"the content has only {len(known)} heroes for {count} seats")
    return chosen


def setup_minions(state: DefendersState) -> None:
    """DEF-SET-04: the 3 + 3 Darkness Spreads cards that seed the board, then a full reshuffle."""
    easy = bool(state.options.get("easy_setup"))
    allow_overrun = bool(state.options.get("hard_setup_overrun"))
    rounds = [(2, 2), (2, 1)] if easy else [(3, 2), (3, 1)]
    for card_count, per_loc in rounds:
        used: set[int] = set()
        accepted = 0
        guard = 0
        while accepted < card_count:
            guard += 1
            if guard > 500:
                raise ValueError("setup cannot find Darkness Spreads cards that fit (DEF-SET-04)")
            deck, card_id, _ = state.ds_deck.draw(state.rng)
            state.ds_deck = deck
            if card_id is None:
                raise ValueError("the Darkness Spreads deck ran out during setup")
            state.ds_deck = state.ds_deck.discard(card_id)
            card = state.board.ds_cards[card_id]
            why = setup_card_problem(state, card, used, per_loc, allow_overrun)
            state.log(
                "setup_draw",
                f"Setup draws {card_id}" + (f": redrawn ({why})" if why else ""),
                chance=True,
                card=card_id,
                redraw=why,
            )
            if why:
                continue
            accepted += 1
            for loc_name, card_colour, _n in card.placements:
                loc = state.board.loc(loc_name)
                used.add(loc)
                colour = state.board.colour_of[loc]
                if colour < 0:
                    colour = colour_index(card_colour)
                add_minions(state, loc, colour, per_loc, night=False, may_overrun=allow_overrun)
    state.ds_deck = state.ds_deck.reshuffle_all(state.rng)
    state.log("shuffle", "The whole Darkness Spreads deck is reshuffled", chance=True, deck="darkness")


def setup_card_problem(
    state: DefendersState, card: DarknessCard, used: set[int], per_loc: int, allow_overrun: bool
) -> str | None:
    """Why a setup draw must be redrawn (None if it fits): DEF-SET-04's three redraw rules."""
    if not card.shows_two_locations:
        return "special or single-location card"
    locs = [state.board.loc(p[0]) for p in card.placements]
    if any(loc in used for loc in locs):
        return "repeats a location of this round"
    if not allow_overrun and any(sum(state.minions[loc]) + per_loc > 3 for loc in locs):
        return "would put a 4th minion on a location"
    return None


def new_game(board: DefendersBoard, options: dict[str, Any], seed: int, rng: Rng) -> DefendersState:
    """The first position: everything DEF-SET-01..06 lays out, ready for the first Daytime."""
    state = DefendersState(board, dict(options), seed, rng)
    players = int(options.get("players", 1))
    per_player = int(options.get("heroes_per_player", 1))
    state.players = players
    state.quests_done = [0] * players
    state.quests_done_names = [[] for _ in range(players)]
    state.generals_slain = [0] * players
    if options.get("hard_fewer_minions"):
        state.supply = [MINIONS_PER_COLOUR - 5] * 4
    # DEF-SET-01: generals with 3 minions each (demons taint at 3).
    for gd in board.generals:
        c = colour_index(gd.colour)
        start = board.loc(gd.path[0])
        state.generals[c] = GeneralState(start)
        add_minions(state, start, c, 3, night=False, may_overrun=False)
    # DEF-SET-03: printed magic gate(s); the other tokens wait in the supply.
    printed = 0
    for i, loc in enumerate(board.locations):
        if loc.gate_printed:
            state.gates[i] = True
            printed += 1
    state.gate_supply = GATE_TOKENS - printed
    # Decks.
    state.ds_deck = Deck.shuffled([c.id for c in board.darkness], rng)
    quiet_to_remove = int(options.get("hard_remove_quiet", 0))
    if quiet_to_remove:
        quiet = [c.id for c in board.darkness if c.kind == "all_quiet"][:quiet_to_remove]
        state.ds_deck = Deck(tuple(c for c in state.ds_deck.draw_pile if c not in quiet), ())
    setup_minions(state)
    hero_cards = rng.shuffled([c.id for c in board.hero_cards])
    to_remove = int(options.get("hard_remove_specials", 0))
    if to_remove:
        specials = [c for c in hero_cards if board.cards[c].is_special][:to_remove]
        hero_cards = [c for c in hero_cards if c not in specials]
        state.own_removed_cards().extend(specials)
    state.hero_deck = Deck(tuple(hero_cards), ())
    state.quest_deck = Deck.shuffled([q.id for q in board.quests], rng)
    state.log("shuffle", "Hero, Darkness Spreads and quest decks are shuffled", chance=True)
    # DEF-SET-03 / DEF-SET-06: heroes in Monarch City, turn order from the first player clockwise.
    first = int(options.get("first_player", 0))
    if not 0 <= first < players:
        raise OptionError("first_player", f"must be below the number of players ({players})")
    chosen = choose_heroes(board, options, rng, players * per_player)
    order = [(first + k) % players for k in range(players)]
    for round_ in range(per_player):
        for p in order:
            hero = chosen[round_ * players + p]
            life = heroes.hero_life(board, hero, options)
            state.slots.append(HeroSlot(p, hero, board.monarch, life, life))
    state.unused_heroes = [h.id for h in board.heroes if h.id not in chosen]

    for i in range(len(state.slots)):
        cards.draw_hero_cards(state, i, 2)
        cards.draw_quest(state, i)
    state.current = 0
    state.phase = Phase.START
    state.log(
        "setup_done",
        f"Setup done: {sum(map(sum, state.minions))} minions, {len(state.slots)} heroes in Monarch City",
        minions={COLOURS[c]: state.on_board(c) for c in range(4)},
    )

    turn.advance(state)
    state.events = []
    return state
