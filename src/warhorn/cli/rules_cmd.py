"""``warhorn rules <game> [RULE-ID]``: the game's rules help in the terminal (one paragraph per rule ID)."""

from __future__ import annotations

import textwrap

import typer
from rich.text import Text

from warhorn.cli.common import EXIT_USAGE, console, fail, plain
from warhorn.engine.errors import WarhornError
from warhorn.rules_help import RuleSection, rules_help, section_key


def _print_rule(rule_id: str, text: str) -> None:
    console.print(Text(rule_id, style="bold cyan"), highlight=False)
    width = max(40, min(console.width, 100) - 2)
    console.print(Text(textwrap.indent(textwrap.fill(text, width), "  ") + "\n"), highlight=False)


def _print_section(section: RuleSection) -> None:
    console.print(Text(f"{section.heading} ({section.key})", style="bold underline"), highlight=False)
    console.print()
    for rule_id, text in section.rules:
        _print_rule(rule_id, text)


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules(
        game: str = typer.Argument(..., help="Game id (see `warhorn games`)."),
        rule: str = typer.Argument(
            "", metavar="[RULE-ID]", help="One rule (NER-MOV-01) or one group (NER-MOV); none: every rule."
        ),
    ) -> None:
        """Print the rules help of a game: one short paragraph per rule ID, in warhorn's words."""
        try:
            help_ = rules_help(game)
        except WarhornError as exc:
            raise fail(exc, EXIT_USAGE) from None
        wanted = rule.strip().upper()
        sections = help_.sections()
        if not wanted:
            console.print(Text(f"{help_.title} — rules help", style="bold"), highlight=False)
            console.print()
            for section in sections:
                _print_section(section)
            return
        group = [s for s in sections if s.key == wanted]
        if group:
            _print_section(group[0])
            return
        try:
            text = help_.paragraph(wanted)
        except WarhornError as exc:
            raise fail(exc, EXIT_USAGE) from None
        heading = help_.headings.get(section_key(wanted), "")
        if heading:
            console.print(plain(heading, style="dim"), highlight=False)
        _print_rule(wanted, text)
