"""The page of a game in a real headless Chromium (issue 19): it fits a 1366×768 laptop screen (board,
decision and log together, the raw view behind a toggle), Defenders fights get a result box, the game-over
panel (rematch, save, replay, lobby), the replay viewer, the spectator's watch page, undo in a hotseat
game, the turn chime and the lobby that remembers this browser's seats."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser import game_api
from tests.browser.conftest import js_errors
from tests.live_server import LiveServer
from warhorn.engine import Match, Rng, load_game

LAPTOP = (1366, 768)


def wait(driver: Any, timeout: float = 30) -> WebDriverWait:  # type: ignore[type-arg]
    return WebDriverWait(driver, timeout, poll_frequency=0.05)


def laptop_screen(driver: Any) -> None:
    """Make the page's viewport exactly 1366×768 (the window is a little larger than its viewport).

    A loaded machine may apply a resize late, so the window is sized again from what the page reports
    until its viewport is right."""

    def viewport_is_laptop(d: Any) -> bool:
        width, height = d.execute_script("return [window.innerWidth, window.innerHeight]")
        if (width, height) == LAPTOP:
            return True
        window = d.get_window_size()
        d.set_window_size(window["width"] + LAPTOP[0] - width, window["height"] + LAPTOP[1] - height)
        return False

    driver.set_window_size(*LAPTOP)
    wait(driver).until(viewport_is_laptop)


#: Calls back after two animation frames: whatever the page had scheduled for the next frame (the
#: Nerath board draws the latest update once a frame) is drawn and laid out by then.
AFTER_TWO_FRAMES = (
    "const done = arguments[arguments.length - 1];"
    " requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
)


#: The boxes of the page's parts as the browser lays them out, and the page's own height.
LAYOUT = """
const box = (css) => { const n = document.querySelector(css); if (!n) return null;
  const r = n.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
  height: r.height, width: r.width}; };
return {page: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
  map: box('#board svg'), decision: box(arguments[0]), act: box(arguments[1]), log: box('#log-panel'),
  generic: box('#decision')};
