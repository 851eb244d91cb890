"""Driving the Defenders of the Realm board page in a browser: clicks on the map and the side panel,
and waits for what the page shows (never fixed sleeps)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser import game_api

TIMEOUT = 30.0
POLL = 0.05


def wait(driver: Any, timeout: float = TIMEOUT) -> WebDriverWait:  # type: ignore[type-arg]
    return WebDriverWait(driver, timeout, poll_frequency=POLL)


def create_game(server_url: str, seats: list[str], seed: int, **options: Any) -> list[str]:
    """A Defenders game made through the API; the links of its human seats (seat order)."""
    return game_api.create_game(server_url, "defenders", seats, seed, **options)


def play_through_api(server_url: str, link: str, actions: list[dict[str, Any]]) -> None:
    """Submit ``actions`` (JSON) in turn for the seat of ``link`` (a game whose every seat is that one)."""
    for number, action in enumerate(actions):
        submit(server_url, link, number, action)


def seat_payload(server_url: str, link: str) -> dict[str, Any]:
    return game_api.seat_payload(server_url, link)


def submit(server_url: str, link: str, version: int, action: dict[str, Any]) -> None:
    token = link.rsplit("/", 1)[-1]
    body = json.dumps({"version": version, "action": action}).encode()
    request = urllib.request.Request(
        f"{server_url}/api/seat/{token}/actions", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def open_board(driver: Any, link: str) -> None:
    """Open a seat's page and wait for the board and the live stream."""
    driver.get(link)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dfr [data-location]"))
    wait(driver).until(lambda d: d.find_element(By.ID, "connection").text == "live")


def version(driver: Any) -> int:
    """The game version the board shows (-1 before the board is drawn)."""
    shown = driver.execute_script(
        "const b = document.querySelector('.dfr'); return b ? b.dataset.version : null;"
    )
    return int(shown) if shown is not None else -1


def wait_version(driver: Any, at_least: int, timeout: float = TIMEOUT) -> int:
    wait(driver, timeout).until(lambda d: version(d) >= at_least)
    return version(driver)


def hero_location(driver: Any, hero: str) -> str | None:
    where = driver.execute_script(
        "const h = document.querySelector(`.dfr-hero[data-hero='${arguments[0]}']`);"
        "return h ? h.dataset.location : null;",
        hero,
    )
    return str(where) if where is not None else None


def my_turn(driver: Any) -> bool:
    return bool(driver.find_elements(By.ID, "dfr-hint"))


def walk_to(driver: Any, location: str) -> None:
    """Click ``location`` on the map and, if the page asks how to get there, choose to walk; wait until
    the board shows the move."""
    before = version(driver)
    slug = "".join(c if c.isalnum() else "-" for c in location.lower())
    driver.find_element(By.CSS_SELECTOR, f"#loc-{slug}.dfr-target .dfr-spot").click()
    menu = wait(driver).until(
        lambda d: (
            [b for b in d.find_elements(By.CSS_SELECTOR, ".dfr-popup .dfr-choice") if b.is_displayed()]
            or version(d) > before
        )
    )
    if menu is not True:
        walk = [b for b in menu if b.text.startswith("Walk to ")]
        assert walk, f"no way to walk to {location}: {[b.text for b in menu]}"
        walk[0].click()
    wait_version(driver, before + 1)


def click_hero_button(driver: Any, kind: str) -> None:
    before = version(driver)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#dfr-herobar button[data-kind='{kind}']"))
    driver.find_element(By.CSS_SELECTOR, f"#dfr-herobar button[data-kind='{kind}']").click()
    wait_version(driver, before + 1)


def click_choice(driver: Any, text: str) -> None:
    """Click the button of the "Other choices" list whose text starts with ``text``."""
    before = version(driver)
    buttons = wait(driver).until(
        lambda d: [
            b for b in d.find_elements(By.CSS_SELECTOR, "#dfr-others .dfr-choice") if b.text.startswith(text)
        ]
    )
    buttons[0].click()
    wait_version(driver, before + 1)


def log_lines(driver: Any, css: str = "#log li") -> list[str]:
    lines = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((li) => li.textContent);", css
    )
    return [str(line) for line in lines]
