"""The turn of Quest for the DragonLords: set-up, the seven phases, movement, quests, victory.

One generator, :func:`legal_actions`, is the legality test of every action (DESIGN.md principle 3);
:func:`apply_action` carries a legal action out. The combat itself is the sub-state of
:mod:`warhorn.games.dragonlords.battle`. The rules are the DLX-* ids of the digest and the DLR-*
ids of ``docs/dragonlords-reconstruction.md``.

Sizes of a move (DLR-MOV-05): a move, attack, boarding, party, teleport or charm lists its
plain-unit counts as 0-3, half and all of the units that may go, and, when that leaves a number
out, an ``up_to`` order whose exact count is asked next (:func:`count_choices`); its pieces as every
subset when a stack has at most three movable pieces (else none, all, or each one alone). This
keeps the lists short for search and random play while any count stays possible.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import combinations

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event, roll_event
from warhorn.games.dragonlords import amazons, carrying, economy_and_quests, effects, setup, victory
from warhorn.games.dragonlords.actions import (
    Answer,
    Attack,
    Board,
    Buy,
    BuyItem,
    Carry,
    Casualties,
    Charm,
    ChoosePeople,
    Done,
    Land,
    Move,
    PickRealm,
    Place,
    PlaceShip,
    PlaceToken,
    Play,
    QuestMove,
    Sail,
    SendParty,
    Summon,
    Teleport,
    Ultimatum,
)
from warhorn.games.dragonlords.battle import (
    Battle,
    advance,
    apply_battle,
    battle_decision,
    battle_legal,
    force_of,
    monster_side,
    piece_orders,
    pieces_first,
    retreat_targets,
    side_of,
)
from warhorn.games.dragonlords.combat import Fighter
from warhorn.games.dragonlords.state import (
    MONSTER,
    NEUTRAL,
    TAKE_ORDER,
    DragonLordsState,
    Force,
    Party,
    Phase,
    Piece,
    Question,
    Ship,
    TurnLog,
)

TURN_PHASES = (
    Phase.PURCHASE,
    Phase.NAVAL,
    Phase.QUEST,
    Phase.COMBAT,
    Phase.TRANSFER,
    Phase.INCOME,
    Phase.REINFORCE,
)
MAX_BUY = 20


def deck_cards(state: DragonLordsState) -> tuple[str, ...]:
    """The spell-card deck of this game (DLR-SCR-01; DLX-OPT-03 leaves out the strongest cards)."""
    leave_out: frozenset[str] = frozenset()
    if state.options.get("no_overpowered_cards"):
        leave_out = frozenset(
            c for c in state.content.cards if c.startswith("summon_") or c == "death_seeker"
        )
    return state.content.deck(leave_out=leave_out)


# --- forces -----------------------------------------------------------------------------------


def merge(a: Force | None, b: Force) -> Force:
    """``b``'s units join ``a`` (same owner)."""
    if a is None:
        return b
    return replace(
        a,
        plain=a.plain + b.plain,
        moved=a.moved + b.moved,
        spent=a.spent + b.spent,
        pieces=a.pieces + b.pieces,
        prisoners=a.prisoners + b.prisoners,
        prisoners_of=b.prisoners_of if b.prisoners else a.prisoners_of,
        captured_turn=max(a.captured_turn, b.captured_turn),
    )


def split(
    force: Force, count: int, pieces: tuple[int, ...], *, prefer_moved: bool
) -> tuple[Force | None, Force]:
    """Take ``count`` plain units and the listed pieces out of ``force``: (what stays, what goes).

    ``prefer_moved``: take units that already moved first (an attack), else those that did not.
    """
    unspent_moved = force.moved - force.spent
    take_moved = min(count, unspent_moved) if prefer_moved else max(0, count - (force.plain - force.moved))
    going = Force(
        force.owner,
        force.people,
        count,
        take_moved,
        0,
        tuple(p for p in force.pieces if p.id in pieces),
    )
    stay_plain = force.plain - count
    stay = replace(
        force,
        plain=stay_plain,
        moved=force.moved - take_moved,
        spent=min(force.spent, force.moved - take_moved),
        pieces=tuple(p for p in force.pieces if p.id not in pieces),
    )
    return (stay if stay.units > 0 else None), going


def mark_moved(force: Force, *, spent: bool = False) -> Force:
    """Every unit of ``force`` has moved (and may not attack again, with ``spent``); moving hides a
    revealed token again (DLR-HID-02)."""
    return replace(
        force,
        moved=force.plain,
        spent=force.plain if spent else force.spent,
        pieces=tuple(replace(p, moved=True, spent=p.spent or spent, revealed=False) for p in force.pieces),
    )


