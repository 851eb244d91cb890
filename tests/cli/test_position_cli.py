"""Positions through the command line: ``warhorn position check|new`` and ``warhorn play --position``,
on the fixture game (its plugin names ``fixture_game`` as its positions module)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import fixture_game
from warhorn.cli.app import app
from warhorn.engine import Action, GameState, Match, Rng, load_game, register_plugin
from warhorn.engine.plugin import OddsSupport, OddsUnavailableError
from warhorn.engine.positions import check_position, position_from, split_position, to_position

runner = CliRunner()


def _new_position(tmp_path: Path, seed: int = 3) -> Path:
    result = runner.invoke(app, ["position", "new", "dice-race", "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    path = tmp_path / "start.json"
    path.write_text(result.output)
    return path


def test_positions_round_trip_through_play() -> None:
    """Every state a random game passes through writes a position that builds the same state."""
    for seed in range(4):
        state = load_game("dice-race", seed=seed, players=3)
        chooser = Rng(seed)
        while not state.is_terminal:
            game, data = split_position(json.loads(json.dumps(to_position(state))))
            assert game == "dice-race"
            assert position_from(game, data).digest() == state.digest()
            legal = state.legal_actions()
            state, _ = state.apply(legal[chooser.below(len(legal))])


def test_check_describes_a_good_position(tmp_path: Path) -> None:
    result = runner.invoke(app, ["position", "check", str(_new_position(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "a position of Dice race" in result.output and "waiting for player 0" in result.output


def test_check_names_file_and_key_of_every_mistake(tmp_path: Path) -> None:
    data = json.loads(_new_position(tmp_path).read_text())
    data["hands"][0][0] = "c9z"
    data["turn"] = 7
    data["colour"] = "red"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["position", "check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}: colour: Extra inputs are not permitted" in result.output


def test_check_finds_key_mistakes_after_the_model(tmp_path: Path) -> None:
    data = json.loads(_new_position(tmp_path).read_text())
    data["hands"][0][0] = "c9z"
    data["turn"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(app, ["position", "check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}: hands[0][0]: unknown card 'c9z'" in result.output
    assert f"{bad}: turn: no player 7 among 2" in result.output


def test_a_toml_position_without_game_key_needs_the_game(tmp_path: Path) -> None:
    data = json.loads(_new_position(tmp_path).read_text())
    del data["game"]
    lines = [f"{key} = {json.dumps(value)}" for key, value in data.items() if value is not None]
    path = tmp_path / "what-if.toml"
    path.write_text("\n".join(lines) + "\n")
    refused = runner.invoke(app, ["position", "check", str(path)])
    assert refused.exit_code == 1 and "game: names no game" in refused.output
    assert runner.invoke(app, ["position", "check", str(path), "--game", "dice-race"]).exit_code == 0
    other = runner.invoke(app, ["position", "check", str(path), "--game", "nerath"])
    assert other.exit_code == 1  # a dice-race position is no Nerath position


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("p.yaml", "scores: [1, 2]", "ends in .json or .toml"),
        ("p.json", "{not json", "(syntax)"),
        ("p.toml", "scores = [", "(syntax)"),
        ("p.json", "[1, 2]", "a position is a mapping"),
        ("p.json", '{"game": 5}', "game: must be a game id"),
        ("p.json", '{"game": "no-such-game"}', "no game named 'no-such-game'"),
    ],
)
def test_a_file_that_is_no_position_gets_one_line(tmp_path: Path, name: str, text: str, words: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    result = runner.invoke(app, ["position", "check", str(path)])
    assert result.exit_code in (1, 2) and words in result.output, result.output


@pytest.fixture
def dice_race_without_positions() -> Iterator[None]:
    register_plugin(dataclasses.replace(fixture_game.PLUGIN, positions=None), replace=True)
    yield
    fixture_game.register()


def test_a_game_without_positions_says_so(tmp_path: Path, dice_race_without_positions: None) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"game": "dice-race"}')
    result = runner.invoke(app, ["position", "check", str(path)])
    assert result.exit_code == 1 and "cannot be set up from a position" in result.output


def test_play_from_a_position_saves_and_replays_from_it(tmp_path: Path) -> None:
    start = _new_position(tmp_path)
    save = tmp_path / "game.json"
    args = ["play", "dice-race", "--position", str(start), "--seats", "random,random", "--max-actions", "6"]
    played = runner.invoke(app, [*args, "--save", str(save)])
    assert played.exit_code == 0, played.output
    saved = json.loads(save.read_text())
    assert saved["position"]["hands"] == json.loads(start.read_text())["hands"]
    match = Match.from_save(save.read_text())
    assert len(match.actions) == 6
    first = check_position("dice-race", split_position(json.loads(start.read_text()))[1])
    assert match.states[0].digest() == first.digest()
    assert runner.invoke(app, ["replay", str(save)]).exit_code == 0
    both = runner.invoke(app, ["play", "dice-race", "--position", str(start), "--seed", "4"])
    assert both.exit_code == 2 and "drop --option/--seed" in both.output


def test_a_seeded_game_save_has_no_position_key() -> None:
    match = Match.new("dice-race", seed=2)
    match.play(match.state.legal_actions()[0])
    assert "position" not in json.loads(match.dumps())


def _six_odds(state: GameState, action: Action) -> dict[str, Any]:
    if not isinstance(action, fixture_game.Roll):
        raise OddsUnavailableError("not_a_roll", f"{action.notation()!r} rolls no die")
    return {"action": action.notation(), "six": 1 / 6}


#: An odds hook for the fixture game, to show the command's wiring (the real one is Nerath's).
DICE_ODDS = OddsSupport(request=dict, catalog=dict, calculate=dict, attack_odds=_six_odds)


@pytest.fixture
def dice_race_with_odds() -> Iterator[None]:
    odds = f"{__name__}:DICE_ODDS"
    register_plugin(dataclasses.replace(fixture_game.PLUGIN, odds=odds), replace=True)
    yield
    fixture_game.register()


def test_odds_from_a_position_ask_the_games_odds_hook(tmp_path: Path, dice_race_with_odds: None) -> None:
    start = _new_position(tmp_path)
    result = runner.invoke(app, ["position", "odds", str(start), "--action", "roll"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"action": "roll", "six": pytest.approx(1 / 6)}
    card = json.loads(start.read_text())["hands"][0][0]
    refused = runner.invoke(app, ["position", "odds", str(start), "--action", f"play {card}"])
    assert refused.exit_code == 1 and "rolls no die (not_a_roll)" in refused.output
    illegal = runner.invoke(app, ["position", "odds", str(start), "--action", "respond block"])
    assert illegal.exit_code == 1 and "matches no legal action" in illegal.output


def test_odds_from_a_position_of_a_game_without_odds(tmp_path: Path) -> None:
    result = runner.invoke(app, ["position", "odds", str(_new_position(tmp_path)), "--action", "roll"])
    assert result.exit_code == 1 and "'dice-race' offers no battle odds" in result.output