"""


def assert_fits(driver: Any, decision: str, act: str) -> dict[str, Any]:
    """Board (its map), the decision with a button to act, and the log are all inside the 1366×768
    viewport, and the page does not scroll (measured once the frames the page had scheduled are drawn)."""
    driver.execute_async_script(AFTER_TWO_FRAMES)
    parts: dict[str, Any] = driver.execute_script(LAYOUT, decision, act)
    assert parts["page"] <= LAPTOP[1] and parts["width"] <= LAPTOP[0], parts
    for name in ("map", "decision", "act", "log", "generic"):
        rect = parts[name]
        assert rect is not None, f"no {name} on the page"
        assert rect["height"] > 10 and rect["width"] > 10, (name, rect)
        assert rect["top"] >= 0 and rect["left"] >= 0, (name, rect)
        assert rect["bottom"] <= LAPTOP[1] and rect["right"] <= LAPTOP[0], (name, rect)
    assert parts["map"]["width"] > 600, "the map is drawn too small"
    return parts


def my_turn(driver: Any) -> bool:
    return bool(driver.title.startswith("your turn"))


def log_count(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#log li').length"))


def test_nerath_and_defenders_seat_pages_fit_a_laptop_screen(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    laptop_screen(browser)
    # Vailin (seat 1) decides after Karkoth's AI turn: the log has the AI's moves and reasons
    nerath = game_api.create_game(
        web_server.url, "nerath", ["heuristic", "human", "heuristic", "heuristic"], 1
    )
    browser.get(nerath[0])
    wait(browser, 120).until(lambda d: my_turn(d) and d.find_elements(By.CSS_SELECTOR, "#nerath-pass"))
    assert log_count(browser) > 10
    parts = assert_fits(browser, ".nerath-tray .prompt", "#nerath-pass")
    # the map is scaled to its column, width and height: it fills the page's height (less the margins)
    assert parts["map"]["width"] > 950 and parts["map"]["height"] > 650, parts["map"]
    tracker = browser.find_element(By.ID, "phase-tracker").text
    assert "Round 1" in tracker and "you decide" in tracker, tracker
    assert "Vailin" in browser.find_element(By.ID, "page-title").text
    # the raw view is behind the toggle
    assert not browser.find_element(By.ID, "view-panel").is_displayed()
    browser.find_element(By.ID, "debug-toggle").click()
    wait(browser).until(lambda d: d.find_element(By.ID, "view-panel").is_displayed())
    assert "kingdoms" in browser.find_element(By.ID, "view").text
    browser.find_element(By.ID, "debug-toggle").click()
    wait(browser).until(lambda d: not d.find_element(By.ID, "view-panel").is_displayed())
    screenshot(browser, "nerath-seat-1366x768")
    assert js_errors(browser) == []

    defenders = game_api.create_game(web_server.url, "defenders", ["heuristic", "human"], 3)
    browser.get(defenders[0])
    wait(browser, 120).until(
        lambda d: my_turn(d) and d.find_elements(By.CSS_SELECTOR, ".dfr [data-location]")
    )
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#dfr-herobar button, .dfr-others button"))
    assert log_count(browser) > 5
    act = (
        "#dfr-herobar button"
        if browser.find_elements(By.CSS_SELECTOR, "#dfr-herobar button")
        else ".dfr-others button"
    )
    assert_fits(browser, "#dfr-decision", act)
    screenshot(browser, "defenders-seat-1366x768")
    assert js_errors(browser) == []


def test_small_world_and_dragonlords_seat_pages_fit_a_laptop_screen(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    laptop_screen(browser)
    smallworld = game_api.create_game(web_server.url, "smallworld", ["human", "heuristic"], 5)
    browser.get(smallworld[0])
    wait(browser, 60).until(
        lambda d: my_turn(d) and d.find_elements(By.CSS_SELECTOR, ".sw-combos li.pickable button")
    )
    screenshot(browser, "smallworld-seat-1366x768")
    assert_fits(browser, ".sw-combos", ".sw-combos li.pickable button")
    assert js_errors(browser) == []

    dragonlords = game_api.create_game(web_server.url, "dragonlords", ["human", "heuristic"], 5, players=2)
    browser.get(dragonlords[0])
    wait(browser, 120).until(
        lambda d: my_turn(d) and d.find_elements(By.CSS_SELECTOR, ".dl-map [data-space]")
    )
    screenshot(browser, "dragonlords-seat-1366x768")
    act = ".dl-turn button" if browser.find_elements(By.CSS_SELECTOR, ".dl-turn button") else "#decision"
    assert_fits(browser, "#decision", act)
    assert js_errors(browser) == []


def _road_to_a_fight() -> tuple[int, list[dict[str, Any]]]:
    """A one-hero Defenders game (seed) and random actions ending with a fight against minions."""
    for seed in range(60):
        state = load_game("defenders", seed=seed, players=1)
        rng = Rng(seed + 7)
        actions: list[dict[str, Any]] = []
        while state.pending() is not None and len(actions) < 150:
            legal = state.legal_actions()
            fights = [a for a in legal if a.kind == "fight"]
            choice = fights[0] if fights else legal[rng.below(len(legal))]
            actions.append(choice.to_json())
            state, events = state.apply(choice)
            if fights and any(e.kind == "fight" for e in events):
                return seed, actions
    raise AssertionError("no fight in 60 random games")


def test_a_defenders_fight_shows_its_dice_and_kills_in_a_result_box(
    web_server: LiveServer, browser: Any
) -> None:
    seed, actions = _road_to_a_fight()
    [link] = game_api.create_game(web_server.url, "defenders", ["human"], seed, players=1)
    token = link.rsplit("/", 1)[-1]
    with httpx.Client(base_url=web_server.url, timeout=20) as http:
        for number, action in enumerate(actions):
            answer = http.post(f"/api/seat/{token}/actions", json={"version": number, "action": action})
            assert answer.status_code == 200, answer.text
        events = [e for e in answer.json()["events"] if e["action"] == len(actions)]
    rolled = [face for e in events if e["kind"] == "roll" for _, face in e["data"]["dice"]]
    fight = next(e for e in events if e["kind"] == "fight")
    browser.get(link)
    box = wait(browser).until(lambda d: d.find_elements(By.ID, "dfr-fight"))[0]
    dice = [int(d.text) for d in box.find_elements(By.CSS_SELECTOR, ".die")]
    assert dice == rolled
    assert "fights at" in box.text and fight["text"].split(": ")[-1] in box.text
    hits = box.find_elements(By.CSS_SELECTOR, ".die.hit")
    assert sum(fight["data"]["killed"].values()) <= len(hits)
    assert js_errors(browser) == []


def _finish_dice_race(server: LiveServer, seats: int = 2, **options: Any) -> tuple[str, list[str]]:
    """A dice-race game of human seats played to its end through the API: its id and seat links."""
    with httpx.Client(base_url=server.url, timeout=20) as http:
        created = http.post(
            "/api/games",
            json={
                "game": "dice-race",
                "seats": ["human"] * seats,
                "seed": 4,
                "options": {"target": 8, **options},
            },
        ).json()
        tokens = [s["token"] for s in created["seats"]]
        payload = http.get(f"/api/seat/{tokens[0]}").json()
        while payload["pending"] is not None:
            token = tokens[payload["pending"]["player"]]
            mine = http.get(f"/api/seat/{token}").json()
            answer = http.post(
                f"/api/seat/{token}/actions",
                json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            )
            payload = answer.json()
    return created["game_id"], [server.url + s["link"] for s in created["seats"]]


def test_game_over_offers_rematch_save_replay_and_lobby(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, links = _finish_dice_race(web_server)
    browser.get(links[1])
    panel = wait(browser).until(lambda d: [r for r in d.find_elements(By.ID, "results") if r.is_displayed()])[
        0
    ]
    assert "Game over" in browser.find_element(By.ID, "decision").text
    assert browser.find_element(By.ID, "download-save").get_attribute("href").endswith("/save")
    assert browser.find_element(By.ID, "replay-link").get_attribute("href").endswith(f"/replay/{game_id}")
    assert browser.find_element(By.ID, "lobby-link").get_attribute("href") == web_server.url + "/"
    assert "reached the target" in panel.text
    screenshot(browser, "dice-race-game-over")
    browser.find_element(By.ID, "rematch").click()
    wait(browser).until(lambda d: d.current_url != links[1] and "/play/" in d.current_url)
    rematch_link = browser.current_url
    wait(browser).until(lambda d: d.find_element(By.ID, "connection").text == "live")
    assert browser.execute_script("return document.getElementById('game').dataset.version") == "0"
    # the other seat's page offers that seat's own link in the rematch
    browser.get(links[0])
    other = wait(browser).until(lambda d: d.find_elements(By.ID, "rematch-link"))[0]
    assert "/play/" in other.get_attribute("href") and other.get_attribute("href") != rematch_link
    # the lobby lists both games as this browser's, and shows their links again
    browser.get(web_server.url + "/")
    rows = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#games tr.mine"))
    assert len(rows) == 2
    mine = next(r for r in rows if r.get_attribute("data-game") == game_id)
    mine.find_element(By.CSS_SELECTOR, "button.show-links").click()
    shown = mine.find_element(By.CSS_SELECTOR, ".shown-links")
    values = [i.get_attribute("value") for i in shown.find_elements(By.TAG_NAME, "input")]
    assert links[0] in values and links[1] in values and any(v.endswith(f"/watch/{game_id}") for v in values)
    assert js_errors(browser) == []


def _play_nerath_to_the_end(server: LiveServer) -> tuple[str, list[str]]:
    """A one-round Conquest of Nerath game of four human seats, played to its end by random actions
    (fewer passes, for battles) through the API: its id and seat links."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post(
            "/api/games",
            json={"game": "nerath", "seed": 5, "seats": ["human"] * 4, "options": {"round_cap": 1}},
        ).json()
        tokens = [s["token"] for s in created["seats"]]
        rng = Rng(11)
        payload = http.get(f"/api/seat/{tokens[0]}").json()
        while payload["pending"] is not None:
            token = tokens[payload["pending"]["player"]]
            legal = http.get(f"/api/seat/{token}").json()["legal"]
            passes = [x for x in legal if x["action"]["kind"] == "pass"]
            choice = passes[0] if passes and rng.below(4) == 0 else legal[rng.below(len(legal))]
            answer = http.post(
                f"/api/seat/{token}/actions", json={"version": payload["version"], "action": choice["action"]}
            )
            assert answer.status_code == 200, answer.text
            payload = answer.json()
    return created["game_id"], [server.url + s["link"] for s in created["seats"]]


