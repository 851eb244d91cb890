"""Defenders of the Realm content: the board, generals, minions, heroes and the three decks.

The data files in ``data/`` transcribe ``research/defenders-content.md``; every
item carries ``source`` (``"fact: <source tag and where>"`` or ``"original"``),
``confidence`` where the research gives one, and ``choice`` where the sources
disagree and warhorn picked one reading (all choices are listed in
``docs/defenders-content-choices.md``).

Files (all TOML):

* ``locations.toml`` -- ``[[locations]]`` and ``[[connections]]`` (pairs of location ids)
* ``generals.toml`` -- ``[components]``, ``[[minions]]`` (one per colour), ``[[generals]]``
* ``heroes.toml`` -- ``[[heroes]]`` with nested ``[[heroes.abilities]]``
* ``darkness.toml`` -- the Darkness Spreads deck, ``deck_size`` and ``[[cards]]``
* ``hero_cards.toml`` -- the hero deck: ``[[cards]]`` (location cards) and ``[[specials]]`` (purple)
* ``quests.toml`` -- the quest deck, ``deck_size`` and ``[[quests]]``

:func:`load_defenders_content` validates every file (schema errors name file and
key), then cross-checks them all (unknown ids, duplicate or self connections,
general paths, colours, deck sizes, a connected board) and refuses the folder
with every mistake at once. Nothing here implements a rule; the models only
describe what the rules read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

import pydantic

from warhorn.content.loader import ContentModel, ContentReport, SourcedModel, content_hash, load_model
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.graph import BoardGraph, Space

DATA_DIR = Path(__file__).parent / "data"
CONTENT_FILES: tuple[str, ...] = (
    "locations.toml",
    "generals.toml",
    "heroes.toml",
    "darkness.toml",
    "hero_cards.toml",
    "quests.toml",
)

#: The four enemy colours (red demons, green orcs, black undead, blue dragonkin).
FactionColour = Literal["red", "green", "black", "blue"]
#: A location's colour; purple marks the neutral spaces (Monarch City and the Inns).
LocationColour = Literal["red", "green", "black", "blue", "purple"]
#: A special card's battle colour: a faction colour, or ``any`` (usable against every general).
CardColour = Literal["red", "green", "black", "blue", "any"]
Confidence = Literal["high", "medium", "low"]
#: A number of life tokens or cards: a fixed number, a die roll (``D3``, ``D6``) or ``all``.
Amount = Annotated[int, pydantic.Field(ge=0)] | Literal["D3", "D6", "all"]
#: A machine-usable parameter value of an ability or effect.
Param = bool | int | str | tuple[str, ...]
FACTION_COLOURS: tuple[FactionColour, ...] = ("red", "green", "black", "blue")

Id = Annotated[str, pydantic.Field(pattern=r"^[a-z][a-z0-9_]*$")]


class _Frozen(pydantic.BaseModel):
    """A nested part of an item (its source is the item's)."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")


class DefendersItem(SourcedModel):
    """A sourced content item with the research's confidence and, if the sources disagree, the choice made."""

    confidence: Confidence | None = None
    choice: str | None = None


# --- the board ---------------------------------------------------------------------------------


class Location(DefendersItem):
    """One space of the board.

    ``monarch_city``: the capital (heroes start here, a general entering it ends the game).
    ``inn``: an Inn (Rumors, full rest). ``magic_gate``: starts the game with a Magic Gate token (DEF-SET-03).
    ``treasure_chest``: shows a chest (the Rogue's Thievery). ``x``/``y``: drawing
    position on a 1000 x 700 canvas (the layout's source is the file's ``layout_source``).
    """

    id: Id
    name: str
    colour: LocationColour
    inn: bool = False
    magic_gate: bool = False
    monarch_city: bool = False
    treasure_chest: bool = False
    x: Annotated[int, pydantic.Field(ge=0, le=1000)]
    y: Annotated[int, pydantic.Field(ge=0, le=700)]
    aliases: tuple[str, ...] = ()


class Connection(DefendersItem):
    """A path between two locations (movement, overruns and general advances follow these)."""

    a: Id
    b: Id

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.a, self.b))


class LocationsFile(ContentModel):
    layout_source: str
    layout_confidence: Confidence | None = None
    locations: tuple[Location, ...]
    connections: tuple[Connection, ...]
    choice: str | None = None


# --- enemies -------------------------------------------------------------------------------------


