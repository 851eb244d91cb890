"""A Nerath card window where none of the seat's cards fits is passed by the page itself, unless the
player turns that off (a per-browser setting)."""

from __future__ import annotations

from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.browser.game_api import wait_until_moved_on
from tests.live_server import LiveServer
from warhorn.engine import Rng


def _to_a_window_with_nothing_to_play(server: LiveServer) -> tuple[str, int]:
    """Drive seat 0 (Karkoth, human) with random legal actions until it must answer a card window with
    only "pass"; the other kingdoms are server-side random AIs. Returns the seat token and the version."""
    with httpx.Client(base_url=server.url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": "nerath", "seed": 5, "seats": ["human", "random", "random", "random"]}
        ).json()
        token = created["seats"][0]["token"]
        rng = Rng(3)
        for _ in range(2000):  # Karkoth's own decisions
            payload = client.get(f"/api/seat/{token}").json()
            pending = payload["pending"]
            assert pending is not None, "the game ended before a card window came"
            if not pending["yours"]:  # an AI kingdom is deciding on the server
                payload = wait_until_moved_on(
                    lambda: client.get(f"/api/seat/{token}").json(), payload["version"]
                )
                continue
            legal = payload["legal"]
            if pending["kind"] == "card_window" and [a["action"]["kind"] for a in legal] == ["pass"]:
                assert pending["auto_answer"] == {"kind": "pass"}  # the engine's answer (issue 19)
                return token, payload["version"]
            non_pass = [a for a in legal if a["action"]["kind"] != "pass"] or legal
            choice = non_pass[rng.below(len(non_pass))] if rng.below(4) else legal[-1]
            client.post(
                f"/api/seat/{token}/actions", json={"version": payload["version"], "action": choice["action"]}
            )
    raise AssertionError("no card window with only 'pass' within 2000 of Karkoth's decisions")


def _version(driver: Any) -> int:
    value = driver.execute_script(
        "const t = document.querySelector('.nerath-tray'); return t ? t.dataset.version : -1"
    )
    return int(value)


AUTO_PASS_CHECKED = "return document.getElementById('nerath-auto-pass').checked"


def test_a_window_with_nothing_to_play_is_passed_by_the_page(web_server: LiveServer, browser: Any) -> None:
    token, version = _to_a_window_with_nothing_to_play(web_server)
    browser.get(f"{web_server.url}/play/{token}")
    WebDriverWait(browser, 20).until(lambda d: _version(d) > version)
    assert browser.execute_script(AUTO_PASS_CHECKED)  # read in one script: the board redraws at any time
    assert js_errors(browser) == []


def test_with_auto_pass_off_the_player_passes_by_hand(web_server: LiveServer, browser: Any) -> None:
    token, version = _to_a_window_with_nothing_to_play(web_server)
    browser.get(f"{web_server.url}/")
    browser.execute_script("localStorage.setItem('warhorn.nerath.autoPass', 'off')")
    browser.get(f"{web_server.url}/play/{token}")
    wait = WebDriverWait(browser, 20)
    wait.until(lambda d: _version(d) == version and d.find_elements(By.ID, "nerath-pass"))
    assert not browser.execute_script(AUTO_PASS_CHECKED)
    assert _version(browser) == version  # nothing was sent for the player
    browser.find_element(By.ID, "nerath-pass").click()
    wait.until(lambda d: _version(d) > version)
