"""Decisions inside phase 3 and 4: battle order, casualties, continue or retreat, Run Amok,
landings after a sea battle, and the reposition of flyers and heroes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.ai.heuristic import Choice
from warhorn.ai.nerath.knowledge import LOSS_VALUE
from warhorn.ai.nerath.odds_cache import Odds, side_odds
from warhorn.ai.nerath.situation import TREASURE_WORTH, Situation
from warhorn.games.nerath.actions import (
    AcceptSplit,
    AssignDamage,
    ContinueBattle,
    Fight,
    Load,
    Move,
    Pass,
    RefuseSplit,
    Retreat,
    RunAmok,
    SplitDamage,
    StayAboard,
    Unload,
)
from warhorn.games.nerath.board import LAND
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import battle_flow, movement, reposition
from warhorn.games.nerath.state import DamageOrder

if TYPE_CHECKING:
    from warhorn.engine import Action
    from warhorn.games.nerath.game import NerathState

#: Continue a battle while the chance to win stays at least this, or its expected worth is positive.
CONTINUE_AT = 0.35


def current_odds(s: NerathState) -> Odds:
    """Exact odds of the battle being fought, from the pieces (and damage) on both sides now."""
    b = s.d.battle
    assert b is not None
    return side_odds(battle_flow.side_model(s, False), battle_flow.side_model(s, True), sea=b.kind == "sea")


def battle_worth(s: NerathState, k: int, space: int) -> tuple[float, str]:
    if s.board.kind[space] == LAND:
        return Situation(s, k).conquest_value(space)
    if s.d.battle is not None and s.d.battle.kind == "dungeon":
        return TREASURE_WORTH, "a treasure"
    return 2.0, "the sea lane"


# --- battle order ------------------------------------------------------------------------------
def choose_fight(s: NerathState, legal: list[Action]) -> Choice:
    fights = [a for a in legal if isinstance(a, Fight)]
    if not fights:
        return Choice(legal[0], "the only action")
    # land battles in board order; a won battle never changes another one (NER-BAT-21)
    pick = fights[0]
    return Choice(pick, f"fight at {pick.space} next ({len(fights)} battle(s) waiting)")


# --- casualties ----------------------------------------------------------------------------------
def _token_loss(token: str) -> float:
    if token.startswith("warship("):
        inside = token[len("warship(") : -1].split("+")
        return LOSS_VALUE["warship"] + sum(PIECES[p].cost for p in inside if p in PIECES)
    if token in LOSS_VALUE:
        return LOSS_VALUE[token]
    base = token.removeprefix("wounded-")
    return float(PIECES[base].cost) if base in PIECES else 2.0


def _guardian_die_strength(token: str) -> float:
    sides = int(token.rpartition(":d")[2])
    return (sides - 5) / sides


def choose_damage(s: NerathState, player: int, legal: list[Action]) -> Choice:
    b = s.d.battle
    assert b is not None and b.orders
    order = b.orders[0]
    options = [a for a in legal if isinstance(a, AssignDamage)]
    if order.kingdom < 0:
        # we roll for the guardians: keep them strong against an enemy, weak against an ally
        ally = any(s.allied(k, b.attacker) for k in range(4) if s.player_of[k] == player)

        def score(a: AssignDamage) -> float:
            lost = sum(_guardian_die_strength(t) for t in a.targets)
            return lost if not ally else -lost

        pick = min(options, key=lambda a: (score(a), a.targets))
        side = "the ally's heroes" if ally else "the guardians"
        return Choice(pick, f"guardian damage: {', '.join(pick.targets)} (best for {side})")
    pick = min(options, key=lambda a: (sum(_token_loss(t) for t in a.targets), a.targets))
    lost = sum(_token_loss(t) for t in pick.targets)
    return Choice(
        pick, f"{order.hits} damage on the cheapest pieces: {', '.join(pick.targets)} (worth {lost:.1f})"
    )


# --- allied defenders sharing damage (NER-BAT-07) ----------------------------------------------------
def _cheapest_loss(s: NerathState, kingdom: int, hits: int) -> float:
    """The worth of the cheapest pieces ``kingdom`` can lose to ``hits`` damage in the current battle."""
    if hits <= 0:
        return 0.0
    order = DamageOrder(s.player_of[kingdom], kingdom, hits)
    return min(sum(_token_loss(t) for t in option) for option in battle_flow.damage_options(s, order))


def _split_loss(s: NerathState, proposer: int, partner: int, offer: tuple[int, int]) -> float:
    return _cheapest_loss(s, proposer, offer[0]) + _cheapest_loss(s, partner, offer[1])


def _default_split_loss(s: NerathState, proposer: int, partner: int, hits: int) -> float:
    """The expected worth the allies lose when the rule's default split applies (a tie's lot averaged)."""
    outcomes = battle_flow.default_split(s, hits)
    return sum(_split_loss(s, proposer, partner, (o[proposer], o[partner])) for o in outcomes) / len(outcomes)


def choose_split(s: NerathState, legal: list[Action]) -> Choice:
    """Offer the split that costs the alliance least: allies share the win, so their losses add up."""
    b = s.d.battle
    assert b is not None and b.split is not None
    sp = b.split
    offers = [a for a in legal if isinstance(a, SplitDamage)]

    def loss(a: SplitDamage) -> float:
        return _split_loss(s, sp.proposer, sp.partner, (a.shares[0][1], a.shares[1][1]))

    pick = min(offers, key=lambda a: (loss(a), a.shares))
    default = _default_split_loss(s, sp.proposer, sp.partner, sp.hits)
    return Choice(
        pick,
        f"share {sp.hits} damage {pick.shares[0][1]}+{pick.shares[1][1]}: the allies lose {loss(pick):.1f} "
        f"against {default:.1f} by the default split",
    )


def choose_split_answer(s: NerathState) -> Choice:
    """Accept an offer that costs the alliance no more than the default split would."""
    b = s.d.battle
    assert b is not None and b.split is not None and b.split.offer is not None
    sp = b.split
    offer = sp.offer
    assert offer is not None
    offered = _split_loss(s, sp.proposer, sp.partner, offer)
    default = _default_split_loss(s, sp.proposer, sp.partner, sp.hits)
    if offered <= default + 1e-9:
        return Choice(
            AcceptSplit(),
            f"accept {offer[0]}+{offer[1]}: the allies lose {offered:.1f}, default {default:.1f}",
        )
    return Choice(
        RefuseSplit(), f"refuse {offer[0]}+{offer[1]}: the allies lose {offered:.1f}, default {default:.1f}"
    )


# --- continue or retreat ---------------------------------------------------------------------------
def choose_continue(s: NerathState, legal: list[Action]) -> Choice:
    b = s.d.battle
    assert b is not None
    k = b.attacker
    odds = current_odds(s)
    value, what = battle_worth(s, k, b.space)
    ev = odds.win * value + odds.reward_gold - odds.attacker_gold_lost + 0.8 * odds.defender_gold_lost
    cont = next((a for a in legal if isinstance(a, ContinueBattle)), None)
    where = s.board.sid(b.space)
    if cont is not None and (odds.win >= CONTINUE_AT or ev > 0):
        return Choice(
            cont,
            f"continue at {where}: {odds.win:.0%} to win from here ({what}), "
            f"expected loss {odds.attacker_gold_lost:.1f} gold, worth {ev:+.1f}",
        )
    retreats = [a for a in legal if isinstance(a, Retreat)]
    if not retreats:
        return Choice(legal[0], f"no retreat possible at {where} ({odds.win:.0%} to win)")
    sit = Situation(s, k)

    def safety(r: Retreat) -> tuple[float, str]:
        dest = r.moves[0][1] if r.moves else ""
        if not dest or dest.startswith("ship:"):
            return (-5.0, dest)
        idx = s.board.idx(dest)
        return (len(sit.friends(idx)) - sit.threat_power(idx), dest)

    pick = max(retreats, key=lambda r: (safety(r), r.moves))
    dest = pick.moves[0][1] if pick.moves else "nowhere"
    return Choice(
        pick,
        f"retreat from {where} to {dest}: only {odds.win:.0%} to win from here, "
        f"expected loss {odds.attacker_gold_lost:.1f} gold if we stay (worth {ev:+.1f})",
    )


# --- after a battle ----------------------------------------------------------------------------------
def choose_amok(s: NerathState, legal: list[Action]) -> Choice:
    k = s.current_kingdom
    targets = [a for a in legal if isinstance(a, RunAmok)]
    if not targets:
        return Choice(Pass(), "no empty enemy territory next to the battle")
    sit = Situation(s, k)
    pick = max(targets, key=lambda a: (sit.conquest_value(s.board.idx(a.target))[0], a.target))
    what = sit.conquest_value(s.board.idx(pick.target))[1]
    return Choice(pick, f"monster runs amok into undefended {pick.target}: sure conquest, {what}")


def choose_landing(s: NerathState, legal: list[Action]) -> Choice:
    k = s.current_kingdom
    sit = Situation(s, k)
    unloads = [a for a in legal if isinstance(a, Unload)]

    def worth(a: Unload) -> float:
        total = 0.0
        for _, target in a.drops:
            t = s.board.idx(target)
            if s.board.kind[t] != LAND:
                total -= 1.0
            elif s.is_enemy(t, k):
                total += sit.conquest_value(t)[0] - 2.0 * len(sit.enemies(t))
            else:
                total += 0.5
        return total + 0.1 * len(a.drops)

    if unloads:
        pick = max(unloads, key=lambda a: (worth(a), a.notation()))
        if worth(pick) > 0:
            return Choice(pick, f"land the cargo: {pick.notation()} (worth {worth(pick):+.1f})")
    stay = next((a for a in legal if isinstance(a, StayAboard)), legal[0])
    return Choice(stay, "keep the cargo aboard: no landing is worth it")


# --- reposition -------------------------------------------------------------------------------------
def choose_reposition(s: NerathState, k: int, legal: list[Action]) -> Choice:
    """Pieces that must move go to the friendly territory that needs them most; then pass."""
    sit = Situation(s, k)
    for u in sorted(s.d.units.values(), key=lambda x: x.uid):
        if u.kingdom != k or u.moved or not reposition.must_move(s, u):
            continue
        dests = movement.destinations(s, k, u.ptype, u.space)
        if dests:

            def need(d: int) -> tuple[float, int]:
                return (
                    sit.threat_power(d)
                    - 0.3 * len(sit.friends(d))
                    + (1.0 if s.own_castles(k) and d in s.own_castles(k) else 0.0),
                    -d,
                )

            dest = max(dests, key=need)
            action = Move(u.ptype, 1, tuple(s.board.sid(i) for i in dests[dest]))
            if s.is_legal(action):
                return Choice(
                    action,
                    f"{u.ptype} leaves {s.board.sid(u.space)} for {s.board.sid(dest)} "
                    f"(threat there {sit.threat_power(dest):.1f} expected enemy hits)",
                )
        loads = [
            a for a in legal if isinstance(a, Load) and a.space == s.board.sid(u.space) and a.piece == u.ptype
        ]
        if loads:
            return Choice(loads[0], f"{u.ptype} leaves {s.board.sid(u.space)} aboard warship {loads[0].ship}")
    if any(isinstance(a, Pass) for a in legal):
        return Choice(Pass(), "reposition done")
    return Choice(legal[0], "the only way left to move a piece that must leave")
