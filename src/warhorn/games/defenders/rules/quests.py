"""Quests: attempts, progress, completion, rewards (DEF-CRD-03, DEF-END-03).

A hero always holds one quest; a new one is drawn when it is completed,
failed or impossible. Hunting quests keep the minions they count on the card;
at night those return to the supply first when a colour runs out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.deck import Deck
from warhorn.games.defenders.actions import UseReward
from warhorn.games.defenders.board import COLOURS, QuestDef, colour_index
from warhorn.games.defenders.rules import cards, combat, picks
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

#: Rewards kept by the hero and used later (by discarding the quest card) or permanently.
HELD = frozenset(
    {
        "amulet",
        "boots",
        "helm",
        "war_banner",
        "unicorn",
        "stop_general",
        "skip_night",
        "blessing",
        "cancel_colour",
        "crystal_here",
        "crystal_any",
        "extra_dice",
        "move_heroes",
        "ward",
        "elven_allies",
    }
)
#: Held rewards that are spent (discarded) when used; the others are permanent.
SPENT = frozenset(
    {
        "stop_general",
        "skip_night",
        "blessing",
        "cancel_colour",
        "crystal_here",
        "crystal_any",
        "extra_dice",
        "move_heroes",
        "ward",
    }
)


def quest_of(state: DefendersState, slot: int) -> QuestDef | None:
    q = state.slots[slot].quest
    return state.board.quest_by_id[q] if q else None


def can_attempt(state: DefendersState, slot: int) -> bool:
    """Whether an action on the hero's quest is possible here."""
    q = quest_of(state, slot)
    s = state.slots[slot]
    if q is None:
        return False
    here = state.board.location_names[s.loc]
    if q.kind == "roll":
        return here == q.location
    if q.kind == "visit":
        return here in q.locations and here not in s.quest_progress
    if q.kind == "scout":
        g = state.generals[colour_index(q.colours[0])]
        return g is not None and g.loc == s.loc
    return False


def attempt(state: DefendersState, slot: int) -> None:

    q = quest_of(state, slot)
    s = state.slots[slot]
    assert q is not None
    here = state.board.location_names[s.loc]
    if q.kind == "roll":
        dice = q.dice + (1 if s.hero == "sorceress" else 0)
        faces = combat.roll(state, slot, dice, f"quest {q.name} (any {q.need}+)")
        if any(f >= q.need for f in faces):
            complete(state, slot)
        elif q.fail_discard:
            state.log("quest_failed", f"{state.hero_name(slot)} fails {q.name}; the card is lost", quest=q.id)
            cards.draw_quest(state, slot)
        else:
            state.log("quest_try", f"{state.hero_name(slot)} does not succeed at {q.name} yet", quest=q.id)
    elif q.kind == "visit":
        s.quest_progress.append(here)
        state.log("quest_progress", f"{q.name}: {here} done", quest=q.id)
        if all(loc in s.quest_progress for loc in q.locations):
            complete(state, slot)
    elif q.kind == "scout":
        complete(state, slot)


def on_arrival(state: DefendersState, slot: int) -> None:
    """Visiting quests that need no action (the three inns) progress on arrival."""
    q = quest_of(state, slot)
    s = state.slots[slot]
    if q is None or q.kind != "inns":
        return
    here = state.board.location_names[s.loc]
    wanted = q.locations or tuple(loc.name for loc in state.board.locations if loc.inn)
    if here in wanted and here not in s.quest_progress:
        s.quest_progress.append(here)
        inns = list(q.locations) or [loc.name for loc in state.board.locations if loc.inn]
        if all(i in s.quest_progress for i in inns):
            complete(state, slot)


def on_gate_built(state: DefendersState, slot: int, loc: int) -> None:
    q = quest_of(state, slot)
    if q is not None and q.kind == "gate_red" and state.board.colour_of[loc] == 0:
        complete(state, slot)


def keep_kill(state: DefendersState, slot: int, colour: int) -> bool:
    """Count a kill for a hunting quest; True if the minion stays on the quest card."""
    q = quest_of(state, slot)
    s = state.slots[slot]
    if q is None or q.kind != "kill" or COLOURS[colour] not in q.colours:
        return False
    if q.count == 0:  # one of each listed colour; no minions held
        if COLOURS[colour] not in s.quest_progress:
            s.quest_progress.append(COLOURS[colour])
            if all(c in s.quest_progress for c in q.colours):
                complete(state, slot)
        return False
    s.quest_minions[colour] += 1
    if sum(s.quest_minions) >= q.count:
        complete(state, slot)
    return True


