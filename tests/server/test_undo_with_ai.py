"""Undo in a hotseat game with AI seats: a human decision and the AI actions after it are taken back
together, back to the human's own decision (the engine's undo rule, never across a roll; issue 19)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import OpenClient
from tests.server.helpers import state, wait_for
from warhorn.engine import Rng

HUMAN = 0


def _after_the_ai(client: TestClient, token: str) -> dict[str, Any]:
    """The game once the AI seat is done: the human decides again, or the game is over."""
    return wait_for(
        client, token, lambda p: p["pending"] is None or p["pending"]["player"] == HUMAN, timeout=60
    )


def test_undo_with_ai_seats_returns_to_the_humans_own_decision(open_client: OpenClient) -> None:
    with open_client() as client:
        created = client.post(
            "/api/games", json={"game": "smallworld", "seats": ["human", "random"], "seed": 5, "options": {}}
        )
        assert created.status_code == 201, created.text
        token = next(s["token"] for s in created.json()["seats"] if "token" in s)
        rng = Rng(11)
        payload = _after_the_ai(client, token)
        refused_after_a_roll = False
        for _ in range(300):
            assert payload["pending"] is not None, "the game ended before the AI answered without a roll"
            before = payload
            choice = before["legal"][rng.below(len(before["legal"]))]["action"]
            answer = client.post(
                f"/api/seat/{token}/actions", json={"version": before["version"], "action": choice}
            )
            assert answer.status_code == 200, answer.text
            payload = _after_the_ai(client, token)
            taken = payload["version"] - before["version"]
            if taken > 1 and payload["undo"] is None:
                # the AI rolled (or drew) after the human's decision: that is never taken back
                refused = client.post(f"/api/seat/{token}/undo", json={"version": payload["version"]})
                assert refused.status_code == 409 and refused.json()["code"] == "undo_refused", refused.text
                assert state(client, token)["version"] == payload["version"]
                refused_after_a_roll = True
            if taken > 1 and payload["undo"] is not None and refused_after_a_roll:
                break
        else:
            raise AssertionError("no human decision followed by AI actions without a roll")
        # the human's decision and the AI's actions after it are one undo
        assert payload["undo"] == taken
        undone = client.post(f"/api/seat/{token}/undo", json={"version": payload["version"]})
        assert undone.status_code == 200, undone.text
        back = undone.json()
        assert back["version"] == before["version"] and back["pending"] == before["pending"]
        assert back["view"] == before["view"] and back["legal"] == before["legal"]
        assert back["undos"] == 1 and back["undo"] == before["undo"]
        # the same choice again: the AI seat answers it the same way (its dice live in the state)
        again = client.post(f"/api/seat/{token}/actions", json={"version": back["version"], "action": choice})
        assert again.status_code == 200, again.text
        replayed = _after_the_ai(client, token)
        assert replayed["version"] == payload["version"] and replayed["view"] == payload["view"]
        assert replayed["ai_error"] is None
        undone = client.post(f"/api/seat/{token}/undo", json={"version": replayed["version"]})
        assert undone.status_code == 200, undone.text
    with open_client() as client:  # a new server on the same database: both undos are kept
        resumed = state(client, token)
        assert resumed["version"] == before["version"] and resumed["view"] == before["view"]
