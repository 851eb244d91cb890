"""General battles, single and group (DEF-GEN-01..10, DEF-ACT-11).

Stages: ``join`` (each other hero on the location is asked), ``commit`` (each
participant commits cards of the general's colour one by one), Balazarg's
curse, then ``order`` (the starter picks the next roller after each result).
All committed cards are discarded at the end, rolled or not (DEF-GEN-06).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.games.defenders.actions import Commit, CommitDone, Join, NextAttacker, Pass, PlayCard, UseReward
from warhorn.games.defenders.board import COLOURS, GREEN, GeneralDef
from warhorn.games.defenders.records import WAR_NAMES, Battle, BattleStage
from warhorn.games.defenders.rules import cards, combat, heroes, quests, specials
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState

REWARD_CARDS = 3


def start(state: DefendersState, slot: int) -> None:
    """The current hero spends an action to attack the general on its location (DEF-GEN-01)."""

    s = state.slots[slot]
    colour = state.generals_at(s.loc)[0]
    others = [i for i, o in enumerate(state.slots) if i != slot and o.hero is not None and o.loc == s.loc]
    gd = state.board.general_by_colour[colour]
    assert gd is not None
    state.battle = Battle(colour, s.loc, slot, BattleStage.JOIN, others, [slot])
    state.log(
        "battle", f"{state.hero_name(slot)} attacks {gd.name}", general=COLOURS[colour], rule="DEF-GEN-01"
    )
    _settle(state)


def _settle(state: DefendersState) -> None:
    """Move the battle on through the stages that need no decision."""
    bt = state.battle
    if bt is None:
        return
    if bt.stage == BattleStage.JOIN and not bt.to_ask:
        bt.stage = BattleStage.COMMIT
        bt.commit_queue = list(bt.participants)
    if bt.stage == BattleStage.COMMIT and not bt.commit_queue:
        curse(state)
        bt.stage = BattleStage.ORDER
    if bt.stage == BattleStage.ORDER:
        left = _still_to_roll(state)
        if not left or state.generals[bt.general] is None:
            conclude(state)
        elif len(left) == 1:
            roll_for(state, left[0])
            _settle(state)


def _still_to_roll(state: DefendersState) -> list[int]:
    bt = state.battle
    assert bt is not None
    return [p for p in bt.participants if p not in bt.rolled and dice_of(state, p) > 0]


def dice_of(state: DefendersState, slot: int) -> int:
    bt = state.battle
    assert bt is not None
    cards_dice = sum(state.board.cards[c].dice for c in bt.committed.get(slot, []))
    return cards_dice + bt.extra_dice.get(slot, 0)


def pending(state: DefendersState) -> Decision:
    bt = state.battle
    assert bt is not None
    gd = state.board.general_by_colour[bt.general]
    name = gd.name if gd else COLOURS[bt.general]
    if bt.stage == BattleStage.JOIN:
        who = bt.to_ask[0]
        return made(
            Decision,
            state.slots[who].player,
            "join",
            f"{state.hero_name(who)}: join the attack on {name}?",
            "DEF-GEN-01",
        )
    if bt.stage == BattleStage.COMMIT:
        who = bt.commit_queue[0]
        return made(
            Decision,
            state.slots[who].player,
            "commit",
            f"{state.hero_name(who)}: commit cards against {name} ({dice_of(state, who)} dice so far)",
            "DEF-GEN-01",
        )
    return made(
        Decision, state.slots[bt.starter].player, "next_attacker", f"Who attacks {name} next?", "DEF-GEN-06"
    )


def legal(state: DefendersState) -> list[Action]:
    bt = state.battle
    assert bt is not None
    if bt.stage == BattleStage.JOIN:
        hero = state.slots[bt.to_ask[0]].hero
        assert hero is not None
        return [made(Join, hero), made(Pass)]
    if bt.stage == BattleStage.COMMIT:
        who = bt.commit_queue[0]
        hero = state.slots[who].hero
        assert hero is not None
        usable = [c for c in cards.matching_cards(state, who, bt.general) if state.board.cards[c].dice > 0]
        extra = [
            made(UseReward, hero, q)
            for q in state.slots[who].rewards
            if state.board.quest_by_id[q].reward == "extra_dice"
            or (state.board.quest_by_id[q].reward == "blessing" and not _skill_cancelled(state))
        ]
        luck: list[Action] = []
        if not _general(state).has_skill("no_rerolls") and not state.slots[who].turn.get("luck"):
            luck = [
                made(PlayCard, hero, c)
                for c in cards.distinct(state, state.slots[who].hand)
                if state.board.cards[c].special == "battle_luck"
            ]
        return [
            *(made(Commit, hero, c) for c in cards.distinct(state, usable)),
            *extra,
            *luck,
            made(CommitDone, hero),
        ]
    out: list[Action] = []
    for p in _still_to_roll(state):
        hero = state.slots[p].hero
        assert hero is not None
        out.append(made(NextAttacker, hero))
    return out


def apply(state: DefendersState, action: Action) -> None:
    bt = state.battle
    assert bt is not None
    if bt.stage == BattleStage.JOIN:
        who = bt.to_ask.pop(0)
        if isinstance(action, Join):
            bt.participants.append(who)
            state.log("battle_join", f"{state.hero_name(who)} joins the battle", hero=action.hero)
    elif bt.stage == BattleStage.COMMIT:
        who = bt.commit_queue[0]
        if isinstance(action, Commit):
            state.slots[who].hand.remove(action.card)
            bt.committed.setdefault(who, []).append(action.card)
            state.log(
                "commit", f"{state.hero_name(who)} commits {action.card}", hero=action.hero, card=action.card
            )
        elif isinstance(action, PlayCard):
            specials.play(state, action)  # Battle Luck: this hero re-rolls failed dice in this battle
        elif isinstance(action, UseReward):
            reward = state.board.quest_by_id[action.reward].reward
            quests.use_reward(state, action)  # Amarak's Blessing: the general's skill is off
            if reward == "extra_dice":
                bt.extra_dice[who] = bt.extra_dice.get(who, 0) + combat.REWARD_DICE
        else:
            bt.commit_queue.pop(0)
    else:
        assert isinstance(action, NextAttacker)
        roll_for(state, state.slot_of(action.hero))
    _settle(state)


def curse(state: DefendersState) -> None:
    """DEF-GEN-07 Balazarg: a die per committed red card; each 1 corrupts (discards) that card."""
    bt = state.battle
    assert bt is not None
    if not _general(state).has_skill("demonic_curse") or _skill_cancelled(state):
        return
    for slot, committed in bt.committed.items():
        keep = []
        for cid in committed:
            if state.board.cards[cid].colour != COLOURS[bt.general]:
                keep.append(cid)
                continue
            face = combat.roll(state, slot, 1, f"Balazarg's curse on {cid}")[0]
            if face == 1:
                state.log("curse", f"Balazarg corrupts {cid}", card=cid, rule="DEF-GEN-07")
                _drop_card(state, cid)
            else:
                keep.append(cid)
        bt.committed[slot] = keep


def _general(state: DefendersState) -> GeneralDef:
    bt = state.battle
    assert bt is not None
    gd = state.board.general_by_colour[bt.general]
    assert gd is not None
    return gd


def _skill_cancelled(state: DefendersState) -> bool:
    bt = state.battle
    assert bt is not None
    return any(state.slots[p].turn.get("blessing") for p in bt.participants)


def _drop_card(state: DefendersState, cid: str) -> None:
    if state.board.cards[cid].is_special:
        state.own_removed_cards().append(cid)
    else:
        state.hero_deck = state.hero_deck.discard(cid)


def general_bonus(state: DefendersState, slot: int) -> int:
    s = state.slots[slot]
    bonus = 0
    if s.hero == "ranger" and state.board.colour_of[s.loc] == GREEN:
        bonus += 1
    if (
        s.hero == "sorceress"
        and state.battle
        and s.turn.get("shape") == COLOURS[state.battle.general]
        and not s.turn.get("ambushed")
    ):
        bonus += 1  # Ambush: her first attack on her shape's kind, +1 against its general
    if combat.has_reward(state, slot, "amulet"):
        bonus += 1
    if state.board.colour_of[s.loc] == GREEN and combat.any_reward(state, "elven_allies"):
        bonus += 1
    return bonus


def roll_for(state: DefendersState, slot: int) -> None:
    """One participant rolls its dice; hits wound the general.

    Gorgutt's parry (DEF-GEN-08) counts over the whole battle: every final 1 rolled by any
    participant cancels one successful hit of any participant. The wound marker stands at the
    battle's hits less its parries (never below where the battle began), so a 1 rolled later
    takes back a hit landed earlier, and a 1 rolled before any hit waits for the next one.
    """
    bt = state.battle
    assert bt is not None
    gd = state.board.general_by_colour[bt.general]
    g = state.own_general(bt.general)
    assert gd is not None
    bt.rolled.append(slot)
    n = dice_of(state, slot)
    need = gd.hit - general_bonus(state, slot)
    faces = combat.roll(state, slot, n, f"attacking {gd.name} (need {need}+)")
    hits = [f for f in faces if f >= need]
    misses = [f for f in faces if f < need]
    rerolls = combat.combat_rerolls(state, slot, bt.general, True) and not (
        gd.has_skill("no_rerolls") and not _skill_cancelled(state)
    )
    combat.end_combat(state, slot)
    if state.slots[slot].hero == "sorceress" and state.slots[slot].turn.get("shape") == COLOURS[bt.general]:
        state.slots[slot].turn["ambushed"] = 1  # Ambush helps only her first attack on her shape's kind
    if misses and rerolls:
        again = combat.roll(state, slot, len(misses), "re-rolling failed dice")
        hits += [f for f in again if f >= need]
        misses = [f for f in again if f < need]
    landed_before = max(0, bt.hits - bt.parries)
    bt.hits += len(hits)
    if gd.has_skill("parry") and not _skill_cancelled(state):
        ones = sum(1 for f in misses + hits if f == 1)
        if ones:
            bt.parries += ones
            state.log(
                "parry",
                f"Gorgutt parries: {ones} more 1(s), {bt.parries} against {bt.hits} hit(s) in this battle",
                parries=bt.parries,
                hits=bt.hits,
                rule="DEF-GEN-08",
            )
    total = max(0, bt.hits - bt.parries) - landed_before
    g.wounds = max(0, min(gd.life, g.wounds + total))
    state.log(
        "general_wounded",
        (
            f"{state.hero_name(slot)} lands {total} hit(s) on {gd.name}"
            if total >= 0
            else f"Gorgutt's parries take back {-total} hit(s) landed earlier"
        )
        + f" ({gd.life - g.wounds} life left)",
        hits=total,
        general=COLOURS[bt.general],
    )
    if g.wounds >= gd.life:
        general_defeated(state, slot)


def general_defeated(state: DefendersState, slot: int) -> None:
    """DEF-GEN-03: the slayer takes the card; every participant draws 3; war status advances."""
    bt = state.battle
    assert bt is not None
    gd = state.board.general_by_colour[bt.general]
    assert gd is not None
    s = state.slots[slot]
    state.own_generals()[bt.general] = None
    s.slain.append(bt.general)
    state.own_generals_slain()[s.player] += 1
    state.log(
        "general_defeated", f"{gd.name} is defeated! {state.hero_name(slot)} becomes Slayer", general=gd.name
    )
    _discard_committed(state)
    _release_participants(state)
    for p in bt.participants:
        if state.slots[p].hero is not None:
            cards.draw_hero_cards(state, p, REWARD_CARDS)
    drop_impossible_quests(state)
    state.war = min(3, state.war + 1)

    state.log("war_status", f"War status: {WAR_NAMES[state.war]}", war=state.war, rule="DEF-DRK-04")
    state.battle = None
    for p in bt.participants:
        excess = len(state.slots[p].hand) - cards.HAND_LIMIT
        if excess > 0:
            state.owed_discards.append([p, excess])
    if all(g is None for g in state.generals):
        state.outcome = "win"
        state.ending = "generals_defeated"
        state.won = True
        state.log("game_won", "All four generals are defeated: the realm is saved!", rule="DEF-END-01")


def drop_impossible_quests(state: DefendersState) -> None:
    """DEF-CRD-03: a quest that can no longer be done (scouting a defeated general) is replaced."""
    for i in range(len(state.slots)):
        q = quests.quest_of(state, i)
        if q is not None and q.kind == "scout" and state.generals[COLOURS.index(q.colours[0])] is None:
            state.log("quest_impossible", f"{q.name} can no longer be done; a new quest is drawn", quest=q.id)
            cards.draw_quest(state, i)


def _release_participants(state: DefendersState) -> None:
    """The battle is over for everyone in it: Battle Luck and Amarak's Blessing, each played for
    one battle, are spent whether or not their holder came to roll."""
    bt = state.battle
    assert bt is not None
    for p in bt.participants:
        state.slots[p].turn.pop("luck", None)
        state.slots[p].turn.pop("blessing", None)


def _discard_committed(state: DefendersState) -> None:
    bt = state.battle
    assert bt is not None
    for committed in bt.committed.values():
        for cid in committed:
            _drop_card(state, cid)
    bt.committed = {}


def conclude(state: DefendersState) -> None:
    """The attack failed: penalties, back to Monarch City; the general heals or regenerates.

    DEF-GEN-04, DEF-GEN-05, DEF-GEN-09.
    """
    bt = state.battle
    assert bt is not None
    if state.generals[bt.general] is None:
        state.battle = None
        return
    gd = state.board.general_by_colour[bt.general]
    g = state.own_general(bt.general)
    assert gd is not None
    _discard_committed(state)
    skill_off = _skill_cancelled(state)
    _release_participants(state)
    state.battle = None
    state.log("battle_lost", f"The attack on {gd.name} fails", general=gd.name, rule="DEF-GEN-04")
    for p in bt.participants:
        s = state.slots[p]
        if s.hero is None:
            continue
        if combat.has_reward(state, p, "war_banner"):
            # The card's reward in the English rulebook: ignore the wounds and the other effects
            # of losing a battle to a general - no penalty, and no return to Monarch City.
            state.log(
                "war_banner",
                f"{state.hero_name(p)} holds the War Banner of Valor: no penalty, no retreat",
                hero=s.hero,
            )
            continue
        if not state.options.get("easy_no_penalty"):
            penalty(state, p, gd.penalty_life, gd.penalty_cards)
        if state.slots[p].hero is not None:  # read again: the penalty may have killed the hero
            s.loc = state.board.monarch
            state.log("to_monarch", f"{state.hero_name(p)} is carried back to Monarch City", hero=s.hero)
    if gd.has_skill("regeneration") and not skill_off:
        if g.wounds:
            state.log("regenerate", f"{gd.name} regenerates all wounds", rule="DEF-GEN-09")
        g.wounds = 0
        g.heal_from = -1
    elif g.wounds > 0:
        grave = gd.grave_at is not None and gd.life - g.wounds <= gd.grave_at
        # Light: heals from the end of the next turn. Grave: once the starter has played another turn.
        g.heal_from = state.turn_no + (len(state.slots) if grave else 1)
        state.log(
            "general_wound_kind",
            f"{gd.name} is {'gravely' if grave else 'lightly'} wounded",
            grave=grave,
            heal_from=g.heal_from,
            rule="DEF-GEN-05",
        )


def _amount(state: DefendersState, slot: int, spec: str, what: str) -> int:
    if spec.startswith("D"):
        return combat.roll(state, slot, 1, f"penalty ({what})")[0] if spec == "D6" else _d3(state, slot)
    return int(spec)


def _d3(state: DefendersState, slot: int) -> int:
    face = combat.roll(state, slot, 1, "penalty (D3 = half a d6, rounded up)")[0]
    return (face + 1) // 2


def penalty(state: DefendersState, slot: int, life_spec: str, cards_spec: str) -> None:
    """The general sheet's penalty: lost cards (chosen by the player), then lost life tokens."""

    s = state.slots[slot]
    if cards_spec == "all":
        for cid in list(s.hand):
            cards.discard(state, slot, cid)
        state.log("penalty_cards", f"{state.hero_name(slot)} loses every hero card", hero=s.hero)
    else:
        n = min(len(s.hand), _amount(state, slot, cards_spec, "cards"))
        if n:
            state.owed_discards.append([slot, n])
            state.log(
                "penalty_cards", f"{state.hero_name(slot)} must give up {n} card(s)", hero=s.hero, count=n
            )
    life = _amount(state, slot, life_spec, "life")
    if s.hero in ("dwarf", "paladin"):
        life = max(0, life - 1)
    if life:
        state.log(
            "penalty_life", f"{state.hero_name(slot)} loses {life} life token(s)", hero=s.hero, count=life
        )
        heroes.wound(state, slot, life)
