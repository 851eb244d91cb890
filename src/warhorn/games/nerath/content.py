"""Conquest of Nerath content: board, starting setups, guardian tiles, treasures and event cards.

The content is data, read from a folder of TOML (or YAML) files:

* ``board.toml``: ``kingdoms``, ``spaces``, ``borders``, ``impassable``
* ``setup.toml``: ``setup`` (starting pieces)
* ``guardians.toml``: ``guardians`` (the 30 dungeon guardian tiles)
* ``treasures.toml``: ``treasures`` (the 30 treasure cards)
* ``events.toml``: ``events`` (20 event cards per kingdom)

warhorn ships an original set in ``data/`` next to this module (the real
board and cards are not public). A user folder (``--content PATH``) may hold
all five files or only some of them: each missing file falls back to the
shipped one (so a user may, say, transcribe the real treasures and keep the
shipped board). The folder is then checked as a whole: schema errors and
cross-reference errors each name the file and key.

The format is documented in ``docs/content-format.md``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Literal

import pydantic

from warhorn.content.loader import ContentModel, ContentReport, SourcedModel, content_hash, load_model
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.graph import BoardGraph, Space
from warhorn.engine.registry import ContentSupport
from warhorn.games.nerath.board_facts import BoardView, board_fact_problems
from warhorn.games.nerath.effects_vocabulary import PROPERTY_MOMENTS, TIMINGS, effect_problems, piece_matches
from warhorn.games.nerath.pieces import PIECES, Mobility

#: The shipped original content.
SHIPPED_CONTENT_DIR = Path(__file__).parent / "data"

#: The content files, by role, without extension (``.toml``, ``.yaml`` or ``.yml``).
CONTENT_FILES: tuple[str, ...] = ("board", "setup", "guardians", "treasures", "events")
_EXTENSIONS: tuple[str, ...] = (".toml", ".yaml", ".yml")

#: The four kingdoms in turn order (NER-SET-01); content must define exactly these.
KINGDOM_IDS: tuple[str, ...] = ("karkoth", "vailin", "iron_circle", "nerath")

#: Die sizes a guardian tile may show (the game's dice).
GUARDIAN_DICE: frozenset[int] = frozenset({6, 8, 10, 12, 20})

#: Component counts the rules fix (NER-SET-06, NER-CRD-02).
GUARDIAN_TILES = 30
TREASURE_CARDS = 30
EVENT_CARDS_PER_KINGDOM = 20
DUNGEON_ENTRANCES = 10

SpaceKind = Literal["land", "sea", "dungeon"]


# --- models -------------------------------------------------------------------------------


class KingdomDef(SourcedModel):
    """A kingdom: its capital (a land space id), starting gold (NER-SET-03) and base income (NER-SET-04)."""

    id: str
    name: str
    colour: str
    capital: str
    start_gold: int = pydantic.Field(ge=0)
    base_income: int = pydantic.Field(ge=0)


class SpaceDef(SourcedModel):
    """A board space. ``kingdom``: starting owner of a land territory (None for seas and dungeons).

    ``x``, ``y``: drawing coordinates on a 1000 × 700 canvas (a schematic map).
    """

    id: str
    name: str
    kind: SpaceKind
    kingdom: str | None = None
    capital: bool = False
    x: float = pydantic.Field(ge=0, le=1000)
    y: float = pydantic.Field(ge=0, le=700)


class BorderDef(SourcedModel):
    """One adjacency between two spaces; symmetric, listed once (NER-MAP-02)."""

    a: str
    b: str


class ImpassableDef(SourcedModel):
    """An impassable area: drawn on the map, not part of the board graph (NER-MAP-01)."""

    id: str
    name: str
    x: float = pydantic.Field(ge=0, le=1000)
    y: float = pydantic.Field(ge=0, le=700)


class SetupDef(SourcedModel):
    """``count`` pieces of type ``piece`` that ``kingdom`` places on ``space`` at setup (NER-SET-06)."""

    kingdom: str
    space: str
    piece: str
    count: int = pydantic.Field(ge=1)


class GuardianDef(SourcedModel):
    """A dungeon guardian tile (NER-DUN-03..06); ``copies`` tiles of it are in the stack."""

    id: str
    name: str
    dice: tuple[int, ...]
    first_strike: bool = False
    hero_hit_min: int = 6
    reward_gold: int = pydantic.Field(default=0, ge=0)
    copies: int = pydantic.Field(default=1, ge=1)


class EffectDef(ContentModel):
    """One effect primitive: ``op`` from the registered vocabulary and its parameters.

    ``when``: for a treasure property, the window in which it repeats (None = a
    standing modifier); for a card's power or an event, None = when played.
    """

    op: str
    params: dict[str, str | int | bool] = pydantic.Field(default_factory=dict)
    when: str | None = None


class TreasureDef(SourcedModel):
    """A treasure card (NER-CRD-02..04): VP scored when played, a one-time power, a lasting property.

    ``timing``: when the card may be played (a window from the vocabulary).
    The digest gives 1-3 VP; 0 is accepted so that a transcription of a card
    without VP loads.
    """

    id: str
    name: str
    vp: int = pydantic.Field(ge=0, le=3)
    text: str
    power: tuple[EffectDef, ...] = ()
    property: tuple[EffectDef, ...] = ()
    timing: str
    copies: int = pydantic.Field(default=1, ge=1)


class EventCardDef(SourcedModel):
    """An event card of one kingdom's deck (NER-CRD-01); ``copies`` identical cards are in the deck."""

    id: str
    kingdom: str
    name: str
    text: str
    copies: int = pydantic.Field(default=1, ge=1)
    timing: str
    play_immediately: bool = False
    effects: tuple[EffectDef, ...]


