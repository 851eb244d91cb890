"""On the wire, through a real uvicorn server: live updates (server-sent events) and secrecy."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from typing import Any

import httpx

from tests.server.conftest import LiveServer
from warhorn.engine import Rng

#: Seconds to wait for what the server sends before failing: a bound for a loaded machine, not a
#: measure of speed (the tests check what arrives and in which order, never how fast).
WAIT = 30.0


class StreamReader:
    """Reads a seat's server-sent events in a thread: every raw line is kept, updates are queued."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw: list[str] = []
        self.updates: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self._stop = threading.Event()
        self._client = httpx.Client(timeout=httpx.Timeout(5.0, read=20.0))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._opened = threading.Event()
        self._socket: socket.socket | None = None

    def _run(self) -> None:
        event = ""
        try:
            with self._client.stream("GET", self.url) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("text/event-stream")
                self._socket = response.extensions["network_stream"].get_extra_info("socket")
                self._opened.set()
                for line in response.iter_lines():
                    self.raw.append(line)
                    if self._stop.is_set():
                        return
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "update":
                        self.updates.put((time.monotonic(), json.loads(line[6:])))
        except httpx.HTTPError:
            if not self._stop.is_set():
                raise

    def __enter__(self) -> StreamReader:
        self._thread.start()
        assert self._opened.wait(WAIT), "stream did not open"
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._socket is not None:  # wake the reader now rather than at the next keep-alive
            with contextlib.suppress(OSError):  # the reader may have closed it already (its stream ended)
                self._socket.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=WAIT)
        self._client.close()

    def next_update(self, timeout: float = WAIT) -> tuple[float, dict[str, Any]]:
        return self.updates.get(timeout=timeout)

    def update_reaching(self, version: int, timeout: float = WAIT) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            at, payload = self.next_update(max(0.01, deadline - time.monotonic()))
            if payload["version"] >= version:
                return at, payload


def _create(http: httpx.Client, seats: list[str], **options: Any) -> dict[int, str]:
    response = http.post(
        "/api/games", json={"game": "dice-race", "seats": seats, "seed": 99, "options": options}
    )
    assert response.status_code == 201, response.text
    return {s["seat"]: s["token"] for s in response.json()["seats"] if "token" in s}


