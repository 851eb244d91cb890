"""Conquest of Nerath played by clicking in a real headless Chromium: lobby → map → attack (its odds
shown first) → battle → buy and place → the AI kingdoms' turns → reload → the next turn goes on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.live_server import LiveServer

#: With this seed Karkoth (seat 0, first to play) has two soldiers on Cinderveil next to Vailin's Thornvale,
#: which one Vailin soldier holds: an attack in the very first movement phase.
SEED = 1
TRAY = ".nerath-tray"


def _space(driver: Any, space_id: str) -> Any:
    return driver.find_element(By.CSS_SELECTOR, f"g.space[data-space='{space_id}']")


def _tray(driver: Any) -> dict[str, str]:
    """The decision the board shows (read in one script: the board may redraw at any moment)."""
    found: dict[str, str] | None = driver.execute_script(
        "const t = document.querySelector(arguments[0]);"
        "return t ? {version: t.dataset.version, decision: t.dataset.decision,"
        " yours: t.dataset.yours} : null;",
        TRAY,
    )
    return found or {"version": "-1", "decision": "", "yours": "no"}


def _click(wait: WebDriverWait, css: str, index: int = 0) -> None:
    """Click the ``index``-th element matching ``css``, again if a redraw replaced it meanwhile."""

    def clicked(d: Any) -> bool:
        found = d.find_elements(By.CSS_SELECTOR, css)
        if len(found) <= index:
            return False
        try:
            found[index].click()
        except (StaleElementReferenceException, ElementClickInterceptedException):
            return False
        return True

    wait.until(clicked)


def _my_decision_after(wait: WebDriverWait, version: int) -> dict[str, str]:
    """Wait until the game moved past ``version`` and the decision is this seat's again."""

    def ready(d: Any) -> Any:
        tray = _tray(d)
        return tray if int(tray["version"]) > version and tray["yours"] == "yes" else False

    result: dict[str, str] = wait.until(ready)
    return result


