"""Undo in hotseat games, rematch, spectators and replays through the JSON API (issue 19)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import OpenClient
from tests.server.helpers import create, state, tokens, wait_for
from warhorn.engine import Match


def _roll_until_respond(client: TestClient, seat_tokens: dict[int, str]) -> dict[str, Any]:
    """Both seats roll until one rolls a 6: the next seat must then respond (no die: undoable)."""
    payload = state(client, seat_tokens[0])
    for _ in range(200):
        pending = payload["pending"]
        assert pending is not None, "the game ended before a 6 was rolled"
        if pending["kind"] == "respond":
            return payload
        token = seat_tokens[pending["player"]]
        answer = client.post(
            f"/api/seat/{token}/actions", json={"version": payload["version"], "text": "roll"}
        )
        assert answer.status_code == 200, answer.text
        payload = answer.json()
        assert payload["undo"] is None, "a roll was offered to be undone"
    raise AssertionError("no 6 in 200 rolls")


def test_undo_takes_back_the_last_human_decision_never_a_roll(client: TestClient) -> None:
    created = create(client, ["human", "human"], seed=3, hand_size=0, target=100)
    t = tokens(created)
    before = _roll_until_respond(client, t)
    version = before["version"]
    responder = t[before["pending"]["player"]]
    refused = client.post(f"/api/seat/{responder}/undo", json={"version": version})
    assert refused.status_code == 409 and refused.json()["code"] == "undo_refused", refused.text
    assert "roll" in refused.json()["error"]
    answer = client.post(f"/api/seat/{responder}/actions", json={"version": version, "text": "respond block"})
    assert answer.status_code == 200, answer.text
    # the response is no roll: it may be undone, by either hotseat seat
    assert answer.json()["undo"] == 1 and state(client, t[0])["undo"] == 1
    stale = client.post(f"/api/seat/{t[0]}/undo", json={"version": version})
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    undone = client.post(f"/api/seat/{t[0]}/undo", json={"version": version + 1})
    assert undone.status_code == 200, undone.text
    after = undone.json()
    assert after["version"] == version and after["undos"] == 1
    assert after["pending"]["kind"] == "respond" and after["view"] == before["view"]
    assert len(client.get(f"/api/seat/{t[0]}/save").json().get("actions", [])) == 0  # still refused: running
    # the game goes on from there, and the database agrees (the game is rebuilt the same)
    again = client.post(f"/api/seat/{responder}/actions", json={"version": version, "text": "respond allow"})
    assert again.status_code == 200 and again.json()["version"] == version + 1


def test_undo_survives_a_restart_and_is_refused_with_invited_seats(open_client: OpenClient) -> None:
    with open_client() as client:
        created = create(client, ["human", "human"], seed=3, hand_size=0, target=100)
        t = tokens(created)
        before = _roll_until_respond(client, t)
        responder = t[before["pending"]["player"]]
        client.post(
            f"/api/seat/{responder}/actions", json={"version": before["version"], "text": "respond block"}
        )
        assert (
            client.post(f"/api/seat/{t[0]}/undo", json={"version": before["version"] + 1}).status_code == 200
        )
        invited = client.post(
            "/api/games",
            json={"game": "dice-race", "seats": ["human", "human"], "seed": 3, "invites": [1], "options": {}},
        ).json()
        mine = next(s["token"] for s in invited["seats"] if "token" in s)
        refused = client.post(f"/api/seat/{mine}/undo", json={"version": 0})
        assert refused.status_code == 403 and refused.json()["code"] == "undo_refused"
        assert state(client, mine)["undo"] is None
    with open_client() as client:  # a new server on the same database: the undone action is gone
        resumed = state(client, t[0])
        assert resumed["version"] == before["version"] and resumed["pending"]["kind"] == "respond"


def _finish(client: TestClient, seat_tokens: dict[int, str]) -> dict[str, Any]:
    payload = state(client, seat_tokens[0])
    any_token = next(iter(seat_tokens.values()))
    while payload["pending"] is not None:
        token = seat_tokens.get(payload["pending"]["player"])
        if token is None:  # an AI seat decides: wait for it
            payload = wait_for(client, any_token, lambda p, v=payload["version"]: p["version"] > v)
            continue
        mine = state(client, token)
        choice = mine["legal"][0]["action"]
        answer = client.post(
            f"/api/seat/{token}/actions", json={"version": mine["version"], "action": choice}
        )
        assert answer.status_code == 200, answer.text
        payload = answer.json()
    return payload


def test_rematch_same_seats_new_seed_each_seat_gets_its_own_link(client: TestClient) -> None:
    created = create(client, ["human", "random", "human"], seed=5, target=10)
    t = tokens(created)
    early = client.post(f"/api/seat/{t[0]}/rematch")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    _finish(client, t)
    wait_for(client, t[0], lambda p: p["status"] == "finished")
    made = client.post(f"/api/seat/{t[2]}/rematch")
    assert made.status_code == 201, made.text
    rematch = made.json()
    assert rematch["seat"] == 2 and rematch["watch"] == f"/watch/{rematch['game_id']}"
    again = client.post(f"/api/seat/{t[0]}/rematch").json()  # asked again: the same rematch
    assert again["game_id"] == rematch["game_id"] and again["seat"] == 0
    summary = client.get(f"/api/games/{rematch['game_id']}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "random", "human"]
    # each old seat's page holds its own new link, never another's
    links = {seat: state(client, token)["rematch"] for seat, token in t.items()}
    assert links[0]["link"] == again["link"] and links[2]["link"] == rematch["link"]
    assert links[0]["link"] != links[2]["link"]
    new0 = state(client, links[0]["link"].rsplit("/", 1)[1])
    assert new0["seat"] == 0 and new0["version"] == 0
    watched = client.get(f"/api/watch/{created['game_id']}").json()
    assert watched["rematch"] == {"game_id": rematch["game_id"], "watch": rematch["watch"]}
    # a new seed: the rematch is another game (its save differs once over)
    old_save = client.get(f"/api/seat/{t[0]}/save").json()
    assert old_save["seed"] == 5


def test_the_watch_payload_holds_public_information_only(client: TestClient) -> None:
    created = create(client, ["human", "human"], seed=7, hand_size=2)
    t = tokens(created)
    watched = client.get(f"/api/watch/{created['game_id']}")
    assert watched.status_code == 200, watched.text
    body = watched.json()
    assert body["seat"] is None and body["legal"] == [] and body["undo"] is None
    assert body["view"]["hand"] is None and "prompt" not in body["pending"]
    for seat in (0, 1):
        for card in state(client, t[seat])["view"]["hand"]:
            assert card not in watched.text
        assert t[seat] not in watched.text
    assert client.get("/api/watch/0123456789ab").status_code == 404
    assert client.get("/api/watch/not-a-game!").status_code == 404
    page = client.get(f"/watch/{created['game_id']}")
    assert page.status_code == 200 and 'data-mode="watch"' in page.text
    for token in t.values():
        assert token not in page.text


def test_replay_of_a_finished_game_and_of_an_uploaded_save(client: TestClient) -> None:
    created = create(client, ["human", "human"], seed=9, target=10)
    t = tokens(created)
    game_id = created["game_id"]
    refused = client.get(f"/api/replays/{game_id}")
    assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
    _finish(client, t)
    save = client.get(f"/api/seat/{t[0]}/save").json()
    match = Match.from_save(save)
    last = len(save["actions"])
    start = client.get(f"/api/replays/{game_id}", params={"step": 0}).json()
    assert start["version"] == 0 and start["actions"] == last and start["events"] == []
    assert start["view"] == match.states[0].view(None)
    middle = client.get(f"/api/replays/{game_id}", params={"step": last // 2, "after": 0}).json()
    assert middle["view"] == match.states[last // 2].view(None)
    assert {e["action"] for e in middle["events"]} <= set(range(1, last // 2 + 1))
    end = client.get(f"/api/replays/{game_id}", params={"step": last, "after": last - 1}).json()
    assert end["results"] is not None and end["pending"] is None
    assert all(e["action"] == last for e in end["events"])
    beyond = client.get(f"/api/replays/{game_id}", params={"step": last + 1})
    assert beyond.status_code == 400 and beyond.json()["code"] == "bad_step"
    # the same save uploaded: the engine replays it (an edited one is refused)
    uploaded = client.post("/api/replays", json=save)
    assert uploaded.status_code == 201, uploaded.text
    replay_id = uploaded.json()["replay_id"]
    assert uploaded.json()["actions"] == last
    frame = client.get(f"/api/replays/{replay_id}", params={"step": last // 2}).json()
    assert frame["view"] == middle["view"]
    edited = {**save, "actions": save["actions"][:-1]}
    bad = client.post("/api/replays", json=edited)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_save"
    assert client.get("/api/replays/u0000000000000000").status_code == 404
    assert client.get(f"/replay/{replay_id}").status_code == 200
    assert client.get(f"/api/seat/replay.{replay_id}/board").status_code == 404  # dice-race has no board


def test_the_game_list_names_the_seats_when_the_game_does(client: TestClient) -> None:
    created = create(client, ["human", "human"])
    summary = client.get(f"/api/games/{created['game_id']}").json()
    assert "seat_names" in summary  # dice-race names no roles: null
