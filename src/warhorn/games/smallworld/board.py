"""Small World of Warcraft boards: islands of regions, read from board sets of TOML files.

A **board set** is a folder ``boards/<set id>/`` holding ``set.toml`` (the set's
component supply and one layout per player count) and one file per island
(``<island id>.toml``: its regions with terrain, symbols and drawing polygon,
and its borders). warhorn ships two sets in ``data/boards/``:

* ``islands`` (the default): original islands designed by warhorn to the
  constraints the rulebook fixes (the real island faces are not public);
* ``classic``: the four maps of the original Small World, from public
  transcriptions, with their symbols mapped to this game's.

:func:`load_board` returns the board for a player count; :func:`check_boards`
lists every mistake in a content folder's board sets with file and key. The
format is documented in ``docs/smallworld-boards.md``.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pydantic

from warhorn.content.loader import ContentModel, ContentReport, SourcedModel, content_hash, load_model
from warhorn.engine.board_geometry import (
    geometric_borders,
    outline_problems,
    outlines_touch,
    overlap_problem,
)
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.graph import BoardGraph, Space
from warhorn.engine.rng import Rng

Terrain = Literal["field", "forest", "hill", "mountain", "swamp", "sea", "lake"]
IslandSize = Literal["large", "medium", "small"]
ISLAND_SIZES: tuple[str, ...] = ("large", "medium", "small")
#: Regions only Naga may conquer (SWW-MAP-02).
WATER: frozenset[str] = frozenset({"sea", "lake"})
LAND_TERRAINS: tuple[str, ...] = ("field", "forest", "hill", "mountain", "swamp")

#: The shipped board sets.
SHIPPED_BOARDS_DIR = Path(__file__).parent / "data" / "boards"
DEFAULT_BOARD_SET = "islands"
SET_FILE = "set.toml"

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5)


@dataclass(frozen=True)
class GameNumbers:
    """What a set of island boards takes from the game's content (one source for each fact).

    ``rounds`` and ``islands`` (sizes per player count) come from ``game.toml``, the supply of
    Murloc tokens from ``races.toml`` and of Mountains from ``game.toml`` (RB-WOW).
    """

    rounds: tuple[tuple[int, int], ...]
    islands: tuple[tuple[int, tuple[str, ...]], ...]
    murloc_tokens: int
    mountain_tokens: int
    file: str

    def rounds_for(self, players: int) -> int | None:
        return dict(self.rounds).get(players)

    def sizes_for(self, players: int) -> dict[str, int]:
        sizes = dict(self.islands).get(players, ())
        return {size: sizes.count(size) for size in ("large", "medium", "small")}


def game_numbers(content_dir: Path | None = None) -> GameNumbers:
    """The numbers of the game's content in ``content_dir`` (its own files, else the shipped ones)."""
    from warhorn.games.smallworld import content

    if content_dir is not None and any((content_dir / name).is_file() for name in content.CONTENT_FILES):
        loaded = content.load_smallworld_content(content_dir)
    else:
        loaded = content.shipped_content()
    game = loaded.game
    return GameNumbers(
        rounds=tuple(sorted((int(p), n) for p, n in game.rounds.items())),
        islands=tuple(sorted((int(p), tuple(sizes)) for p, sizes in game.islands.items())),
        murloc_tokens=loaded.murlocs.tokens,
        mountain_tokens=game.supplies.mountains,
        file=str(Path(loaded.folder) / "game.toml"),
    )


