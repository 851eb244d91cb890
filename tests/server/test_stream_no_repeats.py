"""On the wire: a page's live stream sends no version the page already holds, and reconnects exactly."""

from __future__ import annotations

import json
import time

import httpx

from tests.server.conftest import LiveServer
from tests.server.test_live_wire import WAIT, StreamReader, _create


def _events(reader: StreamReader, name: str) -> list[tuple[int | None, dict[str, object]]]:
    """The (id, data) of every ``name`` event read so far."""
    out: list[tuple[int | None, dict[str, object]]] = []
    event_id: int | None = None
    event = ""
    for line in list(reader.raw):
        if line.startswith("id: "):
            event_id = int(line[4:])
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == name:
            out.append((event_id, json.loads(line[6:])))
        elif line == "":
            event_id, event = None, ""
    return out


def _wait_for(reader: StreamReader, name: str, count: int, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while len(_events(reader, name)) < count:
        assert time.monotonic() < deadline, f"no {name} event #{count}: {reader.raw}"
        time.sleep(0.02)


def _decider(http: httpx.Client, token: str) -> int:
    return int(http.get(f"/api/seat/{token}").json()["pending"]["player"])


def test_the_answer_to_a_pages_own_action_is_not_sent_again_on_its_stream(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        t = _create(http, ["human", "human"])
        first = _decider(http, t[0])
        with (
            StreamReader(f"{live_server.url}/api/seat/{t[first]}/stream?after=0") as page,
            StreamReader(f"{live_server.url}/api/seat/{t[first]}/stream") as other_tab,
        ):
            _wait_for(page, "stream", 1)
            # the page holds version 0 (it said so): nothing is sent; a stream that said nothing gets it
            assert other_tab.next_update()[1]["version"] == 0
            stream_id = _events(page, "stream")[0][1]["stream"]
            answer = http.post(
                f"/api/seat/{t[first]}/actions",
                json={"version": 0, "text": "roll"},
                headers={"X-Warhorn-Stream": str(stream_id)},
            )
            assert answer.status_code == 200 and answer.json()["version"] == 1
            _wait_for(page, "seen", 1)
            assert _events(page, "seen") == [(1, {"version": 1})]
            # the other tab of the same seat did not send the action: it gets the new state
            assert other_tab.update_reaching(1)[1]["version"] == 1
            # the next change, made elsewhere, comes in full with only its own events
            second = _decider(http, t[0])
            assert (
                http.post(f"/api/seat/{t[second]}/actions", json={"version": 1, "text": "roll"}).status_code
                == 200
            )
            _, update = page.update_reaching(2)
            assert update["version"] == 2 and {e["action"] for e in update["events"]} == {2}
            assert [u for u in _events(page, "update")] == [(2, update)]


def test_a_reconnecting_page_resumes_after_its_last_event_id(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        t = _create(http, ["human", "human"])
        for version in (0, 1):
            decider = _decider(http, t[0])
            response = http.post(f"/api/seat/{t[decider]}/actions", json={"version": version, "text": "roll"})
            assert response.status_code == 200
        # ``after`` says version 0; the Last-Event-ID of a reconnection (1) wins
        page = StreamReader(f"{live_server.url}/api/seat/{t[0]}/stream?after=0")
        page._client.headers["Last-Event-ID"] = "1"
        with page:
            _, update = page.next_update()
            assert update["version"] == 2 and {e["action"] for e in update["events"]} == {2}
        # a page that holds the current version gets nothing until the game changes
        with StreamReader(f"{live_server.url}/api/seat/{t[0]}/stream?after=2") as current:
            _wait_for(current, "stream", 1)
            time.sleep(0.3)
            assert _events(current, "update") == []
            decider = _decider(http, t[0])
            assert (
                http.post(f"/api/seat/{t[decider]}/actions", json={"version": 2, "text": "roll"}).status_code
                == 200
            )
            _, update = current.update_reaching(3)
            assert {e["action"] for e in update["events"]} == {3}


def test_a_stream_id_of_another_seat_changes_nothing(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=WAIT) as http:
        t = _create(http, ["human", "human"])
        first = _decider(http, t[0])
        watcher = 1 - first
        with StreamReader(f"{live_server.url}/api/seat/{t[watcher]}/stream?after=0") as page:
            _wait_for(page, "stream", 1)
            stream_id = str(_events(page, "stream")[0][1]["stream"])
            answer = http.post(
                f"/api/seat/{t[first]}/actions",
                json={"version": 0, "text": "roll"},
                headers={"X-Warhorn-Stream": stream_id},
            )
            assert answer.status_code == 200
            assert page.update_reaching(1)[1]["version"] == 1
            assert _events(page, "seen") == []
        too_long = http.post(
            f"/api/seat/{t[_decider(http, t[0])]}/actions",
            json={"version": 1, "text": "roll"},
            headers={"X-Warhorn-Stream": "x" * 65},
        )
        assert too_long.status_code == 422 and too_long.json()["code"] == "malformed"


def test_kept_legal_entries_are_the_notation_and_json_of_each_action() -> None:
    from warhorn.engine import load_game
    from warhorn.server.hub import legal_entry_json

    state = load_game("nerath", seed=4, players=4)
    for _ in range(2):  # the second time from the kept entries
        entries = [json.loads(legal_entry_json(a)) for a in state.legal_actions()]
        assert entries == [{"notation": a.notation(), "action": a.to_json()} for a in state.legal_actions()]
