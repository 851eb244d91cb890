"""Who decides now in Conquest of Nerath, and one handler per kind of decision.

Every decision the game can wait for has one :class:`DecisionHandler`: who decides and the
prompt (:meth:`~DecisionHandler.decision`), the actions it allows (:meth:`~DecisionHandler.legal`,
the one generator), whether an action is legal (:meth:`~DecisionHandler.check`: a member of
the generator's list, nothing else; a refused action is explained by the rules module's
diagnosis, naming the rule) and what a legal action does (:meth:`~DecisionHandler.apply`).
:func:`handler_for` is the only place that says which decision is pending;
``NerathState.pending``, ``legal_actions``, ``is_legal``/``why_illegal`` and
``_apply_in_place`` all go through it.

Canonical forms: a move is listed with one shortest legal path per destination (any other
path ends in the same place with the same pieces, so it is the same move written
differently: the refusal names the listed one, and text resolves to it); a warship's sail
likewise (a longer path only spends more of its movement).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.games.nerath.actions import (
    AcceptSplit,
    AssignDamage,
    Buy,
    ContinueBattle,
    Fight,
    Load,
    Move,
    Pass,
    PlayEvent,
    PlayTreasure,
    RefuseSplit,
    Retreat,
    RunAmok,
    ShipMove,
    SplitDamage,
    StayAboard,
    Unload,
)
from warhorn.games.nerath.board import DUNGEON
from warhorn.games.nerath.rules import battle_flow, cards, movement, reinforcements, reposition
from warhorn.games.nerath.state import BATTLES, INCOME, MOVEMENT, REINFORCEMENTS, REPOSITION

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


class DecisionKind(StrEnum):
    """The kinds of decision a game of Nerath waits for (``Decision.kind``)."""

    CARD_WINDOW = "card_window"
    MOVEMENT = "movement"
    BATTLE_ORDER = "battle_order"
    DAMAGE_SPLIT = "damage_split"
    SPLIT_ANSWER = "split_answer"
    DAMAGE = "damage"
    CONTINUE_OR_RETREAT = "continue_or_retreat"
    LANDING = "landing"
    RUN_AMOK = "run_amok"
    REPOSITION = "reposition"
    REINFORCEMENTS = "reinforcements"


Diagnosis = Callable[["NerathState", Any], IllegalActionError | None]
Members = Callable[["NerathState", Any], list[Any]]


class DecisionHandler:
    """One kind of decision (a subclass per kind; instances hold nothing).

    ``members`` maps each action type the decision allows to the part of the generator
    that lists actions of that type (membership is tested against that part only, so a
    check does not build the whole list); ``diagnoses`` maps action types to the rules
    module's explanation of a refusal.
    """

    kind: ClassVar[DecisionKind]
    #: The rule a decision of the kingdom whose turn it is names (the kinds that ask another
    #: player write :meth:`decision` themselves).
    rule: ClassVar[str] = ""
    #: :meth:`members`, once asked (the same for every state)
    _members: dict[type[Action], Members] | None = None

    def task(self, s: NerathState) -> str:
        """What the kingdom whose turn it is is asked to do (its prompt, after its name)."""
        raise NotImplementedError

    def decision(self, s: NerathState) -> Decision:
        k = s.current_kingdom
        return Decision(s.player_of[k], self.kind, f"{s.kingdom_name(k)}: {self.task(s)}", self.rule)

    def legal(self, s: NerathState) -> list[Action]:
        """Every action this decision allows now: the one generator of legal actions."""
        raise NotImplementedError

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        """For each action type allowed now: the generator's list of that type (see the class doc)."""
        return {}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        return {}

    def check(self, s: NerathState, a: Action) -> IllegalActionError | None:
        """None if ``a`` is one of the generator's actions, else why it is refused (naming the rule)."""
        table = self._members
        if table is None:  # the table holds functions of the state: built once per handler
            table = self._members = self.members(s)
        members = table.get(type(a))
        if members is not None and a in members(s, a):
            return None
        return self.refusal(s, a)

    def canonical(self, s: NerathState, a: Action) -> Action | None:
        """The listed action that ``a`` writes differently (a legal move or sail along another path,
        a retreat that leaves pieces to the first destination), or None."""
        diagnose = self.diagnoses(s).get(type(a))
        if diagnose is None or diagnose(s, a) is not None:
            return None
        if isinstance(a, Retreat):
            full = battle_flow.complete_retreat(s, a)
            return full if full in self.legal(s) else None
        return same_outcome(a, self.legal(s))

    def refusal(self, s: NerathState, a: Action) -> IllegalActionError:
        diagnose = self.diagnoses(s).get(type(a))
        if diagnose is not None:
            err = diagnose(s, a)
            if err is not None:
                return err
            listed = self.canonical(s, a)
            if listed is not None:
                return IllegalActionError(
                    f"{a.notation()!r} is written {listed.notation()!r} (its listed form)",
                    "NER-BAT-13" if isinstance(a, Retreat) else "NER-MOV-01",
                )
        decision = self.decision(s)
        return IllegalActionError(f"{a.notation()!r} is not possible now ({decision.prompt})", decision.rule)

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        raise NotImplementedError