def test_the_replay_viewer_steps_through_a_finished_game_and_an_uploaded_save(
    web_server: LiveServer, browser: Any, tmp_path: Path, screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, links = _play_nerath_to_the_end(web_server)
    laptop_screen(browser)
    browser.get(links[0])
    wait(browser).until(
        lambda d: (
            d.find_element(By.ID, "results").is_displayed()
            and d.find_elements(By.CSS_SELECTOR, ".nerath-map")
        )
    )
    screenshot(browser, "nerath-game-over")
    browser.find_element(By.ID, "replay-link").click()
    wait(browser).until(lambda d: d.current_url.endswith(f"/replay/{game_id}"))
    save = httpx.get(f"{web_server.url}/api/seat/{links[0].rsplit('/', 1)[-1]}/save", timeout=20).json()
    match = Match.from_save(save)
    total = len(match.actions)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    step = lambda d: d.find_element(By.ID, "replay-step").text  # noqa: E731
    wait(browser).until(lambda d: step(d) == f"step 0 / {total}")
    assert log_count(browser) == 0
    for n in (1, 2, 3):
        browser.find_element(By.ID, "replay-forward").click()
        wait(browser).until(lambda d, n=n: step(d) == f"step {n} / {total}")
    three = log_count(browser)
    assert three > 0
    browser.find_element(By.ID, "replay-back").click()
    wait(browser).until(lambda d: step(d) == f"step 2 / {total}")
    assert 0 < log_count(browser) < three

    # event by event: the log shows the next action's events one at a time, the board stays at the step
    # before it until its last event (an action is one transition of the engine)
    def events_of(action: int) -> int:
        url = f"{web_server.url}/api/replays/{game_id}?step={action}&after={action - 1}"
        frame = httpx.get(url, timeout=20)
        return sum(1 for e in frame.json()["events"] if e["action"] == action)

    at = next(n for n in range(total) if events_of(n + 1) >= 2)
    count = events_of(at + 1)
    browser.execute_script(
        "const s = document.getElementById('replay-slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));",
        at,
    )
    wait(browser).until(lambda d: step(d) == f"step {at} / {total}")
    before = log_count(browser)
    browser.find_element(By.ID, "replay-event-forward").click()
    wait(browser).until(lambda d: f"event 1 of {count} of step {at + 1}" in step(d))
    assert log_count(browser) == before + 1
    browser.find_element(By.ID, "replay-event-back").click()
    wait(browser).until(lambda d: step(d) == f"step {at} / {total}")
    assert log_count(browser) == before
    for _ in range(count):
        browser.find_element(By.ID, "replay-event-forward").click()
    wait(browser).until(lambda d: step(d) == f"step {at + 1} / {total}")
    assert log_count(browser) == before + count
    browser.find_element(By.ID, "replay-event-back").click()
    wait(browser).until(lambda d: f"event {count - 1} of {count} of step {at + 1}" in step(d))
    assert log_count(browser) == before + count - 1
    # the board follows the engine's state at that step: a battle, if the game had one
    battles = [n for n, s in enumerate(match.states) if s.view(None).get("battle")]
    shown = battles[len(battles) // 2] if battles else total // 2
    browser.execute_script(
        "const s = document.getElementById('replay-slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));",
        shown,
    )
    wait(browser).until(lambda d: step(d) == f"step {shown} / {total}")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".nerath-map"))
    view = match.states[shown].view(None)
    wait(browser).until(lambda d: f"Round {view['round']}" in d.find_element(By.ID, "phase-tracker").text)
    if battles:
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".nerath-map .battle-mark"))
    screenshot(browser, "replay-viewer")
    browser.find_element(By.ID, "replay-last").click()
    wait(browser).until(lambda d: step(d) == f"step {total} / {total}")
    assert wait(browser).until(lambda d: d.find_element(By.ID, "results").is_displayed())
    assert js_errors(browser) == []
    # the same game as a save uploaded on the replay page
    path = tmp_path / "nerath-save.json"
    path.write_text(json.dumps(save))
    browser.get(web_server.url + "/replay")
    browser.find_element(By.ID, "save-file").send_keys(str(path))
    wait(browser).until(lambda d: "/replay/u" in d.current_url)
    wait(browser).until(lambda d: step(d) == f"step 0 / {total}")
    browser.find_element(By.ID, "replay-last").click()
    wait(browser).until(lambda d: step(d) == f"step {total} / {total}")
    assert js_errors(browser) == []


