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
    # the first decision of the human seat, whose prompt names its rule: the rule is shown once
    decision = WebDriverWait(driver, TIMEOUT).until(
        lambda d: (t := d.find_element(By.ID, "decision").text).startswith("Your decision") and t
    )
    assert "choose your people" in decision and decision.count("DLR-SET-04") == 1, decision
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
    opponent = [t for t in titles if "(player 1)" in t]
    assert opponent and not any("king" in t or "decoy" in t or "sorcerer" in t for t in opponent)
    assert any("hidden token" in t for t in opponent)
    side = driver.find_element(By.CSS_SELECTOR, ".dl-side").text
    assert "your hand:" in side and "(you)" in side
    assert js_errors(driver) == []
    driver.execute_script("document.querySelector('.dl-board').scrollIntoView()")
    screenshot(driver, "dragonlords-board")


#: The outline of every name on the map, as drawn (rotation included): four corners in page pixels.
NAME_QUADS = """
return [...document.querySelectorAll('.dl-map .space-name, .dl-map .track-name')].map((t) => {
  const b = t.getBBox();
  const m = t.getScreenCTM();
  const corner = (x, y) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; };
  return { text: t.textContent, cls: t.getAttribute('class'),
    quad: [corner(b.x, b.y), corner(b.x + b.width, b.y), corner(b.x + b.width, b.y + b.height),
           corner(b.x, b.y + b.height)] };
});
"""


def _overlap(a: list[list[float]], b: list[list[float]]) -> bool:
    """Whether two convex quadrilaterals overlap (separating axis test, edges touching do not count)."""
    for quad in (a, b):
        for i in range(4):
            (x1, y1), (x2, y2) = quad[i], quad[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return False
    return True


def test_the_map_names_seats_by_people_and_no_two_names_overlap(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    """The Wastelands squares are small: their names stand outside the frame, slanted, and no name on
    the map covers another; the players are named by their peoples (the page's playerName hook)."""
    driver = browser
    links = _create(web_server, ["human", "heuristic", "heuristic", "heuristic"], seed=5, players=4)
    driver.get(links[0])
    WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dl-map [data-space]"))
    names = driver.execute_script(NAME_QUADS)
    tracks = [n for n in names if n["cls"] == "track-name"]
    assert len(tracks) == 16 and any("The Witch's Chamber" in n["text"] for n in tracks)
    clashes = [
        (a["text"], b["text"])
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if _overlap(a["quad"], b["quad"])
    ]
    assert clashes == []
    frame = driver.execute_script(
        "const r = document.querySelector('.dl-map .frame').getBoundingClientRect();return [r.top, r.bottom];"
    )
    for name in tracks:  # every Wastelands name outside the world's frame, above or below it
        ys = [y for _, y in name["quad"]]
        assert max(ys) <= frame[0] + 1 or min(ys) >= frame[1] - 1, name["text"]
    # the seats are named by their peoples once chosen: in the side panel and in the decision line
    for _ in range(60):
        payload = _payload(web_server, links[0])
        if payload["pending"] and payload["pending"]["yours"] and payload["pending"]["kind"] == "people":
            break
        WebDriverWait(driver, TIMEOUT).until(
            lambda d, seen=payload["version"]: _payload(web_server, links[0])["version"] != seen
        )
    buttons = driver.find_elements(By.CSS_SELECTOR, ".dl-turn button")
    _click_and_wait(driver, buttons[0])
    payload = _payload(web_server, links[0])
    mine = payload["view"]["players"][0]["people"]
    people_name = {
        "amazons": "Amazons",
        "barbarians": "Barbarians",
        "dwarves": "Dwarves",
        "elves": "Elves",
        "necromancers": "Necromancers",
        "orcs": "Orcs",
    }[mine]
    WebDriverWait(driver, TIMEOUT).until(
        lambda d: f"{people_name} (you)" in d.find_element(By.CSS_SELECTOR, ".dl-players").text
    )
    assert "Player 0" not in driver.find_element(By.CSS_SELECTOR, ".dl-players").text
    assert js_errors(driver) == []
