"""``warhorn content check PATH``: validate a content folder and print every mistake with file and key."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.text import Text

from warhorn.cli.common import EXIT_USAGE, fail, say
from warhorn.engine import ContentSupport, content_support, registered_games


def games_with_content() -> dict[str, ContentSupport]:
    out = {}
    for game in registered_games():
        support = content_support(game)
        if support is not None:
            out[game] = support
    return out


def guess_game(folder: Path) -> str | None:
    """The game whose marker files the folder holds most of (None if none)."""
    names = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    best, score = None, 0
    for game, support in games_with_content().items():
        hits = len(names & set(support.marker_files))
        if hits > score:
            best, score = game, hits
    return best


def register(app: typer.Typer) -> None:
    content_app = typer.Typer(help="Check and inspect game content folders.", no_args_is_help=True)
    app.add_typer(content_app, name="content")

    @content_app.command("check")
    def check(
        path: Path = typer.Argument(..., help="Content folder to validate."),
        game: str | None = typer.Option(None, "--game", "-g", help="Game id (guessed from file names)."),
    ) -> None:
        """Validate a content folder: schema and cross-references. Exit code 1 on any error."""
        if not path.is_dir():
            raise fail(f"{path}: {'not a folder' if path.exists() else 'no such folder'}", EXIT_USAGE)
        supports = games_with_content()
        game_id = game or guess_game(path)
        if game_id is None or game_id not in supports:
            known = ", ".join(sorted(supports)) or "none"
            raise fail(
                f"cannot tell which game {path} is for; pass --game (games with content: {known})",
                EXIT_USAGE,
            )
        errors = supports[game_id].check_folder(path)
        if errors:
            for error in errors:
                say(
                    Text("✗ ", style="red"),
                    f"{error.file}: ",
                    Text(error.key, style="bold"),
                    ": ",
                    error.message,
                )
            say(f"{len(errors)} error(s) in {game_id} content at {path}")
            raise typer.Exit(1)
        say(Text("✓ ", style="green"), f"{game_id} content at {path} is valid")
