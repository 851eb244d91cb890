"""The rules of Small World of Warcraft: legal actions and their effects, one generator for both.

Every legality question goes through one ``*_problem`` function per action kind,
which returns None when the action is legal and otherwise the reason with its rule
ID; :func:`legal_actions` lists the candidates for which it is None and
:func:`explain_illegal` reports the reason. So there is one place per rule.

Turn order (rulebook I-II): start-of-turn effects (Harmony tokens back, Goblin
bombs, Beast Master), troops readied, a combo picked if the player has no active
race, Worgen form, then conquests (or decline), redeployment, end-of-turn markers,
scoring, and last the attacked players' redeployment, each asked of its owner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event, roll_event
from warhorn.games.smallworld.actions import (
    Abandon,
    Bomb,
    Conquer,
    Decline,
    Deploy,
    Done,
    EndConquests,
    Form,
    Intimidate,
    Objective,
    Pick,
    PlaceArtifact,
    Portal,
    Recruit,
    Reinforce,
    Side,
    Steal,
)
from warhorn.games.smallworld.state import MURLOCS, Area, SmallWorldState, Stage, Tribe, TurnLog

AEGIS = "aegis_of_aggramar"
HEART = "heart_of_azeroth"
ALAR = "ashes_of_alar"
DOOMHAMMER = "doomhammer"
FROSTMOURNE = "frostmourne"
WELL = "well_of_eternity"
CHAPEL = "lights_hope_chapel"
MEETING_STONE = "meeting_stone"
SPIRIT_HEALER = "spirit_healer"
BATTLEGROUND = "battleground"
#: Artifacts laid down by their owner at the end of its turn (SWW-ART-03, SWW-ART-04).
PLACED_ARTIFACTS = (AEGIS, HEART)
CONQUEST_VIA_ARTIFACT = {"alar": ALAR, "doomhammer": DOOMHAMMER, "frostmourne": FROSTMOURNE}
#: The rule behind each once-per-turn conquest ability.
VIA_RULES = {
    "champion": "SWW-POW-CHA",
    "doomhammer": "SWW-ART-01",
    "alar": "SWW-ART-02",
    "frostmourne": "SWW-ART-05",
    "airborne": "SWW-RAC-GNO",
    "ethereal": "SWW-RAC-ETH",
}


class Refusal(Exception):
    """Why an action is not legal (message and rule ID); turned into :class:`IllegalActionError`."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def _who(s: SmallWorldState, p: int | None) -> str:
    return "nobody" if p is None else f"player {p}"


# ======================================================================================
# pending decision
# ======================================================================================
def pending_decision(s: SmallWorldState) -> Decision | None:
    st = s.stage
    p = s.current
    if st is Stage.OVER:
        return None
    if st is Stage.PICK:
        return Decision(p, "pick", "choose a race and power combo", "SWW-CMB-01")
    if st is Stage.FORM:
        return Decision(p, "form", "Worgen: choose human or worgen form", "SWW-RAC-WOR")
    if st is Stage.CONQUER:
        return Decision(p, "conquer", "conquer, use a power, abandon, decline or end conquests", "SWW-CNQ-02")
    if st is Stage.RECRUIT:
        return Decision(p, "recruit", "Forsaken: buy extra tokens for 1 coin each", "SWW-RAC-FOR")
    if st is Stage.REDEPLOY:
        return Decision(p, "redeploy", "redeploy your tokens among your regions", "SWW-RDP-01")
    if st is Stage.PLACE:
        name = s.content.marker_name(s.turn.to_place[0])
        return Decision(p, "place", f"lay the {name} in one of your regions", "SWW-ART-03")
    if st is Stage.OBJECTIVE:
        left = s.turn.objectives_left
        prompt = f"Humans: lay a Military Objective ({left} left) or done"
        return Decision(p, "objective", prompt, "SWW-RAC-HUM")
    if st is Stage.BOMB:
        return Decision(p, "bomb", "Goblins: lay a bomb next to your regions, or done", "SWW-RAC-GOB")
    if st is Stage.SIDE:
        prompt = "Battleground: fight with the Alliance or the Horde this turn"
        return Decision(p, "side", prompt, "SWW-LEG-01")
    if st is Stage.DEFEND:
        q = s.turn.defenders[0]
        return Decision(q, "defend", "redeploy the tokens you took back after the attack", "SWW-CNQ-04")
    raise AssertionError(st)


# ======================================================================================
# costs and reach
# ======================================================================================
#: A payment owed before an attack: (payee, or None for the bank; coins; rule).
Due = tuple[int | None, int, str]
#: What each kind of payment is for, in the payment's event.
PAYMENT_WHY = {
    "SWW-ART-04": "to pass the Aegis of Aggramar",
    "SWW-RAC-PAN": "and hands back the Harmony token",
    "SWW-POW-BOG": "to enter a MarshDweller swamp",
    "SWW-ART-01": "for the Doomhammer",
}


@dataclass(frozen=True)
class Cost:
    tokens: int
    payments: tuple[Due, ...]

    @property
    def coins(self) -> int:
        return sum(c for _, c, _ in self.payments)


def _aegis_due(s: SmallWorldState, p: int, rid: str) -> list[Due]:
    """2 coins to the holder of an opponent's Aegis of Aggramar in ``rid`` (SWW-ART-04)."""
    if s.marker_region(AEGIS) != rid:
        return []
    holder = s.controller(rid)
    return [(holder, 2, "SWW-ART-04")] if holder is not None and holder != p else []


def _harmony_due(s: SmallWorldState, p: int, rid: str) -> list[Due]:
    """2 coins to the Pandaren whose Harmony token ``p`` holds, before attacking them (SWW-RAC-PAN)."""
    a = s.areas[rid]
    tribe = s.tribe_at(rid)
    if (
        a.owner is None
        or a.owner == p
        or a.declined
        or tribe is None
        or tribe.race != "pandaren"
        or s.players[p].harmony_from != a.owner
    ):
        return []
    return [(a.owner, 2, "SWW-RAC-PAN")]


def settle(s: SmallWorldState, p: int, dues: list[Due] | tuple[Due, ...]) -> list[Event]:
    """Pay what is owed before an attack; paying a Pandaren hands its Harmony token back."""
    events = []
    for payee, coins, rule in dues:
        events.append(pay(s, p, payee, coins, rule, PAYMENT_WHY[rule]))
        if rule == "SWW-RAC-PAN":
            s.players[p].harmony_from = None
    return events


def travel_cost(s: SmallWorldState, p: int, rid: str, via: str) -> int:
    """+1 for an entry region not adjacent to the active race (SWW-CNQ-03), unless waived."""
    region = s.index.regions[rid]
    if not region.entry or via in ("alar", "airborne", "doomhammer", "champion"):
        return 0
    mine = set(s.regions_of(p))
    if s.index.neighbours[rid] & mine:
        return 0
    race, power = s.active_race(p), s.active_power(p)
    if power == "sailing":  # SWW-POW-SAI
        return 0
    if s.controls_marker(p, MEETING_STONE):  # SWW-LEG-04
        return 0
    if race == "kobolds" and region.cavern:  # SWW-RAC-KOB: caverns are as if adjacent
        return 0
    return 1


def defence(a: Area) -> int:
    """Defending pieces: race or Murloc tokens, beasts, champion, mountain, fort, wisp wall (SWW-CNQ-03)."""
    return a.units + int(a.mountain) + int(a.fort) + int(a.wisp_wall)


def conquest_cost(s: SmallWorldState, p: int, rid: str, via: str = "") -> Cost:
    """Tokens and coins a conquest of ``rid`` by player ``p`` needs (reach is checked elsewhere)."""
    a = s.areas[rid]
    region = s.index.regions[rid]
    tribe = s.players[p].active
    assert tribe is not None
    race, power = tribe.race, tribe.power
    payments = _aegis_due(s, p, rid) + _harmony_due(s, p, rid)
    owner_tribe = s.tribe_at(rid)
    if (
        a.owner is not None
        and a.owner != p
        and owner_tribe is not None
        and owner_tribe.power == "marshdweller"
        and region.terrain == "swamp"
    ):
        payments.append((a.owner, 1, "SWW-POW-BOG"))
    if via == "doomhammer":
        payments.append((a.owner, 2, "SWW-ART-01"))
        return Cost(2 if race == "tauren" else 1, tuple(payments))
    if via == "champion":  # free; a Tauren Champion takes a token along (never fewer than 2 units)
        return Cost(1 if race == "tauren" else 0, tuple(payments))
    cost = 2 + defence(a) + travel_cost(s, p, rid, via)
    discount = 0
    if race == "trolls" and a.occupied:  # SWW-RAC-TRO
        discount += 1
    if race == "dwarves" and region.terrain == "mountain":  # SWW-RAC-DWA
        discount += 2
    if race == "night_elves" and region.terrain == "forest":  # SWW-RAC-NEL
        discount += 1
    if race == "worgen" and tribe.form == "worgen":  # SWW-RAC-WOR
        discount += 1
    if power == "blacksmith":  # SWW-POW-BLA
        discount += 1
    if via in ("frostmourne", "ethereal"):  # SWW-ART-05, SWW-RAC-ETH
        discount += 2
    cost = max(1, cost - discount)  # SWW-CNQ-06
    if race == "tauren":  # SWW-RAC-TAU: never fewer than 2 tokens in a region
        cost = max(cost, 2)
    return Cost(cost, tuple(payments))


