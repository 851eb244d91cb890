"""Conquest of Nerath played by clicking in a real headless Chromium: lobby → map → attack (its odds
shown first) → battle → buy and place → the AI kingdoms' turns → reload → the next turn goes on."""

from __future__ import annotations

import re
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

#: Karkoth (seat 0, first to play) starts with two soldiers on Cinderveil next to Vailin's Thornvale: an
#: attack in the very first movement phase (the seed fixes the dice, the shipped setup the armies).
SEED = 1
TRAY = ".nerath-tray"


def _tray(driver: Any) -> dict[str, str]:
    """The decision the board shows (read in one script: the board may redraw at any moment)."""
    found: dict[str, str] | None = driver.execute_script(
        "const t = document.querySelector(arguments[0]);"
        "return t ? {version: t.dataset.version, decision: t.dataset.decision,"
        " yours: t.dataset.yours} : null;",
        TRAY,
    )
    return found or {"version": "-1", "decision": "", "yours": "no"}


def _text(driver: Any, css: str) -> str:
    """The visible text of the first element matching ``css``, "" if none (read in one script: the board
    redraws after every update, so an element found a moment ago may be gone)."""
    text: str | None = driver.execute_script(
        "const t = document.querySelector(arguments[0]); return t ? (t.innerText ?? t.textContent) : null;",
        css,
    )
    return text or ""


def _turn(driver: Any) -> str:
    """The side panel's line: round, kingdom, phase."""
    return _text(driver, ".nerath-side .turn")


def _hover(wait: WebDriverWait, driver: Any, css: str) -> None:
    def hovered(d: Any) -> bool:
        try:
            ActionChains(d).move_to_element(d.find_element(By.CSS_SELECTOR, css)).perform()
        except StaleElementReferenceException:
            return False
        return True

    wait.until(hovered)


def _try_click(d: Any, css: str, index: int = 0) -> bool:
    """Click the ``index``-th element matching ``css`` if it is there now; whether it was clicked."""
    found = d.find_elements(By.CSS_SELECTOR, css)
    if len(found) <= index:
        return False
    try:
        found[index].click()
    except (StaleElementReferenceException, ElementClickInterceptedException):
        return False
    return True


def _click(wait: WebDriverWait, css: str, index: int = 0) -> None:
    """Click the ``index``-th element matching ``css``, again if a redraw replaced it meanwhile."""
    wait.until(lambda d: _try_click(d, css, index))


def _my_decision_after(wait: WebDriverWait, version: int) -> dict[str, str]:
    """Wait until the game moved past ``version`` and the decision is this seat's again."""

    def ready(d: Any) -> Any:
        tray = _tray(d)
        return tray if int(tray["version"]) > version and tray["yours"] == "yes" else False

    result: dict[str, str] = wait.until(ready)
    return result


def _answer(driver: Any, wait: WebDriverWait, tray: dict[str, str]) -> dict[str, str]:
    """Take the decision shown in a plain way (fight with odds checked, first casualties, continue, decline
    cards, end the phase) and wait for the next decision of this seat."""
    version = int(tray["version"])
    decision = tray["decision"]
    if decision == "battle_order":
        _click(wait, "button.fight-choice")
        wait.until(lambda d: "attacker wins" in d.find_element(By.ID, "nerath-odds").text)
        _click(wait, "#nerath-confirm")
    elif decision == "damage":
        _click(wait, "button.damage-choice")
    elif decision == "continue_or_retreat":
        _click(wait, "#nerath-continue")
    elif decision == "card_window":  # declined; a window where no card can change anything passes itself
        wait.until(lambda d: int(_tray(d)["version"]) > version or _try_click(d, "#nerath-pass"))
    elif driver.find_elements(By.ID, "nerath-pass"):  # reposition, run amok, phases
        _click(wait, "#nerath-pass")
    else:  # a landing: the first offer
        _click(wait, ".nerath-tray .part button")
    return _my_decision_after(wait, version)


def _affordable(driver: Any, piece: str) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, f"button.buy-choice[data-piece='{piece}']"))