class BoardFile(ContentModel):
    kingdoms: tuple[KingdomDef, ...]
    spaces: tuple[SpaceDef, ...]
    borders: tuple[BorderDef, ...]
    impassable: tuple[ImpassableDef, ...] = ()


class SetupFile(ContentModel):
    setup: tuple[SetupDef, ...]


class GuardiansFile(ContentModel):
    guardians: tuple[GuardianDef, ...]


class TreasuresFile(ContentModel):
    treasures: tuple[TreasureDef, ...]


class EventsFile(ContentModel):
    events: tuple[EventCardDef, ...]


class NerathContent(ContentModel):
    """A complete, checked content set. Build it with :func:`load_nerath_content`.

    ``files`` maps each role (``board``, ``setup``...) to the path it was read from;
    ``content_hash`` identifies the content (saves record it).
    """

    kingdoms: tuple[KingdomDef, ...]
    spaces: tuple[SpaceDef, ...]
    borders: tuple[BorderDef, ...]
    impassable: tuple[ImpassableDef, ...]
    setup: tuple[SetupDef, ...]
    guardians: tuple[GuardianDef, ...]
    treasures: tuple[TreasureDef, ...]
    events: tuple[EventCardDef, ...]
    content_hash: str
    files: dict[str, str] = pydantic.Field(default_factory=dict)

    _graph: BoardGraph | None = pydantic.PrivateAttr(default=None)
    _spaces_by_id: dict[str, SpaceDef] | None = pydantic.PrivateAttr(default=None)
    _coastal: frozenset[str] | None = pydantic.PrivateAttr(default=None)

    def _space_table(self) -> dict[str, SpaceDef]:
        if self._spaces_by_id is None:
            self._spaces_by_id = {s.id: s for s in self.spaces}
        return self._spaces_by_id

    def space(self, space_id: str) -> SpaceDef:
        """The space with this id; KeyError names an unknown one."""
        try:
            return self._space_table()[space_id]
        except KeyError:
            raise KeyError(f"unknown space {space_id!r}") from None

    def kingdom(self, kingdom_id: str) -> KingdomDef:
        """The kingdom with this id; KeyError names an unknown one."""
        for k in self.kingdoms:
            if k.id == kingdom_id:
                return k
        raise KeyError(f"unknown kingdom {kingdom_id!r} (known: {', '.join(k.id for k in self.kingdoms)})")

    def neighbors(self, space_id: str) -> tuple[str, ...]:
        """Ids of the spaces bordering ``space_id``."""
        return self.graph().neighbors_of(space_id)

    def coastal(self, space_id: str) -> bool:
        """True for a land territory adjacent to at least one sea space (NER-MAP-03)."""
        if self._coastal is None:
            table = self._space_table()
            coast: set[str] = set()
            for border in self.borders:
                for here, there in ((border.a, border.b), (border.b, border.a)):
                    if table[here].kind == "land" and table[there].kind == "sea":
                        coast.add(here)
            self._coastal = frozenset(coast)
        self.space(space_id)
        return space_id in self._coastal

    def graph(self) -> BoardGraph:
        """The board graph: ``Space.kind`` = land/sea/dungeon; props: kingdom, capital, name, coastal."""
        if self._graph is None:
            spaces = [
                Space(
                    s.id,
                    s.kind,
                    {
                        "kingdom": s.kingdom,
                        "capital": s.capital,
                        "name": s.name,
                        "coastal": self.coastal(s.id),
                    },
                )
                for s in self.spaces
            ]
            self._graph = BoardGraph(spaces, [(b.a, b.b) for b in self.borders])
        return self._graph

    def territories_of(self, kingdom_id: str) -> tuple[str, ...]:
        """The starting land territories of a kingdom, in file order."""
        return tuple(s.id for s in self.spaces if s.kind == "land" and s.kingdom == kingdom_id)

    def setup_of(self, kingdom_id: str) -> tuple[SetupDef, ...]:
        """A kingdom's starting pieces."""
        return tuple(item for item in self.setup if item.kingdom == kingdom_id)

    def events_of(self, kingdom_id: str) -> tuple[EventCardDef, ...]:
        """A kingdom's event card definitions (each with its ``copies``)."""
        return tuple(card for card in self.events if card.kingdom == kingdom_id)

    def event_deck(self, kingdom_id: str) -> tuple[str, ...]:
        """A kingdom's event deck as card ids, one per physical card, unshuffled."""
        return tuple(card.id for card in self.events_of(kingdom_id) for _ in range(card.copies))

    def treasure_deck(self) -> tuple[str, ...]:
        """The treasure deck as card ids, one per physical card, unshuffled."""
        return tuple(card.id for card in self.treasures for _ in range(card.copies))

    def guardian_stack(self) -> tuple[str, ...]:
        """The guardian tiles as ids, one per physical tile, unshuffled."""
        return tuple(g.id for g in self.guardians for _ in range(g.copies))

    def treasure(self, card_id: str) -> TreasureDef:
        for card in self.treasures:
            if card.id == card_id:
                return card
        raise KeyError(f"unknown treasure {card_id!r}")

    def event(self, card_id: str) -> EventCardDef:
        for card in self.events:
            if card.id == card_id:
                return card
        raise KeyError(f"unknown event card {card_id!r}")

    def guardian(self, guardian_id: str) -> GuardianDef:
        for g in self.guardians:
            if g.id == guardian_id:
                return g
        raise KeyError(f"unknown guardian {guardian_id!r}")


