"""Defenders of the Realm in a real browser: a game made in the lobby by clicking, a turn played on the
map, and the AI seat's reasons in the log."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from tests.browser.conftest import js_errors
from tests.browser.defenders_page import (
    click_choice,
    click_hero_button,
    create_game,
    hero_location,
    log_lines,
    my_turn,
    open_board,
    play_through_api,
    seat_payload,
    submit,
    version,
    wait,
    wait_version,
    walk_to,
)
from tests.live_server import LiveServer
from warhorn.engine import GameState, Rng, load_game

SEED = 3  # the Ranger (seat 0) and the Cleric (seat 1) in Monarch City; the Ranger draws a special card


def _create_in_lobby(driver: Any, server: LiveServer) -> str:
    driver.get(server.url + "/")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='defenders']"))
    Select(driver.find_element(By.ID, "game-select")).select_by_value("defenders")
    wait(driver).until(lambda d: d.find_elements(By.ID, "opt-heal_land"))
    # the lobby shows the default two seats (the "players" option's default)
    seats = wait(driver).until(
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")[1:]
            and d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")
        )
    )
    Select(seats[0]).select_by_value("human")
    Select(seats[1]).select_by_value("random")
    driver.find_element(By.ID, "seed").send_keys(str(SEED))
    driver.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()
    wait(driver).until(
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#created a[href*='/play/']")
            or d.find_element(By.ID, "create-error").text
        )
    )
    assert driver.find_element(By.ID, "create-error").text == ""
    link = driver.find_element(By.CSS_SELECTOR, "#created a[href*='/play/']")
    # the seat is named as the game names it (its hero), with its number
    assert re.search(r"\w+ \(seat 1\): AI \(random\)", driver.find_element(By.ID, "created").text)
    return str(link.get_attribute("href"))


def test_a_defenders_game_made_in_the_lobby_is_played_on_the_map_and_logs_ai_reasons(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path], tmp_path: Path
) -> None:
    driver = browser
    open_board(driver, _create_in_lobby(driver, web_server))
    assert hero_location(driver, "ranger") == hero_location(driver, "cleric") == "Monarch City"
    assert my_turn(driver)
    side = driver.find_element(By.CSS_SELECTOR, ".dfr-side").text
    assert " · turn 1 · " in side, "the first turn is turn 1"
    assert "Early War" in side and "Taint crystals left: 11 of 12" in side and "Lord Balazarg" in side
    driver.save_screenshot(str(tmp_path / "defenders-start.png"))

    # a day of the Ranger: a walk chosen on the map, then the day ended by the button next to the hero
    walk_to(driver, "Wolf Pass")
    assert hero_location(driver, "ranger") == "Wolf Pass"
    assert "4 action(s) left" in driver.find_element(By.CSS_SELECTOR, ".dfr-heropanel.dfr-active").text
    assert any("Wolf Pass" in line for line in log_lines(driver))
    click_hero_button(driver, "end_day")
    # before the night the Ranger may play the special card it drew; it declines
    click_choice(driver, "Pass")

    # the Cleric (AI) plays its turn on the server; each of its actions carries its reason in the log
    wait(driver, 30).until(lambda d: log_lines(d, "#log li.reason"))
    wait(driver, 60).until(lambda d: my_turn(d) or "Game over" in d.find_element(By.ID, "dfr-decision").text)
    reasons = driver.find_elements(By.CSS_SELECTOR, "#log li.reason")
    assert reasons and all(r.text.startswith("random AI (seat 1): chosen at random among ") for r in reasons)
    numbers = [int(r.get_attribute("value")) for r in reasons]
    assert len(numbers) == len(set(numbers)), "one reason per AI action"
    assert version(driver) >= max(numbers)
    # on to the Ranger's next day (declining any special card offered before it), for the picture
    for _ in range(4):
        if driver.find_elements(By.ID, "dfr-herobar") or not my_turn(driver):
            break
        click_choice(driver, "Pass")
    # the panel's turn and the log's last "Turn N:" line count the same way (the first turn is turn 1)
    started = [int(m.group(1)) for line in log_lines(driver) if (m := re.match(r"Turn (\d+):", line))]
    panel = re.search(r"turn (\d+)", driver.find_element(By.CSS_SELECTOR, ".dfr-war").text)
    assert started and panel and int(panel.group(1)) == started[-1], (started, panel)
    driver.execute_script(  # the picture shows the map from its top (the page and the board scroll)
        "window.scrollTo(0, 0);"
        "for (const n of document.querySelectorAll('#board, #board *')) n.scrollTop = 0;"
    )
    screenshot(driver, "defenders-board")
    assert js_errors(driver) == []


def _random_road_to_a_general_attack() -> tuple[int, list[dict[str, Any]], GameState]:
    """A one-hero game (seed) and random actions after which its hero may attack a general with cards
    to commit; found by playing, so it follows the rules as they are."""
    for seed in range(100):
        state = load_game("defenders", seed=seed, players=1)
        rng = Rng(seed + 100)
        actions: list[dict[str, Any]] = []
        while state.pending() is not None and len(actions) < 300:
            legal = state.legal_actions()
            attack = [a for a in legal if a.kind == "attack_general"]
            if attack:
                battle, _ = state.apply(attack[0])
                if any(a.kind == "commit" for a in battle.legal_actions()):
                    return seed, actions, state
                break
            action = legal[rng.below(len(legal))]
            state, _ = state.apply(action)
            actions.append(action.to_json())
    raise AssertionError("no seed below 100 reaches a general attack with cards to commit")


def test_a_general_attack_is_fought_by_choosing_cards_on_the_page(
    web_server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    seed, road, before = _random_road_to_a_general_attack()
    (link,) = create_game(web_server.url, ["human"], seed, players=1)
    play_through_api(web_server.url, link, road)
    driver = browser
    open_board(driver, link)
    assert version(driver) == len(road)
    click_hero_button(driver, "attack_general")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dfr-battle"))
    committed = 0
    while cards := driver.find_elements(By.CSS_SELECTOR, ".dfr-heropanel .dfr-card-act[data-kind='commit']"):
        card = cards[0].get_attribute("data-card")
        at = version(driver)
        cards[0].click()
        wait(driver).until(lambda d, at=at: version(d) > at)
        committed += 1
        battle = driver.find_element(By.CSS_SELECTOR, ".dfr-battle")
        assert battle.find_elements(By.CSS_SELECTOR, f".dfr-card[data-card='{card}']"), (
            "committed card not shown"
        )
    assert committed >= 1
    driver.save_screenshot(str(tmp_path / "defenders-battle.png"))
    at = version(driver)
    driver.find_element(By.CSS_SELECTOR, ".dfr-battle .dfr-done").click()
    wait(driver).until(lambda d: version(d) > at and not d.find_elements(By.CSS_SELECTOR, ".dfr-battle"))
    general = before.board.general_by_colour  # type: ignore[attr-defined]
    names = [g.name for g in general if g is not None]
    assert any(any(n in line for n in names) for line in log_lines(driver)[-20:])
    assert js_errors(driver) == []


def test_the_board_draws_the_positions_of_a_random_game_without_errors(
    web_server: LiveServer, browser: Any
) -> None:
    """Two human heroes play random legal actions through the API while seat 0's page follows live;
    whenever seat 0 decides, the page must have drawn that position (with its choices) cleanly."""
    links = create_game(web_server.url, ["human", "human"], 11)
    open_board(browser, links[0])
    rng = Rng(11)
    kinds: set[str] = set()
    for _ in range(120):
        payload = seat_payload(web_server.url, links[0])
        if payload["pending"] is None:
            break
        decider = payload["pending"]["player"]
        mine = seat_payload(web_server.url, links[decider])
        if decider == 0:
            wait_version(browser, mine["version"])
            assert not js_errors(browser), f"at version {mine['version']}"
        choice = mine["legal"][rng.below(len(mine["legal"]))]["action"]
        kinds.add(choice["kind"])
        submit(web_server.url, links[decider], mine["version"], choice)
    final = seat_payload(web_server.url, links[0])["version"]
    wait_version(browser, final)
    assert len(kinds) >= 4, kinds
    assert js_errors(browser) == []
