"""Phase 3, the battle flow: battles on land, at sea and in dungeons as the game plays them -
casualties, retreat, conquest, liberation, Run Amok.

A battle is a state machine kept in ``state.d.battle``: each round rolls the
first-strike volleys, waits for the damage to be assigned (each side's owner
chooses its own casualties; allies split; the next player assigns among
guardians), rolls the other pieces, waits again, then asks the attacker to
continue or retreat. Dice, hit numbers, capacity and casualty checks come from
the pure battle model, :mod:`warhorn.games.nerath.battle_model`.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement, product
from typing import TYPE_CHECKING

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event, roll_event
from warhorn.games.nerath.actions import (
    AssignDamage,
    ContinueBattle,
    Fight,
    Retreat,
    RunAmok,
    SplitDamage,
)
from warhorn.games.nerath.battle_model import (
    PIECE_IDS,
    PIECE_INDEX,
    BattleOutcome,
    BattleSide,
    Guardian,
    Volley,
    battle_outcome,
    damage_capacity,
    roll_volley,
    validate_assignment,
)
from warhorn.games.nerath.board import DUNGEON, KINGDOM_IDS, LAND, SEA
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import cards, dungeons
from warhorn.games.nerath.state import BattleState, DamageOrder, DamageSplit, Die, Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


# --- which battles -------------------------------------------------------------------
def find_battles(s: NerathState, k: int) -> tuple[int, ...]:
    """Spaces where ``k`` attacks this phase (NER-MOV-02, NER-BAT-01), in board order."""
    units = s.d.units
    kind = s.board.kind
    heroes_on: dict[int, bool] = {}  # k's spaces (pieces not carried): whether a hero is there
    for uid in s.index().kingdom.get(k, ()):
        u = units[uid]
        if u.carrier < 0:
            heroes_on[u.space] = heroes_on.get(u.space, False) or PIECES[u.ptype].hero
    return tuple(i for i in sorted(heroes_on) if (heroes_on[i] if kind[i] == DUNGEON else s.is_enemy(i, k)))


def legal_fights(s: NerathState) -> list[Fight]:
    """Sea battles first, then the rest, in any order the attacker likes (NER-BAT-01)."""
    todo = s.d.battles_todo
    sea = [i for i in todo if s.board.kind[i] == SEA]
    pool = sea or list(todo)
    return [Fight(s.board.sid(i)) for i in pool]


def start_battle(s: NerathState, space: int) -> list[Event]:
    k = s.current_kingdom
    s.d.battles_todo = tuple(i for i in s.d.battles_todo if i != space)
    kind = s.board.kind[space]
    events = [
        Event(
            "battle.start",
            {"space": s.board.sid(space), "attacker": k, "kind": kind},
            f"{s.kingdom_name(k)} attacks {s.board.sid(space)} ({kind} battle)",
        )
    ]
    if kind == DUNGEON:
        events += dungeons.reveal(s, space)
    s.d.battle = BattleState(space, "dungeon" if kind == DUNGEON else kind, k)
    if kind == DUNGEON:
        events += s.card_trigger("dungeon", k, space)  # properties for the explorer's dungeon battles
    if not side_model(s, defenders=True).can_fight:
        events += _finish(s, attacker_won=side_model(s, defenders=False).can_fight)
        return events
    if cards.open_window(s, "before_battle", battle_kingdoms(s), "battle_roll"):
        return events
    events += roll_step(s)
    return events


def battle_kingdoms(s: NerathState) -> list[int]:
    """The attacker, then the defending kingdoms of the current battle."""
    b = s.d.battle
    assert b is not None
    return [b.attacker, *sorted({u.kingdom for u in participants(s, defenders=True)})]


# --- participants ----------------------------------------------------------------------
def participants(s: NerathState, defenders: bool) -> list[Unit]:
    """Pieces taking part on one side (sea: warships, flyers and carried heroes, NER-BAT-08)."""
    b = s.d.battle
    assert b is not None
    out = []
    for u in s.units_at(b.space):
        mine = u.kingdom == b.attacker
        if mine == defenders or (defenders and s.allied(u.kingdom, b.attacker)):
            continue
        out.append(u)
        if b.kind == "sea" and u.ptype == "warship":
            out.extend(c for c in s.cargo_of(u.uid) if PIECES[c.ptype].hero)  # NER-PCS-09
    if b.kind == "sea":
        out = [u for u in out if PIECES[u.ptype].sea_dice]
    return out


def side_model(s: NerathState, defenders: bool, units: list[Unit] | None = None) -> BattleSide:
    """One side of the current battle (or the ``units`` given) as the shared battle model sees it.

    A side of the whole battle is remembered until a piece changes (``NerathState._sides``), under
    the battle, the card modifiers in force, the treasures in play and the dungeon's guardians.
    """
    b = s.d.battle
    assert b is not None
    if units is not None:
        return _side_model(s, b, defenders, units)
    d = s.d
    key = (
        b.space,
        b.kind,
        b.attacker,
        defenders,
        d.effects,
        tuple(d.treasures_in_play),
        d.guardians.get(b.space) if b.kind == "dungeon" else None,
    )
    sides = s._sides
    if sides is None:
        sides = s._sides = {}
    side = sides.get(key)
    if side is None:
        side = sides[key] = _side_model(s, b, defenders, None)
    return side


def _side_model(s: NerathState, b: BattleState, defenders: bool, units: list[Unit] | None) -> BattleSide:
    zero = (0,) * len(PIECE_IDS)
    if defenders and b.kind == "dungeon":
        slots = s.d.guardians.get(b.space, ())
        gs = tuple(_guardian_model(s, g.tile) for g in slots)
        return BattleSide(zero, zero, gs, tuple(g.dice for g in slots))
    healthy = [0] * len(PIECE_IDS)
    damaged = [0] * len(PIECE_IDS)
    if units is None:
        units = participants(s, defenders)
    for u in units:
        if u.damage or u.inactive:
            damaged[PIECE_INDEX[u.ptype]] += 1
        else:
            healthy[PIECE_INDEX[u.ptype]] += 1
    hit_min = cards.side_hit_number(s, units, participants(s, not defenders))
    resilient = frozenset(u.ptype for u in units if s.extra_toughness(u) and u.ptype != "castle")
    return BattleSide(tuple(healthy), tuple(damaged), (), (), hit_min, resilient)


def _guardian_model(s: NerathState, tile: str) -> Guardian:
    g = s.board.guardian(tile)
    return Guardian(g.id, g.name, g.dice, g.first_strike, g.hero_hit_min, g.reward_gold)


def _dice(volley: Volley) -> tuple[Die, ...]:
    return tuple((sides, face, r.hit_min) for r in volley.rolls for sides, face in r.faces)


def _volley(s: NerathState, defenders: bool, first: bool) -> tuple[Die, ...]:
    """Roll one side's dice for this step through the shared battle model (NER-BAT-02).

    Pieces a card grants first strike roll all their dice in the first-strike
    step; extra dice from cards are rolled in the normal step.
    """
    b = s.d.battle
    assert b is not None
    them = side_model(s, not defenders)
    sea = b.kind == "sea"
    attacking = not defenders
    if defenders and b.kind == "dungeon":
        return _dice(roll_volley(side_model(s, True), them, s.rng, attacking=False, first_strike=first))
    units = participants(s, defenders)
    granted = cards.first_strike_units(s, units)
    rest = [u for u in units if u.uid not in {g.uid for g in granted}] if granted else None  # None: all
    out = _dice(
        roll_volley(
            side_model(s, defenders, rest), them, s.rng, attacking=attacking, sea=sea, first_strike=first
        )
    )
    if granted and first:
        fast = side_model(s, defenders, granted)
        for flag in (True, False):
            out += _dice(roll_volley(fast, them, s.rng, attacking=attacking, sea=sea, first_strike=flag))
    if not first and units:
        need = side_model(s, defenders).hit_min or 6
        for sides in cards.extra_dice(s, units):
            out += ((sides, s.rng.roll(sides), need),)
    return out


def roll_step(s: NerathState) -> list[Event]:
    """Roll the current step's volleys for both sides; open the battle-round card window, then hit."""
    b = s.d.battle
    assert b is not None
    outcome = battle_outcome(side_model(s, defenders=False), side_model(s, defenders=True))
    if outcome is not None:  # NER-BAT-15: e.g. a card before the first roll left one side nothing
        return _finish(s, attacker_won=outcome == BattleOutcome.ATTACKER_WINS)
    first = b.step == "first_strike"
    # the attacker rolls first for convenience; the effect is simultaneous (NER-BAT-02)
    att = _volley(s, defenders=False, first=first)
    dfn = _volley(s, defenders=True, first=first)
    s.d.battle = replace(b, rolled=(att, dfn), negate=(0, 0))
    events = _roll_events(s, att, dfn, first)
    if (att or dfn) and cards.open_window(s, "battle_round", battle_kingdoms(s), "battle_hits"):
        return events
    return events + resolve_hits(s)


