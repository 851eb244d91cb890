"""Positions from data: build a Quest for the DragonLords state from a mapping, and write one back.

``position_from(data, content=None)`` validates ``data`` with pydantic (errors name the key, e.g.
``spaces.gorefort.owner: player 5 does not exist``) and returns a state between two decisions
(no battle in progress); ``to_position(state)`` gives the JSON-able mapping back.

The mapping (every key optional except ``players``)::

    options:  {players: 2, victory: "short", advanced: true, ...}    # game options
    players:  [{people, gold, hand: [...], alive, to_place, ships_to_place, turns,
                torch_home, pickaxe_home}, ...]
    spaces:   {territory: {owner (-1 neutral), people, plain, moved, spent,
                pieces: [{id, token, level, spells, items, shards, revealed, moved, spent}],
                prisoners, prisoners_of, captured_turn}}
    ships:    [{id, owner, zone, aboard: {force}, sailed}]
    parties:  [{owner, track, square, force: {force}, gold, torch, pickaxe, resting, moved,
                came_from, prev}]
    monsters: {square: [monster, wounds]}       # default: the Dragon's Lair's dragon
    phase ("purchase" ... "reinforce"), current, order, round, spared, demanded, teleported,
    parties_sent, no_attack, teleport_card, spell_deck, spell_discard, quest_deck, box_shards,
    dragonlords_left, seed

A sorcerer with no ``spells`` knows its people's spells 1 and 2 (DLR-PEO-05). The spell deck,
quest deck and box shards default to what the position does not hold elsewhere, in content order
(so a test that scripts the dice also knows the next card).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pydantic

from warhorn.engine.deck import Deck
from warhorn.engine.errors import ContentError, ContentErrors, WarhornError
from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.content import DragonLordsContent, shipped_content
from warhorn.games.dragonlords.game import SPEC, _world
from warhorn.games.dragonlords.state import (
    DragonLordsState,
    Force,
    Party,
    Phase,
    Piece,
    Seat,
    Ship,
    TurnLog,
)


class _Model(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")


class PieceSpec(_Model):
    id: int | None = None
    token: str | None = None
    level: int = 0
    spells: tuple[str, ...] | None = None
    items: tuple[str, ...] = ()
    shards: tuple[str, ...] = ()
    revealed: bool = False
    moved: bool = False
    spent: bool = False


class ForceSpec(_Model):
    owner: int = 0
    people: str | None = None
    plain: int = pydantic.Field(default=0, ge=0)
    moved: int = pydantic.Field(default=0, ge=0)
    spent: int = pydantic.Field(default=0, ge=0)
    pieces: tuple[PieceSpec, ...] = ()
    prisoners: int = pydantic.Field(default=0, ge=0)
    prisoners_of: int = -1
    captured_turn: int = 0


class SeatSpec(_Model):
    people: str
    gold: int = pydantic.Field(default=25, ge=0)
    hand: tuple[str, ...] = ()
    alive: bool = True
    to_place: int = pydantic.Field(default=0, ge=0)
    ships_to_place: int = pydantic.Field(default=0, ge=0)
    turns: int = 1
    torch_home: bool = True
    pickaxe_home: bool = True


class ShipSpec(_Model):
    id: int | None = None
    owner: int | None = None
    zone: str
    aboard: ForceSpec | None = None
    sailed: bool = False


class PartySpec(_Model):
    owner: int
    track: str
    square: int = 0
    force: ForceSpec
    gold: int = 0
    torch: bool = False
    pickaxe: bool = False
    resting: bool = False
    moved: bool = False
    came_from: str = ""
    prev: int = -1


class PositionSpec(_Model):
    options: dict[str, Any] = {}
    players: tuple[SeatSpec, ...] = pydantic.Field(min_length=2, max_length=6)
    spaces: dict[str, ForceSpec] = {}
    ships: tuple[ShipSpec, ...] = ()
    parties: tuple[PartySpec, ...] = ()
    monsters: dict[str, tuple[str, int]] | None = None
    phase: str = "combat"
    current: int = 0
    order: tuple[int, ...] | None = None
    round: int = 1
    spared: tuple[int, ...] = ()
    demanded: tuple[int, ...] = ()
    teleported: tuple[int, ...] = ()
    parties_sent: tuple[str, ...] = ()
    no_attack: tuple[str, ...] = ()
    teleport_card: bool = False
    spell_deck: tuple[str, ...] | None = None
    spell_discard: tuple[str, ...] = ()
    quest_deck: tuple[str, ...] | None = None
    box_shards: tuple[str, ...] | None = None
    dragonlords_left: int | None = None
    seed: int = 0


PLAY_PHASES = {p.value: p for p in Phase if p not in (Phase.INCOME, Phase.OVER)}


def _errors(exc: pydantic.ValidationError) -> ContentErrors:
    return ContentErrors(
        [
            ContentError("position", ".".join(str(x) for x in err["loc"]) or "position", err["msg"])
            for err in exc.errors()
        ]
    )


def position_from(data: Mapping[str, Any], content: Any = None) -> DragonLordsState:
    """The state ``data`` describes; :class:`ContentErrors` names every bad key."""
    try:
        spec = PositionSpec.model_validate(dict(data))
    except pydantic.ValidationError as exc:
        raise _errors(exc) from None
    loaded = content if isinstance(content, DragonLordsContent) else shipped_content()
    options = dict(spec.options)
    options.setdefault("players", len(spec.players))
    try:
        resolved = SPEC.resolve_options(options)
    except WarhornError as exc:
        raise ContentErrors([ContentError("position", "options", str(exc))]) from None
    problems: list[ContentError] = []

    def bad(key: str, message: str) -> None:
        problems.append(ContentError("position", key, message))

    if resolved["players"] != len(spec.players):
        bad("options.players", f"{resolved['players']} players but {len(spec.players)} seats")
    world = _world(None, bool(resolved["wrap"]))
    known = {s.id for s in world.spaces}
    state = DragonLordsState(
        world=world, content=loaded, options=resolved, seed=spec.seed, rng=Rng(spec.seed)
    )
    n = len(spec.players)
    for i, seat in enumerate(spec.players):
        if seat.people not in loaded.peoples:
            bad(f"players.{i}.people", f"unknown people {seat.people!r}")
        for card in seat.hand:
            if card not in loaded.cards:
                bad(f"players.{i}.hand", f"unknown spell card {card!r}")
    if problems:
        raise ContentErrors(problems)
    state.players = [
        Seat(
            people=s.people,
            gold=s.gold,
            hand=tuple(sorted(s.hand)),
            alive=s.alive,
            to_place=s.to_place,
            ships_to_place=s.ships_to_place,
            realms=(world.realm_of_people(s.people).id,),
            turns=s.turns,
            torch_home=s.torch_home,
            pickaxe_home=s.pickaxe_home,
        )
        for s in spec.players
    ]
    used_ids: set[int] = {p.id for f in _all_force_specs(spec) for p in f.pieces if p.id is not None}
    next_id = [max(used_ids, default=-1) + 1]

    def force(key: str, f: ForceSpec) -> Force:
        if not -1 <= f.owner < n:
            bad(f"{key}.owner", f"player {f.owner} does not exist")
            return Force(0, "orcs", 1)
        people = f.people or (spec.players[f.owner].people if f.owner >= 0 else None)
        if people is None or people not in loaded.peoples:
            bad(f"{key}.people", "a neutral force needs a known people")
            people = "orcs"
        if not f.spent <= f.moved <= f.plain:
            bad(f"{key}.moved", "needs spent <= moved <= plain")
        pieces = []
        for j, p in enumerate(f.pieces):
            pid = p.id
            if pid is None:
                pid = next_id[0]
                next_id[0] += 1
            spells = p.spells
            if spells is None:
                spells = loaded.peoples[people].spells[:2] if p.token == "sorcerer" else ()
            for item in p.items:
                if item not in loaded.items:
                    bad(f"{key}.pieces.{j}.items", f"unknown item {item!r}")
            for shard in p.shards:
                if shard not in loaded.shards:
                    bad(f"{key}.pieces.{j}.shards", f"unknown shard {shard!r}")
            if p.token not in (None, "king", "sorcerer", "decoy", "hero", "dragonlord"):
                bad(f"{key}.pieces.{j}.token", f"unknown token {p.token!r}")
            pieces.append(
                Piece(pid, p.token, p.level, spells, p.items, p.shards, p.revealed, p.moved, p.spent)
            )
        return Force(
            f.owner,
            people,
            f.plain,
            f.moved,
            f.spent,
            tuple(pieces),
            f.prisoners,
            f.prisoners_of,
            f.captured_turn,
        )

    for sid, f in spec.spaces.items():
        if sid not in known or world.space(sid).kind != "territory":
            bad(f"spaces.{sid}", f"{sid!r} is not a territory of {world.id}")
            continue
        built = force(f"spaces.{sid}", f)
        if built.units <= 0:
            bad(f"spaces.{sid}", "a force needs at least one unit")
        state.spaces[sid] = built
    for i, sh in enumerate(spec.ships):
        ship_id = sh.id if sh.id is not None else i
        if sh.zone not in known or world.space(sh.zone).kind != "sea":
            bad(f"ships.{i}.zone", f"{sh.zone!r} is not a sea zone")
        aboard = force(f"ships.{i}.aboard", sh.aboard) if sh.aboard is not None else None
        state.ships[ship_id] = Ship(ship_id, aboard.owner if aboard else None, sh.zone, aboard, sh.sailed)
    tracks = {t for t, _ in world.tracks}
    for i, pa in enumerate(spec.parties):
        if pa.track not in tracks:
            bad(f"parties.{i}.track", f"unknown track {pa.track!r}")
            continue
        party_force = force(f"parties.{i}.force", pa.force.model_copy(update={"owner": pa.owner}))
        state.parties[(pa.owner, pa.track)] = Party(
            pa.owner,
            pa.track,
            pa.square,
            party_force,
            pa.gold,
            pa.torch,
            pa.pickaxe,
            pa.resting,
            pa.moved,
            pa.came_from,
            pa.prev,
        )
    if spec.monsters is None:
        for s in world.spaces:
            if s.feature == "dragons_lair":
                state.monsters[s.id] = ("lair_dragon", loaded.monsters["lair_dragon"].wounds)
    else:
        for sq, (monster, wounds) in spec.monsters.items():
            if monster not in loaded.monsters:
                bad(f"monsters.{sq}", f"unknown monster {monster!r}")
            state.monsters[sq] = (monster, wounds)
    if spec.phase not in PLAY_PHASES:
        bad("phase", f"unknown phase {spec.phase!r} (known: {', '.join(PLAY_PHASES)})")
    else:
        state.phase = PLAY_PHASES[spec.phase]
    state.current = spec.current
    state.order = spec.order or tuple(range(n))
    state.round = spec.round
    state.turn = TurnLog(
        spec.current,
        spec.spared,
        spec.demanded,
        spec.teleported,
        spec.parties_sent,
        spec.no_attack,
        teleport_card=spec.teleport_card,
    )
    held = [c for s in state.players for c in s.hand] + list(spec.spell_discard)
    if spec.spell_deck is None:
        rest = list(state.full_deck)
        for c in held:
            if c in rest:
                rest.remove(c)
        deck: tuple[str, ...] = tuple(rest)
    else:
        deck = spec.spell_deck
    state.spell_deck = Deck(deck, tuple(spec.spell_discard))
    state.quest_deck = Deck(
        spec.quest_deck if spec.quest_deck is not None else tuple(sorted(loaded.quests)), ()
    )
    on_board = {s for pc in state._all_pieces() for s in pc.shards}
    state.box_shards = (
        spec.box_shards
        if spec.box_shards is not None
        else tuple(s for s in sorted(loaded.shards) if s not in on_board)
    )
    owned_lords = sum(1 for pc in state._all_pieces() if pc.token == "dragonlord")
    state.dragonlords_left = (
        spec.dragonlords_left if spec.dragonlords_left is not None else loaded.game.dragonlords - owned_lords
    )
    state.next_piece = next_id[0]
    state.next_ship = max(state.ships, default=-1) + 1
    for k in (world.kingdom_of(r.id).id for r in world.realms):
        state.kingdom_since[k] = 0
    if problems:
        raise ContentErrors(problems)
    broken = state.invariants()
    if broken:
        raise ContentErrors([ContentError("position", "position", b) for b in broken])
    return state


def _all_force_specs(spec: PositionSpec) -> list[ForceSpec]:
    out = list(spec.spaces.values())
    out += [s.aboard for s in spec.ships if s.aboard is not None]
    out += [p.force for p in spec.parties]
    return out


def _force(f: Force) -> dict[str, Any]:
    return {
        "owner": f.owner,
        "people": f.people,
        "plain": f.plain,
        "moved": f.moved,
        "spent": f.spent,
        "pieces": [
            {
                "id": p.id,
                "token": p.token,
                "level": p.level,
                "spells": list(p.spells),
                "items": list(p.items),
                "shards": list(p.shards),
                "revealed": p.revealed,
                "moved": p.moved,
                "spent": p.spent,
            }
            for p in f.pieces
        ],
        "prisoners": f.prisoners,
        "prisoners_of": f.prisoners_of,
        "captured_turn": f.captured_turn,
    }


def to_position(state: DragonLordsState) -> dict[str, Any]:
    """The position of ``state`` (between decisions: no battle or question waiting)."""
    if state.battle is not None or state.questions or state.phase.value not in PLAY_PHASES:
        raise WarhornError(
            "a position is written between decisions of a turn (no battle, question or set-up)"
        )
    return {
        "options": dict(state.options),
        "players": [
            {
                "people": s.people,
                "gold": s.gold,
                "hand": list(s.hand),
                "alive": s.alive,
                "to_place": s.to_place,
                "ships_to_place": s.ships_to_place,
                "turns": s.turns,
                "torch_home": s.torch_home,
                "pickaxe_home": s.pickaxe_home,
            }
            for s in state.players
        ],
        "spaces": {sid: _force(f) for sid, f in sorted(state.spaces.items())},
        "ships": [
            {
                "id": s.id,
                "owner": s.owner,
                "zone": s.zone,
                "aboard": None if s.aboard is None else _force(s.aboard),
                "sailed": s.sailed,
            }
            for s in sorted(state.ships.values(), key=lambda s: s.id)
        ],
        "parties": [
            {
                "owner": p.owner,
                "track": p.track,
                "square": p.square,
                "force": _force(p.force),
                "gold": p.gold,
                "torch": p.torch,
                "pickaxe": p.pickaxe,
                "resting": p.resting,
                "moved": p.moved,
                "came_from": p.came_from,
                "prev": p.prev,
            }
            for _, p in sorted(state.parties.items())
        ],
        "monsters": {sq: [m, w] for sq, (m, w) in sorted(state.monsters.items())},
        "phase": state.phase.value,
        "current": state.current,
        "order": list(state.order),
        "round": state.round,
        "spared": list(state.turn.spared),
        "demanded": list(state.turn.demanded),
        "teleported": list(state.turn.teleported),
        "parties_sent": list(state.turn.parties_sent),
        "no_attack": list(state.turn.no_attack),
        **({"teleport_card": True} if state.turn.teleport_card else {}),
        "spell_deck": list(state.spell_deck.draw_pile),
        "spell_discard": list(state.spell_deck.discard_pile),
        "quest_deck": list(state.quest_deck.draw_pile),
        "box_shards": list(state.box_shards),
        "dragonlords_left": state.dragonlords_left,
        "seed": state.seed,
    }
