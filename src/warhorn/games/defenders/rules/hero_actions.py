"""The eleven Daytime actions (DEF-ACT-01..11) and the heroes' action abilities.

Every action spends one active life token unless stated otherwise: Rumors
spends one per token (at most 2 a turn), purple cards and held rewards are free.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb
from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.errors import IllegalActionError
from warhorn.games.defenders.actions import (
    AttackGeneral,
    BuildGate,
    EndDay,
    Fight,
    Fireball,
    HealLand,
    Move,
    QuestAction,
    Rest,
    Rumors,
    Slay,
    UseReward,
)
from warhorn.games.defenders.board import BLACK, COLOURS, GREEN, KILL_NUMBER, MINION_NAMES, RED
from warhorn.games.defenders.rules import battle, cards, combat, heroes, minions, picks, quests, specials
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.board import DefendersBoard
    from warhorn.games.defenders.state import DefendersState

RUMOR_TOKENS_PER_TURN = 2


def _moves(board: DefendersBoard, here: int, reach: int, by: str, card: str | None) -> tuple[Move, ...]:
    """The moves ``by`` from ``here`` to every location within ``reach`` steps (1: the
    neighbours), built once per board."""
    key = ("hero_actions.moves", here, reach, by, card)
    found: tuple[Move, ...] | None = board.derived.get(key)
    if found is None:
        dests = board.neighbours(here) if reach == 1 else board.within(here, reach)
        found = board.derived[key] = tuple(
            made(Move, board.location_names[d], by, card) for d in dests if d != here
        )
    return found


def _move_to_each(board: DefendersBoard, by: str, card: str | None) -> tuple[Move, ...]:
    """The move ``by`` (with ``card``) to each location, by location index, built once per board."""
    key = ("hero_actions.move_to_each", by, card)
    found: tuple[Move, ...] | None = board.derived.get(key)
    if found is None:
        found = board.derived[key] = tuple(made(Move, name, by, card) for name in board.location_names)
    return found


def _add_moves(out: list[Action], moves: tuple[Move, ...], forbidden: frozenset[str]) -> None:
    if forbidden:
        out.extend(m for m in moves if m.to not in forbidden)
    else:
        out.extend(moves)


def _add_moves_to(
    out: list[Action], board: DefendersBoard, dests: list[int], here: int, by: str, forbidden: frozenset[str]
) -> None:
    moves = _move_to_each(board, by, None)
    for d in dests:
        if d != here and board.location_names[d] not in forbidden:
            out.append(moves[d])


def move_options(state: DefendersState, slot: int, hand: list[str]) -> list[Action]:
    """Every legal move of a hero (DEF-ACT-01..04, Eagle Flight, Noble Steed, Teleport);
    ``hand``: the hero's cards, one per distinct face. (No nested functions: in the compiled build
    their shared environment is a reference cycle, garbage for the cycle collector every call.)"""
    b = state.board
    s = state.slots[slot]
    here = s.loc
    forbidden = heroes.forbidden_destinations(state, slot)
    out: list[Action] = []
    _add_moves(out, _moves(b, here, 1, "foot", None), forbidden)
    gates: list[int] = []
    if s.hero == "wizard" or state.gates[here] or not b.gate_cards.isdisjoint(hand):
        gates = [i for i, g in enumerate(state.gates) if g]  # only where a gate is used
    for cid in hand:
        card = b.cards[cid]
        if card.band == "horse":
            _add_moves(out, _moves(b, here, 2, "horse", cid), forbidden)
        elif card.band == "eagle":
            _add_moves(out, _moves(b, here, 4, "eagle", cid), forbidden)
        elif card.band == "gate":
            dests = set(gates)
            if card.location is not None:
                dests.add(b.loc(card.location))
            moves = _move_to_each(b, "gate", cid)
            for d in sorted(dests):
                if d != here and b.location_names[d] not in forbidden:
                    out.append(moves[d])
    if state.gates[here] and len(gates) >= 2:
        _add_moves_to(out, b, gates, here, "gatelink", forbidden)
    if s.hero == "eagle_rider":
        _add_moves(out, _moves(b, here, 4, "eagle_flight", None), forbidden)
    if s.hero == "paladin":
        _add_moves(out, _moves(b, here, 2, "noble_steed", None), forbidden)
    if s.hero == "wizard" and not s.turn.get("teleported"):
        _add_moves_to(out, b, gates, here, "teleport", forbidden)
    if s.rewards and combat.has_reward(state, slot, "unicorn"):
        _add_moves(out, _moves(b, here, 2, "horse", None), forbidden)
    return out


def legal_day(state: DefendersState) -> list[Action]:
    """The current hero's legal actions, plus free plays and ending the Daytime."""
    slot = state.current
    s = state.slots[slot]
    b = state.board
    out: list[Action] = []
    if s.hero is not None and s.actions > 0:
        here = s.loc
        m = state.minions[here]
        hand = cards.distinct(state, s.hand)
        out.extend(move_options(state, slot, hand))
        if state.gate_supply > 0 and not state.gates[here]:
            for cid in hand:
                if b.cards[cid].location == b.location_names[here]:
                    out.append(made(BuildGate, cid))
        if b.locations[here].inn:
            used = s.turn.get("rumors", 0)
            for tokens in (1, 2):
                if used + tokens <= RUMOR_TOKENS_PER_TURN and tokens <= s.actions:
                    out.extend(made(Rumors, c, tokens) for c in COLOURS)
        if state.taint[here] > 0:
            colour = b.locations[here].colour
            for cid in hand:
                if b.cards[cid].colour == colour:
                    out.append(made(HealLand, cid))
            if s.hero == "cleric" and sum(m) == 0:
                out.append(made(HealLand, None))
        if rest_amount(state, slot) > 0:
            out.append(made(Rest))
        boost = combat.dice_reward(state, slot) is not None
        if sum(m) > 0:
            out.extend(fights(state, here, boost))
        if s.hero == "ranger":
            for n in b.neighbours(here):
                if sum(state.minions[n]) > 0:
                    out.extend(fights(state, n, boost))
        if s.hero == "wizard" and sum(m) > 0:
            present = {COLOURS[c] for c in range(4) if m[c]}
            for cid in hand:
                if b.cards[cid].colour in present:
                    out.append(made(Fireball, cid))
                    if boost:
                        out.append(made(Fireball, cid, combat.REWARD_DICE))
        if s.slain:
            out.extend(made(Slay, COLOURS[c]) for c in sorted(set(s.slain)) if m[c] > 0)
        if sum(m) == 0 and state.general_at(here) is not None:
            out.append(made(AttackGeneral))
        if quests.can_attempt(state, slot):
            out.append(made(QuestAction))
    out.extend(free_plays(state))
    out.append(made(EndDay))
    return out