def _roll_events(s: NerathState, att: tuple[Die, ...], dfn: tuple[Die, ...], first: bool) -> list[Event]:
    b = s.d.battle
    assert b is not None
    where = s.board.sid(b.space)
    guard = f"guardians (for player {s.player_of[(b.attacker + 1) % 4]})"
    events = []
    for dice, who, what in (
        (att, s.kingdom_name(b.attacker), "first strike" if first else "attack"),
        (dfn, guard if b.kind == "dungeon" else "defenders", "first strike" if first else "defence"),
    ):
        if dice:
            hits = sum(1 for _, face, need in dice if face >= need)
            events.append(
                roll_event(who, [(sd, f) for sd, f, _ in dice], purpose=f"{what} at {where}", hits=hits)
            )
    return events


def resolve_hits(s: NerathState) -> list[Event]:
    """Turn the rolled dice into damage orders (cancelled hits removed), then assign what is forced.

    Allied defenders first agree how to share their damage (NER-BAT-07): the
    battle then waits on ``split`` before any damage is placed.
    """
    b = s.d.battle
    assert b is not None
    att, dfn = b.rolled
    hits_on_def = max(0, sum(1 for _, f, need in att if f >= need) - b.negate[1])
    hits_on_att = max(0, sum(1 for _, f, need in dfn if f >= need) - b.negate[0])
    events: list[Event] = []
    orders: list[DamageOrder] = []
    split: DamageSplit | None = None
    if hits_on_def:
        if b.kind == "dungeon":
            orders.append(DamageOrder(s.player_of[(b.attacker + 1) % 4], -1, hits_on_def))
        else:
            defending = _defending_kingdoms(s)  # once per volley: this runs for every hit in every battle
            split = _agreement_needed(s, hits_on_def, defending)
            if split is None:
                orders.extend(_default_defender_split(s, hits_on_def, events, defending))
    if hits_on_att:
        orders.append(DamageOrder(s.player_of[b.attacker], b.attacker, hits_on_att))
    s.d.battle = replace(b, orders=tuple(orders), rolled=((), ()), negate=(0, 0), split=split)
    if split is not None:
        events.append(
            Event(
                "battle.split_asked",
                {"hits": split.hits, "proposer": split.proposer, "partner": split.partner},
                f"{s.kingdom_name(split.proposer)} and {s.kingdom_name(split.partner)} "
                f"share {split.hits} damage",
            )
        )
        return events
    events += _auto_assign(s)
    return events


