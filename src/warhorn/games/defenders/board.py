"""The rules' own view of the Defenders content: a compact, index-based board.

The rules never read TOML or pydantic models directly: they work on a
:class:`DefendersBoard`, built either from the packaged content (see
:func:`warhorn.games.defenders.content_adapter.board_from_content`) or by hand in
tests. Everything here is immutable and shared between states.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warhorn.engine.graph import BoardGraph, Space

#: The four enemy colours, in a fixed order used for every per-colour list.
COLOURS: tuple[str, ...] = ("red", "green", "blue", "black")
RED, GREEN, BLUE, BLACK = 0, 1, 2, 3
#: Minion names per colour (DEF-ENM-01).
MINION_NAMES: tuple[str, ...] = ("demon", "orc", "dragonkin", "undead")
#: Roll needed on one die to kill one minion of each colour (DEF-ENM-02).
KILL_NUMBER: tuple[int, ...] = (4, 3, 5, 4)
#: Minions per colour in the box (DEF-ENM-01).
MINIONS_PER_COLOUR = 25
#: Taint crystals in the box (DEF-OVR-06).
CRYSTALS = 12
#: Magic gate tokens in the box (DEF-SET-03).
GATE_TOKENS = 5
MONARCH_CITY = "Monarch City"


def colour_index(colour: str) -> int:
    """Index of an enemy colour in :data:`COLOURS`; raises ValueError for anything else."""
    try:
        return COLOURS.index(colour)
    except ValueError:
        raise ValueError(f"{colour!r} is not an enemy colour ({', '.join(COLOURS)})") from None


@dataclass(frozen=True, slots=True)
class Location:
    name: str
    colour: str  # one of COLOURS, or "purple" for Monarch City and the inns
    inn: bool = False
    chest: bool = False
    gate_printed: bool = False


@dataclass(frozen=True, slots=True)
class GeneralDef:
    """One general's sheet. ``path`` runs from the start location to Monarch City."""

    colour: str
    name: str
    path: tuple[str, ...]
    life: int
    grave_at: int | None  # grave wound when remaining life <= this (None: only light wounds)
    hit: int  # roll needed per die to wound it
    penalty_life: str  # "2", "3", "D3", "D6"
    penalty_cards: str  # "2", "D6", "all"
    regenerates: bool = False  # Sapphire (DEF-GEN-09)
    skill: str = ""  # "demonic_curse" (DEF-GEN-07), "parry" (-08), "regeneration" (-09), "no_rerolls" (-10)

    def has_skill(self, skill: str) -> bool:
        return self.skill == skill or (skill == "regeneration" and self.regenerates)


@dataclass(frozen=True, slots=True)
class HeroDef:
    id: str
    name: str
    life: int


@dataclass(frozen=True, slots=True)
class DarknessCard:
    """A Darkness Spreads card.

    ``kind`` is ``regular``, ``all_quiet``, ``orc_patrols``, ``orc_war_party`` or
    ``monarch_city``. ``placements`` are (location, colour, count); ``general`` is a
    colour or None; ``target`` a location name or ``"next"``.
    """

    id: str
    kind: str
    placements: tuple[tuple[str, str, int], ...] = ()
    general: str | None = None
    target: str | None = None
    general_minions: int = 0

    @property
    def shows_two_locations(self) -> bool:
        locs = {p[0] for p in self.placements}
        return self.kind == "regular" and len(self.placements) == 2 and len(locs) == 2


@dataclass(frozen=True, slots=True)
class HeroCard:
    """A hero card. ``colour`` is an enemy colour or ``any``; ``special`` names a purple card's effect."""

    id: str
    name: str
    colour: str
    location: str | None = None
    band: str | None = None  # "horse", "eagle", "gate" or None
    dice: int = 1
    special: str | None = None

    @property
    def is_special(self) -> bool:
        return self.special is not None


@dataclass(frozen=True, slots=True)
class QuestDef:
    """A quest card.

    ``kind`` says how it is completed: ``roll`` (spend an action at ``location``,
    roll ``dice`` dice, succeed with any die >= ``need``; ``fail_discard`` loses the
    card on a failure), ``visit`` (spend an action at each of ``locations``),
    ``inns`` (stand on every inn), ``kill`` (defeat ``count`` minions of ``colours``;
    each colour at least once when ``count`` is 0), ``scout`` (spend an action on the
    general of ``colours[0]``'s location), ``gate_red`` (build a gate on a red location),
    ``inns`` (stand on each of ``locations``, or every inn if empty; no action).
    ``reward`` names the reward effect; ``reward_colour``/``reward_location`` parametrise it.
    """

    id: str
    name: str
    kind: str
    reward: str
    location: str | None = None
    locations: tuple[str, ...] = ()
    dice: int = 0
    need: int = 6
    fail_discard: bool = False
    colours: tuple[str, ...] = ()
    count: int = 0
    reward_colour: str | None = None
    reward_location: str | None = None


