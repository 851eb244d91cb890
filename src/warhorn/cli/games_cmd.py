"""``warhorn games``: the registered games and their options."""

from __future__ import annotations

import typer
from rich.table import Table
from rich.text import Text

from warhorn.cli.common import console
from warhorn.engine import registered_games
from warhorn.engine.registry import plugin_problems


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games() -> None:
        """List the registered games with their player counts and options."""
        specs = registered_games()
        for name, problem in plugin_problems().items():
            console.print(
                Text(f"game plugin {name!r} is installed but cannot be used: {problem}", style="red")
            )
        if not specs:
            console.print("no games registered")
            return
        for spec in specs.values():
            table = Table(title=f"{spec.id} — {spec.name} (rules {spec.rules_version})", title_justify="left")
            table.add_column(
                "option",
                no_wrap=True,
                overflow="fold",
                min_width=max((len(o.name) for o in spec.options), default=6),
            )
            table.add_column("default")
            table.add_column("allowed")
            table.add_column("meaning")
            for opt in spec.options:
                allowed = (
                    ", ".join(str(c) for c in opt.choices)
                    if opt.choices
                    else opt.type.__name__
                    + (f" {opt.minimum}..{opt.maximum}" if opt.minimum is not None else "")
                )
                table.add_row(opt.name, str(opt.default), allowed, opt.help)
            players = (
                str(spec.min_players)
                if spec.min_players == spec.max_players
                else f"{spec.min_players}-{spec.max_players}"
            )
            console.print(table)
            console.print(
                f"  players {players}; chance: {'yes' if spec.has_chance else 'no'}; "
                f"hidden information: {'yes' if spec.hidden_information else 'no'}\n"
            )