def _immune(s: SmallWorldState, rid: str) -> None:
    if s.areas[rid].watchtower:
        raise Refusal(
            f"{s.region_name(rid)} has a Watch Tower: immune to conquests and powers", "SWW-POW-DEF"
        )


def check_reach(s: SmallWorldState, p: int, rid: str, via: str) -> None:
    """Raise unless ``p``'s active race may attack ``rid`` (SWW-CNQ-01, SWW-CNQ-02, SWW-MAP-02)."""
    region = s.index.regions[rid]
    race = s.active_race(p)
    a = s.areas[rid]
    if region.terrain in ("sea", "lake") and race != "naga":
        raise Refusal(
            f"{region.name} is a {region.terrain}: only the Naga conquer seas and lakes", "SWW-MAP-02"
        )
    if a.owner == p and not a.declined and a.occupied:
        raise Refusal(f"{region.name} is already yours", "SWW-CNQ-02")
    mine = set(s.regions_of(p))
    adjacent = bool(s.index.neighbours[rid] & mine)
    if via == "champion":
        if not adjacent:
            raise Refusal("the Champion conquers only an adjacent region", "SWW-POW-CHA")
        return
    if via == "ethereal":
        if not adjacent or not any(m in s.content.places for m in a.markers):
            raise Refusal(
                "the Ethereals' discount is for an adjacent region with a legendary place", "SWW-RAC-ETH"
            )
        return
    if via in ("alar", "airborne", "doomhammer"):
        return
    if race == "kobolds" and region.cavern:
        return
    if not mine:
        if region.entry or (race == "naga" and region.terrain in ("sea", "lake")):
            return
        raise Refusal(f"a first conquest must be an entry region; {region.name} is not one", "SWW-CNQ-01")
    if adjacent or region.entry:
        return
    raise Refusal(f"{region.name} is neither adjacent to your race nor an entry region", "SWW-CNQ-02")


def _via_available(s: SmallWorldState, p: int, via: str) -> None:
    if not via:
        return
    if via in s.turn.used or (via == "ethereal" and "steal" in s.turn.used):
        raise Refusal(f"{via} has been used this turn (once per turn)", VIA_RULES[via])
    tribe = s.players[p].active
    assert tribe is not None
    if via in CONQUEST_VIA_ARTIFACT:
        marker = CONQUEST_VIA_ARTIFACT[via]
        rule = VIA_RULES[via]
        if not s.controls_marker(p, marker):
            raise Refusal(f"you do not hold the {s.content.marker_name(marker)}", rule)
    elif via == "champion":
        if tribe.power != "championing" or not s.players[p].hand_champion:
            raise Refusal("no Champion in hand", "SWW-POW-CHA")
    elif via == "airborne":
        if tribe.race != "gnomes":
            raise Refusal("only the Gnomes launch an airborne assault", "SWW-RAC-GNO")
    elif via == "ethereal" and tribe.race != "ethereals":
        raise Refusal("only the Ethereals have this discount", "SWW-RAC-ETH")


def _hand_units(s: SmallWorldState, p: int) -> int:
    seat = s.players[p]
    return seat.hand + seat.hand_beasts


def _conquest_common(s: SmallWorldState, p: int, rid: str, via: str) -> Cost:
    if rid not in s.areas:
        raise Refusal(f"no region {rid!r} on this board")
    if s.stage is not Stage.CONQUER or s.turn.ended:
        raise Refusal("conquests are over for this turn", "SWW-CNQ-05")
    if s.players[p].active is None:
        raise Refusal("you have no active race", "SWW-CMB-01")
    _via_available(s, p, via)
    _immune(s, rid)
    check_reach(s, p, rid, via)
    if via != "champion" and _hand_units(s, p) < 1:
        raise Refusal("a conquest needs at least one token in hand", "SWW-CNQ-06")
    cost = conquest_cost(s, p, rid, via)
    if cost.coins > s.players[p].coins:
        raise Refusal(f"this conquest costs {cost.coins} coins first; you have fewer", cost.payments[0][2])
    return cost


def conquer_problem(s: SmallWorldState, p: int, action: Conquer) -> None:
    cost = _conquest_common(s, p, action.region, action.via)
    if action.via == "airborne":
        if cost.tokens - _hand_units(s, p) > 3:
            raise Refusal(
                "even with the free die this airborne assault is more than 3 tokens short", "SWW-RAC-GNO"
            )
        return
    if cost.tokens > _hand_units(s, p):
        raise Refusal(
            f"conquering {s.region_name(action.region)} takes {cost.tokens} tokens; you have "
            f"{_hand_units(s, p)} (use the reinforcement die for a final conquest)",
            "SWW-CNQ-03",
        )


def reinforce_problem(s: SmallWorldState, p: int, action: Reinforce) -> None:
    cost = _conquest_common(s, p, action.region, "")
    short = cost.tokens - _hand_units(s, p)
    if short < 1:
        raise Refusal("you have enough tokens: conquer it outright", "SWW-CNQ-05")
    if short > 3:
        raise Refusal(f"{short} tokens short: the die can make up at most 3", "SWW-CNQ-05")
    if s.active_race(p) == "tauren" and _hand_units(s, p) < 2:
        raise Refusal("Tauren never occupy a region with fewer than 2 tokens", "SWW-RAC-TAU")


# ======================================================================================
# legal actions
# ======================================================================================
def _conquer_candidates(s: SmallWorldState, p: int) -> list[Action]:
    """Conquests and final conquests worth testing: every region not ours, with each ability usable now."""
    vias = [""]
    for via in VIA_RULES:
        try:
            _via_available(s, p, via)
        except Refusal:
            continue
        vias.append(via)
    mine = set(s.regions_of(p))
    out: list[Action] = []
    for rid in s.index.order:
        if rid in mine:
            continue
        for via in vias:
            out.append(Conquer(rid, via))  # type: ignore[arg-type]
        out.append(Reinforce(rid))
    return out


def _stage_candidates(s: SmallWorldState) -> list[Action]:
    st = s.stage
    p = s.current
    if st is Stage.PICK:
        return [Pick(i) for i in range(len(s.combos()))]
    if st is Stage.FORM:
        return [Form("human"), Form("worgen")]
    if st is Stage.CONQUER:
        out: list[Action] = [EndConquests(), Decline()]
        out += [Abandon(rid) for rid in s.regions_of(p)]
        out += _conquer_candidates(s, p)
        power, race = s.active_power(p), s.active_race(p)
        if power == "intimidating":
            out += [Intimidate(rid) for rid in s.index.order]
        if power == "portal_mage":
            magic = [rid for rid in s.index.order if s.index.regions[rid].magic]
            out += [Portal(a, b) for i, a in enumerate(magic) for b in magic[i + 1 :]]
        if race == "ethereals":
            for rid in s.regions_of(p):
                out += [Steal(n, rid) for n in sorted(s.index.neighbours[rid])]
        return out
    if st is Stage.RECRUIT:
        return [Recruit(n) for n in range(_recruit_max(s, p) + 1)]
    if st in (Stage.REDEPLOY, Stage.DEFEND):
        pool = _deploy_pool(s)
        return [
            Deploy(rid, n, unit)  # type: ignore[arg-type]
            for rid in pool.regions
            for unit in UNIT_FIELDS
            for n in range(1, pool.count(s, unit) + 1)
        ]
    if st is Stage.PLACE:
        return [PlaceArtifact(s.turn.to_place[0], rid) for rid in s.regions_of(p)]
    if st is Stage.OBJECTIVE:
        return [*(Objective(rid) for rid in _objective_targets(s)), Done()]
    if st is Stage.BOMB:
        return [*(Bomb(rid) for rid in s.index.order), Done()]
    if st is Stage.SIDE:
        return [Side("alliance"), Side("horde")]
    return []