# --- runtime board ------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """One region of an island.

    ``entry``: an anchor (entry) region, where a race may enter the map (SWW-CNQ-01).
    ``murlocs``: Murloc tokens at setup; ``mountain_token``: a Mountain token at setup
    (it defends as 1); ``place_slot``: where the island's face-down artifact/legendary-place
    marker goes. ``polygon``: the outline in the island's drawing frame (x right, y down,
    within the island's ``width`` × ``height``).
    """

    id: str
    name: str
    island: str
    terrain: Terrain
    entry: bool
    cavern: bool
    magic: bool
    murlocs: int
    mountain_token: bool
    place_slot: bool
    neighbours: tuple[str, ...]
    polygon: tuple[tuple[float, float], ...]
    source: str

    @property
    def water(self) -> bool:
        """A sea or lake (SWW-MAP-02)."""
        return self.terrain in WATER


@dataclass(frozen=True)
class Island:
    """One island board; ``width`` × ``height`` is its drawing frame."""

    id: str
    name: str
    size: IslandSize
    source: str
    width: float = 1000.0
    height: float = 700.0


@dataclass(frozen=True)
class SmallWorldBoard:
    """The islands in play for one player count, their regions and the number of rounds.

    ``graph`` indexes the regions (same order as ``regions``) with their borders;
    ``content_hash`` identifies the files the board was read from.
    """

    id: str
    name: str
    islands: tuple[Island, ...]
    regions: tuple[Region, ...]
    rounds: int
    source: str
    board_set: str = DEFAULT_BOARD_SET
    players: int = 0
    content_hash: str = ""
    _graph: BoardGraph | None = field(default=None, init=False, repr=False, compare=False)
    _by_id: dict[str, Region] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {r.id: r for r in self.regions})

    @property
    def graph(self) -> BoardGraph:
        """The regions (in ``regions`` order, ``Space.kind`` = terrain) and their borders; built on use."""
        if self._graph is None:
            spaces = [Space(r.id, r.terrain, {"island": r.island}) for r in self.regions]
            edges = [(r.id, n) for r in self.regions for n in r.neighbours if r.id < n]
            object.__setattr__(self, "_graph", BoardGraph(spaces, edges))
        assert self._graph is not None
        return self._graph

    def region(self, region_id: str) -> Region:
        """The region with this id; KeyError names an unknown one."""
        try:
            return self._by_id[region_id]
        except KeyError:
            raise KeyError(f"unknown region {region_id!r} on board {self.id}") from None

    def index(self, region_id: str) -> int:
        """The region's index in ``regions`` and ``graph``."""
        self.region(region_id)
        return self.graph.index[region_id]

    def island(self, island_id: str) -> Island:
        for island in self.islands:
            if island.id == island_id:
                return island
        raise KeyError(f"unknown island {island_id!r} on board {self.id}")

    def regions_of(self, island_id: str) -> tuple[Region, ...]:
        return tuple(r for r in self.regions if r.island == island_id)

    def entry_regions(self) -> tuple[Region, ...]:
        return tuple(r for r in self.regions if r.entry)

    @property
    def murloc_total(self) -> int:
        return sum(r.murlocs for r in self.regions)

    @property
    def mountain_total(self) -> int:
        return sum(1 for r in self.regions if r.mountain_token)


# --- content models -----------------------------------------------------------------------


class RegionDef(SourcedModel):
    """A region as written in an island file (see docs/smallworld-boards.md).

    ``board_edge``: the region touches the edge of the printed board (a drawing hint:
    outlines generated from borders put these regions on the outside; no rule reads it).
    """

    id: str = pydantic.Field(min_length=1)
    name: str = pydantic.Field(min_length=1)
    terrain: Terrain
    entry: bool = False
    cavern: bool = False
    magic: bool = False
    murlocs: int = pydantic.Field(default=0, ge=0, le=5)
    mountain_token: bool = False
    place_slot: bool = False
    board_edge: bool = False
    polygon: tuple[tuple[float, float], ...]


class BorderDef(SourcedModel):
    """Two regions of one island that share a border; listed once (adjacency is symmetric).

    ``corner``: the source counts the two regions as bordering, but the drawing shows them
    meeting at a single point (a published map whose borders no flat drawing can show as
    shared edges, see the classic 5-player map).
    """

    a: str
    b: str
    corner: bool = False


class IslandFile(SourcedModel):
    """An island file: the island, its regions and its borders."""

    id: str = pydantic.Field(min_length=1)
    name: str = pydantic.Field(min_length=1)
    size: IslandSize
    width: float = pydantic.Field(gt=0, le=5000)
    height: float = pydantic.Field(gt=0, le=5000)
    borders: tuple[BorderDef, ...]
    regions: tuple[RegionDef, ...] = pydantic.Field(min_length=1)