class Components(DefendersItem):
    """Box counts the rules need: taint crystals, Magic Gate tokens, minions that start with each general."""

    taint_crystals: Annotated[int, pydantic.Field(ge=1)]
    magic_gate_tokens: Annotated[int, pydantic.Field(ge=0)]
    general_start_minions: Annotated[int, pydantic.Field(ge=0)]


class MinionKind(DefendersItem):
    """One colour of minions.

    ``kill_number``: a die roll of at least this kills one (one die per minion).
    ``supply``: how many the box holds. ``causes_fear``: a hero ending its turn with
    them takes one more wound (undead). ``taints_with_three``: three of them alone on a
    location place a taint crystal (demons).
    """

    colour: FactionColour
    name: str
    plural: str
    supply: Annotated[int, pydantic.Field(ge=1)]
    kill_number: Annotated[int, pydantic.Field(ge=2, le=6)]
    causes_fear: bool = False
    taints_with_three: bool = False


GeneralSkill = Literal["demonic_curse", "parry", "no_rerolls", "regeneration"]


class General(DefendersItem):
    """One general.

    ``path``: the spaces it walks, from ``start`` to Monarch City inclusive, one
    connection per step. ``life``: wounds needed to defeat it. ``hit``: a die roll of at
    least this wounds it. ``grave_wound_at_life``: its wounds are grave once its remaining
    life is at or below this number (``None``: it never takes grave wounds).
    ``skill``: the id of its combat skill (``demonic_curse``: before the fight roll a die
    per committed card, each 1 discards one; ``parry``: each 1 rolled cancels a hit;
    ``no_rerolls``: no re-rolls in the fight; ``regeneration``: heals fully after any
    fight that does not defeat it); ``skill_params`` holds its numbers (``curse_face``,
    ``parry_face``). ``penalty_life``/``penalty_cards``: what each hero
    who loses a fight against it loses.
    """

    id: Id
    name: str
    colour: FactionColour
    faction: str
    start: Id
    path: tuple[Id, ...]
    life: Annotated[int, pydantic.Field(ge=1)]
    hit: Annotated[int, pydantic.Field(ge=2, le=6)]
    grave_wound_at_life: Annotated[int, pydantic.Field(ge=0)] | None = None
    skill: GeneralSkill
    skill_params: Mapping[str, Param] = pydantic.Field(default_factory=dict)
    skill_name: str
    skill_text: str
    penalty_life: Amount
    penalty_cards: Amount
    penalty_text: str

    @property
    def allows_rerolls(self) -> bool:
        """False when no re-roll of any kind may be used against this general (DEF-GEN-10)."""
        return self.skill != "no_rerolls"

    @property
    def regenerates(self) -> bool:
        """True when the general heals fully after any battle that does not defeat it (DEF-GEN-09)."""
        return self.skill == "regeneration"

    def is_grave(self, remaining_life: int) -> bool:
        """True when a general with this much life left carries grave wounds."""
        return self.grave_wound_at_life is not None and remaining_life <= self.grave_wound_at_life

    def next_on_path(self, here: str) -> str | None:
        """The next space after ``here`` on the path to Monarch City (None at the end or off the path)."""
        if here not in self.path:
            return None
        i = self.path.index(here)
        return self.path[i + 1] if i + 1 < len(self.path) else None


class GeneralsFile(ContentModel):
    components: Components
    minions: tuple[MinionKind, ...]
    generals: tuple[General, ...]


# --- heroes --------------------------------------------------------------------------------------

AbilityTiming = Literal[
    "passive",  # always applies (a modifier)
    "turn_start",  # at the start of the hero's turn
    "action",  # used as (or in place of) an action in Daytime
    "combat",  # while fighting minions or a general
    "end_of_turn",  # when the hero ends its turn
    "night",  # during Darkness Spreads
]


class HeroAbility(_Frozen):
    """One ability on a hero sheet: an effect id with machine-usable ``params``, and text in own words."""

    id: Id
    name: str
    timing: AbilityTiming
    costs_action: bool = False
    text: str
    params: Mapping[str, Param] = pydantic.Field(default_factory=dict)


class Hero(DefendersItem):
    """One hero: ``life`` is both its life tokens and its actions per turn."""

    id: Id
    name: str
    life: Annotated[int, pydantic.Field(ge=1)]
    abilities: tuple[HeroAbility, ...]

    def ability(self, ability_id: str) -> HeroAbility | None:
        return next((a for a in self.abilities if a.id == ability_id), None)


