"""``warhorn serve``: wired into the CLI; a bad database URL is refused with a message, not a traceback."""

from __future__ import annotations

from typer.testing import CliRunner

from warhorn.cli.app import app


def test_serve_is_a_command_with_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--ai-delay"):
        assert option in result.output


def test_serve_refuses_an_unsupported_database() -> None:
    result = CliRunner().invoke(app, ["serve", "--database-url", "mysql://u@h/db"])
    assert result.exit_code == 1
    assert "unsupported database 'mysql'" in result.output