#: Where each kind of unit lies: the seat's hand, its tokens coming back, the region's count.
UNIT_FIELDS = {
    "token": ("hand", "returning", "tokens"),
    "beast": ("hand_beasts", "returning_beasts", "beasts"),
    "champion": ("hand_champion", "returning_champion", "champion"),
}


@dataclass(frozen=True)
class DeployPool:
    """Units waiting to be placed: the active player's hand at redeployment, or an attacked
    player's units coming back (active ones, else declined ones moved by Intimidating)."""

    owner: int
    source: int  # 0: hand, 1: coming back (UNIT_FIELDS' first or second field)
    declined: bool
    regions: list[str]
    rule: str

    def count(self, s: SmallWorldState, unit: str) -> int:
        seat = s.players[self.owner]
        if self.declined:
            return seat.returning_declined if unit == "token" else 0
        return int(getattr(seat, UNIT_FIELDS[unit][self.source]))

    def take(self, s: SmallWorldState, unit: str, count: int) -> None:
        seat = s.players[self.owner]
        name = "returning_declined" if self.declined else UNIT_FIELDS[unit][self.source]
        setattr(seat, name, False if unit == "champion" else getattr(seat, name) - count)


def _deploy_pool(s: SmallWorldState) -> DeployPool:
    if s.stage is Stage.REDEPLOY:
        return DeployPool(s.current, 0, False, s.regions_of(s.current), "SWW-RDP-01")
    q = s.turn.defenders[0]
    seat = s.players[q]
    if seat.returning or seat.returning_beasts or seat.returning_champion:
        return DeployPool(q, 1, False, s.regions_of(q), "SWW-CNQ-04")
    return DeployPool(q, 1, True, s.regions_of(q, declined=True), "SWW-CNQ-04")


def legal_actions(s: SmallWorldState) -> list[Action]:
    out = []
    for action in _stage_candidates(s):
        try:
            _check(s, action)
        except Refusal:
            continue
        out.append(action)
    return out


def explain_illegal(s: SmallWorldState, action: Action) -> IllegalActionError:
    try:
        _check(s, action)
    except Refusal as refusal:
        return IllegalActionError(refusal.message, refusal.rule)
    decision = s.pending()
    prompt = decision.prompt if decision else "the game is over"
    return IllegalActionError(
        f"{action.notation()!r} is not legal now ({prompt})", decision.rule if decision else None
    )


def is_legal(s: SmallWorldState, action: Action) -> bool:
    try:
        _check(s, action)
    except Refusal:
        return False
    return True


def _stage_is(s: SmallWorldState, *stages: Stage) -> None:
    if s.stage not in stages:
        decision = s.pending()
        raise Refusal(f"not now: {decision.prompt if decision else 'the game is over'}")


def _check(s: SmallWorldState, action: Action) -> None:
    """Raise :class:`Refusal` unless ``action`` is legal now: the one legality test of every action."""
    p = s.current
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise Refusal(f"unknown action {action.notation()!r}")
    checker(s, p, action)


def _check_pick(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Pick)
    _stage_is(s, Stage.PICK)
    n = len(s.combos())
    if not 0 <= a.index < n:
        raise Refusal(f"there are {n} combos (0 to {n - 1})", "SWW-CMB-01")
    if s.players[p].coins < a.index:
        raise Refusal(f"combo {a.index} costs {a.index} coins; you have fewer", "SWW-CMB-01")


def _check_form(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Form)
    _stage_is(s, Stage.FORM)
    if a.form == "worgen" and s.players[p].coins < 1:
        raise Refusal("worgen form costs 1 coin", "SWW-RAC-WOR")


def _check_conquer(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Conquer)
    _stage_is(s, Stage.CONQUER)
    conquer_problem(s, p, a)


def _check_reinforce(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Reinforce)
    _stage_is(s, Stage.CONQUER)
    reinforce_problem(s, p, a)


def _check_abandon(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Abandon)
    _stage_is(s, Stage.CONQUER)
    if s.turn.conquests or s.turn.ended:
        raise Refusal("regions are abandoned before the first conquest of the turn", "SWW-EXP-01")
    if a.region not in s.regions_of(p):
        raise Refusal(f"{a.region} is not a region of your active race", "SWW-EXP-01")


def _check_decline(s: SmallWorldState, p: int, a: Action) -> None:
    _stage_is(s, Stage.CONQUER)
    seat = s.players[p]
    if seat.active is None:
        raise Refusal("you have no active race to put in decline", "SWW-DCL-01")
    if seat.picked_turn == s.turn_number:
        raise Refusal("a race picked this turn cannot go into decline until a later turn", "SWW-DCL-01")
    if s.turn.acted:
        raise Refusal("decline instead of conquering, not after", "SWW-DCL-01")


def _check_end(s: SmallWorldState, p: int, a: Action) -> None:
    _stage_is(s, Stage.CONQUER)


def _power_use(s: SmallWorldState, p: int, power: str, used: int, limit: int, rule: str) -> None:
    """A power used during the conquests, ``limit`` times a turn (Intimidating, Portal Mage)."""
    _stage_is(s, Stage.CONQUER)
    name = s.content.powers[power].name
    if s.active_power(p) != power:
        raise Refusal(f"only a race with the {name} power does this", rule)
    if s.turn.ended:
        raise Refusal(f"{name} is used before the conquests of the turn end", rule)
    if used >= limit:
        times = {2: "twice", 3: "three times"}.get(limit, f"{limit} times")
        raise Refusal(f"{name}: {times} per turn at most", rule)


def _check_intimidate(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Intimidate)
    _power_use(s, p, "intimidating", s.turn.intimidations, 3, "SWW-POW-MEN")
    rid = a.region
    if rid not in s.areas:
        raise Refusal(f"no region {rid!r} on this board")
    area = s.areas[rid]
    if not area.occupied or area.owner == p:
        raise Refusal("the region must hold an opponent's tokens or Murlocs", "SWW-POW-MEN")
    if not s.index.neighbours[rid] & set(s.regions_of(p)):
        raise Refusal("the region must neighbour one of yours", "SWW-POW-MEN")
    _immune(s, rid)
    if area.tokens == 0 and not (area.fort or area.wisp_wall):
        raise Refusal("no race token there to move", "SWW-POW-MEN")
    _can_pay_power(s, p, [rid])


def _check_portal(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Portal)
    _power_use(s, p, "portal_mage", s.turn.portals, 2, "SWW-POW-POR")
    for rid in (a.first, a.second):
        if rid not in s.areas or not s.index.regions[rid].magic:
            raise Refusal(f"{rid} is not a magic region", "SWW-POW-POR")
        _immune(s, rid)
    if a.first == a.second:
        raise Refusal("two different regions", "SWW-POW-POR")
    if not s.areas[a.first].occupied and not s.areas[a.second].occupied:
        raise Refusal("both regions are empty: nothing to swap", "SWW-POW-POR")
    for rid in (a.first, a.second):
        if s.index.water(rid) and s.areas[a.first if rid == a.second else a.second].race not in (
            None,
            "naga",
        ):
            raise Refusal("only the Naga may stand in a sea or lake", "SWW-MAP-02")
    _can_pay_power(s, p, [a.first, a.second])


def _check_steal(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Steal)
    _stage_is(s, Stage.CONQUER)
    if s.active_race(p) != "ethereals":
        raise Refusal("only the Ethereals steal artifacts", "SWW-RAC-ETH")
    if "steal" in s.turn.used or "ethereal" in s.turn.used or s.turn.ended:
        raise Refusal("once per turn: steal an artifact or take a place at a discount", "SWW-RAC-ETH")
    if a.source not in s.areas or a.target not in s.areas:
        raise Refusal("unknown region")
    if a.target not in s.regions_of(p) or a.source not in s.index.neighbours[a.target]:
        raise Refusal("the artifact must lie next to the region of yours it moves into", "SWW-RAC-ETH")
    if s.areas[a.source].owner == p and not s.areas[a.source].declined:
        raise Refusal("that artifact is already yours", "SWW-RAC-ETH")
    if not any(m in s.content.artifacts for m in s.areas[a.source].markers):
        raise Refusal("no face-up artifact there", "SWW-RAC-ETH")
    _immune(s, a.source)
    _can_pay_power(s, p, [a.source])