class HeroesFile(ContentModel):
    heroes: tuple[Hero, ...]


# --- Darkness Spreads ----------------------------------------------------------------------------

DarknessKind = Literal["regular", "all_is_quiet", "orc_patrols", "orc_war_party", "monarch_city"]
#: ``general_target`` value meaning "the next space on the general's path".
NEXT_ON_PATH = "next"


class Placement(_Frozen):
    """``count`` minions of ``colour`` on ``location``."""

    location: Id
    colour: FactionColour
    count: Annotated[int, pydantic.Field(ge=1, le=3)]


class DarknessCard(DefendersItem):
    """One Darkness Spreads card (``copies`` identical cards share an entry).

    Regular cards have two ``placements`` and a general part: ``general`` advances to
    ``general_target`` (a location id, or ``"next"`` for the next space on its path)
    if that is its next space, bringing ``general_minions`` of its colour. Special
    kinds: ``all_is_quiet`` (nothing happens), ``orc_patrols`` (one orc on every empty
    green location, then a general part), ``orc_war_party`` (a second orc on every
    location holding exactly one orc and nothing else, then a general part),
    ``monarch_city`` (one minion of each colour found next to Monarch City goes into
    it, then the decks are reshuffled; no general moves).
    """

    id: Id
    name: str
    kind: DarknessKind
    copies: Annotated[int, pydantic.Field(ge=1)] = 1
    placements: tuple[Placement, ...] = ()
    general: Id | None = None
    general_target: Id | None = None
    general_minions: Annotated[int, pydantic.Field(ge=0, le=3)] = 0
    text: str = ""

    @property
    def places_minions(self) -> bool:
        """The card has a minion part (used by the first card of a night, DEF-DRK-03)."""
        return self.kind in {"regular", "orc_patrols", "orc_war_party", "monarch_city"}

    @property
    def moves_general(self) -> bool:
        """The card has a general part."""
        return self.general is not None

    @property
    def reshuffles_decks(self) -> bool:
        return self.kind == "monarch_city"


class DarknessFile(ContentModel):
    deck_size: Annotated[int, pydantic.Field(ge=1)]
    regular_cards: Annotated[int, pydantic.Field(ge=0)]
    cards: tuple[DarknessCard, ...]
    choice: str | None = None


# --- hero deck -----------------------------------------------------------------------------------

Travel = Literal["horse", "eagle", "gate"]


class HeroCard(DefendersItem):
    """A location hero card: its ``location`` and ``colour``, movement band and battle dice."""

    id: Id
    location: Id
    colour: FactionColour
    travel: Travel
    dice: Annotated[int, pydantic.Field(ge=1, le=3)]
    copies: Annotated[int, pydantic.Field(ge=1)] = 1


SpecialEffect = Literal[
    "place_gate",  # put a Magic Gate on any location
    "move_hero",  # move any one hero to any location
    "purify_location",  # remove every taint crystal from one location
    "clear_colour_locations",  # remove all minions from `locations` locations of `colour`
    "battle_strategy",  # remove all minions from `locations` locations and push one general back
    "skip_darkness",  # draw no Darkness Spreads card this night
    "reroll_failed",  # re-roll every failed die of one combat
    "clear_here",  # remove every minion where the hero stands
    "inn_draw",  # at an Inn: draw `draw`, keep one named colour and all specials
    "kings_guard",  # remove up to `minions` minions in or next to Monarch City
    "cavalry_sweep",  # remove `minions` minions, at most `per_location` each, along a chain
    "dark_visions",  # look at the top `look` Darkness cards, discard any, reorder the rest
    "cancel_placement",  # at night cancel one location's minions on a Darkness card
    "stop_general",  # at night stop the general part of a Darkness card
    "stop_healing",  # one general does not heal during one player's turn
]
SpecialTiming = Literal["any_time", "own_turn_action", "combat", "night", "at_inn"]


class SpecialCard(DefendersItem):
    """A purple (special) hero card: effect id + params; also usable in battle with ``dice``.

    ``colour`` ``any`` means its dice count against every general. ``timing`` is when it
    may be played (``any_time``: even in another player's turn). Used specials leave the game.
    """

    id: Id
    name: str
    colour: CardColour
    dice: Annotated[int, pydantic.Field(ge=0, le=3)]
    copies: Annotated[int, pydantic.Field(ge=1)] = 1
    effect: SpecialEffect
    params: Mapping[str, Param] = pydantic.Field(default_factory=dict)
    timing: SpecialTiming
    costs_action: bool = False
    text: str