def fights(state: DefendersState, at: int, boost: bool) -> list[Action]:
    """The Fight actions at ``at``: a plain one, and with ``boost`` (a Find Magic Gate reward
    held) one per way of aiming its extra dice at the kinds of minion there ("any one combat")."""
    name = state.board.location_names[at]
    out: list[Action] = [made(Fight, name)]
    if boost:
        present = [COLOURS[c] for c in range(4) if state.minions[at][c]]
        out.extend(
            made(Fight, name, pair) for pair in combinations_with_replacement(present, combat.REWARD_DICE)
        )
    return out


def free_plays(state: DefendersState) -> list[Action]:
    """What the active player may do in Daytime without an action: play purple cards and
    spend held rewards (of any of their heroes)."""
    player = state.slots[state.current].player
    purple = state.board.special_cards
    for o in state.slots:
        if o.player == player and o.hero is not None and (o.rewards or not purple.isdisjoint(o.hand)):
            break
    else:
        return []  # no purple card and no reward: nothing to play
    out = specials.day_plays(state)
    if any(o.rewards for o in state.slots if o.player == player and o.hero is not None):
        out.extend(
            a
            for a in quests.reward_uses(state, "day")
            if isinstance(a, UseReward) and state.slots[state.slot_of(a.hero)].player == player
        )
    return out