def _check_recruit(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Recruit)
    _stage_is(s, Stage.RECRUIT)
    if not 0 <= a.count <= _recruit_max(s, p):
        raise Refusal(f"you may recruit 0 to {_recruit_max(s, p)}", "SWW-RAC-FOR")


def _check_deploy(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Deploy)
    _stage_is(s, Stage.REDEPLOY, Stage.DEFEND)
    pool = _deploy_pool(s)
    if a.region not in pool.regions:
        raise Refusal(f"{a.region} is not one of the regions these tokens may go to", pool.rule)
    have = pool.count(s, a.unit)
    if not 1 <= a.count <= have:
        raise Refusal(f"{have} {a.unit}(s) to place; cannot place {a.count}", pool.rule)


def _check_place(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, PlaceArtifact)
    _stage_is(s, Stage.PLACE)
    if a.artifact != s.turn.to_place[0]:
        raise Refusal(f"lay the {s.content.marker_name(s.turn.to_place[0])} now", "SWW-ART-03")
    if a.region not in s.regions_of(p):
        raise Refusal("lay it in a region your active race holds", "SWW-ART-03")


def _check_objective(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Objective)
    _stage_is(s, Stage.OBJECTIVE)
    if a.region not in _objective_targets(s):
        raise Refusal(
            "a Military Objective goes on a land region not held by an Alliance race and not already marked",
            "SWW-RAC-HUM",
        )


def _check_bomb(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Bomb)
    _stage_is(s, Stage.BOMB)
    if not s.bombs:
        raise Refusal("the bomb stack is empty", "SWW-RAC-GOB")
    if a.region not in s.areas:
        raise Refusal(f"no region {a.region!r} on this board")
    area = s.areas[a.region]
    if not area.occupied or area.owner is None or area.owner == p or area.declined:
        raise Refusal("a bomb goes on a region held by an opponent's active race", "SWW-RAC-GOB")
    if area.bomb_by is not None:
        raise Refusal("one bomb per region at most", "SWW-RAC-GOB")
    if not s.index.neighbours[a.region] & set(s.regions_of(p)):
        raise Refusal("a bomb goes on a region next to one of yours", "SWW-RAC-GOB")
    _immune(s, a.region)
    _can_pay_power(s, p, [a.region])


def _check_side(s: SmallWorldState, p: int, a: Action) -> None:
    assert isinstance(a, Side)
    _stage_is(s, Stage.SIDE)
    if a.faction not in ("alliance", "horde"):
        raise Refusal("side with the alliance or the horde", "SWW-LEG-01")


def _check_done(s: SmallWorldState, p: int, a: Action) -> None:
    _stage_is(s, Stage.OBJECTIVE, Stage.BOMB)


_CHECKS: dict[type, Callable[[SmallWorldState, int, Action], None]] = {
    Pick: _check_pick,
    Form: _check_form,
    Conquer: _check_conquer,
    Reinforce: _check_reinforce,
    Abandon: _check_abandon,
    Decline: _check_decline,
    EndConquests: _check_end,
    Intimidate: _check_intimidate,
    Portal: _check_portal,
    Steal: _check_steal,
    Recruit: _check_recruit,
    Deploy: _check_deploy,
    PlaceArtifact: _check_place,
    Objective: _check_objective,
    Bomb: _check_bomb,
    Side: _check_side,
    Done: _check_done,
}


def _objective_targets(s: SmallWorldState) -> list[str]:
    out = []
    for rid in s.index.order:
        a = s.areas[rid]
        if s.index.water(rid) or a.objective:
            continue
        if a.occupied and s.faction_of(a.race) == "alliance":
            continue
        out.append(rid)
    return out


def _recruit_max(s: SmallWorldState, p: int) -> int:
    return max(0, min(s.turn.kills, s.players[p].coins, s.supply_of("forsaken")))


def _can_pay_power(s: SmallWorldState, p: int, regions: list[str]) -> None:
    """Refuse a power the player cannot pay for first (the Aegis's 2 coins, a Harmony token's 2)."""
    owed = power_payments(s, p, regions)
    if owed > s.players[p].coins:
        aegis = s.marker_region(AEGIS) in regions
        rule = "SWW-ART-04" if aegis else "SWW-RAC-PAN"
        raise Refusal(f"this costs {owed} coins first; you have {s.players[p].coins}", rule)


def _dues(s: SmallWorldState, p: int, regions: list[str]) -> list[Due]:
    """Coins owed before a power touches these regions: 2 to an opponent's Aegis, 2 once per Harmony."""
    dues: list[Due] = []
    for rid in regions:
        dues += _aegis_due(s, p, rid)
        if not any(rule == "SWW-RAC-PAN" for _, _, rule in dues):
            dues += _harmony_due(s, p, rid)
    return dues


def power_payments(s: SmallWorldState, p: int, regions: list[str]) -> int:
    """Coins owed before a power touches these regions (Aegis 2, Harmony 2 once)."""
    return sum(coins for _, coins, _ in _dues(s, p, regions))


def _pay_power(s: SmallWorldState, p: int, regions: list[str]) -> list[Event]:
    events = settle(s, p, _dues(s, p, regions))
    for rid in regions:
        a = s.areas[rid]
        if a.owner is not None and a.owner != p and not a.declined and a.owner not in s.turn.attacked:
            s.turn.attacked.append(a.owner)
    return events


# ======================================================================================
# applying actions
# ======================================================================================
def apply_action(s: SmallWorldState, action: Action) -> list[Event]:
    p = s.current
    handler = _HANDLERS[type(action)]
    return handler(s, p, action)


def pay(s: SmallWorldState, payer: int, payee: int | None, amount: int, rule: str, why: str) -> Event:
    """Move coins (a due payment; the payer was checked to afford it)."""
    s.players[payer].coins -= amount
    if payee is not None:
        s.players[payee].coins += amount
    return Event(
        "payment",
        {"from": payer, "to": payee, "coins": amount, "rule": rule},
        f"player {payer} pays {amount} coin(s) to {_who(s, payee) if payee is not None else 'the bank'}"
        f" {why}",
    )


def forced_pay(s: SmallWorldState, payer: int, payee: int, amount: int, rule: str, why: str) -> Event:
    """A payment the payer cannot refuse: pays what it has, up to ``amount``; the sum stays private."""
    paid = min(amount, s.players[payer].coins)
    s.players[payer].coins -= paid
    s.players[payee].coins += paid
    return Event(
        "payment",
        {"from": payer, "to": payee, "coins": paid, "rule": rule},
        f"player {payer} pays {paid} coin(s) to player {payee} {why}",
        visible_to=frozenset({payer, payee}),
        public_data={"from": payer, "to": payee, "rule": rule},
        public_text=f"player {payer} pays player {payee} {why}",
    )


def gain(s: SmallWorldState, p: int, amount: int, rule: str, why: str) -> Event:
    """Coins from the bank; the amount is seen only by the player (SWW-FLW-02)."""
    s.players[p].coins += amount
    return Event(
        "coins",
        {"player": p, "coins": amount, "rule": rule},
        f"player {p} takes {amount} coin(s): {why}",
        visible_to=frozenset({p}),
        public_data={"player": p, "rule": rule},
        public_text=f"player {p} takes coins: {why}",
    )


def _apply_pick(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Pick)
    seat = s.players[p]
    events: list[Event] = []
    for i in range(a.index):
        s.combo_coins[i] += 1
    seat.coins -= a.index
    race = s.races_stack.pop(a.index)
    power = s.powers_stack.pop(a.index)
    taken = s.combo_coins.pop(a.index)
    seat.coins += taken
    r, pw = s.content.races[race], s.content.powers[power]
    seat.active = Tribe(race, power)
    seat.picked_turn = s.turn_number
    seat.hand += min(r.banner + pw.badge, s.supply_of(race))
    events.append(
        Event(
            "pick",
            {
                "player": p,
                "race": race,
                "power": power,
                "index": a.index,
                "coins_taken": taken,
                "tokens": seat.hand,
            },
            f"player {p} takes {pw.name} {r.name} (combo {a.index}, paying {a.index}, collecting {taken}): "
            f"{seat.hand} tokens",
        )
    )
    refill_column(s)
    if power == "beast_master":
        events += _take_beasts(s, p)
    if power == "championing":
        seat.hand_champion = True
    if race == "worgen":
        s.stage = Stage.FORM
    else:
        s.stage = Stage.CONQUER
    return events


