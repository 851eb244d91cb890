"""Helpers for driving games through the HTTP API in tests."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from warhorn.engine import Rng


def create(client: TestClient, seats: list[str], seed: int = 7, **options: Any) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"game": "dice-race", "seats": seats, "seed": seed, "options": options}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def tokens(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def state(client: TestClient, token: str, after: int = 0) -> dict[str, Any]:
    response = client.get(f"/api/seat/{token}", params={"after": after})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_random(client: TestClient, seat_tokens: dict[int, str], steps: int, rng: Rng) -> dict[str, Any]:
    """Let the human seats play random legal actions for up to ``steps`` of their decisions."""
    any_token = next(iter(seat_tokens.values()))
    payload = state(client, any_token)
    for _ in range(steps):
        if payload["pending"] is None:
            break
        token = seat_tokens.get(payload["pending"]["player"])
        if token is None:  # an AI seat decides: wait for it
            payload = wait_for(client, any_token, lambda p, v=payload["version"]: p["version"] > v)
            continue
        mine = state(client, token)
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        response = client.post(
            f"/api/seat/{token}/actions", json={"version": mine["version"], "action": choice["action"]}
        )
        assert response.status_code == 200, response.text
        payload = state(client, any_token)
    return payload


def wait_for(client: TestClient, token: str, condition: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        payload = state(client, token)
        if condition(payload):
            return payload
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not reached within {timeout}s; last payload {payload}")
        time.sleep(0.02)


def wait_game(client: TestClient, game_id: str, condition: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        summary: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if condition(summary):
            return summary
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not reached within {timeout}s; last summary {summary}")
        time.sleep(0.02)
