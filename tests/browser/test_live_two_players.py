"""Live play in real browsers: two players on two seat links of one Defenders game see each other's
moves within a second (server-sent events), in two browsers and in two tabs of one browser (hotseat)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import OpenBrowser, js_errors
from tests.browser.defenders_page import (
    click_choice,
    click_hero_button,
    create_game,
    hero_location,
    my_turn,
    open_board,
    seconds_until,
    version,
    wait,
    walk_to,
)
from tests.live_server import LiveServer

SEED = 3  # seat 0 the Ranger, seat 1 the Cleric, both in Monarch City; the Ranger draws a special card
LIVE_WITHIN = 1.0  # seconds from the click in one browser to the move shown in the other


def _end_the_rangers_day(driver: Any) -> None:
    """End seat 0's day and decline the special card it is offered before the night (seed 3)."""
    click_hero_button(driver, "end_day")
    click_choice(driver, "Pass")


def test_two_players_in_two_browsers_see_each_others_moves_live(
    web_server: LiveServer, open_browser: OpenBrowser, tmp_path: Path
) -> None:
    ranger_link, cleric_link = create_game(web_server.url, ["human", "human"], SEED)
    ranger, cleric = open_browser(), open_browser()
    open_board(ranger, ranger_link)
    open_board(cleric, cleric_link)
    assert my_turn(ranger) and not my_turn(cleric)

    clicked = walk_to(ranger, "Wolf Pass")
    seen = seconds_until(cleric, lambda d: hero_location(d, "ranger") == "Wolf Pass", clicked)
    assert seen < LIVE_WITHIN, f"the other browser showed the move after {seen:.2f} s"
    assert version(cleric) == version(ranger)

    _end_the_rangers_day(ranger)
    wait(cleric).until(my_turn)
    clicked = walk_to(cleric, "Orc Valley")
    seen = seconds_until(ranger, lambda d: hero_location(d, "cleric") == "Orc Valley", clicked)
    assert seen < LIVE_WITHIN, f"the other browser showed the move after {seen:.2f} s"
    assert not my_turn(ranger)

    ranger.save_screenshot(str(tmp_path / "live-ranger.png"))
    cleric.save_screenshot(str(tmp_path / "live-cleric.png"))
    assert js_errors(ranger) == [] and js_errors(cleric) == []


def test_hotseat_two_seat_links_in_two_tabs_of_one_browser(
    web_server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    ranger_link, cleric_link = create_game(web_server.url, ["human", "human"], SEED)
    open_board(browser, ranger_link)
    ranger_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    open_board(browser, cleric_link)
    cleric_tab = browser.current_window_handle

    browser.switch_to.window(ranger_tab)
    walk_to(browser, "Wolf Pass")
    _end_the_rangers_day(browser)

    browser.switch_to.window(cleric_tab)
    wait(browser).until(lambda d: hero_location(d, "ranger") == "Wolf Pass" and my_turn(d))
    walk_to(browser, "Orc Valley")
    browser.save_screenshot(str(tmp_path / "hotseat-cleric.png"))

    browser.switch_to.window(ranger_tab)
    wait(browser).until(lambda d: hero_location(d, "cleric") == "Orc Valley")
    assert not my_turn(browser)
    browser.save_screenshot(str(tmp_path / "hotseat-ranger.png"))
    assert js_errors(browser) == []