class LayoutDef(SourcedModel):
    """The islands in play for a player count; ``rounds`` (the turn track) for a map set only."""

    players: int = pydantic.Field(ge=2, le=5)
    islands: tuple[str, ...] = pydantic.Field(min_length=1)
    rounds: int | None = pydantic.Field(default=None, ge=1, le=20)


class SetFile(SourcedModel):
    """``set.toml``: a board set's island files, component supply and layouts.

    ``kind``: ``islands`` (separate island boards combined per player count as the
    rulebook says; rounds, island sizes and token supply come from the game's content)
    or ``map`` (one board per player count, as in the classic maps, which bring their
    own rounds and supply).
    """

    id: str = pydantic.Field(min_length=1)
    name: str = pydantic.Field(min_length=1)
    kind: Literal["islands", "map"]
    murloc_tokens: int | None = pydantic.Field(default=None, ge=0)
    mountain_tokens: int | None = pydantic.Field(default=None, ge=0)
    islands: tuple[str, ...] = pydantic.Field(min_length=1)
    layouts: tuple[LayoutDef, ...] = pydantic.Field(min_length=1)


class BoardSet(ContentModel):
    """A checked board set: its set file, islands by id, and the files read."""

    folder: str
    set: SetFile
    islands: dict[str, IslandFile]
    files: tuple[str, ...]
    content_hash: str
    #: rounds per player count (from set.toml for a map set, else from the game's content)
    rounds: dict[int, int]

    def layout(self, players: int) -> LayoutDef:
        for layout in self.set.layouts:
            if layout.players == players:
                return layout
        known = ", ".join(str(lay.players) for lay in self.set.layouts)
        raise ContentError(
            str(Path(self.folder) / SET_FILE),
            "layouts",
            f"board set {self.set.id!r} has no layout for {players} players (it has {known})",
        )

    def draw_islands(self, players: int, rng: Rng) -> tuple[str, ...]:
        """Islands drawn at random for ``players``: of each size, as many as the game's table wants,
        among the set's islands of that size (as the rulebook's set-up draws the boards).

        A map set (one map per player count) has nothing to draw: its layout's map is returned.
        """
        layout = self.layout(players)
        if self.set.kind != "islands":
            return layout.islands
        wanted: Counter[str] = Counter(self.islands[i].size for i in layout.islands)
        pools = islands_by_size(self.islands, self.set.islands)
        drawn: list[str] = []
        for size in ISLAND_SIZES:
            pool = list(pools[size])
            for _ in range(wanted.get(size, 0)):
                drawn.append(pool.pop(rng.below(len(pool))))
        return tuple(drawn)

    def board(self, players: int, islands: Sequence[str] | None = None) -> SmallWorldBoard:
        """The runtime board for ``players``: the set's layout, or the ``islands`` given (a draw).

        Given islands must be islands of the set, as many of each size as the layout has.
        """
        layout = self.layout(players)
        if islands is not None and tuple(islands) != layout.islands:
            self._check_draw(players, layout, islands)
        chosen = layout.islands if islands is None else tuple(islands)
        islands_out: list[Island] = []
        regions: list[Region] = []
        for island_id in chosen:
            data = self.islands[island_id]
            islands_out.append(Island(data.id, data.name, data.size, data.source, data.width, data.height))
            neighbours: dict[str, list[str]] = {r.id: [] for r in data.regions}
            for border in data.borders:
                neighbours[border.a].append(border.b)
                neighbours[border.b].append(border.a)
            for r in data.regions:
                regions.append(
                    Region(
                        id=r.id,
                        name=r.name,
                        island=data.id,
                        terrain=r.terrain,
                        entry=r.entry,
                        cavern=r.cavern,
                        magic=r.magic,
                        murlocs=r.murlocs,
                        mountain_token=r.mountain_token,
                        place_slot=r.place_slot,
                        neighbours=tuple(sorted(neighbours[r.id])),
                        polygon=r.polygon,
                        source=r.source,
                    )
                )
        return SmallWorldBoard(
            id=f"{self.set.id}-{players}p",
            name=f"{self.set.name}, {players} players",
            islands=tuple(islands_out),
            regions=tuple(regions),
            rounds=self.rounds[players],
            source=layout.source,
            board_set=self.set.id,
            players=players,
            content_hash=self.content_hash,
        )

    def _check_draw(self, players: int, layout: LayoutDef, islands: Sequence[str]) -> None:
        where = str(Path(self.folder) / SET_FILE)
        unknown = [i for i in islands if i not in self.islands]
        if unknown:
            raise ContentError(where, "islands", f"no island {unknown[0]!r} in board set {self.set.id!r}")
        if len(set(islands)) != len(islands):
            raise ContentError(where, "islands", "an island is drawn twice")
        if self.set.kind != "islands":
            raise ContentError(where, "islands", f"board set {self.set.id!r} is a map: no islands to draw")
        got: Counter[str] = Counter(self.islands[i].size for i in islands)
        wanted: Counter[str] = Counter(self.islands[i].size for i in layout.islands)
        if got != wanted:
            raise ContentError(
                where,
                "islands",
                f"{players} players play on {_sizes(dict(wanted))} islands; the islands given are "
                f"{_sizes(dict(got))}",
            )


