"""The Conquest of Nerath board layout (``GET /api/seat/{token}/board``): served, complete, public only."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from warhorn.engine import load_game
from warhorn.games.nerath.board import SpaceSpec, build_board
from warhorn.games.nerath.position import position_from
from warhorn.games.nerath.web.layout import nerath_layout

SPACE_KEYS = {
    "id",
    "name",
    "kind",
    "x",
    "y",
    "home",
    "capital",
    "castle_at_start",
    "coastal",
    "gold",
    "vp",
    "polygon",
}


def _nerath(client: TestClient, seats: list[str], seed: int = 1) -> dict[int, str]:
    response = client.post("/api/games", json={"game": "nerath", "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    return {s["seat"]: s["token"] for s in response.json()["seats"] if "token" in s}


def _act(client: TestClient, token: str, notation: str) -> None:
    payload = client.get(f"/api/seat/{token}").json()
    response = client.post(
        f"/api/seat/{token}/actions", json={"version": payload["version"], "text": notation}
    )
    assert response.status_code == 200, response.text


def test_the_layout_holds_the_whole_board(client: TestClient) -> None:
    tokens = _nerath(client, ["human"] * 4)
    response = client.get(f"/api/seat/{tokens[0]}/board")
    assert response.status_code == 200
    layout = response.json()
    state = load_game("nerath", seed=1)
    board = state.board  # type: ignore[attr-defined]
    spaces = {s["id"]: s for s in layout["spaces"]}
    assert len(spaces) == len(board) == 85
    assert {s["kind"] for s in spaces.values()} == {"land", "sea", "dungeon"}
    for s in spaces.values():
        assert set(s) == SPACE_KEYS
        assert 0 <= s["x"] <= layout["width"] and 0 <= s["y"] <= layout["height"]
        if s["kind"] != "land":
            assert s["home"] is None and s["gold"] == 0 and s["vp"] == 0
    # borders: exactly the board graph's, each once
    expected = {
        tuple(sorted((board.sid(i), board.sid(j)))) for i in range(len(board)) for j in board.neighbors(i)
    }
    assert {tuple(c) for c in layout["connections"]} == expected
    assert len(layout["connections"]) == len(expected)
    # kingdoms with names, colours and capitals; a capital is worth 5 VP, another home territory 1 (NER-VP-02)
    assert [k["id"] for k in layout["kingdoms"]] == ["karkoth", "vailin", "iron_circle", "nerath"]
    for k in layout["kingdoms"]:
        assert k["name"] and k["fill"].startswith("#")
        capital = spaces[k["capital"]]
        assert capital["capital"] and capital["home"] == k["id"] and capital["vp"] == 5
    assert spaces["cinderveil"]["vp"] == 1 and spaces["cinderveil"]["gold"] == 1
    assert {a["id"] for a in layout["impassable"]} == {"shardfang_peaks", "glasscar_rift"}
    assert set(layout["pieces"][0]) >= {"id", "name", "cost"}


def test_the_layout_is_the_same_for_every_seat_and_every_moment(client: TestClient) -> None:
    """Nothing of a seat's hand, the decks or the pieces can be in it: it never changes with them."""
    tokens = _nerath(client, ["human"] * 4)
    first = client.get(f"/api/seat/{tokens[0]}/board").json()
    for token in tokens.values():
        assert client.get(f"/api/seat/{token}/board").json() == first
    _act(client, tokens[0], "move 2 soldier cinderveil>thornvale")
    _act(client, tokens[0], "pass")
    assert client.get(f"/api/seat/{tokens[1]}/board").json() == first
    text = str(first)
    for secret in ("units", "hand", "treasure_hand", "face_up", "draw_pile", "seed"):
        assert f"'{secret}'" not in text


def test_the_card_catalogue_is_content_not_whose_card(client: TestClient) -> None:
    """Card texts are printed content (every card of every deck); which card a seat holds is not there."""
    tokens = _nerath(client, ["human"] * 4)
    layout = client.get(f"/api/seat/{tokens[0]}/board").json()
    state = load_game("nerath", seed=1)
    board = state.board  # type: ignore[attr-defined]
    assert set(layout["events"]) == {e.id for e in board.events}
    assert set(layout["treasures"]) == {t.id for t in board.treasures}
    assert set(layout["guardians"]) == {g.id for g in board.guardians}
    for card in layout["events"].values():
        assert set(card) == {"name", "text", "kingdom", "timing"}


def test_a_board_built_in_code_gets_an_automatic_drawing() -> None:
    board = build_board(
        [
            SpaceSpec("a", "land", "karkoth", True),
            SpaceSpec("b", "sea"),
            SpaceSpec("c", "land", "vailin", True),
        ],
        [("a", "b"), ("b", "c")],
    )
    layout: dict[str, Any] = nerath_layout(position_from({}, board))
    assert [s["id"] for s in layout["spaces"]] == ["a", "b", "c"]
    assert all(0 <= s["x"] <= 1000 and 0 <= s["y"] <= 700 for s in layout["spaces"])
    assert layout["connections"] == [["a", "b"], ["b", "c"]]
    assert layout["kingdoms"][0]["capital"] == "a" and layout["impassable"] == []