def _pass_until_movement(server: LiveServer, token: str) -> None:
    """Vailin's seat passes every card window until its own movement phase (the AI kingdoms play)."""
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=server.url, timeout=20) as http:
        while time.monotonic() < deadline:
            payload = http.get(f"/api/seat/{token}").json()
            pending = payload["pending"]
            if pending["yours"] and pending["kind"] == "movement":
                return
            if pending["yours"]:
                done = next(x for x in payload["legal"] if x["action"]["kind"] == "pass")
                http.post(
                    f"/api/seat/{token}/actions",
                    json={"version": payload["version"], "action": done["action"]},
                )
            else:
                time.sleep(0.1)
    raise AssertionError("Vailin's movement never came")


def test_the_watch_page_shows_public_information_only(
    web_server: LiveServer, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=20) as http:
        created = http.post(
            "/api/games",
            json={"game": "nerath", "seed": 1, "seats": ["heuristic", "human", "heuristic", "heuristic"]},
        ).json()
    [token] = [s["token"] for s in created["seats"] if "token" in s]
    laptop_screen(browser)
    browser.get(f"{web_server.url}/watch/{created['game_id']}")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".nerath-map"))
    # Karkoth's AI turn is followed live (Vailin passes the card windows it is asked at) until Vailin's
    # own movement; then the page waits for Vailin, by name
    _pass_until_movement(web_server, token)
    wait(browser, 60).until(lambda d: d.title.startswith("waiting for Vailin"))
    wait(browser).until(
        lambda d: "Waiting for Vailin (movement)" in d.find_element(By.CSS_SELECTOR, ".nerath-tray").text
    )
    assert log_count(browser) > 10
    assert browser.find_elements(By.CSS_SELECTOR, ".nerath-side .hand") == []
    assert browser.find_elements(By.CSS_SELECTOR, "#text-form:not([hidden])") == []
    assert not browser.find_element(By.ID, "nerath-auto-pass").is_displayed()
    stored = browser.execute_script("return JSON.stringify(localStorage)")
    assert token not in browser.page_source and token not in stored
    screenshot(browser, "nerath-spectator")
    before = log_count(browser)
    with httpx.Client(base_url=web_server.url, timeout=20) as http:
        payload = http.get(f"/api/seat/{token}").json()
        done = next(x for x in payload["legal"] if x["action"]["kind"] == "pass")
        http.post(
            f"/api/seat/{token}/actions", json={"version": payload["version"], "action": done["action"]}
        )
    wait(browser).until(lambda d: log_count(d) > before)
    assert token not in browser.page_source
    assert js_errors(browser) == []