class HeroCardsFile(ContentModel):
    location_deck_size: Annotated[int, pydantic.Field(ge=1)]
    special_deck_size: Annotated[int, pydantic.Field(ge=0)]
    cards: tuple[HeroCard, ...]
    specials: tuple[SpecialCard, ...]
    choice: str | None = None


# --- quests --------------------------------------------------------------------------------------

QuestKind = Literal[
    "dice_roll",  # at `location`, spend `action_cost` actions, roll `dice`; any die >= `target` succeeds
    "visit_all",  # stand on every one of `locations` (no action needed)
    "actions_at",  # spend `action_cost` actions at each of `locations`
    "defeat_minions",  # defeat the minions counted in `defeat` (held on the card as progress)
    "build_gate",  # build a Magic Gate on a location of `gate_colour`
    "scout_general",  # spend `action_cost` actions on `general`'s space
]


class QuestRequirement(_Frozen):
    """What completes a quest (fields used depend on ``kind``; see :data:`QuestKind`)."""

    kind: QuestKind
    location: Id | None = None
    locations: tuple[Id, ...] = ()
    action_cost: Annotated[int, pydantic.Field(ge=0)] = 0
    dice: Annotated[int, pydantic.Field(ge=0)] = 0
    target: Annotated[int, pydantic.Field(ge=0, le=6)] = 0
    pay_per_die: bool = False
    fail_discards: bool = False
    defeat: Mapping[FactionColour, Annotated[int, pydantic.Field(ge=1)]] = pydantic.Field(
        default_factory=dict
    )
    general: Id | None = None
    gate_colour: FactionColour | None = None


QuestRewardTiming = Literal["immediate", "permanent", "discard"]
QuestEffect = Literal[
    "combat_bonus",  # +`bonus` to every combat die (`generals`: against generals too)
    "colour_combat_bonus",  # +`bonus` to attack dice on `colour` locations (`all_heroes`)
    "extra_actions",  # `actions` more actions every turn
    "extra_card_draw",  # `cards` more hero cards every Evening
    "ignore_general_penalty",  # no penalty for losing a battle against a general
    "extra_combat_dice",  # `dice` more dice in one combat (`generals`: against a general too)
    "unicorn_steed",  # travel as if holding a Horse card; `rerolls_per_combat` re-rolls of failed dice
    "draw_hero_cards",  # draw `cards` hero cards
    "stop_general",  # stop the general part of one Darkness Spreads card
    "kill_minions_near",  # remove `minions` minions within `range` of `centre`
    "cancel_general_skill",  # switch off a general's combat skill for one battle
    "skip_darkness",  # draw no Darkness Spreads cards this night
    "move_heroes",  # move up to `heroes` heroes anywhere, free
    "cancel_placement",  # cancel the minions for `locations` location(s) of `colour` on a Darkness card
    "search_hero_card",  # take the first hero card of `colour` from the deck, then shuffle it
    "remove_taint_here",  # remove `crystals` taint crystal(s) where the hero stands
    "remove_taint_anywhere",  # remove `crystals` taint crystal(s) anywhere
    "ward_end_of_turn",  # take no end-of-turn minion wounds for one turn
]


class QuestReward(_Frozen):
    """What completing a quest gives: ``immediate`` once, ``permanent`` for the rest of the game,
    or ``discard`` (the completed card is kept and discarded later for its effect)."""

    effect: QuestEffect
    timing: QuestRewardTiming
    params: Mapping[str, Param] = pydantic.Field(default_factory=dict)
    text: str


class Quest(DefendersItem):
    id: Id
    name: str
    requirement: QuestRequirement
    reward: QuestReward
    text: str

    @property
    def holds_minions(self) -> bool:
        """Progress is kept as defeated minions on the card (they go back to the supply if needed)."""
        return self.requirement.kind == "defeat_minions"


class QuestsFile(ContentModel):
    deck_size: Annotated[int, pydantic.Field(ge=1)]
    quests: tuple[Quest, ...]
    choice: str | None = None


# --- the whole content ---------------------------------------------------------------------------


def card_instances(card_id: str, copies: int) -> tuple[str, ...]:
    """Deck entries for a card: its id if single, else ``id#1`` .. ``id#n``."""
    return (card_id,) if copies == 1 else tuple(f"{card_id}#{n}" for n in range(1, copies + 1))


