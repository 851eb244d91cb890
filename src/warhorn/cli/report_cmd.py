"""``warhorn report RESULTS.jsonl… --out report.html``: a self-contained HTML balance report with plots.

Reads the JSON lines ``warhorn tournament --out`` writes (several files are
pooled) and writes one HTML page: each figure (win rates with interval bars,
game length, score over rounds, end reasons, first-player advantage; for a
cooperative game the team's win rate and the losses by cause and stage) with
its numbers in a table beside it. See :mod:`warhorn.sim.report`.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from warhorn.cli.common import console, say_error
from warhorn.sim import read_records


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        records_files: list[Path] = typer.Argument(
            ..., help="One or more .jsonl files written by `warhorn tournament --out` (pooled)."
        ),
        out: Path = typer.Option(Path("report.html"), "--out", help="The HTML file to write."),
    ) -> None:
        """Write a self-contained HTML report (plots, each with its table) from tournament records."""
        from warhorn.sim.report import build_report

        records = []
        try:
            for path in records_files:
                records.extend(read_records(path))
        except (OSError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None
        if not records:
            say_error(f"{', '.join(map(str, records_files))}: no games to report on")
            raise typer.Exit(2)
        command = shlex.join(["warhorn", "report", *map(str, records_files), "--out", str(out)])
        try:
            page = build_report(records, command=command)
            out.write_text(page, encoding="utf-8")
        except (OSError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None
        console.print(f"wrote the report of {len(records)} games to {out}", highlight=False)
