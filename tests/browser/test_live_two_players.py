"""Live play in real browsers: two players on two seat links of one Defenders game see each other's
moves as they happen (server-sent events), in two browsers and in two tabs of one browser (hotseat).

"Live" is checked by how the move arrives, not by a stopwatch (the CI machine is loaded): the watching
page shows it without being reloaded and without asking the server for its seat's payload again, so it
came over the page's open event stream, and its log gains the mover's lines in the mover's order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import OpenBrowser, js_errors
from tests.browser.defenders_page import (
    click_choice,
    click_hero_button,
    create_game,
    hero_location,
    log_lines,
    my_turn,
    open_board,
    version,
    wait,
    walk_to,
)
from tests.live_server import LiveServer

SEED = 3  # seat 0 the Ranger, seat 1 the Cleric, both in Monarch City; the Ranger draws a special card
ARRIVES_WITHIN = 60.0  # seconds: a bound for a loaded machine, not a measure of liveness

#: Marks the page (a reload loses the mark) and records every request it makes from now on.
WATCH_REQUESTS = """
window.warhornTestMark = true;
window.warhornTestRequests = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.warhornTestRequests.push(new URL(entry.name).pathname);
}).observe({ type: "resource" });
"""


def _watch_requests(driver: Any) -> None:
    driver.execute_script(WATCH_REQUESTS)


def _assert_came_over_the_stream(driver: Any, link: str) -> None:
    """Since :func:`_watch_requests` the page was not reloaded and did not fetch its seat's payload."""
    mark, requests = driver.execute_script("return [window.warhornTestMark, window.warhornTestRequests];")
    assert mark is True, "the page was reloaded"
    payload = "/api/seat/" + link.rsplit("/", 1)[-1]
    assert payload not in requests, f"the page fetched its payload again: {requests}"


def _lines_added(driver: Any, before: list[str]) -> list[str]:
    """The lines the page's log gained after ``before`` (which it still shows, in order)."""
    lines = log_lines(driver)
    assert lines[: len(before)] == before, (before, lines)
    return lines[len(before) :]


def _walk_and_see_it_live(mover: Any, hero: str, location: str, watcher: Any, watcher_link: str) -> None:
    """``mover`` walks its ``hero`` to ``location``; ``watcher`` shows it over its open stream, its log
    gaining the lines the mover's gained, in the same order."""
    _watch_requests(watcher)
    mover_log, watcher_log = log_lines(mover), log_lines(watcher)
    walk_to(mover, location)
    wait(watcher, ARRIVES_WITHIN).until(lambda d: hero_location(d, hero) == location)
    _assert_came_over_the_stream(watcher, watcher_link)
    assert version(watcher) == version(mover)
    assert _lines_added(watcher, watcher_log) == _lines_added(mover, mover_log) != []


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

    _walk_and_see_it_live(ranger, "ranger", "Wolf Pass", cleric, cleric_link)
    _end_the_rangers_day(ranger)
    wait(cleric).until(my_turn)
    _walk_and_see_it_live(cleric, "cleric", "Orc Valley", ranger, ranger_link)
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
