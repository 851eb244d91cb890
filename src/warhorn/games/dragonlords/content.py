"""Quest for the DragonLords content: peoples, spells, spell cards, shards, monsters, items, quests.

The data files in ``data/`` hold what the rules read, each item with its ``source``: a fact from
the expansion's text (``shared/seeds/002_…``) or the research's Part C, or ``original`` where
warhorn designed a stand-in (``docs/dragonlords-reconstruction.md`` says which and why). The
world (realms, territories, Wastelands tracks) is in ``data/world/`` and read by
:mod:`warhorn.games.dragonlords.world`.

Files (all TOML):

* ``peoples.toml`` -- ``[[peoples]]``: attack value, prices, ship range, mine gold, spell lists
* ``spells.toml`` -- ``[[spells]]``: the step each is cast in and what kind of effect it has
* ``spell_cards.toml`` -- ``[[cards]]``: the deck (base scroll cards and the expansion's cards)
* ``shards.toml`` -- ``[[shards]]``: the nine crystal shards and the spell each works as
* ``monsters.toml`` -- ``[[monsters]]``: attack dice, defence die, wounds, abilities
* ``items.toml`` -- ``[[items]]``: treasures and Village wares
* ``quests.toml`` -- ``[[quests]]``: the 12 quest cards, one adventure per crystal-die face
* ``game.toml`` -- the box's numbers, set-up by player count, income, crystal die, DragonLords

:func:`load_dragonlords_content` validates every file (schema errors name the file and key), then
cross-checks them (every spell, item and monster a file names exists; six peoples with six spells
each; nine shards; twelve quest cards; a six-faced crystal die with Blessed faces; set-up figures
for 2-6 players) and refuses the folder with every mistake at once. A folder may hold only some
of the files; the others come from the shipped set.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal, cast

import pydantic

from warhorn.content.loader import ContentModel, ContentReport, SourcedModel, content_hash, load_model
from warhorn.engine.errors import ContentError, ContentErrors

DATA_DIR = Path(__file__).parent / "data"
CONTENT_FILES: tuple[str, ...] = (
    "peoples.toml",
    "spells.toml",
    "spell_cards.toml",
    "shards.toml",
    "monsters.toml",
    "items.toml",
    "quests.toml",
    "game.toml",
)

Id = Annotated[str, pydantic.Field(pattern=r"^[a-z][a-z0-9_]*$")]
Count = Annotated[int, pydantic.Field(ge=0)]
Positive = Annotated[int, pydantic.Field(ge=1)]
DieValue = Annotated[int, pydantic.Field(ge=0, le=20)]
RuleId = Annotated[str, pydantic.Field(pattern=r"^DL[XR]-[A-Z]{3}-[A-Z0-9]{2,3}$")]

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5, 6)


class People(SourcedModel):
    """A playable people. ``spells``: its sorcerer's numbered list (1 and 2 known at the start)."""

    id: Id
    name: str
    attack: DieValue
    unit_cost: Positive
    bulk_units: Positive | None = None
    bulk_cost: Positive | None = None
    ship_moves: Positive
    mine_gold: Count
    spells: tuple[Id, ...]
    king_spells: tuple[Id, ...]
    rule: RuleId

    def price(self, units: int) -> int:
        """Gold for ``units`` bought at once: as many bulk lots as fit, the rest singly (DLR-BUY-01)."""
        if self.bulk_units is None or self.bulk_cost is None:
            return units * self.unit_cost
        lots, single = divmod(units, self.bulk_units)
        return lots * self.bulk_cost + single * self.unit_cost


SpellStep = Literal["tas", "ranged", "casualties", "movement"]
SpellKind = Literal[
    "heal",
    "friendly_tas",
    "enemy_tas",
    "remove_one",
    "ranged_dice",
    "teleport",
    "take_over",
    "disable_one",
    "raise",
]


class Spell(SourcedModel):
    """A spell a sorcerer or King knows; also what a shard or a scroll card casts."""

    id: Id
    name: str
    step: SpellStep
    kind: SpellKind
    tas: int | None = None
    dice: Positive | None = None
    hit: DieValue | None = None
    units: Positive | None = None
    rule: RuleId


CardKind = Literal["damage", "protection", "boost", "movement", "scroll"]
CardTiming = Literal["ranged", "own_turn", "tas", "casualties", "defending", "any_turn"]
CardTargets = Literal["territory", "sea_or_coast", "any"]


class SpellCard(SourcedModel):
    """A spell (scroll) card: ``copies`` of it are in the deck."""

    id: Id
    name: str
    kind: CardKind
    when: CardTiming
    edition: Literal["base", "expansion"]
    copies: Positive
    spell: Id | None = None
    targets: CardTargets | None = None
    tas: int | None = None
    units: Positive | None = None
    rule: RuleId


