"""``warhorn serve``: wired into the CLI; a bad database URL is refused with a message, not a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
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


def test_serve_prints_the_address_to_open_and_hides_a_password(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from warhorn.server import serving

    started: list[int] = []
    monkeypatch.setattr(serving, "run_server", lambda _app, **kw: started.append(kw["port"]))
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path}/w.db"])
    assert result.exit_code == 0, result.output
    assert "open http://localhost:0/ in a browser" in result.output and started == [0]
    assert f"games are kept in sqlite:///{tmp_path}/w.db" in result.output
    # a PostgreSQL URL is shown without its password (the database is not contacted before uvicorn starts)
    result = CliRunner().invoke(
        app, ["serve", "--port", "0", "--database-url", "postgresql://ann:secret@db.example/warhorn"]
    )
    assert "secret" not in result.output and "postgresql://ann:***@db.example/warhorn" in result.output


def test_serve_refuses_a_port_in_use_with_a_message() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output
