"""Dungeon entrances: guardians revealed, damaged die by die, rewards, looting, repopulation (NER-DUN-*)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warhorn.engine.deck import Deck
from warhorn.engine.events import Event
from warhorn.games.nerath.state import GuardianSlot

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


def unseen_guardian_tiles(s: NerathState) -> Counter[str]:
    """Guardian tiles that may lie face down in some dungeon: every tile of the content but those
    face up and those defeated (public knowledge: what players may count on)."""
    pool = Counter(s.board.guardian_tiles())
    for slots in s.d.guardians.values():
        for g in slots:
            if g.face_up:
                pool[g.tile] -= 1
    for tile in s.d.guardian_stack.discard_pile:
        pool[tile] -= 1
    return Counter({t: n for t, n in pool.items() if n > 0})


def fresh_slot(s: NerathState, tile: str, face_up: bool = False) -> GuardianSlot:
    return GuardianSlot(tile, s.board.guardian(tile).dice, face_up)


def draw_guardians(s: NerathState, space: int, count: int) -> list[Event]:
    """Put ``count`` face-down tiles from the stack on an entrance (reshuffling defeated ones, NER-DUN-10)."""
    events: list[Event] = []
    slots = list(s.d.guardians.get(space, ()))
    for _ in range(count):
        deck, tile, reshuffled = s.d.guardian_stack.draw(s.rng)
        s.d.guardian_stack = deck
        if reshuffled:
            events.append(
                Event(
                    "shuffle",
                    {"deck": "guardians"},
                    "the defeated guardians are shuffled into a new stack",
                    chance=True,
                )
            )
        if tile is None:
            break
        slots.append(fresh_slot(s, tile))
    set_slots(s, space, slots)
    events.append(
        Event(
            "guardians.placed",
            {"space": s.board.sid(space), "count": count},
            f"{count} face-down guardian(s) placed on {s.board.sid(space)}",
            chance=True,
        )
    )
    return events


def set_slots(s: NerathState, space: int, slots: Sequence[GuardianSlot]) -> None:
    """The guardians now on a dungeon's entrance; an empty entrance holds no entry, as a position
    writes it (so that every state builds again from its position)."""
    if slots:
        s.d.guardians[space] = tuple(slots)
    else:
        s.d.guardians.pop(space, None)


def reveal(s: NerathState, space: int) -> list[Event]:
    """NER-DUN-01: every tile on the entrance is turned face up."""
    slots = s.d.guardians.get(space, ())
    set_slots(s, space, [GuardianSlot(g.tile, g.dice, True) for g in slots])
    names = [s.board.guardian(g.tile).name for g in slots]
    return [
        Event(
            "guardians.revealed",
            {"space": s.board.sid(space), "tiles": [g.tile for g in slots]},
            f"guardians at {s.board.sid(space)}: {', '.join(names) or 'none'}",
        )
    ]


def damage_guardians(s: NerathState, space: int, targets: tuple[str, ...]) -> list[Event]:
    """Each damage removes one named die; a guardian without dice is defeated (NER-DUN-02/03)."""
    slots = list(s.d.guardians.get(space, ()))
    events: list[Event] = []
    for token in targets:
        head, _, die = token.rpartition(":d")
        _, _, pos = head.rpartition("@")
        n = int(pos) - 1
        g = slots[n]
        dice = list(g.dice)
        dice.remove(int(die))
        slots[n] = GuardianSlot(g.tile, tuple(dice), True)
        name = s.board.guardian(g.tile).name
        events.append(
            Event(
                "guardian.damage",
                {"tile": g.tile, "die": int(die)},
                f"{name} loses a d{die}" + ("" if dice else " and is defeated"),
            )
        )
    set_slots(s, space, slots)
    return events


def finish(s: NerathState, space: int, k: int, heroes_won: bool) -> list[Event]:
    """After a dungeon battle: reward and loot on a win (NER-DUN-06/09/10), else full dice back
    (NER-DUN-07)."""
    name = s.board.sid(space)
    slots = s.d.guardians.get(space, ())
    if not heroes_won:
        beaten = tuple(g.tile for g in slots if not g.dice)
        if beaten:
            stack = s.d.guardian_stack
            s.d.guardian_stack = Deck(stack.draw_pile, stack.discard_pile + beaten)
        set_slots(
            s, space, [GuardianSlot(g.tile, s.board.guardian(g.tile).dice, True) for g in slots if g.dice]
        )
        return [Event("battle.end", {"space": name, "winner": "guardians"}, f"the guardians of {name} hold")]
    events = [
        Event(
            "battle.end", {"space": name, "winner": "attacker"}, f"{s.kingdom_name(k)}'s heroes clear {name}"
        )
    ]
    reward = sum(s.board.guardian(g.tile).reward_gold for g in slots)
    if reward:
        s.d.gold[k] += reward
        events.append(
            Event(
                "gold",
                {"kingdom": k, "gold": reward},
                f"{s.kingdom_name(k)} gains {reward} gold from the guardians",
            )
        )
    s.d.guardian_stack = Deck(
        s.d.guardian_stack.draw_pile, s.d.guardian_stack.discard_pile + tuple(g.tile for g in slots)
    )
    set_slots(s, space, [])
    events += s.draw_treasure(k)
    events += draw_guardians(s, space, 2)
    return events
