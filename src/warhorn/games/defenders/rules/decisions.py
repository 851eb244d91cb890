"""Who decides now, and one handler per kind of decision.

Every decision the game can wait for has one :class:`DecisionHandler`: its prompt
(:meth:`~DecisionHandler.decision`), the actions it allows (:meth:`~DecisionHandler.legal`,
the one generator), why an action is refused (:meth:`~DecisionHandler.check`: legal means a
member of the generator's list, nothing else) and what a legal action does
(:meth:`~DecisionHandler.apply`). :func:`handler_for` is the only place that says which
decision is pending; ``DefendersState.pending``, ``legal_actions`` and ``_apply_in_place``
all go through it, and :func:`warhorn.games.defenders.rules.turn.advance` runs the
automatic steps after each action.

This module sits on top of the rules modules: it imports them, none imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.errors import IllegalActionError
from warhorn.games.defenders.actions import (
    ChooseHero,
    Discard,
    EndDay,
    Pass,
    Pick,
    Redraw,
    TurnChoice,
    TurnUndead,
)
from warhorn.games.defenders.board import BLACK, BLUE, COLOURS, MINION_NAMES
from warhorn.games.defenders.records import DecisionKind, NightStage, Phase, PickStage
from warhorn.games.defenders.rules import (
    battle,
    cards,
    darkness,
    hero_actions,
    heroes,
    minions,
    picks,
    quests,
    specials,
    turn,
)
from warhorn.games.defenders.rules.interned import made

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState


class DecisionHandler:
    """One kind of decision (a subclass per kind; instances hold nothing)."""

    #: The kinds of :class:`Decision` this handler asks (the battle asks three in turn).
    kinds: ClassVar[tuple[DecisionKind, ...]] = ()

    def decision(self, state: DefendersState) -> Decision:
        """Who decides, and the prompt."""
        raise NotImplementedError

    def legal(self, state: DefendersState) -> list[Action]:
        """Every action this decision allows now: the one generator of legal actions."""
        raise NotImplementedError

    def check(self, state: DefendersState, action: Action) -> IllegalActionError | None:
        """None if ``action`` is legal (a member of :meth:`legal`), else why it is refused."""
        if action in state.legal_actions():
            return None
        return self.refusal(state, action)

    def refusal(self, state: DefendersState, action: Action) -> IllegalActionError:
        """Why ``action`` is refused (it is not among :meth:`legal`), naming a rule where one applies."""
        decision = self.decision(state)
        return IllegalActionError(
            f"{action.notation()!r} is not legal now (waiting for player {decision.player}: "
            f"{decision.prompt})",
            decision.rule,
        )

    def apply(self, state: DefendersState, action: Action) -> None:
        """Carry out a legal action (the automatic steps after it are :func:`turn.advance`'s)."""
        raise NotImplementedError


class ReplaceHero(DecisionHandler):
    """DEF-TRN-03: a fallen hero's player chooses the hero who joins in Monarch City."""

    kinds = (DecisionKind.CHOOSE_HERO,)

    def decision(self, state: DefendersState) -> Decision:
        slot = state.replacements[0]
        return made(
            Decision,
            state.slots[slot].player,
            DecisionKind.CHOOSE_HERO,
            "Choose a new hero for Monarch City",
            "DEF-TRN-03",
        )

    def legal(self, state: DefendersState) -> list[Action]:
        return [made(ChooseHero, h) for h in state.unused_heroes]

    def apply(self, state: DefendersState, action: Action) -> None:
        assert isinstance(action, ChooseHero)
        heroes.replace_hero(state, state.own_replacements().pop(0), action.hero)


class DiscardOwed(DecisionHandler):
    """DEF-TRN-01: a hero over the hand limit (or paying a general's penalty) discards a card."""

    kinds = (DecisionKind.DISCARD,)

    def decision(self, state: DefendersState) -> Decision:
        slot, n = state.owed_discards[0]
        return made(
            Decision,
            state.slots[slot].player,
            DecisionKind.DISCARD,
            f"{state.hero_name(slot)} must discard {n} card(s)",
            "DEF-TRN-01",
        )

    def legal(self, state: DefendersState) -> list[Action]:
        slot = state.owed_discards[0][0]
        hero = state.slots[slot].hero
        assert hero is not None
        return [made(Discard, hero, c) for c in cards.distinct(state, state.slots[slot].hand)]

    def apply(self, state: DefendersState, action: Action) -> None:
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


class PickTargets(DecisionHandler):
    """A card or reward whose targets are chosen one at a time (see :mod:`.picks`)."""

    kinds = (DecisionKind.PICK,)

    def decision(self, state: DefendersState) -> Decision:
        return picks.pending(state)

    def legal(self, state: DefendersState) -> list[Action]:
        return picks.legal(state)

    def apply(self, state: DefendersState, action: Action) -> None:
        p = state.picking
        assert p is not None
        b = state.board
        if isinstance(action, Pass):
            if p.stage == PickStage.LOCATION:
                p.stage = PickStage.GENERAL
            elif p.stage == PickStage.DISCARD:
                p.stage = PickStage.ORDER
            else:
                p.left = 0
            picks.settle(state)
            return
        assert isinstance(action, Pick)
        if p.stage == PickStage.MINION:
            c = COLOURS.index(action.what)
            i = b.loc(action.where)
            minions.remove_minions(state, i, c, 1, by=p.slot)
            p.taken[i] = p.taken.get(i, 0) + 1
            p.left -= 2 if p.effect == "cavalry_sweep" and c == BLUE else 1
            state.log(
                "pick",
                f"{minions.article(MINION_NAMES[c])} is removed from {action.where}",
                location=action.where,
            )
        elif p.stage == PickStage.LOCATION:
            minions.clear_location(state, b.loc(action.where), by=p.slot)
            p.chosen.append(action.where)
            p.left -= 1
            if p.left <= 0:
                p.stage = PickStage.GENERAL
        elif p.stage == PickStage.GENERAL:
            c = COLOURS.index(action.where)
            g = state.own_general(c)
            gd = b.general_by_colour[c]
            assert gd is not None
            back = gd.path[gd.path.index(b.location_names[g.loc]) - 1]
            g.loc = b.loc(back)
            state.log("general_pushed", f"{gd.name} is pushed back to {back}", general=COLOURS[c])
            p.left = 0
            p.stage = PickStage.DONE
        elif p.stage == PickStage.HERO:
            p.chosen.append(action.where)
            p.stage = PickStage.TO
        elif p.stage == PickStage.TO:
            hero = p.chosen[-1]
            slot = state.slot_of(hero)
            state.slots[slot].loc = b.loc(action.where)
            state.log("hero_flown", f"{state.hero_name(slot)} is carried to {action.where}", hero=hero)
            quests.on_arrival(state, slot)
            p.left -= 1
            p.stage = PickStage.HERO
        elif p.stage == PickStage.DISCARD:
            p.chosen.remove(action.where)
            state.ds_deck = state.ds_deck.discard(action.where)
            state.log("dark_visions_discard", f"{action.where} is discarded", card=action.where)
        elif p.stage == PickStage.ORDER:
            p.chosen.remove(action.where)
            picks.put_back_next(state, action.where)
        picks.settle(state)


class GeneralBattle(DecisionHandler):
    """A general battle's three questions: who joins, what each commits, who rolls next (:mod:`.battle`)."""

    kinds = (DecisionKind.JOIN, DecisionKind.COMMIT, DecisionKind.NEXT_ATTACKER)

    def decision(self, state: DefendersState) -> Decision:
        return battle.pending(state)

    def legal(self, state: DefendersState) -> list[Action]:
        return battle.legal(state)

    def apply(self, state: DefendersState, action: Action) -> None:
        battle.apply(state, action)


class SpecialWindow(DecisionHandler):
    """DEF-CRD-02: a player may play purple cards or rewards at a window, or pass (:mod:`.specials`)."""

    kinds = (DecisionKind.SPECIAL,)

    def decision(self, state: DefendersState) -> Decision:
        return specials.window_decision(state)

    def legal(self, state: DefendersState) -> list[Action]:
        return specials.window_legal(state)

    def apply(self, state: DefendersState, action: Action) -> None:
        specials.window_apply(state, action)


class TurnUndeadChoice(DecisionHandler):
    """The Cleric's Turn Undead at the end of the Daytime: every undead on the Cleric's location
    is driven out, one at a time, each to a connected location of the Cleric's choice (the
    hero sheet says all of them: there is no passing)."""

    kinds = (DecisionKind.TURN_UNDEAD,)

    def decision(self, state: DefendersState) -> Decision:
        assert state.turn_undead_slot is not None
        s = state.slots[state.turn_undead_slot]
        return made(
            Decision,
            s.player,
            DecisionKind.TURN_UNDEAD,
            "Cleric: drive an undead to a connected location (every undead here is driven out)",
            "DEF-ACT-05",
        )

    def legal(self, state: DefendersState) -> list[Action]:
        assert state.turn_undead_slot is not None
        s = state.slots[state.turn_undead_slot]
        return [made(TurnUndead, state.board.location_names[n]) for n in state.board.neighbours(s.loc)]

    def apply(self, state: DefendersState, action: Action) -> None:
        slot = state.turn_undead_slot
        assert slot is not None
        here = state.slots[slot].loc
        assert isinstance(action, TurnUndead)
        turn.turn_undead(state, slot, state.board.loc(action.to))
        if state.minions[here][BLACK] == 0 or state.outcome:
            state.turn_undead_slot = None
            if state.outcome is None:
                turn.finish_day(state)


class WizardWisdom(DecisionHandler):
    """The Wizard's Wisdom: redraw the Darkness Spreads card just drawn, or pass (:mod:`.darkness`)."""

    kinds = (DecisionKind.WISDOM,)

    def decision(self, state: DefendersState) -> Decision:
        assert state.night is not None
        wizard = darkness.wizard_slot(state)
        assert wizard is not None
        return made(
            Decision,
            state.slots[wizard].player,
            DecisionKind.WISDOM,
            f"Wizard: redraw Darkness Spreads card {state.night.card}, or pass",
            None,
        )

    def legal(self, state: DefendersState) -> list[Action]:
        return [made(Redraw), made(Pass)]

    def apply(self, state: DefendersState, action: Action) -> None:
        darkness.apply_wisdom(state, isinstance(action, Redraw))


class ChooseForTurn(DecisionHandler):
    """At the start of its turn the Eagle Rider chooses sky or ground, the Sorceress a shape."""

    kinds = (DecisionKind.TURN_CHOICE,)

    def decision(self, state: DefendersState) -> Decision:
        s = state.slots[state.current]
        return made(
            Decision,
            s.player,
            DecisionKind.TURN_CHOICE,
            f"{state.hero_name(state.current)}: choose for this turn",
        )

    def legal(self, state: DefendersState) -> list[Action]:
        return [made(TurnChoice, c) for c in turn.turn_choices(state)]

    def apply(self, state: DefendersState, action: Action) -> None:
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


class Daytime(DecisionHandler):
    """DEF-TRN-02: the active hero spends an action (:mod:`.hero_actions`), plays for free, or
    ends the Daytime."""

    kinds = (DecisionKind.ACTION,)

    def decision(self, state: DefendersState) -> Decision:
        # Asked every step: kept per board by what the prompt names (seat, hero, location,
        # actions left), so the prompt is formatted once, not each time.
        s = state.slots[state.current]
        key = ("decisions.daytime", state.current, s.player, s.hero, s.loc, s.actions)
        found: Decision | None = state.board.derived.get(key)
        if found is None:
            found = state.board.derived[key] = made(
                Decision,
                s.player,
                DecisionKind.ACTION,
                f"{state.hero_name(state.current)} at {state.board.location_names[s.loc]}: "
                f"{s.actions} action(s) left",
                "DEF-TRN-02",
            )
        return found

    def legal(self, state: DefendersState) -> list[Action]:
        return hero_actions.legal_day(state)

    def refusal(self, state: DefendersState, action: Action) -> IllegalActionError:
        reason = hero_actions.why_illegal_day(state, action)
        return reason if reason is not None else super().refusal(state, action)

    def apply(self, state: DefendersState, action: Action) -> None:
        if isinstance(action, EndDay):
            turn.end_day(state)
        else:
            hero_actions.apply_day(state, action)


REPLACE_HERO = ReplaceHero()
DISCARD_OWED = DiscardOwed()
PICK_TARGETS = PickTargets()
GENERAL_BATTLE = GeneralBattle()
SPECIAL_WINDOW = SpecialWindow()
TURN_UNDEAD = TurnUndeadChoice()
WIZARD_WISDOM = WizardWisdom()
CHOOSE_FOR_TURN = ChooseForTurn()
DAYTIME = Daytime()
#: Every handler, in the order :func:`handler_for` asks them.
HANDLERS: tuple[DecisionHandler, ...] = (
    REPLACE_HERO,
    DISCARD_OWED,
    PICK_TARGETS,
    GENERAL_BATTLE,
    SPECIAL_WINDOW,
    TURN_UNDEAD,
    WIZARD_WISDOM,
    CHOOSE_FOR_TURN,
    DAYTIME,
)


def handler_for(state: DefendersState) -> DecisionHandler | None:
    """The handler of the pending decision (None once the game is over): the one place that
    says who decides now. Interruptions come first: a fallen hero's replacement, owed
    discards, a picking, a battle, a window; then the Cleric's and the Wizard's choices; then
    the turn itself."""
    if state.outcome is not None:
        return None
    if state.replacements:
        return REPLACE_HERO
    if state.owed_discards:
        return DISCARD_OWED
    if state.picking is not None:
        return PICK_TARGETS
    if state.battle is not None:
        return GENERAL_BATTLE
    if state.window is not None:
        return SPECIAL_WINDOW
    if state.turn_undead_slot is not None:
        return TURN_UNDEAD
    if state.night is not None and state.night.stage == NightStage.WISDOM:
        return WIZARD_WISDOM
    if state.phase == Phase.START:
        return CHOOSE_FOR_TURN
    if state.phase == Phase.DAY:
        return DAYTIME
    raise AssertionError(f"no decision in phase {state.phase}")