class Shard(SourcedModel):
    id: Id
    name: str
    spell: Id


class Monster(SourcedModel):
    """A Wastelands monster: one die per entry of ``attacks``; foes roll a d``defence`` against it."""

    id: Id
    name: str
    attacks: tuple[DieValue, ...]
    defence: Annotated[int, pydantic.Field(ge=2, le=20)]
    wounds: Positive
    abilities: tuple[
        Literal[
            "dragon",
            "no_fire_on_parties",
            "cone_of_cold",
            "fire_doubled",
            "silences_magic",
            "petrifying_gaze",
            "poison",
        ],
        ...,
    ]
    rule: RuleId


class Item(SourcedModel):
    """A treasure or ware. ``price``: Village price (None: only won in quests); ``uses``: None = lasting."""

    id: Id
    name: str
    price: Positive | None = None
    effect: Literal[
        "heal_one", "ward_death", "ward_necromantic", "ranged_fire", "charm_dragon", "quest_equipment"
    ]
    uses: Positive | None = None
    rule: RuleId


OutcomeKind = Literal[
    "gold", "item", "spell_card", "shard", "sorcerer", "dragonlord", "monster", "lose_units", "nothing"
]


class QuestOutcome(pydantic.BaseModel):
    """One adventure of a quest card: what happens on one face of the crystal die."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    kind: OutcomeKind
    item: Id | None = None
    monster: Id | None = None
    amount: Count = 0
    text: str


class QuestCard(SourcedModel):
    id: Id
    name: str
    needs: Literal["torch", "pickaxe"] | None = None
    blessed: QuestOutcome
    ignored: QuestOutcome
    cursed: QuestOutcome

    def outcome(self, face: str) -> QuestOutcome:
        return {"blessed": self.blessed, "ignored": self.ignored, "cursed": self.cursed}[face]


class Income(SourcedModel):
    per_territory: Count
    per_kingdom: Count


class CrystalDie(SourcedModel):
    faces: tuple[Literal["blessed", "ignored", "cursed"], ...]


class DragonLordStats(SourcedModel):
    attack: DieValue
    fire_dice: Positive
    fire_hit: DieValue
    flight: Positive
    carries: Count
    weak_carries: Count


class PeoplesFile(ContentModel):
    peoples: tuple[People, ...]


class SpellsFile(ContentModel):
    spells: tuple[Spell, ...]


class SpellCardsFile(ContentModel):
    cards: tuple[SpellCard, ...]


class ShardsFile(ContentModel):
    shards: tuple[Shard, ...]


class MonstersFile(ContentModel):
    monsters: tuple[Monster, ...]


class ItemsFile(ContentModel):
    items: tuple[Item, ...]


class QuestsFile(ContentModel):
    quests: tuple[QuestCard, ...]


class GameFile(ContentModel):
    source: str
    start_gold: Count
    ship_capacity: Positive
    ship_moves: Positive
    ship_cost: Positive
    max_ships: Positive
    party_max: Positive
    dragonlords: Count
    neutral_units_per_realm: Count
    unit_defence: Annotated[int, pydantic.Field(ge=2, le=20)]
    kingdom_attack_penalty: Count
    max_hero_level: Positive
    start_units: dict[str, Positive]
    start_cards: dict[str, Positive]
    income: Income
    crystal_die: CrystalDie
    dragonlord: DragonLordStats


_FILE_MODELS: dict[str, type[ContentModel]] = {
    "peoples.toml": PeoplesFile,
    "spells.toml": SpellsFile,
    "spell_cards.toml": SpellCardsFile,
    "shards.toml": ShardsFile,
    "monsters.toml": MonstersFile,
    "items.toml": ItemsFile,
    "quests.toml": QuestsFile,
    "game.toml": GameFile,
}


@dataclass(frozen=True)
class DragonLordsContent:
    """The validated content a game reads (immutable, shared by every state)."""

    folder: Path
    peoples_file: PeoplesFile
    spells_file: SpellsFile
    cards_file: SpellCardsFile
    shards_file: ShardsFile
    monsters_file: MonstersFile
    items_file: ItemsFile
    quests_file: QuestsFile
    game: GameFile
    content_hash: str

    @cached_property
    def peoples(self) -> dict[str, People]:
        return {p.id: p for p in self.peoples_file.peoples}

    @cached_property
    def spells(self) -> dict[str, Spell]:
        return {s.id: s for s in self.spells_file.spells}

    @cached_property
    def cards(self) -> dict[str, SpellCard]:
        return {c.id: c for c in self.cards_file.cards}

    @cached_property
    def shards(self) -> dict[str, Shard]:
        return {s.id: s for s in self.shards_file.shards}

    @cached_property
    def monsters(self) -> dict[str, Monster]:
        return {m.id: m for m in self.monsters_file.monsters}

    @cached_property
    def items(self) -> dict[str, Item]:
        return {i.id: i for i in self.items_file.items}

    @cached_property
    def quests(self) -> dict[str, QuestCard]:
        return {q.id: q for q in self.quests_file.quests}

    def deck(self, *, expansion: bool = True, leave_out: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """The spell-card deck as card ids, one per copy, in file order (the game shuffles it).

        ``expansion``: include the Crystal of Power cards; ``leave_out``: card ids removed (the
        optional rule DLX-OPT-03 leaves out the Summon Elemental and Death Seeker cards).
        """
        return tuple(
            card.id
            for card in self.cards_file.cards
            if (expansion or card.edition == "base") and card.id not in leave_out
            for _ in range(card.copies)
        )

    def start_units(self, players: int) -> int:
        return self.game.start_units[str(players)]

    def start_cards(self, players: int, starting_scrolls: int) -> int:
        """Spell cards dealt to each player: the expansion's number for 5-6, else the option (DLR-SET-02)."""
        return self.game.start_cards.get(str(players), starting_scrolls)


