"""``POST /api/odds/{game}/position``: the odds of the battle an action would start in a position, through
the game's odds hook (shown on the fixture game with a test hook; Nerath's answers are its own tests')."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import fixture_game
from warhorn.engine import Action, GameState, load_game, register_plugin
from warhorn.engine.plugin import OddsSupport, OddsUnavailableError
from warhorn.engine.positions import to_position


def _six_odds(state: GameState, action: Action) -> dict[str, Any]:
    if not isinstance(action, fixture_game.Roll):
        raise OddsUnavailableError("not_a_roll", f"{action.notation()!r} rolls no die")
    assert isinstance(state, fixture_game.DiceRace)
    return {"scores": list(state.scores), "six": 1 / 6}


ODDS = OddsSupport(request=dict, catalog=dict, calculate=dict, attack_odds=_six_odds)


@pytest.fixture
def dice_race_with_odds() -> Iterator[None]:
    register_plugin(dataclasses.replace(fixture_game.PLUGIN, odds=f"{__name__}:ODDS"), replace=True)
    yield
    fixture_game.register()


def _position(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(to_position(load_game("dice-race", seed=3))))
    data.update(changes)
    return data


def test_odds_from_a_position(client: TestClient, dice_race_with_odds: None) -> None:
    body = {"position": _position(scores=[11, 4]), "action": {"kind": "roll"}}
    response = client.post("/api/odds/dice-race/position", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == {"scores": [11, 4], "six": pytest.approx(1 / 6)}


def test_odds_from_a_position_refuse_with_the_reason(client: TestClient, dice_race_with_odds: None) -> None:
    url = "/api/odds/dice-race/position"
    card = _position()["hands"][0][0]
    answer = client.post(url, json={"position": _position(), "action": {"kind": "play", "card": card}})
    assert answer.status_code == 400 and answer.json()["code"] == "not_a_roll"
    answer = client.post(url, json={"position": _position(), "action": {"kind": "respond", "block": True}})
    assert answer.status_code == 409 and answer.json()["code"] == "illegal"
    answer = client.post(url, json={"position": _position(turn=9), "action": {"kind": "roll"}})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_position"
    assert "position.turn: no player 9 among 2" in answer.json()["error"]
    answer = client.post(url, json={"position": _position(game="nerath"), "action": {"kind": "roll"}})
    assert answer.status_code == 400 and "not of 'dice-race'" in answer.json()["error"]
    answer = client.post(url, json={"position": _position(), "action": {"kind": "fly"}})
    assert answer.status_code == 400 and answer.json()["code"] == "malformed"
    answer = client.post(url, json={"position": _position(winner=0), "action": {"kind": "roll"}})
    assert answer.status_code == 409 and answer.json()["code"] == "game_over"


def test_a_game_without_odds_has_no_position_odds(client: TestClient) -> None:
    answer = client.post(
        "/api/odds/dice-race/position", json={"position": _position(), "action": {"kind": "roll"}}
    )
    assert answer.status_code == 404 and answer.json()["code"] == "no_odds"
