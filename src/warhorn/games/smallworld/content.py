"""Small World of Warcraft content: races, powers, artifacts, legendary places and the box's numbers.

The data files in ``data/`` transcribe Part A of ``research/smallworld-dragonlords-content.md``
(itself from the English rulebook transcription); every item carries ``source``. The islands
are in ``data/boards/`` and are read by :mod:`warhorn.games.smallworld.board`.

Files (all TOML):

* ``races.toml`` -- ``[[races]]`` (banner value, tokens in the box, faction, rule ID) and ``[murlocs]``
* ``powers.toml`` -- ``[[powers]]`` (badge value, rule ID, whether it keeps working in decline)
* ``game.toml`` -- start coins, visible combos, rounds and islands per player count, the
  reinforcement die, coins, marker supplies, ``[[artifacts]]`` and ``[[places]]``

:func:`load_smallworld_content` validates every file (schema errors name file and key), then
cross-checks them (16 races and 20 powers with unique ids, rule IDs of the right family, a die
of six faces, bombs no more than the stack) and refuses the folder with every mistake at once.
The rules themselves live in code; these models only describe what the rules read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

import pydantic

from warhorn.content.loader import ContentModel, ContentReport, SourcedModel, content_hash, load_model
from warhorn.engine.errors import ContentError, ContentErrors

DATA_DIR = Path(__file__).parent / "data"
CONTENT_FILES: tuple[str, ...] = ("races.toml", "powers.toml", "game.toml")

Faction = Literal["alliance", "horde", "neutral"]
Id = Annotated[str, pydantic.Field(pattern=r"^[a-z][a-z0-9_]*$")]
Count = Annotated[int, pydantic.Field(ge=0)]
RuleId = Annotated[str, pydantic.Field(pattern=r"^SWW-[A-Z]{3}-[A-Z0-9]{2,3}$")]


class Race(SourcedModel):
    """A playable race: its banner adds ``banner`` tokens to a combo; ``tokens`` are in the box."""

    id: Id
    name: str
    banner: Annotated[int, pydantic.Field(ge=1)]
    tokens: Annotated[int, pydantic.Field(ge=1)]
    faction: Faction
    rule: RuleId


class Murlocs(SourcedModel):
    """The neutral natives (a race in decline that belongs to nobody)."""

    name: str
    tokens: Count


class Power(SourcedModel):
    """A special power badge: adds ``badge`` tokens; ``in_decline``: still works once its race declines."""

    id: Id
    name: str
    digest_name: str
    badge: Annotated[int, pydantic.Field(ge=0)]
    rule: RuleId
    in_decline: bool = False


class Marker(SourcedModel):
    """An artifact or a legendary place (a marker laid face down on an island at setup)."""

    id: Id
    name: str
    rule: RuleId


class Die(SourcedModel):
    faces: tuple[Count, ...]


class Coins(SourcedModel):
    denominations: dict[str, Count]


class Supplies(SourcedModel):
    """Hard caps on the markers on the boards at once (RB-WOW component table)."""

    mountains: Count
    wisp_walls: Count
    harmony: Count
    forts: Count
    watchtowers: Count
    military_objectives: Count
    champion: Count
    beasts: Count
    bombs: Count
    exploding_bombs: Count
    race_tokens: Count


class RacesFile(ContentModel):
    races: tuple[Race, ...]
    murlocs: Murlocs


class PowersFile(ContentModel):
    powers: tuple[Power, ...]


IslandSize = Literal["large", "medium", "small"]


class GameFile(ContentModel):
    start_coins: Count
    visible_combos: Annotated[int, pydantic.Field(ge=1)]
    rounds: dict[str, Annotated[int, pydantic.Field(ge=1)]]
    islands: dict[str, tuple[IslandSize, ...]]
    source: str
    die: Die
    coins: Coins
    supplies: Supplies
    artifacts: tuple[Marker, ...]
    places: tuple[Marker, ...]


@dataclass(frozen=True)
class SmallWorldContent:
    """The validated content a game reads (immutable, shared by every state)."""

    folder: Path
    races_file: RacesFile
    powers_file: PowersFile
    game: GameFile
    content_hash: str

    @cached_property
    def races(self) -> dict[str, Race]:
        return {r.id: r for r in self.races_file.races}

    @cached_property
    def powers(self) -> dict[str, Power]:
        return {p.id: p for p in self.powers_file.powers}

    @cached_property
    def artifacts(self) -> dict[str, Marker]:
        return {a.id: a for a in self.game.artifacts}

    @cached_property
    def places(self) -> dict[str, Marker]:
        return {p.id: p for p in self.game.places}

    @property
    def murlocs(self) -> Murlocs:
        return self.races_file.murlocs

    @property
    def die_faces(self) -> tuple[int, ...]:
        return self.game.die.faces

    @property
    def supplies(self) -> Supplies:
        return self.game.supplies

    def marker_name(self, marker: str) -> str:
        item = self.artifacts.get(marker) or self.places.get(marker)
        return item.name if item else marker

    def rounds_for(self, players: int) -> int:
        return self.game.rounds[str(players)]


def _check(
    report: ContentReport, paths: dict[str, Path], races: RacesFile, powers: PowersFile, game: GameFile
) -> None:
    rf, pf, gf = paths["races.toml"], paths["powers.toml"], paths["game.toml"]
    seen: set[str] = set()
    for i, race in enumerate(races.races):
        report.check(race.id not in seen, rf, f"races[{i}].id", f"duplicate race id {race.id!r}")
        seen.add(race.id)
        report.check(
            race.rule.startswith("SWW-RAC-"), rf, f"races[{i}].rule", "a race's rule is an SWW-RAC-* ID"
        )
    report.check(len(races.races) == 16, rf, "races", f"expected the 16 races, found {len(races.races)}")
    seen = set()
    for i, power in enumerate(powers.powers):
        report.check(power.id not in seen, pf, f"powers[{i}].id", f"duplicate power id {power.id!r}")
        seen.add(power.id)
        report.check(
            power.rule.startswith("SWW-POW-"), pf, f"powers[{i}].rule", "a power's rule is an SWW-POW-* ID"
        )
    report.check(
        len(powers.powers) == 20, pf, "powers", f"expected the 20 powers, found {len(powers.powers)}"
    )
    report.check(len(game.die.faces) == 6, gf, "die.faces", "the reinforcement die has six faces")
    report.check(
        game.supplies.exploding_bombs <= game.supplies.bombs,
        gf,
        "supplies.exploding_bombs",
        "more exploding bombs than bombs",
    )
    for players in ("2", "3", "4", "5"):
        report.check(
            players in game.rounds, gf, f"rounds.{players}", "missing the rounds for this player count"
        )
        report.check(
            players in game.islands, gf, f"islands.{players}", "missing the islands for this player count"
        )
    markers = [m.id for m in (*game.artifacts, *game.places)]
    report.check(
        len(markers) == len(set(markers)), gf, "artifacts/places", "an artifact and a place share an id"
    )
    report.check(
        len(markers) >= 5, gf, "artifacts/places", "need at least one marker per island (5 for five players)"
    )
    report.check(
        game.visible_combos <= min(len(races.races), len(powers.powers)) - 10,
        gf,
        "visible_combos",
        "the column must stay full with ten races in play",
    )


def load_smallworld_content(folder: Path | None = None) -> SmallWorldContent:
    """Load and cross-check a content folder (``None``: the shipped ``data/`` folder).

    A folder may hold only some of the three files (or only ``boards/``); the others come from
    the shipped set.
    Raises :class:`ContentErrors` listing every mistake, each naming its file and key.
    """
    base = DATA_DIR if folder is None else Path(folder)
    if folder is not None and not (
        any((base / name).is_file() for name in CONTENT_FILES) or (base / "boards").is_dir()
    ):
        raise ContentErrors(
            [ContentError(str(base), "(folder)", f"holds none of {', '.join(CONTENT_FILES)}, boards/")]
        )
    paths = {name: (base / name if (base / name).is_file() else DATA_DIR / name) for name in CONTENT_FILES}
    report = ContentReport()
    loaded: dict[str, ContentModel] = {}
    for name, model in (("races.toml", RacesFile), ("powers.toml", PowersFile), ("game.toml", GameFile)):
        try:
            loaded[name] = load_model(paths[name], model)
        except (ContentError, ContentErrors) as exc:
            report.absorb(exc)
    report.raise_if_any()
    races, powers, game = loaded["races.toml"], loaded["powers.toml"], loaded["game.toml"]
    assert isinstance(races, RacesFile) and isinstance(powers, PowersFile) and isinstance(game, GameFile)
    _check(report, paths, races, powers, game)
    report.raise_if_any()
    return SmallWorldContent(base, races, powers, game, content_hash(paths.values()))


_SHIPPED: list[SmallWorldContent] = []


def shipped_content() -> SmallWorldContent:
    """The content shipped with warhorn, loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(load_smallworld_content(None))
    return _SHIPPED[0]
