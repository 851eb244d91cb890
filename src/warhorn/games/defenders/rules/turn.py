"""The turn: who decides what, and the automatic steps between decisions.

DEF-TRN-01 (Daytime, Evening, Night), DEF-TRN-02 (refresh, one action per
active life token), DEF-TRN-03 (defeated heroes are replaced), DEF-WND-01
(end-of-turn wounds and fear), DEF-GEN-05 (generals heal at the end of turns).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warhorn.games.defenders.board import BLACK, BLUE, COLOURS, GREEN, MINION_NAMES, RED
from warhorn.games.defenders.records import WAR_NAMES, Phase
from warhorn.games.defenders.rules import (
    cards,
    darkness,
    hero_actions,
    heroes,
    minions,
    specials,
)

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

HELD_REWARD_EXTRA_CARD = "helm"


def turn_choices(state: DefendersState) -> list[str]:
    """What the active hero chooses at the start of its turn (nothing for most heroes)."""
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
        if state.phase == Phase.START:
            s = state.slots[state.current]
            if not s.turn.get("begun"):
                begin_turn(state)
            if turn_choices(state) and not s.turn.get("chosen"):
                return
            state.phase = Phase.DAY
            continue
        if state.phase == Phase.DAY:
            if state.slots[state.current].actions > 0 or hero_actions.free_plays(state):
                return
            end_day(state)
            continue
        if state.phase == Phase.EVENING:
            evening(state)
            continue
        if state.phase == Phase.NIGHT_START:
            state.phase = Phase.NIGHT_BEGIN
            specials.open_window(state, "night")
            continue
        if state.phase == Phase.NIGHT_BEGIN:
            state.phase = Phase.NIGHT
            darkness.start_night(state)
            continue
        if state.phase == Phase.NIGHT:
            if darkness.night_step(state):
                return
            if state.night is None:
                state.phase = Phase.END
            continue
        if state.phase == Phase.END:
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
        f"Turn {state.turn_no + 1}: {state.hero_name(state.current)} (player {s.player}) "
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
    state.phase = Phase.EVENING


def turn_undead(state: DefendersState, slot: int, to: int) -> None:
    """Cleric's Turn Undead: drive one undead to a connected location (asked again while any
    remain: all of them are driven out)."""
    s = state.slots[slot]
    state.own_minions()[s.loc][BLACK] -= 1
    state.supply[BLACK] += 1  # placed again at once, through the overrun rules
    state.log(
        "turn_undead",
        f"The Cleric drives an undead to {state.board.location_names[to]}",
        to=state.board.location_names[to],
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
        f"{state.hero_name(slot)} ends the turn among minions: {total} heroes.wound(s)"
        + (f" ({', '.join(notes)})" if notes else ""),
        hero=s.hero,
        wounds=total,
        rule="DEF-WND-01",
    )
    heroes.wound(state, slot, total)


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
    state.phase = Phase.NIGHT_START


def end_turn(state: DefendersState) -> None:
    """Generals heal (DEF-GEN-05); the next hero's turn begins."""
    for c, g in enumerate(state.generals):
        if g is None or g.loc < 0 or g.wounds == 0 or g.heal_from < 0:
            continue
        if state.turn_no >= g.heal_from and g.no_heal_turn != state.turn_no:
            g = state.own_general(c)
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
    state.phase = Phase.START


def describe(state: DefendersState, prompt: str) -> str:
    """The position in a few lines for terminals, ending with ``prompt``."""
    b = state.board

    lines = [
        f"{WAR_NAMES[state.war]} · turn {state.turn_no} · crystals left {state.crystals_left} · "
        f"supply " + " ".join(f"{MINION_NAMES[c]}:{state.supply[c]}" for c in range(4)),
    ]
    for c, g in enumerate(state.generals):
        gd = b.general_by_colour[c]
        if gd is None or g is None:
            continue
        where = "defeated" if g.loc < 0 else b.location_names[g.loc]
        lines.append(f"  {gd.name}: {where}, wounds {g.wounds}/{gd.life}")
    for i, m in enumerate(state.minions):
        if any(m) or state.taint[i]:
            parts = [f"{MINION_NAMES[c]}×{m[c]}" for c in range(4) if m[c]]
            taint = f" taint×{state.taint[i]}" if state.taint[i] else ""
            lines.append(f"  {b.location_names[i]}: {' '.join(parts)}{taint}")
    for i, s in enumerate(state.slots):
        mark = "*" if i == state.current else " "
        quest = b.quest_by_id[s.quest].name if s.quest else "-"
        lines.append(
            f" {mark}{state.hero_name(i)} (p{s.player}) at {b.location_names[s.loc]} "
            f"life {s.life}/{s.max_life} actions {s.actions} hand [{', '.join(s.hand)}] quest {quest}"
        )
    lines.append(prompt)
    return "\n".join(lines)
