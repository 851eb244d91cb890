"""The command line, driven through typer's runner against the fixture game."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fixture_game
from warhorn import __version__
from warhorn.cli.app import app
from warhorn.content import SourcedModel, load_model
from warhorn.content.loader import ContentModel
from warhorn.engine import ContentError, ContentErrors, ContentSupport, register_plugin

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_games_lists_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "dice-race" in result.output and "hand_size" in result.output


def test_play_ai_seats_to_the_end_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "dice-race", "--seats", "random,random", "--seed", "3", "--save", str(save)]
    )
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    data = json.loads(save.read_text())
    assert data["game"] == "dice-race" and data["actions"]
    replayed = runner.invoke(app, ["replay", str(save)])
    assert replayed.exit_code == 0, replayed.output
    assert "replay exactly" in replayed.output


def test_play_human_by_text_number_and_commands(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    stdin = "help\nfly\n²\n1\nlist\nsave " + str(save) + "\nundo\nquit\n"
    result = runner.invoke(app, ["play", "dice-race", "--seed", "1", "-o", "players=2"], input=stdin)
    assert result.exit_code == 0, result.output
    assert "not an action" in result.output or "no action kind" in result.output
    assert "undone" in result.output
    assert json.loads(save.read_text())["actions"]


def test_leaving_a_saved_game_names_the_command_that_resumes_it(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    args = ["play", "dice-race", "--seed", "1", "-o", "players=2", "--save", str(save)]
    left = runner.invoke(app, args, input="1\nquit\n")
    assert left.exit_code == 0, left.output
    hint = left.output.split("(resume: ", 1)[1].split(")", 1)[0]
    assert hint == f"warhorn play dice-race --load {save}"
    resumed = runner.invoke(app, hint.split()[1:], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Missing argument" not in resumed.output


def test_play_refuses_bad_options_and_seats() -> None:
    result = runner.invoke(app, ["play", "dice-race", "-o", "players=9"])
    assert result.exit_code == 2 and "players" in result.output
    result = runner.invoke(app, ["play", "dice-race", "--seats", "genius"])
    assert result.exit_code == 2 and "unknown agent" in result.output
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2 and "no game named" in result.output


def test_replay_refuses_a_tampered_save(tmp_path: Path) -> None:
    save = tmp_path / "bad.json"
    save.write_text(
        '{"game": "dice-race", "rules_version": "1", "seed": 0, "actions": [{"kind": "fly"}], '
        '"final_digest": "0"}'
    )
    result = runner.invoke(app, ["replay", str(save)])
    assert result.exit_code == 1 and "action 1 does not replay" in result.output


class Thing(SourcedModel):
    id: str
    size: int


class ThingFile(ContentModel):
    thing: tuple[Thing, ...]


def check_things(folder: Path) -> list[ContentError]:
    try:
        load_model(folder / "things.toml", ThingFile)
    except ContentErrors as exc:
        return list(exc.errors)
    except ContentError as exc:
        return [exc]
    return []


@pytest.fixture
def game_with_content() -> Iterator[None]:
    support = ContentSupport(("things.toml",), check_things, lambda path: None)
    register_plugin(dataclasses.replace(fixture_game.PLUGIN, content=support), replace=True)
    yield
    fixture_game.register()


def test_content_check_reports_file_and_key(tmp_path: Path, game_with_content: None) -> None:
    (tmp_path / "things.toml").write_text('[[thing]]\nid = "a"\nsize = "x"\nsource = "original"\n')
    result = runner.invoke(app, ["content", "check", str(tmp_path)])
    assert result.exit_code == 1
    assert "things.toml" in result.output and "thing[0] (id a).size" in result.output
    (tmp_path / "things.toml").write_text('[[thing]]\nid = "a"\nsize = 2\nsource = "original"\n')
    result = runner.invoke(app, ["content", "check", str(tmp_path), "--game", "dice-race"])
    assert result.exit_code == 0 and "valid" in result.output


def test_content_check_unknown_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["content", "check", str(tmp_path / "nope")])
    assert result.exit_code == 2