# --- loading ------------------------------------------------------------------------------


def content_files(folder: Path | None = None) -> dict[str, Path]:
    """The file used for each role: the user folder's own, else the shipped one.

    Raises :class:`ContentErrors` if the folder does not exist, holds two
    files for one role (``board.toml`` and ``board.yaml``), or holds none of
    the content files at all (most likely the wrong folder).
    """
    chosen: dict[str, Path] = {}
    errors: list[ContentError] = []
    own = 0
    if folder is not None and not folder.is_dir():
        raise ContentErrors([ContentError(str(folder), "(folder)", "not a folder")])
    for role in CONTENT_FILES:
        found: list[Path] = []
        if folder is not None:
            found = [folder / (role + ext) for ext in _EXTENSIONS if (folder / (role + ext)).is_file()]
        if len(found) > 1:
            errors.append(
                ContentError(
                    str(folder), role, "several files for one role: " + ", ".join(p.name for p in found)
                )
            )
        if found:
            chosen[role] = found[0]
            own += 1
        else:
            chosen[role] = SHIPPED_CONTENT_DIR / (role + ".toml")
    if folder is not None and own == 0:
        names = ", ".join(role + ".toml" for role in CONTENT_FILES)
        errors.append(ContentError(str(folder), "(folder)", f"holds none of the content files ({names})"))
    if errors:
        raise ContentErrors(errors)
    return chosen


