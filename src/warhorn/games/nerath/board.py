"""The runtime board of Conquest of Nerath: a graph plus per-space facts, indexed by integers.

The board is immutable and shared by every state of a game. It is built
either by hand (tests: :func:`build_board`) or from loaded content
(:func:`board_from_content`, duck-typed on ``NerathContent``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from warhorn.engine.graph import BoardGraph, Space

#: Kingdom ids in the fixed turn order (NER-SET-01).
KINGDOM_IDS: tuple[str, ...] = ("karkoth", "vailin", "iron_circle", "nerath")
KINGDOM_NAMES: tuple[str, ...] = ("Karkoth", "Vailin", "Iron Circle", "Nerath")
#: Starting gold in turn order (NER-SET-03).
DEFAULT_START_GOLD: tuple[int, ...] = (10, 11, 12, 13)

LAND, SEA, DUNGEON = "land", "sea", "dungeon"


@dataclass(frozen=True, slots=True)
class SpaceSpec:
    """A space as given to :func:`build_board`; ``owner`` is a kingdom id or None."""

    id: str
    kind: str
    owner: str | None = None
    capital: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class GuardianTile:
    """A dungeon guardian tile (NER-DUN-03..06)."""

    id: str
    name: str
    dice: tuple[int, ...]
    first_strike: bool = False
    hero_hit_min: int = 6
    reward_gold: int = 0
    copies: int = 1


@dataclass(frozen=True, slots=True)
class CardEffect:
    """One effect primitive of a card: op name, parameters (sorted pairs) and optional window."""

    op: str
    params: tuple[tuple[str, str | int | bool], ...] = ()
    when: str | None = None

    def param(self, name: str, default: Any = None) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        return default


@dataclass(frozen=True, slots=True)
class TreasureCard:
    """A treasure card (NER-CRD-02..04): VP scored when played, a one-time power, a lasting property."""

    id: str
    name: str
    vp: int
    text: str = ""
    timing: str = "own_turn"
    power: tuple[CardEffect, ...] = ()
    property: tuple[CardEffect, ...] = ()
    copies: int = 1


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card of one kingdom's deck (NER-CRD-01)."""

    id: str
    kingdom: int
    name: str
    text: str = ""
    play_immediately: bool = False
    timing: str = "movement"
    effects: tuple[CardEffect, ...] = ()
    copies: int = 1


@dataclass(frozen=True)
class NerathBoard:
    """Spaces, borders and kingdoms, with the per-space facts rules ask for on hot paths.

    ``owner[i]``: index of the kingdom whose starting territory space ``i`` is (-1 for
    none); ``capital_of[i]``: kingdom whose capital is there (-1); ``capitals[k]``: the
    space of kingdom ``k``'s capital; ``coastal[i]``: land adjacent to a sea (NER-MAP-03).
    """

    graph: BoardGraph
    names: tuple[str, ...]
    kind: tuple[str, ...]
    owner: tuple[int, ...]
    capital_of: tuple[int, ...]
    capitals: tuple[int, ...]
    coastal: tuple[bool, ...]
    start_gold: tuple[int, ...] = DEFAULT_START_GOLD
    base_income: tuple[int, ...] = (0, 0, 0, 0)
    setup: tuple[tuple[int, int, str, int], ...] = ()
    guardians: tuple[GuardianTile, ...] = ()
    treasures: tuple[TreasureCard, ...] = ()
    events: tuple[EventCard, ...] = ()
    content_hash: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: Each space's id by index (derived from the graph).
    ids: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)
    #: The sea spaces' indices, ascending (derived from ``kind``).
    seas: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    #: The territories' (land spaces') indices, ascending (derived from ``kind``).
    lands: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    #: How many territories each kingdom starts with (derived from ``owner``).
    home_lands: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", tuple(space.id for space in self.graph.spaces))
        object.__setattr__(self, "seas", tuple(i for i, kind in enumerate(self.kind) if kind == SEA))
        lands = tuple(i for i, kind in enumerate(self.kind) if kind == LAND)
        object.__setattr__(self, "lands", lands)
        home = tuple(sum(self.owner[i] == k for i in lands) for k in range(4))
        object.__setattr__(self, "home_lands", home)

    def land_controllers(self, control: Sequence[int]) -> list[int]:
        """Who controls each territory, in :attr:`lands` order (``control``: by space index)."""
        return [control[i] for i in self.lands]

    def __len__(self) -> int:
        return len(self.kind)

    def idx(self, space_id: str) -> int:
        """The index of a space id; KeyError names the unknown id."""
        try:
            return self.graph.index[space_id]
        except KeyError:
            raise KeyError(f"unknown space {space_id!r}") from None

    def sid(self, i: int) -> str:
        return self.ids[i]

    def neighbors(self, i: int) -> tuple[int, ...]:
        return self.graph.neighbors[i]

    def is_land(self, i: int) -> bool:
        return self.kind[i] == LAND

    def is_sea(self, i: int) -> bool:
        return self.kind[i] == SEA

    def is_dungeon(self, i: int) -> bool:
        return self.kind[i] == DUNGEON

    def starting_territories(self, k: int) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o == k and self.kind[i] == LAND]

    def guardian(self, tile_id: str) -> GuardianTile:
        return self.extra["guardians"][tile_id]  # type: ignore[no-any-return]

    def treasure(self, card_id: str) -> TreasureCard:
        return self.extra["treasures"][card_id]  # type: ignore[no-any-return]

    def event(self, card_id: str) -> EventCard:
        return self.extra["events"][card_id]  # type: ignore[no-any-return]

    def guardian_tiles(self) -> list[str]:
        """One id per physical tile (copies repeated)."""
        return [g.id for g in self.guardians for _ in range(g.copies)]

    def treasure_cards(self) -> list[str]:
        return [t.id for t in self.treasures for _ in range(t.copies)]

    def event_cards(self, k: int) -> list[str]:
        return [e.id for e in self.events if e.kingdom == k for _ in range(e.copies)]