def complete(state: DefendersState, slot: int) -> None:
    """A quest is done: a point for the player, the reward, and a new quest."""
    q = quest_of(state, slot)
    s = state.slots[slot]
    assert q is not None
    state.own_quests_done()[s.player] += 1
    state.own_quests_done_names()[s.player].append(q.id)
    state.log("quest_done", f"{state.hero_name(slot)} completes {q.name}", quest=q.id, reward=q.reward)
    if q.reward in HELD:
        s.rewards.append(q.id)
        s.quest = None
    cards.draw_quest(state, slot)
    immediate_reward(state, slot, q)


def immediate_reward(state: DefendersState, slot: int, q: QuestDef) -> None:

    s = state.slots[slot]
    if q.reward == "draw4":
        cards.draw_hero_cards(state, slot, 4)
    elif q.reward == "scout":
        colour = q.reward_colour or q.colours[0]
        pile = list(state.hero_deck.draw_pile)
        found = next((c for c in pile if state.board.cards[c].colour == colour), None)
        if found is not None:
            pile.remove(found)
            s.hand.append(found)
            state.log("scout", f"{state.hero_name(slot)} takes {found} from the hero deck", card=found)
        state.hero_deck = Deck(tuple(state.rng.shuffled(pile)), state.hero_deck.discard_pile)
        state.log("shuffle", "The hero deck is reshuffled", chance=True)
    elif q.reward == "envoy":
        where = q.reward_location or q.location
        assert where is not None
        count = combat.roll(state, slot, 1, f"{q.name}: minions slain")[0]
        centre = state.board.loc(where)
        picks.start(state, slot, "envoy", count=count, allowed=[centre, *state.board.within(centre, 2)])
    else:
        return
    excess = len(s.hand) - cards.HAND_LIMIT
    if excess > 0:
        state.owed_discards.append([slot, excess])


def reward_uses(state: DefendersState, window: str) -> list[Action]:
    """Held rewards that can be spent at this window."""
    out: list[Action] = []
    b = state.board
    n = state.night
    for i, s in enumerate(state.slots):
        if s.hero is None:
            continue
        for qid in s.rewards:
            reward = b.quest_by_id[qid].reward
            if reward == "crystal_any" and window in ("day", "night"):
                out.extend(
                    made(UseReward, s.hero, qid, b.location_names[j]) for j, t in enumerate(state.taint) if t
                )
            elif _simple_reward_usable(state, i, reward, window):
                out.append(made(UseReward, s.hero, qid))
            elif window == "card" and n is not None and n.card is not None:
                card = b.ds_cards[n.card]
                if reward == "stop_general" and card.general and "general" not in n.cancelled:
                    out.append(made(UseReward, s.hero, qid))
                if reward == "cancel_colour" and n.mode == "full":
                    qd = b.quest_by_id[qid]
                    colours = (qd.reward_colour,) if qd.reward_colour else qd.colours
                    out.extend(
                        made(UseReward, s.hero, qid, p[0])
                        for p in card.placements
                        if p[1] in colours and p[0] not in n.cancelled
                    )
    return out


def _simple_reward_usable(state: DefendersState, slot: int, reward: str, window: str) -> bool:
    """Rewards spent without a target: at night (Raids) or in the holder's own Daytime."""
    if reward == "skip_night":  # Raids: "at the end of your turn" - the holder's own night
        return window == "night" and slot == state.current and not state.skip_night
    if window != "day" or slot != state.current:
        return False
    s = state.slots[slot]
    if reward == "crystal_here":
        return state.taint[s.loc] > 0
    if reward in ("blessing", "ward"):
        return not s.turn.get(reward)
    return reward == "move_heroes"


def use_reward(state: DefendersState, action: UseReward) -> None:
    b = state.board
    slot = state.slot_of(action.hero)
    s = state.slots[slot]
    q = b.quest_by_id[action.reward]
    if q.reward in SPENT:
        s.rewards.remove(q.id)
        state.quest_deck = state.quest_deck.discard(q.id)
    state.log("reward_used", f"{state.hero_name(slot)} uses {q.name}", quest=q.id, target=action.target)
    if q.reward == "crystal_any" and action.target:
        i = b.loc(action.target)
        state.own_taint()[i] -= 1
        state.crystals_left += 1
    elif q.reward == "crystal_here":
        state.own_taint()[s.loc] -= 1
        state.crystals_left += 1
    elif q.reward == "blessing":
        s.turn["blessing"] = 1
    elif q.reward == "ward":
        s.turn["ward"] = 1
    elif q.reward == "move_heroes":
        picks.start(state, slot, "move_heroes")
    elif q.reward == "skip_night":
        state.skip_night = True
    elif q.reward == "stop_general":
        assert state.night is not None
        state.night.cancelled.append("general")
    elif q.reward == "cancel_colour" and action.target:
        assert state.night is not None
        state.night.cancelled.append(action.target)