def why_illegal_day(state: DefendersState, action: Action) -> IllegalActionError | None:
    """Name the rule a refused Daytime action breaks, where one clearly applies."""
    s = state.slots[state.current]
    b = state.board
    if s.actions <= 0 and not isinstance(action, EndDay):
        return IllegalActionError("no active life tokens are left for actions", "DEF-TRN-02")
    if isinstance(action, Rumors):
        if not b.locations[s.loc].inn:
            return IllegalActionError("Rumors at the Inn needs an Inn", "DEF-ACT-07")
        return IllegalActionError("at most 2 tokens a turn go to Rumors at the Inn", "DEF-TRN-02")
    if isinstance(action, Move):
        return IllegalActionError(
            f"{action.to} cannot be reached that way",
            {
                "foot": "DEF-ACT-01",
                "horse": "DEF-ACT-02",
                "eagle": "DEF-ACT-03",
                "gate": "DEF-ACT-04",
                "gatelink": "DEF-ACT-04",
            }.get(action.by, "DEF-ACT-05"),
        )
    if isinstance(action, Rest):
        return IllegalActionError(
            "no rest here (a general is present, or minions, or full life)", "DEF-ACT-09"
        )
    if isinstance(action, AttackGeneral):
        return IllegalActionError(
            "a general can be attacked only where it stands, once no minions remain", "DEF-ACT-11"
        )
    if isinstance(action, HealLand):
        return IllegalActionError(
            "heal the land needs a tainted location and a card of its colour", "DEF-ACT-08"
        )
    if isinstance(action, BuildGate):
        return IllegalActionError("a gate is built with the card of the location you stand on", "DEF-ACT-06")
    if isinstance(action, Fight):
        return IllegalActionError("there are no minions to fight there", "DEF-ACT-10")
    return None


def rest_amount(state: DefendersState, slot: int) -> int:
    """DEF-ACT-09: full in Monarch City or an Inn, 2 elsewhere; never where enemy minions or a
    general stand, Monarch City and the Inns included (the English original's note)."""
    s = state.slots[slot]
    b = state.board
    if state.general_at(s.loc) is not None or sum(state.minions[s.loc]) > 0:
        return 0
    missing = s.max_life - s.life
    if b.locations[s.loc].inn or s.loc == b.monarch:
        return missing
    return min(2, missing)


def spend(state: DefendersState, n: int = 1) -> None:
    s = state.slots[state.current]
    s.actions -= n


def apply_day(state: DefendersState, action: Action) -> None:
    slot = state.current
    s = state.slots[slot]
    b = state.board
    name = state.hero_name(slot)
    if isinstance(action, Move):
        spend(state)
        if action.card:
            cards.discard(state, slot, action.card)
        if action.by == "teleport":
            s.turn["teleported"] = 1
        s.loc = b.loc(action.to)
        state.log(
            "move",
            f"{name} moves to {action.to}" + (f" ({action.by})" if action.by != "foot" else ""),
            hero=s.hero,
            to=action.to,
            by=action.by,
            card=action.card,
        )
        quests.on_arrival(state, slot)
    elif isinstance(action, BuildGate):
        spend(state)
        cards.discard(state, slot, action.card)
        state.own_gates()[s.loc] = True
        state.gate_supply -= 1
        state.log(
            "gate_built",
            f"{name} builds a magic gate at {b.location_names[s.loc]}",
            location=b.location_names[s.loc],
        )
        quests.on_gate_built(state, slot, s.loc)
    elif isinstance(action, Rumors):
        spend(state, action.tokens)
        s.turn["rumors"] = s.turn.get("rumors", 0) + action.tokens
        per_token = 5 if s.hero == "rogue" else 2
        cards.rumors(state, slot, action.colour, per_token * action.tokens)
    elif isinstance(action, HealLand):
        spend(state)
        heal_land(state, slot, action.card)
    elif isinstance(action, Rest):
        spend(state)
        gained = rest_amount(state, slot)
        s.life += gained
        state.log("rest", f"{name} rests and recovers {gained} life token(s)", hero=s.hero, gained=gained)
    elif isinstance(action, Fight):
        spend(state)
        extra = [0, 0, 0, 0]
        if action.plus:
            spend_dice_reward(state, slot)
            for colour in action.plus:
                extra[COLOURS.index(colour)] += 1
        fight_minions(state, slot, b.loc(action.at), extra)
    elif isinstance(action, Fireball):
        spend(state)
        if action.plus:
            spend_dice_reward(state, slot)
        fireball(state, slot, action.card, action.plus)
    elif isinstance(action, Slay):
        spend(state)
        c = COLOURS.index(action.colour)
        n = minions.remove_minions(state, s.loc, c, state.minions[s.loc][c], by=slot)
        state.log("slay", f"{name}, Slayer of the {MINION_NAMES[c]}s, kills {n} without rolling", count=n)
    elif isinstance(action, AttackGeneral):
        spend(state)
        battle.start(state, slot)
    elif isinstance(action, QuestAction):
        spend(state)
        quests.attempt(state, slot)
    else:
        specials.apply_play_or_reward(state, action)


