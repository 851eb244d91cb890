"""``warhorn tournament`` through typer's runner, on the fixture game."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from warhorn.cli import tournament_cmd

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    tournament_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from collapsing the group
        """Nothing."""

    return app


APP = make_app()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(APP, ["tournament", *args])
    return result.exit_code, result.output


def test_tournament_reports_win_rates_elo_and_writes_lines(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    code, output = run(
        "dice-race", "--agents", "mcts:iterations=20,random", "--games", "12", "--jobs", "2",
        "--seed", "5", "--out", str(out), "-o", "hand_size=3", "--setup", "fixture_game:register",
        "--bootstrap", "50",
    )  # fmt: skip
    assert code == 0, output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 12 and lines[0]["options"]["hand_size"] == 3
    assert {tuple(r["seats"]) for r in lines} == {
        ("mcts:iterations=20", "random"),
        ("random", "mcts:iterations=20"),
    }
    for word in ("Agents", "Seats", "Elo", "95 % CI", "seat 0", "seat 1", "games/s", "12/12"):
        assert word in output, word


def test_same_seed_gives_the_same_results(tmp_path: Path) -> None:
    records = []
    tables = []
    for name in ("a.jsonl", "b.jsonl"):
        code, output = run(
            "dice-race", "--agents", "mcts,random", "--budget", "10", "--games", "6", "--seed", "9",
            "--out", str(tmp_path / name), "--bootstrap", "20",
        )  # fmt: skip
        assert code == 0, output
        lines = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        for line in lines:
            line.pop("duration_s")
            line.pop("think_s")
        records.append(lines)
        tables.append(output.split("Elo (mean", 1)[1].split("games (")[0])  # thinking times vary
    assert records[0] == records[1]
    assert tables[0] == tables[1]


def test_single_agent_field_has_no_elo() -> None:
    code, output = run("dice-race", "--agents", "random", "--games", "4", "-o", "players=3")
    assert code == 0, output
    assert "Elo" not in output and "seat 2" in output


def test_bad_input_is_refused_with_a_clear_error() -> None:
    code, output = run("dice-race", "--agents", "random,wizard", "--games", "2")
    assert code == 2 and "unknown agent 'wizard'" in output
    code, output = run("dice-race", "--agents", "mcts", "--budget", "soon")
    assert code == 2 and "bad budget" in output
    code, output = run("dice-race", "--agents", "random", "-o", "target=1")
    assert code == 2 and "target" in output
    code, output = run("dice-race", "--agents", "random", "--jobs", "0")
    assert code == 2 and "--jobs" in output


def test_report_from_the_records_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    code, output = run("dice-race", "--agents", "random,mcts:iterations=5", "--games", "4", "--out", str(out))
    assert code == 0, output
    result = runner.invoke(APP, ["tournament-report", str(out), "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    assert "4 games of dice-race (rules 1)" in result.output and "Elo" in result.output
    missing = runner.invoke(APP, ["tournament-report", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "error" in missing.output


def test_teams_option() -> None:
    agents = "random,mcts:iterations=5"
    code, output = run(
        "dice-race", "--agents", agents, "-o", "players=4", "--teams", "0+2,1+3", "--games", "2"
    )
    assert code == 0, output
    code, output = run("dice-race", "--agents", "random", "--teams", "zero")
    assert code == 2 and "--teams" in output
