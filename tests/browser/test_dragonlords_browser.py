"""Quest for the DragonLords in a real browser: the world drawn as territories, seas and the
Wastelands tracks; set-up played by clicking; the other player's King and decoy hidden."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.browser.game_api import create_game, seat_payload
from tests.live_server import LiveServer

TIMEOUT = 20


def _create(server: LiveServer, seats: list[str], seed: int, **options: Any) -> list[str]:
    return create_game(server.url, "dragonlords", seats, seed, timeout=60, **options)


def _payload(server: LiveServer, link: str) -> dict[str, Any]:
    return seat_payload(server.url, link)


def _version(driver: Any) -> int:
    shown = driver.execute_script(
        "const b = document.querySelector('.dl-board'); return b ? b.dataset.version : null;"
    )
    return int(shown) if shown is not None else -1


def _click_and_wait(driver: Any, element: Any) -> None:
    before = _version(driver)
    element.click()
    WebDriverWait(driver, TIMEOUT).until(lambda d: _version(d) > before)


@pytest.mark.rule("DLR-HID-01")
def test_the_world_is_drawn_and_set_up_is_played_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    driver = browser
    link = _create(web_server, ["human", "heuristic"], seed=5, players=2)[0]
    driver.get(link)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dl-map [data-space]"))
    spaces = driver.find_elements(By.CSS_SELECTOR, ".dl-map [data-space]")
    assert len(spaces) == 76  # 44 territories, 16 sea zones, 16 Wastelands squares
    text = driver.find_element(By.CSS_SELECTOR, ".dl-map").text
    assert "Gorefort" in text and "Lanternford Village" in text and "Westwater Strait" in text
    for _ in range(60):  # the set-up: a people, the realms, the tokens
        payload = _payload(web_server, link)
        view = payload["view"]
        if view["phase"] not in ("setup_people", "setup_realm", "setup_tokens"):
            break
        if not (payload["pending"] and payload["pending"]["yours"]):
            seen = payload["version"]
            WebDriverWait(driver, TIMEOUT).until(
                lambda d, seen=seen: _payload(web_server, link)["version"] != seen
            )
            continue
        buttons = driver.find_elements(By.CSS_SELECTOR, ".dl-turn button")
        if buttons:
            _click_and_wait(driver, buttons[0])
            continue
        ringed = driver.find_elements(By.CSS_SELECTOR, ".dl-map .space.actionable")
        assert ringed, "a token placement rings the territories it may go to"
        ringed[0].click()
        seen = payload["version"]
        WebDriverWait(driver, TIMEOUT).until(
            lambda d, seen=seen: d.find_elements(By.CSS_SELECTOR, ".dl-choice button") or _version(d) != seen
        )
        choices = driver.find_elements(By.CSS_SELECTOR, ".dl-choice button")
        if choices:
            _click_and_wait(driver, choices[0])
    payload = _payload(web_server, link)
    view = payload["view"]
    assert view["phase"] not in ("setup_people", "setup_realm", "setup_tokens")
    WebDriverWait(driver, TIMEOUT).until(lambda d: _version(d) >= payload["version"])
    # the opponent's stacks show how many tokens they hide, never which (DLR-HID-01)
    theirs = [f for f in view["spaces"].values() if f["owner"] == 1]
    assert sum(f["hidden_tokens"] for f in theirs) == 3 and all("pieces" not in f for f in theirs)
    titles = driver.execute_script(
        "return [...document.querySelectorAll('.dl-map .stack title')].map((t) => t.textContent);"
    )
    opponent = [t for t in titles if "of player 1" in t]
    assert opponent and not any("king" in t or "decoy" in t or "sorcerer" in t for t in opponent)
    assert any("hidden token" in t for t in opponent)
    side = driver.find_element(By.CSS_SELECTOR, ".dl-side").text
    assert "your hand:" in side and "(you)" in side
    assert js_errors(driver) == []
    screenshot(driver, "dragonlords-board")
