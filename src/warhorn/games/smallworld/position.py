"""Positions from data: build a Small World of Warcraft state from a mapping, and write one back.

``position_from(data, content=None)`` validates ``data`` with pydantic (errors name the
key, e.g. ``regions.l1_03.race: unknown race 'orks'``) and returns a state;
``to_position(state)`` gives the JSON-able mapping back (round trip).

The mapping::

    board:    {set: "islands", players: 2}            # a shipped board (the set's layout), or
              {set: "islands", players: 2, islands: ["emberfall", "duskmire"]}  # islands drawn, or
              {inline: {id, name, rounds, islands: [...], regions: [...]}}
    players:  [{coins, active: {race, power, form}, declined: {race, power}, hand, ...}, ...]
    regions:  {region_id: {owner, race, declined, tokens, beasts, champion, mountain, fort,
               wisp_wall, watchtower, objective, bomb_by, bomb_live, markers, hidden_marker}}
    column:   {races: [...], powers: [...], coins: [...]}   # the top of the column; the rest follow
              # in content order
    current, round, turn_number, stage ("pick", "conquer", ...), start_turn (run the
    start-of-turn effects: Harmony back, bombs, beasts, troops readied), bombs, box_markers,
    turn: {used, conquests, intimidations, portals, kills, attacked, defeated, objectives_left, side}

Regions not listed are empty. The position's Murlocs and mountains are what ``regions``
says (the board's set-up symbols are not added).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import pydantic

from warhorn.engine.errors import ContentError, ContentErrors, WarhornError
from warhorn.engine.rng import Rng
from warhorn.games.smallworld.board import Island, Region, SmallWorldBoard, load_board
from warhorn.games.smallworld.content import SmallWorldContent, shipped_content
from warhorn.games.smallworld.game import SPEC
from warhorn.games.smallworld.state import MURLOCS, Area, Seat, SmallWorldState, Stage, Tribe, TurnLog

Terrain = Literal["field", "forest", "hill", "mountain", "swamp", "sea", "lake"]


class _Model(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")


class RegionSpec(_Model):
    id: str
    name: str = ""
    island: str
    terrain: Terrain
    entry: bool = False
    cavern: bool = False
    magic: bool = False
    murlocs: int = 0
    mountain_token: bool = False
    place_slot: bool = False
    neighbours: tuple[str, ...] = ()
    polygon: tuple[tuple[float, float], ...] = ()
    source: str = "original"


class IslandSpec(_Model):
    id: str
    name: str = ""
    size: Literal["large", "medium", "small"] = "small"
    source: str = "original"


class InlineBoard(_Model):
    id: str = "inline"
    name: str = "a board given inline"
    rounds: int = 10
    islands: tuple[IslandSpec, ...]
    regions: tuple[RegionSpec, ...]
    source: str = "original"


class BoardRef(_Model):
    set: str | None = None
    players: int | None = None
    islands: tuple[str, ...] | None = None  # the islands drawn (default: the set's layout)
    inline: InlineBoard | None = None

    @pydantic.model_validator(mode="after")
    def _one_kind(self) -> BoardRef:
        if (self.inline is None) == (self.set is None):
            raise ValueError("give either set (with players) or inline")
        return self


class TribeSpec(_Model):
    race: str
    power: str | None = None
    form: Literal["", "human", "worgen"] = ""


class SeatSpec(_Model):
    coins: Annotated[int, pydantic.Field(ge=0)] = 5
    active: TribeSpec | None = None
    declined: TribeSpec | None = None
    hand: Annotated[int, pydantic.Field(ge=0)] = 0
    hand_beasts: Annotated[int, pydantic.Field(ge=0)] = 0
    hand_champion: bool = False
    returning: Annotated[int, pydantic.Field(ge=0)] = 0
    returning_beasts: Annotated[int, pydantic.Field(ge=0)] = 0
    returning_champion: bool = False
    returning_declined: Annotated[int, pydantic.Field(ge=0)] = 0
    harmony_from: int | None = None
    picked_turn: int = -1


class AreaSpec(_Model):
    owner: int | None = None
    race: str | None = None
    declined: bool = False
    tokens: Annotated[int, pydantic.Field(ge=0)] = 0
    beasts: Annotated[int, pydantic.Field(ge=0)] = 0
    champion: bool = False
    mountain: bool = False
    fort: bool = False
    wisp_wall: bool = False
    watchtower: bool = False
    objective: bool = False
    bomb_by: int | None = None
    bomb_live: bool = False
    markers: tuple[str, ...] = ()
    hidden_marker: str | None = None


class ColumnSpec(_Model):
    races: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()
    coins: tuple[int, ...] = ()


class TurnSpec(_Model):
    """What happened so far in the current turn (see :class:`~warhorn.games.smallworld.state.TurnLog`)."""

    used: tuple[str, ...] = ()
    conquests: int = 0
    acted: bool = False
    ended: bool = False
    intimidations: int = 0
    portals: int = 0
    kills: int = 0
    attacked: tuple[int, ...] = ()
    defeated: tuple[tuple[int, str, bool], ...] = ()
    saved: tuple[int, ...] = ()
    to_place: tuple[str, ...] = ()
    objectives_left: int = 0
    side: Literal["", "alliance", "horde"] = ""
    defenders: tuple[int, ...] = ()
    declined_now: bool = False


class PositionSpec(_Model):
    board: BoardRef
    players: tuple[SeatSpec, ...]
    regions: dict[str, AreaSpec] = {}
    column: ColumnSpec | None = None
    current: int = 0
    round: int = 1
    rounds: int | None = None
    turn_number: int = 0
    stage: (
        Literal[
            "pick",
            "form",
            "conquer",
            "recruit",
            "redeploy",
            "place",
            "objective",
            "bomb",
            "side",
            "defend",
            "over",
        ]
        | None
    ) = None
    powers_discard: tuple[str, ...] = ()
    rng: int | None = None
    start_turn: bool = False
    bombs: tuple[bool, ...] | None = None
    box_markers: tuple[str, ...] | None = None
    turn: TurnSpec = TurnSpec()
    seed: int = 0
    options: dict[str, bool | str] = {}


def _board(spec: BoardRef) -> tuple[SmallWorldBoard, dict[str, Any] | None]:
    if spec.inline is not None:
        b = spec.inline
        regions = tuple(
            Region(
                id=r.id,
                name=r.name or r.id,
                island=r.island,
                terrain=r.terrain,
                entry=r.entry,
                cavern=r.cavern,
                magic=r.magic,
                murlocs=r.murlocs,
                mountain_token=r.mountain_token,
                place_slot=r.place_slot,
                neighbours=r.neighbours,
                polygon=r.polygon,
                source=r.source,
            )
            for r in b.regions
        )
        islands = tuple(Island(i.id, i.name or i.id, i.size, i.source) for i in b.islands)
        return SmallWorldBoard(b.id, b.name, islands, regions, b.rounds, b.source), None
    assert spec.set is not None
    players = spec.players or 2
    ref: dict[str, Any] = {"set": spec.set, "players": players}
    if spec.islands is not None:
        ref["islands"] = list(spec.islands)
    return load_board(spec.set, players, islands=spec.islands), ref


def _errors(exc: pydantic.ValidationError) -> ContentErrors:
    return ContentErrors(
        [
            ContentError("position", ".".join(str(p) for p in e["loc"]) or "(top level)", e["msg"])
            for e in exc.errors()
        ]
    )


def position_from(data: Mapping[str, Any], content: Any = None) -> SmallWorldState:
    """A state from ``data`` (see the module doc); every mistake names its key."""
    try:
        spec = PositionSpec.model_validate(dict(data))
    except pydantic.ValidationError as exc:
        raise _errors(exc) from None
    c: SmallWorldContent = content if isinstance(content, SmallWorldContent) else shipped_content()
    board, ref = _board(spec.board)
    bad: list[ContentError] = []

    def err(key: str, message: str) -> None:
        bad.append(ContentError("position", key, message))

    region_ids = {r.id for r in board.regions}
    for r in board.regions:
        for n in r.neighbours:
            if n not in region_ids:
                err(f"board.inline.regions.{r.id}.neighbours", f"unknown region {n!r}")
    n_players = len(spec.players)
    if not 2 <= n_players <= 5:
        err("players", f"2 to 5 players, got {n_players}")
    in_play: list[str] = []
    for i, seat_in in enumerate(spec.players):
        for slot in ("active", "declined"):
            tribe_in: TribeSpec | None = getattr(seat_in, slot)
            tribe = tribe_in
            if tribe is None:
                continue
            if tribe.race not in c.races:
                err(f"players[{i}].{slot}.race", f"unknown race {tribe.race!r}")
            if tribe.power is not None and tribe.power not in c.powers:
                err(f"players[{i}].{slot}.power", f"unknown power {tribe.power!r}")
            in_play.append(tribe.race)
    if len(in_play) != len(set(in_play)):
        err("players", "a race is in play twice")
    markers = set(c.artifacts) | set(c.places)
    for rid, area in spec.regions.items():
        key = f"regions.{rid}"
        if rid not in region_ids:
            err(key, f"unknown region {rid!r}")
            continue
        if area.race is not None and area.race != MURLOCS and area.race not in c.races:
            err(f"{key}.race", f"unknown race {area.race!r}")
        if area.owner is not None:
            if not 0 <= area.owner < n_players:
                err(f"{key}.owner", f"no player {area.owner}")
                continue
            owner_spec = spec.players[area.owner]
            held = owner_spec.declined if area.declined else owner_spec.active
            if held is None or held.race != area.race:
                err(
                    f"{key}.race",
                    f"player {area.owner} has no {'declined' if area.declined else 'active'} {area.race}",
                )
        elif area.race not in (None, MURLOCS):
            err(f"{key}.owner", "a player race needs its owner")
        for m in (*area.markers, *([area.hidden_marker] if area.hidden_marker else [])):
            if m not in markers:
                err(f"{key}.markers", f"unknown artifact or place {m!r}")
    if spec.column is not None:
        for i, race in enumerate(spec.column.races):
            if race not in c.races or race in in_play:
                err(f"column.races[{i}]", f"{race!r} is not a race out of play")
        for i, power in enumerate(spec.column.powers):
            if power not in c.powers:
                err(f"column.powers[{i}]", f"unknown power {power!r}")
    if not 0 <= spec.current < max(n_players, 1):
        err("current", f"no player {spec.current}")
    if bad:
        raise ContentErrors(bad)

    try:
        options = SPEC.resolve_options(
            {"players": max(2, min(5, n_players)), "board": ref["set"] if ref else "islands", **spec.options}
        )
    except WarhornError as exc:
        raise ContentErrors([ContentError("position", "options", str(exc))]) from None
    s = SmallWorldState(
        board=board, content=c, options=options, seed=spec.seed, rng=Rng(spec.seed), board_ref=ref
    )
    if spec.rounds is not None:
        s.rounds = spec.rounds
    for seat_spec in spec.players:
        seat = Seat(coins=seat_spec.coins)
        for name in (
            "hand",
            "hand_beasts",
            "hand_champion",
            "returning",
            "returning_beasts",
            "returning_champion",
            "returning_declined",
            "harmony_from",
            "picked_turn",
        ):
            setattr(seat, name, getattr(seat_spec, name))
        if seat_spec.active:
            seat.active = Tribe(seat_spec.active.race, seat_spec.active.power, seat_spec.active.form)
        if seat_spec.declined:
            seat.declined = Tribe(seat_spec.declined.race, seat_spec.declined.power)
        s.players.append(seat)
    for rid, area in spec.regions.items():
        a = Area(**{k: v for k, v in area.model_dump().items() if k not in ("markers",)})
        a.markers = tuple(area.markers)
        if a.race == MURLOCS:
            a.declined = True
        s.areas[rid] = a
    powers_in_play = {t.power for seat in s.players for t in (seat.active, seat.declined) if t and t.power}
    listed_races = list(spec.column.races) if spec.column else []
    listed_powers = list(spec.column.powers) if spec.column else []
    # The column as given, then the rest of the banners and badges (content order) below it.
    s.races_stack = listed_races + [r for r in c.races if r not in in_play and r not in listed_races]
    s.powers_stack = listed_powers + [
        p
        for p in c.powers
        if p not in powers_in_play and p not in listed_powers and p not in spec.powers_discard
    ]
    s.combo_coins = list(spec.column.coins) if spec.column and spec.column.coins else []
    from warhorn.games.smallworld.rules import begin_turn, refill_column

    refill_column(s)
    s.bombs = (
        list(spec.bombs)
        if spec.bombs is not None
        else [i < c.supplies.exploding_bombs for i in range(c.supplies.bombs)]
    )
    on_board = set(s.markers_on_board())
    s.box_markers = sorted(spec.box_markers) if spec.box_markers is not None else sorted(markers - on_board)
    s.current, s.round, s.turn_number = spec.current, spec.round, spec.turn_number
    if spec.start_turn:
        begin_turn(s)
    else:
        seat = s.players[s.current]
        stage = spec.stage or ("conquer" if seat.active else "pick")
        s.stage = Stage(stage)
        s.turn = TurnLog(s.current, s.turn_number)
    if not spec.start_turn:
        t = spec.turn
        turn = s.turn
        turn.conquests, turn.acted, turn.ended = t.conquests, t.acted, t.ended
        turn.intimidations, turn.portals, turn.kills = t.intimidations, t.portals, t.kills
        turn.objectives_left, turn.declined_now, turn.side = t.objectives_left, t.declined_now, t.side
        turn.used, turn.attacked, turn.saved = list(t.used), list(t.attacked), list(t.saved)
        turn.to_place, turn.defenders = list(t.to_place), list(t.defenders)
        turn.defeated = [(owner, race, declined) for owner, race, declined in t.defeated]
    s.powers_discard = list(spec.powers_discard)
    if spec.rng is not None:
        s.rng = Rng(spec.rng)
    needs = {Stage.DEFEND: ("defenders", s.turn.defenders), Stage.PLACE: ("to_place", s.turn.to_place)}
    if s.stage in needs and not needs[s.stage][1]:
        raise ContentErrors(
            [ContentError("position", f"turn.{needs[s.stage][0]}", f"stage {s.stage.value} needs it")]
        )
    problems = s.invariants()
    if problems:
        raise ContentErrors([ContentError("position", "(whole position)", p) for p in problems])
    return s


def _tribe(t: Tribe | None) -> dict[str, Any] | None:
    if t is None:
        return None
    out: dict[str, Any] = {"race": t.race, "power": t.power}
    if t.form:
        out["form"] = t.form
    return out


def to_position(state: SmallWorldState) -> dict[str, Any]:
    """The JSON-able mapping :func:`position_from` reads back to an equal position (between decisions
    of the conquest, pick or form stages)."""
    s = state
    if s.board_ref is not None:
        board: dict[str, Any] = dict(s.board_ref)
    else:
        b = s.board
        board = {
            "inline": {
                "id": b.id,
                "name": b.name,
                "rounds": b.rounds,
                "source": b.source,
                "islands": [
                    {"id": i.id, "name": i.name, "size": i.size, "source": i.source} for i in b.islands
                ],
                "regions": [
                    {
                        "id": r.id,
                        "name": r.name,
                        "island": r.island,
                        "terrain": r.terrain,
                        "entry": r.entry,
                        "cavern": r.cavern,
                        "magic": r.magic,
                        "murlocs": r.murlocs,
                        "mountain_token": r.mountain_token,
                        "place_slot": r.place_slot,
                        "neighbours": list(r.neighbours),
                        "polygon": [list(pt) for pt in r.polygon],
                        "source": r.source,
                    }
                    for r in b.regions
                ],
            }
        }
    players = []
    for seat in s.players:
        players.append(
            {
                "coins": seat.coins,
                "active": _tribe(seat.active),
                "declined": _tribe(seat.declined),
                "hand": seat.hand,
                "hand_beasts": seat.hand_beasts,
                "hand_champion": seat.hand_champion,
                "returning": seat.returning,
                "returning_beasts": seat.returning_beasts,
                "returning_champion": seat.returning_champion,
                "returning_declined": seat.returning_declined,
                "harmony_from": seat.harmony_from,
                "picked_turn": seat.picked_turn,
            }
        )
    regions = {}
    blank = Area()
    for rid, a in s.areas.items():
        if a == blank:
            continue
        regions[rid] = {
            "owner": a.owner,
            "race": a.race,
            "declined": a.declined,
            "tokens": a.tokens,
            "beasts": a.beasts,
            "champion": a.champion,
            "mountain": a.mountain,
            "fort": a.fort,
            "wisp_wall": a.wisp_wall,
            "watchtower": a.watchtower,
            "objective": a.objective,
            "bomb_by": a.bomb_by,
            "bomb_live": a.bomb_live,
            "markers": list(a.markers),
            "hidden_marker": a.hidden_marker,
        }
    stage = s.stage.value
    t = s.turn
    return {
        "board": board,
        "players": players,
        "regions": regions,
        "column": {
            "races": list(s.races_stack),
            "powers": list(s.powers_stack),
            "coins": list(s.combo_coins),
        },
        "current": s.current,
        "round": s.round,
        "rounds": s.rounds,
        "turn_number": s.turn_number,
        "stage": stage,
        "bombs": list(s.bombs),
        "box_markers": list(s.box_markers),
        "seed": s.seed,
        "options": {k: v for k, v in s.options.items() if k not in ("players", "board")},
        "powers_discard": list(s.powers_discard),
        "rng": s.rng.state,
        "turn": {
            "used": list(t.used),
            "conquests": t.conquests,
            "acted": t.acted,
            "ended": t.ended,
            "intimidations": t.intimidations,
            "portals": t.portals,
            "kills": t.kills,
            "attacked": list(t.attacked),
            "defeated": [list(d) for d in t.defeated],
            "saved": list(t.saved),
            "to_place": list(t.to_place),
            "objectives_left": t.objectives_left,
            "side": t.side,
            "defenders": list(t.defenders),
            "declined_now": t.declined_now,
        },
    }
