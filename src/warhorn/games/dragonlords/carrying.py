"""Which unit carries a shard or an item a player receives (DLX-SHD-02, DLR-CMB-09, DLR-SHD-01).

Any unit may carry a shard (DLX-SHD-02) and the winner of a combat puts the loser's treasures under
surviving units it chooses (DLR-CMB-09). When a player receives a shard (the spoils of a combat,
an ultimatum, an offer of mercy, a quest square, the advanced set-up) or an item (spoils), the
rules first put it under the receiver's first token-bearing unit there, or under a plain unit when
the force has none (:func:`give_to_force`); then, when the receiver has a choice, a ``carry``
question asks it which of its units carries the thing (:func:`carry_choices` lists the answers;
:func:`carry` carries one out). Where it may go:

* spoils, mercy and a quest find: a unit of the receiver's force where the thing now is (the space,
  the ship or the party);
* a shard handed over for an ultimatum and the set-up's shard (:data:`ANYWHERE`): a unit of the
  receiver's in any territory it holds.

Places are written as a territory id, ``ship:<n>`` or ``track:<id>`` (the receiver's party there).
A token-less unit left carrying nothing is a plain unit again.
"""

from __future__ import annotations

from dataclasses import replace

from warhorn.engine.events import Event
from warhorn.games.dragonlords.actions import Carry
from warhorn.games.dragonlords.state import ANYWHERE, DragonLordsState, Force, Piece, Question


def force_at(state: DragonLordsState, player: int, at: str) -> Force | None:
    """``player``'s force at a place (a territory, ``ship:<n>``, ``track:<id>``), or None."""
    if at.startswith("ship:"):
        ship = state.ships.get(int(at[5:]))
        force = ship.aboard if ship is not None else None
    elif at.startswith("track:"):
        party = state.parties.get((player, at[6:]))
        force = party.force if party is not None else None
    else:
        force = state.spaces.get(at)
    return force if force is not None and force.owner == player else None


def store_force(state: DragonLordsState, player: int, at: str, force: Force) -> None:
    if at.startswith("ship:"):
        sid = int(at[5:])
        state.ships[sid] = replace(state.ships[sid], aboard=force)
    elif at.startswith("track:"):
        key = (player, at[6:])
        state.parties[key] = replace(state.parties[key], force=force)
    else:
        state.spaces[at] = force


def place_of_piece(state: DragonLordsState, player: int, pid: int) -> str | None:
    """Where ``player``'s piece ``pid`` stands (a place as above), or None."""
    for sid, f in state.spaces.items():
        if f.owner == player and f.piece(pid) is not None:
            return sid
    for sid_n, ship in state.ships.items():
        if ship.aboard is not None and ship.aboard.owner == player and ship.aboard.piece(pid) is not None:
            return f"ship:{sid_n}"
    for (owner, track), party in state.parties.items():
        if owner == player and party.force.piece(pid) is not None:
            return f"track:{track}"
    return None


def plain_to_piece(state: DragonLordsState, force: Force, piece: Piece) -> Force:
    """One plain unit of ``force`` becomes ``piece`` (with the next piece number): a unit that has
    not moved (or is not spent) when there is one, so no unit gains a move."""
    assert force.plain > 0
    moved = force.moved == force.plain
    spent = force.spent == force.plain
    carrier = replace(piece, id=state.next_piece, moved=moved, spent=spent)
    state.next_piece += 1
    return replace(
        force,
        plain=force.plain - 1,
        moved=force.moved - moved,
        spent=force.spent - spent,
        pieces=(*force.pieces, carrier),
    )


def give_to_force(
    state: DragonLordsState, force: Force, items: tuple[str, ...], shards: tuple[str, ...]
) -> tuple[Force, int]:
    """``items`` and ``shards`` go under ``force``'s first piece, or a plain unit when it has none
    (DLX-FAQ-09: treasures go under a unit and move with it). Returns the force and the carrier's
    number (-1: nothing was given, or the force has no unit)."""
    if not items and not shards:
        return force, -1
    if force.pieces:
        first = force.pieces[0]
        first = replace(first, items=first.items + items, shards=first.shards + shards)
        return replace(force, pieces=(first, *force.pieces[1:])), first.id
    if force.plain:
        force = plain_to_piece(state, force, Piece(0, None, items=items, shards=shards))
        return force, force.pieces[-1].id
    return force, -1


