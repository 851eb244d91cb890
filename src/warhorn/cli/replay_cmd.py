"""``warhorn replay SAVE.json``: replay a save, verify it, and narrate its events."""

from __future__ import annotations

from pathlib import Path

import typer

from warhorn.cli.common import console, err_console
from warhorn.engine import Match, SaveError, content_support, events_for
from warhorn.engine.session import SaveFile


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay(
        save: Path = typer.Argument(..., help="A warhorn save file (JSON)."),
        player: int | None = typer.Option(
            None, "--player", "-p", help="Narrate only what this player saw (default: everything)."
        ),
        content: Path | None = typer.Option(None, "--content", help="Content folder the game used."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Only verify; print no narration."),
    ) -> None:
        """Replay SAVE, check it reproduces the saved state, and print the narration."""
        try:
            text = save.read_text(encoding="utf-8")
        except OSError as exc:
            err_console.print(f"[red]error:[/] cannot read {save}: {exc.strerror}")
            raise typer.Exit(2) from None
        try:
            game = SaveFile.model_validate_json(text).game
        except Exception:
            game = ""
        loaded = None
        support = content_support(game) if game else None
        if content is not None and support is not None:
            loaded = support.load_folder(content)
        try:
            match = Match.from_save(text, content=loaded)
        except SaveError as exc:
            err_console.print(f"[red]error:[/] {save}: {exc}")
            raise typer.Exit(1) from None
        if not quiet:
            for number, batch in enumerate(match.events, start=1):
                action = match.actions[number - 1]
                console.print(f"[dim]{number:>4}[/] [bold]{action.notation()}[/]", highlight=False)
                for event in events_for(batch, player) if player is not None else batch:
                    if event.text:
                        console.print(f"       {event.text}", highlight=False)
        state = match.state
        result = state.results()
        status = f"over: {result.reason}" if result else f"in progress ({state.describe()})"
        console.print(
            f"[green]✓[/] {save}: {len(match.actions)} actions replay exactly; game {status}", highlight=False
        )