# --- checks -------------------------------------------------------------------------------


def _check_island(island: IslandFile, file: str, report: ContentReport) -> None:
    """Everything within one island: ids, borders, reachability, symbols, polygons, geometry."""
    ids = [r.id for r in island.regions]
    for rid, count in Counter(ids).items():
        report.check(count == 1, file, f"regions (id {rid})", f"region id {rid!r} is used {count} times")
    known = set(ids)
    pairs: set[frozenset[str]] = set()
    for n, border in enumerate(island.borders):
        key = f"borders[{n}] ({border.a} - {border.b})"
        unknown = [x for x in (border.a, border.b) if x not in known]
        if unknown:
            report.error(file, key, f"unknown region {unknown[0]!r} (not a region of island {island.id!r})")
            continue
        if border.a == border.b:
            report.error(file, key, "a region cannot border itself")
            continue
        pair = frozenset((border.a, border.b))
        if pair in pairs:
            report.error(file, key, "border listed twice (adjacency is symmetric: list each pair once)")
        pairs.add(pair)
    by_id = {r.id: r for r in island.regions}
    for n, r in enumerate(island.regions):
        key = f"regions[{n}] (id {r.id})"
        if r.terrain in WATER:
            for flag in ("murlocs", "mountain_token", "place_slot", "cavern", "magic"):
                report.check(
                    not getattr(r, flag), file, f"{key}.{flag}", f"a {r.terrain} region cannot hold {flag}"
                )
        for suffix, message in outline_problems(r.polygon, island.width, island.height, frame="island's "):
            report.error(file, key + suffix, message)
    report.check(
        any(r.place_slot for r in island.regions),
        file,
        "regions",
        "the island has no region with place_slot = true (where its artifact/place marker goes)",
    )
    report.check(any(r.entry for r in island.regions), file, "regions", "the island has no entry region")
    # every region reachable from the first one over the listed borders
    if len(known) == len(ids) and ids:
        adjacency: dict[str, set[str]] = {rid: set() for rid in ids}
        for pair in pairs:
            a, b = tuple(pair)
            adjacency[a].add(b)
            adjacency[b].add(a)
        seen = {ids[0]}
        queue = deque([ids[0]])
        while queue:
            here = queue.popleft()
            for there in adjacency[here]:
                if there not in seen:
                    seen.add(there)
                    queue.append(there)
        for n, rid in enumerate(ids):
            if rid not in seen:
                report.error(
                    file,
                    f"regions[{n}] (id {rid})",
                    f"unreachable: no chain of borders leads from {ids[0]!r} to it",
                )
    # the drawing: apart, and bordering exactly where the borders say
    if report.errors or len(known) != len(ids):
        return
    polygons = {r.id: r.polygon for r in island.regions}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            problem = overlap_problem(polygons[a], polygons[b])
            if problem:
                report.error(file, f"regions (id {a}).polygon", f"overlaps region {b!r}: {problem}")
    drawn = geometric_borders(polygons)
    for n, border in enumerate(island.borders):
        key = f"borders[{n}] ({border.a} - {border.b})"
        shared = frozenset((border.a, border.b)) in drawn
        if border.corner:
            if shared:
                report.error(file, key, "marked corner, but the two outlines share a stretch of border")
            elif not outlines_touch(polygons[border.a], polygons[border.b]):
                report.error(file, key, "marked corner, but the two outlines do not meet at any point")
        elif not shared:
            report.error(
                file,
                key,
                "the two regions' polygons share no stretch of outline (the drawing shows no border)",
            )
    for pair in sorted(drawn - pairs, key=sorted):
        a, b = sorted(pair)
        report.error(
            file,
            f"regions (id {a}).polygon",
            f"its outline shares a border with {b!r} ({by_id[b].name}) that borders does not list",
        )


