"""The turn: who decides what, and the automatic steps between decisions.

DEF-TRN-01 (Daytime, Evening, Night), DEF-TRN-02 (refresh, one action per
active life token), DEF-TRN-03 (defeated heroes are replaced), DEF-WND-01
(end-of-turn wounds and fear), DEF-GEN-05 (generals heal at the end of turns).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.errors import IllegalActionError
from warhorn.games.defenders.actions import (
    ChooseHero,
    Discard,
    EndDay,
    Pass,
    Redraw,
    TurnChoice,
    TurnUndead,
)
from warhorn.games.defenders.board import BLACK, BLUE, COLOURS, GREEN, MINION_NAMES, RED
from warhorn.games.defenders.rules import battle, cards, darkness, hero_actions, minions, picks, specials

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

HELD_REWARD_EXTRA_CARD = "helm"


# --- decisions --------------------------------------------------------------------
def pending(state: DefendersState) -> Decision | None:
    if state.outcome is not None:
        return None
    if state.replacements:
        slot = state.replacements[0]
        return Decision(
            state.slots[slot].player, "choose_hero", "Choose a new hero for Monarch City", "DEF-TRN-03"
        )
    if state.owed_discards:
        slot, n = state.owed_discards[0]
        return Decision(
            state.slots[slot].player,
            "discard",
            f"{state.hero_name(slot)} must discard {n} card(s)",
            "DEF-TRN-01",
        )
    if state.picking is not None:
        return picks.pending(state)
    if state.battle is not None:
        return battle.pending(state)
    if state.window is not None:
        return specials.window_decision(state)
    if state.turn_undead_slot is not None:
        s = state.slots[state.turn_undead_slot]
        return Decision(
            s.player, "turn_undead", "Cleric: drive an undead to a connected location, or pass", None
        )
    if state.night is not None and state.night.stage == "wisdom":
        wizard = darkness.wizard_slot(state)
        assert wizard is not None
        return Decision(
            state.slots[wizard].player,
            "wisdom",
            f"Wizard: redraw Darkness Spreads card {state.night.card}, or pass",
            None,
        )
    s = state.slots[state.current]
    if state.phase == "start":
        return Decision(s.player, "turn_choice", f"{state.hero_name(state.current)}: choose for this turn")
    if state.phase == "day":
        return Decision(
            s.player,
            "action",
            f"{state.hero_name(state.current)} at {state.board.name(s.loc)}: {s.actions} action(s) left",
            "DEF-TRN-02",
        )
    raise AssertionError(f"no decision in phase {state.phase}")


def legal_actions(state: DefendersState) -> list[Action]:
    if state.outcome is not None:
        return []
    if state.replacements:
        return [ChooseHero(h) for h in state.unused_heroes]
    if state.owed_discards:
        slot = state.owed_discards[0][0]
        hero = state.slots[slot].hero
        assert hero is not None
        return [Discard(hero, c) for c in cards.distinct(state, state.slots[slot].hand)]
    if state.picking is not None:
        return picks.legal(state)
    if state.battle is not None:
        return battle.legal(state)
    if state.window is not None:
        return specials.window_legal(state)
    if state.turn_undead_slot is not None:
        s = state.slots[state.turn_undead_slot]
        return [*(TurnUndead(state.board.name(n)) for n in state.board.neighbours(s.loc)), Pass()]
    if state.night is not None and state.night.stage == "wisdom":
        return [Redraw(), Pass()]
    if state.phase == "start":
        return [TurnChoice(c) for c in turn_choices(state)]
    if state.phase == "day":
        return hero_actions.legal_day(state)
    return []


def why_illegal(state: DefendersState, action: Action) -> IllegalActionError:
    decision = pending(state)
    if decision is None:
        return IllegalActionError("the game is over: no action is legal", "DEF-END-02")
    if decision.kind == "action":
        reason = hero_actions.why_illegal_day(state, action)
        if reason is not None:
            return reason
    return IllegalActionError(
        f"{action.notation()!r} is not legal now (waiting for player {decision.player}: {decision.prompt})",
        decision.rule,
    )


# --- applying ---------------------------------------------------------------------
def apply(state: DefendersState, action: Action) -> None:
    if state.replacements:
        assert isinstance(action, ChooseHero)
        replace_hero(state, state.replacements.pop(0), action.hero)
        return
    if state.owed_discards:
        assert isinstance(action, Discard)
        entry = state.owed_discards[0]
        slot = entry[0]
        cards.discard(state, slot, action.card)
        state.log(
            "discard", f"{state.hero_name(slot)} discards {action.card}", hero=action.hero, card=action.card
        )
        entry[1] -= 1
        if entry[1] <= 0 or not state.slots[slot].hand:
            state.owed_discards.pop(0)
        return
    if state.picking is not None:
        picks.apply(state, action)
        return
    if state.battle is not None:
        battle.apply(state, action)
        return
    if state.window is not None:
        specials.window_apply(state, action)
        return
    if state.turn_undead_slot is not None:
        slot = state.turn_undead_slot
        here = state.slots[slot].loc
        if isinstance(action, TurnUndead):
            turn_undead(state, slot, state.board.loc(action.to))
        if not isinstance(action, TurnUndead) or state.minions[here][BLACK] == 0 or state.outcome:
            state.turn_undead_slot = None
            if state.outcome is None:
                finish_day(state)
        return
    if state.night is not None and state.night.stage == "wisdom":
        darkness.apply_wisdom(state, isinstance(action, Redraw))
        return
    if state.phase == "start":
        assert isinstance(action, TurnChoice)
        s = state.slots[state.current]
        if action.choice in ("sky", "ground"):
            s.turn["style"] = action.choice
        elif action.choice != "none":
            s.turn["shape"] = action.choice
        s.turn["chosen"] = 1
        state.log(
            "turn_choice", f"{state.hero_name(state.current)} chooses {action.choice}", choice=action.choice
        )
        return
    if state.phase == "day":
        if isinstance(action, EndDay):
            end_day(state)
        else:
            hero_actions.apply_day(state, action)
        return
    raise AssertionError(f"cannot apply {action} in phase {state.phase}")


def turn_choices(state: DefendersState) -> list[str]:
    hero = state.slots[state.current].hero
    if hero == "eagle_rider":
        return ["sky", "ground"]
    if hero == "sorceress":
        return ["none", *COLOURS]
    return []


# --- automatic steps ----------------------------------------------------------------
def advance(state: DefendersState) -> None:
    """Run every automatic step until someone must decide or the game ends."""
    for _ in range(10_000):
        if state.outcome is not None:
            return
        if state.replacements or state.owed_discards or state.picking or state.battle is not None:
            return
        if state.window is not None:
            if specials.window_ready(state):
                return
            continue
        if state.turn_undead_slot is not None:
            return
        if state.phase == "start":
            s = state.slots[state.current]
            if not s.turn.get("begun"):
                begin_turn(state)
            if turn_choices(state) and not s.turn.get("chosen"):
                return
            state.phase = "day"
            continue
        if state.phase == "day":
            if state.slots[state.current].actions > 0 or hero_actions.free_plays(state):
                return
            end_day(state)
            continue
        if state.phase == "evening":
            evening(state)
            continue
        if state.phase == "night_start":
            state.phase = "night_begin"
            specials.open_window(state, "night")
            continue
        if state.phase == "night_begin":
            state.phase = "night"
            darkness.start_night(state)
            continue
        if state.phase == "night":
            if darkness.night_step(state):
                return
            if state.night is None:
                state.phase = "end"
            continue
        if state.phase == "end":
            end_turn(state)
            continue
        raise AssertionError(f"unknown phase {state.phase}")
    raise AssertionError("advance() did not settle")


def location_action_bonus(state: DefendersState, slot: int, loc: int) -> str | None:
    """The ability that gives the hero in ``slot`` one more action for starting a turn at ``loc``:
    the Dwarf's Mountain Lore on a red location, the Ranger's Elf Support on a green one."""
    hero = state.slots[slot].hero
    colour = state.board.colour_of[loc]
    if hero == "dwarf" and colour == RED:
        return "Mountain Lore"
    if hero == "ranger" and colour == GREEN:
        return "Elf Support"
    return None


def begin_turn(state: DefendersState) -> None:
    """DEF-TRN-02: refresh the active life tokens; hero bonuses add actions."""
    s = state.slots[state.current]
    fresh_mount = s.turn.get("fresh_mount", 0)
    s.turn = {"begun": 1}
    s.actions = s.life
    bonus = []
    lore = location_action_bonus(state, state.current, s.loc)
    if lore is not None:
        bonus.append(lore)
    if s.hero == "eagle_rider" and fresh_mount:
        bonus.append("Fresh Mount")
    s.actions += len(bonus)
    if "boots" in rewards_of(state, state.current):
        s.actions += 2
        bonus.append("Boots of Speed (+2)")
    state.log(
        "turn_start",
        f"Turn {state.turn_no}: {state.hero_name(state.current)} (player {s.player}) "
        f"has {s.actions} action(s)" + (f" ({', '.join(bonus)})" if bonus else ""),
        hero=s.hero,
        actions=s.actions,
    )


def rewards_of(state: DefendersState, slot: int) -> list[str]:
    """Reward effects a hero holds (quest rewards by effect name)."""
    return [state.board.quest_by_id[q].reward for q in state.slots[slot].rewards]


def end_day(state: DefendersState) -> None:
    """The Daytime ends: the Cleric may turn undead first, then wounds and fear (DEF-WND-01)."""
    s = state.slots[state.current]
    s.actions = 0
    if s.hero == "cleric" and s.hero is not None and state.minions[s.loc][BLACK] > 0:
        state.turn_undead_slot = state.current
        return
    finish_day(state)


def finish_day(state: DefendersState) -> None:
    end_of_turn_wounds(state, state.current)
    s = state.slots[state.current]
    if s.hero == "eagle_rider":
        on_ground = s.turn.get("style") != "sky"
        s.turn["fresh_mount"] = int(
            on_ground and (s.loc == state.board.monarch or state.board.colour_of[s.loc] == BLUE)
        )
    state.phase = "evening"


def turn_undead(state: DefendersState, slot: int, to: int) -> None:
    """Cleric's Turn Undead: drive one undead to a connected location (asked again while any remain)."""
    s = state.slots[slot]
    state.minions[s.loc][BLACK] -= 1
    state.supply[BLACK] += 1  # placed again at once, through the overrun rules
    state.log(
        "turn_undead", f"The Cleric drives an undead to {state.board.name(to)}", to=state.board.name(to)
    )
    minions.add_minions(state, to, BLACK, 1)


