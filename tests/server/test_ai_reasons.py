"""An AI seat's one-line reason is stored with its action and shown in the log to the seats that may
see that action's events (and to no one else), also after a restart."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import OpenClient
from tests.server.helpers import create, state, tokens, wait_for
from warhorn.engine import Event, events_for
from warhorn.server.hub import AI_REASON, MAX_REASON_CHARS, reason_event
from warhorn.server.store import SeatRecord

AI_SEAT = SeatRecord(1, "random", "t" * 32)


def _reasons(payload: dict[str, Any]) -> dict[int, str]:
    return {e["action"]: e["data"]["reason"] for e in payload["events"] if e["kind"] == AI_REASON}


def _play_until_ai_acted(client: TestClient, token: str, ai_actions: int) -> dict[str, Any]:
    """Let seat 0 roll (or respond) whenever it decides until the AI seat 1 has acted ``ai_actions`` times."""
    game_id = state(client, token)["game_id"]
    store = client.app.state.store  # type: ignore[attr-defined]
    while sum(1 for a in store.actions(game_id) if a.seat == 1) < ai_actions:
        payload = wait_for(client, token, lambda p: p["pending"] is None or p["pending"]["yours"])
        if payload["pending"] is None:
            break
        kinds = {x["action"]["kind"]: x["action"] for x in payload["legal"]}
        action = kinds.get("roll", payload["legal"][0]["action"])  # roll, or answer the AI's 6
        answer = client.post(
            f"/api/seat/{token}/actions", json={"version": payload["version"], "action": action}
        )
        assert answer.status_code == 200, answer.text
    return wait_for(client, token, lambda p: p["pending"] is None or p["pending"]["yours"])


def test_an_ai_seats_reason_shows_in_the_log_and_survives_a_restart(open_client: OpenClient) -> None:
    with open_client() as client:
        created = create(client, ["human", "random"], seed=5, target=40)
        token = tokens(created)[0]
        payload = _play_until_ai_acted(client, token, 4)
        stored = client.app.state.store.actions(created["game_id"])  # type: ignore[attr-defined]
        by_ai = {a.number: a for a in stored if a.seat == 1}
        by_human = {a.number for a in stored if a.seat == 0}
        reasons = _reasons(payload)
        assert reasons, "no AI reason reached the human seat"
        assert not set(reasons) & by_human, "a reason is attached to a human's action"
        for number, reason in reasons.items():
            assert number in by_ai
            assert reason.startswith("chosen at random among ") and reason.endswith(" legal actions")
        # the reason is stored in the action's own row (one transaction with its events)
        for number in reasons:
            assert [e["kind"] for e in by_ai[number].events].count(AI_REASON) == 1
            # the reason comes first, then what the action did (the log reads "why, then what")
            assert by_ai[number].events[0]["kind"] == AI_REASON
        for number in reasons:
            shown = [e["kind"] for e in payload["events"] if e["action"] == number]
            assert shown[0] == AI_REASON, shown
        # the AI's public actions (a roll: every event public) all carry their reason for seat 0
        public = {n for n, a in by_ai.items() if all(e["visible_to"] is None for e in a.events)}
        assert public and public <= set(reasons)
        line = next(e for e in payload["events"] if e["kind"] == AI_REASON)
        assert line["text"] == f"random AI (seat 1): {line['data']['reason']}"
        before = state(client, token)
    with open_client() as client:
        after = state(client, token)
        assert _reasons(after) == _reasons(before)
        assert after["events"] == before["events"]


def test_a_reason_is_hidden_from_seats_that_do_not_see_the_actions_events(open_client: OpenClient) -> None:
    """In the dice race a played card draws a new one that only its player sees: the AI's reason for
    such an action must not reach the other seat."""
    with open_client() as client:
        created = create(client, ["human", "random"], seed=5, target=60)
        token = tokens(created)[0]
        payload = _play_until_ai_acted(client, token, 12)
        stored = client.app.state.store.actions(created["game_id"])  # type: ignore[attr-defined]
        hidden = {
            a.number
            for a in stored
            if a.seat == 1 and any(e["visible_to"] is not None for e in a.events if e["kind"] != AI_REASON)
        }
        assert hidden, "the random AI never played a card in this game: pick another seed"
        assert not hidden & set(_reasons(payload))


def test_reason_event_audience_is_the_seats_that_see_every_event() -> None:
    public = Event("roll", {"face": 3}, "rolls 3")
    secret = Event("draw", {"card": "x"}, "draws x", visible_to=frozenset({1, 2}), public_text="draws a card")
    other = Event("peek", {}, "peeks", visible_to=frozenset({2, 3}))

    everyone = reason_event(AI_SEAT, "because", [public])
    assert everyone is not None and everyone.visible_to is None
    assert events_for([everyone], 0) == [everyone]

    narrowed = reason_event(AI_SEAT, "because", [public, secret, other])
    assert narrowed is not None and narrowed.visible_to == frozenset({2})
    assert events_for([narrowed], 1) == [] and events_for([narrowed], None) == []

    assert reason_event(AI_SEAT, "  \n ", [public]) is None
    multi = reason_event(AI_SEAT, "first line\nsecond   line", [])
    assert multi is not None and multi.data["reason"] == "first line second line"
    long = reason_event(AI_SEAT, "x" * 1000, [])
    assert long is not None and len(str(long.data["reason"])) == MAX_REASON_CHARS


class _FailingAgent:
    """An AI that crashes with a message naming a hidden card (as a bug in a game's rules might)."""

    name = "failing-test"

    def choose(self, state: Any, player: int, rng: Any) -> Any:
        raise KeyError(f"secret card {state.snapshot()['hands'][player][0]}")

    def explain(self) -> str:
        return ""


def test_an_ai_failure_is_reported_to_every_seat_without_the_exceptions_text(client: TestClient) -> None:
    from warhorn.ai import AGENTS, register_agent

    register_agent("failing-test", lambda params, budget: _FailingAgent())
    try:
        created = create(client, ["human", "failing-test"], seed=5, target=40)
        token = tokens(created)[0]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        secret = hub._games[created["game_id"]].state.snapshot()["hands"][1][0]
        answer = client.post(f"/api/seat/{token}/actions", json={"version": 0, "text": "roll"})
        assert answer.status_code == 200, answer.text
        payload = wait_for(client, token, lambda p: p["ai_error"] is not None)
        assert secret not in payload["ai_error"]
        assert payload["ai_error"].startswith("seat 1 (failing-test) failed (KeyError)")
    finally:
        AGENTS.pop("failing-test", None)