def _check_set(
    board_set: SetFile, islands: dict[str, IslandFile], numbers: GameNumbers, file: str, report: ContentReport
) -> dict[int, int]:
    """Across islands: unique region ids, layouts, island sizes, marker slots and the supply.

    Returns the rounds per player count.
    """
    rounds: dict[int, int] = {}
    if board_set.kind == "islands":
        murloc_supply, mountain_supply = numbers.murloc_tokens, numbers.mountain_tokens
        supply_from = "the game's supply (races.toml, game.toml)"
        for name in ("murloc_tokens", "mountain_tokens"):
            report.check(
                getattr(board_set, name) is None,
                file,
                name,
                "an island set takes the token supply from the game's content (races.toml, game.toml)",
            )
    else:
        for name in ("murloc_tokens", "mountain_tokens"):
            report.check(getattr(board_set, name) is not None, file, name, "a map set gives its token supply")
        murloc_supply, mountain_supply = board_set.murloc_tokens or 0, board_set.mountain_tokens or 0
        supply_from = "the set's supply"
    owner: dict[str, str] = {}
    for island_id, island in islands.items():
        for r in island.regions:
            if r.id in owner and owner[r.id] != island_id:
                report.error(
                    file, f"islands ({island_id})", f"region id {r.id!r} is also a region of {owner[r.id]!r}"
                )
            owner.setdefault(r.id, island_id)
    for island_id, count in Counter(board_set.islands).items():
        report.check(count == 1, file, "islands", f"island {island_id!r} is listed {count} times")
    for players, count in Counter(lay.players for lay in board_set.layouts).items():
        report.check(count == 1, file, "layouts", f"{count} layouts for {players} players")
    supply = (murloc_supply, mountain_supply, supply_from)
    for n, layout in enumerate(board_set.layouts):
        key = f"layouts[{n}] ({layout.players} players)"
        unknown = [i for i in layout.islands if i not in islands]
        if unknown:
            report.error(file, f"{key}.islands", f"unknown island {unknown[0]!r} (not in the set's islands)")
            continue
        for island_id, count in Counter(layout.islands).items():
            report.check(count == 1, file, f"{key}.islands", f"island {island_id!r} is used {count} times")
        used = [islands[i] for i in layout.islands]
        if board_set.kind == "islands":
            sizes: Counter[str] = Counter(i.size for i in used)
            wanted = numbers.sizes_for(layout.players)
            got = {size: sizes.get(size, 0) for size in wanted}
            report.check(
                got == wanted,
                file,
                f"{key}.islands",
                f"{layout.players} players play on {_sizes(wanted)} islands (game.toml); "
                f"this layout has {_sizes(got)}",
            )
            if layout.rounds is not None:
                report.error(
                    file,
                    f"{key}.rounds",
                    "an island set takes the rounds from the game's content (game.toml)",
                )
            game_rounds = numbers.rounds_for(layout.players)
            if game_rounds is None:
                report.error(file, key, f"game.toml gives no rounds for {layout.players} players")
            else:
                rounds[layout.players] = game_rounds
        else:
            report.check(
                len(used) == 1, file, f"{key}.islands", "a map set plays each player count on one map"
            )
            if layout.rounds is None:
                report.error(file, f"{key}.rounds", "a map set gives the rounds of each layout")
            else:
                rounds[layout.players] = layout.rounds
        _check_islands_in_play(used, layout.players, supply, "the layout", file, key, report)
    if board_set.kind == "islands" and not report.errors:
        for layout in board_set.layouts:
            for draw in possible_draws(islands, numbers.sizes_for(layout.players), board_set.islands):
                key = f"islands (drawn for {layout.players} players: {', '.join(draw)})"
                used = [islands[i] for i in draw]
                before = len(report.errors)
                _check_islands_in_play(used, layout.players, supply, "this draw", file, key, report)
                if len(report.errors) > before:
                    break  # one draw that fails is enough to say so
    return rounds


