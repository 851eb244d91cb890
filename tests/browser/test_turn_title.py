"""The tab's title tells a player whether to act: "your turn" on the seat that must decide, "waiting
for Karkoth" (the acting seat's name in the game) on the others."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer


@pytest.mark.parametrize(
    ("game", "seats", "options", "first"),
    [("nerath", 4, {}, "Karkoth"), ("defenders", 2, {"heroes": "cleric,ranger"}, "Cleric")],
)
def test_the_title_says_your_turn_or_whom_we_wait_for(
    web_server: LiveServer, open_browser: Any, game: str, seats: int, options: dict[str, Any], first: str
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": game, "seed": 1, "seats": ["human"] * seats, "options": options}
        ).json()
        acting = next(s for s in created["seats"] if s["seat"] == 0)  # seat 0 decides first in both
        waiting = next(s for s in created["seats"] if s["seat"] == 1)
        assert client.get(f"/api/seat/{waiting['token']}").json()["pending"]["player"] == 0
    mine, theirs = open_browser(), open_browser()
    mine.get(web_server.url + acting["link"])
    theirs.get(web_server.url + waiting["link"])
    WebDriverWait(mine, 20).until(lambda d: d.title.startswith("your turn"))
    WebDriverWait(theirs, 20).until(lambda d: d.title.startswith(f"waiting for {first}"))
    assert "seat " not in theirs.title, theirs.title
    assert js_errors(mine) == [] and js_errors(theirs) == []
