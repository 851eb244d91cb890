"""Every board draws each space's whole name (a long one wrapped or smaller, never cut to a prefix):
"Whisperwood Marches", not "Whisperwood…"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer

#: Each game: its seats, options, and the layout list whose items are its named spaces.
GAMES = [
    ("nerath", 4, {}, "spaces"),
    ("defenders", 2, {"heroes": "cleric,ranger"}, "locations"),
    ("smallworld", 2, {}, "regions"),
    ("dragonlords", 4, {}, "spaces"),
]

DRAWN_TEXTS = (
    "return Array.from(document.querySelectorAll('#board svg text')).map((t) => t.textContent.trim());"
)


@pytest.mark.parametrize(("game", "seats", "options", "key"), GAMES, ids=[g[0] for g in GAMES])
def test_every_space_name_is_drawn_whole(
    web_server: LiveServer, browser: Any, game: str, seats: int, options: dict[str, Any], key: str
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": game, "seed": 1, "seats": ["human"] * seats, "options": options}
        ).json()
        seat = created["seats"][0]
        layout = client.get(f"/api/seat/{seat['token']}/board").json()
    names = {space["name"] for space in layout[key]}
    assert max(len(n) for n in names) > 12  # the board has a long name to show
    browser.get(web_server.url + seat["link"])
    WebDriverWait(browser, 30).until(lambda d: len(d.execute_script(DRAWN_TEXTS)) >= len(names))
    drawn = set(browser.execute_script(DRAWN_TEXTS))
    missing = sorted(names - drawn)
    assert missing == [], f"{game}: names not drawn whole: {missing[:5]}"
    assert js_errors(browser) == []