def load_nerath_content(folder: Path | None = None, *, full_game: bool = True) -> NerathContent:
    """Read, validate and cross-check a content folder (None = the shipped original content).

    ``full_game=False`` skips the component counts the rules fix (10 dungeon
    entrances, 30 guardian tiles, 30 treasures, 20 event cards per kingdom),
    for small test and example boards; every other check still applies.

    Raises :class:`ContentErrors` listing every mistake found, each with file and key.
    """
    files = content_files(folder)
    report = ContentReport()
    parts: dict[str, ContentModel] = {}
    models: dict[str, type[ContentModel]] = {
        "board": BoardFile,
        "setup": SetupFile,
        "guardians": GuardiansFile,
        "treasures": TreasuresFile,
        "events": EventsFile,
    }
    for role, model in models.items():
        try:
            parts[role] = load_model(files[role], model)
        except (ContentError, ContentErrors) as exc:
            report.absorb(exc)
    report.raise_if_any()
    board = parts["board"]
    setup = parts["setup"]
    guardians = parts["guardians"]
    treasures = parts["treasures"]
    events = parts["events"]
    assert isinstance(board, BoardFile) and isinstance(setup, SetupFile)
    assert isinstance(guardians, GuardiansFile) and isinstance(treasures, TreasuresFile)
    assert isinstance(events, EventsFile)

    _check_board(board, str(files["board"]), report, full_game)
    _check_setup(board, setup, str(files["setup"]), report)
    _check_guardians(guardians, str(files["guardians"]), report, full_game)
    _check_treasures(treasures, str(files["treasures"]), report, full_game)
    _check_events(events, str(files["events"]), report, full_game)
    report.raise_if_any()
    return NerathContent(
        kingdoms=board.kingdoms,
        spaces=board.spaces,
        borders=board.borders,
        impassable=board.impassable,
        setup=setup.setup,
        guardians=guardians.guardians,
        treasures=treasures.treasures,
        events=events.events,
        content_hash=content_hash(files.values()),
        files={role: str(path) for role, path in files.items()},
    )


def check_content_folder(folder: Path | None = None, *, full_game: bool = True) -> list[ContentError]:
    """Every mistake in a content folder (empty list = it loads); for ``warhorn content check``."""
    try:
        load_nerath_content(folder, full_game=full_game)
    except ContentErrors as exc:
        return list(exc.errors)
    except ContentError as exc:
        return [exc]
    return []


def check_nerath_content(content: NerathContent, *, full_game: bool = True) -> list[ContentError]:
    """Run every cross-reference check on content built in code (for example a small test board).

    Errors name the file each part was read from, or ``board.toml`` etc. for parts built in code.
    """
    report = ContentReport()
    files = {role: content.files.get(role, role + ".toml") for role in CONTENT_FILES}
    board = BoardFile(
        kingdoms=content.kingdoms,
        spaces=content.spaces,
        borders=content.borders,
        impassable=content.impassable,
    )
    _check_board(board, files["board"], report, full_game)
    _check_setup(board, SetupFile(setup=content.setup), files["setup"], report)
    _check_guardians(GuardiansFile(guardians=content.guardians), files["guardians"], report, full_game)
    _check_treasures(TreasuresFile(treasures=content.treasures), files["treasures"], report, full_game)
    _check_events(EventsFile(events=content.events), files["events"], report, full_game)
    return report.errors


# --- cross-reference checks ----------------------------------------------------------------


def _duplicates(ids: list[str]) -> set[str]:
    return {item for item, n in Counter(ids).items() if n > 1}