def card_id_of(instance: str) -> str:
    """The card id behind a deck entry made by :func:`card_instances`."""
    return instance.split("#", 1)[0]


class DefendersContent:
    """The validated content of one folder, with lookups by id. Immutable once loaded."""

    def __init__(
        self,
        folder: Path,
        locations: LocationsFile,
        generals: GeneralsFile,
        heroes: HeroesFile,
        darkness: DarknessFile,
        hero_cards: HeroCardsFile,
        quests: QuestsFile,
        digest: str,
    ) -> None:
        self.folder = folder
        self.locations_file = locations
        self.generals_file = generals
        self.heroes_file = heroes
        self.darkness_file = darkness
        self.hero_cards_file = hero_cards
        self.quests_file = quests
        self.content_hash = digest
        self.locations: dict[str, Location] = {loc.id: loc for loc in locations.locations}
        self.connections: tuple[tuple[str, str], ...] = tuple((c.a, c.b) for c in locations.connections)
        self.components: Components = generals.components
        self.minions: dict[str, MinionKind] = {m.colour: m for m in generals.minions}
        self.generals: dict[str, General] = {g.id: g for g in generals.generals}
        self.heroes: dict[str, Hero] = {h.id: h for h in heroes.heroes}
        self.darkness_cards: dict[str, DarknessCard] = {c.id: c for c in darkness.cards}
        self.hero_cards: dict[str, HeroCard] = {c.id: c for c in hero_cards.cards}
        self.special_cards: dict[str, SpecialCard] = {c.id: c for c in hero_cards.specials}
        self.quests: dict[str, Quest] = {q.id: q for q in quests.quests}
        self.monarch_city: str = next(loc.id for loc in locations.locations if loc.monarch_city)

    # lookups ---------------------------------------------------------------------------------
    def location(self, location_id: str) -> Location:
        return self.locations[location_id]

    def general(self, general_id: str) -> General:
        return self.generals[general_id]

    def general_of_colour(self, colour: str) -> General:
        return next(g for g in self.generals.values() if g.colour == colour)

    def minion(self, colour: str) -> MinionKind:
        return self.minions[colour]

    def hero(self, hero_id: str) -> Hero:
        return self.heroes[hero_id]

    def darkness_card(self, card_id: str) -> DarknessCard:
        """A Darkness Spreads card by id or by deck entry (``id#n``)."""
        return self.darkness_cards[card_id_of(card_id)]

    def hero_card(self, card_id: str) -> HeroCard | SpecialCard:
        """A hero-deck card (location or special) by id or by deck entry (``id#n``)."""
        key = card_id_of(card_id)
        return self.hero_cards[key] if key in self.hero_cards else self.special_cards[key]

    def quest(self, quest_id: str) -> Quest:
        return self.quests[quest_id]

    @property
    def inns(self) -> tuple[str, ...]:
        return tuple(loc.id for loc in self.locations.values() if loc.inn)

    @property
    def starting_gates(self) -> tuple[str, ...]:
        return tuple(loc.id for loc in self.locations.values() if loc.magic_gate)

    def locations_of_colour(self, colour: str) -> tuple[str, ...]:
        return tuple(loc.id for loc in self.locations.values() if loc.colour == colour)

    # decks -------------------------------------------------------------------------------------
    def darkness_deck(self) -> tuple[str, ...]:
        """Every Darkness Spreads card as a deck entry, unshuffled, in file order."""
        return tuple(e for c in self.darkness_file.cards for e in card_instances(c.id, c.copies))

    def hero_deck(self) -> tuple[str, ...]:
        """Every hero-deck card (location cards, then specials) as a deck entry, unshuffled."""
        cards = self.hero_cards_file
        return tuple(e for c in cards.cards for e in card_instances(c.id, c.copies)) + tuple(
            e for s in cards.specials for e in card_instances(s.id, s.copies)
        )

    def quest_deck(self) -> tuple[str, ...]:
        return tuple(q.id for q in self.quests_file.quests)

    # board ---------------------------------------------------------------------------------------
    @cached_property
    def _graph(self) -> BoardGraph:
        spaces = []
        for loc in self.locations_file.locations:
            kind = "city" if loc.monarch_city else "inn" if loc.inn else "land"
            props = {
                "name": loc.name,
                "colour": loc.colour,
                "inn": loc.inn,
                "magic_gate": loc.magic_gate,
                "treasure_chest": loc.treasure_chest,
                "x": loc.x,
                "y": loc.y,
            }
            spaces.append(Space(loc.id, kind, props))
        return BoardGraph(spaces, self.connections)

    def graph(self) -> BoardGraph:
        """The board as a :class:`BoardGraph`: kinds ``city``/``inn``/``land``; props hold name,
        colour, inn, magic_gate, treasure_chest, x, y. Built once and shared (it is read-only)."""
        return self._graph