def test_undo_in_a_hotseat_game_takes_back_the_last_decision(web_server: LiveServer, browser: Any) -> None:
    with httpx.Client(base_url=web_server.url, timeout=20) as http:
        created = http.post(
            "/api/games",
            json={
                "game": "dice-race",
                "seats": ["human", "human"],
                "seed": 3,
                "options": {"hand_size": 0, "target": 100},
            },
        ).json()
        tokens = [s["token"] for s in created["seats"]]
        payload = http.get(f"/api/seat/{tokens[0]}").json()
        while payload["pending"]["kind"] != "respond":  # roll until a 6 asks the next seat to respond
            token = tokens[payload["pending"]["player"]]
            payload = http.post(
                f"/api/seat/{token}/actions", json={"version": payload["version"], "text": "roll"}
            ).json()
    responder = tokens[payload["pending"]["player"]]
    browser.get(f"{web_server.url}/play/{responder}")
    wait(browser).until(
        lambda d: d.find_elements(By.XPATH, "//div[@id='action-buttons']/button[text()='respond block']")
    )
    assert browser.find_elements(By.ID, "undo") == [], "a roll is never undone"
    before = log_count(browser)
    browser.find_element(By.XPATH, "//div[@id='action-buttons']/button[text()='respond block']").click()
    wait(browser).until(lambda d: d.find_elements(By.ID, "undo"))
    assert log_count(browser) > before
    browser.find_element(By.ID, "undo").click()
    wait(browser).until(
        lambda d: (
            d.execute_script("return document.getElementById('game').dataset.version")
            == str(payload["version"])
        )
    )
    wait(browser).until(
        lambda d: d.find_elements(By.XPATH, "//div[@id='action-buttons']/button[text()='respond block']")
    )
    assert log_count(browser) == before
    assert js_errors(browser) == []


