"""Defenders of the Realm's spec, options, factory and content support (the plugin is :mod:`.plugin`)."""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

from warhorn.engine.decisions import GameSpec, OptionSpec
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.plugin import ContentSupport
from warhorn.engine.rng import Rng
from warhorn.games.defenders.board import DefendersBoard
from warhorn.games.defenders.state import DefendersState


def _packaged_hero_ids() -> list[str]:
    """The ids of the packaged heroes (named in the "heroes" option's help, so a player can pick)."""
    with (Path(__file__).parent / "data" / "heroes.toml").open("rb") as file:
        return [hero["id"] for hero in tomllib.load(file).get("heroes", [])]


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", int, 2, "number of players (DEF-END-01)", minimum=1, maximum=4),
    OptionSpec(
        "heroes_per_player",
        int,
        1,
        "heroes each player runs (easier variant: 3, DEF-VAR-01)",
        minimum=1,
        maximum=4,
    ),
    OptionSpec(
        "heroes",
        str,
        "",
        "comma-separated hero ids in seat order, from: "
        + ", ".join(_packaged_hero_ids())
        + "; the rest are drawn at random",
    ),
    OptionSpec("first_player", int, 0, "who takes the first turn (DEF-SET-06)", minimum=0, maximum=3),
    OptionSpec(
        "heal_land",
        str,
        "either",
        "heal the land succeeds on a 5+ on either die (original) or on both (Italian translation)",
        choices=("either", "both"),
    ),
    OptionSpec(
        "demons_overrun_at_three",
        bool,
        False,
        "a third demon also spills demons to the neighbours like an overrun (digest reading of DEF-OVR-04)",
    ),
    OptionSpec("easy_setup", bool, False, "easier: set up with 2+2 cards, 24 minions (DEF-VAR-01)"),
    OptionSpec("easy_no_penalty", bool, False, "easier: no penalty for losing to a general (DEF-VAR-01)"),
    OptionSpec("easy_extra_life", bool, False, "easier: +1 life token per hero (DEF-VAR-01)"),
    OptionSpec("hard_setup_overrun", bool, False, "harder: overruns and taint allowed in setup (DEF-VAR-02)"),
    OptionSpec("hard_less_life", bool, False, "harder: -1 life token per hero (DEF-VAR-02)"),
    OptionSpec(
        "hard_remove_specials",
        int,
        0,
        "harder: remove this many special cards (DEF-VAR-02)",
        minimum=0,
        maximum=6,
    ),
    OptionSpec(
        "hard_remove_quiet",
        int,
        0,
        "harder: remove this many All Is Quiet cards (DEF-VAR-02)",
        minimum=0,
        maximum=3,
    ),
    OptionSpec("hard_fewer_minions", bool, False, "harder: 5 fewer minions of each race (DEF-VAR-02)"),
)

SPEC = GameSpec(
    id="defenders",
    name="Defenders of the Realm",
    rules_version="2",
    min_players=1,
    max_players=4,
    has_chance=True,
    hidden_information=True,
    options=OPTIONS,
    max_actions=20_000,
    cooperative=True,
    description="Cooperative: 1-4 heroes defend Monarch City against four generals and their minions.",
)

DefendersState.spec = SPEC


def load_board(content: Any = None) -> DefendersBoard:
    """The board to play on: a :class:`DefendersBoard` as given, else the packaged content."""
    if isinstance(content, DefendersBoard):
        return content
    if content is None:
        return _packaged_board()
    from warhorn.games.defenders.content_adapter import board_from_content

    return board_from_content(content)


@functools.cache
def _packaged_board() -> DefendersBoard:
    """The packaged content, loaded once (the board is immutable and shared by every state)."""
    from warhorn.games.defenders.content_adapter import board_from_content

    return board_from_content(None)


def new_defenders_game(
    options: dict[str, Any], seed: int, content: Any = None, rng: Rng | None = None
) -> DefendersState:
    """The factory the registry calls: a set-up game ready for the first hero's turn."""
    from warhorn.games.defenders.rules.setup import new_game

    resolved = SPEC.resolve_options(options)
    return new_game(load_board(content), resolved, seed, rng if rng is not None else Rng(seed))


def _check_folder(path: Path) -> list[ContentError]:
    from warhorn.games.defenders.content import load_defenders_content

    try:
        load_defenders_content(path)
    except ContentErrors as exc:
        return list(exc.errors)
    except ContentError as exc:
        return [exc]
    return []


def _load_folder(path: Path | None) -> Any:
    from warhorn.games.defenders.content import load_defenders_content

    return load_defenders_content(path)


CONTENT_SUPPORT = ContentSupport(
    marker_files=("darkness.toml", "hero_cards.toml", "quests.toml"),
    check_folder=_check_folder,
    load_folder=_load_folder,
)