def wounds_for_ending_turn(state: DefendersState, slot: int, counts: Sequence[int]) -> tuple[int, list[str]]:
    """DEF-WND-01: the wounds the hero in ``slot`` takes ending its turn among ``counts`` minions
    (per colour): 1 per minion, +1 fear if undead are there, less what its abilities ignore; with
    the names of those abilities."""
    s = state.slots[slot]
    wounds = sum(counts)
    fear = 1 if counts[BLACK] > 0 else 0
    notes = []
    if s.hero == "eagle_rider" and s.turn.get("style") == "sky":
        wounds, fear = 0, 0
        notes.append("Sky Attack")
    if s.hero == "rogue":
        wounds = 0
        notes.append("Hide in the Shadows")
    elif s.turn.get("ward"):
        wounds = 0
        notes.append("Talisman of Warding")
    shape = s.turn.get("shape")
    if s.hero == "sorceress" and shape in COLOURS:
        c = COLOURS.index(shape)
        wounds -= counts[c]
        if c == BLACK:
            fear = 0
        notes.append("Shape Shifter")
    if s.hero == "paladin" and fear:
        fear = 0
        notes.append("Bravery")
    total = wounds + fear
    if s.hero in ("dwarf", "paladin") and total > 0:
        total -= 1
        notes.append("ignores 1 wound")
    return max(0, total), notes


