"""Rules help in the browser (issue #19): the "[NER-MOV-01]" of a seat page's decision is a link to the
paragraph on /rules/<game>, for every game; following it shows that rule's paragraph."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import js_errors
from tests.browser.game_api import create_game, seat_payload
from tests.live_server import LiveServer
from warhorn.rules_help import rules_help

SEATS = {
    "nerath": ["human", "random", "random", "random"],
    "defenders": ["human"],
    "smallworld": ["human", "random"],
    "dragonlords": ["human", "random"],
}


def _decision_links(driver: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = driver.execute_script(
        "return [...document.querySelectorAll('#decision a.rule-link')]"
        ".map((a) => ({text: a.textContent, href: a.getAttribute('href')}));"
    )
    return found


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_decisions_rule_links_to_its_paragraph(game: str, web_server: LiveServer, browser: Any) -> None:
    options = {"players": 1} if game == "defenders" else {}
    link = create_game(web_server.url, game, SEATS[game], seed=1, **options)[0]
    rule = seat_payload(web_server.url, link)["pending"]["rule"]
    assert rule
    browser.get(link)
    wait = WebDriverWait(browser, 20)
    wait.until(lambda d: _decision_links(d))
    links = _decision_links(browser)
    assert {"text": rule, "href": f"/rules/{game}#{rule}"} in links
    browser.get(web_server.url + links[0]["href"])
    paragraph = browser.find_element(By.CSS_SELECTOR, f'dt[id="{rule}"] + dd').text
    assert paragraph == rules_help(game).paragraphs[rule]
    assert js_errors(browser) == []