def build_board(
    spaces: Sequence[SpaceSpec],
    borders: Iterable[tuple[str, str]],
    *,
    setup: Iterable[tuple[str, str, str, int]] = (),
    start_gold: tuple[int, ...] = DEFAULT_START_GOLD,
    base_income: tuple[int, ...] | None = None,
    guardians: Iterable[GuardianTile] = (),
    treasures: Iterable[TreasureCard] = (),
    events: Iterable[EventCard] = (),
    content_hash: str = "",
) -> NerathBoard:
    """Build a board from plain specs. ``setup`` rows are (kingdom id, space id, piece, count).

    ``base_income`` defaults to each kingdom's number of starting territories (NER-SET-04).
    """
    graph = BoardGraph([Space(s.id, s.kind) for s in spaces], borders)
    kidx = {k: n for n, k in enumerate(KINGDOM_IDS)}
    kind = tuple(s.kind for s in spaces)
    for s in spaces:
        if s.kind not in (LAND, SEA, DUNGEON):
            raise ValueError(f"space {s.id!r}: unknown kind {s.kind!r}")
        if s.owner is not None and s.owner not in kidx:
            raise ValueError(f"space {s.id!r}: unknown kingdom {s.owner!r}")
    owner = tuple(kidx[s.owner] if s.owner else -1 for s in spaces)
    capital_of = tuple(kidx[s.owner] if (s.capital and s.owner) else -1 for s in spaces)
    capitals = [-1, -1, -1, -1]
    for i, k in enumerate(capital_of):
        if k >= 0:
            capitals[k] = i
    coastal = tuple(
        kind[i] == LAND and any(kind[j] == SEA for j in graph.neighbors[i]) for i in range(len(spaces))
    )
    if base_income is None:
        base_income = tuple(
            sum(1 for i, o in enumerate(owner) if o == k and kind[i] == LAND) for k in range(4)
        )
    rows = tuple((kidx[k], graph.index[sp], piece, count) for k, sp, piece, count in setup)
    guardians = tuple(guardians)
    treasures = tuple(treasures)
    events = tuple(events)
    extra: dict[str, Any] = {
        "guardians": {g.id: g for g in guardians},
        "treasures": {t.id: t for t in treasures},
        "events": {e.id: e for e in events},
    }
    return NerathBoard(
        graph=graph,
        names=tuple(s.name or s.id for s in spaces),
        kind=kind,
        owner=owner,
        capital_of=capital_of,
        capitals=tuple(capitals),
        coastal=coastal,
        start_gold=start_gold,
        base_income=base_income,
        setup=rows,
        guardians=guardians,
        treasures=treasures,
        events=events,
        content_hash=content_hash,
        extra=extra,
    )


def _effects(defs: Any) -> tuple[CardEffect, ...]:
    return tuple(CardEffect(e.op, tuple(sorted(dict(e.params).items())), e.when) for e in defs)


def board_from_content(content: Any) -> NerathBoard:
    """Turn a loaded ``NerathContent`` into the runtime board (duck-typed on its documented fields)."""
    order = {k: n for n, k in enumerate(KINGDOM_IDS)}
    for k in content.kingdoms:
        if k.id not in order:
            raise ValueError(f"content kingdom {k.id!r} is not one of {', '.join(KINGDOM_IDS)}")
    by_id = {k.id: k for k in content.kingdoms}
    capitals = {k.capital for k in content.kingdoms}
    spaces = [
        SpaceSpec(s.id, s.kind, s.kingdom, bool(s.capital) or s.id in capitals, s.name)
        for s in content.spaces
    ]
    borders = [(b.a, b.b) for b in content.borders]
    setup = [(r.kingdom, r.space, r.piece, r.count) for r in content.setup]
    guardians = [
        GuardianTile(g.id, g.name, tuple(g.dice), g.first_strike, g.hero_hit_min, g.reward_gold, g.copies)
        for g in content.guardians
    ]
    treasures = [
        TreasureCard(t.id, t.name, t.vp, t.text, t.timing, _effects(t.power), _effects(t.property), t.copies)
        for t in content.treasures
    ]
    events = [
        EventCard(
            e.id,
            order[e.kingdom],
            e.name,
            e.text,
            e.play_immediately,
            e.timing,
            _effects(e.effects),
            e.copies,
        )
        for e in content.events
    ]
    return build_board(
        spaces,
        borders,
        setup=setup,
        start_gold=tuple(by_id[k].start_gold for k in KINGDOM_IDS),
        base_income=tuple(by_id[k].base_income for k in KINGDOM_IDS),
        guardians=guardians,
        treasures=treasures,
        events=events,
        content_hash=str(content.content_hash),
    )
