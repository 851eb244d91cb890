"""Quest for the DragonLords as a game: spec, options, set-up and the factory.

The options are read here and nowhere else (``docs/dragonlords-reconstruction.md`` section 15).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warhorn.engine.decisions import GameSpec, OptionSpec
from warhorn.engine.deck import Deck
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.rng import Rng
from warhorn.games.dragonlords import setup
from warhorn.games.dragonlords.content import (
    DATA_DIR,
    DragonLordsContent,
    load_dragonlords_content,
    shipped_content,
)
from warhorn.games.dragonlords.content import (
    check_content_folder as check_data_files,
)
from warhorn.games.dragonlords.state import DragonLordsState, Phase, Seat
from warhorn.games.dragonlords.world import World, check_world, load_world

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", int, 4, "number of players (DLR-SET-01, DLX-SET-01)", minimum=2, maximum=6),
    OptionSpec(
        "starting_scrolls", int, 2, "spell cards dealt to each of 2-4 players (DLR-SET-02)", choices=(2, 1)
    ),
    OptionSpec("wrap", bool, False, "the world wraps at its top and bottom edges (DLR-MOV-04)"),
    OptionSpec(
        "victory",
        str,
        "bloodbath",
        "short, long or bloodbath game (DLR-END-01, DLX-END-01)",
        choices=("bloodbath", "short", "long"),
    ),
    OptionSpec("advanced", bool, False, "heroes and crystal shards (DLX-SET-03, DLX-SHD-*, DLX-HER-01)"),
    OptionSpec("weak_dragonlords", bool, False, "weaker DragonLords (DLX-OPT-01)"),
    OptionSpec("one_spell_per_round", bool, False, "one spell per caster per combat round (DLX-OPT-02)"),
    OptionSpec(
        "no_overpowered_cards", bool, False, "leave out Summon Elemental and Death Seeker (DLX-OPT-03)"
    ),
    OptionSpec("soft_elimination", bool, False, "a player without King or realm plays on (DLX-OPT-04)"),
    OptionSpec(
        "neutral_apart",
        bool,
        True,
        "with 4-5 players no neutral realm shares a land border with a claimed one (DLR-SET-08)",
    ),
    OptionSpec(
        "max_rounds",
        int,
        40,
        "rounds before the game is ranked without a winner (DLR-TRN-03)",
        minimum=1,
        maximum=200,
    ),
)

SPEC = GameSpec(
    id="dragonlords",
    name="Quest for the DragonLords",
    rules_version="1",
    min_players=2,
    max_players=6,
    has_chance=True,
    hidden_information=True,
    options=OPTIONS,
    max_actions=400_000,
    description="2-6 peoples with hidden Kings and sorcerers fight for six realms, quest in the Wastelands "
    "and tame DragonLords (with the Crystal of Power expansion).",
)

DragonLordsState.spec = SPEC


_WORLDS: dict[tuple[Path | None, bool], World] = {}


def _world(folder: Path | None, wrap: bool) -> World:
    """The world of a content folder (loaded and checked once per folder and wrap option)."""
    key = (folder, wrap)
    if key not in _WORLDS:
        _WORLDS[key] = load_world(folder, wrap=wrap)
    return _WORLDS[key]


def set_up(
    content: DragonLordsContent, options: dict[str, Any], seed: int, rng: Rng, folder: Path | None = None
) -> DragonLordsState:
    """A game at its first set-up decision: the Chosen One picks a people (DLX-SET-04, DLR-SET-03/04)."""
    world = _world(folder, bool(options["wrap"]))
    state = DragonLordsState(world=world, content=content, options=options, seed=seed, rng=rng)
    n = int(options["players"])
    advanced = bool(options["advanced"])
    tokens = ("king", "sorcerer", "decoy", "hero") if advanced else ("king", "sorcerer", "decoy")
    state.players = [Seat(gold=content.game.start_gold, tokens_to_place=tokens) for _ in range(n)]
    seats = [str(p) for p in range(n)]
    first = setup.chosen_one(rng, content, seats)
    state.order = tuple(int(s) for s in setup.turn_order(seats, first))
    state.current = state.order[0]
    state.turn.player = state.current
    state.spell_deck = Deck.shuffled(list(state.full_deck), rng)
    cards = content.start_cards(n, int(options["starting_scrolls"]))
    for seat in state.players:
        state.spell_deck, hand, _ = state.spell_deck.draw_many(cards, rng)
        seat.hand = tuple(sorted(hand))
    state.quest_deck = Deck.shuffled(sorted(content.quests), rng)
    state.box_shards = tuple(rng.shuffled(sorted(content.shards)))
    state.dragonlords_left = content.game.dragonlords
    for space in world.spaces:
        if space.feature == "dragons_lair":
            dragon = content.monsters["lair_dragon"]
            state.monsters[space.id] = (dragon.id, dragon.wounds)
    state.phase = Phase.SETUP_PEOPLE
    return state


def new_dragonlords_game(
    options: dict[str, Any], seed: int, content: Any = None, rng: Rng | None = None
) -> DragonLordsState:
    """The factory the registry calls. ``content``: None (shipped), a loaded content, or a folder."""
    resolved = SPEC.resolve_options(options)
    if isinstance(content, Path):
        content = load_dragonlords_content(content)
    loaded = content if isinstance(content, DragonLordsContent) else shipped_content()
    folder = None if loaded.folder == DATA_DIR else loaded.folder
    if folder is not None and not (folder / "world").is_dir():
        folder = None
    return set_up(loaded, resolved, seed, rng if rng is not None else Rng(seed), folder)


def check_content_folder(path: Path) -> list[ContentError]:
    """Every mistake in a DragonLords content folder: its data files and its world (``world/``)."""
    errors: list[ContentError] = []
    try:
        errors += check_data_files(path)
    except ContentErrors as exc:
        errors += exc.errors
    if (path / "world").is_dir():
        errors += check_world(path)
    return errors