def _buy_and_place(driver: Any, wait: WebDriverWait, tray: dict[str, str], piece: str) -> dict[str, str]:
    """Buy ``piece`` with its button and place it on the first highlighted space; check gold and map."""
    gold = "tr[data-kingdom='karkoth'] td.gold"
    gold_before = int(_text(driver, gold))
    cost = int(_text(driver, f"button.buy-choice[data-piece='{piece}']").split()[-2])
    _click(wait, f"button.buy-choice[data-piece='{piece}']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.dest.place"))
    target_id = driver.find_elements(By.CSS_SELECTOR, "g.space.dest.place")[0].get_attribute("data-space")
    before = _karkoth_pieces_on(driver, target_id)
    _click(wait, f"g.space.dest.place[data-space='{target_id}']")
    tray = _my_decision_after(wait, int(tray["version"]))
    assert int(_text(driver, gold)) == gold_before - cost
    assert _karkoth_pieces_on(driver, target_id) != before
    return tray


def _create_nerath_game_in_lobby(driver: Any, wait: WebDriverWait, url: str) -> str:
    driver.get(url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='nerath']"))
    Select(driver.find_element(By.ID, "game-select")).select_by_value("nerath")
    # the form starts with the default four seats (free-for-all needs 4)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")) == 4)
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


#: Short codes for the piece badges the map draws (an icon and a count per piece type).
CODES = {
    "soldier": "s",
    "siege": "g",
    "warrior": "w",
    "mage": "m",
    "monster": "M",
    "elemental": "e",
    "dragon": "D",
    "warship": "S",
}


def _karkoth_pieces_on(driver: Any, space_id: str) -> str:
    """Karkoth's pieces the map shows on a space, as short counts ("2s 1g"; "+1s" aboard a warship)."""
    badges: list[dict[str, str]] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((b) =>"
        " ({piece: b.dataset.piece, n: b.dataset.count, aboard: b.classList.contains('aboard')}));",
        f"g.space-top[data-space='{space_id}'] g.badge[data-kingdom='karkoth']",
    )
    return " ".join(f"{'+' if b['aboard'] else ''}{b['n']}{CODES[b['piece']]}" for b in badges)


def test_play_a_nerath_turn_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    wait = WebDriverWait(
        browser, 30, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    )
    link = _create_nerath_game_in_lobby(browser, wait, web_server.url)
    browser.get(link)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.nerath-map g.space"))
    tray = _my_decision_after(wait, -1)
    assert tray["decision"] == "movement"
    # the generic list of every legal action stays on the page, folded
    assert browser.find_elements(By.CSS_SELECTOR, "details#all-actions #action-buttons button")

    # --- a refused action names its rule once and its territories by name ---
    browser.execute_script(
        "document.getElementById('action-text').value = arguments[0];"
        "document.getElementById('text-form').requestSubmit();",
        "move 2 soldier cinderveil>karkothi_throneholds",
    )
    wait.until(lambda d: _text(d, "#action-error"))
    refusal = _text(browser, "#action-error")
    assert refusal.count("NER-MAP-02") == 1 and "(rule" not in refusal, refusal
    assert "Cinderveil" in refusal and "cinderveil" not in refusal, refusal

    # --- movement: two soldiers from Cinderveil attack Thornvale; the odds show before the attack ---
    _click(wait, "g.space[data-space='cinderveil']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.piece-choice[data-piece='soldier']"))
    _click(wait, "button.piece-choice[data-piece='soldier']")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "g.space.dest.attack[data-space='thornvale']"))
    assert browser.find_elements(By.CSS_SELECTOR, "g.space.dest:not(.attack)"), "peaceful moves are green"
    _hover(wait, browser, "g.space[data-space='thornvale']")
    wait.until(lambda d: "attacker wins" in d.find_element(By.ID, "nerath-odds").text)
    odds_text = _text(browser, "#nerath-odds")
    assert "Thornvale" in odds_text and re.search(r"2 soldier against \d+ soldier", odds_text), odds_text
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
        tray = _answer(browser, wait, tray)
        fought = fought or bool(browser.find_elements(By.CSS_SELECTOR, "#nerath-battle .die"))
    assert tray["decision"] == "reinforcements"
    assert fought, "the battle report shows the dice rolled"
    report = _text(browser, "#nerath-battle")
    assert "Thornvale" in report and "hit" in report

    # --- reinforcements: buy a soldier and place it by clicking a highlighted space ---
    tray = _buy_and_place(browser, wait, tray, "soldier")

    # --- reload in the middle of the phase: the page rebuilds from the server and play goes on ---
    after_battle = _karkoth_pieces_on(browser, "thornvale")  # whatever the dice left there
    browser.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.nerath-map g.space"))
    tray = _my_decision_after(wait, -1)
    assert tray["decision"] == "reinforcements"
    assert _karkoth_pieces_on(browser, "thornvale") == after_battle
    assert browser.find_elements(By.CSS_SELECTOR, "#nerath-battle .die"), "the last battle is still reported"
    # the log written after the reload names territories, kingdoms and cards, never their ids
    wait.until(lambda d: "Thornvale" in _text(d, "#log"))
    log = _text(browser, "#log")
    for space_id in ("cinderveil", "thornvale", "karkothi_throneholds"):
        assert space_id not in log, f"{space_id!r} printed as an id in the log after a reload"
    tray = _buy_and_place(browser, wait, tray, "warship" if _affordable(browser, "warship") else "soldier")
    browser.execute_script("window.scrollTo(0, document.getElementById('board').offsetTop)")
    screenshot(browser, "nerath-board")

    # --- end the turn (declining a card if asked): the next kingdom, an AI, plays ---
    _click(wait, "#nerath-pass")
    for _ in range(10):

        def moved_on(d: Any, version: int = int(tray["version"])) -> Any:
            now = _tray(d)
            turn = _turn(d)
            return "Karkoth" not in turn or (int(now["version"]) > version and now["yours"] == "yes")

        wait.until(moved_on)
        if "Karkoth" not in _turn(browser):
            break
        tray = _answer(browser, wait, _tray(browser))
    assert "Karkoth" not in _turn(browser)
    # the only console message: the refused action's 409 answer (illegal), made on purpose above
    assert [e for e in js_errors(browser) if "status of 409" not in e] == []