def same_outcome(a: Action, legal: list[Action]) -> Action | None:
    """The listed action that ``a`` (a move or sail along another path) stands for, if any."""
    if isinstance(a, Move) and a.path:
        for x in legal:
            if isinstance(x, Move) and (x.piece, x.count, x.path[0], x.path[-1]) == (
                a.piece,
                a.count,
                a.path[0],
                a.path[-1],
            ):
                return x
    if isinstance(a, ShipMove) and a.path:
        for x in legal:
            if isinstance(x, ShipMove) and (x.ship, x.path[-1]) == (a.ship, a.path[-1]):
                return x
    return None


def _plays(s: NerathState, a: PlayEvent | PlayTreasure) -> list[Any]:
    return cards.legal_plays(s, s.current_kingdom)


def _check_play(s: NerathState, a: PlayEvent | PlayTreasure) -> IllegalActionError | None:
    return cards.check_play(s, s.current_kingdom, a)


def _group_moves(s: NerathState, a: Move) -> list[Any]:
    return movement.group_moves(s, s.current_kingdom, a)


def _sails(s: NerathState, a: ShipMove) -> list[Any]:
    return movement.legal_sails(s, s.current_kingdom)


def _loads(s: NerathState, a: Load) -> list[Any]:
    return movement.legal_loads(s, s.current_kingdom)


def _unloads(s: NerathState, a: Unload) -> list[Any]:
    return movement.legal_unloads(s, s.current_kingdom)


def _pass(s: NerathState, a: Pass) -> list[Any]:
    return [Pass()]


def _own_turn_diagnoses() -> dict[type[Action], Diagnosis]:
    return {
        Move: lambda s, a: movement.check_move(s, s.current_kingdom, a),
        ShipMove: lambda s, a: movement.check_sail(s, s.current_kingdom, a),
        Load: lambda s, a: movement.check_load(s, s.current_kingdom, a),
        Unload: lambda s, a: movement.check_unload(s, s.current_kingdom, a),
        PlayEvent: _check_play,
        PlayTreasure: _check_play,
    }


class CardWindowHandler(DecisionHandler):
    """A timing window is open: the kingdom at the head of its queue plays a card or passes (NER-CRD-01)."""

    kind = DecisionKind.CARD_WINDOW

    def decision(self, s: NerathState) -> Decision:
        w = s.d.windows[-1]
        who = w.queue[0]
        what = "answer the card just played" if w.name == "cancel" else w.name.replace("_", " ")
        return Decision(
            s.player_of[who], self.kind, f"{s.kingdom_name(who)}: play a card ({what}) or pass", "NER-CRD-01"
        )

    def legal(self, s: NerathState) -> list[Action]:
        return [*cards.legal_plays(s, cards.acting_kingdom(s)), Pass()]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        def plays(s: NerathState, a: Action) -> list[Any]:
            return cards.legal_plays(s, cards.acting_kingdom(s))

        return {PlayEvent: plays, PlayTreasure: plays, Pass: _pass}

    def refusal(self, s: NerathState, a: Action) -> IllegalActionError:
        if isinstance(a, PlayEvent | PlayTreasure):
            err = cards.check_play(s, cards.acting_kingdom(s), a)
            if err is not None:
                return err
        return IllegalActionError("a card window is open: play a card or pass", "NER-CRD-01")

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        if isinstance(a, Pass):
            return cards.pass_window(s)
        assert isinstance(a, PlayEvent | PlayTreasure)
        return cards.apply_play(s, cards.acting_kingdom(s), a)


