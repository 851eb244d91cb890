"""Helpers shared by the CLI commands: option parsing and error display."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console

console = Console()
err_console = Console(stderr=True)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["length=medium", "players=4"]`` → dict; values stay text and the game spec types them."""
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise typer.BadParameter(f"option {pair!r} must look like name=value")
        name, value = pair.split("=", 1)
        out[name.strip().replace("-", "_")] = value.strip()
    return out


def fail(message: str, code: int = 1) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)