def end_of_turn_wounds(state: DefendersState, slot: int) -> None:
    """DEF-WND-01 at the end of Daytime: the hero takes :func:`wounds_for_ending_turn` where it stands."""
    s = state.slots[slot]
    if s.hero is None:
        return
    total, notes = wounds_for_ending_turn(state, slot, state.minions[s.loc])
    if total <= 0:
        return
    state.log(
        "wounds",
        f"{state.hero_name(slot)} ends the turn among minions: {total} wound(s)"
        + (f" ({', '.join(notes)})" if notes else ""),
        hero=s.hero,
        wounds=total,
        rule="DEF-WND-01",
    )
    wound(state, slot, total)


def wound(state: DefendersState, slot: int, n: int) -> None:
    """Flip ``n`` life tokens aside (DEF-TRN-03); no tokens left → the hero falls."""
    s = state.slots[slot]
    s.life -= n
    s.actions = max(0, min(s.actions, s.life))
    if s.life <= 0:
        hero_defeated(state, slot)


def hero_defeated(state: DefendersState, slot: int) -> None:
    s = state.slots[slot]
    state.log("hero_defeated", f"{state.hero_name(slot)} is defeated and leaves the game", hero=s.hero)
    for card in list(s.hand):
        cards.discard(state, slot, card)
    if s.quest is not None:
        state.quest_deck = state.quest_deck.discard(s.quest)
    for c in range(4):
        state.supply[c] += s.quest_minions[c]
        s.quest_minions[c] = 0
    s.quest = None
    s.quest_progress = []
    state.quest_deck = state.quest_deck.discard(*s.rewards)
    s.rewards = []
    s.slain = []
    s.hero = None
    s.life = 0
    s.actions = 0
    state.owed_discards = [o for o in state.owed_discards if o[0] != slot]
    if len(state.unused_heroes) > len(state.replacements):
        state.replacements.append(slot)
    elif all(x.hero is None for x in state.slots) and not state.replacements:
        minions.lose(state, "no hero is left to defend the realm", "DEF-TRN-03", "no_heroes")