class MovementHandler(DecisionHandler):
    """Phase 2: move, sail, load and unload, play cards, then pass (NER-MOV-01)."""

    kind = DecisionKind.MOVEMENT

    rule = "NER-MOV-01"

    def task(self, s: NerathState) -> str:
        return "move pieces, then pass"

    def legal(self, s: NerathState) -> list[Action]:
        k = s.current_kingdom
        listing = movement.own_turn_listing(s, k)
        return [
            *listing.moves,
            *listing.sails,
            *listing.loads,
            *listing.unloads,
            *cards.legal_plays(s, k),
            Pass(),
        ]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {
            Move: _group_moves,
            ShipMove: _sails,
            Load: _loads,
            Unload: _unloads,
            PlayEvent: _plays,
            PlayTreasure: _plays,
            Pass: _pass,
        }

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        return _own_turn_diagnoses()

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        k = s.current_kingdom
        if isinstance(a, Pass):
            events = [s._goto(BATTLES)]
            s.d.battles_todo = battle_flow.find_battles(s, k)
            return events
        return _apply_own_turn(s, k, a)


def _apply_own_turn(s: NerathState, k: int, a: Action) -> list[Event]:
    """Moves, sails, loads, unloads, buys and card plays of the kingdom whose turn it is."""
    if isinstance(a, Move):
        return movement.apply_move(s, k, a)
    if isinstance(a, ShipMove):
        return movement.apply_sail(s, k, a)
    if isinstance(a, Load):
        return movement.apply_load(s, k, a)
    if isinstance(a, Unload):
        return movement.apply_unload(s, k, a)
    if isinstance(a, Buy):
        return reinforcements.apply_buy(s, k, a)
    assert isinstance(a, PlayEvent | PlayTreasure), a
    return cards.apply_play(s, k, a)


class RepositionHandler(DecisionHandler):
    """Phase 4: flyers and heroes in dungeons reposition, then pass (NER-REP-01)."""

    kind = DecisionKind.REPOSITION

    rule = "NER-REP-01"

    def task(self, s: NerathState) -> str:
        return "reposition flyers and heroes, then pass"

    def legal(self, s: NerathState) -> list[Action]:
        k = s.current_kingdom
        listing = movement.own_turn_listing(s, k)
        out: list[Action] = [*listing.moves, *listing.loads, *cards.legal_plays(s, k)]
        if not reposition.blocking(s, k):
            out.append(Pass())
        return out

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        def may_pass(s: NerathState, a: Action) -> list[Any]:
            return [] if reposition.blocking(s, s.current_kingdom) else [Pass()]

        return {Move: _group_moves, Load: _loads, PlayEvent: _plays, PlayTreasure: _plays, Pass: may_pass}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        def blocked(s: NerathState, a: Action) -> IllegalActionError:
            return IllegalActionError(
                "a hero must leave the dungeon / a flyer must reach a friendly space first", "NER-REP-02"
            )

        return {**_own_turn_diagnoses(), Pass: blocked}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        k = s.current_kingdom
        if isinstance(a, Pass):
            events = reposition.finish(s, k)
            events.append(s._goto(REINFORCEMENTS))
            return events
        return _apply_own_turn(s, k, a)


