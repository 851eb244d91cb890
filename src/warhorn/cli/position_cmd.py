"""``warhorn position``: set up a game from a position file (JSON or TOML), check one, or write one.

- ``warhorn position check FILE``: build the position (every mistake named by file and key),
  check that it reads back the same, and describe it;
- ``warhorn position new GAME``: the position of a new game as JSON, a template to edit;
- ``warhorn position odds FILE --action TEXT``: the odds of the battle that a legal action would
  start there, for games whose plugin offers odds (computed from public facts, as on the web);
- ``warhorn play GAME --position FILE`` (see :mod:`.play_cmd`) plays on from a position.

The format of each game's positions is in ``docs/positions.md``.
"""

from __future__ import annotations

import json
import secrets
import tomllib
from pathlib import Path
from typing import Any

import typer

from warhorn.cli.common import fail, parse_options, read_input_text, say
from warhorn.engine import (
    ContentError,
    ContentErrors,
    Match,
    WarhornError,
    content_support,
    game_plugin,
    load_game,
)
from warhorn.engine.plugin import OddsSupport, OddsUnavailableError, resolve
from warhorn.engine.positions import split_position, to_position

#: Largest position file read (a real position is a few KB).
MAX_POSITION_BYTES = 2_000_000


def read_position(path: Path) -> dict[str, Any]:
    """The mapping in a ``.json`` or ``.toml`` position file; one clear line when it is not one."""
    text = read_input_text(path, "position file", MAX_POSITION_BYTES)
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json":
            data = json.loads(text)
        else:
            raise ContentError(str(path), "(file)", "a position file ends in .json or .toml")
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ContentError(str(path), "(syntax)", str(exc)) from None
    except RecursionError:
        raise ContentError(str(path), "(syntax)", "nested too deeply to be a position") from None
    if not isinstance(data, dict):
        raise ContentError(str(path), "(top level)", "a position is a mapping of keys")
    return data


def _in_file(exc: ContentError | ContentErrors, path: Path) -> ContentErrors:
    """The mistakes with the file's name where the game wrote ``position``."""
    errors = exc.errors if isinstance(exc, ContentErrors) else (exc,)
    named = [ContentError(str(path) if e.file == "position" else e.file, e.key, e.message) for e in errors]
    return ContentErrors(named)


def match_from_position_file(path: Path, game: str | None, content: Path | None, *, undo: bool) -> Match:
    """A match set up from the position in ``path`` (of ``game``, when the file names none)."""
    data = read_position(path)
    try:
        chosen, position = split_position(data, game)
        loaded: Any = None
        if content is not None:
            support = content_support(chosen)
            if support is None:
                raise WarhornError(f"{chosen} takes no content folder")
            loaded = support.load_folder(content)
        return Match.from_position(chosen, position, content=loaded, hotseat_undo=undo)
    except (ContentError, ContentErrors) as exc:
        raise _in_file(exc, path) from None


def _mistakes(file: Path, exc: ContentErrors) -> typer.Exit:
    """Print every mistake of a position file, one a line; the exit to raise."""
    for error in exc.errors:
        say(str(error))
    return fail(f"{file}: {len(exc.errors)} mistake(s)")


def register(app: typer.Typer) -> None:
    position_app = typer.Typer(
        help="Set up a game from a position (JSON or TOML): check one, or write a new game's.",
        no_args_is_help=True,
    )

    @position_app.command("check")
    def check(
        file: Path = typer.Argument(..., help="Position file (.json or .toml)."),
        game: str | None = typer.Option(None, "--game", help="Game id, when the file has no `game` key."),
        content: Path | None = typer.Option(None, "--content", help="Content folder the position uses."),
    ) -> None:
        """Build the position in FILE, check it reads back the same, and describe it."""
        try:
            match = match_from_position_file(file, game, content, undo=False)
        except ContentErrors as exc:
            raise _mistakes(file, exc) from None
        except WarhornError as exc:
            raise fail(exc) from None
        state = match.state
        decision = state.pending()
        say(f"{file}: a position of {state.spec.name} ({state.num_players} players)")
        say(state.describe())
        say(f"waiting for player {decision.player}: {decision.prompt}" if decision else "the game is over")

    @position_app.command("new")
    def new(
        game: str = typer.Argument(..., help="Game id (see `warhorn games`)."),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option as name=value."),
        seed: int | None = typer.Option(
            None, "--seed", help="Seed for dice and shuffles (default: a fresh one)."
        ),
    ) -> None:
        """Print the position of a new game of GAME as JSON (a template for a "what if")."""
        try:
            state = load_game(
                game, seed=secrets.randbelow(2**31) if seed is None else seed, **parse_options(option)
            )
            typer.echo(json.dumps(to_position(state), indent=1))
        except WarhornError as exc:
            raise fail(exc) from None

    @position_app.command("odds")
    def odds(
        file: Path = typer.Argument(..., help="Position file (.json or .toml)."),
        action: str = typer.Option(
            ..., "--action", "-a", help="A legal action there (notation or a unique start)."
        ),
        game: str | None = typer.Option(None, "--game", help="Game id, when the file has no `game` key."),
        content: Path | None = typer.Option(None, "--content", help="Content folder the position uses."),
    ) -> None:
        """The odds of the battle ACTION would start in the position FILE (public facts only), as JSON."""
        try:
            state = match_from_position_file(file, game, content, undo=False).state
            reference = game_plugin(state.spec.id).odds
            if reference is None:
                raise WarhornError(f"{state.spec.id!r} offers no battle odds")
            support = resolve(reference)
            assert isinstance(support, OddsSupport), f"{reference} is not an OddsSupport"
            answer = support.attack_odds(state, state.parse(action))
        except ContentErrors as exc:
            raise _mistakes(file, exc) from None
        except OddsUnavailableError as exc:
            raise fail(f"{exc} ({exc.code})") from None
        except WarhornError as exc:
            raise fail(exc) from None
        typer.echo(json.dumps(answer, indent=1))

    app.add_typer(position_app, name="position")
