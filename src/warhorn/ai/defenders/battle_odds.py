"""The odds of attacking a general in a real position: which dice each hero would bring.

Builds :class:`~warhorn.ai.defenders.odds.Attacker` values from the heroes' open
hands (hands are open in this cooperative game, docs/defenders-rules-choices.md)
and their abilities, and turns them into a chance to defeat the general.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from warhorn.ai.defenders.odds import Attacker, defeat_chance
from warhorn.games.defenders.board import COLOURS, GREEN
from warhorn.games.defenders.rules import combat
from warhorn.games.defenders.state import DefendersState


def usable_cards(state: DefendersState, slot: int, colour: int, *, specials: bool = True) -> list[str]:
    """Cards of ``slot``'s hand that roll dice against the general of ``colour`` (DEF-CRD-01)."""
    b = state.board
    out = []
    for cid in state.slots[slot].hand:
        card = b.cards[cid]
        if card.dice <= 0 or card.colour not in (COLOURS[colour], "any"):
            continue
        if card.is_special and not specials:
            continue
        out.append(cid)
    return out


def hit_need(state: DefendersState, slot: int, colour: int, at: int) -> int:
    """The roll ``slot`` needs per die against the general of ``colour`` fighting at ``at``."""
    gd = state.board.general_by_colour[colour]
    assert gd is not None
    s = state.slots[slot]
    bonus = 0
    if s.hero == "ranger" and state.board.colour_of[at] == GREEN:
        bonus += 1
    if s.hero == "sorceress" and s.turn.get("shape") == COLOURS[colour] and not s.turn.get("ambushed"):
        bonus += 1
    if combat.has_reward(state, slot, "amulet"):
        bonus += 1
    if state.board.colour_of[at] == GREEN and combat.any_reward(state, "elven_allies"):
        bonus += 1
    return gd.hit - bonus


def rerolls(state: DefendersState, slot: int, colour: int, *, luck: bool = False) -> bool:
    """Whether ``slot`` re-rolls failed dice against this general (never against Varkolak)."""
    gd = state.board.general_by_colour[colour]
    assert gd is not None
    if gd.has_skill("no_rerolls") and not blessed(state, [slot]):
        return False
    return luck or combat.combat_rerolls(state, slot, colour, True)


def blessed(state: DefendersState, slots: Iterable[int]) -> bool:
    """A participant's blessing switches the general's skill off for the battle."""
    return any(state.slots[p].turn.get("blessing") for p in slots)


def attacker(
    state: DefendersState,
    slot: int,
    colour: int,
    cards: Sequence[str],
    *,
    at: int | None = None,
    extra_dice: int = 0,
    luck: bool = False,
    skill_off: bool = False,
) -> Attacker:
    gd = state.board.general_by_colour[colour]
    g = state.generals[colour]
    assert gd is not None and g is not None
    where = g.loc if at is None else at
    curse = gd.has_skill("demonic_curse") and not skill_off
    b = state.board
    return Attacker(
        tuple(b.cards[c].dice for c in cards),
        tuple(curse and b.cards[c].colour == COLOURS[colour] for c in cards),
        extra_dice,
        hit_need(state, slot, colour, where),
        rerolls(state, slot, colour, luck=luck),
    )


def reward_dice(state: DefendersState, slot: int) -> int:
    """Dice a hero's held Find Magic Gate rewards add to one battle (2 each)."""
    board = state.board
    return 2 * sum(1 for q in state.slots[slot].rewards if board.quest_by_id[q].reward == "extra_dice")


def life_left(state: DefendersState, colour: int) -> int:
    gd = state.board.general_by_colour[colour]
    g = state.generals[colour]
    if gd is None or g is None:
        return 0
    return gd.life - g.wounds


def hits_still_needed(state: DefendersState) -> int:
    """Net hits the battle in progress still needs: the general's life left, plus the 1s already
    rolled against Gorgutt that no hit has met yet (they will parry the next hits, DEF-GEN-08)."""
    bt = state.battle
    assert bt is not None
    return life_left(state, bt.general) + max(0, bt.parries - bt.hits)


def parries(state: DefendersState, colour: int, slots: Iterable[int] = ()) -> bool:
    gd = state.board.general_by_colour[colour]
    return gd is not None and gd.has_skill("parry") and not blessed(state, slots)


def team_chance(
    state: DefendersState, colour: int, slots: Iterable[int], *, specials: bool = True
) -> tuple[float, int]:
    """(chance to defeat, dice) if ``slots`` attacked the general of ``colour`` with every usable card."""
    chosen = list(slots)
    skill_off = blessed(state, chosen)
    attackers = [
        attacker(
            state,
            p,
            colour,
            usable_cards(state, p, colour, specials=specials),
            extra_dice=reward_dice(state, p),
            skill_off=skill_off,
        )
        for p in chosen
        if state.slots[p].hero is not None
    ]
    chance = defeat_chance(attackers, life_left(state, colour), parries(state, colour, chosen))
    return chance, sum(a.dice for a in attackers)
