"""`warhorn games` lists every option by its whole name, also on a narrow terminal."""

from __future__ import annotations

from typer.testing import CliRunner

from warhorn.cli.app import app


def test_games_prints_whole_option_names_on_a_narrow_terminal() -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "reposition_flyers_cross_enemy" in result.output and "alliance_long_treasures" in result.output