def heal_dice(state: DefendersState, slot: int, with_card: bool) -> int:
    """Dice rolled to heal the land (DEF-ACT-08): 2, with a card or by the Cleric's Sanctify Land
    (which rolls as Heal the Land does, only without a card); the Sorceress's Visions adds a die."""
    return 2 + (1 if state.slots[slot].hero == "sorceress" else 0)


def heal_successes_needed(state: DefendersState, with_card: bool) -> int:
    """5+ results needed to heal: one (the original rules), or two with option ``heal_land=both``
    (the Italian reading), with a card or by Sanctify Land alike."""
    return 2 if state.options.get("heal_land", "either") == "both" else 1


def heal_chance(state: DefendersState, slot: int, with_card: bool) -> float:
    """The chance that one try to heal the land succeeds (see heal_dice, heal_successes_needed)."""
    dice = heal_dice(state, slot, with_card)
    need = heal_successes_needed(state, with_card)
    return sum(comb(dice, k) * (1 / 3) ** k * (2 / 3) ** (dice - k) for k in range(need, dice + 1))


def heal_land(state: DefendersState, slot: int, card: str | None) -> None:
    """DEF-ACT-08: discard a card of the location's colour, roll 2 dice; one crystal on success.

    The Cleric's Sanctify Land (``card`` None) rolls the same way without a card. The
    Sorceress's Visions adds a die. ``heal_land`` option ``both`` needs a 5+ on two dice.
    """
    s = state.slots[slot]
    if card is not None:
        cards.discard(state, slot, card)
    faces = combat.roll(state, slot, heal_dice(state, slot, card is not None), "heal the land")
    ok = sum(1 for f in faces if f >= 5) >= heal_successes_needed(state, card is not None)
    if ok:
        state.own_taint()[s.loc] -= 1
        state.crystals_left += 1
        state.log(
            "land_healed",
            f"{state.hero_name(slot)} heals {state.board.location_names[s.loc]}: a crystal is removed",
        )
    else:
        state.log("heal_failed", f"{state.hero_name(slot)} fails to heal the land")


def minion_bonus(state: DefendersState, slot: int, colour: int, at: int) -> int:
    """Modifiers to each die against minions of ``colour`` (hero abilities, Amulet of the Gods)."""
    s = state.slots[slot]
    bonus = 0
    if s.hero == "cleric" and colour in (RED, BLACK):
        bonus += 1
    if s.hero == "ranger" and at == s.loc and state.board.colour_of[s.loc] == GREEN:
        bonus += 1
    if s.hero == "sorceress" and s.turn.get("shape") == COLOURS[colour] and not s.turn.get("ambushed"):
        bonus += 2
    return bonus + any_kind_bonus(state, slot, at)


def any_kind_bonus(state: DefendersState, slot: int, at: int) -> int:
    """Modifiers to every combat die of the hero at ``at``, whatever it attacks: the Amulet of the
    Gods (+1 to every combat die) and Elven Allies (+1 to attack dice on green locations)."""
    bonus = 1 if combat.has_reward(state, slot, "amulet") else 0
    if state.board.colour_of[at] == GREEN and combat.any_reward(state, "elven_allies"):
        bonus += 1
    return bonus