def _check_islands_in_play(
    used: list[IslandFile],
    players: int,
    supply: tuple[int, int, str],
    what: str,
    file: str,
    key: str,
    report: ContentReport,
) -> None:
    """The islands of one game: one place slot per player, Murlocs and Mountains within the supply."""
    murloc_supply, mountain_supply, supply_from = supply
    regions = [r for i in used for r in i.regions]
    slots = sum(1 for r in regions if r.place_slot)
    report.check(
        slots == players,
        file,
        key,
        f"{players} players lay {players} artifact/place markers (one per island); "
        f"{what} has {slots} place slots",
    )
    murlocs = sum(r.murlocs for r in regions)
    report.check(
        murlocs <= murloc_supply,
        file,
        key,
        f"{what}'s Murloc symbols need {murlocs} tokens; {supply_from} is {murloc_supply}",
    )
    mountains = sum(1 for r in regions if r.mountain_token)
    report.check(
        mountains <= mountain_supply,
        file,
        key,
        f"{what}'s mountain symbols need {mountains} tokens; {supply_from} is {mountain_supply}",
    )


def islands_by_size(islands: Mapping[str, IslandFile], order: Sequence[str]) -> dict[str, list[str]]:
    """The set's island ids per size, in the set's order."""
    out: dict[str, list[str]] = {size: [] for size in ISLAND_SIZES}
    for island_id in order:
        if island_id in islands:
            out[islands[island_id].size].append(island_id)
    return out


def possible_draws(
    islands: Mapping[str, IslandFile], sizes: Mapping[str, int], order: Sequence[str]
) -> list[tuple[str, ...]]:
    """Every set of islands a random draw can give (``sizes``: how many of each size are wanted)."""
    pools = islands_by_size(islands, order)
    per_size = [list(itertools.combinations(pools[size], sizes.get(size, 0))) for size in ISLAND_SIZES]
    return [tuple(i for part in parts for i in part) for parts in itertools.product(*per_size)]


def _sizes(counts: dict[str, int]) -> str:
    return " + ".join(f"{n} {size}" for size, n in counts.items() if n) or "no"


def _read_set(folder: Path, numbers: GameNumbers) -> BoardSet:
    """Read and check one board set folder; ContentErrors lists every mistake."""
    report = ContentReport()
    set_path = folder / SET_FILE
    if not set_path.is_file():
        raise ContentErrors([ContentError(str(folder), "(folder)", f"a board set needs {SET_FILE}")])
    board_set = load_model(set_path, SetFile)
    islands: dict[str, IslandFile] = {}
    paths = [set_path]
    for n, island_id in enumerate(board_set.islands):
        path = folder / f"{island_id}.toml"
        if not path.is_file():
            report.error(set_path, f"islands[{n}]", f"island {island_id!r} has no file {path.name}")
            continue
        paths.append(path)
        try:
            island = load_model(path, IslandFile)
        except (ContentError, ContentErrors) as exc:
            report.absorb(exc)
            continue
        if island.id != island_id:
            report.error(path, "id", f"the file of island {island_id!r} holds island {island.id!r}")
            continue
        island_report = ContentReport()
        _check_island(island, str(path), island_report)
        report.errors.extend(island_report.errors)
        islands[island_id] = island
    report.raise_if_any()
    rounds = _check_set(board_set, islands, numbers, str(set_path), report)
    report.raise_if_any()
    return BoardSet(
        folder=str(folder),
        set=board_set,
        islands=islands,
        files=tuple(str(p) for p in paths),
        content_hash=content_hash(paths),
        rounds=rounds,
    )


