"""Dice a hero rolls and what changes them: rolls as events, re-rolls, the rewards a hero holds.

Shared by fighting minions (DEF-ACT-10), general battles (DEF-GEN-06), quests and penalties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.events import roll_event
from warhorn.games.defenders.board import BLUE

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState


def roll(state: DefendersState, slot: int, n: int, purpose: str) -> list[int]:
    faces = [state.rng.roll(6) for _ in range(n)]
    if n:
        state.events.append(roll_event(state.hero_name(slot), [(6, f) for f in faces], purpose=purpose))
    return faces


def has_reward(state: DefendersState, slot: int, reward: str) -> bool:
    held = state.slots[slot].rewards
    return bool(held) and any(state.board.quest_by_id[q].reward == reward for q in held)


#: Dice a spent Find Magic Gate reward (``extra_dice``) adds to one combat.
REWARD_DICE = 2


def dice_reward(state: DefendersState, slot: int) -> str | None:
    """The held Find Magic Gate reward (``extra_dice``) this hero could spend on a combat, if any."""
    return next(
        (q for q in state.slots[slot].rewards if state.board.quest_by_id[q].reward == "extra_dice"), None
    )


def any_reward(state: DefendersState, reward: str) -> bool:
    """Whether any hero holds a reward (rewards that help every hero)."""
    return any(has_reward(state, i, reward) for i in range(len(state.slots)))


def combat_rerolls(state: DefendersState, slot: int, against: int, general: bool) -> bool:
    """Whether this hero re-rolls its failed dice (once) in this combat against ``against``:
    Battle Luck played for it, the Dwarf against dragonkin, the Eagle Rider's Ground Attack, or
    the Unicorn Steed, which does so in every combat. The battle itself applies Varkolak's
    no-re-roll skill (DEF-GEN-10)."""
    s = state.slots[slot]
    if s.turn.get("luck"):
        return True
    if s.hero == "dwarf" and against == BLUE:
        return True
    if s.hero == "eagle_rider" and s.turn.get("style") == "ground":
        return True
    return has_reward(state, slot, "unicorn")


def end_combat(state: DefendersState, slot: int) -> None:
    """A combat of this hero is over: Battle Luck, played for one combat, is spent with it."""
    state.slots[slot].turn.pop("luck", None)
