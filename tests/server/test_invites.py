"""Invite links (issue #21, "Secrets"): a human seat handed out by invite is claimed once by one player,
who alone receives its token; the creator gets the invite, never the token, and sees "claimed"."""

from __future__ import annotations

import json
import threading
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import OpenClient
from tests.server.helpers import state


def _create(client: TestClient, seats: list[str], invites: list[int]) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"game": "dice-race", "seats": seats, "seed": 7, "invites": invites}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_creator_gets_an_invite_not_the_token_and_one_claim_gets_the_seat(client: TestClient) -> None:
    created = _create(client, ["human", "human"], invites=[1])
    mine, invited = created["seats"]
    assert "token" in mine and mine["link"] == f"/play/{mine['token']}"  # hotseat: the creator's own
    assert (
        set(invited) == {"seat", "kind", "invite", "link"}
        and invited["link"] == f"/invite/{invited['invite']}"
    )
    code = invited["invite"]

    # reading the invite (or opening its page) claims nothing
    assert client.get(f"/api/invites/{code}").json() == {
        "game_id": created["game_id"],
        "game": "dice-race",
        "seat": 1,
        "status": "open",
    }
    assert client.get(f"/invite/{code}").status_code == 200
    assert client.get(f"/api/games/{created['game_id']}").json()["seats"][1]["invite"] == "open"

    claim = client.post(f"/api/invites/{code}/claim")
    assert claim.status_code == 200, claim.text
    seat = claim.json()
    assert seat["seat"] == 1 and seat["link"] == f"/play/{seat['token']}"
    assert state(client, seat["token"])["seat"] == 1

    # once claimed: nobody else gets the token, and everyone reads "claimed"
    again = client.post(f"/api/invites/{code}/claim")
    assert again.status_code == 409 and again.json()["code"] == "claimed"
    assert seat["token"] not in again.text
    assert client.get(f"/api/invites/{code}").json()["status"] == "claimed"
    listed = client.get("/api/games").text
    summary = client.get(f"/api/games/{created['game_id']}").json()
    assert summary["seats"] == [
        {"seat": 0, "kind": "human"},
        {"seat": 1, "kind": "human", "invite": "claimed"},
    ]
    for text in (listed, json.dumps(summary), json.dumps(created), client.get(f"/api/invites/{code}").text):
        assert seat["token"] not in text
    # the creator's own seat sees nothing of it either
    assert seat["token"] not in json.dumps(state(client, mine["token"]))


def test_the_claimed_seat_plays_and_a_restart_keeps_the_claim(open_client: OpenClient) -> None:
    with open_client() as client:
        created = _create(client, ["human", "human"], invites=[0, 1])
        assert all("token" not in s for s in created["seats"])
        codes = [s["invite"] for s in created["seats"]]
        first = client.post(f"/api/invites/{codes[0]}/claim").json()["token"]
        response = client.post(f"/api/seat/{first}/actions", json={"version": 0, "text": "roll"})
        assert response.status_code == 200, response.text
    with open_client() as client:  # the server restarted: claims are stored
        assert client.post(f"/api/invites/{codes[0]}/claim").status_code == 409
        second = client.post(f"/api/invites/{codes[1]}/claim")
        assert second.status_code == 200 and state(client, second.json()["token"])["version"] == 1


def test_two_players_claiming_at_once_one_gets_the_seat(open_client: OpenClient) -> None:
    with open_client() as client:
        code = _create(client, ["human", "random"], invites=[0])["seats"][0]["invite"]
        answers: list[int] = []
        start = threading.Barrier(8)

        def claim() -> None:
            start.wait()
            answers.append(client.post(f"/api/invites/{code}/claim").status_code)

        threads = [threading.Thread(target=claim) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200] + [409] * 7


def test_bad_invites_are_refused(client: TestClient) -> None:
    games_before = len(client.get("/api/games").json()["games"])
    for invites, seats in (([1], ["human", "random"]), ([2], ["human", "human"]), ([-1], ["human", "human"])):
        response = client.post(
            "/api/games", json={"game": "dice-race", "seats": seats, "seed": 7, "invites": invites}
        )
        assert response.status_code in (400, 422), response.text
        assert "invites" in response.json()["error"]
    assert len(client.get("/api/games").json()["games"]) == games_before
    for code in ("nope", "x" * 40, "%00" * 20):
        assert client.get(f"/api/invites/{code}").status_code == 404
        assert client.post(f"/api/invites/{code}/claim").status_code == 404
    # an unclaimed invite is no seat token
    code = _create(client, ["human", "human"], invites=[1])["seats"][1]["invite"]
    assert client.get(f"/api/seat/{code}").status_code == 404


def test_an_invite_to_a_game_that_cannot_be_resumed_is_not_spent(
    open_client: OpenClient, database_url: str
) -> None:
    import sqlalchemy as sa

    from warhorn.server.database import make_engine

    with open_client() as client:
        created = _create(client, ["human", "human"], invites=[1])
    code = created["seats"][1]["invite"]
    engine = make_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET digest = 'x' WHERE id = :id"), {"id": created["game_id"]})
    engine.dispose()
    with open_client() as client:
        refused = client.post(f"/api/invites/{code}/claim")
        assert refused.status_code == 409 and refused.json()["code"] == "cannot_resume", refused.text
        assert client.get(f"/api/invites/{code}").json()["status"] == "open"