def refill_column(s: SmallWorldState) -> None:
    """Keep six combos visible; the badge discards are shuffled back when the stack runs out."""
    k = s.visible_combos
    if len(s.powers_stack) < k and s.powers_discard:
        extra = list(s.powers_discard)
        s.powers_discard.clear()
        s.rng.shuffle(extra)
        s.powers_stack.extend(extra)
    n = min(k, len(s.races_stack), len(s.powers_stack))
    while len(s.combo_coins) < n:
        s.combo_coins.append(0)
    del s.combo_coins[n:]


def _apply_form(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Form)
    seat = s.players[p]
    assert seat.active is not None
    seat.active = Tribe(seat.active.race, seat.active.power, a.form)
    s.stage = Stage.CONQUER
    if a.form == "human":
        return [gain(s, p, 2, "SWW-RAC-WOR", "Worgen in human form")]
    seat.coins -= 1
    return [
        Event(
            "form",
            {"player": p, "form": "worgen", "rule": "SWW-RAC-WOR"},
            f"player {p}'s Worgen take worgen form (1 coin paid): conquests cost 1 less this turn",
        )
    ]


def _reveal(s: SmallWorldState, rid: str) -> list[Event]:
    """Turn a face-down marker face up when a race enters its region (Well of Eternity moves)."""
    a = s.areas[rid]
    marker = a.hidden_marker
    if marker is None:
        return []
    a.hidden_marker = None
    events = [
        Event(
            "reveal",
            {"region": rid, "marker": marker},
            f"{s.region_name(rid)} reveals {s.content.marker_name(marker)}",
        )
    ]
    if marker == WELL:
        island = s.index.regions[rid].island
        water = [r for r in s.index.order if s.index.regions[r].island == island and s.index.water(r)]
        if water:
            s.areas[water[0]].markers += (WELL,)
            events.append(
                Event(
                    "well",
                    {"from": rid, "to": water[0], "rule": "SWW-LEG-06"},
                    f"the Well of Eternity moves to {s.region_name(water[0])}",
                )
            )
            return events
        places = [m for m in s.box_markers if m in s.content.places]
        s.box_markers.append(WELL)
        s.box_markers.sort()
        if places:
            drawn = places[s.rng.below(len(places))]
            s.box_markers.remove(drawn)
            a.hidden_marker = drawn
            events.append(
                Event(
                    "well",
                    {"region": rid, "rule": "SWW-LEG-06"},
                    "the Well of Eternity has no sea or lake on its island: another legendary place is drawn",
                    chance=True,
                )
            )
            return events + _reveal(s, rid)
        return events
    a.markers += (marker,)
    return events


def lose_units(s: SmallWorldState, rid: str, attacker: int | None) -> list[Event]:
    """Empty ``rid`` of its occupants after a conquest (or a bomb): losses and tokens taken back.

    An active race loses 1 token (none at Light's Hope Chapel, none when its Champion is
    captured, a beast instead when beasts are there, the Draenei's first loss of the turn
    saved) and takes the rest back to redeploy at the end of the turn (SWW-CNQ-04). A declined
    race or Murlocs lose every token there.
    """
    a = s.areas[rid]
    events: list[Event] = []
    if not a.occupied:
        a.clear_occupants()
        return events
    q, race, declined = a.owner, a.race, a.declined
    assert race is not None
    if q is None:  # Murlocs
        if (
            attacker is not None
            and s.active_race(attacker) == "forsaken"
            and s.options.get("forsaken_count_murlocs", False)
        ):
            s.turn.kills += a.tokens
        events.append(
            Event(
                "loss",
                {"region": rid, "race": MURLOCS, "lost": a.tokens},
                f"the Murlocs in {s.region_name(rid)} are wiped out",
            )
        )
    elif declined:
        if attacker is not None and s.active_race(attacker) == "forsaken":
            s.turn.kills += a.tokens
        events.append(
            Event(
                "loss",
                {"region": rid, "player": q, "race": race, "declined": True, "lost": a.tokens},
                f"player {q} loses the {a.tokens} declined {s.race_name(race)} token(s)"
                f" in {s.region_name(rid)}",
            )
        )
    else:
        seat = s.players[q]
        tokens, beasts = a.tokens, a.beasts
        lost_token = lost_beast = 0
        why = ""
        if a.champion:
            why = "the Champion is captured instead of a token"
            seat.returning_champion = True
            if attacker is not None:
                events.append(forced_pay(s, q, attacker, 1, "SWW-POW-CHA", "as the Champion's ransom"))
        elif CHAPEL in a.markers:
            why = "Light's Hope Chapel spares the loss"
        elif beasts:
            lost_beast = 1
            why = "a beast is lost"
        elif q in s.turn.saved or race != "draenei" or q == s.current:
            lost_token = 1 if tokens else 0
        else:
            s.turn.saved.append(q)
            why = "the Draenei's Holy Light saves the first loss"
        if lost_token and attacker is not None and s.active_race(attacker) == "forsaken":
            s.turn.kills += lost_token
        seat.returning += tokens - lost_token
        seat.returning_beasts += beasts - lost_beast
        if q not in s.turn.defenders and q != s.current:
            s.turn.defenders.append(q)
        text = f"player {q}'s {s.race_name(race)} in {s.region_name(rid)} lose {lost_token + lost_beast}"
        events.append(
            Event(
                "loss",
                {"region": rid, "player": q, "race": race, "lost": lost_token, "beasts_lost": lost_beast},
                text
                + (f" ({why})" if why else "")
                + f"; {tokens - lost_token + beasts - lost_beast} go back to hand",
            )
        )
    a.clear_occupants()
    return events


def _apply_conquer(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Conquer)
    cost = conquest_cost(s, p, a.region, a.via)
    events: list[Event] = []
    if a.via:
        s.turn.used.append(a.via)
    if a.via == "airborne":
        face = roll_die(s)
        events.append(
            roll_event(f"player {p}", [(6, face)], purpose="the Gnomes' airborne assault", face=face)
        )
        need = max(1, cost.tokens - face)
        if s.active_race(p) == "tauren":
            need = max(2, need)
        if need > _hand_units(s, p):
            # Short even after the free die: this assault becomes the final conquest (second die).
            short = need - _hand_units(s, p)
            if short > 3:
                s.turn.ended = True
                events.append(
                    Event(
                        "fail",
                        {"region": a.region},
                        f"the assault on {s.region_name(a.region)} falls short; conquests end",
                    )
                )
                return events + finish_conquests(s)
            return events + _final_roll(s, p, a.region, need, cost)
        return events + conquer_region(s, p, a.region, need, cost, a.via)
    return events + conquer_region(s, p, a.region, cost.tokens, cost, a.via)


def roll_die(s: SmallWorldState) -> int:
    """The reinforcement die: a six-sided roll mapped to the faces (0, 0, 0, 1, 2, 3 by default)."""
    faces = s.content.die_faces
    return faces[s.rng.roll(len(faces)) - 1]


def _final_roll(s: SmallWorldState, p: int, rid: str, need: int, cost: Cost) -> list[Event]:
    events: list[Event] = []
    face = roll_die(s)
    events.append(roll_event(f"player {p}", [(6, face)], purpose="the final conquest", face=face))
    s.turn.ended = True
    hand = _hand_units(s, p)
    if hand + face >= need:
        events += conquer_region(s, p, rid, hand, cost, "")
    else:
        events.append(
            Event(
                "fail",
                {"player": p, "region": rid, "rule": "SWW-CNQ-05"},
                f"player {p}'s final conquest of {s.region_name(rid)} fails"
                f" ({hand} tokens + {face} < {need})",
            )
        )
    return events + finish_conquests(s)


def _apply_reinforce(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Reinforce)
    cost = conquest_cost(s, p, a.region)
    return _final_roll(s, p, a.region, cost.tokens, cost)