def _check_board(board: BoardFile, file: str, report: ContentReport, full_game: bool) -> None:
    kingdom_ids = [k.id for k in board.kingdoms]
    for dup in sorted(_duplicates(kingdom_ids)):
        report.error(file, f"kingdoms.{dup}", "duplicate kingdom id")
    report.check(
        sorted(set(kingdom_ids)) == sorted(KINGDOM_IDS),
        file,
        "kingdoms",
        f"the kingdoms must be exactly {', '.join(KINGDOM_IDS)} (NER-SET-01); got {', '.join(kingdom_ids)}",
    )
    all_ids = [s.id for s in board.spaces] + [i.id for i in board.impassable]
    for dup in sorted(_duplicates(all_ids)):
        report.error(
            file, f"spaces.{dup}", "duplicate space id (space and impassable ids share one namespace)"
        )
    spaces = {s.id: s for s in board.spaces}

    for i, s in enumerate(board.spaces):
        key = f"spaces[{i}] (id {s.id})"
        if s.kind == "land":
            if s.kingdom is not None:
                report.check(
                    s.kingdom in KINGDOM_IDS, file, key + ".kingdom", f"unknown kingdom {s.kingdom!r}"
                )
        else:
            report.check(
                s.kingdom is None,
                file,
                key + ".kingdom",
                f"a {s.kind} space is owned by no one (NER-MAP-01, NER-MAP-04)",
            )
            report.check(not s.capital, file, key + ".capital", f"a {s.kind} space cannot be a capital")
    dungeons = [s for s in board.spaces if s.kind == "dungeon"]
    report.check(
        not full_game or len(dungeons) == DUNGEON_ENTRANCES,
        file,
        "spaces",
        f"the board needs {DUNGEON_ENTRANCES} dungeon entrances (NER-MAP-01); found {len(dungeons)}",
    )

    for i, k in enumerate(board.kingdoms):
        key = f"kingdoms[{i}] (id {k.id}).capital"
        cap = spaces.get(k.capital)
        if cap is None:
            report.error(file, key, f"unknown space {k.capital!r}")
            continue
        report.check(
            cap.kind == "land" and cap.kingdom == k.id and cap.capital,
            file,
            key,
            f"the capital {k.capital!r} must be a land space of {k.id} marked capital = true (NER-SET-02)",
        )
        territories = sum(1 for s in board.spaces if s.kind == "land" and s.kingdom == k.id)
        report.check(
            k.base_income == territories,
            file,
            f"kingdoms[{i}] (id {k.id}).base_income",
            f"base income {k.base_income} differs from the {territories} starting territories (NER-SET-04)",
        )
    capitals = {k.capital for k in board.kingdoms}
    for i, s in enumerate(board.spaces):
        if s.capital and s.id not in capitals:
            report.error(file, f"spaces[{i}] (id {s.id}).capital", "marked capital but no kingdom names it")

    seen: dict[frozenset[str], int] = {}
    edges: list[tuple[str, str]] = []
    for i, b in enumerate(board.borders):
        key = f"borders[{i}] ({b.a} - {b.b})"
        ok = True
        for end in (b.a, b.b):
            if end not in spaces:
                hint = " (impassable areas are not part of the board, NER-MAP-01)" if end in all_ids else ""
                report.error(file, key, f"unknown space {end!r}{hint}")
                ok = False
        if b.a == b.b:
            report.error(file, key, "a space cannot border itself")
            ok = False
        pair = frozenset((b.a, b.b))
        if pair in seen:
            report.error(
                file, key, f"border listed twice (first as borders[{seen[pair]}]); list each border once"
            )
            ok = False
        else:
            seen[pair] = i
        if ok:
            edges.append((b.a, b.b))

    if spaces and not _duplicates([s.id for s in board.spaces]):
        graph = BoardGraph([Space(s.id, s.kind) for s in board.spaces], edges)
        if not graph.connected():
            reach = graph.reachable(board.spaces[0].id, len(graph))
            cut_off = sorted(set(spaces) - set(reach))
            shown = ", ".join(cut_off[:10]) + (" ..." if len(cut_off) > 10 else "")
            report.error(
                file, "borders", f"the board is not connected: cannot reach {shown} from {board.spaces[0].id}"
            )
        for s in board.spaces:
            if s.id in graph.index and not graph.neighbors[graph.index[s.id]]:
                report.error(file, f"spaces.{s.id}", "the space borders nothing")
        view = BoardView.build(((s.id, s.kind, s.kingdom) for s in board.spaces), edges)
        for fact, problem in board_fact_problems(view):
            report.error(file, f"borders (rulebook fact {fact.id})", f"{problem} ({fact.where})")