def _create_nerath_game_in_lobby(driver: Any, wait: WebDriverWait, url: str) -> str:
    driver.get(url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='nerath']"))
    Select(driver.find_element(By.ID, "game-select")).select_by_value("nerath")
    for _ in range(2):  # the form starts with the fewest seats (2); free-for-all needs 4
        count = len(driver.find_elements(By.CSS_SELECTOR, "#seats .seat-kind"))
        add = [b for b in driver.find_elements(By.CSS_SELECTOR, "#seats button") if b.text == "add seat"]
        add[0].click()
        wait.until(lambda d, n=count: len(d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")) == n + 1)
    for n, select in enumerate(driver.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")):
        Select(select).select_by_value("human" if n == 0 else "random")
    driver.find_element(By.ID, "seed").send_keys(str(SEED))
    driver.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()
    wait.until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#created a") or d.find_element(By.ID, "create-error").text
    )
    assert driver.find_element(By.ID, "create-error").text == ""
    link: str = driver.find_element(By.CSS_SELECTOR, "#created a").get_attribute("href")
    return link


def _karkoth_pieces_on(driver: Any, space_id: str) -> str:
    found = driver.find_elements(
        By.CSS_SELECTOR, f"g.space[data-space='{space_id}'] text.pieces[data-kingdom='karkoth']"
    )
    return str(found[0].text) if found else ""


def test_play_a_nerath_turn_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    wait = WebDriverWait(browser, 30)
    link = _create_nerath_game_in_lobby(browser, wait, web_server.url)
    browser.get(link)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.nerath-map g.space"))
    tray = _my_decision_after(wait, -1)
    assert tray["decision"] == "movement"
    # the generic list of every legal action stays on the page, folded
    assert browser.find_elements(By.CSS_SELECTOR, "details#all-actions #action-buttons button")

    # --- movement: two soldiers from Cinderveil attack Thornvale; the odds show before the attack ---
    _click(wait, "g.space[data-space='cinderveil']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.piece-choice[data-piece='soldier']"))
    _click(wait, "button.piece-choice[data-piece='soldier']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.dest.attack[data-space='thornvale']"))
    assert browser.find_elements(By.CSS_SELECTOR, "g.space.dest:not(.attack)"), "peaceful moves are green"
    ActionChains(browser).move_to_element(_space(browser, "thornvale")).perform()
    wait.until(lambda d: "attacker wins" in d.find_element(By.ID, "nerath-odds").text)
    odds_text = browser.find_element(By.ID, "nerath-odds").text
    assert "Thornvale" in odds_text and "2 soldier against 1 soldier" in odds_text
    _click(wait, "g.space[data-space='thornvale']")
    wait.until(lambda d: d.find_elements(By.ID, "nerath-confirm"))
    screenshot(browser, "nerath-attack-odds")
    version = int(_tray(browser)["version"])
    _click(wait, "#nerath-confirm")
    tray = _my_decision_after(wait, version)
    assert _karkoth_pieces_on(browser, "thornvale") == "2s"

    # --- end movement; fight the battle, taking what the game asks (cards declined) ---
    _click(wait, "#nerath-pass")
    tray = _my_decision_after(wait, int(tray["version"]))
    fought = False
    for _ in range(40):
        if tray["decision"] == "reinforcements":
            break
        version = int(tray["version"])
        if tray["decision"] == "battle_order":
            _click(wait, ".nerath-tray .part button")
            wait.until(lambda d: "attacker wins" in d.find_element(By.ID, "nerath-odds").text)
            _click(wait, "#nerath-confirm")
        elif tray["decision"] == "damage":
            _click(wait, "button.damage-choice")
        elif tray["decision"] == "continue_or_retreat":
            _click(wait, "#nerath-continue")
        elif browser.find_elements(By.ID, "nerath-pass"):  # card windows, reposition, run amok
            _click(wait, "#nerath-pass")
        else:  # a landing: the first offer
            _click(wait, ".nerath-tray .part button")
        tray = _my_decision_after(wait, version)
        fought = fought or bool(browser.find_elements(By.CSS_SELECTOR, "#nerath-battle .die"))
    assert tray["decision"] == "reinforcements"
    assert fought, "the battle report shows the dice rolled"
    report = browser.find_element(By.ID, "nerath-battle").text
    assert "Thornvale" in report and "hit" in report

    # --- reinforcements: buy a soldier and place it by clicking a highlighted space ---
    gold_before = int(browser.find_element(By.CSS_SELECTOR, "tr[data-kingdom='karkoth'] td.gold").text)
    _click(wait, "button.buy-choice[data-piece='soldier']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.dest.place"))
    target = browser.find_elements(By.CSS_SELECTOR, "g.space.dest.place")[0]
    target_id = target.get_attribute("data-space")
    target.click()
    tray = _my_decision_after(wait, int(tray["version"]))
    gold_after = int(browser.find_element(By.CSS_SELECTOR, "tr[data-kingdom='karkoth'] td.gold").text)
    assert gold_after == gold_before - 1
    assert browser.find_elements(
        By.CSS_SELECTOR, f"g.space[data-space='{target_id}'] text.pieces[data-kingdom='karkoth']"
    )
    browser.execute_script("window.scrollTo(0, document.getElementById('board').offsetTop)")
    screenshot(browser, "nerath-board")

    # --- end the turn; the three AI kingdoms play theirs; Karkoth's round 2 comes back ---
    for _ in range(5):
        if tray["decision"] == "movement":
            break
        _click(wait, "#nerath-pass")
        tray = _my_decision_after(wait, int(tray["version"]))
    assert tray["decision"] == "movement"
    wait.until(lambda d: "Round 2" in d.find_element(By.CSS_SELECTOR, ".nerath-side .turn").text)

    # --- reload: the page rebuilds from the server and play goes on ---
    browser.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.nerath-map g.space"))
    tray = _my_decision_after(wait, -1)
    assert tray["decision"] == "movement"
    assert "Round 2" in browser.find_element(By.CSS_SELECTOR, ".nerath-side .turn").text
    _click(wait, "g.space.source")
    _click(wait, "button.piece-choice")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.dest"))
    peaceful = browser.find_elements(By.CSS_SELECTOR, "g.space.dest:not(.attack)")
    destination = (peaceful or browser.find_elements(By.CSS_SELECTOR, "g.space.dest"))[0]
    version = int(tray["version"])
    attack = "attack" in (destination.get_attribute("class") or "")
    destination.click()
    if attack:
        wait.until(lambda d: d.find_elements(By.ID, "nerath-confirm"))
        browser.find_element(By.ID, "nerath-confirm").click()
    _my_decision_after(wait, version)
    assert js_errors(browser) == []