def replace_hero(state: DefendersState, slot: int, hero: str) -> None:
    """DEF-TRN-03: the new hero starts in Monarch City with 2 hero cards and 1 quest."""
    from warhorn.games.defenders.rules.setup import hero_life

    s = state.slots[slot]
    state.unused_heroes.remove(hero)
    life = hero_life(state.board, hero, state.options)
    s.hero, s.loc, s.life, s.max_life = hero, state.board.monarch, life, life
    s.actions = 0
    s.turn = {"begun": 1, "chosen": 1} if slot == state.current and state.phase != "start" else {}
    state.log("hero_joins", f"{state.hero_name(slot)} joins in Monarch City", hero=hero, player=s.player)
    cards.draw_hero_cards(state, slot, 2)
    cards.draw_quest(state, slot)


def evening(state: DefendersState) -> None:
    """DEF-TRN-01 Evening: draw 2 hero cards (plus ability/reward draws), hand limit 10."""
    slot = state.current
    s = state.slots[slot]
    if s.hero is not None:
        count = 2
        if HELD_REWARD_EXTRA_CARD in rewards_of(state, slot):
            count += 1
        if s.hero == "rogue" and state.board.locations[s.loc].chest:
            count += 1
        cards.draw_hero_cards(state, slot, count)
        excess = len(s.hand) - cards.HAND_LIMIT
        if excess > 0:
            state.owed_discards.append([slot, excess])
    state.phase = "night_start"


def end_turn(state: DefendersState) -> None:
    """Generals heal (DEF-GEN-05); the next hero's turn begins."""
    for c, g in enumerate(state.generals):
        if g is None or g.loc < 0 or g.wounds == 0 or g.heal_from < 0:
            continue
        if state.turn_no >= g.heal_from and g.no_heal_turn != state.turn_no:
            g.wounds -= 1
            gd = state.board.general_by_colour[c]
            assert gd is not None
            state.log("general_heals", f"{gd.name} heals 1 wound ({g.wounds} left)", general=COLOURS[c])
            if g.wounds == 0:
                g.heal_from = -1
    ending = state.slots[state.current]
    ending.turn = {"fresh_mount": ending.turn.get("fresh_mount", 0)} if ending.turn.get("fresh_mount") else {}
    state.turn_no += 1
    state.skip_night = False
    state.current = (state.current + 1) % len(state.slots)
    state.phase = "start"


def describe(state: DefendersState) -> str:
    b = state.board
    from warhorn.games.defenders.state import WAR_NAMES

    lines = [
        f"{WAR_NAMES[state.war]} · turn {state.turn_no} · crystals left {state.crystals_left} · "
        f"supply " + " ".join(f"{MINION_NAMES[c]}:{state.supply[c]}" for c in range(4)),
    ]
    for c, g in enumerate(state.generals):
        gd = b.general_by_colour[c]
        if gd is None or g is None:
            continue
        where = "defeated" if g.loc < 0 else b.name(g.loc)
        lines.append(f"  {gd.name}: {where}, wounds {g.wounds}/{gd.life}")
    for i, m in enumerate(state.minions):
        if any(m) or state.taint[i]:
            parts = [f"{MINION_NAMES[c]}×{m[c]}" for c in range(4) if m[c]]
            taint = f" taint×{state.taint[i]}" if state.taint[i] else ""
            lines.append(f"  {b.name(i)}: {' '.join(parts)}{taint}")
    for i, s in enumerate(state.slots):
        mark = "*" if i == state.current else " "
        quest = b.quest_by_id[s.quest].name if s.quest else "-"
        lines.append(
            f" {mark}{state.hero_name(i)} (p{s.player}) at {b.name(s.loc)} life {s.life}/{s.max_life} "
            f"actions {s.actions} hand [{', '.join(s.hand)}] quest {quest}"
        )
    decision = pending(state)
    lines.append(decision.prompt if decision else f"game over: {state.outcome}")
    return "\n".join(lines)