def _check_setup(board: BoardFile, setup: SetupFile, file: str, report: ContentReport) -> None:
    spaces = {s.id: s for s in board.spaces}
    neighbours: dict[str, set[str]] = {s: set() for s in spaces}
    for b in board.borders:
        if b.a in neighbours and b.b in neighbours:
            neighbours[b.a].add(b.b)
            neighbours[b.b].add(b.a)
    castles: Counter[str] = Counter()
    first_kingdom_at: dict[str, tuple[str, str]] = {}  # space -> (kingdom, key of its first setup line)
    for i, item in enumerate(setup.setup):
        key = f"setup[{i}] ({item.kingdom} {item.count} {item.piece} @ {item.space})"
        first = first_kingdom_at.setdefault(item.space, (item.kingdom, key))
        if first[0] != item.kingdom:
            report.error(
                file,
                key + ".space",
                f"{item.space!r} already holds {first[0]}'s pieces ({first[1]}): kingdoms start apart, "
                "or the first turn opens with a battle nobody declared (NER-SET-06)",
            )
        if item.kingdom not in KINGDOM_IDS:
            report.error(file, key + ".kingdom", f"unknown kingdom {item.kingdom!r}")
        stats = PIECES.get(item.piece)
        if stats is None:
            report.error(file, key + ".piece", f"unknown piece {item.piece!r} (known: {', '.join(PIECES)})")
        space = spaces.get(item.space)
        if space is None:
            report.error(file, key + ".space", f"unknown space {item.space!r}")
            continue
        if stats is None:
            continue
        if space.kind == "dungeon":
            report.error(file, key + ".space", "no piece starts on a dungeon entrance (NER-SET-06)")
        elif space.kind == "sea":
            if stats.mobility == Mobility.SEA or stats.id == "elemental":
                own_coast = any(
                    spaces[n].kind == "land" and spaces[n].kingdom == item.kingdom
                    for n in neighbours[item.space]
                )
                report.check(
                    own_coast,
                    file,
                    key + ".space",
                    f"a {stats.name} starting at sea must be next to a starting territory of {item.kingdom}",
                )
            else:
                report.error(
                    file, key + ".space", f"a {stats.name} cannot start at sea (NER-MOV-03, NER-PCS-08)"
                )
        else:
            if stats.mobility == Mobility.SEA:
                report.error(file, key + ".space", "a warship never stands on land (NER-PCS-08)")
            if space.kingdom != item.kingdom:
                report.error(
                    file,
                    key + ".space",
                    f"{item.space!r} is not a starting territory of {item.kingdom} (NER-SET-06)",
                )
            if stats.castle:
                castles[item.space] += item.count
    for space_id, n in sorted(castles.items()):
        if n > 1:
            report.error(
                file, f"setup ({space_id})", f"{n} castles on one territory; at most one (NER-PCS-05)"
            )


def _check_effects(effects: tuple[EffectDef, ...], file: str, key: str, report: ContentReport) -> None:
    for j, effect in enumerate(effects):
        for problem in effect_problems(effect.op, effect.params, effect.when):
            report.error(file, f"{key}[{j}]", problem)


def _check_discounts(effects: tuple[EffectDef, ...], file: str, key: str, report: ContentReport) -> None:
    """No card makes a piece free (NER-REI-01): its discounts together leave every piece at 1 gold or more.

    A free piece would make purchases unbounded. Discounts of several cards in
    play together are stopped at 1 gold by the engine (``rules.cards.cost``).
    """
    free = []
    for ptype, stats in PIECES.items():
        off = sum(
            int(e.params.get("amount", 1))
            for e in effects
            if e.op == "reduce_cost" and piece_matches(ptype, str(e.params.get("piece", "any")))
        )
        if stats.cost - off < 1:
            free.append(f"{ptype} {stats.cost - off}")
    report.check(
        not free,
        file,
        key,
        f"its discounts bring pieces below 1 gold ({', '.join(free)}); a free piece makes purchases "
        "unbounded (NER-REI-01)",
    )


def _check_timing(timing: str, file: str, key: str, report: ContentReport) -> None:
    report.check(
        timing in TIMINGS, file, key, f"unknown timing window {timing!r} (known: {', '.join(TIMINGS)})"
    )