def test_a_chime_and_the_title_say_when_the_turn_comes(web_server: LiveServer, browser: Any) -> None:
    with httpx.Client(base_url=web_server.url, timeout=20) as http:
        created = http.post(
            "/api/games",
            json={"game": "dice-race", "seats": ["human", "human"], "seed": 2, "options": {"hand_size": 0}},
        ).json()
        tokens = [s["token"] for s in created["seats"]]
        browser.get(f"{web_server.url}/play/{tokens[1]}")
        wait(browser).until(lambda d: d.title.startswith("waiting for seat 0"))
        browser.find_element(By.ID, "sound-toggle").click()
        http.post(f"/api/seat/{tokens[0]}/actions", json={"version": 0, "text": "roll"})
    wait(browser).until(lambda d: my_turn(d))
    wait(browser).until(
        lambda d: d.execute_script("return document.getElementById('game').dataset.chimed") == "1"
    )
    assert "you decide" in browser.find_element(By.ID, "phase-tracker").text
    assert js_errors(browser) == []


def test_the_lobby_names_seats_and_remembers_a_seat_opened_in_this_browser(
    web_server: LiveServer, browser: Any
) -> None:
    links = game_api.create_game(
        web_server.url, "nerath", ["human", "heuristic", "heuristic", "heuristic"], 1
    )
    browser.get(links[0])  # a link received some other way (an invite, another device)
    wait(browser).until(lambda d: d.find_element(By.ID, "connection").text == "live")
    stored = json.loads(browser.execute_script("return localStorage.getItem('warhorn.links')"))
    assert [m["token"] for ms in stored.values() for m in ms] == [links[0].rsplit("/", 1)[-1]]
    browser.get(web_server.url + "/")
    row = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#games tr.mine"))[0]
    seat = row.find_element(By.CSS_SELECTOR, "a.my-seat")
    assert seat.text == "Karkoth (seat 0)" and seat.get_attribute("href") == links[0]
    assert "Vailin (seat 1): heuristic" in row.text
    assert js_errors(browser) == []
