"""Small World of Warcraft in a real browser: the islands drawn, a combo taken and regions conquered by
clicking, the prices shown before the click, and the other players' coins hidden."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer

TIMEOUT = 15


def _create(server: LiveServer, seats: list[str], seed: int, **options: Any) -> list[str]:
    body = json.dumps({"game": "smallworld", "seats": seats, "seed": seed, "options": options}).encode()
    request = urllib.request.Request(
        server.url + "/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.load(response)
    return [server.url + s["link"] for s in created["seats"] if "link" in s]


def _payload(server: LiveServer, link: str) -> dict[str, Any]:
    token = link.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server.url}/api/seat/{token}", timeout=10) as response:
        payload: dict[str, Any] = json.load(response)
    return payload


def _drawn_version(driver: Any) -> int:
    shown = driver.execute_script(
        "const b = document.querySelector('.sw-board'); return b ? b.dataset.version : null;"
    )
    return int(shown) if shown is not None else -1


def _wait_redrawn(driver: Any, after: int) -> None:
    WebDriverWait(driver, TIMEOUT).until(lambda d: _drawn_version(d) > after)
    # the prices of the new version arrive with its layout
    WebDriverWait(driver, TIMEOUT).until(
        lambda d: d.execute_script("return document.querySelectorAll('.sw-map [data-region]').length") > 0
    )


def test_islands_are_drawn_and_conquered_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    driver = browser
    link = _create(web_server, ["human", "random", "random"], seed=4, board="islands", players=3)[0]
    driver.get(link)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]"))
    regions = driver.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]")
    assert len(regions) == 30  # the 3-player islands
    names = driver.find_element(By.CSS_SELECTOR, ".sw-map").text
    assert "Stormcrest Isle (large)" in names and "Tidewrack Isle (small)" in names
    side = driver.find_element(By.CSS_SELECTOR, ".sw-side").text
    assert "Round 1 of 10" in side and "Combinations" in side
    assert side.count("coins hidden") == 2 and "(you)" in side and "5 coins" in side  # SWW-FLW-02

    # take the second combo: one coin goes on the first (SWW-CMB-01)
    version = _drawn_version(driver)
    driver.find_elements(By.CSS_SELECTOR, ".sw-combos li.pickable button")[1].click()
    _wait_redrawn(driver, version)
    payload = _payload(web_server, link)
    assert payload["view"]["players"][0]["coins"] == 4
    assert payload["view"]["combos"][0]["coins"] == 1

    # the entry regions are ringed with their price before any click (first conquest: SWW-CNQ-01/03)
    ringed = driver.find_elements(By.CSS_SELECTOR, ".sw-map .region.conquerable")
    assert ringed
    prices = driver.find_elements(By.CSS_SELECTOR, ".sw-map .price")
    assert prices and all(p.text for p in prices)
    target = ringed[0].get_attribute("data-region")
    hand = payload["view"]["players"][0]["hand"]
    screenshot(driver, "smallworld-board")

    version = _drawn_version(driver)
    driver.execute_script(
        "document.querySelector(`.sw-map [data-region='${arguments[0]}']`)"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))",
        target,
    )
    # several ways to conquer it (an ability of the race or power): the choice is offered, take the plain one
    WebDriverWait(driver, TIMEOUT).until(
        lambda d: _drawn_version(d) > version or d.find_elements(By.CSS_SELECTOR, ".sw-choice button")
    )
    if _drawn_version(driver) == version:
        plain = [
            b
            for b in driver.find_elements(By.CSS_SELECTOR, ".sw-choice button")
            if b.text.startswith(f"conquer {target} —")
        ]
        plain[0].click()
    _wait_redrawn(driver, version)
    area = _payload(web_server, link)["view"]["regions"][target]
    assert area["owner"] == 0 and area["tokens"] >= 3
    assert _payload(web_server, link)["view"]["players"][0]["hand"] == hand - area["tokens"]
    stack = driver.find_element(By.CSS_SELECTOR, f".sw-map [data-region='{target}'] .stack")
    assert stack.find_element(By.CSS_SELECTOR, "text").text == str(area["tokens"])
    assert js_errors(driver) == []


def test_classic_map_is_drawn(web_server: LiveServer, browser: Any) -> None:
    link = _create(web_server, ["human", "random"], seed=1, board="classic", players=2)[0]
    browser.get(link)
    WebDriverWait(browser, TIMEOUT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]"))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]")) == 23
    assert "Classic map for 2 players" in browser.find_element(By.CSS_SELECTOR, ".sw-map").text
    assert js_errors(browser) == []