@dataclass(frozen=True, slots=True)
class DefendersBoard:
    """Immutable game content in the form the rules use."""

    locations: tuple[Location, ...]
    edges: tuple[tuple[str, str], ...]
    generals: tuple[GeneralDef, ...]
    heroes: tuple[HeroDef, ...]
    darkness: tuple[DarknessCard, ...]
    hero_cards: tuple[HeroCard, ...]
    quests: tuple[QuestDef, ...]
    content_hash: str = ""
    graph: BoardGraph = field(init=False, repr=False, compare=False)
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    location_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    monarch: int = field(init=False, repr=False, compare=False)
    cards: Mapping[str, HeroCard] = field(init=False, repr=False, compare=False)
    #: Each hero card's face (everything but its id): copies with the same face are the same choice.
    card_face: Mapping[str, tuple[object, ...]] = field(init=False, repr=False, compare=False)
    special_cards: frozenset[str] = field(init=False, repr=False, compare=False)  # purple card ids
    gate_cards: frozenset[str] = field(init=False, repr=False, compare=False)  # magic gate card ids
    ds_cards: Mapping[str, DarknessCard] = field(init=False, repr=False, compare=False)
    quest_by_id: Mapping[str, QuestDef] = field(init=False, repr=False, compare=False)
    hero_by_id: Mapping[str, HeroDef] = field(init=False, repr=False, compare=False)
    general_by_colour: tuple[GeneralDef | None, ...] = field(init=False, repr=False, compare=False)
    colour_of: tuple[int, ...] = field(init=False, repr=False, compare=False)  # -1 for purple
    #: ``within`` answers by (start, steps), computed once per board (the board never changes).
    _within: dict[tuple[int, int], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    #: Values the rules derive from the board alone (e.g. the Move actions to a set of
    #: locations), kept here because the board never changes; keys name their rule module.
    derived: dict[Hashable, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        graph = BoardGraph(
            [Space(loc.name, "inn" if loc.inn else "land") for loc in self.locations], self.edges
        )
        set_ = object.__setattr__
        set_(self, "graph", graph)
        set_(self, "index", dict(graph.index))
        set_(self, "location_names", tuple(loc.name for loc in self.locations))
        if MONARCH_CITY not in graph.index:
            raise ValueError(f"the board has no {MONARCH_CITY!r}")
        set_(self, "monarch", graph.index[MONARCH_CITY])
        set_(self, "cards", {c.id: c for c in self.hero_cards})
        set_(
            self,
            "card_face",
            {c.id: (c.name, c.colour, c.location, c.band, c.dice, c.special) for c in self.hero_cards},
        )
        set_(self, "special_cards", frozenset(c.id for c in self.hero_cards if c.is_special))
        set_(self, "gate_cards", frozenset(c.id for c in self.hero_cards if c.band == "gate"))
        set_(self, "ds_cards", {c.id: c for c in self.darkness})
        set_(self, "quest_by_id", {q.id: q for q in self.quests})
        set_(self, "hero_by_id", {h.id: h for h in self.heroes})
        by_colour: list[GeneralDef | None] = [None] * 4
        for g in self.generals:
            by_colour[colour_index(g.colour)] = g
            for step in g.path:
                if step not in graph.index:
                    raise ValueError(f"general {g.name}: path names unknown location {step!r}")
        set_(self, "general_by_colour", tuple(by_colour))
        set_(
            self,
            "colour_of",
            tuple(COLOURS.index(loc.colour) if loc.colour in COLOURS else -1 for loc in self.locations),
        )
        set_(self, "_within", {})
        set_(self, "derived", {})

    def loc(self, name: str) -> int:
        try:
            return self.index[name]
        except KeyError:
            raise ValueError(f"unknown location {name!r}") from None

    def name(self, i: int) -> str:
        return self.locations[i].name

    def neighbours(self, i: int) -> tuple[int, ...]:
        return self.graph.neighbors[i]

    def within(self, start: int, steps: int) -> tuple[int, ...]:
        """Locations reachable in 1..``steps`` moves along connections (not ``start`` itself),
        in index order; each answer is computed once per board."""
        key = (start, steps)
        found = self._within.get(key)
        if found is None:
            found = self._within[key] = self._search_within(start, steps)
        return found

    def _search_within(self, start: int, steps: int) -> tuple[int, ...]:
        seen = {start}
        frontier = [start]
        out: list[int] = []
        for _ in range(steps):
            nxt: list[int] = []
            for i in frontier:
                for j in self.graph.neighbors[i]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
                        out.append(j)
            frontier = nxt
        return tuple(sorted(out))


def small_board(
    locations: Sequence[tuple[str, str]] | Iterable[Location],
    edges: Iterable[tuple[str, str]],
    *,
    generals: Iterable[GeneralDef] = (),
    heroes: Iterable[HeroDef] = (),
    darkness: Iterable[DarknessCard] = (),
    hero_cards: Iterable[HeroCard] = (),
    quests: Iterable[QuestDef] = (),
) -> DefendersBoard:
    """Build a board from short tuples (name, colour) or Location values: handy in tests."""
    locs = tuple(loc if isinstance(loc, Location) else Location(loc[0], loc[1]) for loc in locations)
    return DefendersBoard(
        locs,
        tuple(edges),
        tuple(generals),
        tuple(heroes),
        tuple(darkness),
        tuple(hero_cards),
        tuple(quests),
    )