def conquer_region(s: SmallWorldState, p: int, rid: str, spend: int, cost: Cost, via: str) -> list[Event]:
    """Take ``rid`` with ``spend`` units from hand: payments, the defender's losses, bonuses, markers."""
    seat = s.players[p]
    tribe = seat.active
    assert tribe is not None
    a = s.areas[rid]
    events = settle(s, p, cost.payments)
    s.turn.acted = True
    defenders = a.tokens
    was_occupied = a.occupied
    old_owner, old_race, old_declined = a.owner, a.race, a.declined
    if old_owner is not None and old_owner != p and not old_declined and old_owner not in s.turn.attacked:
        s.turn.attacked.append(old_owner)
    if was_occupied and old_owner is not None and old_race is not None:
        s.turn.defeated.append((old_owner, old_race, old_declined))
    events += lose_units(s, rid, p)
    if a.bomb_by is not None and a.bomb_by == p:
        _bomb_back(s, rid)
    # Place the attacker.
    a.owner, a.race, a.declined = p, tribe.race, False
    if via == "champion":
        a.champion = True
        seat.hand_champion = False
    beasts = min(seat.hand_beasts, spend)
    seat.hand_beasts -= beasts
    a.beasts = beasts
    a.tokens = spend - beasts
    seat.hand -= spend - beasts
    s.turn.conquests += 1
    events.append(
        Event(
            "conquest",
            {"player": p, "region": rid, "tokens": spend, "via": via},
            f"player {p}'s {s.race_name(tribe.race)} conquer {s.region_name(rid)}"
            + (" with the Champion" if via == "champion" else f" with {spend} token(s)")
            + (f" ({via})" if via and via != "champion" else ""),
        )
    )
    # Bonuses earned by the conquest.
    if tribe.race == "night_elves" and s.index.regions[rid].terrain == "forest":
        walls = sum(1 for x in s.areas.values() if x.wisp_wall)
        if walls < s.content.supplies.wisp_walls:
            a.wisp_wall = True
    if a.objective and s.faction_of(tribe.race) != "horde":
        a.objective = False
        events.append(gain(s, p, 2, "SWW-RAC-HUM", f"a Military Objective taken at {s.region_name(rid)}"))
        humans = next((q for q, x in enumerate(s.players) if x.active and x.active.race == "humans"), None)
        if humans is not None and humans != p:
            events.append(gain(s, humans, 2, "SWW-RAC-HUM", "another race took a Military Objective"))
    if tribe.power == "enraged" and defenders >= 2 and was_occupied:
        events.append(gain(s, p, defenders, "SWW-POW-ENR", f"Enraged against {defenders} defenders"))
    if tribe.power == "battle_master" and was_occupied:
        events.append(gain(s, p, 1, "SWW-POW-WAR", "a non-empty region conquered"))
    if tribe.race == "orcs" and was_occupied and s.faction_of(old_race) == "alliance":
        events.append(gain(s, p, 1, "SWW-RAC-ORC", "an Alliance region conquered"))
    events += _reveal(s, rid)
    return events


def _bomb_back(s: SmallWorldState, rid: str) -> None:
    a = s.areas[rid]
    s.bombs.append(a.bomb_live)
    a.bomb_by, a.bomb_live = None, False


def _apply_abandon(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Abandon)
    area = s.areas[a.region]
    seat = s.players[p]
    seat.hand += area.tokens
    seat.hand_beasts += area.beasts
    seat.hand_champion = seat.hand_champion or area.champion
    area.clear_occupants()
    if area.bomb_by is not None:
        _bomb_back(s, a.region)
    s.turn.acted = True
    return [
        Event("abandon", {"player": p, "region": a.region}, f"player {p} abandons {s.region_name(a.region)}")
    ]


def remove_declined(s: SmallWorldState, p: int) -> list[Event]:
    """Take a player's declined race off the map; its banner goes to the bottom of the stack."""
    seat = s.players[p]
    tribe = seat.declined
    if tribe is None:
        return []
    for rid, area in s.areas.items():
        if area.owner == p and area.declined:
            area.clear_occupants()
            if area.bomb_by is not None:
                _bomb_back(s, rid)
    seat.returning_declined = 0
    seat.declined = None
    s.races_stack.append(tribe.race)
    if tribe.power is not None:
        s.powers_discard.append(tribe.power)
    refill_column(s)
    return [
        Event(
            "vanish",
            {"player": p, "race": tribe.race},
            f"player {p}'s declined {s.race_name(tribe.race)} leave the map;"
            " the banner goes back to the stack",
        )
    ]


