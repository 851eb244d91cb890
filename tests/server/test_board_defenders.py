"""The Defenders of the Realm board layout served at ``GET /api/seat/{token}/board``."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from warhorn.engine import load_game
from warhorn.games.defenders.board import small_board
from warhorn.games.defenders.web.layout import defenders_layout


def _created(client: TestClient, seed: int) -> str:
    response = client.post(
        "/api/games", json={"game": "defenders", "seats": ["human", "random"], "seed": seed, "options": {}}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["seats"][0]["token"])


def test_the_defenders_board_is_served_with_every_location_and_connection(client: TestClient) -> None:
    layout = client.get(f"/api/seat/{_created(client, 3)}/board").json()
    assert layout["game"] == "defenders" and layout["positions"] == "content"
    names = {loc["name"] for loc in layout["locations"]}
    assert len(names) == len(layout["locations"]) == 45
    assert layout["monarch_city"] == "Monarch City" in names
    for loc in layout["locations"]:
        assert 0 <= loc["x"] <= layout["width"] and 0 <= loc["y"] <= layout["height"]
        assert loc["colour"] in {"red", "green", "blue", "black", "purple"}
    assert {a for pair in layout["connections"] for a in pair} <= names
    assert layout["starting_gates"] == ["Dancing Stone"]
    assert {g["name"] for g in layout["generals"]} == {"Lord Balazarg", "Gorgutt", "Sapphire", "Varkolak"}
    for general in layout["generals"]:
        assert general["path"][-1] == "Monarch City"
        steps = zip(general["path"], general["path"][1:], strict=False)
        assert all([a, b] in layout["connections"] or [b, a] in layout["connections"] for a, b in steps)
    assert layout["special_connections"][0]["rule"] == "DEF-ACT-04"
    # the catalogue names what the views list by id
    assert "battle_fury" in layout["cards"] and layout["cards"]["battle_fury"]["text"]
    assert all(q["name"] for q in layout["quests"].values())


def test_the_layout_holds_nothing_that_depends_on_the_game_being_played(client: TestClient) -> None:
    """No piece, hand or deck order: two games with other seeds get the very same layout."""
    first = client.get(f"/api/seat/{_created(client, 3)}/board").json()
    second = client.get(f"/api/seat/{_created(client, 4)}/board").json()
    assert first == second
    text = json.dumps(first)
    assert '"hand"' not in text and '"minions"' not in text and '"draw_pile"' not in text


def test_a_board_of_other_content_is_drawn_with_computed_positions() -> None:
    packaged = load_game("defenders", seed=1, players=1)
    board = small_board(
        [("Monarch City", "purple"), ("Nowhere", "red"), ("Elsewhere", "blue")],
        [
            ("Monarch City", "Nowhere"),
            ("Nowhere", "Elsewhere"),
        ],
    )
    assert defenders_layout(packaged)["positions"] == "content"
    state = packaged.copy()  # a bare board cannot be set up (no generals, no decks): swap it in
    state.board = board
    layout = defenders_layout(state)
    assert layout["positions"] == "partly computed"
    spots = {(loc["x"], loc["y"]) for loc in layout["locations"]}
    assert len(spots) == 3 and layout["cards"] == {} and layout["generals"] == []