def _unique(report: ContentReport, path: Path, key: str, ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i, item_id in enumerate(ids):
        report.check(item_id not in seen, path, f"{key}[{i}].id", f"duplicate {what} id {item_id!r}")
        seen.add(item_id)


def _check(report: ContentReport, paths: dict[str, Path], files: dict[str, ContentModel]) -> None:
    peoples = files["peoples.toml"]
    spells = files["spells.toml"]
    cards = files["spell_cards.toml"]
    shards = files["shards.toml"]
    monsters = files["monsters.toml"]
    items = files["items.toml"]
    quests = files["quests.toml"]
    game = files["game.toml"]
    assert isinstance(peoples, PeoplesFile) and isinstance(spells, SpellsFile)
    assert isinstance(cards, SpellCardsFile) and isinstance(shards, ShardsFile)
    assert isinstance(monsters, MonstersFile) and isinstance(items, ItemsFile)
    assert isinstance(quests, QuestsFile) and isinstance(game, GameFile)

    spell_ids = {s.id for s in spells.spells}
    item_ids = {i.id for i in items.items}
    monster_ids = {m.id for m in monsters.monsters}
    _unique(report, paths["peoples.toml"], "peoples", [p.id for p in peoples.peoples], "people")
    _unique(report, paths["spells.toml"], "spells", [s.id for s in spells.spells], "spell")
    _unique(report, paths["spell_cards.toml"], "cards", [c.id for c in cards.cards], "card")
    _unique(report, paths["shards.toml"], "shards", [s.id for s in shards.shards], "shard")
    _unique(report, paths["monsters.toml"], "monsters", [m.id for m in monsters.monsters], "monster")
    _unique(report, paths["items.toml"], "items", [i.id for i in items.items], "item")
    _unique(report, paths["quests.toml"], "quests", [q.id for q in quests.quests], "quest card")

    pf = paths["peoples.toml"]
    report.check(
        len(peoples.peoples) == 6, pf, "peoples", f"expected the 6 peoples, found {len(peoples.peoples)}"
    )
    for i, people in enumerate(peoples.peoples):
        report.check(len(people.spells) == 6, pf, f"peoples[{i}].spells", "a sorcerer's list has six spells")
        report.check(len(people.king_spells) == 2, pf, f"peoples[{i}].king_spells", "a King holds two spells")
        for j, spell in enumerate((*people.spells, *people.king_spells)):
            key = f"peoples[{i}].spells[{j}]" if j < len(people.spells) else f"peoples[{i}].king_spells"
            report.check(spell in spell_ids, pf, key, f"unknown spell {spell!r}")
        report.check(
            (people.bulk_units is None) == (people.bulk_cost is None),
            pf,
            f"peoples[{i}].bulk_cost",
            "bulk_units and bulk_cost go together",
        )

    cf = paths["spell_cards.toml"]
    for i, card in enumerate(cards.cards):
        if card.kind == "scroll":
            report.check(
                card.spell in spell_ids,
                cf,
                f"cards[{i}].spell",
                f"a scroll names a known spell, not {card.spell!r}",
            )
        else:
            report.check(card.spell is None, cf, f"cards[{i}].spell", "only a scroll card names a spell")
    base_cards = sum(c.copies for c in cards.cards if c.edition == "base")
    report.check(base_cards == 24, cf, "cards", f"the base deck has 24 scroll cards, found {base_cards}")

    sf = paths["shards.toml"]
    report.check(len(shards.shards) == 9, sf, "shards", f"expected the 9 shards, found {len(shards.shards)}")
    for i, shard in enumerate(shards.shards):
        report.check(shard.spell in spell_ids, sf, f"shards[{i}].spell", f"unknown spell {shard.spell!r}")

    mf = paths["monsters.toml"]
    for i, monster in enumerate(monsters.monsters):
        report.check(bool(monster.attacks), mf, f"monsters[{i}].attacks", "a monster rolls at least one die")

    qf = paths["quests.toml"]
    report.check(
        len(quests.quests) == 12, qf, "quests", f"expected the 12 quest cards, found {len(quests.quests)}"
    )
    for i, quest in enumerate(quests.quests):
        for face in ("blessed", "ignored", "cursed"):
            outcome = quest.outcome(face)
            key = f"quests[{i}].{face}"
            if outcome.kind == "item":
                report.check(outcome.item in item_ids, qf, f"{key}.item", f"unknown item {outcome.item!r}")
            else:
                report.check(outcome.item is None, qf, f"{key}.item", "only an item outcome names an item")
            if outcome.kind == "monster":
                report.check(
                    outcome.monster in monster_ids,
                    qf,
                    f"{key}.monster",
                    f"unknown monster {outcome.monster!r}",
                )
            else:
                report.check(
                    outcome.monster is None, qf, f"{key}.monster", "only a monster outcome names a monster"
                )
            if outcome.kind in ("gold", "spell_card", "shard", "lose_units"):
                report.check(
                    outcome.amount >= 1, qf, f"{key}.amount", f"a {outcome.kind} outcome needs an amount"
                )

    gf = paths["game.toml"]
    for players in PLAYER_COUNTS:
        report.check(
            str(players) in game.start_units,
            gf,
            f"start_units.{players}",
            "missing the units for this player count",
        )
    for key in (*game.start_units, *game.start_cards):
        report.check(
            key.isdigit() and int(key) in PLAYER_COUNTS,
            gf,
            f"start_units.{key}",
            "player counts run from 2 to 6",
        )
    faces = game.crystal_die.faces
    report.check(len(faces) == 6, gf, "crystal_die.faces", "the crystal die has six faces")
    report.check(
        "blessed" in faces, gf, "crystal_die.faces", "the Chosen One needs a Blessed face (DLX-SET-04)"
    )


def load_dragonlords_content(folder: Path | None = None) -> DragonLordsContent:
    """Load and cross-check a content folder (``None``: the shipped ``data/`` folder).

    Raises :class:`ContentErrors` listing every mistake, each naming its file and key.
    """
    base = DATA_DIR if folder is None else Path(folder)
    if folder is not None and not (
        any((base / name).is_file() for name in CONTENT_FILES) or (base / "world").is_dir()
    ):
        raise ContentErrors(
            [ContentError(str(base), "(folder)", f"holds none of {', '.join(CONTENT_FILES)}, world/")]
        )
    paths = {name: (base / name if (base / name).is_file() else DATA_DIR / name) for name in CONTENT_FILES}
    report = ContentReport()
    files: dict[str, ContentModel] = {}
    for name, model in _FILE_MODELS.items():
        try:
            files[name] = load_model(paths[name], model)
        except (ContentError, ContentErrors) as exc:
            report.absorb(exc)
    report.raise_if_any()
    _check(report, paths, files)
    report.raise_if_any()
    return DragonLordsContent(
        folder=base,
        peoples_file=cast(PeoplesFile, files["peoples.toml"]),
        spells_file=cast(SpellsFile, files["spells.toml"]),
        cards_file=cast(SpellCardsFile, files["spell_cards.toml"]),
        shards_file=cast(ShardsFile, files["shards.toml"]),
        monsters_file=cast(MonstersFile, files["monsters.toml"]),
        items_file=cast(ItemsFile, files["items.toml"]),
        quests_file=cast(QuestsFile, files["quests.toml"]),
        game=cast(GameFile, files["game.toml"]),
        content_hash=content_hash(paths.values()),
    )


def check_content_folder(path: Path) -> list[ContentError]:
    """Every mistake in a DragonLords content folder (the ``warhorn content check`` hook)."""
    try:
        load_dragonlords_content(path)
    except ContentErrors as exc:
        return list(exc.errors)
    except ContentError as exc:
        return [exc]
    return []


_SHIPPED: list[DragonLordsContent] = []


def shipped_content() -> DragonLordsContent:
    """The content shipped with warhorn, loaded once."""
    if not _SHIPPED:
        _SHIPPED.append(load_dragonlords_content(None))
    return _SHIPPED[0]
