"""``warhorn odds <game>``: exact battle odds, one command per game whose plugin offers them.

A game's odds support (``GamePlugin.odds``, :class:`~warhorn.engine.plugin.OddsSupport`) declares
its command as data (:class:`~warhorn.engine.plugin.OddsCli`): the options, the computation and the
report. This module turns each declaration into a typer command, adds ``--top`` and ``--json``
and prints; it knows no game (for Conquest of Nerath's command see docs/odds.md).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import typer

from warhorn.cli.common import console, fail, text_table
from warhorn.engine.errors import WarhornError
from warhorn.engine.plugin import OddsCli, OddsTable, OddsUnavailableError, resolve
from warhorn.engine.registry import game_plugin, registered_games


def register(app: typer.Typer) -> None:
    odds_app = typer.Typer(
        help="Exact battle odds: the whole distribution of a battle's result, no sampling.",
        no_args_is_help=True,
    )

    @odds_app.callback()
    def _odds() -> None:
        """Exact battle odds for a game's battles."""

    for game_id, cli in game_odds_commands().items():
        odds_app.command(game_id)(odds_command(cli))
    app.add_typer(odds_app, name="odds")


def game_odds_commands() -> dict[str, OddsCli]:
    """Each registered game's odds command (games whose odds support declares one), by game id."""
    out: dict[str, OddsCli] = {}
    for game_id in sorted(registered_games()):
        reference = game_plugin(game_id).odds
        if reference is None:
            continue
        try:
            support = resolve(reference)
        except WarhornError:
            continue  # a plugin whose odds cannot be imported offers no command (the registry reports it)
        cli = getattr(support, "cli", None)
        if isinstance(cli, OddsCli):
            out[game_id] = cli
    return out


def odds_command(cli: OddsCli) -> Callable[..., None]:
    """A typer command for a game's declared odds command (its options, then ``--top`` and ``--json``)."""

    def command(**values: Any) -> None:
        top = int(values.pop("top"))
        as_json = bool(values.pop("as_json"))
        try:
            result = cli.answer(values)
        except OddsUnavailableError as exc:
            raise fail(str(exc), code=2) from None
        if as_json:
            typer.echo(json.dumps(cli.to_json(result, top), indent=2))
            return
        for block in cli.report(result, top):
            console.print(text_table(block) if isinstance(block, OddsTable) else block)

    params = [
        inspect.Parameter(
            option.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(
                ... if option.required else option.default,
                *option.flags,
                help=option.help,
                min=option.minimum,
            ),
            annotation=option.kind if option.required or option.default is not None else option.kind | None,
        )
        for option in cli.options
    ]
    params += [
        inspect.Parameter(
            "top",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(5, "--top", min=1, help="How many most likely outcomes to show."),
            annotation=int,
        ),
        inspect.Parameter(
            "as_json",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(False, "--json", help="Print one JSON object instead of tables."),
            annotation=bool,
        ),
    ]
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__doc__ = cli.help
    return command
