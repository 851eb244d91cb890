"""The lobby and a game page work in a real headless Chromium (the shared browser fixtures' own check)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer


def test_create_a_game_in_the_lobby_and_play_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    wait = WebDriverWait(browser, 10)
    browser.get(web_server.url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='dice-race']"))
    Select(browser.find_element(By.ID, "game-select")).select_by_value("dice-race")
    seats = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind"))
    for select in seats:
        Select(select).select_by_value("human")
    browser.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()

    def created_or_failed(d: Any) -> Any:
        return d.find_elements(By.CSS_SELECTOR, "#created a") or d.find_element(By.ID, "create-error").text

    wait.until(created_or_failed)
    assert browser.find_element(By.ID, "create-error").text == ""
    link = browser.find_element(By.CSS_SELECTOR, "#created a")
    browser.get(link.get_attribute("href"))
    wait.until(ec.text_to_be_present_in_element((By.ID, "decision"), "Your decision"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#action-buttons button"))
    log_lines = "return document.querySelectorAll('#log li').length"
    version_before = browser.execute_script(log_lines)
    browser.find_elements(By.CSS_SELECTOR, "#action-buttons button")[0].click()
    wait.until(lambda d: d.execute_script(log_lines) > version_before)
    screenshot(browser, "smoke-dice-race")
    assert js_errors(browser) == []


def test_every_games_lobby_defaults_make_a_game(web_server: LiveServer, browser: Any) -> None:
    """Each game as the lobby first shows it (its default options and seat count, seat 0 human, the
    others AI) is accepted; its options read as words, with their choices."""
    wait = WebDriverWait(browser, 10)
    browser.get(web_server.url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='nerath']"))
    games = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#game-select option")]
    assert {"nerath", "defenders", "smallworld"} <= set(games)
    for game in games:
        Select(browser.find_element(By.ID, "game-select")).select_by_value(game)
        browser.execute_script("document.getElementById('created').replaceChildren()")
        browser.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()

        def created_or_failed(d: Any) -> Any:
            created = d.find_elements(By.CSS_SELECTOR, "#created h3")
            return created or d.find_element(By.ID, "create-error").text

        wait.until(created_or_failed)
        assert browser.find_element(By.ID, "create-error").text == "", game
    Select(browser.find_element(By.ID, "game-select")).select_by_value("nerath")
    options = browser.find_element(By.ID, "options").text
    assert "Reposition flyers cross enemy" in options and "reposition_flyers" not in options
    assert "free for all" in Select(browser.find_element(By.ID, "opt-mode")).first_selected_option.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")) == 4
    Select(browser.find_element(By.ID, "game-select")).select_by_value("defenders")
    heroes = browser.find_element(By.CSS_SELECTOR, "[data-option='heroes']").text
    assert "ranger" in heroes and "cleric" in heroes, heroes
