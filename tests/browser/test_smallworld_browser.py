"""Small World of Warcraft in a real browser: the islands drawn, a combo taken and regions conquered by
clicking, the prices shown before the click, and the other players' coins hidden."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.browser.game_api import create_game, seat_payload, wait_until_moved_on
from tests.live_server import LiveServer

TIMEOUT = 15
#: Seconds the page may show its decision with nothing to click (drawn again between two looks) before
#: the test fails: a bound for a loaded machine.
NOTHING_TO_CLICK_SECONDS = 30.0


def _create(server: LiveServer, seats: list[str], seed: int, **options: Any) -> list[str]:
    return create_game(server.url, "smallworld", seats, seed, timeout=10, **options)


def _payload(server: LiveServer, link: str) -> dict[str, Any]:
    return seat_payload(server.url, link)


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
    link = _create(
        web_server, ["human", "random", "random"], seed=4, board="islands", players=3, islands="fixed"
    )[0]
    driver.get(link)
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]"))
    regions = driver.find_elements(By.CSS_SELECTOR, ".sw-map [data-region]")
    assert len(regions) == 30  # the 3-player islands' layout
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


def _click_something(driver: Any, rng: random.Random) -> bool:
    """One click on the board: a choice, a combo, a region that takes an action, or a turn button."""
    choices = driver.find_elements(By.CSS_SELECTOR, ".sw-choice button:not(.muted)")
    combos = driver.find_elements(By.CSS_SELECTOR, ".sw-combos li.pickable button")
    regions = driver.find_elements(By.CSS_SELECTOR, ".sw-map .region.actionable")
    turn = driver.find_elements(By.CSS_SELECTOR, ".sw-turn button")
    if choices:
        target = rng.choice(choices)
    elif combos:
        target = rng.choice(combos[:3])
    elif regions and (not turn or rng.random() < 0.85):
        target = rng.choice(regions)
    elif turn:
        target = rng.choice(turn)
    else:
        return False
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
    return True


def test_a_whole_game_against_three_ai_seats_is_played_by_clicking_the_board(
    web_server: LiveServer, browser: Any
) -> None:
    """Every decision of the human seat taken on the board (no generic action list): picks, conquests,
    final conquests, abandonment, decline and redeployment, until the game ends (SWW-FLW-01)."""
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException

    driver = browser
    link = _create(
        web_server,
        ["human", "random", "random", "random"],
        seed=7,
        board="islands",
        players=4,
        islands="fixed",
    )[0]
    driver.get(link)
    rng = random.Random(2)
    kinds: set[str] = set()
    idle_since: float | None = None
    for _ in range(600):  # the human seat's looks at its decisions
        payload = _payload(web_server, link)
        if payload.get("results"):
            break
        if not (payload["pending"] and payload["pending"].get("yours")):  # the AI seats play on the server
            wait_until_moved_on(lambda: _payload(web_server, link), payload["version"])
            continue
        version = payload["version"]
        kinds |= {legal["action"]["kind"] for legal in payload["legal"]}
        try:
            WebDriverWait(driver, 2 * TIMEOUT).until(lambda d, v=version: _drawn_version(d) >= v)
        except TimeoutException:
            logs = driver.get_log("browser")[-10:]
            raise AssertionError(
                f"version {version} not drawn (shows {_drawn_version(driver)}): {logs}"
            ) from None
        if _drawn_version(driver) != version:
            continue  # the page is ahead of the answer we read: read again
        try:
            clicked = _click_something(driver, rng)
        except StaleElementReferenceException:
            continue  # the board was drawn again under the click (the same version): look again
        if not clicked:  # drawn again between two looks: look again, but not forever
            idle_since = idle_since if idle_since is not None else time.monotonic()
            assert time.monotonic() - idle_since < NOTHING_TO_CLICK_SECONDS, (
                driver.find_element(By.ID, "decision").text,
                payload["legal"][:3],
            )
            time.sleep(0.1)
            continue
        idle_since = None
        WebDriverWait(driver, 2 * TIMEOUT).until(
            lambda d, v=version: (
                d.find_elements(By.CSS_SELECTOR, ".sw-choice button")
                or _payload(web_server, link)["version"] != v
            )
        )
    results = _payload(web_server, link)["results"]
    assert results is not None and "SWW-FLW-01" in results["reason"]
    assert {"pick", "conquer", "deploy", "end"} <= kinds
    assert js_errors(driver) == []


def test_the_log_names_each_seat_by_the_race_it_played(web_server: LiveServer, browser: Any) -> None:
    """The engine's 'player 0' becomes 'Farmer Tauren (seat 0)' in the log (the race of the seat's pick
    when the event happened) and in the prompt; the page's own seat is 'you'."""
    driver = browser
    link = _create(web_server, ["random", "human"], seed=3, players=2)[0]
    # the AI seat 0 plays its first turn on the server's own time: wait for its pick
    WebDriverWait(driver, TIMEOUT).until(
        lambda _: _payload(web_server, link)["view"]["players"][0]["active"] is not None
    )
    picked = _payload(web_server, link)["view"]["players"][0]["active"]
    driver.get(link)
    _wait_redrawn(driver, -1)
    layout = driver.execute_script(
        "return fetch('/api/seat/' + document.getElementById('game').dataset.token + '/board')"
        ".then((r) => r.json())"
    )
    name = f"{layout['powers'][picked['power']]} {layout['races'][picked['race']]['name']} (seat 0)"
    WebDriverWait(driver, TIMEOUT).until(lambda d: name in d.find_element(By.ID, "log").text)
    log = driver.find_element(By.ID, "log").text
    assert "player 0" not in log and "player 1" not in log
    combo = name.removesuffix(" (seat 0)")
    assert f"seat 0 takes {combo}" in log  # its first pick: no race before it
    assert not js_errors(driver)