class ReinforcementsHandler(DecisionHandler):
    """Phase 5: buy and place pieces, move new ones, then pass (NER-REI-01)."""

    kind = DecisionKind.REINFORCEMENTS

    rule = "NER-REI-01"

    def task(self, s: NerathState) -> str:
        return f"buy and place pieces ({s.d.gold[s.current_kingdom]} gold), then pass"

    def legal(self, s: NerathState) -> list[Action]:
        k = s.current_kingdom
        return [*reinforcements.legal_buys(s, k), *MovementHandler().legal(s)]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        def buys(s: NerathState, a: Buy) -> list[Any]:
            return reinforcements.legal_buys(s, s.current_kingdom)

        return {**MovementHandler().members(s), Buy: buys}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        return {**_own_turn_diagnoses(), Buy: lambda s, a: reinforcements.check_buy(s, s.current_kingdom, a)}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        k = s.current_kingdom
        if isinstance(a, Pass):
            events = [s._goto(INCOME)]
            cards.open_window(s, "income", [k], "none")
            return events
        return _apply_own_turn(s, k, a)


def _battles_first(s: NerathState, a: Action) -> IllegalActionError:
    return IllegalActionError("battles are fought before the phase ends", "NER-BAT-01")


class BattleOrderHandler(DecisionHandler):
    """Phase 3: the attacker chooses the next declared battle (NER-BAT-01)."""

    kind = DecisionKind.BATTLE_ORDER

    rule = "NER-BAT-01"

    def task(self, s: NerathState) -> str:
        return "choose the next battle"

    def legal(self, s: NerathState) -> list[Action]:
        return [*battle_flow.legal_fights(s), *cards.legal_plays(s, s.current_kingdom)]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {
            Fight: lambda s, a: battle_flow.legal_fights(s),
            PlayEvent: _plays,
            PlayTreasure: _plays,
        }

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        def fight(s: NerathState, a: Action) -> IllegalActionError:
            return IllegalActionError(
                "fight a declared battle; all sea battles come before land battles", "NER-BAT-01"
            )

        return {Fight: fight, PlayEvent: _check_play, PlayTreasure: _check_play, Pass: _battles_first}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        if isinstance(a, Fight):
            return battle_flow.start_battle(s, s.board.idx(a.space))
        assert isinstance(a, PlayEvent | PlayTreasure), a
        return cards.apply_play(s, s.current_kingdom, a)


class LandingHandler(DecisionHandler):
    """After a won sea battle: land the warships' cargo, or stay aboard (NER-BAT-09)."""

    kind = DecisionKind.LANDING

    rule = "NER-BAT-09"

    def task(self, s: NerathState) -> str:
        return "land cargo after the sea battle, or stay aboard"

    @staticmethod
    def _ships(s: NerathState) -> list[Any]:
        return [s.d.units[u] for u in s.d.landings if u in s.d.units]

    def legal(self, s: NerathState) -> list[Action]:
        ships = self._ships(s)
        out: list[Action] = list(movement.legal_unloads(s, s.current_kingdom, ships))
        out += [StayAboard(ship.uid) for ship in ships if s.cargo_of(ship.uid)]
        return out

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        def unloads(s: NerathState, a: Action) -> list[Any]:
            return movement.legal_unloads(s, s.current_kingdom, self._ships(s))

        def stays(s: NerathState, a: Action) -> list[Any]:
            return [StayAboard(ship.uid) for ship in self._ships(s) if s.cargo_of(ship.uid)]

        return {Unload: unloads, StayAboard: stays}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        def unload(s: NerathState, a: Unload) -> IllegalActionError | None:
            if a.ship not in s.d.landings:
                return IllegalActionError(
                    "only warships that won the sea battle land cargo now", "NER-BAT-09"
                )
            return movement.check_unload(s, s.current_kingdom, a)

        def stay(s: NerathState, a: StayAboard) -> IllegalActionError:
            return IllegalActionError("no landing is pending for that warship", "NER-BAT-09")

        return {Unload: unload, StayAboard: stay, Pass: _battles_first}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        d = s.d
        k = s.current_kingdom
        if isinstance(a, StayAboard):
            d.landings = tuple(u for u in d.landings if u != a.ship)
            return []
        assert isinstance(a, Unload), a
        events = movement.apply_unload(s, k, a)
        d.landings = tuple(u for u in d.landings if u != a.ship)
        for _, target in a.drops:
            t = s.board.idx(target)
            if (s.is_enemy(t, k) or s.board.kind[t] == DUNGEON) and t not in d.battles_todo:
                d.battles_todo = (*d.battles_todo, t)  # NER-BAT-09/10
        return events