def test_stream_delivers_each_action_to_every_open_page_in_order(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        t = _create(http, ["human", "human"])
        with (
            StreamReader(f"{live_server.url}/api/seat/{t[0]}/stream") as page0,
            StreamReader(f"{live_server.url}/api/seat/{t[1]}/stream") as page1,
            StreamReader(f"{live_server.url}/api/seat/{t[1]}/stream") as page1_again,
        ):
            for page in (page0, page1, page1_again):
                assert page.next_update()[1]["version"] == 0
            for version in range(1, 5):
                decider = http.get(f"/api/seat/{t[0]}").json()["pending"]["player"]
                response = http.post(
                    f"/api/seat/{t[decider]}/actions", json={"version": version - 1, "text": "roll"}
                )
                assert response.status_code == 200, response.text
                for page in (page0, page1, page1_again):
                    _, payload = page.update_reaching(version)
                    assert payload["version"] == version  # each action's update, none skipped
                    assert payload["events"] and {e["action"] for e in payload["events"]} == {version}


def test_stream_resumes_after_last_event_id_and_follows_ai_seats(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        t = _create(http, ["human", "random"], target=30)
        assert http.post(f"/api/seat/{t[0]}/actions", json={"version": 0, "text": "roll"}).status_code == 200
        with StreamReader(f"{live_server.url}/api/seat/{t[0]}/stream?after=1") as page:
            _, payload = page.update_reaching(2)
            assert payload["version"] >= 2
            assert all(e["action"] >= 2 for e in payload["events"])
            assert payload["pending"] is None or payload["pending"]["player"] == 0 or payload["version"] > 2


def _hidden_from_seat_1(live_server: LiveServer, game_id: str) -> list[str]:
    """Seat 0's hand and the draw pile, read from inside the server (never from the API)."""
    hub = live_server.app.state.hub
    snapshot = hub._games[game_id].state.snapshot()
    return [*snapshot["hands"][0], *snapshot["deck"]["draw"]]


def test_secrets_never_reach_another_seat_on_the_wire(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        created = http.post(
            "/api/games",
            json={"game": "dice-race", "seats": ["human", "human"], "seed": 5, "options": {"hand_size": 3}},
        ).json()
        t = {s["seat"]: s["token"] for s in created["seats"]}
        game_id = created["game_id"]
        seen_by_1: list[str] = []
        with StreamReader(f"{live_server.url}/api/seat/{t[1]}/stream") as page1:
            rng = Rng(17)
            read = 0
            for _ in range(30):
                payload = http.get(f"/api/seat/{t[0]}").json()
                # stop before the discards are reshuffled into the deck: a card seen face up
                # before would then be hidden again, and old messages rightly hold it
                if payload["pending"] is None or payload["view"]["deck"]["draw_count"] < 2:
                    break
                decider = payload["pending"]["player"]
                mine = http.get(f"/api/seat/{t[decider]}").json()
                # seat 0 plays cards (drawing hidden ones) whenever it can
                cards = [a for a in mine["legal"] if a["action"]["kind"] == "play"]
                choice = cards[0] if cards and decider == 0 else mine["legal"][rng.below(len(mine["legal"]))]
                response = http.post(
                    f"/api/seat/{t[decider]}/actions",
                    json={"version": mine["version"], "action": choice["action"]},
                )
                assert response.status_code == 200
                if decider == 1:
                    seen_by_1.append(response.text)
                seen_by_1.append(http.get(f"/api/seat/{t[1]}").text)
                page1.update_reaching(mine["version"] + 1)
                hidden = _hidden_from_seat_1(live_server, game_id)
                wire = "\n".join([*seen_by_1, *page1.raw[read:]])
                read = len(page1.raw)
                for card in hidden:
                    assert f'"{card}"' not in wire, f"seat 0's hidden card {card} reached seat 1"
                seen_by_1.clear()
            assert any("player 0 draws a card" in line for line in page1.raw), "no hidden draw was exercised"
            order = _hidden_from_seat_1(live_server, game_id)[3:]
            assert ",".join(f'"{c}"' for c in order) not in "\n".join(page1.raw)
        # the public listing and summary carry no state at all
        public = http.get("/api/games").text + http.get(f"/api/games/{game_id}").text
        for card in _hidden_from_seat_1(live_server, game_id):
            assert f'"{card}"' not in public  # quoted: ids are hex and may hold "c5c"
        # seat 0 does see its own hand (the test would prove nothing otherwise)
        own = http.get(f"/api/seat/{t[0]}").text
        assert all(f'"{c}"' in own for c in _hidden_from_seat_1(live_server, game_id)[:3])


def test_concurrent_submissions_on_one_version_apply_exactly_one(live_server: LiveServer) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        t = _create(http, ["human", "human"])

        def send(_: int) -> int:
            with httpx.Client(base_url=live_server.url, timeout=10) as own:
                return own.post(f"/api/seat/{t[0]}/actions", json={"version": 0, "text": "roll"}).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = sorted(pool.map(send, range(8)))
        assert codes == [200] + [409] * 7
        assert http.get(f"/api/seat/{t[0]}").json()["version"] == 1


def test_an_open_page_hears_of_the_end_and_of_the_deletion(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        created = http.post(
            "/api/games",
            json={"game": "dice-race", "seats": ["human", "human"], "seed": 2, "options": {"target": 5}},
        ).json()
        t = {s["seat"]: s["token"] for s in created["seats"]}
        with StreamReader(f"{live_server.url}/api/seat/{t[1]}/stream") as page:
            for _ in range(100):
                payload = http.get(f"/api/seat/{t[0]}").json()
                if payload["pending"] is None:
                    break
                mine = http.get(f"/api/seat/{t[payload['pending']['player']]}").json()
                response = http.post(
                    f"/api/seat/{t[mine['seat']]}/actions",
                    json={"version": mine["version"], "action": mine["legal"][0]["action"]},
                )
                assert response.status_code == 200
            _, last = page.update_reaching(payload["version"])
            assert last["results"] is not None and last["status"] == "finished"
            deleted = http.delete(f"/api/games/{created['game_id']}", headers={"X-Seat-Token": t[1]})
            assert deleted.status_code == 200
            deadline = time.monotonic() + WAIT
            while "event: deleted" not in page.raw and time.monotonic() < deadline:
                time.sleep(0.02)
            assert "event: deleted" in page.raw
