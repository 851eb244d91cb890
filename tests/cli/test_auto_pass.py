"""Issue 19 in the terminal: a Nerath card window where no card of the player's can change anything
answers itself (the engine's ``auto_answer``), unless the player turns auto-pass off."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.games.nerath.scenario import K, position
from warhorn.cli.app import app
from warhorn.engine.positions import to_position
from warhorn.games.nerath.board import board_from_content
from warhorn.games.nerath.content import load_nerath_content

runner = CliRunner()
EXPLORE = "move 1 warrior cinderveil>black_lantern_crypt\npass\nfight black_lantern_crypt\n"


def _explorer_with_a_card_for_monsters(tmp_path: Path) -> Path:
    """Karkoth's warrior (no monster) about to explore a dungeon, holding Unholy Vigour ("one of
    your monsters in this battle"): the window before the battle has nothing for it."""
    board = board_from_content(load_nerath_content())
    s = position(
        [(K, "cinderveil", "warrior", 1)], board=board, guardians={"black_lantern_crypt": ["skeleton_guard"]}
    )
    s.d.hands[K] = ("unholy_vigour",)
    path = tmp_path / "explore.json"
    path.write_text(json.dumps(to_position(s)))
    return path


def test_a_window_with_nothing_to_play_is_passed_in_the_terminal(tmp_path: Path) -> None:
    start = _explorer_with_a_card_for_monsters(tmp_path)
    result = runner.invoke(app, ["play", "nerath", "--position", str(start)], input=EXPLORE + "quit\n")
    assert result.exit_code == 0, result.output
    assert "pass (auto-pass)" in result.output


def test_with_auto_pass_off_the_terminal_asks(tmp_path: Path) -> None:
    start = _explorer_with_a_card_for_monsters(tmp_path)
    stdin = "autopass off\n" + EXPLORE + "quit\n"
    result = runner.invoke(app, ["play", "nerath", "--position", str(start)], input=stdin)
    assert result.exit_code == 0, result.output
    assert "auto-pass is off" in result.output and "(auto-pass)" not in result.output
    assert "card" in result.output.rsplit("fight black_lantern_crypt", 1)[-1]  # the window is asked
