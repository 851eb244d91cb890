"""Purple (special) hero cards and the windows where they may be played (DEF-CRD-02).

Special cards may be played at any time, in anyone's turn. The engine offers
them at three windows so play never stalls: during the active player's
Daytime (free actions of that player's heroes), at the start of every Night
(every player holding a playable card, in turn order from the active player,
each answering "pass" to move on), and when a Darkness Spreads card has been
drawn (only cards and rewards that react to a card). A player is asked only
while they hold something playable, and asked again after each play.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.games.defenders.actions import Pass, PlayCard, UseReward
from warhorn.games.defenders.board import COLOURS, GREEN
from warhorn.games.defenders.records import Window
from warhorn.games.defenders.rules import cards, heroes, minions, picks, quests
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.board import DefendersBoard
    from warhorn.games.defenders.state import DefendersState

#: Effects this module carries out; other purple cards are usable only for their battle dice.
IMPLEMENTED = frozenset(
    {
        "magic_gate",
        "hammer_of_valor",
        "spell_of_purity",
        "elven_archers",
        "all_is_quiet",
        "battle_luck",
        "battle_fury",
        "local_information",
        "kings_guard",
        "cavalry_sweep",
        "battle_strategy",
        "dark_visions",
        "militia",
        "strong_defenses",
        "spy_in_camp",
    }
)
REACTIONS = frozenset({"militia", "strong_defenses"})


def _play_at_each(board: DefendersBoard, hero: str, cid: str, first: str | None) -> tuple[PlayCard, ...]:
    """``hero``'s play of card ``cid`` aimed at each location (after ``first``, a hero to move,
    if given), by location index, built once per board."""
    key = ("specials.play_at_each", hero, cid, first)
    found: tuple[PlayCard, ...] | None = board.derived.get(key)
    if found is None:
        found = board.derived[key] = tuple(
            made(PlayCard, hero, cid, (name,) if first is None else (first, name))
            for name in board.location_names
        )
    return found


def _plays_for(state: DefendersState, slot: int, cid: str, window: str) -> Iterator[Action]:
    """Legal plays of one purple card by one hero at a window (``day``, ``night`` or ``card``),
    made one at a time (:func:`can_play` stops at the first)."""
    b = state.board
    s = state.slots[slot]
    hero = s.hero
    assert hero is not None
    effect = b.cards[cid].special
    if effect not in IMPLEMENTED:
        return
    if (window == "card") != (effect in REACTIONS):
        return
    if effect == "magic_gate":
        if state.gate_supply > 0:
            plays = _play_at_each(b, hero, cid, None)
            yield from (plays[i] for i, g in enumerate(state.gates) if not g)
        return
    if effect == "hammer_of_valor":
        for k, o in enumerate(state.slots):
            if o.hero is None:
                continue
            barred = heroes.forbidden_destinations(state, k)
            plays = _play_at_each(b, hero, cid, o.hero)
            yield from (
                plays[i] for i, name in enumerate(b.location_names) if i != o.loc and name not in barred
            )
        return
    if effect == "spell_of_purity":
        yield from (made(PlayCard, hero, cid, (b.location_names[i],)) for i, t in enumerate(state.taint) if t)
        return
    if effect == "elven_archers":
        greens = [
            b.location_names[i]
            for i in range(len(b.locations))
            if b.colour_of[i] == GREEN and sum(state.minions[i]) > 0
        ]
        if len(greens) == 1:
            yield made(PlayCard, hero, cid, (greens[0],))
        else:
            yield from (made(PlayCard, hero, cid, pair) for pair in combinations(greens, 2))
        return
    if effect == "all_is_quiet":
        if not state.skip_night:
            yield made(PlayCard, hero, cid)
        return
    if effect == "battle_luck":
        if window == "day" and slot == state.current:
            yield made(PlayCard, hero, cid)
        return
    if effect == "battle_fury":
        if window == "day" and slot == state.current and s.actions > 0 and sum(state.minions[s.loc]) > 0:
            yield made(PlayCard, hero, cid)
        return
    if effect == "local_information":
        if b.locations[s.loc].inn:
            yield from (made(PlayCard, hero, cid, (c,)) for c in COLOURS)
        return
    if effect == "kings_guard":
        near = [b.monarch, *b.neighbours(b.monarch)]
        if any(sum(state.minions[i]) for i in near):
            yield made(PlayCard, hero, cid)
        return
    if effect == "cavalry_sweep":
        if any(map(sum, state.minions)):
            yield made(PlayCard, hero, cid)
        return
    if effect == "battle_strategy":
        yield made(PlayCard, hero, cid)
        return
    if effect == "dark_visions":
        if state.ds_deck.draw_pile or state.ds_deck.discard_pile:
            yield made(PlayCard, hero, cid)
        return
    if effect == "spy_in_camp":
        yield from (
            made(PlayCard, hero, cid, (COLOURS[c],))
            for c, g in enumerate(state.generals)
            if g is not None and g.wounds > 0 and g.no_heal_turn != state.turn_no
        )
        return
    # Reactions to the drawn Darkness Spreads card.
    n = state.night
    if n is None or n.card is None:
        return
    card = b.ds_cards[n.card]
    if effect == "militia" and n.mode == "full":
        yield from (made(PlayCard, hero, cid, (p[0],)) for p in card.placements if p[0] not in n.cancelled)
    elif effect == "strong_defenses" and card.general is not None and "general" not in n.cancelled:
        yield made(PlayCard, hero, cid)


def plays_of_player(state: DefendersState, player: int, window: str, *, rewards: bool = True) -> list[Action]:
    """The purple cards (and, with ``rewards``, the held rewards) ``player``'s heroes may play
    at ``window``."""
    out: list[Action] = []
    specials = state.board.special_cards
    holds_rewards = False
    for i, s in enumerate(state.slots):
        if s.player != player or s.hero is None:
            continue
        holds_rewards = holds_rewards or bool(s.rewards)
        held = [c for c in s.hand if c in specials]
        if held:
            for cid in cards.distinct(state, held):
                out.extend(_plays_for(state, i, cid, window))
    if rewards and holds_rewards:
        out.extend(a for a in quests.reward_uses(state, window) if _reward_owner(state, a) == player)
    return out


def can_play(state: DefendersState, player: int, window: str) -> bool:
    """Whether ``player`` has anything to play at ``window`` (:func:`plays_of_player` is not
    empty), stopping at the first play found."""
    specials = state.board.special_cards
    holds_rewards = False
    for i, s in enumerate(state.slots):
        if s.player != player or s.hero is None:
            continue
        holds_rewards = holds_rewards or bool(s.rewards)
        held = [c for c in s.hand if c in specials]
        if held and any(
            next(_plays_for(state, i, cid, window), None) is not None for cid in cards.distinct(state, held)
        ):
            return True
    return holds_rewards and any(_reward_owner(state, a) == player for a in quests.reward_uses(state, window))


def _reward_owner(state: DefendersState, action: Action) -> int:
    assert isinstance(action, UseReward)
    return state.slots[state.slot_of(action.hero)].player


def day_plays(state: DefendersState) -> list[Action]:
    """Free plays of the active player's purple cards during Daytime."""
    player = state.slots[state.current].player
    return plays_of_player(state, player, "day", rewards=False)