#: The defending kingdoms of the current battle, their pieces in it and how much damage each can take.
Defending = tuple[list[int], dict[int, int], dict[int, int]]


def _defending_kingdoms(s: NerathState) -> Defending:
    """The defending kingdoms and, when allies share the defence, their pieces in the battle and how
    much damage each can take."""
    dfn = participants(s, defenders=True)
    kingdoms = sorted({u.kingdom for u in dfn})
    if len(kingdoms) < 2:  # the usual case: one defender takes it all, nothing to count
        return kingdoms, {}, {}
    count = {k: sum(1 for u in dfn if u.kingdom == k) for k in kingdoms}
    cap = {k: len(_damageable(s, k)) for k in kingdoms}
    return kingdoms, count, cap


def _agreement_needed(s: NerathState, hits: int, defending: Defending) -> DamageSplit | None:
    """The split the allies must agree on, or None when the rule leaves no choice (NER-BAT-07).

    The option ``allied_damage = fixed`` always uses the default split. The
    ally with more pieces in the battle makes the offer; on a tie, the one
    whose turn comes first after the attacker's.
    """
    kingdoms, count, cap = defending
    if len(kingdoms) != 2 or s.options.get("allied_damage", "agree") != "agree":
        return None
    b = s.d.battle
    assert b is not None
    a, c = sorted(kingdoms, key=lambda k: (-count[k], (k - b.attacker) % 4))
    split = DamageSplit(hits, a, c)
    return split if len(_split_range(split, cap)) > 1 else None


def split_choices(s: NerathState, split: DamageSplit) -> list[tuple[int, int]]:
    """Every (proposer's hits, partner's hits) the allies may agree on: each takes what it can hold."""
    return _split_range(split, _defending_kingdoms(s)[2])


def _split_range(split: DamageSplit, cap: dict[int, int]) -> list[tuple[int, int]]:
    total = min(split.hits, cap[split.proposer] + cap[split.partner])
    low = max(0, total - cap[split.partner])
    high = min(total, cap[split.proposer])
    return [(x, total - x) for x in range(low, high + 1)]


def legal_split_offers(s: NerathState) -> list[SplitDamage]:
    b = s.d.battle
    assert b is not None and b.split is not None
    p, q = KINGDOM_IDS[b.split.proposer], KINGDOM_IDS[b.split.partner]
    return [SplitDamage(((p, x), (q, y))) for x, y in split_choices(s, b.split)]


def check_split_offer(s: NerathState, a: SplitDamage) -> IllegalActionError | None:
    b = s.d.battle
    assert b is not None and b.split is not None
    if a in legal_split_offers(s):
        return None
    split = b.split
    choices = ", ".join(f"{x}+{y}" for x, y in split_choices(s, split))
    return IllegalActionError(
        f"offer {KINGDOM_IDS[split.proposer]}'s and {KINGDOM_IDS[split.partner]}'s shares of the "
        f"{split.hits} damage, each no more than its pieces can take (possible: {choices})",
        "NER-BAT-07",
    )


