"""``warhorn play`` with search seats narrates each AI move with its reason."""

from __future__ import annotations

from typer.testing import CliRunner

from warhorn.cli.app import app


def test_play_with_mcts_seats_explains_moves() -> None:
    result = CliRunner().invoke(
        app, ["play", "dice-race", "--seats", "mcts:iterations=30,random", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "mcts (player 0)" in result.output
    # the dice race hides hands: the reason names the move, not the figures (see docs/ai.md)
    assert "chosen by information-set search" in result.output and "visits" not in result.output
    assert "game over" in result.output
