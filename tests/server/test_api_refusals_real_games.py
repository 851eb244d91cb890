"""Bad requests against the real games (Conquest of Nerath, Defenders of the Realm): each gets a 4xx with
a message in words, and the game does not change; a seat's token acts only for its own seat."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.live_server import LiveServer

JSON = {"Content-Type": "application/json"}


def _create(client: TestClient, game: str, seats: list[str], **options: Any) -> tuple[str, dict[int, str]]:
    response = client.post("/api/games", json={"game": game, "seats": seats, "seed": 8, "options": options})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["game_id"], {s["seat"]: s["token"] for s in body["seats"] if "token" in s}


def _position(client: TestClient, token: str) -> dict[str, Any]:
    """What a seat sees now (without the event log, which a GET with another ``after`` changes)."""
    payload: dict[str, Any] = client.get(f"/api/seat/{token}").json()
    return {key: value for key, value in payload.items() if key != "events"}


def _assert_refused(response: httpx.Response, what: str) -> dict[str, Any]:
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text[:300])
    body: dict[str, Any] = response.json()
    assert isinstance(body.get("error"), str) and body["error"].strip(), (what, body)
    assert isinstance(body.get("code"), str) and body["code"], (what, body)
    return body


def test_bad_actions_on_real_games_get_a_4xx_and_change_nothing(client: TestClient) -> None:
    nerath_id, nerath = _create(client, "nerath", ["human", "random", "human", "random"])
    _, defenders = _create(client, "defenders", ["human", "human"], players=2)
    url = f"/api/seat/{nerath[0]}/actions"
    before = _position(client, nerath[0])
    assert before["pending"]["yours"] and before["version"] == 0
    defenders_payload = client.get(f"/api/seat/{defenders[0]}").json()
    decider = defenders_payload["pending"]["player"]
    defenders_legal = client.get(f"/api/seat/{defenders[decider]}").json()["legal"]
    defenders_action = defenders_legal[0]["action"]
    nerath_action = before["legal"][0]["action"]
    odd_texts = [
        "pass\x00",  # NUL
        "\u202epass",  # right-to-left override
        "ｐａｓｓ",  # full-width letters
        "pa\u200bss",  # zero-width space inside the word
        "pass\u0301",  # a combining accent
        "🐉 move",
        "move \u0660\u0661 karkoth",  # Arabic-Indic digits
        "\ufeffpass pass",
        "move 99999999999999999999999999 a b",
        "play " + "x" * 990,
    ]
    raw_bodies = [
        b'{"version":0,"text":"pass\\ud800"}',  # a lone surrogate: valid JSON, not valid text
        b'{"version":0,"action":{"kind":"\\udfff"}}',
        b'{"version":0,"action":' + b"[" * 50_000 + b"]" * 50_000 + b"}",  # nesting deeper than any parser
        b'{"version":1e400,"text":"pass"}',
        b'{"version":NaN,"text":"pass"}',
        b'{"version":0,"text":"pass"',  # cut short
        b"\xff\xfe not utf-8",
        b"",
        b"null",
        b'"pass"',
        b'[0, "pass"]',
    ]
    bodies: list[Any] = [
        {"version": 0, "action": defenders_action},  # an action of the other game
        {"version": 0, "action": {"kind": "rest"}},
        {"version": 0, "action": {}},
        {"version": 0, "action": {"kind": None}},
        {"version": 0, "action": {"kind": ["pass"]}},
        {"version": 0, "action": {**nerath_action, "extra": 1}},
        {"version": 0, "action": {"kind": "move", "piece": 1, "count": "many", "path": 3}},
        {"version": 0, "action": {"kind": "move", "piece": "x" * 100_000, "count": 10**40, "path": ["y"]}},
        {"version": 0, "action": {"kind": "move", "piece": "infantry", "count": -3, "path": ["a", "b"]}},
        {"version": 0, "action": {"kind": "play", "card": "no_such_card"}},
        {"version": 0, "action": {"kind": "treasure", "card": {"id": 1}}},
        {"version": 0, "action": {"kind": "buy", "piece": "dragon", "space": "\u202e"}},
        {"version": 0, "action": nerath_action, "text": "pass"},  # both forms
        {"version": 0},
        {"version": -1, "text": "pass"},
        {"version": 10**40, "text": "pass"},
        {"version": 0.5, "text": "pass"},
        {"version": 0, "text": "x" * 1001},
        {"version": 0, "text": ""},
        *({"version": 0, "text": text} for text in odd_texts),
    ]
    for body in bodies:
        _assert_refused(client.post(url, json=body), repr(body)[:200])
    for raw in raw_bodies:
        _assert_refused(client.post(url, content=raw, headers=JSON), repr(raw)[:80])
    # the Nerath action sent to the Defenders seat whose decision it is
    _assert_refused(
        client.post(
            f"/api/seat/{defenders[decider]}/actions",
            json={"version": defenders_payload["version"], "action": nerath_action},
        ),
        "a Nerath action in Defenders",
    )
    assert _position(client, nerath[0]) == before
    assert client.get(f"/api/games/{nerath_id}").json()["version"] == 0


def test_bad_games_seats_options_and_tokens_get_a_4xx(client: TestClient) -> None:
    _, nerath = _create(client, "nerath", ["human", "random", "human", "random"])
    count = len(client.get("/api/games").json()["games"])
    four = ["human"] * 4
    creations: list[Any] = [
        {"game": "chess", "seats": four},
        {"game": "n" * 65, "seats": four},
        {"game": "nerath", "seats": ["human", "robot", "human", "human"]},
        {"game": "nerath", "seats": ["human", "mcts:iterations=99999999", "human", "human"]},
        {"game": "nerath", "seats": ["human", "", "human", "human"]},
        {"game": "nerath", "seats": ["human", 3, "human", "human"]},
        {"game": "nerath", "seats": []},
        {"game": "nerath", "seats": ["human"] * 17},
        {"game": "nerath", "seats": ["human"]},
        {"game": "nerath", "seats": ["human"] * 3},  # free-for-all needs 4
        {"game": "nerath", "seats": four, "options": {"colour": "red"}},
        {"game": "nerath", "seats": four, "options": {"mode": "everyone"}},
        {"game": "nerath", "seats": four, "options": {"mode": None}},
        {"game": "nerath", "seats": four, "options": {"players": 4.0}},
        {"game": "nerath", "seats": four, "options": {"players": True}},
        {"game": "nerath", "seats": four, "options": {"players": "four"}},
        {"game": "nerath", "seats": four, "options": {"players": 3}},
        {"game": "nerath", "seats": four, "options": {"round_cap": -1}},
        {"game": "nerath", "seats": four, "options": {"length": ["short"]}},
        {"game": "nerath", "seats": four, "options": []},
        {"game": "nerath", "seats": four, "seed": -1},
        {"game": "nerath", "seats": four, "seed": 2**63},
        {"game": "nerath", "seats": four, "seed": "lucky"},
        {"game": "nerath", "seats": four, "players": 4},  # an option outside "options"
        {"game": "defenders", "seats": ["human"] * 2, "options": {"heroes": "nobody"}},
        {"game": "defenders", "seats": ["human"] * 2, "options": {"heroes": "wizard,wizard"}},
        {"game": "defenders", "seats": ["human"] * 2, "options": {"first_player": 3}},
        {"game": "defenders", "seats": ["human"] * 4, "options": {"heroes_per_player": 4}},
        {"game": "defenders", "seats": ["human"] * 5},
        {"game": "defenders", "seats": ["human"] * 2, "options": {"hard_remove_specials": 7}},
    ]
    for body in creations:
        _assert_refused(client.post("/api/games", json=body), repr(body)[:200])
    assert len(client.get("/api/games").json()["games"]) == count  # no game was made
    bad_tokens = [
        "x",
        "A" * 32,  # the right shape, no seat
        "A" * 65,
        "é" * 24,
        "..%2F..%2Fapi%2Fgames",
        "%00" * 12,
        nerath[0][:-1],  # one character short
        nerath[0] + "A",
    ]
    for token in bad_tokens:
        for response in (
            client.get(f"/api/seat/{token}"),
            client.post(f"/api/seat/{token}/actions", json={"version": 0, "text": "pass"}),
            client.get(f"/api/seat/{token}/save"),
            client.get(f"/api/seat/{token}/board"),
            client.get(f"/api/seat/{token}/stream"),
        ):
            body = _assert_refused(response, f"token {token!r}: {response.request.url}")
            # "not_found" from the seat lookup, "http_404" when the token's slashes made another path
            assert response.status_code == 404 and body["code"] in ("not_found", "http_404")
    for query in ("-1", "soon", "1e3", "9" * 400):
        response = client.get(f"/api/seat/{nerath[0]}", params={"after": query})
        if query != "9" * 400:
            _assert_refused(response, f"after={query}")
        else:  # a huge 'after' is simply later than every event
            assert response.status_code == 200 and response.json()["events"] == []
    for token in ("", "x", "A" * 32, "é" * 24):
        response = client.delete("/api/games/whatever", headers={"X-Seat-Token": token.encode()})
        _assert_refused(response, f"delete with {token!r}")
    assert client.get(f"/api/seat/{nerath[0]}").json()["version"] == 0


def test_a_seat_token_acts_only_for_its_own_seat_in_real_games(client: TestClient) -> None:
    _, nerath = _create(client, "nerath", ["human", "random", "human", "random"])
    first = client.get(f"/api/seat/{nerath[0]}").json()
    assert first["pending"]["player"] == 0
    before = _position(client, nerath[0])
    for attempt in [{"action": a["action"]} for a in first["legal"][:5]] + [{"text": "pass"}]:
        response = client.post(f"/api/seat/{nerath[2]}/actions", json={"version": 0, **attempt})
        body = _assert_refused(response, repr(attempt))
        assert response.status_code == 403 and body["code"] == "not_your_decision"
        assert "seat 0" in body["error"] and "seat 2" in body["error"]
    assert _position(client, nerath[0]) == before
    # seat 0 passes its phases until another seat (an AI's card window, or human seat 2) decides
    payload = first
    for _ in range(200):
        if payload["pending"]["player"] != 0:
            break
        mine = client.get(f"/api/seat/{nerath[0]}").json()
        passes = [a for a in mine["legal"] if a["action"]["kind"] == "pass"]
        choice = (passes or mine["legal"])[0]
        answer = client.post(
            f"/api/seat/{nerath[0]}/actions", json={"version": mine["version"], "action": choice["action"]}
        )
        assert answer.status_code == 200, answer.text
        payload = answer.json()
    decider = payload["pending"]["player"]
    assert decider != 0
    # whoever decides now (an AI seat about to act, or seat 2), seat 0's token may not act for it
    response = client.post(
        f"/api/seat/{nerath[0]}/actions", json={"version": payload["version"], "text": "pass"}
    )
    body = _assert_refused(response, "seat 0 acting out of turn")
    assert body["code"] in ("not_your_decision", "stale")  # stale: an AI seat acted first
    after = client.get(f"/api/seat/{nerath[0]}").json()
    assert after["version"] >= payload["version"]
    if body["code"] == "not_your_decision":
        assert f"seat {decider}" in body["error"]

    _, defenders = _create(client, "defenders", ["human", "human"], players=2)
    for _ in range(3):
        view = client.get(f"/api/seat/{defenders[0]}").json()
        decider = view["pending"]["player"]
        other = 1 - decider
        legal = client.get(f"/api/seat/{defenders[decider]}").json()["legal"]
        response = client.post(
            f"/api/seat/{defenders[other]}/actions",
            json={"version": view["version"], "action": legal[0]["action"]},
        )
        body = _assert_refused(response, "a Defenders seat acting for the other")
        assert response.status_code == 403 and body["code"] == "not_your_decision"
        assert client.get(f"/api/seat/{defenders[0]}").json()["version"] == view["version"]
        answer = client.post(
            f"/api/seat/{defenders[decider]}/actions",
            json={"version": view["version"], "action": legal[0]["action"]},
        )
        assert answer.status_code == 200, answer.text


def test_an_odd_last_event_id_is_ignored_not_a_500(live_server: LiveServer) -> None:
    """A browser resumes a stream with the id of the last update it got; anything else than plain digits
    (a superscript two counts as a digit for ``str.isdigit``) starts from ``after`` instead."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        created = http.post("/api/games", json={"game": "defenders", "seats": ["human", "human"], "seed": 2})
        token = next(s["token"] for s in created.json()["seats"] if "token" in s)
        for value in ("²".encode("latin-1"), "١".encode(), b"-1", b"1" * 40, b"3"):
            with http.stream(
                "GET", f"/api/seat/{token}/stream", headers={"Last-Event-ID": value}
            ) as response:
                assert response.status_code == 200, (value, response.read())
                lines = response.iter_lines()
                assert next(lines) == "retry: 1000"
