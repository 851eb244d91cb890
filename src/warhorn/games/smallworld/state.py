"""The position of a Small World of Warcraft game and the game contract around it.

A position is the players (coins, active and declined race, tokens in hand and
tokens coming back from an attack), every region's contents, the combo column,
the bomb stack, the markers still in the box, the round and the stage of the
current turn. The rules that change it live in :mod:`warhorn.games.smallworld.rules`
and :mod:`warhorn.games.smallworld.scoring`; this module only holds the data and
answers the contract (view, snapshot, determinize, invariants).

Hidden information (SWW-FLW-02 and the face-down markers): each player's coin
total (a player sees only its own), the faces of the bombs on the board and in the
stack, the face-down artifact/place markers and the markers left in the box, and
the order of the banner and badge stacks below the visible column.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, ClassVar, Self, TypeVar

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.decisions import Decision, GameSpec, Results
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng
from warhorn.engine.state import GameState
from warhorn.games.smallworld.actions import CODEC
from warhorn.games.smallworld.board import WATER, Region, SmallWorldBoard
from warhorn.games.smallworld.content import SmallWorldContent

MURLOCS = "murlocs"
T = TypeVar("T")


class Stage(enum.Enum):
    """Where the current turn stands; each stage asks one player one kind of decision."""

    PICK = "pick"  # choose a combo (SWW-CMB-01)
    FORM = "form"  # Worgen: human or worgen form (SWW-RAC-WOR)
    CONQUER = "conquer"  # conquests, abandonment, decline, powers (SWW-CNQ-*, SWW-EXP-*, SWW-DCL-01)
    RECRUIT = "recruit"  # Forsaken buy tokens (SWW-RAC-FOR)
    REDEPLOY = "redeploy"  # the active player places its tokens (SWW-RDP-01)
    PLACE = "place"  # Aegis / Heart of Azeroth laid down (SWW-ART-03, SWW-ART-04)
    OBJECTIVE = "objective"  # Humans lay up to 2 Military Objectives (SWW-RAC-HUM)
    BOMB = "bomb"  # Goblins lay bombs where they choose (SWW-RAC-GOB)
    SIDE = "side"  # a neutral race at the Battleground picks a faction for the turn (SWW-LEG-01)
    DEFEND = "defend"  # an attacked player redeploys at the end of the attacker's turn (SWW-CNQ-04)
    OVER = "over"


@dataclass(frozen=True)
class Tribe:
    """A race in play with its power (``power`` is None in decline unless the power works in decline)."""

    race: str
    power: str | None
    form: str = ""  # Worgen's form this turn: "human" or "worgen"


@dataclass
class Seat:
    """One player: coins (hidden from the others), races and the units not on the board."""

    coins: int
    active: Tribe | None = None
    declined: Tribe | None = None
    hand: int = 0  # active race tokens in hand
    hand_beasts: int = 0
    hand_champion: bool = False
    returning: int = 0  # active tokens taken back after an attack, redeployed at the end of that turn
    returning_beasts: int = 0
    returning_champion: bool = False
    returning_declined: int = 0  # declined tokens moved away (Intimidating), redeployed likewise
    harmony_from: int | None = None  # the Pandaren player whose Harmony token this player holds
    picked_turn: int = -1  # the turn number in which the active race was picked


@dataclass
class Area:
    """What lies in one region."""

    owner: int | None = None  # the player whose race holds it (None: Murlocs or nobody)
    race: str | None = None  # race id, "murlocs", or None when empty
    declined: bool = False
    tokens: int = 0  # race (or Murloc) tokens
    beasts: int = 0
    champion: bool = False
    mountain: bool = False
    fort: bool = False
    wisp_wall: bool = False
    watchtower: bool = False
    objective: bool = False
    bomb_by: int | None = None  # the Goblins player who laid a face-down bomb here
    bomb_live: bool = False  # hidden: whether that bomb explodes
    markers: tuple[str, ...] = ()  # face-up artifacts and legendary places
    hidden_marker: str | None = None  # the face-down marker

    @property
    def units(self) -> int:
        """Units that occupy the region: race tokens, beasts and the champion."""
        return self.tokens + self.beasts + int(self.champion)

    @property
    def occupied(self) -> bool:
        return self.race is not None and self.units > 0

    def clear_occupants(self) -> None:
        """Empty the region of every race unit (and of what goes with them: forts, wisp walls, towers)."""
        self.owner, self.race, self.declined = None, None, False
        self.tokens = self.beasts = 0
        self.champion = self.fort = self.wisp_wall = self.watchtower = False


@dataclass
class TurnLog:
    """What happened so far in the current turn (once-per-turn abilities, bonuses, defeats)."""

    player: int
    number: int  # turns since the start (0-based), to tell a race picked this turn
    acted: bool = False  # conquered, abandoned or used a power (no decline any more)
    conquests: int = 0
    ended: bool = False  # conquests are over (final conquest, or the player stopped)
    used: list[str] = field(default_factory=list)  # once-per-turn abilities used
    intimidations: int = 0
    portals: int = 0
    kills: int = 0  # tokens of player races the Forsaken made lose
    defeated: list[tuple[int, str, bool]] = field(
        default_factory=list
    )  # (owner, race, declined) per region taken
    attacked: list[int] = field(default_factory=list)  # players whose active race was attacked
    saved: list[int] = field(default_factory=list)  # players whose Draenei Holy Light was used this turn
    to_place: list[str] = field(default_factory=list)  # Aegis / Heart still to lay down
    objectives_left: int = 0
    side: str = ""  # the faction a neutral race at the Battleground fights with this turn
    defenders: list[int] = field(default_factory=list)  # players still to redeploy tokens taken back
    declined_now: bool = False


class BoardIndex:
    """Lookups over an immutable board, shared by every state of a game."""

    def __init__(self, board: SmallWorldBoard) -> None:
        self.board = board
        self.regions: dict[str, Region] = {r.id: r for r in board.regions}
        self.order: tuple[str, ...] = tuple(r.id for r in board.regions)
        self.neighbours: dict[str, frozenset[str]] = {}
        for region in board.regions:
            self.neighbours.setdefault(region.id, frozenset())
            for other in region.neighbours:
                self.neighbours[region.id] = self.neighbours[region.id] | {other}
                self.neighbours[other] = self.neighbours.get(other, frozenset()) | {region.id}
        self.island_names = {i.id: i.name for i in board.islands}

    def water(self, rid: str) -> bool:
        return self.regions[rid].terrain in WATER

    def by_water(self, rid: str) -> bool:
        """Borders a sea or a lake (SWW-POW-FIS)."""
        return any(self.water(n) for n in self.neighbours[rid])


class SmallWorldState(GameState):
    """A Small World of Warcraft position. Rules live in :mod:`warhorn.games.smallworld.rules`."""

    spec: ClassVar[GameSpec]
    codec: ClassVar[ActionCodec] = CODEC

    def __init__(
        self,
        *,
        board: SmallWorldBoard,
        content: SmallWorldContent,
        options: dict[str, Any],
        seed: int,
        rng: Rng,
        board_ref: dict[str, Any] | None = None,
        index: BoardIndex | None = None,
    ) -> None:
        self.board = board
        self.index = index or BoardIndex(board)
        self.content = content
        self.options = dict(options)
        self.seed = seed
        self.rng = rng
        self.board_ref = board_ref  # how to load the board again (None: given inline)
        self.players: list[Seat] = []
        self.areas: dict[str, Area] = {rid: Area() for rid in self.index.order}
        self.races_stack: list[str] = []  # the column (first visible_combos) then the stack
        self.powers_stack: list[str] = []
        self.powers_discard: list[str] = []
        self.combo_coins: list[int] = []
        self.bombs: list[bool] = []  # the face-down stack, top last; True = explodes
        self.box_markers: list[str] = []  # markers not on the board (face down, unknown to all)
        self.round = 1
        self.rounds = board.rounds
        self.current = 0
        self.turn_number = 0
        self.stage = Stage.PICK
        self.turn = TurnLog(0, 0)
        #: Answers derived from the regions (who holds what, where each marker lies), kept between
        #: actions; _apply_in_place turns it off while it changes the state and empties it after.
        self._derived: dict[Any, Any] = {}
        self._caching = True

    # --- the contract -----------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def content_hash(self) -> str:
        """The content's hash, with the board's where the board carries one."""
        board_hash = getattr(self.board, "content_hash", "")
        return f"{self.content.content_hash}{board_hash}"

    @cached_property
    def visible_combos(self) -> int:
        return self.content.game.visible_combos

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.__dict__.pop("visible_combos", None)
        twin._derived = {}
        twin._caching = True
        twin.options = dict(self.options)
        twin.rng = self.rng.copy()
        twin.players = [_clone(s) for s in self.players]
        twin.areas = {rid: _clone(a) for rid, a in self.areas.items()}
        twin.races_stack = list(self.races_stack)
        twin.powers_stack = list(self.powers_stack)
        twin.powers_discard = list(self.powers_discard)
        twin.combo_coins = list(self.combo_coins)
        twin.bombs = list(self.bombs)
        twin.box_markers = list(self.box_markers)
        t = self.turn
        twin.turn = replace(
            t,
            used=list(t.used),
            defeated=list(t.defeated),
            attacked=list(t.attacked),
            saved=list(t.saved),
            to_place=list(t.to_place),
            defenders=list(t.defenders),
        )
        return twin

    def pending(self) -> Decision | None:
        from warhorn.games.smallworld.rules import pending_decision

        return pending_decision(self)

    def legal_actions(self) -> list[Action]:
        from warhorn.games.smallworld.rules import legal_actions

        return legal_actions(self)

    def why_illegal(self, action: Action) -> IllegalActionError:
        from warhorn.games.smallworld.rules import explain_illegal

        return explain_illegal(self, action)

    def is_legal(self, action: Action) -> bool:
        from warhorn.games.smallworld.rules import is_legal

        return is_legal(self, action)

    def _apply_in_place(self, action: Action) -> list[Event]:
        from warhorn.games.smallworld.rules import apply_action

        self._derived.clear()
        self._caching = False
        try:
            return apply_action(self, action)
        finally:
            self._caching = True
            self._derived.clear()

    def forget_derived(self) -> None:
        """Drop the cached answers after changing regions by hand (tests, position building)."""
        self._derived.clear()

    def results(self) -> Results | None:
        if self.stage is not Stage.OVER:
            return None
        on_board = [self.tokens_on_board(p) for p in range(self.num_players)]
        key = {p: (self.players[p].coins, on_board[p]) for p in range(self.num_players)}
        ranking: list[tuple[int, ...]] = []
        for value in sorted(set(key.values()), reverse=True):
            ranking.append(tuple(p for p in range(self.num_players) if key[p] == value))
        return Results(
            winners=frozenset(ranking[0]),
            ranking=tuple(ranking),
            scores={p: float(self.players[p].coins) for p in range(self.num_players)},
            reason="most victory coins, ties broken by race tokens on the boards (SWW-FLW-01)",
        )

    def rounds_played(self) -> int | None:
        return min(self.round, self.rounds)

    def seat_roles(self) -> list[str]:
        """Each seat's active race and power as ``"Race + Power"`` ("" before its first pick), for reports'
        win rates per race and per power (the tournament runner samples it each round)."""
        out = []
        for seat in self.players:
            tribe = seat.active
            if tribe is None:
                out.append("")
            elif tribe.power is None:
                out.append(self.race_name(tribe.race))
            else:
                out.append(f"{self.race_name(tribe.race)} + {self.content.powers[tribe.power].name}")
        return out

    # --- queries the rules and the views share ----------------------------------------
    def race_name(self, race: str | None) -> str:
        if race is None:
            return "nobody"
        if race == MURLOCS:
            return self.content.murlocs.name
        return self.content.races[race].name

    def region_name(self, rid: str) -> str:
        return self.index.regions[rid].name

    def regions_of(self, player: int, declined: bool = False) -> list[str]:
        """The regions ``player``'s active (or declined) race holds, in board order."""
        if self._caching:
            key = ("regions", player, declined)
            found = self._derived.get(key)
            if found is None:
                found = self._derived[key] = self._regions_of(player, declined)
            return list(found)
        return self._regions_of(player, declined)

    def _regions_of(self, player: int, declined: bool) -> list[str]:
        return [
            rid
            for rid, a in self.areas.items()
            if a.owner == player and a.declined == declined and a.occupied
        ]

    def tokens_on_board(self, player: int) -> int:
        """Race tokens (active and declined) of ``player`` on the boards: the tie break (SWW-FLW-01)."""
        return sum(a.tokens for a in self.areas.values() if a.owner == player)

    def tokens_of_race(self, race: str) -> int:
        """Tokens of ``race`` out of the box: on the board, in a hand or coming back."""
        total = sum(a.tokens for a in self.areas.values() if a.race == race)
        for seat in self.players:
            if seat.active is not None and seat.active.race == race:
                total += seat.hand + seat.returning
            if seat.declined is not None and seat.declined.race == race:
                total += seat.returning_declined
        return total

    def supply_of(self, race: str) -> int:
        """Tokens of ``race`` still in the box (the hard cap on extra tokens)."""
        cap = self.content.murlocs.tokens if race == MURLOCS else self.content.races[race].tokens
        return cap - self.tokens_of_race(race)

    def markers_on_board(self) -> list[str]:
        out: list[str] = []
        for a in self.areas.values():
            out.extend(a.markers)
            if a.hidden_marker is not None:
                out.append(a.hidden_marker)
        return out

    def marker_region(self, marker: str) -> str | None:
        """The region where a face-up marker lies (None: face down, in the box or gone)."""
        if self._caching:
            where = self._derived.get("markers")
            if where is None:
                where = self._derived["markers"] = {
                    m: rid for rid, a in self.areas.items() for m in a.markers
                }
            return where.get(marker)
        for rid, a in self.areas.items():
            if marker in a.markers:
                return rid
        return None

    def controller(self, rid: str) -> int | None:
        """The player whose active race holds ``rid`` (artifacts and places serve only active races)."""
        a = self.areas[rid]
        if a.occupied and a.owner is not None and not a.declined:
            return a.owner
        return None

    def controls_marker(self, player: int, marker: str) -> bool:
        rid = self.marker_region(marker)
        return rid is not None and self.controller(rid) == player

    def active_race(self, player: int) -> str | None:
        tribe = self.players[player].active
        return tribe.race if tribe else None

    def active_power(self, player: int) -> str | None:
        tribe = self.players[player].active
        return tribe.power if tribe else None

    def tribe_at(self, rid: str) -> Tribe | None:
        a = self.areas[rid]
        if a.owner is None:
            return None
        seat = self.players[a.owner]
        return seat.declined if a.declined else seat.active

    def faction_of(self, race: str | None) -> str:
        if race is None or race == MURLOCS:
            return "none"
        return self.content.races[race].faction

    def combos(self) -> list[tuple[str, str, int]]:
        n = min(self.visible_combos, len(self.races_stack), len(self.powers_stack))
        return [(self.races_stack[i], self.powers_stack[i], self.combo_coins[i]) for i in range(n)]

    # --- views ------------------------------------------------------------------------
    def _area_json(self, rid: str, a: Area, *, hidden: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "owner": a.owner,
            "race": a.race,
            "declined": a.declined,
            "tokens": a.tokens,
        }
        for name in ("beasts", "champion", "mountain", "fort", "wisp_wall", "watchtower", "objective"):
            value = getattr(a, name)
            if value:
                out[name] = value
        if a.markers:
            out["markers"] = list(a.markers)
        if a.hidden_marker is not None:
            out["face_down_marker"] = a.hidden_marker if hidden else True
        if a.bomb_by is not None:
            out["bomb"] = {"by": a.bomb_by, **({"explodes": a.bomb_live} if hidden else {})}
        return out

    def _seat_json(self, p: int, seat: Seat, *, coins: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "active": None if seat.active is None else _tribe_json(seat.active),
            "declined": None if seat.declined is None else _tribe_json(seat.declined),
            "hand": seat.hand,
            "returning": seat.returning,
            "tokens_on_board": self.tokens_on_board(p),
        }
        for name in (
            "hand_beasts",
            "hand_champion",
            "returning_beasts",
            "returning_champion",
            "returning_declined",
        ):
            value = getattr(seat, name)
            if value:
                out[name] = value
        if seat.harmony_from is not None:
            out["harmony_from"] = seat.harmony_from
        if coins:
            out["coins"] = seat.coins
        return out

    def _common_json(self, *, hidden: bool, viewer: int | None) -> dict[str, Any]:
        decision = self.pending()
        return {
            "game": "smallworld",
            "board": self.board.id,
            "round": self.round,
            "rounds": self.rounds,
            "current": self.current,
            "stage": self.stage.value,
            "pending": decision.to_json() if decision else None,
            "combos": [{"race": r, "power": p, "coins": c} for r, p, c in self.combos()],
            "players": [
                self._seat_json(p, seat, coins=hidden or viewer == p) for p, seat in enumerate(self.players)
            ],
            "regions": {rid: self._area_json(rid, a, hidden=hidden) for rid, a in self.areas.items()},
            "bombs_in_stack": len(self.bombs),
            "powers_discard": sorted(self.powers_discard),
            "turn": {
                "player": self.turn.player,
                "conquests": self.turn.conquests,
                "used": list(self.turn.used),
                "intimidations": self.turn.intimidations,
                "portals": self.turn.portals,
                "defeated": [list(d) for d in self.turn.defeated],
                "objectives_left": self.turn.objectives_left,
                "side": self.turn.side,
                "to_place": list(self.turn.to_place),
            },
        }

    def view(self, player: int | None) -> dict[str, Any]:
        out = self._common_json(hidden=False, viewer=player)
        out["viewer"] = player
        return out

    def snapshot(self) -> dict[str, Any]:
        out = self._common_json(hidden=True, viewer=None)
        out.update(
            {
                "seed": self.seed,
                "rng": self.rng.state,
                "options": self.options,
                "races_stack": list(self.races_stack),
                "powers_stack": list(self.powers_stack),
                "powers_discard_order": list(self.powers_discard),
                "combo_coins": list(self.combo_coins),
                "bombs": list(self.bombs),
                "box_markers": list(self.box_markers),
                "turn_number": self.turn_number,
                "turn_full": {f.name: _plain(getattr(self.turn, f.name)) for f in fields(self.turn)},
                "seats": [{f.name: _plain(getattr(s, f.name)) for f in fields(s)} for s in self.players],
            }
        )
        return out

    def determinize(self, player: int, rng: Rng) -> Self:
        """Resample what ``player`` cannot see (SWW-FLW-02 and the face-down pieces).

        The bombs (on the board, face down, and in the stack) are dealt again from the same
        multiset; the face-down markers are drawn again from those not seen face up; the
        stacks below the visible column are shuffled; the other players' coin totals are
        exchanged among them at random (their sum is not public either, so any consistent
        assignment will do; a permutation keeps the distribution).
        """
        twin = self.copy()
        bomb_regions = [rid for rid in twin.index.order if twin.areas[rid].bomb_by is not None]
        faces = [twin.areas[rid].bomb_live for rid in bomb_regions] + list(twin.bombs)
        rng.shuffle(faces)
        for rid in bomb_regions:
            twin.areas[rid].bomb_live = faces.pop()
        twin.bombs = faces
        slots = [rid for rid in twin.index.order if twin.areas[rid].hidden_marker is not None]
        unseen = [twin.areas[rid].hidden_marker for rid in slots] + list(twin.box_markers)
        pool = [m for m in unseen if m is not None]
        rng.shuffle(pool)
        for rid in slots:
            twin.areas[rid].hidden_marker = pool.pop()
        twin.box_markers = sorted(pool)
        k = twin.visible_combos
        for stack in (twin.races_stack, twin.powers_stack):
            tail = stack[k:]
            rng.shuffle(tail)
            stack[k:] = tail
        others = [p for p in range(twin.num_players) if p != player]
        totals = [twin.players[p].coins for p in others]
        rng.shuffle(totals)
        for p, total in zip(others, totals, strict=True):
            twin.players[p].coins = total
        return twin

    def invariants(self) -> list[str]:
        problems: list[str] = []
        for rid, a in self.areas.items():
            if min(a.tokens, a.beasts) < 0:
                problems.append(f"{rid}: negative units")
            if a.race is None and a.units:
                problems.append(f"{rid}: units without a race")
            if a.race is not None and a.units == 0:
                problems.append(f"{rid}: a race with no units")
            if a.race == MURLOCS and (a.owner is not None or not a.declined):
                problems.append(f"{rid}: Murlocs must be a declined race of nobody")
            if a.owner is not None:
                tribe = self.tribe_at(rid)
                if tribe is None or tribe.race != a.race:
                    problems.append(f"{rid}: held by {a.race} of player {a.owner}, who has no such race")
            if self.index.water(rid) and a.race not in (None, "naga"):
                problems.append(f"{rid}: a sea or lake held by {a.race} (SWW-MAP-02)")
        for p, seat in enumerate(self.players):
            if seat.coins < 0:
                problems.append(f"player {p} has {seat.coins} coins")
            if min(seat.hand, seat.returning, seat.returning_declined, seat.hand_beasts) < 0:
                problems.append(f"player {p}: negative tokens off the board")
            if (
                seat.active is not None
                and seat.declined is not None
                and seat.active.race == seat.declined.race
            ):
                problems.append(f"player {p}: one race both active and declined")
        in_play = [s.active.race for s in self.players if s.active] + [
            s.declined.race for s in self.players if s.declined
        ]
        if len(in_play) != len(set(in_play)):
            problems.append("a race is in play twice")
        if sorted(in_play + self.races_stack) != sorted(self.content.races):
            problems.append("banners lost or duplicated")
        for race in self.content.races:
            if self.supply_of(race) < 0:
                problems.append(f"more {race} tokens in play than the box holds")
        if self.supply_of(MURLOCS) < 0:
            problems.append("more Murlocs than the box holds")
        supplies = self.content.supplies
        counts = {
            "fort": supplies.forts,
            "wisp_wall": supplies.wisp_walls,
            "watchtower": supplies.watchtowers,
            "objective": supplies.military_objectives,
            "mountain": supplies.mountains,
        }
        for name, cap in counts.items():
            n = sum(1 for a in self.areas.values() if getattr(a, name))
            if n > cap:
                problems.append(f"{n} {name} markers on the boards, the box has {cap}")
        bombs = sum(1 for a in self.areas.values() if a.bomb_by is not None) + len(self.bombs)
        if bombs > supplies.bombs:
            problems.append("more bombs than the box holds")
        markers = self.markers_on_board() + self.box_markers
        known = set(self.content.artifacts) | set(self.content.places)
        if len(markers) != len(set(markers)) or not set(markers) <= known:
            problems.append("artifact/place markers lost or duplicated")
        if len(self.combo_coins) != min(self.visible_combos, len(self.races_stack), len(self.powers_stack)):
            problems.append("combo coins do not match the column")
        return problems

    def describe(self) -> str:
        """The board listing for terminals: every occupied region by island, the column, the races.

        Public facts only (no coin totals, no face-down marker or bomb identity).
        """
        decision = self.pending()
        head = f"round {self.round}/{self.rounds}, player {self.current}'s turn"
        lines = [f"{head}: {decision.prompt}" if decision else f"{head}: game over"]
        for island in self.board.islands:
            parts = []
            for rid in self.index.order:
                region = self.index.regions[rid]
                if region.island != island.id:
                    continue
                text = self._region_line(rid)
                if text:
                    parts.append(text)
            lines.append(f"  {island.name}: " + ("; ".join(parts) if parts else "empty"))
        combos = ", ".join(
            f"{i}:{self.content.powers[pw].name} {self.race_name(r)}" + (f" (+{c})" if c else "")
            for i, (r, pw, c) in enumerate(self.combos())
        )
        lines.append(f"  combos: {combos}")
        for p, seat in enumerate(self.players):
            active = (
                f"{self.content.powers[seat.active.power].name} {self.race_name(seat.active.race)}"
                if seat.active and seat.active.power
                else "none"
            )
            declined = self.race_name(seat.declined.race) if seat.declined else "none"
            lines.append(f"  player {p}: active {active} ({seat.hand} in hand), declined {declined}")
        return "\n".join(lines)

    def _region_line(self, rid: str) -> str:
        a = self.areas[rid]
        region = self.index.regions[rid]
        bits = []
        if a.occupied:
            who = "Murlocs" if a.owner is None else f"p{a.owner} {self.race_name(a.race)}"
            bits.append(f"{who}{' (declined)' if a.declined and a.owner is not None else ''} x{a.tokens}")
        for name, label in (
            ("beasts", "beasts"),
            ("champion", "Champion"),
            ("mountain", "Mountain"),
            ("fort", "Fort"),
            ("wisp_wall", "Wisp Wall"),
            ("watchtower", "Watch Tower"),
            ("objective", "Objective"),
        ):
            value = getattr(a, name)
            if value:
                bits.append(label if value is True else f"{value} {label}")
        bits += [self.content.marker_name(m) for m in a.markers]
        if a.hidden_marker is not None:
            bits.append("face-down marker")
        if a.bomb_by is not None:
            bits.append("bomb")
        if not bits:
            return ""
        return f"{region.name} [{rid}] " + ", ".join(bits)


def _clone(item: T) -> T:
    """A shallow copy of a Seat or an Area (their fields are numbers, strings, tuples or frozen values)."""
    twin = object.__new__(type(item))
    twin.__dict__.update(item.__dict__)
    return twin


def _tribe_json(tribe: Tribe) -> dict[str, Any]:
    out: dict[str, Any] = {"race": tribe.race, "power": tribe.power}
    if tribe.form:
        out["form"] = tribe.form
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Tribe):
        return _tribe_json(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
