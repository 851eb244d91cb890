"""What the rulebook's examples say about the board, as checks a board must pass.

The real board is not public, but the Italian rulebook's examples name spaces
and state how they lie (the movement examples of Amil Forest and the Gulf of
Kar, the non-geomorphic board, the bridging straits, the island of the
glossary). Each such statement is one :class:`BoardFact`; ``warhorn content
check`` runs :func:`board_fact_problems` on every board, so a board that uses
these names (warhorn's original board, or a transcription of the real one)
cannot drift from what the rulebook says. A fact applies only to a board that
has every space it names: a board of other names is not held to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class BoardView:
    """The parts of a board the facts read: each space's kind and starting kingdom, and its neighbours."""

    kind: Mapping[str, str]
    kingdom: Mapping[str, str | None]
    neighbours: Mapping[str, frozenset[str]]

    @classmethod
    def build(
        cls, spaces: Iterable[tuple[str, str, str | None]], borders: Iterable[tuple[str, str]]
    ) -> BoardView:
        """From (id, kind, kingdom) triples and (a, b) borders."""
        kind: dict[str, str] = {}
        kingdom: dict[str, str | None] = {}
        for sid, k, owner in spaces:
            kind[sid] = k
            kingdom[sid] = owner
        nbrs: dict[str, set[str]] = {sid: set() for sid in kind}
        for a, b in borders:
            if a in nbrs and b in nbrs:
                nbrs[a].add(b)
                nbrs[b].add(a)
        return cls(kind, kingdom, {s: frozenset(n) for s, n in nbrs.items()})

    def of_kind(self, sid: str, *kinds: str) -> set[str]:
        return {n for n in self.neighbours[sid] if self.kind[n] in kinds}

    def within(self, start: str, steps: int, kinds: tuple[str, ...]) -> set[str]:
        """Spaces reachable from ``start`` (excluded) in at most ``steps`` moves through ``kinds`` spaces."""
        seen = {start}
        frontier = {start}
        for _ in range(steps):
            frontier = {n for s in frontier for n in self.of_kind(s, *kinds)} - seen
            seen |= frontier
        return seen - {start}

    def component(self, start: str, kinds: tuple[str, ...]) -> set[str]:
        """Every space connected to ``start`` through spaces of ``kinds``, start included."""
        return self.within(start, len(self.kind), kinds) | {start}


Check = Callable[[BoardView], str | None]


@dataclass(frozen=True, slots=True)
class BoardFact:
    """One statement of the rulebook about the board: the spaces it names, where it is, and its check."""

    id: str
    spaces: tuple[str, ...]
    where: str
    check: Check = field(repr=False)


def _land_neighbours_exactly(space: str, expected: set[str]) -> Check:
    def check(v: BoardView) -> str | None:
        got = v.of_kind(space, "land")
        if got != expected:
            return (
                f"{space}'s neighbouring territories must be exactly {_names(expected)}; found {_names(got)}"
            )
        return None

    return check


def _borders(a: str, *others: str) -> Check:
    def check(v: BoardView) -> str | None:
        missing = {o for o in others if o not in v.neighbours[a]}
        return f"{a} must border {_names(missing)}" if missing else None

    return check


def _not_adjacent(a: str, b: str) -> Check:
    def check(v: BoardView) -> str | None:
        return (
            f"{a} and {b} must not border each other (the board is not geomorphic)"
            if b in v.neighbours[a]
            else None
        )

    return check


def _seas_within(sea: str, steps: int, expected: set[str]) -> Check:
    def check(v: BoardView) -> str | None:
        got = v.within(sea, steps, ("sea",))
        if got != expected:
            return (
                f"the seas within {steps} sea moves of {sea} must be exactly {_names(expected)}; "
                f"found {_names(got)}"
            )
        return None

    return check


def _island_reached_in(start: str, steps: int, dungeon: str) -> Check:
    """``start`` lies on an island (its land has no land border off it) whose every territory and
    the dungeon ``dungeon`` a move-2 hero can reach from ``start`` over the island's land."""

    def check(v: BoardView) -> str | None:
        island = v.component(start, ("land",))
        if dungeon not in {n for s in island for n in v.of_kind(s, "dungeon")}:
            return f"the dungeon {dungeon} must lie on {start}'s island"
        reach = v.within(start, steps, ("land",)) | {start}
        far = island - reach
        if far:
            return (
                f"every territory of {start}'s island must be within {steps} moves of it; not {_names(far)}"
            )
        if not any(v.of_kind(s, "sea") for s in island):
            return f"{start}'s island must be surrounded by sea"
        return None

    return check


def _island(space: str) -> Check:
    def check(v: BoardView) -> str | None:
        land = v.of_kind(space, "land")
        if land or not v.of_kind(space, "sea"):
            return f"{space} is an island: it must border only seas (found territories {_names(land)})"
        return None

    return check