def _signature(folder: Path) -> tuple[tuple[str, int, int], ...]:
    return tuple(
        (p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(folder.glob("*.toml")) if p.is_file()
    )


@functools.lru_cache(maxsize=32)
def _read_set_cached(
    folder: str, signature: tuple[tuple[str, int, int], ...], numbers: GameNumbers
) -> BoardSet:
    return _read_set(Path(folder), numbers)


def board_set_folder(board_set: str, content_dir: Path | None = None) -> Path:
    """Where ``board_set`` is read from: ``content_dir/boards/<set>`` if present, else the shipped set."""
    if content_dir is not None:
        own = content_dir / "boards" / board_set
        if own.is_dir():
            return own
    shipped = SHIPPED_BOARDS_DIR / board_set
    if shipped.is_dir():
        return shipped
    known = sorted(
        {p.name for p in SHIPPED_BOARDS_DIR.iterdir() if p.is_dir()}
        | (
            {p.name for p in (content_dir / "boards").iterdir() if p.is_dir()}
            if content_dir and (content_dir / "boards").is_dir()
            else set()
        )
    )
    raise ContentError(
        str(content_dir / "boards" if content_dir else SHIPPED_BOARDS_DIR),
        board_set,
        f"no board set {board_set!r} (known: {', '.join(known)})",
    )


def load_board_set(board_set: str = DEFAULT_BOARD_SET, content_dir: Path | None = None) -> BoardSet:
    """Read and check a whole board set (cached while its files are unchanged)."""
    folder = board_set_folder(board_set, content_dir).resolve()
    return _read_set_cached(str(folder), _signature(folder), game_numbers(content_dir))


def load_board(
    board_set: str, players: int, content_dir: Path | None = None, islands: Sequence[str] | None = None
) -> SmallWorldBoard:
    """The board for ``players`` (2-5) from ``board_set`` (``"islands"``, ``"classic"`` or a folder's own).

    ``content_dir``: a Small World content folder; its ``boards/<board_set>/`` folder, if
    present, replaces the shipped set of that name. ``islands``: the islands in play (a draw,
    :meth:`BoardSet.draw_islands`) instead of the set's layout. Raises :class:`ContentError` or
    :class:`ContentErrors` naming the file and key at fault.
    """
    return load_board_set(board_set, content_dir).board(players, islands)


def board_sets(content_dir: Path | None = None) -> tuple[str, ...]:
    """The ids of the board sets available (shipped, plus a content folder's own)."""
    names = {p.name for p in SHIPPED_BOARDS_DIR.iterdir() if (p / SET_FILE).is_file()}
    if content_dir is not None and (content_dir / "boards").is_dir():
        names |= {p.name for p in (content_dir / "boards").iterdir() if p.is_dir()}
    return tuple(sorted(names))


def check_boards(path: Path) -> list[ContentError]:
    """Every mistake in the board sets of a content folder (``path/boards/*/``); [] if it has none.

    ``path`` may also be a ``boards`` folder itself or one board set folder (holding ``set.toml``).
    """
    if (path / SET_FILE).is_file():
        folders = [path]
    else:
        root = path / "boards" if (path / "boards").is_dir() else path
        folders = (
            sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() and root.name == "boards" else []
        )
    errors: list[ContentError] = []
    if not folders:
        return errors
    content_dir = folders[0].parent.parent
    try:
        numbers = game_numbers(content_dir)
    except ContentErrors as exc:
        return list(exc.errors)
    for folder in folders:
        try:
            _read_set(folder, numbers)
        except ContentErrors as exc:
            errors.extend(exc.errors)
        except ContentError as exc:
            errors.append(exc)
    return errors