def apply_split_offer(s: NerathState, a: SplitDamage) -> list[Event]:
    b = s.d.battle
    assert b is not None and b.split is not None
    split = b.split
    offer = (a.shares[0][1], a.shares[1][1])
    words = f"{s.kingdom_name(split.proposer)} takes {offer[0]}, {s.kingdom_name(split.partner)} {offer[1]}"
    if s.player_of[split.proposer] == s.player_of[split.partner]:  # one player holds both: nothing to ask
        agreed = Event("battle.split_agreed", {"offer": list(offer)}, f"damage shared: {words}")
        return [agreed, *_settle_split(s, offer)]
    s.d.battle = replace(b, split=replace(split, offer=offer))
    return [Event("battle.split_offered", {"offer": list(offer)}, f"offer to share the damage: {words}")]


def apply_split_answer(s: NerathState, accept: bool) -> list[Event]:
    b = s.d.battle
    assert b is not None and b.split is not None and b.split.offer is not None
    split, offer = b.split, b.split.offer
    if accept:
        agrees = f"{s.kingdom_name(split.partner)} agrees"
        agreed = Event("battle.split_agreed", {"offer": list(offer)}, agrees)
        return [agreed, *_settle_split(s, offer)]
    events = [
        Event(
            "battle.split_refused",
            {"by": split.partner},
            f"{s.kingdom_name(split.partner)} refuses: the damage is split by the rule",
        )
    ]
    orders = _default_defender_split(s, split.hits, events)
    s.d.battle = replace(b, split=None, orders=(*orders, *b.orders))
    return events + _auto_assign(s)


def _settle_split(s: NerathState, offer: tuple[int, int]) -> list[Event]:
    b = s.d.battle
    assert b is not None and b.split is not None
    split = b.split
    shares = ((split.proposer, offer[0]), (split.partner, offer[1]))
    orders = [DamageOrder(s.player_of[k], k, n) for k, n in shares if n]
    s.d.battle = replace(b, split=None, orders=(*orders, *b.orders))
    return _auto_assign(s)