# --- loading and cross-checks --------------------------------------------------------------------


def _k(section: str, index: int, item_id: str | None, field: str = "") -> str:
    label = f" (id {item_id})" if item_id else ""
    return f"{section}[{index}]{label}" + (f".{field}" if field else "")


def _check_unique(report: ContentReport, file: Path, section: str, ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for i, item_id in enumerate(ids):
        report.check(item_id not in seen, file, _k(section, i, item_id, "id"), f"duplicate id {item_id!r}")
        seen.add(item_id)


def _check_locations(report: ContentReport, path: Path, data: LocationsFile) -> None:
    _check_unique(report, path, "locations", (loc.id for loc in data.locations))
    known = {loc.id for loc in data.locations}
    capitals = [loc.id for loc in data.locations if loc.monarch_city]
    report.check(
        len(capitals) == 1, path, "locations", f"exactly one location must be monarch_city, found {capitals}"
    )
    for i, loc in enumerate(data.locations):
        if loc.inn or loc.monarch_city:
            report.check(
                loc.colour == "purple",
                path,
                _k("locations", i, loc.id, "colour"),
                "Monarch City and the Inns are purple (neutral)",
            )
        else:
            report.check(
                loc.colour != "purple",
                path,
                _k("locations", i, loc.id, "colour"),
                "only Monarch City and the Inns are purple",
            )
    seen: set[frozenset[str]] = set()
    for i, con in enumerate(data.connections):
        key = _k("connections", i, None)
        for end in (con.a, con.b):
            report.check(end in known, path, key, f"connection names unknown location {end!r}")
        if not report.check(con.a != con.b, path, key, f"location {con.a!r} connected to itself"):
            continue
        report.check(con.pair not in seen, path, key, f"duplicate connection {con.a}-{con.b}")
        seen.add(con.pair)
    if report.errors:
        return
    graph = BoardGraph(
        [Space(loc.id, "land") for loc in data.locations], [(c.a, c.b) for c in data.connections]
    )
    if not graph.connected():
        first = data.locations[0].id
        cut_off = sorted(loc.id for loc in data.locations if graph.distance(first, loc.id) is None)
        report.error(
            path, "connections", f"the board is not connected: cannot reach {cut_off} from {first!r}"
        )


def _check_generals(report: ContentReport, path: Path, data: GeneralsFile, locations: LocationsFile) -> None:
    _check_unique(report, path, "generals", (g.id for g in data.generals))
    known = {loc.id for loc in locations.locations}
    pairs = {c.pair for c in locations.connections}
    capital = next((loc.id for loc in locations.locations if loc.monarch_city), None)
    colours = [m.colour for m in data.minions]
    for i, minion in enumerate(data.minions):
        report.check(
            colours.count(minion.colour) == 1,
            path,
            _k("minions", i, minion.colour, "colour"),
            f"duplicate minion colour {minion.colour!r}",
        )
    for colour in FACTION_COLOURS:
        report.check(colour in colours, path, "minions", f"no minions of colour {colour!r}")
    general_colours = [g.colour for g in data.generals]
    for i, gen in enumerate(data.generals):
        report.check(
            general_colours.count(gen.colour) == 1,
            path,
            _k("generals", i, gen.id, "colour"),
            f"two generals share colour {gen.colour!r}",
        )
        report.check(
            gen.start in known, path, _k("generals", i, gen.id, "start"), f"unknown location {gen.start!r}"
        )
        key = _k("generals", i, gen.id, "path")
        unknown = [s for s in gen.path if s not in known]
        if not report.check(not unknown, path, key, f"path names unknown location(s) {unknown}"):
            continue
        if not report.check(len(gen.path) >= 2, path, key, "path needs at least a start and Monarch City"):
            continue
        report.check(gen.path[0] == gen.start, path, key, f"path must begin at the start {gen.start!r}")
        report.check(gen.path[-1] == capital, path, key, f"path must end at Monarch City ({capital!r})")
        report.check(len(set(gen.path)) == len(gen.path), path, key, "path visits a location twice")
        for step, (a, b) in enumerate(zip(gen.path, gen.path[1:], strict=False)):
            report.check(
                frozenset((a, b)) in pairs,
                path,
                f"{key}[{step + 1}]",
                f"step {a!r} -> {b!r} is not a connection",
            )
        if gen.grave_wound_at_life is not None:
            report.check(
                gen.grave_wound_at_life < gen.life,
                path,
                _k("generals", i, gen.id, "grave_wound_at_life"),
                "grave threshold must be below the general's life",
            )


def _check_heroes(report: ContentReport, path: Path, data: HeroesFile) -> None:
    _check_unique(report, path, "heroes", (h.id for h in data.heroes))
    for i, hero in enumerate(data.heroes):
        ids = [a.id for a in hero.abilities]
        for j, ability_id in enumerate(ids):
            report.check(
                ids.index(ability_id) == j,
                path,
                _k("heroes", i, hero.id, f"abilities[{j}].id"),
                f"duplicate ability id {ability_id!r}",
            )


def _check_darkness(
    report: ContentReport,
    path: Path,
    data: DarknessFile,
    locs: dict[str, Location],
    generals: dict[str, General],
    capital: str,
) -> None:
    _check_unique(report, path, "cards", (c.id for c in data.cards))
    for i, card in enumerate(data.cards):
        for j, place in enumerate(card.placements):
            key = _k("cards", i, card.id, f"placements[{j}].location")
            if place.location not in locs:
                report.error(path, key, f"unknown location {place.location!r}")
                continue
            report.check(
                locs[place.location].colour == place.colour,
                path,
                key.replace(".location", ".colour"),
                f"{place.location} is {locs[place.location].colour}, the card places {place.colour}",
            )
        key = _k("cards", i, card.id, "general")
        if card.kind == "regular":
            report.check(
                len(card.placements) == 2,
                path,
                _k("cards", i, card.id, "placements"),
                "a regular card places minions on two locations",
            )
        if card.kind in {"regular", "orc_patrols", "orc_war_party"}:
            if not report.check(card.general is not None, path, key, f"a {card.kind} card names a general"):
                continue
        else:
            report.check(
                card.general is None and not card.placements,
                path,
                key,
                f"an {card.kind} card has no placements and no general part",
            )
            continue
        assert card.general is not None
        if not report.check(card.general in generals, path, key, f"unknown general {card.general!r}"):
            continue
        target = card.general_target
        tkey = _k("cards", i, card.id, "general_target")
        if target is None or target == NEXT_ON_PATH:
            report.check(target is not None, path, tkey, 'give a location id or "next"')
        elif report.check(target in locs, path, tkey, f"unknown location {target!r}"):
            report.check(
                target in generals[card.general].path[1:],
                path,
                tkey,
                f"{target!r} is not on {card.general}'s path beyond its start",
            )
        if target == capital:
            report.check(
                card.general_minions == 0,
                path,
                _k("cards", i, card.id, "general_minions"),
                "a general entering Monarch City brings no minions",
            )
    size = sum(c.copies for c in data.cards)
    report.check(
        size == data.deck_size,
        path,
        "deck_size",
        f"deck_size says {data.deck_size} but the cards add up to {size}",
    )
    regular = sum(c.copies for c in data.cards if c.kind == "regular")
    report.check(
        regular == data.regular_cards,
        path,
        "regular_cards",
        f"regular_cards says {data.regular_cards} but there are {regular}",
    )
    report.check(
        sum(c.copies for c in data.cards if c.kind == "monarch_city") == 1,
        path,
        "cards",
        "the deck holds exactly one Monarch City card",
    )


def _check_hero_cards(
    report: ContentReport, path: Path, data: HeroCardsFile, locs: dict[str, Location]
) -> None:
    seen: set[str] = set()
    ids = [("cards", i, c.id) for i, c in enumerate(data.cards)]
    ids += [("specials", i, s.id) for i, s in enumerate(data.specials)]
    for section, i, item_id in ids:
        report.check(item_id not in seen, path, _k(section, i, item_id, "id"), f"duplicate id {item_id!r}")
        seen.add(item_id)
    for i, card in enumerate(data.cards):
        key = _k("cards", i, card.id, "location")
        if not report.check(card.location in locs, path, key, f"unknown location {card.location!r}"):
            continue
        loc = locs[card.location]
        report.check(
            loc.colour == card.colour,
            path,
            _k("cards", i, card.id, "colour"),
            f"{card.location} is {loc.colour}, the card says {card.colour}",
        )
    size = sum(c.copies for c in data.cards)
    report.check(
        size == data.location_deck_size,
        path,
        "location_deck_size",
        f"location_deck_size says {data.location_deck_size} but the cards add up to {size}",
    )
    specials = sum(s.copies for s in data.specials)
    report.check(
        specials == data.special_deck_size,
        path,
        "special_deck_size",
        f"special_deck_size says {data.special_deck_size} but the specials add up to {specials}",
    )


def _check_quests(
    report: ContentReport,
    path: Path,
    data: QuestsFile,
    locs: dict[str, Location],
    generals: dict[str, General],
) -> None:
    _check_unique(report, path, "quests", (q.id for q in data.quests))
    for i, quest in enumerate(data.quests):
        req = quest.requirement
        key = _k("quests", i, quest.id, "requirement")
        named = ([req.location] if req.location else []) + list(req.locations)
        for place in named:
            report.check(place in locs, path, key, f"unknown location {place!r}")
        centre = quest.reward.params.get("centre")
        if centre is not None:
            report.check(
                centre in locs,
                path,
                _k("quests", i, quest.id, "reward.params.centre"),
                f"unknown location {centre!r}",
            )
        if req.general is not None:
            report.check(req.general in generals, path, f"{key}.general", f"unknown general {req.general!r}")
        needs = {
            "dice_roll": req.location is not None and (req.dice > 0 or req.pay_per_die) and req.target > 0,
            "visit_all": bool(req.locations),
            "actions_at": bool(req.locations) and req.action_cost > 0,
            "defeat_minions": bool(req.defeat),
            "build_gate": req.gate_colour is not None,
            "scout_general": req.general is not None,
        }
        report.check(needs[req.kind], path, f"{key}.kind", f"incomplete {req.kind} requirement")
    report.check(
        len(data.quests) == data.deck_size,
        path,
        "deck_size",
        f"deck_size says {data.deck_size} but there are {len(data.quests)} quests",
    )


def load_defenders_content(folder: Path | None = None) -> DefendersContent:
    """Load and cross-check a Defenders content folder (``None``: the shipped ``data/`` folder).

    Raises :class:`ContentErrors` listing every mistake, each naming its file and key.
    """
    base = DATA_DIR if folder is None else Path(folder)
    report = ContentReport()
    paths = {name: base / name for name in CONTENT_FILES}
    models: dict[str, ContentModel] = {}
    schema: tuple[tuple[str, type[ContentModel]], ...] = (
        ("locations.toml", LocationsFile),
        ("generals.toml", GeneralsFile),
        ("heroes.toml", HeroesFile),
        ("darkness.toml", DarknessFile),
        ("hero_cards.toml", HeroCardsFile),
        ("quests.toml", QuestsFile),
    )
    for name, model in schema:
        if not paths[name].is_file():
            report.error(paths[name], "(file)", "missing content file")
            continue
        try:
            models[name] = load_model(paths[name], model)
        except (ContentError, ContentErrors) as exc:
            report.absorb(exc)
    report.raise_if_any()
    locations = models["locations.toml"]
    generals = models["generals.toml"]
    heroes = models["heroes.toml"]
    darkness = models["darkness.toml"]
    hero_cards = models["hero_cards.toml"]
    quests = models["quests.toml"]
    assert isinstance(locations, LocationsFile) and isinstance(generals, GeneralsFile)
    assert isinstance(heroes, HeroesFile) and isinstance(darkness, DarknessFile)
    assert isinstance(hero_cards, HeroCardsFile) and isinstance(quests, QuestsFile)

    _check_locations(report, paths["locations.toml"], locations)
    locs = {loc.id: loc for loc in locations.locations}
    capital = next((loc.id for loc in locations.locations if loc.monarch_city), "")
    _check_generals(report, paths["generals.toml"], generals, locations)
    gens = {g.id: g for g in generals.generals}
    _check_heroes(report, paths["heroes.toml"], heroes)
    _check_darkness(report, paths["darkness.toml"], darkness, locs, gens, capital)
    _check_hero_cards(report, paths["hero_cards.toml"], hero_cards, locs)
    _check_quests(report, paths["quests.toml"], quests, locs, gens)
    report.raise_if_any()
    digest = content_hash(paths.values())
    return DefendersContent(base, locations, generals, heroes, darkness, hero_cards, quests, digest)
