"""The ``warhorn`` command: a typer app whose commands live in one module each.

Each module in :data:`COMMAND_MODULES` has ``register(app)`` adding its commands.
"""

from __future__ import annotations

import importlib

import typer

from warhorn import __version__

COMMAND_MODULES: tuple[str, ...] = (
    "warhorn.cli.games_cmd",
    "warhorn.cli.content_cmd",
    "warhorn.cli.replay_cmd",
    "warhorn.cli.play_cmd",
    "warhorn.cli.position_cmd",
    "warhorn.cli.odds_cmd",
    "warhorn.cli.rules_cmd",
    "warhorn.cli.tournament_cmd",
    "warhorn.cli.report_cmd",
    "warhorn.cli.experiment_cmd",
    "warhorn.cli.serve_cmd",
)

app = typer.Typer(
    name="warhorn",
    help="Play, analyse and simulate fantasy conquest board games by their rules.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warhorn {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """warhorn: fantasy conquest board games by their rules."""


for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    app()
