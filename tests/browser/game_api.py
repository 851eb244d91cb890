"""The server's game API as the browser tests use it: make a game, read a seat's payload."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any


def create_game(
    server_url: str, game: str, seats: list[str], seed: int, timeout: float = 10, **options: Any
) -> list[str]:
    """A game made through the API; the links of its human seats (seat order)."""
    body = json.dumps({"game": game, "seats": seats, "seed": seed, "options": options}).encode()
    request = urllib.request.Request(
        server_url + "/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        created = json.load(response)
    return [server_url + s["link"] for s in created["seats"] if "link" in s]


def seat_payload(server_url: str, link: str) -> dict[str, Any]:
    """What the server sends the seat of ``link`` (its view, decision and log)."""
    token = link.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server_url}/api/seat/{token}", timeout=10) as response:
        payload: dict[str, Any] = json.load(response)
    return payload


#: Seconds the AI seats may take to play on before a test gives up: a bound for a loaded machine.
AI_SECONDS = 120.0


def wait_until_moved_on(
    read: Callable[[], dict[str, Any]], version: int, timeout: float = AI_SECONDS
) -> dict[str, Any]:
    """The payload ``read()`` returns once the game has moved past ``version`` (or ended): the AI seats
    played on the server. Polls without counting polls, so a loaded machine only makes it wait longer."""
    deadline = time.monotonic() + timeout
    while True:
        payload = read()
        if payload["version"] != version or payload["pending"] is None:
            return payload
        assert time.monotonic() < deadline, f"the game stayed at version {version} for {timeout:g} s"
        time.sleep(0.05)