def count_choices(lo: int, hi: int) -> list[tuple[int, bool]]:
    """The plain-unit counts a move lists when ``lo`` to ``hi`` may go (DLR-MOV-05): 0-3, half and all,
    each with ``up_to`` False; and when these leave a number out, ``hi`` with ``up_to`` True: the
    exact count is then asked as a decision of its own (:func:`exact_counts`)."""
    if hi < lo:
        return []
    short = sorted({n for n in (0, 1, 2, 3, hi // 2, hi) if lo <= n <= hi})
    out = [(n, False) for n in short]
    if len(short) < hi - lo + 1:
        out.append((hi, True))
    return out


def exact_counts(order: Action) -> list[Action]:
    """DLR-MOV-05: the answers to an ``up_to`` order: the same order with each count it allows."""
    count = getattr(order, "count")  # noqa: B009 - every up_to order has a count
    pieces = getattr(order, "pieces", ())
    lo = max(0, 1 - len(pieces))
    return [replace(order, count=n, up_to=False) for n in range(lo, count + 1)]  # type: ignore[call-arg]


def _piece_sets(pieces: list[Piece]) -> list[tuple[int, ...]]:
    ids = sorted(p.id for p in pieces)
    if len(ids) <= 3:
        return [c for k in range(len(ids) + 1) for c in combinations(ids, k)]
    return [(), tuple(ids), *((i,) for i in ids)]


def groups(
    force: Force,
    *,
    need_unmoved: bool,
    need_unspent: bool = False,
    keep: int = 1,
    cap: int | None = None,
    piece_filter: Iterable[int] | None = None,
) -> list[tuple[int, tuple[int, ...], bool]]:
    """The (plain count, pieces, up_to) groups that may leave ``force`` (at least one unit; ``keep``
    stay, and as many as it holds prisoners, DLX-AMZ-06); see :func:`count_choices`."""
    if need_unmoved:
        plain_free = force.plain - force.moved
        movable = [p for p in force.pieces if not p.moved]
    elif need_unspent:
        plain_free = force.plain - force.spent
        movable = [p for p in force.pieces if not p.spent]
    else:
        plain_free = force.plain
        movable = list(force.pieces)
    if piece_filter is not None:
        allowed = set(piece_filter)
        movable = [p for p in movable if p.id in allowed]
    out = []
    for pieces in _piece_sets(movable):
        k = len(pieces)
        hi = min(plain_free, force.units - max(keep, force.prisoners) - k)  # DLX-AMZ-06: guards stay
        if cap is not None:
            hi = min(hi, cap - k)
        out += [(n, pieces, up_to) for n, up_to in count_choices(max(0, 1 - k), hi)]
    return out


def guards_ok(force: Force, count: int, pieces: tuple[int, ...]) -> bool:
    """DLX-AMZ-06: prisoners may never outnumber the Amazons guarding them."""
    return not force.prisoners or force.units - count - len(pieces) >= force.prisoners


# --- the decision -----------------------------------------------------------------------------


def pending_decision(state: DragonLordsState) -> Decision | None:
    if state.phase is Phase.OVER:
        return None
    if state.questions:
        q = state.questions[0]
        prompts = {
            "ultimatum": (
                "ultimatum",
                f"player {q.asker} demands {q.count} shard(s): hand them over or refuse",
                "DLX-SHD-04",
            ),
            "dispel": (
                "dispel",
                "an elemental strikes your units: cancel it with Dispel Magic, or not",
                "DLX-SPC-DIS",
            ),
            "carry": (
                "carry",
                f"you receive {'an item' if q.item else 'a shard'}: choose the unit that carries it",
                "DLR-SHD-01",
            ),
            "elemental_order": (
                "elemental_order",
                "an elemental strikes your units: order your token-bearing units, the first taken first"
                " after the plain units (done: keep)",
                "DLR-HID-03",
            ),
        }
        kind, prompt, rule = prompts[q.kind]
        return Decision(q.player, kind, prompt, rule)
    if state.battle is not None:
        return battle_decision(state)
    p = state.current
    if state.turn.order is not None:
        top = getattr(state.turn.order, "count", 0)
        return Decision(
            p,
            "count",
            f"how many plain units go with this {state.turn.order.kind} (at most {top})",
            "DLR-MOV-05",
        )
    if state.turn.homes:
        return Decision(
            p, "home", "your party walks off the track: choose the territory it comes home to", "DLR-QST-02"
        )
    if state.turn.teleport_card:
        return Decision(
            p,
            "teleport",
            "the Teleport card: send a sorcerer and up to 10 units to any territory",
            "DLX-SPC-TEL",
        )
    phase_prompts: dict[Phase, tuple[str, str, str]] = {
        Phase.SETUP_PEOPLE: ("people", "choose your people (DLR-SET-04)", "DLR-SET-04"),
        Phase.SETUP_REALM: ("realm", "choose one more realm (DLR-SET-04)", "DLR-SET-04"),
        Phase.SETUP_TOKENS: (
            "token",
            "put a hidden token under one of your units (DLR-HID-01)",
            "DLR-HID-01",
        ),
        Phase.PURCHASE: ("purchase", "buy units or a ship, or done", "DLR-BUY-01"),
        Phase.NAVAL: ("naval", "sail, board, land or teleport, or done", "DLR-NAV-01"),
        Phase.QUEST: ("quest", "send or move quest parties, or done", "DLR-QST-01"),
        Phase.COMBAT: ("combat", "attack, march, charm, summon or make ultimatums, or done", "DLR-MOV-01"),
        Phase.TRANSFER: ("transfer", "move units that have not moved, or done", "DLR-MOV-03"),
        Phase.REINFORCE: ("reinforce", "place the units and ships you bought, or done", "DLR-BUY-01"),
    }
    kind, prompt, rule = phase_prompts[state.phase]
    return Decision(p, kind, prompt, rule)


def legal_actions(state: DragonLordsState) -> list[Action]:
    if state.phase is Phase.OVER:
        return []
    if state.questions:
        return _question_actions(state, state.questions[0])
    if state.battle is not None:
        return battle_legal(state)
    if state.turn.order is not None:
        return exact_counts(state.turn.order)
    if state.turn.homes:
        party = state.parties[(state.current, state.turn.home_track)]
        pieces = tuple(sorted(pc.id for pc in party.force.pieces))
        frm = f"track:{party.track}"
        return [Move(frm, t, party.force.plain, pieces) for t in state.turn.homes]
    if state.turn.teleport_card:
        return _teleport_card_moves(state)
    fn = {
        Phase.SETUP_PEOPLE: _people_actions,
        Phase.SETUP_REALM: _realm_actions,
        Phase.SETUP_TOKENS: _token_actions,
        Phase.PURCHASE: _purchase_actions,
        Phase.NAVAL: _naval_actions,
        Phase.QUEST: _quest_actions,
        Phase.COMBAT: _combat_actions,
        Phase.TRANSFER: _transfer_actions,
        Phase.REINFORCE: _reinforce_actions,
    }[state.phase]
    out = fn(state)
    if state.phase in TURN_PHASES and _may_teleport_by_card(state):
        out.append(Play("teleport"))  # DLX-SPC-TEL: any time in the player's own turn
    return out


def _may_teleport_by_card(state: DragonLordsState) -> bool:
    """The player holds the Teleport card and it would send somebody somewhere."""
    return next(_card_teleports(state), None) is not None


def _teleport_card_moves(state: DragonLordsState) -> list[Action]:
    return list(_card_teleports(state, played=True))


def _card_teleports(state: DragonLordsState, *, played: bool = False) -> Iterator[Action]:
    """DLX-SPC-TEL in the player's own turn: a sorcerer and up to 10 friendly units of its territory
    go to any territory; an enemy one is attacked (combat phase only: attacks belong to it)."""
    p = state.current
    if not played and "teleport" not in state.players[p].hand:
        return
    limit = state.content.cards["teleport"].units or 10
    dests = [
        t
        for t in state.territory_ids
        if state.owner(t) in (None, p) or (state.phase is Phase.COMBAT and _attackable(state, t, p))
    ]
    for sid, f in sorted(state.spaces.items()):
        if f.owner != p:
            continue
        for sorc in f.pieces:
            if sorc.token != "sorcerer":
                continue
            for n, pcs, up_to in groups(f, need_unmoved=False, cap=limit + 1):
                if sorc.id in pcs and guards_ok(f, n, pcs):
                    yield from (Teleport(sorc.id, d, n, pcs, up_to=up_to) for d in dests if d != sid)


RULE_OF_KIND: dict[str, str] = {
    "people": "DLR-SET-04",
    "realm": "DLR-SET-04",
    "token": "DLR-HID-01",
    "buy": "DLR-BUY-01",
    "sail": "DLR-NAV-01",
    "board": "DLR-NAV-01",
    "land": "DLR-NAV-01",
    "teleport": "DLR-PRT-02",
    "party": "DLR-QST-01",
    "quest": "DLR-QST-02",
    "item": "DLR-BUY-02",
    "attack": "DLR-MOV-01",
    "move": "DLR-MOV-02",
    "charm": "DLX-AMZ-02",
    "summon": "DLR-SCR-02",
    "ultimatum": "DLX-SHD-04",
    "answer": "DLX-SHD-04",
    "cast": "DLR-CMB-04",
    "play": "DLX-CMB-05",
    "lose": "DLR-HID-03",
    "retreat": "DLR-CMB-07",
    "fight": "DLX-CMB-02",
    "mercy": "DLX-SHD-04",
    "place": "DLR-BUY-01",
    "launch": "DLR-BUY-01",
    "done": "DLR-TRN-02",
}


def explain_illegal(state: DragonLordsState, action: Action) -> IllegalActionError:
    decision = state.pending()
    if decision is None:
        return IllegalActionError("the game is over: no action is legal")
    rule = RULE_OF_KIND.get(action.kind)
    return IllegalActionError(
        f"{action.notation()!r} is not legal now (waiting for player {decision.player}: {decision.prompt})",
        rule,
    )


# --- set-up -----------------------------------------------------------------------------------


def _people_actions(state: DragonLordsState) -> list[Action]:
    taken = {s.people for s in state.players if s.people is not None}
    if not state.options.get("neutral_apart"):
        return [ChoosePeople(p) for p in sorted(state.content.peoples) if p not in taken]
    world = state.world
    home = {p: world.realm_of_people(p).id for p in state.content.peoples}
    borders = {
        (t.realm, world.space(n).realm)
        for t in world.spaces
        if t.kind == "territory" and t.realm is not None
        for n in t.neighbours
        if world.space(n).realm not in (None, t.realm) and world.space(n).kind == "territory"
    }
    groups = setup.realms_joined_by_land(
        [(a, b) for a, b in borders if a is not None and b is not None], [r.id for r in world.realms]
    )
    return [ChoosePeople(p) for p in setup.peoples_offered(home, taken, groups, state.num_players)]


def _realm_actions(state: DragonLordsState) -> list[Action]:
    taken = {r for s in state.players for r in s.realms}
    return [PickRealm(r.id) for r in state.world.realms if r.id not in taken]


def _token_actions(state: DragonLordsState) -> list[Action]:
    seat = state.players[state.current]
    out: list[Action] = []
    for token in sorted(set(seat.tokens_to_place)):
        for t in state.territories_of(state.current):
            if state.spaces[t].plain > 0:
                out.append(PlaceToken(token, t))
    return out


def realm_of_people(state: DragonLordsState, people: str) -> str:
    return state.world.realm_of_people(people).id


def apply_setup(state: DragonLordsState, action: Action) -> list[Event]:
    p = state.current
    seat = state.players[p]
    events: list[Event] = []
    if isinstance(action, ChoosePeople):
        seat.people = action.people
        seat.realms = (realm_of_people(state, action.people),)
        events.append(
            Event(
                "people",
                {"player": p, "people": action.people},
                f"player {p} plays the {state.content.peoples[action.people].name}",
            )
        )
        i = state.order.index(p)
        if i + 1 < len(state.order):
            state.current = state.order[i + 1]
            return events
        pick_order = setup.extra_realm_pick_order([str(x) for x in state.order])
        if pick_order:
            state.phase = Phase.SETUP_REALM
            state.setup_picks = tuple(int(x) for x in pick_order)
            state.current = state.setup_picks[0]
            return events
        return events + _deploy(state)
    if isinstance(action, PickRealm):
        seat.realms = (*seat.realms, action.realm)
        events.append(
            Event("realm", {"player": p, "realm": action.realm}, f"player {p} takes {action.realm}")
        )
        picks = state.setup_picks[1:]
        state.setup_picks = picks
        if picks:
            state.current = picks[0]
            return events
        return events + _deploy(state)
    assert isinstance(action, PlaceToken)
    force = state.spaces[action.territory]
    pid = state.next_piece
    state.next_piece += 1
    spells: tuple[str, ...] = ()
    if action.token == "sorcerer":
        spells = state.content.peoples[seat.people or ""].spells[:2]  # DLR-PEO-05
    piece = Piece(pid, action.token, level=1 if action.token == "hero" else 0, spells=spells)
    state.spaces[action.territory] = replace(force, plain=force.plain - 1, pieces=(*force.pieces, piece))
    rest = list(seat.tokens_to_place)
    rest.remove(action.token)
    seat.tokens_to_place = tuple(rest)
    events.append(
        Event(
            "token",
            {"player": p, "space": action.territory},
            f"player {p} hides a token in {action.territory}",
            visible_to=frozenset({p}),
            public_data={"player": p, "space": action.territory},
            public_text=f"player {p} hides a token in {action.territory}",
        )
    )
    if rest:
        return events
    if state.options.get("advanced") and state.box_shards:  # DLX-SET-03: one random shard each
        shard, state.box_shards = state.box_shards[0], state.box_shards[1:]
        # the player puts it in a territory of his (the seed): under a unit he chooses (DLR-SHD-01)
        carrier = _give(state, _sorcerer_space(state, p), p, items=(), shards=(shard,))
        carrying.ask_carrier(state, p, carrier, shards=(shard,), anywhere=True)
    i = state.order.index(p)
    if i + 1 < len(state.order):
        state.current = state.order[i + 1]
        return events
    state.current = state.order[0]
    return events + begin_turn(state)


def _sorcerer_space(state: DragonLordsState, player: int) -> str:
    for sid, f in state.spaces.items():
        if f.owner == player and f.has_token("sorcerer"):
            return sid
    return state.territories_of(player)[0]


def _deploy(state: DragonLordsState) -> list[Event]:
    """DLR-SET-05/06: units spread over each player's realms; neutral realms guarded; tokens next."""
    events: list[Event] = []
    n = state.num_players
    claimed = {r for s in state.players for r in s.realms}
    for p, seat in enumerate(state.players):
        terr = [t.id for r in seat.realms for t in state.world.territories_of(r)]
        units = state.content.start_units(n)
        share, extra = divmod(units, len(terr))
        kingdoms = [t for t in terr if state.world.space(t).kingdom]
        for t in terr:
            count = share + (extra if t == kingdoms[0] else 0)
            state.spaces[t] = Force(p, seat.people or "", count)
        for k in kingdoms:
            state.kingdom_since[k] = 0
        # DLR-SET-01: the player's ship by a coast of its realm (the Kingdom's first), with one
        # starting unit aboard, taken from its most crowded territory
        coast = [
            (t, z)
            for t in sorted(terr, key=lambda t: (t not in kingdoms, t))
            for z in state.world.space(t).neighbours
            if state.world.space(z).kind == "sea"
        ]
        if coast:
            _, zone = coast[0]
            sid = state.next_ship
            state.next_ship += 1
            crowded = max(terr, key=lambda t: (state.spaces[t].plain, t))
            f = state.spaces[crowded]
            state.spaces[crowded] = replace(f, plain=f.plain - 1)
            state.ships[sid] = Ship(sid, p, zone, Force(p, seat.people or "", 1))
    realm_people = {r.id: r.people for r in state.world.realms}
    for realm, people in setup.neutral_realms(realm_people, claimed, n).items():
        k = state.world.kingdom_of(realm).id
        state.spaces[k] = Force(NEUTRAL, people, state.content.game.neutral_units_per_realm)
    events.append(Event("deployed", {}, "the armies take the field"))
    state.phase = Phase.SETUP_TOKENS
    state.current = state.order[0]
    return events


# --- turn flow --------------------------------------------------------------------------------


def begin_turn(state: DragonLordsState) -> list[Event]:
    p = state.current
    state.turn = TurnLog(p)
    state.phase = Phase.PURCHASE
    state.players[p].turns += 1
    return [Event("turn", {"player": p, "round": state.round}, f"round {state.round}: player {p}'s turn")]


def next_phase(state: DragonLordsState) -> list[Event]:
    events: list[Event] = []
    i = TURN_PHASES.index(state.phase)
    state.phase = TURN_PHASES[i + 1] if i + 1 < len(TURN_PHASES) else Phase.OVER
    if state.phase is Phase.QUEST:
        state.parties = {k: replace(v, moved=False) for k, v in state.parties.items()}
    if state.phase is Phase.INCOME:
        events += _income(state)
        state.phase = Phase.REINFORCE
        events += _start_reinforce(state)
    return events


def end_turn(state: DragonLordsState) -> list[Event]:
    p = state.current
    events: list[Event] = []

    def rest(force: Force) -> Force:
        return replace(
            force, moved=0, spent=0, pieces=tuple(replace(x, moved=False, spent=False) for x in force.pieces)
        )

    state.spaces = {k: rest(v) if v.owner == p else v for k, v in state.spaces.items()}
    state.ships = {
        k: replace(s, sailed=False, aboard=rest(s.aboard) if s.aboard else None)
        for k, s in state.ships.items()
    }
    state.parties = {
        k: replace(v, force=rest(v.force), came_from="") if v.owner == p else v
        for k, v in state.parties.items()
    }
    alive = [q for q in state.order if _takes_turns(state, q)]
    if not alive:
        return events + finish(state, None, "no player is left to play")
    i = state.order.index(p)
    for step in range(1, len(state.order) + 1):
        nxt = state.order[(i + step) % len(state.order)]
        if (i + step) >= len(state.order) and (i + step - len(state.order)) < step:
            pass
        if _takes_turns(state, nxt):
            break
    wrapped = state.order.index(nxt) <= i
    if wrapped:
        if state.round >= state.options["max_rounds"]:
            return events + finish(state, None, f"round {state.round} ended without a winner (DLR-TRN-03)")
        state.round += 1
    state.current = nxt
    return events + begin_turn(state)


def _takes_turns(state: DragonLordsState, player: int) -> bool:
    """DLR-TRN-02: a player without a King takes no turns, unless soft elimination (DLX-OPT-04)."""
    seat = state.players[player]
    if seat.alive:
        return True
    return bool(state.options.get("soft_elimination")) and state.units_of(player) > 0


def finish(state: DragonLordsState, winner: int | None, reason: str) -> list[Event]:
    state.phase = Phase.OVER
    state.winner = winner
    state.end_reason = reason
    state.battle = None
    state.questions = ()
    text = f"player {winner} wins: {reason}" if winner is not None else f"game over: {reason}"
    return [Event("game_over", {"winner": winner, "reason": reason}, text)]


def check_victory(state: DragonLordsState) -> list[Event]:
    if state.phase in (Phase.OVER, Phase.SETUP_PEOPLE, Phase.SETUP_REALM, Phase.SETUP_TOKENS):
        return []
    kings = {str(p): state.players[p].alive for p in range(state.num_players)}
    shards = {str(p): len(state.shards_of(p)) for p in range(state.num_players)}
    realms = {str(p): state.realms_held(p) for p in range(state.num_players)}
    mode = state.options["victory"]
    won = victory.winner(mode, kings_alive=kings, shards=shards, realms=realms, active=str(state.current))
    if won is None:
        if not any(s.alive for s in state.players):
            return finish(state, None, "every King has fallen")
        return []
    reason = (
        "the last King standing (DLX-END-01)"
        if mode == "bloodbath"
        or (
            shards[won] < victory.THRESHOLDS.get(mode, (99, 99))[0]
            and realms[won] < victory.THRESHOLDS.get(mode, (99, 99))[1]
        )
        else f"{mode} game won (DLX-END-01)"
    )
    return finish(state, int(won), reason)


def eliminate(state: DragonLordsState, player: int) -> list[Event]:
    """DLR-END-02 / DLX-FAQ-07: the King is gone; the player is out (units routed, cards and gold lost)."""
    seat = state.players[player]
    if not seat.alive:
        return []
    seat.alive = False
    events = [Event("eliminated", {"player": player}, f"player {player}'s King is dead")]
    if not state.options.get("soft_elimination"):
        state.spell_deck = state.spell_deck.discard(*seat.hand)
        seat.hand = ()
        seat.gold = 0
    return events


# --- purchase -----------------------------------------------------------------------------------


def unit_cost(state: DragonLordsState, people: str, count: int) -> int:
    """DLR-BUY-01: units by people (Orcs' lots of 4 for 10)."""
    spec = state.content.peoples[people]
    if spec.bulk_units and spec.bulk_cost:
        lots, rest = divmod(count, spec.bulk_units)
        return lots * spec.bulk_cost + rest * spec.unit_cost
    return count * spec.unit_cost


def _ships_owned(state: DragonLordsState, player: int) -> int:
    return sum(1 for s in state.ships.values() if s.owner == player) + state.players[player].ships_to_place


def _purchase_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    seat = state.players[p]
    out: list[Action] = [Done()]
    people = state.people_of(p)
    for n in range(1, MAX_BUY + 1):
        if unit_cost(state, people, n) <= seat.gold:
            out.append(Buy("units", n))
    g = state.content.game
    if seat.gold >= g.ship_cost and _ships_owned(state, p) < g.max_ships:
        out.append(Buy("ship", 1))
    return out


# --- naval ------------------------------------------------------------------------------------


def _enemy_ship_in(state: DragonLordsState, zone: str, player: int) -> Ship | None:
    for s in state.ships.values():
        if s.zone == zone and s.owner is not None and s.owner != player:
            return s
    return None


def sail_targets(state: DragonLordsState, ship: Ship) -> list[str]:
    """DLR-NAV-01/02: zones within the people's range; a zone with another player's ship stops the ship."""
    player = ship.owner
    assert player is not None
    reach = state.content.peoples[state.people_of(player)].ship_moves
    seen = {ship.zone: 0}
    queue = deque([ship.zone])
    while queue:
        here = queue.popleft()
        if here != ship.zone and _enemy_ship_in(state, here, player) is not None:
            continue
        for n in state.world.space(here).neighbours:
            if n not in seen and state.world.space(n).kind == "sea" and seen[here] < reach:
                seen[n] = seen[here] + 1
                queue.append(n)
    return sorted(z for z in seen if z != ship.zone)


def _boardable(state: DragonLordsState, player: int) -> list[tuple[Ship, str]]:
    out = []
    for s in state.ships.values():
        if s.owner not in (None, player):
            continue
        for t in state.world.space(s.zone).neighbours:
            if state.owner(t) == player:
                out.append((s, t))
    return out


def _naval_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    cap = state.content.game.ship_capacity
    out: list[Action] = [Done()]
    for s in sorted(state.ships.values(), key=lambda s: s.id):
        if s.owner == p and s.aboard is not None and not s.sailed:
            out += [Sail(s.id, z) for z in sail_targets(state, s)]
        if s.owner == p and s.aboard is not None:
            for t in state.world.space(s.zone).neighbours:
                space = state.world.space(t)
                if space.kind != "territory" or state.owner(t) not in (None, p):
                    continue
                for n, pcs, up_to in groups(s.aboard, need_unmoved=False, keep=0):
                    out.append(Land(s.id, t, n, pcs, up_to=up_to))
    out += _board_actions(state, p, cap)
    out += _teleport_actions(state)
    return out


def _board_actions(state: DragonLordsState, p: int, cap: int) -> list[Action]:
    out: list[Action] = []
    for s, t in _boardable(state, p):
        room = cap - (s.aboard.units if s.aboard else 0)
        if room <= 0:
            continue
        force = state.spaces[t]
        for n, pcs, up_to in groups(force, need_unmoved=True, cap=room):
            if guards_ok(force, n, pcs):
                out.append(Board(s.id, t, n, pcs, up_to=up_to))
    return out


def _teleport_actions(state: DragonLordsState) -> list[Action]:
    """DLR-PRT-02 / DLX-FAQ-06: a sorcerer that knows Teleport, with up to 5 units of its space."""
    p = state.current
    out: list[Action] = []
    units = state.content.spells["teleport"].units or 5
    sources: list[tuple[str, Force, int]] = []
    for sid, f in state.spaces.items():
        if f.owner == p:
            sources.append((sid, f, 1))
    for key, party in state.parties.items():
        if party.owner == p and state.phase is Phase.TRANSFER:
            sources.append((f"track:{key[1]}", party.force, 0))
    dests = [t for t in state.territories_of(p)]
    dests += [f"ship:{s.id}" for s in state.ships.values() if s.owner == p]
    dests += [f"track:{k[1]}" for k, party in state.parties.items() if party.owner == p]
    for sid, f, keep in sources:
        for sorc in f.pieces:
            if sorc.token != "sorcerer" or "teleport" not in sorc.spells or sorc.id in state.turn.teleported:
                continue
            if sorc.moved:
                continue
            others = [x.id for x in f.pieces if x.id != sorc.id and not x.moved]
            for n, pcs, up_to in groups(
                f, need_unmoved=True, keep=keep, cap=units + 1, piece_filter=[sorc.id, *others]
            ):
                if sorc.id not in pcs:
                    continue
                if not guards_ok(f, n, pcs):
                    continue
                for d in dests:
                    if d == sid:
                        continue
                    if sid.startswith("track:") and d.startswith("track:"):
                        continue
                    if d.startswith("ship:"):
                        ship = state.ships[int(d[5:])]
                        if (
                            ship.aboard is not None
                            and ship.aboard.units + n + len(pcs) > state.content.game.ship_capacity
                        ):
                            continue
                    if d.startswith("track:"):
                        party = state.parties[(p, d[6:])]
                        if party.force.units + n + len(pcs) > state.content.game.party_max:
                            continue
                    out.append(Teleport(sorc.id, d, n, pcs, up_to=up_to))
    return out


# --- quest --------------------------------------------------------------------------------------


def track_entries(state: DragonLordsState, player: int) -> list[tuple[str, str, int]]:
    """(track, source, square index) for each of the player's territories next to a track square, and
    each of its ships docked next to one (``ship:<n>``: the Village's harbour, DLR-NAV-04)."""
    out = []
    for sq in state.world.spaces:
        if sq.kind != "wastelands" or sq.track is None or sq.track_index is None:
            continue
        for t in sq.neighbours:
            if state.world.space(t).kind == "territory" and state.owner(t) == player:
                out.append((sq.track, t, sq.track_index))
        for ship in state.ships.values():
            if ship.owner == player and ship.aboard is not None and ship.zone in sq.neighbours:
                out.append((sq.track, f"ship:{ship.id}", sq.track_index))
    return sorted(out)


def _party_source(state: DragonLordsState, source: str) -> Force:
    """The units a party may be drawn from: a territory's, or those aboard a docked ship."""
    if source.startswith("ship:"):
        aboard = state.ships[int(source[5:])].aboard
        assert aboard is not None
        return aboard
    return state.spaces[source]


def _quest_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    cap = state.content.game.party_max
    out: list[Action] = [Done()]
    for track, t, _ in track_entries(state, p):
        if (p, track) in state.parties or track in state.turn.parties_sent:
            continue
        force = _party_source(state, t)
        # DLR-NAV-04: the units aboard a ship docked at the Village may land there, all of them and
        # even after sailing this turn (a ship nobody is left aboard belongs to nobody, DLX-FAQ-03)
        docked = t.startswith("ship:")
        for n, pcs, up_to in groups(force, need_unmoved=not docked, keep=0 if docked else 1, cap=cap):
            if guards_ok(force, n, pcs):
                out.append(SendParty(track, t, n, pcs, up_to=up_to))
    for (owner, track), party in sorted(state.parties.items()):
        if owner != p or party.moved or party.resting or party.came_from:
            continue
        out += [QuestMove(track, True), QuestMove(track, False)]
    for (owner, track), party in sorted(state.parties.items()):
        if owner != p:
            continue
        square = state.world.track_squares(track)[party.square]
        out += _party_board_actions(state, party, square.neighbours)
        if square.feature == "village":
            for item in sorted(state.content.items):
                price = state.content.items[item].price
                if price is not None and price <= state.players[p].gold:
                    out.append(BuyItem(track, item))
    return out


def _party_board_actions(state: DragonLordsState, party: Party, by: Iterable[str]) -> list[Action]:
    """DLR-QST-04: a party in the Village boards a ship docked in its harbour (its own or nobody's)."""
    out: list[Action] = []
    cap = state.content.game.ship_capacity
    for ship in sorted(state.ships.values(), key=lambda s: s.id):
        if ship.zone not in by or ship.owner not in (None, party.owner):
            continue
        room = cap - (ship.aboard.units if ship.aboard else 0)
        if room > 0:
            for n, pcs, up_to in groups(party.force, need_unmoved=False, keep=0, cap=room):
                out.append(Board(ship.id, f"track:{party.track}", n, pcs, up_to=up_to))
    return out


def _party_boards(state: DragonLordsState, action: Board) -> list[Event]:
    """The party's units go aboard; a party that all boards leaves the track (DLR-QST-09, DLR-QST-03)."""
    p = state.current
    key = (p, action.territory[6:])
    party = state.parties[key]
    stay, going = split(party.force, action.count, action.pieces, prefer_moved=False)
    ship = state.ships[action.ship]
    state.ships[action.ship] = replace(ship, owner=p, aboard=merge(ship.aboard, mark_moved(going)))
    if stay is None:
        state.parties.pop(key)
        state.players[p].gold += party.gold
        _equipment_home(state, party)
    else:
        state.parties[key] = replace(party, force=stay)
    return [_move_event(p, going, action.territory, f"ship {action.ship}")]


def _square(state: DragonLordsState, track: str, index: int) -> str:
    return state.world.track_squares(track)[index].id


def move_party(
    state: DragonLordsState, party: Party, roll: int, *, entry: int | None, forward: bool
) -> list[Event]:
    """DLR-QST-02: the party moves ``roll`` squares; off an end it goes home; then its square acts."""
    squares = state.world.track_squares(party.track)
    move = economy_and_quests.quest_move(
        len(squares), roll, at=None if entry is not None else party.square, entry=entry, forward=forward
    )
    key = (party.owner, party.track)
    if move.square is None:
        end_index = 0 if move.left_track == "start" else len(squares) - 1
        exits = [
            t
            for t in squares[end_index].neighbours
            if state.world.space(t).kind == "territory" and state.owner(t) == party.owner
        ]
        if len(exits) > 1:  # the owner chooses where the party comes home (asked next)
            state.parties[key] = replace(party, moved=True)
            state.turn.homes, state.turn.home_track = tuple(sorted(exits)), party.track
            return [
                Event(
                    "party_off_track",
                    {"player": party.owner, "track": party.track},
                    f"player {party.owner}'s party walks off the {party.track} track",
                )
            ]
        if exits:
            return leave_track(state, party, exits[0])
        move = economy_and_quests.TrackMove(end_index)
    assert move.square is not None
    prev = party.square if entry is None else -1
    party = replace(party, square=move.square, moved=True, prev=prev)
    state.parties[key] = party
    name = squares[move.square].name
    events = [
        Event(
            "party_moves",
            {"player": party.owner, "track": party.track, "square": move.square},
            f"player {party.owner}'s party reaches {name}",
        )
    ]
    return events + resolve_square(state, key)


def leave_track(state: DragonLordsState, party: Party, territory: str) -> list[Event]:
    """DLR-QST-09 / DLR-QST-03: a party leaves the track; its gold goes to the purse, its equipment home."""
    seat = state.players[party.owner]
    seat.gold += party.gold
    if party.torch:
        seat.torch_home = True
    if party.pickaxe:
        seat.pickaxe_home = True
    state.parties.pop((party.owner, party.track), None)
    state.spaces[territory] = merge(state.spaces.get(territory), mark_moved(party.force))
    return [
        Event(
            "party_home",
            {"player": party.owner, "gold": party.gold, "space": territory},
            f"player {party.owner}'s party comes home to {territory} with {party.gold} gold",
        )
    ]


def _crystal(state: DragonLordsState) -> tuple[economy_and_quests.CrystalFace, Event]:
    faces = state.content.game.crystal_die.faces
    roll = state.rng.roll(len(faces))
    face = faces[roll - 1]
    return face, roll_event("crystal die", [(len(faces), roll)], purpose=face)


def resolve_square(state: DragonLordsState, key: tuple[int, str]) -> list[Event]:
    party = state.parties[key]
    sq = state.world.track_squares(party.track)[party.square]
    events: list[Event] = []
    for other_key, other in state.parties.items():  # DLR-QST-10
        if other_key != key and other.track == party.track and other.square == party.square:
            return events + start_battle(
                state,
                "quest",
                sq.id,
                party.force,
                other.force,
                origins=(f"track:{party.track}",),
                defender_party=other_key,
            )
    if sq.id in state.monsters:
        monster, wounds = state.monsters[sq.id]
        if sq.feature == "dragons_lair" and "dragon_orb" in party.force.item_list():
            face, ev = _crystal(state)
            events.append(ev)
            happening = economy_and_quests.dragons_lair(face, has_orb=True)
            _take_item(state, key, "dragon_orb")
            if happening.kind == "gain_dragonlord":
                return events + _gain_dragonlord(state, key)
        return events + start_battle(
            state,
            "quest",
            sq.id,
            party.force,
            None,
            origins=(f"track:{party.track}",),
            monster=(monster, wounds),
        )
    feature = sq.feature
    if feature == "dragons_lair" and "dragon_orb" in party.force.item_list():
        face, ev = _crystal(state)
        events.append(ev)
        _take_item(state, key, "dragon_orb")
        if economy_and_quests.dragons_lair(face, has_orb=True).kind == "gain_dragonlord":
            return events + _gain_dragonlord(state, key)
        return events
    if feature == "witch":
        face, ev = _crystal(state)
        events.append(ev)
        sorcerer = next((pc for pc in party.force.pieces if pc.token == "sorcerer"), None)
        spell = None
        if sorcerer is not None:
            known = state.content.peoples[state.people_of(party.owner)].spells
            spell = next((s for s in known if s not in sorcerer.spells), None)
        happening = economy_and_quests.witch(face, spell)
        return events + _happen(state, key, happening, sorcerer.id if sorcerer else None)
    if feature == "shrine":
        face, ev = _crystal(state)
        events.append(ev)
        return events + _happen(state, key, economy_and_quests.shrine(face), None)
    if feature == "quest":
        deck, card, _ = state.quest_deck.draw(state.rng)
        if card is None:
            return events
        state.quest_deck = deck.put_on_bottom(card)  # DLR-QST-07: a card drawn goes to the bottom
        face, ev = _crystal(state)
        spec = state.content.quests[card]
        events.append(Event("quest_card", {"player": party.owner, "card": card}, f"quest card: {spec.name}"))
        events.append(ev)
        happening = economy_and_quests.quest_card(
            spec, face, has_torch=party.torch, has_pickaxe=party.pickaxe
        )
        return events + _happen(state, key, happening, None)
    return events


def _take_item(state: DragonLordsState, key: tuple[int, str], item: str) -> None:
    party = state.parties[key]
    pieces = []
    done = False
    for pc in party.force.pieces:
        if not done and item in pc.items:
            items = list(pc.items)
            items.remove(item)
            pc = replace(pc, items=tuple(items))
            done = True
        pieces.append(pc)
    state.parties[key] = replace(party, force=replace(party.force, pieces=tuple(pieces)))


def _gain_dragonlord(state: DragonLordsState, key: tuple[int, str]) -> list[Event]:
    party = state.parties[key]
    if state.dragonlords_left <= 0:
        return [Event("no_dragonlord", {}, "no DragonLord is left")]
    state.dragonlords_left -= 1
    pid = state.next_piece
    state.next_piece += 1
    force = party.force
    if force.units >= state.content.game.party_max and force.plain:
        force = replace(force, plain=force.plain - 1, moved=max(0, force.moved - 1) if force.moved else 0)
    force = replace(force, pieces=(*force.pieces, Piece(pid, "dragonlord", revealed=True)))
    state.parties[key] = replace(party, force=force)
    return [Event("dragonlord", {"player": party.owner}, f"player {party.owner} gains a DragonLord")]


def _happen(
    state: DragonLordsState, key: tuple[int, str], h: economy_and_quests.Happening, sorcerer: int | None
) -> list[Event]:
    party = state.parties[key]
    p = party.owner
    events: list[Event] = []
    if h.kind == "learn_spell" and sorcerer is not None and h.what:
        pieces = tuple(
            replace(pc, spells=(*pc.spells, h.what)) if pc.id == sorcerer else pc for pc in party.force.pieces
        )
        state.parties[key] = replace(party, force=replace(party.force, pieces=pieces))
        events.append(
            Event(
                "learn",
                {"player": p},
                f"player {p}'s sorcerer learns a spell",
                visible_to=frozenset({p}),
                public_data={"player": p},
                public_text=f"player {p}'s sorcerer learns a spell",
            )
        )
    elif h.kind in ("gain_item", "item") and h.what:
        _give_party(state, key, items=(h.what,), shards=())
        events.append(Event("gain_item", {"player": p, "item": h.what}, f"player {p}'s party gains {h.what}"))
    elif h.kind in ("draw_card", "spell_card"):
        events += draw_cards(state, p, max(1, h.amount))
    elif h.kind == "stay_next_quest":
        state.parties[key] = replace(party, resting=True)
        events.append(Event("resting", {"player": p}, f"player {p}'s party must rest"))
    elif h.kind == "lose_units":
        events += _party_losses(state, key, max(1, h.amount))
    elif h.kind == "gold":
        state.parties[key] = replace(party, gold=party.gold + h.amount)
        events.append(
            Event("gold", {"player": p, "gold": h.amount}, f"player {p}'s party finds {h.amount} gold")
        )
    elif h.kind == "shard":
        if state.box_shards:
            shard, state.box_shards = state.box_shards[0], state.box_shards[1:]
            carrier = _give_party(state, key, items=(), shards=(shard,))
            carrying.ask_carrier(state, p, carrier, shards=(shard,))  # DLX-SHD-02: any unit carries it
            events.append(Event("shard", {"player": p}, f"player {p}'s party finds a crystal shard"))
    elif h.kind == "sorcerer":
        pid = state.next_piece
        state.next_piece += 1
        force = party.force
        if force.units >= state.content.game.party_max:
            if not force.plain:
                return events
            force = replace(
                force,
                plain=force.plain - 1,
                moved=min(force.moved, force.plain - 1),
                spent=min(force.spent, force.plain - 1),
            )
        spells = state.content.peoples[state.people_of(p)].spells[:2]
        force = replace(force, pieces=(*force.pieces, Piece(pid, "sorcerer", spells=spells)))
        state.parties[key] = replace(party, force=force)
        events.append(Event("new_sorcerer", {"player": p}, f"player {p}'s party is joined by a sorcerer"))
    elif h.kind == "dragonlord":
        events += _gain_dragonlord(state, key)
    elif h.kind == "fight" and h.what:
        monster = state.content.monsters[h.what]
        sq = _square(state, party.track, party.square)
        events += start_battle(
            state,
            "quest",
            sq,
            party.force,
            None,
            origins=(f"track:{party.track}",),
            monster=(h.what, monster.wounds),
        )
    return events


def _party_losses(state: DragonLordsState, key: tuple[int, str], count: int) -> list[Event]:
    party = state.parties[key]
    force = party.force
    events: list[Event] = []
    for _ in range(count):
        if force.plain:
            force = replace(
                force,
                plain=force.plain - 1,
                moved=min(force.moved, force.plain - 1),
                spent=min(force.spent, force.plain - 1),
            )
        elif force.pieces:
            victim = sorted(force.pieces, key=lambda x: (TAKE_ORDER.get(x.token, 0), x.id))[0]
            force = replace(force, pieces=tuple(x for x in force.pieces if x.id != victim.id))
            if victim.token == "king":
                events += eliminate(state, party.owner)
    events.append(
        Event(
            "party_losses",
            {"player": party.owner, "lost": count},
            f"player {party.owner}'s party loses {count}",
        )
    )
    if force.units == 0:
        state.parties.pop(key)
        _equipment_home(state, party)
    else:
        state.parties[key] = replace(party, force=force)
    return events


def _equipment_home(state: DragonLordsState, party: Party) -> None:
    seat = state.players[party.owner]
    if party.torch:
        seat.torch_home = True
    if party.pickaxe:
        seat.pickaxe_home = True


def _give_party(
    state: DragonLordsState, key: tuple[int, str], *, items: tuple[str, ...], shards: tuple[str, ...]
) -> int:
    """Items or shards go to a party (:func:`carrying.give_to_force`); returns the carrier's number."""
    party = state.parties[key]
    force, carrier = carrying.give_to_force(state, party.force, items, shards)
    state.parties[key] = replace(party, force=force)
    return carrier


def _give(
    state: DragonLordsState, space: str, player: int, *, items: tuple[str, ...], shards: tuple[str, ...]
) -> int:
    """Items or shards go to the force in ``space``; returns the carrier's number."""
    state.spaces[space], carrier = carrying.give_to_force(state, state.spaces[space], items, shards)
    return carrier


def draw_cards(state: DragonLordsState, player: int, count: int) -> list[Event]:
    deck, cards, reshuffled = state.spell_deck.draw_many(count, state.rng)
    state.spell_deck = deck
    seat = state.players[player]
    seat.hand = tuple(sorted((*seat.hand, *cards)))
    events = []
    if reshuffled:
        events.append(Event("reshuffle", {}, "the spell cards are reshuffled", chance=True))
    events.append(
        Event(
            "draw",
            {"player": player, "cards": cards},
            f"player {player} draws {', '.join(cards) or 'nothing'}",
            chance=True,
            visible_to=frozenset({player}),
            public_data={"player": player, "count": len(cards)},
            public_text=f"player {player} draws {len(cards)} spell card(s)",
        )
    )
    return events


# --- combat phase -------------------------------------------------------------------------------


def _attackable(state: DragonLordsState, target: str, player: int) -> bool:
    owner = state.owner(target)
    if owner is None or owner == player:
        return False
    return owner not in state.turn.spared


def _combat_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    out: list[Action] = [Done()]
    g = state.content.game
    for sid, force in sorted(state.spaces.items()):
        if force.owner != p or sid in state.turn.no_attack:
            continue
        space = state.world.space(sid)
        for t in space.neighbours:
            if state.world.space(t).kind != "territory":
                continue
            if _attackable(state, t, p):
                for n, pcs, up_to in groups(force, need_unmoved=False, need_unspent=True):
                    if guards_ok(force, n, pcs):
                        out.append(Attack(sid, t, n, pcs, up_to=up_to))
            elif state.owner(t) in (None, p):
                for n, pcs, up_to in groups(force, need_unmoved=True):
                    if guards_ok(force, n, pcs):
                        out.append(Move(sid, t, n, pcs, up_to=up_to))
        if space.portal and force.has_token("sorcerer"):
            sorcerers = [x.id for x in force.pieces if x.token == "sorcerer"]
            for other in state.world.portals():
                if other.id == sid:
                    continue
                if _attackable(state, other.id, p):
                    for n, pcs, up_to in groups(force, need_unmoved=False, need_unspent=True):
                        if set(pcs) & set(sorcerers) and guards_ok(force, n, pcs):
                            out.append(Attack(sid, other.id, n, pcs, "portal", up_to=up_to))
                elif state.owner(other.id) in (None, p):
                    for n, pcs, up_to in groups(force, need_unmoved=True):
                        if set(pcs) & set(sorcerers) and guards_ok(force, n, pcs):
                            out.append(Move(sid, other.id, n, pcs, "portal", up_to=up_to))
        dragons = [x for x in force.pieces if x.token == "dragonlord" and not x.spent]
        if dragons:
            limits = effects.dragonlord_limits(g.dragonlord, weak=bool(state.options.get("weak_dragonlords")))
            reach = _within(state, sid, g.dragonlord.flight)
            for dragon in dragons:
                for t in reach:
                    if t == sid or state.world.space(t).kind != "territory" or not _attackable(state, t, p):
                        continue
                    if t in space.neighbours:
                        continue  # an ordinary attack reaches it
                    if state.world.space(t).kingdom and not limits.lands_in_kingdoms:
                        continue
                    for n, pcs, up_to in groups(
                        force, need_unmoved=False, need_unspent=True, cap=limits.carries + 1
                    ):
                        if dragon.id in pcs and guards_ok(force, n, pcs):
                            out.append(Attack(sid, t, n, pcs, "fly", up_to=up_to))
    for s in sorted(state.ships.values(), key=lambda s: s.id):
        if s.owner != p or s.aboard is None:
            continue
        for t in state.world.space(s.zone).neighbours:
            if state.world.space(t).kind == "territory" and _attackable(state, t, p):
                for n, pcs, up_to in groups(s.aboard, need_unmoved=False, need_unspent=True, keep=0):
                    out.append(Attack(f"ship:{s.id}", t, n, pcs, up_to=up_to))
    out += _charm_actions(state)
    out += _summon_actions(state)
    if state.options.get("advanced"):
        for q in range(state.num_players):
            if q == p or not state.players[q].alive or q in state.turn.demanded:
                continue
            for n in range(1, len(state.shards_of(q)) + 1):
                out.append(Ultimatum(q, n))
    return out


def _within(state: DragonLordsState, start: str, steps: int) -> list[str]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] >= steps:
            continue
        for n in state.world.space(here).neighbours:
            if n not in seen:
                seen[n] = seen[here] + 1
                queue.append(n)
    return sorted(seen)


def amazon_realm(state: DragonLordsState) -> str:
    return state.world.realm_of_people("amazons").id


def _charm_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    if state.people_of(p) != "amazons":
        return []
    realm = amazon_realm(state)
    out: list[Action] = []
    for sid, force in sorted(state.spaces.items()):
        if force.owner != p or sid in state.turn.no_attack:
            continue
        free = force.plain - force.moved
        for t in state.world.space(sid).neighbours:
            space = state.world.space(t)
            if space.kind != "territory" or not _attackable(state, t, p):
                continue
            enemy = state.spaces[t]
            units = [amazons.CharmingUnit(f"u{i}", adjacent_since_turn_start=True) for i in range(1)]
            refusal = amazons.charm_refusal(
                units,
                target_in_amazon_realm=space.realm == realm,
                enemy_has_sorcerer=enemy.has_token("sorcerer"),
                enemy_commanded=False,
                leaves_a_territory_empty=False,
            )
            if refusal is not None:
                continue
            hi = min(free, force.units - max(1, force.prisoners))
            out += [Charm(sid, t, n, up_to=up_to) for n, up_to in count_choices(1, hi)]
    return out


def _summon_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    hand = [c for c in sorted(set(state.players[p].hand)) if c.startswith("summon_")]
    if not hand:
        return []
    sources = {sid for sid, f in state.spaces.items() if f.owner == p and f.has_token("sorcerer")}
    targets: set[str] = set()
    for sid in sources:
        for t in state.world.space(sid).neighbours:
            targets.add(t)
    out: list[Action] = []
    for card in hand:
        kind = state.content.cards[card].targets
        for t in sorted(targets):
            space = state.world.space(t)
            enemy = False
            if space.kind == "territory":
                enemy = _attackable(state, t, p)
            elif space.kind == "sea":
                enemy = _enemy_ship_in(state, t, p) is not None
            if not enemy:
                continue
            coast = space.kind == "sea" or any(state.world.space(n).kind == "sea" for n in space.neighbours)
            if kind == "territory" and space.kind != "territory":
                continue
            if kind == "sea_or_coast" and not coast:
                continue
            out.append(Summon(card, t))
    return out


# --- transfer and reinforce ------------------------------------------------------------------------


def _transfer_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    out: list[Action] = [Done()]
    for sid, force in sorted(state.spaces.items()):
        if force.owner != p:
            continue
        space = state.world.space(sid)
        for t in space.neighbours:
            if state.world.space(t).kind == "territory" and state.owner(t) == p:
                for n, pcs, up_to in groups(force, need_unmoved=True):
                    if guards_ok(force, n, pcs):
                        out.append(Move(sid, t, n, pcs, up_to=up_to))
        if space.portal and force.has_token("sorcerer"):
            sorcerers = {x.id for x in force.pieces if x.token == "sorcerer" and not x.moved}
            for other in state.world.portals():
                if other.id != sid and state.owner(other.id) in (None, p):
                    for n, pcs, up_to in groups(force, need_unmoved=True):
                        if set(pcs) & sorcerers and guards_ok(force, n, pcs):
                            out.append(Move(sid, other.id, n, pcs, "portal", up_to=up_to))
    out += _board_actions(state, p, state.content.game.ship_capacity)
    out += _teleport_actions(state)
    return out


def _income(state: DragonLordsState) -> list[Event]:
    p = state.current
    seat = state.players[p]
    terr = state.territories_of(p)
    kingdoms = [t for t in terr if state.world.space(t).kingdom]
    mines = [t for t in terr if state.world.space(t).mine]
    gold = effects.income(
        state.content, state.people_of(p), territories=len(terr), kingdoms=len(kingdoms), mines=len(mines)
    )
    seat.gold += gold
    return [Event("income", {"player": p, "gold": gold}, f"player {p} collects {gold} gold")]


def _start_reinforce(state: DragonLordsState) -> list[Event]:
    p = state.current
    seat = state.players[p]
    events: list[Event] = []
    if state.people_of(p) == "amazons":  # DLX-AMZ-04: prisoners held a full turn join the Amazons
        for sid, f in list(state.spaces.items()):
            if f.owner == p and f.prisoners and amazons.prisoners_convert(f.captured_turn, seat.turns):
                state.spaces[sid] = replace(f, plain=f.plain + f.prisoners, prisoners=0, prisoners_of=NEUTRAL)
                events.append(
                    Event(
                        "prisoners_join",
                        {"player": p, "space": sid, "count": f.prisoners},
                        f"{f.prisoners} prisoners in {sid} become Amazons",
                    )
                )
    if state.options.get("soft_elimination") and not state.kingdoms_of(p) and state.territories_of(p):
        seat.to_place += 3  # DLX-OPT-04
        events.append(Event("soft_elimination", {"player": p}, f"player {p}, without a realm, gets 3 units"))
    return events


def _place_targets(state: DragonLordsState, p: int) -> list[str]:
    kingdoms = state.kingdoms_of(p)
    if kingdoms:
        return sorted(kingdoms)
    if state.options.get("soft_elimination"):
        return state.territories_of(p)
    return []


def _reinforce_actions(state: DragonLordsState) -> list[Action]:
    p = state.current
    seat = state.players[p]
    out: list[Action] = [Done()]
    if seat.to_place:
        for t in _place_targets(state, p):
            # every split of the bought units is reached by placing them in several actions
            out += [Place(t, n) for n, up_to in count_choices(1, seat.to_place) if not up_to]
    if seat.ships_to_place:
        zones = {
            n
            for k in state.kingdoms_of(p)
            for n in state.world.space(k).neighbours
            if state.world.space(n).kind == "sea"
        }
        out += [PlaceShip(z) for z in sorted(zones)]
    return out


# --- questions --------------------------------------------------------------------------------


def _question_actions(state: DragonLordsState, q: Question) -> list[Action]:
    if q.kind == "ultimatum":
        shards = sorted(state.shards_of(q.player))
        out: list[Action] = [Answer(False)]
        out += [Answer(True, c) for c in sorted(set(combinations(shards, q.count)))]
        return out
    if q.kind == "elemental_order":
        victims = _elemental_victims(state, q.asker, q.target)
        assert victims is not None
        return [Done(), *(Casualties(order) for order in piece_orders(side_of(state, victims)))]
    if q.kind == "carry":
        return list(carrying.carry_choices(state, q))
    return [Answer(True), Answer(False)]


def _answer(state: DragonLordsState, action: Action) -> list[Event]:
    q = state.questions[0]
    state.questions = state.questions[1:]
    if q.kind == "elemental_order":  # DLR-HID-03: the victims stand in their owner's order
        order = action.pieces if isinstance(action, Casualties) else ()
        return _elemental_strikes(state, q.asker, q.card, q.target, order)
    if q.kind == "carry":  # DLX-SHD-02, DLR-CMB-09, DLR-SHD-01: the receiver names the carrier
        assert isinstance(action, Carry)
        return carrying.carry(state, q, action)
    assert isinstance(action, Answer)
    if q.kind == "ultimatum":
        if not action.accept:
            return [
                Event("ultimatum_refused", {"player": q.player}, f"player {q.player} refuses the ultimatum")
            ]
        for shard in action.shards:
            _move_shard(state, q.player, q.asker, shard)
        state.turn.spared = (*state.turn.spared, q.player)
        return [
            Event(
                "ultimatum_accepted",
                {"player": q.player, "count": len(action.shards)},
                f"player {q.player} hands over {len(action.shards)} shard(s)",
            )
        ]
    # dispel
    if action.accept:
        _remove_card(state, q.player, "dispel_magic")
        state.spell_deck = state.spell_deck.discard("dispel_magic", q.card)
        return [Event("dispelled", {"player": q.player}, f"player {q.player} dispels the elemental")]
    state.spell_deck = state.spell_deck.discard(q.card)
    return _elemental_comes(state, q.asker, q.card, q.target)


def _remove_card(state: DragonLordsState, player: int, card: str) -> None:
    hand = list(state.players[player].hand)
    hand.remove(card)
    state.players[player].hand = tuple(hand)


def _move_shard(state: DragonLordsState, frm: int, to: int, shard: str) -> None:
    """A shard changes hands: off the giver's unit, onto a unit of the receiver (his sorcerer's stack)."""

    def strip(force: Force) -> Force:
        return replace(
            force,
            pieces=tuple(
                replace(pc, shards=tuple(s for s in pc.shards if s != shard)) for pc in force.pieces
            ),
        )

    state.spaces = {k: strip(v) if v.owner == frm else v for k, v in state.spaces.items()}
    state.ships = {
        k: replace(s, aboard=strip(s.aboard)) if s.aboard and s.aboard.owner == frm else s
        for k, s in state.ships.items()
    }
    state.parties = {
        k: replace(v, force=strip(v.force)) if v.owner == frm else v for k, v in state.parties.items()
    }
    # the receiver puts it under a unit of his in any territory (DLR-SHD-01): first on his
    # sorcerer's stack, then as he chooses; with no territory, on another force of his
    if state.territories_of(to):
        carrier = _give(state, _sorcerer_space(state, to), to, items=(), shards=(shard,))
        carrying.ask_carrier(state, to, carrier, shards=(shard,), anywhere=True)
        return
    _give_elsewhere(state, to, shard)


def _give_elsewhere(state: DragonLordsState, player: int, shard: str) -> None:
    """A shard for a player without a territory goes to a ship's crew or a party of his (asked where
    in that force, DLR-SHD-01); with no unit at all, to the box."""
    for sid, ship in sorted(state.ships.items()):
        if ship.aboard is not None and ship.aboard.owner == player:
            aboard, carrier = carrying.give_to_force(state, ship.aboard, (), (shard,))
            state.ships[sid] = replace(ship, aboard=aboard)
            carrying.ask_carrier(state, player, carrier, shards=(shard,))
            return
    for key in sorted(state.parties):
        if key[0] == player:
            carrying.ask_carrier(
                state, player, _give_party(state, key, items=(), shards=(shard,)), shards=(shard,)
            )
            return
    state.box_shards = (*state.box_shards, shard)


def _elemental_victims(state: DragonLordsState, caster: int, target: str) -> Force | None:
    """The force an elemental summoned against ``target`` strikes: the territory's, or the units
    aboard an enemy ship in the sea zone."""
    if state.world.space(target).kind == "territory":
        return state.spaces.get(target)
    ship = _enemy_ship_in(state, target, caster)
    return None if ship is None else ship.aboard


def _elemental_comes(state: DragonLordsState, caster: int, card: str, target: str) -> list[Event]:
    """DLR-SCR-02 outside a combat: the elemental strikes at once, unless its victims' owner has two
    or more token-bearing units to order first (DLR-HID-03) - a question asked of that player. The
    count of such units is public (hidden tokens are shown as a count), so asking tells nothing."""
    victims = _elemental_victims(state, caster, target)
    if victims is not None and victims.owner >= 0 and len(victims.pieces) >= 2:
        state.questions = (
            *state.questions,
            Question("elemental_order", victims.owner, caster, card=card, target=target),
        )
        return []
    return _elemental_strikes(state, caster, card, target)


def _elemental_strikes(
    state: DragonLordsState, caster: int, card: str, target: str, order: tuple[int, ...] = ()
) -> list[Event]:
    space = state.world.space(target)
    if space.kind == "territory":
        force = state.spaces.get(target)
        if force is None:
            return []
        side = pieces_first(side_of(state, force), order)
        struck = effects.summon_elemental(state.rng, side.fighters)
        events = [
            roll_event(
                f"player {caster}'s elemental", [(6, f) for f in struck.faces], purpose="Summon Elemental"
            )
        ]
        survivors = replace(side, fighters=struck.side)
        after, _ = force_of(survivors, moved=False)
        events += _lost_tokens(state, side, struck.removed)
        if after is None:
            del state.spaces[target]
        else:
            state.spaces[target] = replace(
                after,
                moved=min(force.moved, after.plain),
                spent=min(force.spent, after.plain),
                pieces=tuple(
                    replace(pc, revealed=False) if not _was_revealed(force, pc) else pc for pc in after.pieces
                ),
                prisoners=force.prisoners,
                prisoners_of=force.prisoners_of,
                captured_turn=force.captured_turn,
            )
        events.append(
            Event(
                "elemental",
                {"target": target, "removed": len(struck.removed)},
                f"the elemental strikes {space.name}: {len(struck.removed)} removed",
            )
        )
        return events
    ship = _enemy_ship_in(state, target, caster)
    if ship is None or ship.aboard is None:
        return []
    side = pieces_first(side_of(state, ship.aboard), order)
    struck = effects.summon_elemental(state.rng, side.fighters)
    events = [
        roll_event(f"player {caster}'s elemental", [(6, f) for f in struck.faces], purpose="Summon Elemental")
    ]
    events += _lost_tokens(state, side, struck.removed)
    after, _ = force_of(replace(side, fighters=struck.side), moved=False)
    state.ships[ship.id] = replace(ship, aboard=after, owner=None if after is None else ship.owner)
    return events


def _was_revealed(force: Force, pc: Piece) -> bool:
    before = force.piece(pc.id)
    return before is not None and before.revealed


def _lost_tokens(state: DragonLordsState, side: object, removed: Iterable[str]) -> list[Event]:
    events: list[Event] = []
    from warhorn.games.dragonlords.battle import Side

    assert isinstance(side, Side)
    for fid in removed:
        if fid.startswith("p"):
            pc = side.piece(int(fid[1:]))
            if pc is not None:
                if pc.shards:
                    state.box_shards = (*state.box_shards, *pc.shards)
                if pc.token == "king" and side.player >= 0:
                    events += eliminate(state, side.player)
    return events


# --- battles ------------------------------------------------------------------------------------


def start_battle(
    state: DragonLordsState,
    kind: str,
    space: str,
    attackers: Force,
    defenders: Force | None,
    *,
    origins: tuple[str, ...],
    monster: tuple[str, int] | None = None,
    ships: tuple[int, int] = (-1, -1),
    defender_party: tuple[int, str] | None = None,
) -> list[Event]:
    """Step 1 done (the attackers stand in the space): the combat begins (DLX-CMB-01)."""
    att = side_of(state, attackers)
    if kind == "quest":  # the parties fight: they stand in the battle until it ends
        for key, party in list(state.parties.items()):
            if key == defender_party or (
                party.owner == attackers.owner and _square(state, party.track, party.square) == space
            ):
                state.stash[key] = state.parties.pop(key)
    if kind == "naval":
        for sid in ships:
            state.ships[sid] = replace(state.ships[sid], aboard=None)
    if monster is not None:
        dfn = monster_side(state, *monster)
    else:
        assert defenders is not None
        # DLX-AMZ-04/06: prisoners defend as Amazons against a third player, but never fight their
        # own kind: against their owner they stand aside, held, until the guards are outnumbered
        rescue = bool(defenders.prisoners) and defenders.prisoners_of == attackers.owner
        dfn = side_of(state, defenders, with_prisoners=not rescue)
    is_kingdom = kind == "land" and state.world.space(space).kingdom
    sneak = kind == "land" and attackers.people == "elves"
    state.battle = Battle(
        kind,
        space,
        att,
        dfn,
        origins,
        sneak=sneak,
        kingdom=is_kingdom,
        monster=monster[0] if monster else "",
        ships=ships,
    )
    if defenders is not None and defenders.prisoners:
        state.battle = replace(
            state.battle,
            held=defenders.prisoners if rescue else 0,
            prisoners_of=defenders.prisoners_of,
            captured_turn=defenders.captured_turn,
        )
    state.defender_party = defender_party
    state.turn.battles += 1
    where = state.world.space(space).name
    foe = "a monster" if monster else ("neutral units" if dfn.player == NEUTRAL else f"player {dfn.player}")
    events = [
        Event(
            "battle",
            {"kind": kind, "space": space, "attacker": att.player, "defender": dfn.player},
            f"player {att.player} attacks {foe} in {where} ({att.start_units} against {dfn.start_units})",
        )
    ]
    return events + advance(state)


def end_battle(state: DragonLordsState, *, retreat_to: str | None) -> list[Event]:
    """The combat is over: the space changes hands or not, spoils go to the winner (DLR-CMB-08/09)."""
    b = state.battle
    assert b is not None
    state.battle = None
    context: dict[str, tuple[int, str] | None] = {"defender_party": state.defender_party}
    state.defender_party = None
    state.spell_deck = state.spell_deck.discard(*b.played)
    events: list[Event] = []
    att_force, _ = force_of(b.att, moved=True)
    dfn_force, prisoners_left = force_of(b.dfn, moved=False)
    att_alive = att_force is not None and not b.att.escaped
    dfn_alive = dfn_force is not None
    advanced = bool(state.options.get("advanced"))
    if b.kind == "land":
        events += _end_land(
            state, b, att_force if att_alive else None, dfn_force, prisoners_left, retreat_to, advanced
        )
    elif b.kind == "naval":
        events += _end_naval(state, b, att_force if att_alive else None, dfn_force, retreat_to)
    else:
        events += _end_quest(
            state, b, att_force if att_alive else None, dfn_force, retreat_to, context, advanced
        )
    for player in b.kings_lost:
        events += eliminate(state, player)
    if not state.players[state.current].alive and not state.options.get("soft_elimination"):
        events += check_victory(state)
        if state.phase is not Phase.OVER:
            events += end_turn(state)
        return events
    _ = dfn_alive
    return events


def _spoils(state: DragonLordsState, b: Battle, force: Force | None) -> Force | None:
    """DLR-CMB-09: the winner takes the loser's items and shards, under units it chooses."""
    if force is None:
        if b.spoils_shards:
            state.box_shards = (*state.box_shards, *b.spoils_shards)
        return None
    force, carrier = carrying.give_to_force(state, force, b.spoils_items, b.spoils_shards)
    carrying.ask_carrier(state, force.owner, carrier, shards=b.spoils_shards, items=b.spoils_items)
    return force


def _hero(
    state: DragonLordsState, force: Force | None, won: bool, advanced: bool
) -> tuple[Force | None, list[Event]]:
    """DLX-HER-01: a victory makes a hero under a surviving unit, or raises the force's hero a level."""
    if not (advanced and won and force is not None):
        return force, []
    top = state.content.game.max_hero_level
    heroes = [p for p in force.pieces if p.token == "hero"]
    if heroes:
        h = heroes[0]
        level = effects.hero_after_victory(h.level, max_level=top)
        pieces = tuple(replace(p, level=level) if p.id == h.id else p for p in force.pieces)
        return replace(force, pieces=pieces), [
            Event(
                "hero",
                {"player": force.owner, "level": level},
                f"player {force.owner}'s hero reaches level {level}",
            )
        ]
    if not force.plain:
        return force, []
    pid = state.next_piece
    state.next_piece += 1
    hero = Piece(pid, "hero", level=1, revealed=True, moved=True)
    force = replace(
        force,
        plain=force.plain - 1,
        moved=max(0, force.moved - 1),
        spent=min(force.spent, force.plain - 1),
        pieces=(*force.pieces, hero),
    )
    return force, [Event("hero", {"player": force.owner, "level": 1}, f"player {force.owner} gains a hero")]


def _end_land(
    state: DragonLordsState,
    b: Battle,
    att: Force | None,
    dfn: Force | None,
    prisoners_left: int,
    retreat_to: str | None,
    advanced: bool,
) -> list[Event]:
    events: list[Event] = []
    space = b.space
    old_owner = b.dfn.player
    name = state.world.space(space).name
    if retreat_to is not None and att is not None:
        events += _retreat(state, b, att, retreat_to)
        if dfn is not None:
            events += _defender_holds(state, b, dfn, prisoners_left, advanced)
        return events
    if att is not None and dfn is None:
        att = _spoils(state, b, att)
        assert att is not None
        att, more = _hero(state, att, effects.hero_victory(conquered_defenders=b.dfn.start_units), advanced)
        events += more
        assert att is not None
        if b.held:  # DLX-AMZ-06: the prisoners still guarded when the Amazons fall are rescued
            att = replace(att, plain=att.plain + b.held)
        state.spaces[space] = att
        events += _capture_gold(state, space, old_owner, att.owner)
        events.append(
            Event("conquest", {"player": att.owner, "space": space}, f"player {att.owner} takes {name}")
        )
    elif dfn is not None:
        events += _defender_holds(state, b, dfn, prisoners_left, advanced)
        events.append(Event("repelled", {"player": dfn.owner, "space": space}, f"{name} holds"))
    else:
        _spoils(state, b, None)
        state.spaces.pop(space, None)
        events += _capture_gold(state, space, old_owner, None)
        events.append(
            Event("mutual_destruction", {"space": space}, f"{name} is left empty (mutual destruction)")
        )
    return events


def _defender_holds(
    state: DragonLordsState, b: Battle, dfn: Force, prisoners_left: int, advanced: bool
) -> list[Event]:
    """The defender keeps the space: spoils, a hero for repelling the attack, the prisoners it still
    guards (those that fought a third player and lived, or those their owner failed to rescue)."""
    held, events = _hero(
        state, _spoils(state, b, dfn), effects.hero_victory(repelled_attackers=b.att.start_units), advanced
    )
    assert held is not None
    kept = prisoners_left + b.held
    if kept:
        held = replace(held, prisoners=kept, prisoners_of=b.prisoners_of, captured_turn=b.captured_turn)
    state.spaces[b.space] = held
    return events


def _retreat(state: DragonLordsState, b: Battle, att: Force, to: str) -> list[Event]:
    att = mark_moved(att, spent=True)
    if to.startswith("ship:"):
        sid = int(to[5:])
        ship = state.ships[sid]
        state.ships[sid] = replace(ship, owner=att.owner, aboard=merge(ship.aboard, att))
    else:
        state.spaces[to] = merge(state.spaces.get(to), att)
    return [Event("retreat", {"player": att.owner, "to": to}, f"player {att.owner} retreats to {to}")]


def _capture_gold(state: DragonLordsState, space: str, loser: int, winner: int | None) -> list[Event]:
    """DLR-INC-02: the conqueror of a Kingdom takes the loser's share of the purse kept there."""
    if not state.world.space(space).kingdom:
        return []
    state.kingdom_since[space] = state.clock
    if loser < 0:
        return []
    held = state.kingdoms_of(loser)
    shares = economy_and_quests.purse_shares(
        state.players[loser].gold, [*held, space] if space not in held else held
    )
    share = shares.get(space, 0)
    if not share:
        return []
    state.players[loser].gold -= share
    if winner is not None and winner >= 0:
        state.players[winner].gold += share
    return [
        Event(
            "gold_taken",
            {"from": loser, "to": winner, "gold": share},
            f"{share} gold of player {loser} is taken",
        )
    ]


def _end_naval(
    state: DragonLordsState, b: Battle, att: Force | None, dfn: Force | None, retreat_to: str | None
) -> list[Event]:
    a_ship, d_ship = b.ships
    events: list[Event] = []
    if retreat_to is not None and att is not None:
        ship = state.ships[a_ship]
        state.ships[a_ship] = replace(ship, zone=retreat_to, aboard=att)
        if dfn is not None:
            state.ships[d_ship] = replace(state.ships[d_ship], aboard=_spoils(state, b, dfn))
        return [*events, Event("retreat", {"player": att.owner, "to": retreat_to}, "the ship turns back")]
    if att is not None:
        state.ships[a_ship] = replace(state.ships[a_ship], aboard=_spoils(state, b, att))
    else:
        state.ships.pop(a_ship, None)
        events.append(Event("sunk", {"ship": a_ship}, f"ship {a_ship} sinks"))
    if dfn is not None:
        state.ships[d_ship] = replace(
            state.ships[d_ship], aboard=_spoils(state, b, dfn) if att is None else dfn
        )
    else:
        state.ships.pop(d_ship, None)
        events.append(Event("sunk", {"ship": d_ship}, f"ship {d_ship} sinks"))
    if att is None and dfn is None:
        _spoils(state, b, None)
    return events


def _end_quest(
    state: DragonLordsState,
    b: Battle,
    att: Force | None,
    dfn: Force | None,
    retreat_to: str | None,
    context: dict[str, tuple[int, str] | None],
    advanced: bool,
) -> list[Event]:
    events: list[Event] = []
    owner = b.att.player
    key = next(
        k for k, v in state.stash.items() if v.owner == owner and _square(state, v.track, v.square) == b.space
    )
    party = state.stash.pop(key)
    other_key = context.get("defender_party")
    if isinstance(other_key, tuple) and other_key in state.stash:
        state.parties[other_key] = state.stash.pop(other_key)
    if b.monster:
        monster = state.content.monsters[b.monster]
        if dfn is None and b.dfn.player == MONSTER and not b.dfn.fighters:
            state.monsters.pop(b.space, None)
            events.append(Event("monster_slain", {"monster": b.monster}, f"the {monster.name} is slain"))
            if att is not None:
                att, more = _hero(state, att, effects.hero_victory(monster_defence=monster.defence), advanced)
                events += more
        elif b.dfn.fighters and b.space not in state.monsters and b.monster == "lair_dragon":
            state.monsters[b.space] = (b.monster, b.dfn.fighters[0].wounds)
        elif b.dfn.fighters and b.space in state.monsters:
            state.monsters[b.space] = (b.monster, b.dfn.fighters[0].wounds)  # DLR-MON-02: it keeps its square
    elif isinstance(other_key, tuple):
        other = state.parties.get(other_key)
        if other is not None:
            if dfn is None:
                state.parties.pop(other_key)
                _equipment_home(state, other)
                att = _spoils(state, b, att) if att is not None else None
            else:
                keep = dfn if att is not None or retreat_to else _spoils(state, b, dfn)
                assert keep is not None
                state.parties[other_key] = replace(other, force=keep)
    if att is None:
        state.parties.pop(key, None)
        _equipment_home(state, party)  # the torch and pickaxe come home; other items are lost (DLX-FAQ-04)
        events.append(Event("party_lost", {"player": owner}, f"player {owner}'s party is lost"))
        return events
    party = replace(party, force=replace(att, moved=0, spent=0))
    if retreat_to is not None:
        prev = party.prev
        if prev < 0:
            state.parties[key] = party
            home = party.came_from if party.came_from and state.owner(party.came_from) == owner else None
            if home is None:
                exits = [t for t, _ in _track_exits(state, party)]
                home = exits[0] if exits else None
            if home is not None:
                return events + leave_track(state, party, home)
            return events
        party = replace(party, square=prev)
        events.append(Event("retreat", {"player": owner}, f"player {owner}'s party falls back"))
    state.parties[key] = party
    return events


def _track_exits(state: DragonLordsState, party: Party) -> list[tuple[str, int]]:
    out = []
    for sq in state.world.track_squares(party.track):
        for t in sq.neighbours:
            if state.world.space(t).kind == "territory" and state.owner(t) == party.owner:
                out.append((t, sq.track_index or 0))
    return sorted(out)


def accept_mercy(state: DragonLordsState) -> list[Event]:
    """DLX-SHD-04: the attacker takes the shard; the attacker leaves if it can, else the defender."""
    from warhorn.games.dragonlords import ultimatum

    b = state.battle
    assert b is not None
    shard = b.mercy
    targets = retreat_targets(state, b)
    defender_exits = [
        t
        for t in state.world.space(b.space).neighbours
        if state.world.space(t).kind == "territory" and state.owner(t) == b.dfn.player
    ]
    terms = ultimatum.mercy_terms(attacker_can_leave=bool(targets), defender_can_leave=bool(defender_exits))
    if terms is None:
        state.battle = replace(b, step="retreat", mercy="")
        return [Event("no_deal", {}, "nobody can leave: no deal, the combat goes on"), *advance(state)]

    # the shard changes hands
    def strip(pc: Piece) -> Piece:
        return replace(pc, shards=tuple(s for s in pc.shards if s != shard))

    # the shard changes hands: it goes with the attacker's units, under the one its new owner
    # chooses once they stand where the deal sends them (as spoils and ultimatums go, DLR-SHD-01)
    dfn = replace(b.dfn, pieces=tuple(strip(pc) for pc in b.dfn.pieces))
    b = replace(b, dfn=dfn, mercy="")
    state.battle = b
    events = [
        Event(
            "mercy_accepted",
            {"attacker": b.att.player, "defender": b.dfn.player},
            f"player {b.att.player} accepts the shard for mercy",
        )
    ]
    if terms == "attacker_leaves":
        events += end_battle(state, retreat_to=targets[0])
        _mercy_paid(state, b.att.player, targets[0], shard)
        return events
    # the defender leaves to an adjacent friendly territory; the attacker takes the space
    dfn_force, _ = force_of(b.dfn, moved=True)
    if dfn_force is not None:
        to = sorted(defender_exits)[0]
        state.spaces[to] = merge(state.spaces.get(to), mark_moved(dfn_force))
    state.battle = replace(b, dfn=replace(b.dfn, fighters=()))
    events += end_battle(state, retreat_to=None)
    _mercy_paid(state, b.att.player, b.space, shard)
    return events


def _mercy_paid(state: DragonLordsState, player: int, at: str, shard: str) -> None:
    """DLX-SHD-04: the shard paid for mercy goes under a unit of the attacker where its units now
    stand (DLR-SHD-01); the box only if none is left there."""
    force = carrying.force_at(state, player, at)
    if force is None:
        state.box_shards = (*state.box_shards, shard)
        return
    force, carrier = carrying.give_to_force(state, force, (), (shard,))
    carrying.store_force(state, player, at, force)
    carrying.ask_carrier(state, player, carrier, shards=(shard,))


def defender_escapes(state: DragonLordsState, action: Teleport) -> list[Event]:
    """DLX-SPC-TEL: the defending sorcerer and the units its owner chose teleport to friendly land."""
    b = state.battle
    assert b is not None
    dfn = b.dfn
    to = action.to
    chosen = {f"p{pid}" for pid in action.pieces}
    plain = [f for f in dfn.fighters if f.id.startswith("u")][: action.count]
    going = [*plain, *(f for f in dfn.fighters if f.id in chosen)]
    going_ids = {f.id for f in going}
    staying = tuple(f for f in dfn.fighters if f.id not in going_ids)
    escaped_side = replace(dfn, fighters=tuple(going))
    escaped, _ = force_of(escaped_side, moved=True)
    if escaped is not None:
        state.spaces[to] = merge(state.spaces.get(to), mark_moved(escaped))
    state.battle = replace(
        b,
        dfn=replace(
            dfn, fighters=staying, pieces=tuple(p for p in dfn.pieces if f"p{p.id}" not in going_ids)
        ),
    )
    events = [
        Event("escape", {"player": dfn.player, "to": to}, f"player {dfn.player}'s sorcerer teleports away")
    ]
    if not staying:
        return events + end_battle(state, retreat_to=None)
    return events + advance(state)


# --- applying ------------------------------------------------------------------------------------


def apply_action(state: DragonLordsState, action: Action) -> list[Event]:
    events = _apply(state, action)
    carrying.drop_idle(state)
    return events


def _apply(state: DragonLordsState, action: Action) -> list[Event]:
    state.clock += 1
    if state.questions:
        return _answer(state, action) + check_victory(state)
    if state.battle is not None:
        return apply_battle(state, action) + check_victory(state)
    if state.phase in (Phase.SETUP_PEOPLE, Phase.SETUP_REALM, Phase.SETUP_TOKENS):
        return apply_setup(state, action)
    p = state.current
    seat = state.players[p]
    events: list[Event] = []
    state.turn.order = None
    if state.turn.homes:  # DLR-QST-02: the party comes home where its owner chose
        party = state.parties[(p, state.turn.home_track)]
        state.turn.homes, state.turn.home_track = (), ""
        assert isinstance(action, Move)
        return leave_track(state, party, action.to) + check_victory(state)
    if getattr(action, "up_to", False):  # DLR-MOV-05: the exact count is asked next
        state.turn.order = action
        return []
    if isinstance(action, Play):  # DLX-SPC-TEL: the card is played; where it sends is asked next
        _remove_card(state, p, "teleport")
        state.spell_deck = state.spell_deck.discard("teleport")
        state.turn.teleport_card = True
        return [Event("card", {"player": p, "card": "teleport"}, f"player {p} plays Teleport")]
    if isinstance(action, Teleport) and state.turn.teleport_card:
        state.turn.teleport_card = False
        return _card_teleport(state, action) + check_victory(state)
    if isinstance(action, Done):
        if state.phase is Phase.REINFORCE:
            return end_turn(state)
        return next_phase(state)
    if isinstance(action, Buy):
        if action.what == "ship":
            seat.gold -= state.content.game.ship_cost
            seat.ships_to_place += 1
        else:
            seat.gold -= unit_cost(state, state.people_of(p), action.count)
            seat.to_place += action.count
        return [
            Event(
                "buy",
                {"player": p, "what": action.what, "count": action.count},
                f"player {p} buys {action.count} {action.what}",
            )
        ]
    if isinstance(action, Sail):
        return _sail(state, action)
    if isinstance(action, Board) and action.territory.startswith("track:"):
        return _party_boards(state, action)
    if isinstance(action, Board):
        ship = state.ships[action.ship]
        stay, going = split(state.spaces[action.territory], action.count, action.pieces, prefer_moved=False)
        _put(state, action.territory, stay)
        state.ships[action.ship] = replace(ship, owner=p, aboard=merge(ship.aboard, mark_moved(going)))
        return [_move_event(p, going, action.territory, f"ship {action.ship}")]
    if isinstance(action, Land):
        ship = state.ships[action.ship]
        assert ship.aboard is not None
        stay, going = split(ship.aboard, action.count, action.pieces, prefer_moved=True)
        state.ships[action.ship] = replace(ship, aboard=stay, owner=p if stay is not None else None)
        state.spaces[action.territory] = merge(
            state.spaces.get(action.territory), mark_moved(going, spent=True)
        )
        return [_move_event(p, going, f"ship {action.ship}", action.territory)]
    if isinstance(action, Teleport):
        return _teleport(state, action)
    if isinstance(action, SendParty):
        return _send_party(state, action)
    if isinstance(action, QuestMove):
        party = state.parties[(p, action.track)]
        roll = state.rng.roll(6)
        events.append(roll_event(f"player {p}'s party", [(6, roll)], purpose="quest move"))
        return (
            events + move_party(state, party, roll, entry=None, forward=action.forward) + check_victory(state)
        )
    if isinstance(action, BuyItem):
        price = state.content.items[action.item].price or 0
        seat.gold -= price
        _give_party(state, (p, action.track), items=(action.item,), shards=())
        return [
            Event("buy_item", {"player": p, "item": action.item}, f"player {p}'s party buys {action.item}")
        ]
    if isinstance(action, Attack):
        return _attack(state, action) + check_victory(state)
    if isinstance(action, Move):
        stay, going = split(state.spaces[action.frm], action.count, action.pieces, prefer_moved=False)
        _put(state, action.frm, stay)
        to_owner_before = state.owner(action.to)
        state.spaces[action.to] = merge(state.spaces.get(action.to), mark_moved(going))
        if to_owner_before is None and state.world.space(action.to).kingdom:
            state.kingdom_since[action.to] = state.clock
        return [_move_event(p, going, action.frm, action.to), *check_victory(state)]
    if isinstance(action, Charm):
        return _charm(state, action) + check_victory(state)
    if isinstance(action, Summon):
        _remove_card(state, p, action.card)
        target_owner = _target_owner(state, action.target)
        events.append(
            Event(
                "summon",
                {"player": p, "card": action.card, "target": action.target},
                f"player {p} summons an elemental against {action.target}",
            )
        )
        if (
            target_owner is not None
            and target_owner >= 0
            and "dispel_magic" in state.players[target_owner].hand
        ):
            state.questions = (
                *state.questions,
                Question("dispel", target_owner, p, card=action.card, target=action.target),
            )
            return events
        state.spell_deck = state.spell_deck.discard(action.card)
        return events + _elemental_comes(state, p, action.card, action.target) + check_victory(state)
    if isinstance(action, Ultimatum):
        state.turn.demanded = (*state.turn.demanded, action.target)
        state.questions = (*state.questions, Question("ultimatum", action.target, p, count=action.count))
        return [
            Event(
                "ultimatum",
                {"player": p, "target": action.target, "count": action.count},
                f"player {p} demands {action.count} shard(s) of player {action.target}",
            )
        ]
    if isinstance(action, Place):
        seat.to_place -= action.count
        force = state.spaces[action.territory]
        state.spaces[action.territory] = replace(force, plain=force.plain + action.count)
        return [
            Event(
                "place",
                {"player": p, "space": action.territory, "count": action.count},
                f"player {p} places {action.count} in {action.territory}",
            )
        ]
    if isinstance(action, PlaceShip):
        seat.ships_to_place -= 1
        sid = state.next_ship
        state.next_ship += 1
        state.ships[sid] = Ship(sid, None, action.zone)
        return [
            Event(
                "launch", {"player": p, "zone": action.zone}, f"player {p} launches a ship in {action.zone}"
            )
        ]
    raise AssertionError(action)


def _target_owner(state: DragonLordsState, target: str) -> int | None:
    space = state.world.space(target)
    if space.kind == "territory":
        return state.owner(target)
    ship = _enemy_ship_in(state, target, state.current)
    return None if ship is None else ship.owner


def _put(state: DragonLordsState, space: str, force: Force | None) -> None:
    if force is None:
        state.spaces.pop(space, None)
    else:
        state.spaces[space] = force


def _move_event(p: int, going: Force, frm: str, to: str) -> Event:
    text = f"player {p} moves {going.units} unit(s) from {frm} to {to}"
    return Event(
        "move",
        {"player": p, "from": frm, "to": to, "units": going.units, "pieces": [x.id for x in going.pieces]},
        text,
        visible_to=frozenset({p}),
        public_data={
            "player": p,
            "from": frm,
            "to": to,
            "units": going.units,
            "tokens": sum(1 for x in going.pieces if x.hidden),
        },
        public_text=text,
    )


def _sail(state: DragonLordsState, action: Sail) -> list[Event]:
    p = state.current
    ship = state.ships[action.ship]
    origin = ship.zone
    ship = replace(ship, zone=action.zone, sailed=True)
    state.ships[action.ship] = ship
    events = [
        Event(
            "sail",
            {"player": p, "ship": action.ship, "zone": action.zone},
            f"player {p}'s ship sails to {action.zone}",
        )
    ]
    enemy = _enemy_ship_in(state, action.zone, p)
    if enemy is not None and enemy.aboard is not None and ship.aboard is not None:
        if enemy.owner in state.turn.spared:
            return events
        return (
            events
            + start_battle(
                state,
                "naval",
                action.zone,
                ship.aboard,
                enemy.aboard,
                origins=(origin,),
                ships=(ship.id, enemy.id),
            )
            + check_victory(state)
        )
    return events


def _teleport(state: DragonLordsState, action: Teleport) -> list[Event]:
    p = state.current
    frm = _find_piece(state, action.sorcerer)
    if frm.startswith("track:"):
        key = (p, frm[6:])
        party = state.parties[key]
        stay, going = split(party.force, action.count, action.pieces, prefer_moved=False)
        if stay is None:
            state.parties.pop(key)
            _equipment_home(state, party)
        else:
            state.parties[key] = replace(party, force=stay)
    else:
        stay, going = split(state.spaces[frm], action.count, action.pieces, prefer_moved=False)
        _put(state, frm, stay)
    going = mark_moved(going)
    to = action.to
    if to.startswith("ship:"):
        sid = int(to[5:])
        ship = state.ships[sid]
        state.ships[sid] = replace(ship, aboard=merge(ship.aboard, going))
    elif to.startswith("track:"):
        key = (p, to[6:])
        party = state.parties[key]
        state.parties[key] = replace(party, force=merge(party.force, going))
    else:
        state.spaces[to] = merge(state.spaces.get(to), going)
    state.turn.teleported = (*state.turn.teleported, action.sorcerer)
    return [_move_event(p, going, frm, to)]


def _card_teleport(state: DragonLordsState, action: Teleport) -> list[Event]:
    """DLX-SPC-TEL: the sorcerer's group arrives; in an enemy territory it attacks, with nowhere to
    retreat to (it came from no adjacent space, DLR-CMB-07)."""
    p = state.current
    frm = _find_piece(state, action.sorcerer)
    stay, going = split(state.spaces[frm], action.count, action.pieces, prefer_moved=False)
    _put(state, frm, stay)
    going = mark_moved(going)
    if _attackable(state, action.to, p):
        defenders = state.spaces.pop(action.to)
        fight = start_battle(state, "land", action.to, going, defenders, origins=())
        return [_move_event(p, going, frm, action.to), *fight]
    if state.owner(action.to) is None and state.world.space(action.to).kingdom:
        state.kingdom_since[action.to] = state.clock
    state.spaces[action.to] = merge(state.spaces.get(action.to), going)
    return [_move_event(p, going, frm, action.to)]


def _find_piece(state: DragonLordsState, pid: int) -> str:
    for sid, f in state.spaces.items():
        if f.piece(pid) is not None:
            return sid
    for (_, track), party in state.parties.items():
        if party.force.piece(pid) is not None:
            return f"track:{track}"
    raise KeyError(pid)


def _send_party(state: DragonLordsState, action: SendParty) -> list[Event]:
    p = state.current
    seat = state.players[p]
    source = action.territory
    if source.startswith("ship:"):  # DLR-NAV-04: landing on the Village square from a docked ship
        entry = next(i for tr, src, i in track_entries(state, p) if tr == action.track and src == source)
        ship = state.ships[int(source[5:])]
        assert ship.aboard is not None
        stay, going = split(ship.aboard, action.count, action.pieces, prefer_moved=True)
        state.ships[ship.id] = replace(ship, aboard=stay, owner=p if stay is not None else None)
    else:
        stay, going = split(state.spaces[source], action.count, action.pieces, prefer_moved=False)
        _put(state, source, stay)
        entry = next(i for tr, _, i in track_entries_all(state, source) if tr == action.track)
    torch, pickaxe = seat.torch_home, seat.pickaxe_home  # DLR-QST-03: the equipment goes with the party
    seat.torch_home = seat.pickaxe_home = False
    party = Party(
        p, action.track, entry, mark_moved(going), torch=torch, pickaxe=pickaxe, came_from=action.territory
    )
    state.parties[(p, action.track)] = party
    state.turn.parties_sent = (*state.turn.parties_sent, action.track)
    roll = state.rng.roll(6)
    events = [
        _move_event(p, going, action.territory, f"the {action.track} Wastelands"),
        roll_event(f"player {p}'s party", [(6, roll)], purpose="quest move"),
    ]
    last = len(state.world.track_squares(action.track)) - 1
    return events + move_party(state, party, roll, entry=entry, forward=entry != last) + check_victory(state)


def track_entries_all(state: DragonLordsState, territory: str) -> list[tuple[str, str, int]]:
    out = []
    for n in state.world.space(territory).neighbours:
        sq = state.world.space(n)
        if sq.kind == "wastelands" and sq.track is not None and sq.track_index is not None:
            out.append((sq.track, territory, sq.track_index))
    return sorted(out)


def _attack(state: DragonLordsState, action: Attack) -> list[Event]:
    p = state.current
    if action.frm.startswith("ship:"):
        sid = int(action.frm[5:])
        ship = state.ships[sid]
        assert ship.aboard is not None
        stay, going = split(ship.aboard, action.count, action.pieces, prefer_moved=True)
        state.ships[sid] = replace(ship, aboard=stay, owner=p if stay is not None else None)
        origins: tuple[str, ...] = (action.frm,)
    else:
        stay, going = split(state.spaces[action.frm], action.count, action.pieces, prefer_moved=True)
        _put(state, action.frm, stay)
        origins = (action.frm,)
    going = replace(going, pieces=tuple(replace(x, moved=True) for x in going.pieces))
    defenders = state.spaces[action.to]
    del state.spaces[action.to]
    return start_battle(state, "land", action.to, going, defenders, origins=origins)


def _charm(state: DragonLordsState, action: Charm) -> list[Event]:
    """DLX-AMZ-02/03: one round in which the enemy does not strike back; hits become prisoners."""
    p = state.current
    home = state.spaces[action.frm]
    enemy = state.spaces[action.to]
    att = state.content.peoples["amazons"].attack
    charmers = [Fighter(f"u{i}", attacks=(att,)) for i in range(action.count)]
    enemy_side = side_of(state, enemy)
    result = amazons.charm_round(state.rng, charmers, enemy_side.fighters)
    events = [
        roll_event(f"player {p}'s Amazons", [(6, f) for f in result.faces], purpose="charm"),
        Event(
            "charm",
            {"player": p, "space": action.to, "prisoners": len(result.prisoners)},
            f"the Amazons charm {len(result.prisoners)} unit(s) in {action.to}",
        ),
    ]
    taken_pieces = [enemy_side.piece(int(fid[1:])) for fid in result.prisoners if fid.startswith("p")]
    for pc in taken_pieces:
        if pc is not None and pc.token == "king":
            events += eliminate(state, enemy.owner)
        if pc is not None and pc.shards:
            state.box_shards = (*state.box_shards, *pc.shards)
    prisoners = len(result.prisoners)
    moved_home = replace(
        home,
        moved=min(home.plain, home.moved + action.count),
        spent=min(home.plain, home.spent + action.count),
    )
    if result.conquered:
        stay, going = split(home, action.count, (), prefer_moved=False)
        _put(state, action.frm, stay)
        state.spaces[action.to] = replace(
            mark_moved(going, spent=True),
            prisoners=prisoners,
            prisoners_of=enemy.owner,
            captured_turn=state.players[p].turns,
        )
        events += _capture_gold(state, action.to, enemy.owner, p)
        fate = amazons.settle_prisoners(prisoners, going.units, battle_over=True, escape_route=False)
        if fate.removed:
            f = state.spaces[action.to]
            state.spaces[action.to] = replace(f, prisoners=fate.kept)
        events.append(
            Event("conquest", {"player": p, "space": action.to}, f"player {p} takes {action.to} by charm")
        )
    else:
        left = side_of(state, enemy)
        left = replace(left, fighters=result.enemies)
        after, _ = force_of(left, moved=False)
        if after is not None:
            state.spaces[action.to] = replace(
                after, pieces=tuple(replace(x, revealed=x.revealed) for x in after.pieces)
            )
        keep = min(prisoners, home.units)
        state.spaces[action.frm] = replace(
            moved_home,
            prisoners=home.prisoners + keep,
            prisoners_of=enemy.owner,
            captured_turn=state.players[p].turns,
        )
        state.turn.no_attack = (*state.turn.no_attack, action.frm)
    return events


def describe(state: DragonLordsState) -> str:
    """The board for terminals: public facts only (token counts, not which token; no hands)."""
    decision = state.pending()
    head = f"round {state.round}, player {state.current}'s turn, {state.phase.value} phase"
    lines = [f"{head}: {decision.prompt}" if decision else f"{head}: game over"]
    for p, seat in enumerate(state.players):
        status = "" if seat.alive else " (no King)"
        people = state.content.peoples[seat.people].name if seat.people else "?"
        lines.append(
            f"  player {p}: {people}{status}, {seat.gold} gold, {len(seat.hand)} spell cards, "
            f"{len(state.shards_of(p))} shards, realms {state.realms_held(p)}"
        )
    for sid, force in sorted(state.spaces.items()):
        who = "neutral" if force.owner == NEUTRAL else f"p{force.owner}"
        tokens = sum(1 for x in force.pieces if x.hidden)
        shown = [x.token for x in force.pieces if not x.hidden and x.token]
        extra = f", {tokens} hidden token(s)" if tokens else ""
        extra += f", {', '.join(t for t in shown if t)}" if shown else ""
        lines.append(f"  {state.world.space(sid).name} [{sid}]: {who} x{force.units}{extra}")
    for s in sorted(state.ships.values(), key=lambda s: s.id):
        aboard = s.aboard.units if s.aboard else 0
        lines.append(f"  ship {s.id} in {s.zone}: {'nobody' if s.owner is None else f'p{s.owner}'} x{aboard}")
    for (owner, track), party in sorted(state.parties.items()):
        square = state.world.track_squares(track)[party.square].name
        lines.append(
            f"  p{owner}'s party on {track} track at {square}: x{party.force.units}, {party.gold} gold"
        )
    return "\n".join(lines)