def ask_carrier(
    state: DragonLordsState,
    player: int,
    carrier: int,
    *,
    shards: tuple[str, ...] = (),
    items: tuple[str, ...] = (),
    anywhere: bool = False,
) -> None:
    """Queue a ``carry`` question for each shard and item ``player`` just received under piece
    ``carrier`` (those with one choice only are dropped when they come up, :func:`drop_idle`)."""
    if player < 0 or carrier < 0:
        return
    target = ANYWHERE if anywhere else ""
    state.questions = (
        *state.questions,
        *(Question("carry", player, player, shard=s, target=target, carrier=carrier) for s in shards),
        *(Question("carry", player, player, item=i, target=target, carrier=carrier) for i in items),
    )


def carry_choices(state: DragonLordsState, q: Question) -> list[Carry]:
    """The units that may carry what ``q`` places: the carrier now first, then the receiver's
    pieces and a plain unit at each place it may go to (the place's order)."""
    player = q.player
    here = place_of_piece(state, player, q.carrier)
    if here is None:
        return []
    places = [here]
    if q.target == ANYWHERE:
        places += [t for t in state.territories_of(player) if t != here]
    out = [Carry(here, q.carrier)]
    for at in places:
        force = force_at(state, player, at)
        if force is None:
            continue
        out += [Carry(at, pc.id) for pc in force.pieces if pc.id != q.carrier]
        if force.plain and not (at == here and _only_carries(force, q)):
            out.append(Carry(at))
    return out


def _only_carries(force: Force, q: Question) -> bool:
    """The carrier is a plain unit that carries nothing but what ``q`` places: another plain unit
    there would be the same choice."""
    pc = force.piece(q.carrier)
    assert pc is not None
    things = (*pc.items, *pc.shards)
    return pc.token is None and things == ((q.shard,) if q.shard else (q.item,))


def drop_idle(state: DragonLordsState) -> None:
    """Drop the ``carry`` questions at the head of the queue that leave no choice."""
    while state.questions and state.questions[0].kind == "carry":
        if len(carry_choices(state, state.questions[0])) >= 2:
            return
        state.questions = state.questions[1:]


def carry(state: DragonLordsState, q: Question, action: Carry) -> list[Event]:
    """The receiver's answer: the shard or item goes under the unit it named."""
    player = q.player
    here = place_of_piece(state, player, q.carrier)
    assert here is not None
    what = f"the {q.item}" if q.item else "a shard"
    where = action.at if action.at.startswith(("ship:", "track:")) else state.world.space(action.at).name
    if (action.at, action.piece) != (here, q.carrier):
        source = force_at(state, player, here)
        assert source is not None
        store_force(state, player, here, _take_off(source, q))
        target = force_at(state, player, action.at)
        assert target is not None
        if action.piece is None:
            target = plain_to_piece(state, target, Piece(0, None, items=_items(q), shards=_shards(q)))
        else:
            target = replace(
                target,
                pieces=tuple(
                    replace(pc, items=pc.items + _items(q), shards=pc.shards + _shards(q))
                    if pc.id == action.piece
                    else pc
                    for pc in target.pieces
                ),
            )
        store_force(state, player, action.at, target)
    public = {"player": player, "at": action.at, **({"item": q.item} if q.item else {})}
    return [
        Event(
            "carry",
            {**public, "piece": action.piece, **({"shard": q.shard} if q.shard else {})},
            f"player {player} puts {what} under a unit in {where}",
            visible_to=frozenset({player}),
            public_data=public,
            public_text=f"player {player} puts {what} under a unit in {where}",
        )
    ]


def _items(q: Question) -> tuple[str, ...]:
    return (q.item,) if q.item else ()


def _shards(q: Question) -> tuple[str, ...]:
    return (q.shard,) if q.shard else ()


def _take_off(force: Force, q: Question) -> Force:
    """``force`` without what ``q`` places on its carrier; a token-less carrier left with nothing
    is a plain unit again."""
    pieces: list[Piece] = []
    plain, moved, spent = force.plain, force.moved, force.spent
    for pc in force.pieces:
        if pc.id == q.carrier:
            items = list(pc.items)
            if q.item:
                items.remove(q.item)
            pc = replace(pc, items=tuple(items), shards=tuple(s for s in pc.shards if s != q.shard))
            if pc.token is None and not pc.items and not pc.shards:
                plain += 1
                moved += pc.moved or pc.spent
                spent += pc.spent
                continue
        pieces.append(pc)
    return replace(force, plain=plain, moved=moved, spent=spent, pieces=tuple(pieces))
