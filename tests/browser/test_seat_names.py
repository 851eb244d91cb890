"""The generic page names seats by their name in the game (a Nerath kingdom, a Defenders hero), not
"seat 1", once the board's layout is loaded: "Waiting for Karkoth (human)"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer


def _decision(driver: Any) -> str:
    text: str = driver.execute_script("return document.getElementById('decision').textContent")
    return text


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("nerath", 4, {}), ("defenders", 2, {"heroes": "cleric,ranger"})],
)
def test_the_waiting_seat_is_named_by_its_name_in_the_game(
    web_server: LiveServer, browser: Any, game: str, seats: int, options: dict[str, Any]
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": game, "seed": 1, "seats": ["human"] * seats, "options": options}
        ).json()
        waiting = next(s for s in created["seats"] if s["seat"] != 0)  # a seat that is not to play
        first = client.get(f"/api/seat/{waiting['token']}").json()["pending"]["player"]
    browser.get(web_server.url + waiting["link"])
    wait = WebDriverWait(browser, 20)
    wait.until(lambda d: _decision(d).startswith("Waiting for ") and "seat " not in _decision(d))
    text = _decision(browser)
    assert first == 0  # Karkoth plays first in Nerath; the Cleric (seat 0's hero) in Defenders
    expected = {"nerath": "Karkoth", "defenders": "Cleric"}[game]
    assert text.startswith(f"Waiting for {expected} (human)"), text
    assert js_errors(browser) == []