def spend_dice_reward(state: DefendersState, slot: int) -> None:
    """Discard the hero's Find Magic Gate reward for the extra dice of the combat it starts."""
    qid = combat.dice_reward(state, slot)
    hero = state.slots[slot].hero
    assert qid is not None and hero is not None
    quests.use_reward(state, made(UseReward, hero, qid))


def fight_minions(state: DefendersState, slot: int, at: int, extra: list[int] | None = None) -> None:
    """DEF-ACT-10: one die per minion present, each against its own minion's kill number;
    ``extra[c]`` more dice against the minions of colour ``c`` (a spent Find Magic Gate reward),
    each hit still killing one minion of that colour, never more than stand there."""
    s = state.slots[slot]
    killed = [0, 0, 0, 0]
    fought = [state.minions[at][c] > 0 for c in range(4)]
    for c in range(4):
        n = state.minions[at][c]
        if not n:
            continue
        dice = n + (extra[c] if extra else 0)
        need = KILL_NUMBER[c] - minion_bonus(state, slot, c, at)
        faces = combat.roll(state, slot, dice, f"fighting {MINION_NAMES[c]}s (need {need}+)")
        hits = sum(1 for f in faces if f >= need)
        if hits < n and combat.combat_rerolls(state, slot, c, False):
            again = combat.roll(
                state, slot, dice - hits, f"re-rolling failed dice against {MINION_NAMES[c]}s"
            )
            hits += sum(1 for f in again if f >= need)
        killed[c] = minions.remove_minions(state, at, c, min(hits, n), by=slot)
    combat.end_combat(state, slot)
    shape = s.turn.get("shape")
    if s.hero == "sorceress" and shape in COLOURS and fought[COLOURS.index(shape)]:
        s.turn["ambushed"] = 1  # Ambush: her first attack on the minions of her shape is spent
    state.log(
        "fight",
        f"{state.hero_name(slot)} fights at {state.board.location_names[at]}: "
        + (", ".join(f"{killed[c]} {MINION_NAMES[c]}(s)" for c in range(4) if killed[c]) or "no kills"),
        killed=dict(zip(COLOURS, killed, strict=True)),
    )


def fireball(state: DefendersState, slot: int, card: str, extra: int = 0) -> None:
    """Wizard's Fireball: one die per minion present (``extra`` more from a spent Find Magic
    Gate reward); each 2+ kills one, whatever its kind, the Wizard choosing which. The bonuses to
    every combat die count (the Amulet of the Gods, Elven Allies on green: a 1 hits). Failed dice
    are re-rolled once where the hero re-rolls in every combat (Battle Luck, the Unicorn Steed).
    When the hits leave no choice (they kill all, or one kind stands there) they are removed at
    once; otherwise the Wizard picks the victims one at a time (a ``fireball`` picking)."""
    s = state.slots[slot]
    cards.discard(state, slot, card)
    m = state.minions[s.loc]
    total = sum(m)
    dice = total + extra
    need = max(1, 2 - any_kind_bonus(state, slot, s.loc))  # the Amulet, Elven Allies: +1 a die
    faces = combat.roll(state, slot, dice, f"fireball ({need}+)")
    hits = sum(1 for f in faces if f >= need)
    if hits < total and combat.combat_rerolls(state, slot, -1, False):
        again = combat.roll(state, slot, dice - hits, "re-rolling failed fireball dice")
        hits += sum(1 for f in again if f >= need)
    combat.end_combat(state, slot)
    hits = min(hits, total)
    state.log("fireball", f"{state.hero_name(slot)}'s fireball hits {hits} of {total} minion(s)", hits=hits)
    kinds = [c for c in range(4) if m[c]]
    if hits == total or len(kinds) == 1:
        for c in kinds:
            hits -= minions.remove_minions(state, s.loc, c, min(hits, m[c]), by=slot)
    elif hits > 0:
        picks.start(state, slot, "fireball", count=hits, allowed=[s.loc])