def default_split(s: NerathState, hits: int, defending: Defending | None = None) -> list[dict[int, int]]:
    """NER-BAT-07 without agreement: half each, the odd one to the ally with more pieces, overflow to
    the other.

    One share per defending kingdom; two equally likely outcomes when the allies
    have as many pieces and the odd damage goes by lot.
    """
    kingdoms, count, cap = defending if defending is not None else _defending_kingdoms(s)
    if len(kingdoms) < 2:
        return [{k: hits for k in kingdoms}]
    a, b = kingdoms[0], kingdoms[1]
    if hits % 2 == 0:
        odd_to: list[int | None] = [None]
    elif count[a] != count[b]:
        odd_to = [a if count[a] > count[b] else b]
    else:
        odd_to = [a, b]
    outcomes = []
    for odd in odd_to:
        share = {a: hits // 2, b: hits // 2}
        if odd is not None:
            share[odd] += 1
        for x, y in ((a, b), (b, a)):
            if share[x] > cap[x]:
                share[y] += share[x] - cap[x]
                share[x] = cap[x]
        outcomes.append(share)
    return outcomes


def _default_defender_split(
    s: NerathState, hits: int, events: list[Event], defending: Defending | None = None
) -> list[DamageOrder]:
    """The default split's damage orders; a tied odd damage is drawn by lot (NER-BAT-07)."""
    outcomes = default_split(s, hits, defending)
    share = outcomes[0]
    if len(outcomes) > 1:
        lot = s.rng.below(len(outcomes))  # the outcomes follow the kingdoms' order
        share = outcomes[lot]
        odd = sorted(share)[lot]
        events.append(
            Event(
                "battle.odd_damage",
                {"to": odd},
                f"the odd damage goes by lot to {s.kingdom_name(odd)}",
                chance=True,
            )
        )
    return [DamageOrder(s.player_of[k], k, n) for k, n in sorted(share.items()) if n > 0]


# --- damage ------------------------------------------------------------------------------
def token_of(s: NerathState, u: Unit) -> str:
    # a wounded piece is named as such whether it is resilient by nature or by a card (NER-BAT-05)
    if u.damage > 0 and PIECES[u.ptype].toughness + s.extra_toughness(u) > 1:
        return f"wounded-{u.ptype}"
    if u.ptype == "warship":
        cargo = s.cargo_of(u.uid)
        if cargo:
            return "warship(" + "+".join(sorted(c.ptype for c in cargo)) + ")"
    return u.ptype


def _damageable(s: NerathState, k: int) -> list[Unit]:
    """Pieces of kingdom ``k`` in the current battle that can take damage (not inactive castles)."""
    b = s.d.battle
    assert b is not None
    return [u for u in participants(s, defenders=k != b.attacker) if u.kingdom == k and not u.inactive]


def _guardian_tokens(s: NerathState) -> list[str]:
    b = s.d.battle
    assert b is not None
    out: list[str] = []
    for n, g in enumerate(s.d.guardians.get(b.space, ())):
        out.extend(f"{g.tile}@{n + 1}:d{sides}" for sides in g.dice)
    return out


def _target_tokens(s: NerathState, order: DamageOrder) -> list[str]:
    if order.kingdom < 0:
        return _guardian_tokens(s)
    return [token_of(s, u) for u in _damageable(s, order.kingdom)]


def _capacity(s: NerathState, order: DamageOrder) -> int:
    """How much of one volley a kingdom (or the guardians) can take, per the shared model (NER-BAT-03)."""
    if order.kingdom < 0:
        return damage_capacity(side_model(s, defenders=True))
    return len(_damageable(s, order.kingdom))


def damage_options(s: NerathState, order: DamageOrder) -> list[tuple[str, ...]]:
    """Every distinct way to place one volley's damage (NER-BAT-03, NER-DUN-02/03)."""
    tokens = _target_tokens(s, order)
    n = len(tokens)
    if n == 0:
        return [()]
    if order.kingdom >= 0 and s.options.get("damage_doubling") and order.hits > n:
        extra = order.hits - n
        fresh = sorted(t for t in tokens if t in ("dragon",))
        return [tuple(sorted(tokens + fresh[:extra]))]
    take = min(order.hits, _capacity(s, order))
    limits: dict[str, int] = {}
    for t in tokens:
        limits[t] = limits.get(t, 0) + 1
    kinds = sorted(limits)
    out = []
    for combo in combinations_with_replacement(kinds, take):
        if all(combo.count(t) <= limits[t] for t in set(combo)):
            out.append(tuple(combo))
    return out


def legal_damage(s: NerathState) -> list[AssignDamage]:
    b = s.d.battle
    assert b is not None and b.orders
    return [AssignDamage(t) for t in damage_options(s, b.orders[0])]


def model_assignment(
    s: NerathState, order: DamageOrder, targets: tuple[str, ...]
) -> tuple[BattleSide, dict[str, int]]:
    """The damaged side and the assignment in the battle model's terms (:mod:`..battle_model`: the
    same targets, a warship without its cargo)."""
    if order.kingdom < 0:
        side = side_model(s, defenders=True)
    else:
        b = s.d.battle
        assert b is not None
        defenders = order.kingdom != b.attacker
        units = [u for u in participants(s, defenders) if u.kingdom == order.kingdom]
        side = side_model(s, defenders, units)
    mapping: dict[str, int] = {}
    for token in targets:
        key = token.partition("(")[0]  # the model's target is the warship, whatever it carries
        mapping[key] = mapping.get(key, 0) + 1
    return side, mapping


def check_damage(s: NerathState, a: AssignDamage) -> IllegalActionError | None:
    """Legal when it is one of the listed ways and the shared battle model accepts it (NER-BAT-03)."""
    b = s.d.battle
    assert b is not None and b.orders
    order = b.orders[0]
    if tuple(sorted(a.targets)) in damage_options(s, order):
        if s.options.get("damage_doubling"):
            return None
        side, mapping = model_assignment(s, order, a.targets)
        try:
            validate_assignment(side, mapping, order.hits)
        except IllegalActionError as exc:
            return exc
        return None
    tokens = _target_tokens(s, order)
    if len(a.targets) != min(order.hits, len(tokens)):
        return IllegalActionError(
            f"assign exactly {min(order.hits, len(tokens))} damage ({order.hits} hits, "
            f"{len(tokens)} pieces can take one each)",
            "NER-BAT-03",
        )
    return IllegalActionError(
        f"each damage of one volley goes to a different piece among: {', '.join(sorted(tokens))}",
        "NER-BAT-03",
    )


def apply_damage(s: NerathState, a: AssignDamage) -> list[Event]:
    b = s.d.battle
    assert b is not None
    order = b.orders[0]
    events = _apply_order(s, order, tuple(sorted(a.targets)))
    b = s.d.battle
    assert b is not None
    s.d.battle = replace(b, orders=b.orders[1:])
    events += _auto_assign(s)
    return events


def _apply_order(s: NerathState, order: DamageOrder, targets: tuple[str, ...]) -> list[Event]:
    b = s.d.battle
    assert b is not None
    events: list[Event] = []
    if order.kingdom < 0:
        return dungeons.damage_guardians(s, b.space, targets)
    # resolve every token to a piece first: the volley's damage lands at once (NER-BAT-02)
    chosen: list[Unit] = []
    hit_once: set[int] = set()
    for token in targets:
        pool = [u for u in _damageable(s, order.kingdom) if token_of(s, u) == token and u.uid not in hit_once]
        if not pool:  # doubling reading: the extra damage lands on a piece already hit this volley
            base = token.removeprefix("wounded-")
            pool = [s.d.units[uid] for uid in sorted(hit_once) if s.d.units[uid].ptype == base]
        hit_once.add(pool[0].uid)
        chosen.append(pool[0])
    for picked in chosen:
        u = s.d.units.get(picked.uid)
        if u is None:
            continue  # already lost with its warship
        stats = PIECES[u.ptype]
        if stats.castle:
            s.update(u, inactive=True)  # NER-BAT-06
            events.append(
                Event(
                    "damage",
                    {"piece": "castle", "space": s.board.sid(b.space)},
                    "a castle is knocked out for this battle",
                )
            )
            continue
        toughness = stats.toughness + s.extra_toughness(u)
        if u.damage + 1 < toughness:  # NER-BAT-05 resilient
            s.update(u, damage=u.damage + 1)
            events.append(
                Event(
                    "damage",
                    {"piece": u.ptype, "uid": u.uid},
                    f"{s.kingdom_name(u.kingdom)}'s {u.ptype} is wounded",
                )
            )
            continue
        gone = s.remove(u.uid)
        events.append(
            Event(
                "destroyed",
                {"kingdom": u.kingdom, "pieces": [g.ptype for g in gone], "space": s.board.sid(b.space)},
                f"{s.kingdom_name(u.kingdom)} loses {', '.join(g.ptype for g in gone)}",
            )
        )
    return events


def _auto_assign(s: NerathState) -> list[Event]:
    """Apply damage orders that leave no choice; when none are left, move the battle on."""
    events: list[Event] = []
    while True:
        b = s.d.battle
        if b is None or b.split is not None:
            return events
        if b.orders:
            options = damage_options(s, b.orders[0])
            if len(options) > 1:
                return events
            events += _apply_order(s, b.orders[0], options[0])
            b = s.d.battle
            assert b is not None
            s.d.battle = replace(b, orders=b.orders[1:])
            continue
        if b.step in ("first_strike", "normal"):
            # NER-BAT-15: the end is checked after every application of hits, first strike
            # included; a decided battle rolls no more dice and opens no more card windows
            outcome = battle_outcome(side_model(s, defenders=False), side_model(s, defenders=True))
            if outcome is not None:
                events += _finish(s, attacker_won=outcome == BattleOutcome.ATTACKER_WINS)
                return events
        if b.step == "first_strike":
            s.d.battle = replace(b, step="normal", orders=())
            events += roll_step(s)
            return events
        if b.step == "normal":
            s.d.battle = replace(b, step="decide", orders=())
        return events


# --- continue or retreat ------------------------------------------------------------------
def apply_continue(s: NerathState, a: ContinueBattle) -> list[Event]:
    b = s.d.battle
    assert b is not None
    if b.forced_retreat:
        raise IllegalActionError("a card forces the attacker to retreat", "NER-BAT-12")
    cards.end_effects(s, "round", battle_kingdoms(s))
    s.d.battle = replace(b, round=b.round + 1, step="first_strike", orders=())
    event = Event("battle.round", {"round": b.round + 1}, f"round {b.round + 1} at {s.board.sid(b.space)}")
    return [event, *roll_step(s)]


def _retreat_spaces(s: NerathState, u: Unit) -> list[str]:
    """Where one attacking piece may retreat to (NER-BAT-13/14); ``ship:<n>`` = aboard own warship."""
    b = s.d.battle
    assert b is not None
    k = b.attacker
    board = s.board
    mob = PIECES[u.ptype].mobility
    out: list[str] = []
    nbrs = board.neighbors(b.space)
    if b.kind == "sea":
        if mob == Mobility.SEA:
            return [board.sid(i) for i in nbrs if board.kind[i] == SEA and s.is_friendly(i, k)]
        if u.carrier >= 0:
            return []  # carried heroes go with their warship
        return [board.sid(i) for i in nbrs if board.kind[i] in (SEA, LAND) and s.is_friendly(i, k)]
    lands = [board.sid(i) for i in nbrs if board.kind[i] == LAND and s.is_friendly(i, k)]
    if mob == Mobility.FLYING:
        return lands + [board.sid(i) for i in nbrs if board.kind[i] == SEA and s.is_friendly(i, k)]
    if lands:
        return lands
    for i in nbrs:
        if board.kind[i] != SEA:
            continue
        for ship in s.units_at(i):
            if ship.kingdom == k and ship.ptype == "warship":
                out.append(f"ship:{ship.uid}")
    return out


def _retreaters(s: NerathState) -> list[Unit]:
    return [u for u in participants(s, defenders=False) if u.carrier < 0]


def legal_retreats(s: NerathState) -> list[Retreat]:
    """Every way the attacking pieces may retreat (NER-BAT-12/13): first all to one destination
    (each piece that may goes there, the others to their first destination), then every other
    way they may split among their destinations. Each names where every piece goes."""
    units = _retreaters(s)
    options = {u.uid: _retreat_spaces(s, u) for u in units}
    going = [u for u in units if options[u.uid]]
    dests: list[str] = []
    for u in going:
        for d in options[u.uid]:
            if d not in dests:
                dests.append(d)
    if not dests:
        return [Retreat(())]
    out: list[Retreat] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for d in dests:
        moves = tuple(
            sorted((token_of(s, u), d if d in options[u.uid] else options[u.uid][0]) for u in going)
        )
        if moves not in seen:
            seen.add(moves)
            out.append(Retreat(moves))
    # pieces alike (same token, same destinations) split as a multiset
    groups: dict[tuple[str, tuple[str, ...]], int] = {}
    for u in going:
        key = (token_of(s, u), tuple(options[u.uid]))
        groups[key] = groups.get(key, 0) + 1
    choices = [
        [tuple((token, d) for d in combo) for combo in combinations_with_replacement(spaces, n)]
        for (token, spaces), n in groups.items()
    ]
    splits = {tuple(sorted(move for part in parts for move in part)) for parts in product(*choices)}
    out += [Retreat(moves) for moves in sorted(splits - seen)]
    return out


def complete_retreat(s: NerathState, a: Retreat) -> Retreat:
    """``a`` with every piece it leaves out named: those go to the first destination given when
    they may, else to their own first destination (NER-BAT-13); pieces with nowhere to go are left out."""
    units = _retreaters(s)
    named: list[tuple[str, str]] = []
    taken: set[int] = set()
    for token, dest in a.moves:
        match = next(
            (
                u
                for u in units
                if u.uid not in taken and token_of(s, u) == token and dest in _retreat_spaces(s, u)
            ),
            None,
        )
        if match is None:
            return a
        taken.add(match.uid)
        named.append((token, dest))
    first = a.moves[0][1] if a.moves else ""
    for u in units:
        options = _retreat_spaces(s, u)
        if u.uid not in taken and options:
            named.append((token_of(s, u), first if first in options else options[0]))
    return Retreat(tuple(sorted(named)))


def check_retreat(s: NerathState, a: Retreat) -> IllegalActionError | None:
    units = _retreaters(s)
    if not a.moves and any(_retreat_spaces(s, u) for u in units):
        return IllegalActionError("name where the retreating pieces go", "NER-BAT-13")
    used: set[int] = set()
    for token, dest in a.moves:
        match = [u for u in units if token_of(s, u) == token and u.uid not in used]
        if not match:
            return IllegalActionError(f"no attacking {token} left to retreat", "NER-BAT-12")
        ok = [u for u in match if dest in _retreat_spaces(s, u)]
        if not ok:
            rule = "NER-BAT-14" if s.d.battle and s.d.battle.kind == "sea" else "NER-BAT-13"
            return IllegalActionError(f"a {token} may not retreat to {dest}", rule)
        used.add(ok[0].uid)
    return None


def apply_retreat(s: NerathState, a: Retreat) -> list[Event]:
    b = s.d.battle
    assert b is not None
    units = _retreaters(s)
    plan: dict[int, str] = {}
    for token, dest in a.moves:
        u = next(
            x
            for x in units
            if token_of(s, x) == token and x.uid not in plan and dest in _retreat_spaces(s, x)
        )
        plan[u.uid] = dest
    first = a.moves[0][1] if a.moves else ""
    load: dict[int, int] = {}
    events: list[Event] = []
    for u in units:
        if u.uid not in plan:
            options = _retreat_spaces(s, u)
            plan[u.uid] = first if first in options else (options[0] if options else "")
    for u in units:
        dest = plan[u.uid]
        if dest.startswith("ship:"):
            ship = int(dest[5:])
            room = PIECES["warship"].capacity - len(s.cargo_of(ship)) - load.get(ship, 0)
            if room > 0 and ship in s.d.units:
                load[ship] = load.get(ship, 0)
                s.update(u, carrier=ship, space=s.d.units[ship].space, moved=1, done=True, damage=0)
                continue
            dest = ""
        if not dest:
            gone = s.remove(u.uid)
            events.append(
                Event(
                    "destroyed",
                    {"pieces": [g.ptype for g in gone]},
                    f"a retreating {u.ptype} has nowhere to go and is destroyed",
                )
            )
            continue
        t = s.board.idx(dest)
        s.update(u, space=t, moved=1, done=True, damage=0)
        for c in s.cargo_of(u.uid):
            s.update(c, space=t)
    events.insert(
        0,
        Event(
            "retreat",
            {"space": s.board.sid(b.space)},
            f"{s.kingdom_name(b.attacker)} retreats from {s.board.sid(b.space)}",
        ),
    )
    events += _finish(s, attacker_won=False, retreated=True)
    return events


# --- result ---------------------------------------------------------------------------------
def _finish(s: NerathState, attacker_won: bool, retreated: bool = False) -> list[Event]:
    """End the battle (NER-BAT-15): heal, then conquest / looting / landings for a winner."""
    b = s.d.battle
    assert b is not None
    events: list[Event] = []
    space = b.space
    cards.end_effects(s, "battle", battle_kingdoms(s))
    for u in list(s.units_at(space)):
        if u.damage or u.inactive:
            s.update(u, damage=0, inactive=False)  # NER-BAT-05/06
    s.d.battle = None
    name = s.board.sid(space)
    if b.kind == "dungeon":
        return events + dungeons.finish(s, space, b.attacker, attacker_won)
    if not attacker_won:
        why = "retreat" if retreated else "the attack fails"
        return [*events, Event("battle.end", {"space": name, "winner": "defender"}, f"{name} holds ({why})")]
    events.append(
        Event(
            "battle.end",
            {"space": name, "winner": "attacker"},
            f"{s.kingdom_name(b.attacker)} wins at {name}",
        )
    )
    if b.kind == "land":
        events += conquer(s, space, b.attacker)
        monsters = [u.uid for u in s.units_at(space) if u.kingdom == b.attacker and PIECES[u.ptype].run_amok]
        if monsters and amok_targets(s, space, b.attacker):
            s.d.amok = tuple(monsters)
            s.d.amok_from = space
    else:
        ships = [
            u.uid
            for u in s.units_at(space)
            if u.kingdom == b.attacker and u.ptype == "warship" and not u.done and s.cargo_of(u.uid)
        ]
        s.d.landings = tuple(ships)
    return events


def conquer(s: NerathState, space: int, k: int) -> list[Event]:
    """Take a territory (NER-BAT-16/17/19, NER-VP-02): control, castle, VP; liberation for an ally's land."""
    board = s.board
    name = board.sid(space)
    owner = board.owner[space]
    liberate = owner >= 0 and owner != k and s.allied(owner, k)
    new_controller = owner if liberate else k
    s.d.control[space] = new_controller
    castle = s.castle_at(space)
    if castle is not None and castle.kingdom != new_controller:
        s.update(castle, kingdom=new_controller)
        s.d.captured = s.d.captured | {space}
    events: list[Event] = []
    if liberate:
        events.append(
            Event(
                "liberate",
                {"space": name, "by": k, "for": owner},
                f"{s.kingdom_name(k)} liberates {name} for {s.kingdom_name(owner)}",
            )
        )
    else:
        gained = 0
        if owner >= 0 and owner != k:
            gained = 5 if board.capital_of[space] >= 0 else 1
            s.d.vp[k] += gained
        events.append(
            Event(
                "conquer",
                {"space": name, "kingdom": k, "vp": gained},
                f"{s.kingdom_name(k)} conquers {name}" + (f" (+{gained} VP)" if gained else ""),
            )
        )
    events += s.card_trigger("conquer", k, space)
    if k == s.current_kingdom:
        cards.open_window(s, "on_conquest", [k], "none")
    return events


def amok_targets(s: NerathState, space: int, k: int) -> list[int]:
    """Adjacent enemy territories with no enemy pieces (NER-BAT-20)."""
    return [
        i
        for i in s.board.neighbors(space)
        if s.board.kind[i] == LAND and s.is_enemy(i, k) and not s.has_enemy_units(i, k)
    ]


def legal_amok(s: NerathState) -> list[RunAmok]:
    k = s.current_kingdom
    return [RunAmok(s.board.sid(i)) for i in amok_targets(s, s.d.amok_from, k)]


def check_amok(s: NerathState, a: RunAmok) -> IllegalActionError | None:
    if a not in legal_amok(s):
        return IllegalActionError(
            "a monster may run amok only into an adjacent enemy territory without enemy pieces, "
            f"not {a.target}",
            "NER-BAT-20",
        )
    return None


def apply_amok(s: NerathState, a: RunAmok) -> list[Event]:
    k = s.current_kingdom
    uid = s.d.amok[0]
    s.d.amok = s.d.amok[1:]
    t = s.board.idx(a.target)
    s.update(s.d.units[uid], space=t, moved=1, done=True)
    events = [
        Event(
            "amok",
            {"from": s.board.sid(s.d.amok_from), "to": a.target},
            f"a monster runs amok into {a.target}",
        )
    ]
    events += conquer(s, t, k)
    if not amok_targets(s, s.d.amok_from, k):
        s.d.amok = ()
    return events


def pass_amok(s: NerathState) -> list[Event]:
    s.d.amok = s.d.amok[1:]
    return []