def _apply_decline(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    seat = s.players[p]
    tribe = seat.active
    assert tribe is not None
    events = remove_declined(s, p)
    if tribe.race == "goblins":
        events += resolve_bombs(s, p)
    keep = 2 if tribe.race == "tauren" else 1
    regions = s.regions_of(p)
    for rid in regions:
        area = s.areas[rid]
        flipped = min(keep, area.tokens + area.beasts) or 1
        extra = min(keep - flipped, seat.hand) if keep > flipped else 0
        seat.hand -= extra  # a Tauren region keeps 2 tokens: one from hand where the Champion stood
        area.tokens = flipped + extra
        area.beasts = 0
        area.champion = False
        area.declined = True
        if not s.options.get("towers_stay_in_decline", False):
            area.watchtower = False
    if tribe.race == "tauren":
        _no_lone_tauren(s, regions)
    for area in s.areas.values():
        if tribe.race == "humans":
            area.objective = False
    seat.hand = seat.hand_beasts = seat.returning = seat.returning_beasts = 0
    seat.hand_champion = seat.returning_champion = False
    power = s.content.powers[tribe.power] if tribe.power else None
    kept = power is not None and power.in_decline
    if tribe.power is not None and not kept:
        s.powers_discard.append(tribe.power)
    seat.declined = Tribe(tribe.race, tribe.power if kept else None)
    seat.active = None
    s.turn.declined_now = True
    s.turn.ended = True
    events.append(
        Event(
            "decline",
            {"player": p, "race": tribe.race, "rule": "SWW-DCL-01"},
            f"player {p}'s {s.race_name(tribe.race)} go into decline",
        )
    )
    if not s.regions_of(p, declined=True):
        events += remove_declined(s, p)
    refill_column(s)
    return events + end_of_turn(s)


def _no_lone_tauren(s: SmallWorldState, regions: list[str]) -> None:
    """SWW-RAC-TAU: a Tauren token left alone joins another region of the race (or leaves the map)."""
    for rid in regions:
        area = s.areas[rid]
        if area.units != 1:
            continue
        others = [r for r in regions if r != rid and s.areas[r].units >= 2]
        if others:
            s.areas[others[0]].tokens += area.tokens
            s.areas[others[0]].beasts += area.beasts
        area.clear_occupants()
        if area.bomb_by is not None:
            _bomb_back(s, rid)


def _apply_end(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    s.turn.ended = True
    return finish_conquests(s)


def _apply_intimidate(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Intimidate)
    rid = a.region
    area = s.areas[rid]
    events = _pay_power(s, p, [rid])
    s.turn.intimidations += 1
    s.turn.acted = True
    name = s.region_name(rid)
    if area.wisp_wall or area.fort:
        what = "Wisp Wall" if area.wisp_wall else "Fort"
        if area.wisp_wall:
            area.wisp_wall = False
        else:
            area.fort = False
        event = Event(
            "intimidate",
            {"player": p, "region": rid, "removed": what},
            f"player {p} intimidates {name}: the {what} is discarded",
        )
        return [*events, event]
    q, declined = area.owner, area.declined
    area.tokens -= 1
    if q is None:
        text = f"player {p} intimidates {name}: a Murloc is discarded"
    else:
        seat = s.players[q]
        if declined:
            seat.returning_declined += 1
            if area.race == "tauren" and area.units == 1:
                # SWW-RAC-TAU: a Tauren token is never left alone, declined or not; it goes too.
                area.tokens = 0
                seat.returning_declined += 1
        else:
            seat.returning += 1
            if area.race == "tauren" and area.units == 1:
                seat.returning += area.tokens
                seat.returning_beasts += area.beasts
                seat.returning_champion = seat.returning_champion or area.champion
                area.tokens = area.beasts = 0
                area.champion = False
        if q not in s.turn.defenders:
            s.turn.defenders.append(q)
        text = (
            f"player {p} intimidates {name}: a {s.race_name(area.race)} token"
            " must move to another region of its race"
        )
    if area.units == 0:
        area.clear_occupants()
        if area.bomb_by is not None:
            _bomb_back(s, rid)
    return [*events, Event("intimidate", {"player": p, "region": rid}, text)]


_SWAPPED = (
    "owner",
    "race",
    "declined",
    "tokens",
    "beasts",
    "champion",
    "fort",
    "wisp_wall",
    "objective",
    "bomb_by",
    "bomb_live",
)


def _apply_portal(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Portal)
    events = _pay_power(s, p, [a.first, a.second])
    s.turn.portals += 1
    s.turn.acted = True
    x, y = s.areas[a.first], s.areas[a.second]
    for name in _SWAPPED:
        vx, vy = getattr(x, name), getattr(y, name)
        setattr(x, name, vy)
        setattr(y, name, vx)
    xa = tuple(m for m in x.markers if m in s.content.artifacts)
    ya = tuple(m for m in y.markers if m in s.content.artifacts)
    x.markers = tuple(m for m in x.markers if m not in xa) + ya
    y.markers = tuple(m for m in y.markers if m not in ya) + xa
    events.append(
        Event(
            "portal",
            {"player": p, "regions": [a.first, a.second]},
            f"player {p}'s Portal Mages swap {s.region_name(a.first)} and {s.region_name(a.second)}",
        )
    )
    for rid in (a.first, a.second):
        if s.areas[rid].owner == p:
            events += _reveal(s, rid)
    return events


def _apply_steal(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Steal)
    events = _pay_power(s, p, [a.source])
    s.turn.used.append("steal")
    s.turn.acted = True
    src, dst = s.areas[a.source], s.areas[a.target]
    artifact = next(m for m in src.markers if m in s.content.artifacts)
    src.markers = tuple(m for m in src.markers if m != artifact)
    dst.markers += (artifact,)
    events.append(
        Event(
            "steal",
            {"player": p, "artifact": artifact, "from": a.source, "to": a.target, "rule": "SWW-RAC-ETH"},
            f"player {p}'s Ethereals steal the {s.content.marker_name(artifact)}"
            f" into {s.region_name(a.target)}",
        )
    )
    return events


def finish_conquests(s: SmallWorldState) -> list[Event]:
    """Conquests are over: Forsaken recruits, then redeployment (SWW-RDP-01)."""
    p = s.current
    s.turn.ended = True
    if s.active_race(p) == "forsaken" and _recruit_max(s, p) > 0:
        s.stage = Stage.RECRUIT
        return []
    return start_redeploy(s)


def _apply_recruit(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Recruit)
    events: list[Event] = []
    if a.count:
        s.players[p].coins -= a.count
        s.players[p].hand += a.count
        events.append(
            Event(
                "recruit",
                {"player": p, "count": a.count, "rule": "SWW-RAC-FOR"},
                f"player {p}'s Forsaken raise {a.count} extra token(s) for {a.count} coin(s)",
            )
        )
    return events + start_redeploy(s)


def lift_troops(s: SmallWorldState, p: int) -> None:
    """Take every unit but the minimum per region back in hand (1, or 2 for Tauren)."""
    seat = s.players[p]
    keep = 2 if s.active_race(p) == "tauren" else 1
    for rid in s.regions_of(p):
        a = s.areas[rid]
        spare = a.units - keep
        if spare <= 0:
            continue
        take = min(a.beasts, spare)
        a.beasts -= take
        seat.hand_beasts += take
        spare -= take
        if spare and a.champion and a.tokens >= keep:
            a.champion = False
            seat.hand_champion = True
            spare -= 1
        take = min(a.tokens, spare)
        a.tokens -= take
        seat.hand += take


def start_redeploy(s: SmallWorldState) -> list[Event]:
    p = s.current
    seat = s.players[p]
    events: list[Event] = []
    if s.controls_marker(p, SPIRIT_HEALER) and seat.active and s.supply_of(seat.active.race) > 0:
        seat.hand += 1
        events.append(
            Event(
                "spirit_healer",
                {"player": p, "rule": "SWW-LEG-07"},
                f"player {p} gains a token at the Spirit Healer",
            )
        )
    lift_troops(s, p)
    if s.regions_of(p) and (seat.hand or seat.hand_beasts or seat.hand_champion):
        s.stage = Stage.REDEPLOY
        return events
    return events + after_redeploy(s)


def _apply_deploy(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Deploy)
    area = s.areas[a.region]
    pool = _deploy_pool(s)
    pool.take(s, a.unit, a.count)
    field = UNIT_FIELDS[a.unit][2]
    setattr(area, field, True if a.unit == "champion" else getattr(area, field) + a.count)
    q = pool.owner
    verb = "deploys" if s.stage is Stage.REDEPLOY else "redeploys"
    events = [
        Event(
            "deploy",
            {"player": q, "region": a.region, "count": a.count, "unit": a.unit},
            f"player {q} {verb} {a.count} {a.unit}(s) to {s.region_name(a.region)}",
        )
    ]
    if s.stage is Stage.DEFEND:
        return events + next_defender(s)
    if not any(pool.count(s, unit) for unit in UNIT_FIELDS):
        events += after_redeploy(s)
    return events


def after_redeploy(s: SmallWorldState) -> list[Event]:
    """End-of-turn markers that need a choice (Aegis, Heart, Military Objectives), then the rest."""
    p = s.current
    s.turn.to_place = [m for m in PLACED_ARTIFACTS if s.controls_marker(p, m)]
    if s.turn.to_place:
        s.stage = Stage.PLACE
        return []
    return _objectives_or_end(s)


def _objectives_or_end(s: SmallWorldState) -> list[Event]:
    p = s.current
    if s.active_race(p) == "humans":
        for area in s.areas.values():
            area.objective = False
        s.turn.objectives_left = s.content.supplies.military_objectives
        if _objective_targets(s):
            s.stage = Stage.OBJECTIVE
            return []
    return _bombs_or_side(s)


def _apply_place(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, PlaceArtifact)
    old = s.marker_region(a.artifact)
    assert old is not None
    s.areas[old].markers = tuple(m for m in s.areas[old].markers if m != a.artifact)
    s.areas[a.region].markers += (a.artifact,)
    s.turn.to_place.pop(0)
    events = [
        Event(
            "place",
            {"player": p, "artifact": a.artifact, "region": a.region},
            f"player {p} lays the {s.content.marker_name(a.artifact)} in {s.region_name(a.region)}",
        )
    ]
    if s.turn.to_place:
        return events
    return events + _objectives_or_end(s)


def _apply_objective(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Objective)
    s.areas[a.region].objective = True
    s.turn.objectives_left -= 1
    events = [
        Event(
            "objective",
            {"player": p, "region": a.region, "rule": "SWW-RAC-HUM"},
            f"player {p}'s Humans mark {s.region_name(a.region)} as a Military Objective",
        )
    ]
    if s.turn.objectives_left > 0 and _objective_targets(s):
        return events
    s.turn.objectives_left = 0
    return events + _bombs_or_side(s)


def _bombs_or_side(s: SmallWorldState) -> list[Event]:
    """The Goblins choose where their bombs go (SWW-RAC-GOB), one at a time, while any may go."""
    p = s.current
    if s.active_race(p) == "goblins" and s.bombs:
        s.stage = Stage.BOMB
        if any(isinstance(a, Bomb) for a in legal_actions(s)):
            return []
    return _side_or_end(s)


def _side_or_end(s: SmallWorldState) -> list[Event]:
    """A neutral race holding the Battleground chooses its faction for the turn (SWW-LEG-01)."""
    p = s.current
    if s.faction_of(s.active_race(p)) == "neutral" and s.controls_marker(p, BATTLEGROUND):
        s.stage = Stage.SIDE
        return []
    return end_of_turn(s)


def _apply_bomb(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Bomb)
    events = _pay_power(s, p, [a.region])
    area = s.areas[a.region]
    area.bomb_by, area.bomb_live = p, s.bombs.pop()
    events.append(
        Event(
            "bomb_laid",
            {"player": p, "region": a.region, "rule": "SWW-RAC-GOB"},
            f"player {p}'s Goblins lay a bomb face down in {s.region_name(a.region)}",
        )
    )
    if any(isinstance(x, Bomb) for x in legal_actions(s)):
        return events
    return events + _side_or_end(s)


def _apply_side(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    assert isinstance(a, Side)
    s.turn.side = a.faction
    event = Event(
        "side",
        {"player": p, "faction": a.faction, "rule": "SWW-LEG-01"},
        f"player {p}'s {s.race_name(s.active_race(p))} fight with the {a.faction.title()} this turn",
    )
    return [event, *end_of_turn(s)]


def _apply_done(s: SmallWorldState, p: int, a: Action) -> list[Event]:
    if s.stage is Stage.OBJECTIVE:
        s.turn.objectives_left = 0
        return _bombs_or_side(s)
    return _side_or_end(s)


# ======================================================================================
# end of turn, next turn
# ======================================================================================
def end_of_turn(s: SmallWorldState) -> list[Event]:
    """Automatic end-of-turn markers, scoring, then the attacked players' redeployment."""
    from warhorn.games.smallworld.scoring import score_turn

    p = s.current
    events: list[Event] = []
    tribe = s.players[p].active
    if tribe is not None and not s.turn.declined_now:
        if tribe.power == "garrisoned":
            events += _forts(s, p)
        if tribe.power == "defensive":
            events += _watchtowers(s, p)
    events += score_turn(s, p)
    if tribe is not None and tribe.race == "pandaren" and not s.turn.declined_now:
        events += _give_harmony(s, p)
    return events + next_defender(s)


def _forts(s: SmallWorldState, p: int) -> list[Event]:
    count = sum(1 for a in s.areas.values() if a.fort)
    placed = []
    for rid in s.regions_of(p):
        if count >= s.content.supplies.forts:
            break
        if not s.areas[rid].fort:
            s.areas[rid].fort = True
            placed.append(rid)
            count += 1
    return _pieces_event("forts", p, placed, "SWW-POW-GAR", f"player {p} builds {len(placed)} Fort(s)")


def _pieces_event(kind: str, p: int, regions: list[str], rule: str, text: str) -> list[Event]:
    """The event of pieces laid or changed at the end of a turn (none when nothing changed)."""
    if not regions:
        return []
    return [Event(kind, {"player": p, "regions": regions, "rule": rule}, text)]


def race_tally(s: SmallWorldState, rid: str) -> dict[tuple[int | None, str | None, bool], int]:
    """Regions next to ``rid`` per race (owner, race, declined): active and declined races apart."""
    tally: dict[tuple[int | None, str | None, bool], int] = {}
    for n in s.index.neighbours[rid]:
        x = s.areas[n]
        if x.occupied:
            key = (x.owner, x.race, x.declined)
            tally[key] = tally.get(key, 0) + 1
    return tally


def _watchtowers(s: SmallWorldState, p: int) -> list[Event]:
    towers = sum(1 for a in s.areas.values() if a.watchtower)
    changed = []
    for rid in s.regions_of(p):
        if s.index.regions[rid].terrain != "field":
            continue
        tally = race_tally(s, rid)
        mine = tally.pop((p, s.active_race(p), False), 0)
        majority = mine > max(tally.values(), default=0)
        area = s.areas[rid]
        if majority and not area.watchtower and towers < s.content.supplies.watchtowers:
            area.watchtower = True
            towers += 1
            changed.append(rid)
        elif not majority and area.watchtower:
            area.watchtower = False
            towers -= 1
            changed.append(rid)
    text = f"player {p}'s Watch Towers change in {len(changed)} region(s)"
    return _pieces_event("watchtowers", p, changed, "SWW-POW-DEF", text)


def resolve_bombs(s: SmallWorldState, p: int) -> list[Event]:
    """Reveal the bombs ``p``'s Goblins laid (SWW-RAC-GOB): explosions empty the region."""
    events: list[Event] = []
    for rid in s.index.order:
        a = s.areas[rid]
        if a.bomb_by != p:
            continue
        if not a.occupied or a.owner == p or a.owner is None:
            _bomb_back(s, rid)
            continue
        live = a.bomb_live
        a.bomb_by, a.bomb_live = None, False
        events.append(
            Event(
                "bomb",
                {"player": p, "region": rid, "explodes": live, "rule": "SWW-RAC-GOB"},
                f"the bomb in {s.region_name(rid)} " + ("explodes" if live else "is a dud"),
            )
        )
        if live:
            q = a.owner
            if q is not None and a.race is not None:
                s.turn.defeated.append((q, a.race, a.declined))
            events += lose_units(s, rid, p)
    return events


def _give_harmony(s: SmallWorldState, p: int) -> list[Event]:
    given: list[int] = []
    cap = s.content.supplies.harmony
    for q, seat in enumerate(s.players):
        if q == p or q in s.turn.attacked or len(given) >= cap:
            continue
        if seat.harmony_from is None:
            seat.harmony_from = p
            given.append(q)
    if not given:
        return []
    return [
        Event(
            "harmony",
            {"player": p, "to": given, "rule": "SWW-RAC-PAN"},
            f"player {p}'s Pandaren give Harmony tokens to players {given}",
        )
    ]


def next_defender(s: SmallWorldState) -> list[Event]:
    """Ask each attacked player in turn to redeploy what it took back (SWW-CNQ-04), then next turn."""
    events: list[Event] = []
    while s.turn.defenders:
        q = s.turn.defenders[0]
        seat = s.players[q]
        if seat.returning or seat.returning_beasts or seat.returning_champion:
            if s.regions_of(q):
                s.stage = Stage.DEFEND
                return events
            seat.hand += seat.returning
            seat.hand_beasts += seat.returning_beasts
            seat.hand_champion = seat.hand_champion or seat.returning_champion
            seat.returning = seat.returning_beasts = 0
            seat.returning_champion = False
            events.append(
                Event(
                    "keep",
                    {"player": q},
                    f"player {q} has no region left: the tokens stay in hand for a new first conquest",
                )
            )
        if seat.returning_declined:
            if s.regions_of(q, declined=True):
                s.stage = Stage.DEFEND
                return events
            seat.returning_declined = 0
        s.turn.defenders.pop(0)
    return events + _tidy_and_next(s)


def _tidy_and_next(s: SmallWorldState) -> list[Event]:
    events: list[Event] = []
    for q, seat in enumerate(s.players):
        if seat.declined is not None and not s.regions_of(q, declined=True) and not seat.returning_declined:
            events += remove_declined(s, q)
    n = s.num_players
    s.current = (s.current + 1) % n
    s.turn_number += 1
    if s.current == 0:
        s.round += 1
        if s.round > s.rounds:
            s.round = s.rounds
            s.stage = Stage.OVER
            res = s.results()
            assert res is not None
            events.append(
                Event(
                    "game_over",
                    {"winners": sorted(res.winners), "coins": [x.coins for x in s.players]},
                    f"the game ends: player(s) {sorted(res.winners)} win",
                )
            )
            return events
        events.append(Event("round", {"round": s.round}, f"round {s.round} of {s.rounds} begins"))
    return events + begin_turn(s)


def _take_beasts(s: SmallWorldState, p: int) -> list[Event]:
    seat = s.players[p]
    hills = sum(1 for rid in s.regions_of(p) if s.index.regions[rid].terrain == "hill")
    seat.hand_beasts = min(hills, s.content.supplies.beasts)
    if not seat.hand_beasts:
        return []
    return [
        Event(
            "beasts",
            {"player": p, "beasts": seat.hand_beasts, "rule": "SWW-POW-BEA"},
            f"player {p} tames {seat.hand_beasts} beast(s)",
        )
    ]


def begin_turn(s: SmallWorldState) -> list[Event]:
    """Start-of-turn effects, troops readied, and the first decision of the turn."""
    p = s.current
    s.turn = TurnLog(p, s.turn_number)
    seat = s.players[p]
    events: list[Event] = []
    tribe = seat.active
    if tribe is not None and tribe.race == "pandaren":
        for other in s.players:
            if other.harmony_from == p:
                other.harmony_from = None
    if tribe is not None and tribe.race == "goblins":
        events += resolve_bombs(s, p)  # bombed players redeploy at the end of this turn
    if tribe is not None and tribe.power == "beast_master":
        for rid in s.regions_of(p):
            area = s.areas[rid]
            area.beasts = 0
            if tribe.race == "tauren" and area.units == 1 and area.tokens:
                seat.hand += area.tokens  # SWW-RAC-TAU: the token left alone goes back to hand
                area.tokens = 0
            if area.units == 0:
                area.clear_occupants()
                if area.bomb_by is not None:
                    _bomb_back(s, rid)
        seat.hand_beasts = 0
        events += _take_beasts(s, p)
    if tribe is not None:
        lift_troops(s, p)
        s.stage = Stage.FORM if tribe.race == "worgen" else Stage.CONQUER
    else:
        s.stage = Stage.PICK
    events.append(Event("turn", {"player": p, "round": s.round}, f"player {p}'s turn (round {s.round})"))
    return events


_HANDLERS: dict[type, Callable[[SmallWorldState, int, Action], list[Event]]] = {
    Pick: _apply_pick,
    Form: _apply_form,
    Conquer: _apply_conquer,
    Reinforce: _apply_reinforce,
    Abandon: _apply_abandon,
    Decline: _apply_decline,
    EndConquests: _apply_end,
    Intimidate: _apply_intimidate,
    Portal: _apply_portal,
    Steal: _apply_steal,
    Recruit: _apply_recruit,
    Deploy: _apply_deploy,
    PlaceArtifact: _apply_place,
    Objective: _apply_objective,
    Bomb: _apply_bomb,
    Side: _apply_side,
    Done: _apply_done,
}
