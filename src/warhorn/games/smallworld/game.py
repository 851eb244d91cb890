"""Small World of Warcraft as a game: spec, options, setup and the factory.

The game registers itself with the engine in :mod:`warhorn.games.smallworld.plugin`
(imported by the package), so this module stays importable on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warhorn.engine.decisions import GameSpec, OptionSpec
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.rng import Rng
from warhorn.games.smallworld.board import SmallWorldBoard, load_board_set
from warhorn.games.smallworld.content import (
    DATA_DIR,
    SmallWorldContent,
    load_smallworld_content,
    shipped_content,
)
from warhorn.games.smallworld.state import MURLOCS, Seat, SmallWorldState

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", int, 2, "number of players (SWW-FLW-01)", minimum=2, maximum=5),
    OptionSpec(
        "board",
        str,
        "islands",
        "board set: warhorn's original islands, or the four classic Small World maps",
        choices=("islands", "classic"),
    ),
    OptionSpec(
        "islands",
        str,
        "random",
        "islands board set: each island drawn at random by the seed among the set's islands of its "
        "size (the rulebook's set-up), or fixed: the set's layout for the player count",
        choices=("random", "fixed"),
    ),
    OptionSpec(
        "forsaken_count_murlocs",
        bool,
        False,
        "Forsaken may also buy a token for each Murloc they wipe out (open point of SWW-RAC-FOR)",
    ),
    OptionSpec(
        "towers_stay_in_decline",
        bool,
        False,
        "a Defensive race's Watch Towers stay when it declines (open point of SWW-POW-DEF)",
    ),
)

SPEC = GameSpec(
    id="smallworld",
    name="Small World of Warcraft",
    rules_version="1",
    min_players=2,
    max_players=5,
    has_chance=True,
    hidden_information=True,
    options=OPTIONS,
    max_actions=30_000,
    description="2-5 players pick race and power combos, conquer islands, decline, and count coins.",
)

SmallWorldState.spec = SPEC


def set_up(
    board: SmallWorldBoard,
    content: SmallWorldContent,
    options: dict[str, Any],
    seed: int,
    rng: Rng,
    board_ref: dict[str, Any] | None = None,
) -> SmallWorldState:
    """A game at the start of the first player's first turn (rulebook set-up, steps 3-7)."""
    players = int(options["players"])
    s = SmallWorldState(
        board=board, content=content, options=options, seed=seed, rng=rng, board_ref=board_ref
    )
    s.players = [Seat(coins=content.game.start_coins) for _ in range(players)]
    races = sorted(content.races)
    powers = sorted(content.powers)
    rng.shuffle(races)
    rng.shuffle(powers)
    s.races_stack, s.powers_stack = races, powers
    s.combo_coins = [0] * min(s.visible_combos, len(races), len(powers))
    murlocs = content.murlocs.tokens
    for region in board.regions:
        a = s.areas[region.id]
        if region.murlocs and murlocs:
            a.owner, a.race, a.declined = None, MURLOCS, True
            a.tokens = min(region.murlocs, murlocs)
            murlocs -= a.tokens
        a.mountain = region.mountain_token
    markers = sorted([*content.artifacts, *content.places])
    rng.shuffle(markers)
    for region in board.regions:
        if region.place_slot and markers:
            s.areas[region.id].hidden_marker = markers.pop()
    s.box_markers = sorted(markers)
    bombs = [i < content.supplies.exploding_bombs for i in range(content.supplies.bombs)]
    rng.shuffle(bombs)
    s.bombs = bombs
    from warhorn.games.smallworld.rules import begin_turn

    begin_turn(s)
    return s


def new_smallworld_game(
    options: dict[str, Any], seed: int, content: Any = None, rng: Rng | None = None
) -> SmallWorldState:
    """The factory the registry calls: a set-up game ready for the first player's combo.

    ``content``: None (the shipped content and boards), a :class:`SmallWorldContent` (from a
    content folder: its ``boards/`` replace the shipped sets of the same name) or a folder path.
    """
    resolved = SPEC.resolve_options(options)
    if isinstance(content, Path):
        content = load_smallworld_content(content)
    loaded = content if isinstance(content, SmallWorldContent) else shipped_content()
    folder = None if loaded.folder == DATA_DIR else loaded.folder
    rng = rng if rng is not None else Rng(seed)
    board_set = load_board_set(resolved["board"], folder)
    players = resolved["players"]
    drawn = board_set.draw_islands(players, rng) if resolved["islands"] == "random" else None
    board = board_set.board(players, drawn)
    ref = {"set": resolved["board"], "players": players, "islands": [i.id for i in board.islands]}
    return set_up(board, loaded, resolved, seed, rng, ref)


def check_content_folder(path: Path) -> list[ContentError]:
    """Every mistake in a Small World content folder: its data files and its board sets."""
    from warhorn.games.smallworld.board import check_boards

    errors: list[ContentError] = []
    try:
        load_smallworld_content(path)
    except ContentErrors as exc:
        errors += exc.errors
    except ContentError as exc:
        errors.append(exc)
    return errors + check_boards(path)