class RunAmokHandler(DecisionHandler):
    """A surviving monster may run amok into an adjacent empty enemy territory (NER-BAT-20)."""

    kind = DecisionKind.RUN_AMOK

    rule = "NER-BAT-20"

    def task(self, s: NerathState) -> str:
        return "a monster may run amok"

    def legal(self, s: NerathState) -> list[Action]:
        return [*battle_flow.legal_amok(s), Pass()]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {RunAmok: lambda s, a: battle_flow.legal_amok(s), Pass: _pass}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        return {RunAmok: battle_flow.check_amok}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        if isinstance(a, Pass):
            return battle_flow.pass_amok(s)
        assert isinstance(a, RunAmok), a
        return battle_flow.apply_amok(s, a)


class DamageSplitHandler(DecisionHandler):
    """Allied defenders: the ally with more pieces offers how the volley's damage is shared (NER-BAT-07)."""

    kind = DecisionKind.DAMAGE_SPLIT

    def decision(self, s: NerathState) -> Decision:
        b = s.d.battle
        assert b is not None and b.split is not None
        sp = b.split
        return Decision(
            s.player_of[sp.proposer],
            self.kind,
            f"{s.kingdom_name(sp.proposer)}: offer how {sp.hits} damage is shared with "
            f"{s.kingdom_name(sp.partner)}",
            "NER-BAT-07",
        )

    def legal(self, s: NerathState) -> list[Action]:
        return list(battle_flow.legal_split_offers(s))

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {SplitDamage: lambda s, a: battle_flow.legal_split_offers(s)}

    def refusal(self, s: NerathState, a: Action) -> IllegalActionError:
        if isinstance(a, SplitDamage):
            err = battle_flow.check_split_offer(s, a)
            if err is not None:
                return err
        return IllegalActionError(
            "the allied defenders first agree how to share the damage (split ...)", "NER-BAT-07"
        )

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        assert isinstance(a, SplitDamage), a
        return battle_flow.apply_split_offer(s, a)


class SplitAnswerHandler(DecisionHandler):
    """The ally accepts or refuses the offered damage split (NER-BAT-07)."""

    kind = DecisionKind.SPLIT_ANSWER

    def decision(self, s: NerathState) -> Decision:
        b = s.d.battle
        assert b is not None and b.split is not None and b.split.offer is not None
        sp = b.split
        offer = sp.offer
        assert offer is not None
        return Decision(
            s.player_of[sp.partner],
            self.kind,
            f"{s.kingdom_name(sp.partner)}: accept taking {offer[1]} of {sp.hits} damage "
            f"({s.kingdom_name(sp.proposer)} takes {offer[0]}) or refuse",
            "NER-BAT-07",
        )

    def legal(self, s: NerathState) -> list[Action]:
        return [AcceptSplit(), RefuseSplit()]

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {AcceptSplit: lambda s, a: [AcceptSplit()], RefuseSplit: lambda s, a: [RefuseSplit()]}

    def refusal(self, s: NerathState, a: Action) -> IllegalActionError:
        return IllegalActionError("answer the ally's offer: accept or refuse", "NER-BAT-07")

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        return battle_flow.apply_split_answer(s, isinstance(a, AcceptSplit))


