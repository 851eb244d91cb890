"""Invite links in real browsers (issue #21, "Secrets"): the creator keeps a hotseat seat and invites a
second player; the player's browser claims the seat and plays it, and the creator's browser ends up
with "claimed" and no token of that seat anywhere (page, local storage)."""

from __future__ import annotations

import json
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser.conftest import OpenBrowser, js_errors
from tests.live_server import LiveServer


def _stored_links(driver: Any) -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(
        driver.execute_script("return localStorage.getItem('warhorn.links') || '{}'")
    )
    return stored


def test_an_invited_player_claims_the_seat_and_the_creator_sees_claimed(
    web_server: LiveServer, open_browser: OpenBrowser
) -> None:
    creator, player = open_browser(), open_browser()
    wait = WebDriverWait(creator, 15)
    creator.get(web_server.url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-select option[value='dice-race']"))
    Select(creator.find_element(By.ID, "game-select")).select_by_value("dice-race")
    seats = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-kind"))
    assert len(seats) == 2
    Select(seats[0]).select_by_value("human")  # hotseat: played in this browser
    Select(seats[1]).select_by_value("invite")
    creator.find_element(By.CSS_SELECTOR, "#create-form button[type=submit]").click()
    wait.until(
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#created li.invite input")
            or d.find_element(By.ID, "create-error").text
        )
    )
    assert creator.find_element(By.ID, "create-error").text == ""
    invite_url = creator.find_element(By.CSS_SELECTOR, "#created li.invite input").get_attribute("value")
    assert "/invite/" in invite_url
    own_link = creator.find_element(By.CSS_SELECTOR, "#created a[href*='/play/']").get_attribute("href")
    ((game_id, kept),) = _stored_links(creator).items()
    assert [k["seat"] for k in kept if "token" in k] == [0]  # only its own seat's token
    assert [k["seat"] for k in kept if "invite" in k] == [1]

    # the invited player opens the link (which claims nothing) and takes the seat
    player_wait = WebDriverWait(player, 15)
    player.get(invite_url)
    button = player_wait.until(lambda d: [b for b in d.find_elements(By.ID, "claim") if b.is_displayed()])[0]
    assert "Seat 1" in player.find_element(By.ID, "invite-title").text
    button.click()
    player_wait.until(lambda d: "/play/" in d.current_url)
    player_wait.until(lambda d: "seat 1" in d.find_element(By.TAG_NAME, "header").text)
    player_token = player.current_url.rsplit("/", 1)[1]
    assert player_token and player_token not in own_link

    # the creator's lobby shows "claimed" and forgets the invite; its page never held the token
    creator.find_element(By.ID, "refresh").click()
    wait.until(lambda d: "seat 1: claimed" in d.find_element(By.ID, "games").text)
    assert _stored_links(creator)[game_id] == [k for k in kept if "token" in k]
    assert player_token not in creator.page_source
    assert player_token not in json.dumps(_stored_links(creator))
    # opening the invite again (the creator, or anyone) gets no seat
    creator.get(invite_url)
    wait.until(lambda d: "claimed already" in d.find_element(By.ID, "invite-title").text)
    assert not creator.find_element(By.ID, "claim").is_displayed()
    assert player_token not in creator.page_source

    # the seat plays in the player's browser: its decision shows once seat 0 has rolled
    creator.get(own_link)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#action-buttons button"))
    creator.find_elements(By.CSS_SELECTOR, "#action-buttons button")[0].click()
    player_wait.until(lambda d: "Your decision" in d.find_element(By.ID, "decision").text)
    assert js_errors(creator) == [] and js_errors(player) == []