def open_window(state: DefendersState, kind: str) -> bool:
    """Open a window for every player holding a playable card; True if anyone is asked."""
    if not any(s.rewards or not state.board.special_cards.isdisjoint(s.hand) for s in state.slots):
        return False  # nobody holds a purple card or a reward: nothing to offer
    first = state.slots[state.current].player
    order = [(first + k) % state.players for k in range(state.players)]
    players = [p for p in order if can_play(state, p, kind)]
    if not players:
        return False
    state.window = Window(kind, players)
    return True


def window_ready(state: DefendersState) -> bool:
    """Drop players who can no longer play; close an empty window. True if a decision waits."""
    w = state.window
    assert w is not None
    while w.players and not can_play(state, w.players[0], w.kind):
        w.players.pop(0)
    if not w.players:
        state.window = None
        return False
    return True


def window_decision(state: DefendersState) -> Decision:
    w = state.window
    assert w is not None
    what = "before the night" if w.kind == "night" else "against the Darkness Spreads card"
    return made(
        Decision, w.players[0], "special", f"Play a special card or reward {what}, or pass", "DEF-CRD-02"
    )


def window_legal(state: DefendersState) -> list[Action]:
    w = state.window
    assert w is not None
    return [*plays_of_player(state, w.players[0], w.kind), made(Pass)]


def window_apply(state: DefendersState, action: Action) -> None:
    w = state.window
    assert w is not None
    if isinstance(action, Pass):
        w.players.pop(0)
        if not w.players:
            state.window = None
        return
    apply_play_or_reward(state, action)


def apply_play_or_reward(state: DefendersState, action: Action) -> None:
    if isinstance(action, UseReward):
        quests.use_reward(state, action)
        return
    assert isinstance(action, PlayCard)
    play(state, action)


def play(state: DefendersState, action: PlayCard) -> None:
    """Carry out a purple card; it then leaves the game (DEF-CRD-02)."""
    b = state.board
    slot = state.slot_of(action.hero)
    s = state.slots[slot]
    effect = b.cards[action.card].special
    cards.use_special(state, slot, action.card)
    state.log(
        "special",
        f"{state.hero_name(slot)} plays {b.cards[action.card].name}",
        card=action.card,
        targets=list(action.targets),
        rule="DEF-CRD-02",
    )
    t = action.targets
    if effect == "magic_gate":
        state.own_gates()[b.loc(t[0])] = True
        state.gate_supply -= 1
    elif effect == "hammer_of_valor":
        other = state.slots[state.slot_of(t[0])]
        other.loc = b.loc(t[1])
        quests.on_arrival(state, state.slot_of(t[0]))
    elif effect == "spell_of_purity":
        i = b.loc(t[0])
        state.crystals_left += state.taint[i]
        state.own_taint()[i] = 0
    elif effect == "elven_archers":
        for name in t:
            minions.clear_location(state, b.loc(name), by=slot)
    elif effect == "all_is_quiet":
        state.skip_night = True
    elif effect == "battle_luck":
        s.turn["luck"] = 1
    elif effect == "battle_fury":
        s.actions -= 1
        minions.clear_location(state, s.loc, by=slot)
    elif effect == "local_information":
        cards.rumors(state, slot, t[0], 5)
    elif effect == "kings_guard":
        near = [b.monarch, *b.neighbours(b.monarch)]
        picks.start(state, slot, "kings_guard", count=6, allowed=near)
    elif effect in ("cavalry_sweep", "battle_strategy", "dark_visions"):
        picks.start(state, slot, effect, count=6)
    elif effect == "spy_in_camp":
        g = state.own_general(COLOURS.index(t[0]))
        g.no_heal_turn = state.turn_no
    elif effect == "militia":
        assert state.night is not None
        state.night.cancelled.append(t[0])
    elif effect == "strong_defenses":
        assert state.night is not None
        state.night.cancelled.append("general")