class DamageHandler(DecisionHandler):
    """One volley's damage is put on pieces (or guardian dice) by the player it falls to (NER-BAT-03)."""

    kind = DecisionKind.DAMAGE

    def decision(self, s: NerathState) -> Decision:
        b = s.d.battle
        assert b is not None
        o = b.orders[0]
        k = s.current_kingdom
        whose = "the guardians'" if o.kingdom < 0 else f"{s.kingdom_name(o.kingdom)}'s"
        rule = "NER-DUN-02" if o.kingdom < 0 else ("NER-BAT-07" if o.kingdom != k else "NER-BAT-03")
        return Decision(o.player, self.kind, f"assign {o.hits} damage to {whose} pieces", rule)

    def legal(self, s: NerathState) -> list[Action]:
        return list(battle_flow.legal_damage(s))

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        return {AssignDamage: lambda s, a: battle_flow.legal_damage(s)}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        def must_assign(s: NerathState, a: Action) -> IllegalActionError:
            return IllegalActionError("damage must be assigned", "NER-BAT-03")

        return {AssignDamage: battle_flow.check_damage, Pass: must_assign}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        assert isinstance(a, AssignDamage), a
        return battle_flow.apply_damage(s, a)


class ContinueOrRetreatHandler(DecisionHandler):
    """After a complete round the attacker fights on or retreats (NER-BAT-02 step 4, NER-BAT-12)."""

    kind = DecisionKind.CONTINUE_OR_RETREAT

    rule = "NER-BAT-12"

    def task(self, s: NerathState) -> str:
        b = s.d.battle
        assert b is not None
        return f"continue the battle at {s.board.sid(b.space)} or retreat"

    def legal(self, s: NerathState) -> list[Action]:
        b = s.d.battle
        assert b is not None
        out: list[Action] = [] if b.forced_retreat else [ContinueBattle()]
        return out + list(battle_flow.legal_retreats(s))

    def members(self, s: NerathState) -> dict[type[Action], Members]:
        def go_on(s: NerathState, a: Action) -> list[Any]:
            b = s.d.battle
            return [] if b is None or b.forced_retreat else [ContinueBattle()]

        return {ContinueBattle: go_on, Retreat: lambda s, a: battle_flow.legal_retreats(s)}

    def diagnoses(self, s: NerathState) -> dict[type[Action], Diagnosis]:
        def forced(s: NerathState, a: Action) -> IllegalActionError:
            return IllegalActionError("a card forces the attacker to retreat", "NER-BAT-12")

        return {ContinueBattle: forced, Retreat: battle_flow.check_retreat, Pass: _battles_first}

    def apply(self, s: NerathState, a: Action) -> list[Event]:
        if isinstance(a, ContinueBattle):
            return battle_flow.apply_continue(s, a)
        assert isinstance(a, Retreat), a
        return battle_flow.apply_retreat(s, a)


_HANDLERS: dict[DecisionKind, DecisionHandler] = {
    h.kind: h
    for h in (
        CardWindowHandler(),
        MovementHandler(),
        BattleOrderHandler(),
        DamageSplitHandler(),
        SplitAnswerHandler(),
        DamageHandler(),
        ContinueOrRetreatHandler(),
        LandingHandler(),
        RunAmokHandler(),
        RepositionHandler(),
        ReinforcementsHandler(),
    )
}


def pending_kind(s: NerathState) -> DecisionKind | None:
    """Which decision the game waits for now (None: the game is over). The only place that says so."""
    d = s.d
    if d.result is not None:
        return None
    if d.windows:
        return DecisionKind.CARD_WINDOW
    phase = d.pos.phase
    if phase == MOVEMENT:
        return DecisionKind.MOVEMENT
    if phase == BATTLES:
        b = d.battle
        if b is not None:
            if b.split is not None:
                return DecisionKind.DAMAGE_SPLIT if b.split.offer is None else DecisionKind.SPLIT_ANSWER
            return DecisionKind.DAMAGE if b.orders else DecisionKind.CONTINUE_OR_RETREAT
        if d.landings:
            return DecisionKind.LANDING
        if d.amok:
            return DecisionKind.RUN_AMOK
        return DecisionKind.BATTLE_ORDER
    if phase == REPOSITION:
        return DecisionKind.REPOSITION
    if phase == REINFORCEMENTS:
        return DecisionKind.REINFORCEMENTS
    return None  # pragma: no cover (draw and income run by themselves)


def handler_for(s: NerathState) -> DecisionHandler | None:
    kind = pending_kind(s)
    return None if kind is None else _HANDLERS[kind]
