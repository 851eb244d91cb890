"""``GET /api/seat/{token}/board``: a game's public layout, or a clear 404 when it has none."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import fixture_game
from tests.server.helpers import create, tokens
from warhorn.engine import GameState, register_plugin


def track_layout(state: GameState) -> dict[str, Any]:
    return {"game": state.spec.id, "track": list(range(state.num_players))}


@pytest.fixture
def dice_race_layout() -> Iterator[None]:
    layout = f"{__name__}:track_layout"
    register_plugin(dataclasses.replace(fixture_game.PLUGIN, board_layout=layout), replace=True)
    yield
    fixture_game.register()


def test_board_layout_is_served_by_seat(client: TestClient, dice_race_layout: None) -> None:
    seat0 = tokens(create(client, ["human", "human"]))[0]
    response = client.get(f"/api/seat/{seat0}/board")
    assert response.status_code == 200
    assert response.json() == {"game": "dice-race", "track": [0, 1]}


def test_a_game_without_layout_and_a_bad_token_get_404(client: TestClient) -> None:
    seat0 = tokens(create(client, ["human", "human"]))[0]
    response = client.get(f"/api/seat/{seat0}/board")
    assert response.status_code == 404 and "no board layout" in response.json()["error"]
    assert client.get("/api/seat/not-a-token/board").status_code == 404
