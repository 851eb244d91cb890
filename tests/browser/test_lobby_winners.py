"""The lobby names a finished game's winners as their game names what they played (a Small World race and
power, a Nerath kingdom, a Defenders hero), recorded with the results, not as seat numbers."""

from __future__ import annotations

import time
from typing import Any

import httpx
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer


def _finished(client: httpx.Client, game_id: str, timeout: float = 300.0) -> dict[str, Any]:
    """The game's summary once its AI seats have played it to the end."""
    deadline = time.monotonic() + timeout
    while True:
        summary: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if summary["status"] == "finished" or time.monotonic() > deadline:
            assert summary["status"] == "finished", summary
            return summary
        time.sleep(0.2)


def test_the_lobby_names_the_winners(web_server: LiveServer, browser: Any) -> None:
    with httpx.Client(base_url=web_server.url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": "smallworld", "seed": 3, "seats": ["random", "random"]}
        ).json()
        done = _finished(client, created["game_id"])
    results = done["results"]
    names = results["seat_names"]
    assert len(names) == 2 and all(isinstance(n, str) for n in names)
    expected = ", ".join(f"{names[w]} (seat {w})" if names[w] else f"seat {w}" for w in results["winners"])
    # the AI seats' dice are not the game seed's (each game draws its own), so a winner may end with its race
    # in decline and no active one: then the lobby names its seat, as `expected` says
    browser.get(web_server.url + "/")
    row = f"//tr[td[contains(., '{created['game_id']}')]]"
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("xpath", row))
    text = browser.find_element("xpath", row).text
    assert f"won by {expected}" in text, text
    assert "winner(s)" not in text
    assert js_errors(browser) == []
