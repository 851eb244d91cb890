"""``warhorn replay SAVE.json``: replay a save, verify it, and narrate its events."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.text import Text

from warhorn.cli.common import EXIT_USAGE, fail, load_save, plain, say
from warhorn.engine import WarhornError, events_for


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay(
        save: Path = typer.Argument(..., help="A warhorn save file (JSON)."),
        player: int | None = typer.Option(
            None, "--player", "-p", help="Narrate only what this player saw (default: everything)."
        ),
        content: Path | None = typer.Option(None, "--content", help="Content folder the game used."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Only verify; print no narration."),
        unverified: bool = typer.Option(
            False,
            "--unverified",
            help="Replay a save that has no final digest (its history cannot be checked); "
            "the output says so.",
        ),
    ) -> None:
        """Replay SAVE, check it reproduces the saved state, and print the narration."""
        try:
            match = load_save(save, content, unverified=unverified)
        except WarhornError as exc:
            raise fail(exc) from None
        players = match.state.num_players
        if player is not None and not 0 <= player < players:
            raise fail(f"--player must be a seat of this game, 0 to {players - 1}, got {player}", EXIT_USAGE)
        if not quiet:
            for number, batch in enumerate(match.events, start=1):
                action = match.actions[number - 1]
                say(Text(f"{number:>4} ", style="dim"), plain(action.notation(), style="bold"))
                for event in events_for(batch, player) if player is not None else batch:
                    if event.text:
                        say("       ", event.text)
        state = match.state
        result = state.results()
        status = f"over: {result.reason}" if result else f"in progress ({state.describe()})"
        if match.verified:
            say(
                Text("✓ ", style="green"),
                f"{save}: {len(match.actions)} actions replay exactly; game {status}",
            )
        else:
            say(
                Text("UNVERIFIED ", style="bold yellow"),
                f"{save}: {len(match.actions)} actions replayed, but the save has no final digest, so "
                f"nothing shows this is the game that was played; game {status}",
            )