def _lake_of(sea: str, kingdom: str) -> Check:
    def check(v: BoardView) -> str | None:
        if v.kind[sea] != "sea":
            return f"{sea} must be a sea space"
        others = {n for n in v.neighbours[sea] if v.kind[n] != "land" or v.kingdom[n] != kingdom}
        if others or len(v.neighbours[sea]) < 2:
            return (
                f"{sea} is a lake enclosed in {kingdom}'s kingdom: it must border only {kingdom} "
                f"territories, not {_names(others)}"
            )
        return None

    return check


def _strait(sea: str) -> Check:
    def check(v: BoardView) -> str | None:
        if len(v.of_kind(sea, "land")) < 2:
            return f"{sea} is a strait pieces are ferried across: it must border at least two territories"
        return None

    return check


def _names(ids: Iterable[str]) -> str:
    ordered = sorted(ids)
    return ", ".join(ordered) if ordered else "nothing"


_MOVEMENT = "rulebook, Phase 2 movement examples (NER-MOV-01, NER-MAP-02)"
_SEA = "rulebook, Phase 2 sea transport example (NER-SEA-01, NER-SEA-03)"
_BRIDGE = "rulebook, Phase 2 bridging (NER-SEA-05)"

#: Every statement the Italian rulebook makes about the board's geography.
BOARD_FACTS: tuple[BoardFact, ...] = (
    BoardFact(
        "amil-forest-neighbours",
        ("amil_forest", "zaarnath", "satrapy_of_numoth", "dread_marches"),
        _MOVEMENT + ": a soldier in Amil Forest can move to Zaarnath, Satrapy of Numoth or Dread Marches",
        _land_neighbours_exactly("amil_forest", {"zaarnath", "satrapy_of_numoth", "dread_marches"}),
    ),
    BoardFact(
        "amil-forest-island",
        ("amil_forest", "tomb_of_horrors"),
        _MOVEMENT + ": a warrior in Amil Forest reaches every territory of its island and Tomb of Horrors",
        _island_reached_in("amil_forest", 2, "tomb_of_horrors"),
    ),
    BoardFact(
        "gulf-of-kar-coasts",
        ("gulf_of_kar", "maze_of_maur_khul", "ruined_land_of_tarsembor"),
        _SEA + ": a warship in the Gulf of Kar loads from Maze of Maur Khul and Ruined Land of Tarsembor",
        _borders("gulf_of_kar", "maze_of_maur_khul", "ruined_land_of_tarsembor"),
    ),
    BoardFact(
        "gulf-of-kar-two-moves",
        ("gulf_of_kar", "dragons_gate", "forbidding_shore", "amilian_sea", "krakens_reach", "tarsem_coast"),
        _SEA + ": within two moves of the Gulf of Kar a warship reaches Dragon's Gate, Forbidding Shore, "
        "Amilian Sea, Kraken's Reach and Tarsem Coast",
        _seas_within(
            "gulf_of_kar",
            2,
            {"dragons_gate", "forbidding_shore", "amilian_sea", "krakens_reach", "tarsem_coast"},
        ),
    ),
    BoardFact(
        "not-geomorphic-kharavas",
        ("kharavas", "forbidden_city"),
        _MOVEMENT + ": no move from Kharavas straight to Forbidden City",
        _not_adjacent("kharavas", "forbidden_city"),
    ),
    BoardFact(
        "not-geomorphic-dawnforge",
        ("dawnforge_mountains", "scarlet_principalities"),
        _MOVEMENT + ": no move from Dawnforge Mountains straight to Scarlet Principalities",
        _not_adjacent("dawnforge_mountains", "scarlet_principalities"),
    ),
    BoardFact(
        "lake-surth-in-karkoth",
        ("lake_surth",),
        _BRIDGE + ": Lake Surth is the sea space enclosed inside Karkoth's kingdom",
        _lake_of("lake_surth", "karkoth"),
    ),
    BoardFact(
        "saris-strait",
        ("saris_strait",),
        _BRIDGE + ": Saris Strait is a one-space strait",
        _strait("saris_strait"),
    ),
    BoardFact(
        "skallen-reach",
        ("skallen_reach",),
        _BRIDGE + ": Skallen Reach is a one-space strait",
        _strait("skallen_reach"),
    ),
    BoardFact(
        "winterskull-island",
        ("winterskull_lands",),
        "rulebook, glossary, Island (NER-MAP-03): Winterskull Lands is an island",
        _island("winterskull_lands"),
    ),
)


def board_fact_problems(view: BoardView) -> list[tuple[BoardFact, str]]:
    """Each fact the board breaks, with what is wrong (facts naming a space the board lacks are skipped)."""
    out = []
    for fact in BOARD_FACTS:
        if all(s in view.kind for s in fact.spaces):
            problem = fact.check(view)
            if problem is not None:
                out.append((fact, problem))
    return out
