"""Resource control (issue #21): slow requests time out, AI searches have their own threads, and a
server's limits on games, creation rate and AI kinds are kept (SQLite only: nothing here depends on
the database)."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.live_server import LiveServer
from tests.server.helpers import create, wait_game
from warhorn.server import create_app
from warhorn.server import hub as hub_module
from warhorn.server.limits import CreationRateLimit, ServerLimits

#: Seconds a test waits for the server's answer before failing: far beyond the deadlines tested (0.5 s,
#: 0.6 s), so only a server that never answers fails, not a slow one on a loaded machine.
WAIT_FOREVER = 30
#: Bytes of a body sent one every 0.1 s: 30 s, far beyond the 0.6 s body deadline tested.
TRICKLE_BYTES = 300


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'w.sqlite3'}"


def _answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_a_body_shorter_than_its_content_length_times_out_with_408(tmp_path: Path) -> None:
    app = create_app(_sqlite(tmp_path), limits=ServerLimits(request_body_seconds=0.5))
    with LiveServer(app) as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(WAIT_FOREVER)  # before the fix the server waited for the missing bytes forever
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"game": '
        )
        answer = _answer(sock)  # the server answers and then closes the connection
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"request_timeout" in answer


def test_a_body_sent_a_byte_at_a_time_is_cut_off_at_the_deadline(tmp_path: Path) -> None:
    app = create_app(_sqlite(tmp_path), limits=ServerLimits(request_body_seconds=0.6))
    with LiveServer(app) as server, socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(WAIT_FOREVER)
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        # one byte every 0.1 s (each well within 0.6 s of the last) until the server answers: a deadline
        # for the whole body answers after a few bytes, a deadline per read would never answer
        trickled = 0
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the server closes at the deadline
            while trickled < TRICKLE_BYTES and not select.select([sock], [], [], 0.1)[0]:
                sock.sendall(b" ")
                trickled += 1
        answer = _answer(sock)
    assert trickled < TRICKLE_BYTES, "the server kept reading a body that came in slowly but steadily"
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


def test_a_body_over_the_size_limit_is_413_and_a_normal_request_still_works(tmp_path: Path) -> None:
    app = create_app(_sqlite(tmp_path), limits=ServerLimits(max_body_bytes=2_000))
    with TestClient(app) as client:
        big = client.post("/api/games", content=b"x" * 5_000, headers={"content-type": "application/json"})
        assert big.status_code == 413 and big.json()["code"] == "too_large"
        create(client, ["random", "random"])


def test_ai_searches_run_in_their_own_bounded_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: set[str] = set()
    choose = hub_module._choose_and_explain

    def recording(*args: object) -> object:
        threads.add(threading.current_thread().name)
        return choose(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(hub_module, "_choose_and_explain", recording)
    with TestClient(create_app(_sqlite(tmp_path), limits=ServerLimits(ai_workers=1))) as client:
        created = create(client, ["random", "random"])
        wait_game(client, created["game_id"], lambda g: g["status"] == "finished")
    assert threads and all(name.startswith("warhorn-ai") for name in threads), threads
    assert len(threads) == 1


def test_games_per_client_per_hour_and_open_games_are_limited(tmp_path: Path) -> None:
    limits = ServerLimits(games_per_client_per_hour=2)
    with TestClient(create_app(_sqlite(tmp_path), limits=limits)) as client:
        create(client, ["human", "human"])
        create(client, ["human", "human"])
        third = client.post("/api/games", json={"game": "dice-race", "seats": ["human", "human"]})
        assert third.status_code == 429 and third.json()["code"] == "too_many_games"
    with TestClient(create_app(_sqlite(tmp_path / "b"), limits=ServerLimits(max_open_games=1))) as client:
        create(client, ["human", "human"])
        second = client.post("/api/games", json={"game": "dice-race", "seats": ["human", "human"]})
        assert second.status_code == 429 and second.json()["code"] == "too_many_open_games"


def test_the_creation_rate_window_slides() -> None:
    rate = CreationRateLimit(per_hour=1)
    assert rate.allow("a", now=0.0) and not rate.allow("a", now=10.0) and rate.allow("b", now=10.0)
    assert rate.allow("a", now=3601.0)


def test_ai_kinds_not_allowed_are_refused_and_not_offered(tmp_path: Path) -> None:
    limits = ServerLimits(ai_kinds=frozenset({"random"}))
    with TestClient(create_app(_sqlite(tmp_path), limits=limits)) as client:
        assert client.get("/api/catalog").json()["seat_kinds"] == ["human", "random"]
        refused = client.post("/api/games", json={"game": "dice-race", "seats": ["human", "mcts"]})
        assert refused.status_code == 422 and "not allowed on this server" in refused.json()["error"]


def test_listening_beyond_loopback_gets_the_public_limits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # on loopback no limits, but AI searches in a worker process (human actions wait less behind them)
    assert ServerLimits.for_host("127.0.0.1") == ServerLimits(ai_pool="processes")
    assert ServerLimits.for_host("127.0.0.1", ai_pool="threads") == ServerLimits()
    public = ServerLimits.for_host("0.0.0.0", max_open_games=5)
    assert public.max_open_games == 5 and public.games_per_client_per_hour == 12
    assert public.ai_think_seconds == 1.0

    from warhorn.cli.app import app
    from warhorn.server import app as app_module
    from warhorn.server import serving

    seen: list[ServerLimits] = []
    real_create = app_module.create_app

    def recording_create(url: str, **kw: object) -> object:
        seen.append(kw["limits"])  # type: ignore[arg-type]
        return real_create(url, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr("warhorn.server.create_app", recording_create)
    monkeypatch.setattr(serving, "run_server", lambda _app, **kw: None)
    args = ["serve", "--host", "0.0.0.0", "--port", "0", "--database-url", _sqlite(tmp_path)]
    result = CliRunner().invoke(app, [*args, "--ai-kinds", "random,heuristic"])
    assert result.exit_code == 0, result.output
    assert seen[-1].games_per_client_per_hour == 12 and seen[-1].ai_kinds == {"random", "heuristic"}
    result = CliRunner().invoke(app, [*args, "--ai-kinds", "random,oracle"])
    assert result.exit_code == 1 and "unknown AI kind 'oracle'" in result.output


def test_ai_searches_can_run_in_worker_processes(tmp_path: Path) -> None:
    import os
    from concurrent.futures import ProcessPoolExecutor

    app = create_app(_sqlite(tmp_path), limits=ServerLimits(ai_pool="processes", ai_workers=2))
    with TestClient(app) as client:
        created = create(client, ["random", "random", "random"], seed=21)
        summary = wait_game(client, created["game_id"], lambda g: g["status"] == "finished", timeout=60)
        pool = app.state.hub._ai_pool
        assert isinstance(pool, ProcessPoolExecutor)
        workers = set(pool._processes)  # the searches ran in forked workers, not in this process
        assert workers and os.getpid() not in workers
    assert summary["version"] > 0 and summary["results"] is not None
    with TestClient(create_app(_sqlite(tmp_path))) as client:  # stored
        assert client.get(f"/api/games/{created['game_id']}").json()["version"] == summary["version"]


def test_headers_that_never_end_time_out_with_408_and_free_the_connection(tmp_path: Path) -> None:
    app = create_app(_sqlite(tmp_path), limits=ServerLimits(request_head_seconds=0.5))
    with LiveServer(app) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.settimeout(WAIT_FOREVER)  # before the fix the server waited for the rest of the head forever
            sock.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            answer = _answer(sock)  # the server answers and then closes the connection
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"request_timeout" in answer
        # a connection that sends nothing at all is closed too
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.settimeout(WAIT_FOREVER)
            assert _answer(sock).startswith(b"HTTP/1.1 408")
        # a kept-alive connection: the first request is answered, the second head's deadline holds
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.settimeout(WAIT_FOREVER)
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            first = b""
            while b'{"games"' not in first:
                first += sock.recv(65536)
            assert first.startswith(b"HTTP/1.1 200")
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHo")
            assert b"HTTP/1.1 408" in _answer(sock)
        # the server still answers
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.settimeout(WAIT_FOREVER)
            sock.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert _answer(sock).startswith(b"HTTP/1.1 200")
