"""Battle odds over HTTP: the calculator (``/api/odds/nerath``, ``/odds``) and a seat's planned attack
(``/api/seat/{token}/odds``), which must agree with :func:`battle_odds` and use public facts only."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import create, tokens
from warhorn.engine import load_game
from warhorn.games.nerath.battle_model import RetreatRule
from warhorn.games.nerath.odds import BattleOdds, battle_odds
from warhorn.games.nerath.odds_support import guardian_tiles, tile_draws


def _same(answer: dict[str, Any], expected: BattleOdds) -> None:
    want = expected.to_json(top=len(answer["outcomes"]))
    for key in ("attacker_win", "defender_win", "mutual_destruction", "attacker_retreats", "expected_rounds"):
        assert answer[key] == pytest.approx(want[key], rel=1e-12, abs=1e-15), key
    for key in ("attacker_survivors", "defender_survivors"):
        assert answer[key].keys() == want[key].keys()
        for piece, n in want[key].items():
            assert answer[key][piece] == pytest.approx(n, rel=1e-12, abs=1e-15)
    assert [o["probability"] for o in answer["outcomes"]] == pytest.approx(
        [o["probability"] for o in want["outcomes"]], rel=1e-12, abs=1e-15
    )


# --- the calculator ------------------------------------------------------------------------------------


def test_calculator_gives_the_numbers_of_battle_odds(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], BattleOdds]] = [
        (
            {"attacker": {"soldier": 4, "siege": 2, "dragon": 1}, "defender": {"soldier": 5, "castle": 1}},
            battle_odds({"soldier": 4, "siege": 2, "dragon": 1}, {"soldier": 5, "castle": 1}),
        ),
        (
            {"attacker": {"warship": 2, "mage": 1}, "defender": {"warship": 2, "elemental": 1}, "sea": True},
            battle_odds({"warship": 2, "mage": 1}, {"warship": 2, "elemental": 1}, sea=True),
        ),
        (
            {"attacker": {"warrior": 2, "mage": 1}, "dungeon": ["troll", "beholder"]},
            battle_odds({"warrior": 2, "mage": 1}, dungeon=["troll", "beholder"], guardians=guardian_tiles()),
        ),
        (
            {"attacker": {"soldiers": 6}, "defender": {"monster": 2}, "retreat_below": 2, "rounds": 3},
            battle_odds({"soldier": 6}, {"monster": 2}, retreat=RetreatRule(at_or_below=2, after_rounds=3)),
        ),
        (
            {"attacker": {"dragon": 2}, "defender": {"soldier": 3}, "double_up": True, "top": 20},
            battle_odds({"dragon": 2}, {"soldier": 3}, double_up=True),
        ),
    ]
    for body, expected in cases:
        response = client.post("/api/odds/nerath", json=body)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert len(answer["outcomes"]) == min(body.get("top", 5), len(expected.outcomes))
        _same(answer, expected)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"attacker": {"wizardz": 2}}, 400, "unknown piece 'wizardz'"),
        ({"attacker": {"castle": 1}, "defender": {"soldier": 1}}, 400, "castles never attack"),
        ({"attacker": {"soldier": 1}, "defender": {"soldier": 1}, "sea": True}, 400, "sea"),
        ({"attacker": {"soldier": -1}}, 400, "attacker.soldier"),
        ({"attacker": {"soldier": 61}}, 400, "attacker.soldier"),
        ({"attacker": {"soldier": 40, "dragon": 40}}, 400, "at most 60 pieces"),
        ({"attacker": {"warrior": 1}, "dungeon": ["no-such-tile"]}, 400, "unknown guardian"),
        (
            {"attacker": {"warrior": 1}, "defender": {"soldier": 1}, "dungeon": ["troll"]},
            400,
            "dungeon holds only",
        ),
        ({"attacker": {"soldier": 1}, "colour": "red"}, 400, "colour"),
        ({"attacker": {"soldier": 1}, "rounds": 0}, 400, "rounds"),
        ({"attacker": "2 soldier"}, 400, "attacker"),
        ({}, 400, "attacker"),
    ],
)
def test_calculator_refuses_bad_input_with_a_message(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/odds/nerath", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_calculator_refuses_a_body_that_is_not_json(client: TestClient) -> None:
    response = client.post(
        "/api/odds/nerath", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400 and response.json()["code"] == "malformed"


def test_calculator_page_and_catalogue(client: TestClient) -> None:
    page = client.get("/odds")
    assert page.status_code == 200 and "/static/games/nerath.odds.js" in page.text
    assert 'id="odds-form"' in page.text and "Conquest of Nerath" in page.text
    assert client.get("/odds/nerath").text == page.text
    assert client.get("/odds/dice-race").status_code == 404
    assert 'href="/odds"' in client.get("/").text  # linked from the lobby
    catalogue = client.get("/api/odds/nerath").json()
    assert [p["id"] for p in catalogue["pieces"]][:2] == ["soldier", "siege"]
    assert {"troll", "medusa", "beholder"} <= {g["id"] for g in catalogue["guardians"]}
    for asset in (
        "/static/games/nerath.odds.js",
        "/static/games/nerath.odds_view.js",
        "/static/games/nerath.js",
        "/static/games/nerath.css",
    ):
        assert client.get(asset).status_code == 200, asset


# --- a seat's planned attack -----------------------------------------------------------------------------


def _nerath(client: TestClient, seed: int = 1) -> dict[int, str]:
    response = client.post("/api/games", json={"game": "nerath", "seats": ["human"] * 4, "seed": seed})
    assert response.status_code == 201, response.text
    return {s["seat"]: s["token"] for s in response.json()["seats"]}


def _legal(client: TestClient, token: str, notation: str) -> dict[str, Any]:
    payload = client.get(f"/api/seat/{token}").json()
    found = [entry["action"] for entry in payload["legal"] if entry["notation"] == notation]
    assert found, notation
    action: dict[str, Any] = found[0]
    return action


def _pieces_at(client: TestClient, token: str, space: str) -> dict[str, int]:
    """The pieces the seat sees on ``space`` (type -> count), from its view."""
    view = client.get(f"/api/seat/{token}").json()["view"]
    units = next(s["units"] for s in view["spaces"] if s["id"] == space)
    return dict(Counter(u["piece"] for u in units))


@pytest.mark.rule("NER-MOV-02")
def test_seat_odds_of_an_attack_are_those_of_the_battle_it_starts(client: TestClient) -> None:
    seats = _nerath(client)
    defenders = _pieces_at(client, seats[0], "thornvale")  # Vailin's garrison, as the seat sees it
    action = _legal(client, seats[0], "move 2 soldier cinderveil>thornvale")
    response = client.post(f"/api/seat/{seats[0]}/odds", json={"action": action})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["space"] == "thornvale" and answer["kind"] == "land"
    assert answer["attacker"] == {"soldier": 2} and answer["defender"] == defenders
    assert answer["defender_kingdoms"] == ["vailin"]
    _same(answer["odds"], battle_odds({"soldier": 2}, defenders))
    # nothing was played: the game is where it was
    assert client.get(f"/api/seat/{seats[0]}").json()["version"] == 0


def test_seat_odds_count_the_pieces_already_moved_there(client: TestClient) -> None:
    seats = _nerath(client)
    defenders = _pieces_at(client, seats[0], "thornvale")
    payload = client.get(f"/api/seat/{seats[0]}").json()
    step = client.post(
        f"/api/seat/{seats[0]}/actions",
        json={"version": payload["version"], "text": "move 1 soldier cinderveil>thornvale"},
    )
    assert step.status_code == 200, step.text
    action = _legal(client, seats[0], "move 1 soldier cinderveil>thornvale")
    answer = client.post(f"/api/seat/{seats[0]}/odds", json={"action": action}).json()
    assert answer["attacker"] == {"soldier": 2}  # the one already there and the one coming
    _same(answer["odds"], battle_odds({"soldier": 2}, defenders))


@pytest.mark.rule("NER-DUN-01")
def test_seat_odds_of_a_dungeon_average_over_the_tiles_that_may_lie_face_down(client: TestClient) -> None:
    """The guardian on the entrance is face down: the odds may not depend on which tile it is, only on
    the tiles that could be there (all of them, at the start), each as likely as its copies."""
    seats = _nerath(client)
    action = _legal(client, seats[0], "move 1 warrior zaarnath>tomb_of_horrors")
    answer = client.post(f"/api/seat/{seats[0]}/odds", json={"action": action}).json()
    assert answer["kind"] == "dungeon" and answer["guardians"] == [] and answer["guardians_face_down"] == 1
    board = load_game("nerath", seed=1).board  # type: ignore[attr-defined]
    pool = Counter(board.guardian_tiles())
    total = sum(pool.values())
    tiles = guardian_tiles()
    parts = [(n / total, battle_odds({"warrior": 1}, dungeon=[tiles[t]])) for t, n in pool.items()]
    for key in ("attacker_win", "defender_win", "mutual_destruction", "expected_rounds"):
        expected = sum(w * getattr(o, key) for w, o in parts)
        assert answer["odds"][key] == pytest.approx(expected, rel=1e-9), key
    # the same answer whatever the seed (that is, whatever tile lies there)
    other = _nerath(client, seed=2)
    action2 = _legal(client, other[0], "move 1 warrior zaarnath>tomb_of_horrors")
    answer2 = client.post(f"/api/seat/{other[0]}/odds", json={"action": action2}).json()
    assert answer2["odds"]["attacker_win"] == pytest.approx(answer["odds"]["attacker_win"], rel=1e-12)


@pytest.mark.rule("NER-MOV-02")
def test_seat_odds_refuse_what_is_no_attack_or_not_legal(client: TestClient) -> None:
    seats = _nerath(client)
    url = f"/api/seat/{seats[0]}/odds"
    peaceful = _legal(client, seats[0], "move 1 soldier bonewind_steppe>black_tor")
    response = client.post(url, json={"action": peaceful})
    assert response.status_code == 400 and response.json()["code"] == "not_an_attack"
    response = client.post(url, json={"action": {"kind": "pass"}})
    assert response.status_code == 400 and response.json()["code"] == "not_an_attack"
    illegal = {"kind": "move", "piece": "soldier", "count": 5, "path": ["cinderveil", "thornvale"]}
    response = client.post(url, json={"action": illegal})
    assert response.status_code == 409 and response.json()["code"] == "illegal"
    assert response.json()["rule"] == "NER-MOV-01"
    far = {"kind": "move", "piece": "soldier", "count": 1, "path": ["cinderveil", "thornvale", "willowreach"]}
    response = client.post(url, json={"action": far})
    assert response.status_code == 409 and response.json()["code"] == "illegal"
    response = client.post(url, json={"action": {"kind": "fly", "to": "moon"}})
    assert response.status_code == 400 and response.json()["code"] == "malformed"
    response = client.post(url, json={"action": {"kind": "move", "piece": "soldier"}})
    assert response.status_code == 400
    response = client.post(url, json={"actions": []})
    assert response.status_code == 422 and response.json()["code"] == "malformed"
    attack = _legal(client, seats[0], "move 2 soldier cinderveil>thornvale")
    response = client.post(url, json={"action": attack, "version": 3})
    assert response.status_code == 409 and response.json()["code"] == "stale"
    # another seat may not ask about the deciding seat's options
    response = client.post(f"/api/seat/{seats[1]}/odds", json={"action": attack})
    assert response.status_code == 403 and response.json()["code"] == "not_your_decision"
    assert client.post("/api/seat/not-a-real-token-at-all/odds", json={"action": attack}).status_code == 404


def test_seat_odds_are_for_nerath_only(client: TestClient) -> None:
    seat0 = tokens(create(client, ["human", "human"]))[0]
    response = client.post(f"/api/seat/{seat0}/odds", json={"action": {"kind": "roll"}})
    assert response.status_code == 404 and response.json()["code"] == "no_odds"


def test_face_down_tiles_are_drawn_without_replacement() -> None:
    pool = Counter({"troll": 2, "medusa": 1})
    draws = dict((tiles, p) for p, tiles in tile_draws(pool, 2))
    assert draws == pytest.approx({("troll", "troll"): 1 / 3, ("medusa", "troll"): 2 / 3})
    assert [p for p, _ in tile_draws(pool, 0)] == [1.0]
    assert sum(p for p, _ in tile_draws(Counter({"a": 3, "b": 2, "c": 1}), 2)) == pytest.approx(1.0)