def _check_guardians(guardians: GuardiansFile, file: str, report: ContentReport, full_game: bool) -> None:
    for dup in sorted(_duplicates([g.id for g in guardians.guardians])):
        report.error(file, f"guardians.{dup}", "duplicate guardian id")
    for i, g in enumerate(guardians.guardians):
        key = f"guardians[{i}] (id {g.id})"
        report.check(bool(g.dice), file, key + ".dice", "a guardian rolls at least one die (NER-DUN-03)")
        bad = [d for d in g.dice if d not in GUARDIAN_DICE]
        report.check(
            not bad,
            file,
            key + ".dice",
            f"dice {bad} are not game dice (d{', d'.join(str(d) for d in sorted(GUARDIAN_DICE))})",
        )
        report.check(
            6 <= g.hero_hit_min <= 8,
            file,
            key + ".hero_hit_min",
            f"heroes need 6, 7 or 8 to hit (NER-DUN-05); got {g.hero_hit_min}",
        )
    total = sum(g.copies for g in guardians.guardians)
    report.check(
        not full_game or total == GUARDIAN_TILES,
        file,
        "guardians",
        f"there are {GUARDIAN_TILES} guardian tiles (NER-SET-06); copies add up to {total}",
    )


def _check_treasures(treasures: TreasuresFile, file: str, report: ContentReport, full_game: bool) -> None:
    for dup in sorted(_duplicates([t.id for t in treasures.treasures])):
        report.error(file, f"treasures.{dup}", "duplicate treasure id")
    for i, t in enumerate(treasures.treasures):
        key = f"treasures[{i}] (id {t.id})"
        _check_timing(t.timing, file, key + ".timing", report)
        report.check(
            bool(t.power or t.property),
            file,
            key,
            "a treasure has a power, a property or both (NER-CRD-04)",
        )
        _check_effects(t.power, file, key + ".power", report)
        _check_effects(t.property, file, key + ".property", report)
        for j, e in enumerate(t.property):
            report.check(
                e.when is None or e.when not in TIMINGS or e.when in PROPERTY_MOMENTS,
                file,
                f"{key}.property[{j}].when",
                f"a property repeats only at {', '.join(PROPERTY_MOMENTS)} (or stands, without when); "
                f"not {e.when!r}",
            )
        _check_discounts((*t.power, *t.property), file, key, report)
    total = sum(t.copies for t in treasures.treasures)
    report.check(
        not full_game or total == TREASURE_CARDS,
        file,
        "treasures",
        f"the treasure deck has {TREASURE_CARDS} cards (NER-SET-06, NER-CRD-02); copies add up to {total}",
    )


def _check_events(events: EventsFile, file: str, report: ContentReport, full_game: bool) -> None:
    for dup in sorted(_duplicates([e.id for e in events.events])):
        report.error(file, f"events.{dup}", "duplicate event card id")
    per_kingdom: Counter[str] = Counter()
    for i, card in enumerate(events.events):
        key = f"events[{i}] (id {card.id})"
        if card.kingdom not in KINGDOM_IDS:
            report.error(file, key + ".kingdom", f"unknown kingdom {card.kingdom!r}")
        per_kingdom[card.kingdom] += card.copies
        _check_timing(card.timing, file, key + ".timing", report)
        report.check(
            card.play_immediately == (card.timing == "immediately"),
            file,
            key + ".play_immediately",
            'a card played at once when drawn has play_immediately = true and timing = "immediately"',
        )
        report.check(bool(card.effects), file, key + ".effects", "an event card needs at least one effect")
        _check_effects(card.effects, file, key + ".effects", report)
        _check_discounts(card.effects, file, key + ".effects", report)
    for kingdom in KINGDOM_IDS:
        report.check(
            not full_game or per_kingdom[kingdom] == EVENT_CARDS_PER_KINGDOM,
            file,
            f"events ({kingdom})",
            f"each kingdom's deck has {EVENT_CARDS_PER_KINGDOM} cards (NER-SET-06); "
            f"{kingdom} has {per_kingdom[kingdom]}",
        )


#: How the registry and ``warhorn content check`` recognise, check and load Nerath content folders
#: (the plugin's ``content``).
NERATH_CONTENT_SUPPORT = ContentSupport(
    marker_files=tuple(role + ext for role in CONTENT_FILES for ext in _EXTENSIONS),
    check_folder=check_content_folder,
    load_folder=load_nerath_content,
)
