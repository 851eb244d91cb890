"""Helpers shared by the CLI commands: option parsing, reading input files, and error display.

Every string that comes from outside (a file, an option, a save, an exception's message) is printed
as plain text — never through rich's markup or highlighter — and cut to a bounded length: a
"[NER-MOV-01]" stays visible, and a 250 KB string in a save cannot stall the terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from warhorn.engine.errors import ContentErrors, OptionError, UnknownGameError, WarhornError
from warhorn.engine.plugin import OddsTable
from warhorn.engine.registry import content_support
from warhorn.engine.session import Match, SaveFile

console = Console()
err_console = Console(stderr=True)

#: Untrusted text longer than this is cut when printed (the rest is counted, not shown).
MAX_SHOWN_CHARS = 400
#: The largest save file the CLI reads (a long Nerath game's save is well under 5 MB).
MAX_SAVE_BYTES = 32 * 1024 * 1024
#: Exit codes: bad input (a file, a save, content) and bad usage (options, arguments).
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2


class InputFileError(WarhornError):
    """An input file cannot be used: missing, a folder, too large, or not UTF-8 text."""


def plain(value: object, limit: int = MAX_SHOWN_CHARS, *, style: str = "") -> Text:
    """``value`` as rich text with no markup and no highlighting, on one line, at most ``limit`` chars."""
    text = " ".join(str(value).split("\n"))
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text) - limit} more characters)"
    return Text(text, style=style)


def text_table(block: OddsTable) -> Table:
    """A game's table (title, columns, rows) as a rich table, every cell plain text (no markup)."""
    table = Table(title=plain(block.title, limit=200), title_justify="left")
    for name, justify in block.columns:
        table.add_column(plain(name, limit=80), justify="right" if justify == "right" else "left")
    for row in block.rows:
        table.add_row(*(plain(cell, limit=MAX_SHOWN_CHARS) for cell in row))
    return table


def say(*parts: object, style: str = "") -> None:
    """Print parts on one line to standard output; ``Text`` parts keep their style, others are plain."""
    console.print(_line(parts, style), highlight=False, soft_wrap=True)


def say_error(message: object) -> None:
    """Print ``error: <message>`` (plain, one line) to standard error."""
    err_console.print(
        _line((Text("error: ", style="bold red"), message), ""), highlight=False, soft_wrap=True
    )


def _line(parts: tuple[object, ...], style: str) -> Text:
    line = Text(style=style)
    for part in parts:
        line.append_text(part if isinstance(part, Text) else plain(part))
    return line


def error_message(exc: BaseException) -> str:
    """One line for an error: a content folder's many mistakes become the first one and a count."""
    if isinstance(exc, ContentErrors) and exc.errors:
        first = exc.errors[0]
        more = len(exc.errors) - 1
        suffix = f" (and {more} more mistake(s): `warhorn content check` lists them all)" if more else ""
        return f"{first}{suffix}"
    return str(exc)


def fail(message: object, code: int | None = None) -> typer.Exit:
    """Print the error and return the exit to raise: ``raise fail(...)``.

    The exit code is ``code``, else 2 (usage) for an option or game name and 1 (bad input) for the rest.
    """
    if code is None:
        code = EXIT_USAGE if isinstance(message, OptionError | UnknownGameError) else EXIT_BAD_INPUT
    say_error(error_message(message) if isinstance(message, BaseException) else message)
    return typer.Exit(code)


def read_input_text(path: Path, what: str, max_bytes: int = MAX_SAVE_BYTES) -> str:
    """Read a user's file as UTF-8 text, refusing what cannot be a ``what`` with one clear line."""
    try:
        if path.is_dir():
            raise InputFileError(f"{path}: is a folder, not a {what}")
        size = path.stat().st_size
        if size > max_bytes:
            raise InputFileError(f"{path}: {size:,} bytes is too large for a {what} (at most {max_bytes:,})")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(
            f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}), so not a {what}"
        ) from None


def load_save(path: Path, content: Path | None, *, unverified: bool = False) -> Match:
    """Replay the save at ``path`` (with the content folder it was played with, if any).

    Every way a file can fail — missing, not UTF-8, not a save, an unknown game, bad content, an
    action that does not replay — is a :class:`WarhornError` with one line saying what is wrong.
    """
    text = read_input_text(path, "warhorn save")
    loaded = None
    if content is not None:
        try:
            game = SaveFile.model_validate_json(text).game
        except ValueError:
            game = ""  # Match.from_save below says what is wrong with the save itself
        support = content_support(game) if game else None
        if support is not None:
            loaded = support.load_folder(content)
    return Match.from_save(text, content=loaded, unverified=unverified)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["length=medium", "players=4"]`` → dict; values stay text and the game spec types them."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise OptionError(pair, "an option is written name=value (e.g. -o players=4)")
        name, value = pair.split("=", 1)
        out[name.strip().replace("-", "_")] = value.strip()
    return out