def test_the_odds_calculator_page_by_clicking(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from warhorn.games.nerath.odds import battle_odds

    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    browser.get(web_server.url + "/")
    _click(wait, "header nav a[href='/odds']")
    wait.until(lambda d: d.find_elements(By.ID, "odds-attacker-soldier"))
    for side, piece, count in (
        ("attacker", "soldier", 4),
        ("attacker", "dragon", 1),
        ("defender", "soldier", 5),
    ):
        field = browser.find_element(By.ID, f"odds-{side}-{piece}")
        field.clear()
        field.send_keys(str(count))
    _click(wait, "#odds-form button[type=submit]")
    wait.until(lambda d: "attacker wins" in d.find_element(By.ID, "odds-result").text)
    # one term for both sides destroyed, as in `warhorn odds` and the JSON ("mutual_destruction")
    assert "mutual destruction" in _text(browser, "#odds-result"), _text(browser, "#odds-result")
    expected = battle_odds({"soldier": 4, "dragon": 1}, {"soldier": 5})
    shown = browser.find_element(By.CSS_SELECTOR, "#odds-result .odds-row.win .odds-pct").text
    assert shown == f"{100 * expected.attacker_win:.1f}%"
    screenshot(browser, "odds-calculator")
    # an allied defender (NER-BAT-07): the answer says how the allies share the damage
    field = browser.find_element(By.ID, "odds-ally-soldier")
    field.clear()
    field.send_keys("2")
    _click(wait, "#odds-form button[type=submit]")
    wait.until(lambda d: "allied defenders" in d.find_element(By.ID, "odds-result").text)
    allied = battle_odds({"soldier": 4, "dragon": 1}, {"soldier": 5}, ally={"soldier": 2})
    shown = browser.find_element(By.CSS_SELECTOR, "#odds-result .odds-row.win .odds-pct").text
    assert shown == f"{100 * allied.attacker_win:.1f}%"
    field.clear()
    field.send_keys("0")
    # an impossible battle is explained, not computed
    _click(wait, "#odds-sea")
    _click(wait, "#odds-form button[type=submit]")
    wait.until(lambda d: "sea battle" in d.find_element(By.ID, "odds-error").text)
