"""Storage failures (issue #21): a read-only database, a full disk (a file-size limit) and a PostgreSQL
whose connections are killed get a 503 saying what is wrong, the connection stays usable, AI seats
wait and go on by themselves, and nothing is lost or applied twice."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.server.helpers import create, state, tokens, wait_for
from tests.server.helpers import wait_game as wait_for_game
from warhorn.server import create_app

ROOT = Path(__file__).resolve().parents[2]


class ReadOnlySwitch:
    """Makes every connection the engine hands out read-only (SQLite's ``query_only``) while ``on``."""

    def __init__(self, engine: sa.Engine) -> None:
        self.on = False
        sa.event.listen(engine, "checkout", self._apply)

    def _apply(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        dbapi_connection.execute(f"PRAGMA query_only={1 if self.on else 0}")


def _first_legal(client: TestClient | httpx.Client, token: str) -> dict[str, Any]:
    mine = client.get(f"/api/seat/{token}").json()
    return {"version": mine["version"], "action": mine["legal"][0]["action"]}


def test_a_read_only_sqlite_database_answers_503_and_heals(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", ai_delay=0.5)
    switch = ReadOnlySwitch(app.state.store.engine)
    with TestClient(app) as client:
        created = create(client, ["human", "random", "random"])
        token = tokens(created)[0]
        switch.on = True
        refused = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "storage_unavailable"
        assert "read-only" in refused.json()["error"] and refused.headers["retry-after"]
        assert state(client, token)["version"] == 0  # the same connection still answers; nothing moved
        created_while = client.post("/api/games", json={"game": "dice-race", "seats": ["human", "human"]})
        assert created_while.status_code == 503
        switch.on = False
        done = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
        assert done.status_code == 200, done.text
        # the AI seats act 0.5 s later: the database is read-only by then, and they wait for it
        switch.on = True
        waiting = wait_for(client, token, lambda p: p["ai_error"] is not None)
        assert "read-only" in waiting["ai_error"] and waiting["version"] in (1, 2)  # (a slow machine: 2)
        switch.on = False
        healed = wait_for(client, token, lambda p: p["ai_error"] is None and p["pending"]["player"] == 0)
        assert healed["version"] >= 3  # both AI seats acted
    # a restart replays the stored log through its digest: every action once, none lost
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}")) as client:
        assert state(client, token)["version"] == healed["version"]


def _serve_code(port: int, database_url: str) -> str:
    return (
        f"import sys\nsys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "import fixture_game\nfixture_game.register()\n"
        "from warhorn.cli.app import main\n"
        f"sys.argv = ['warhorn', 'serve', '--port', '{port}', '--ai-delay', '0', '--database-url', "
        f"{database_url!r}]\nmain()\n"
    )


@contextmanager
def _server_process(database_url: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen(
        [sys.executable, "-c", _serve_code(port, database_url)], env=env, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "the server did not start"
        yield proc, url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_file_size_limit_answers_503_and_heals_when_lifted(tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with _server_process(database_url) as (proc, url), httpx.Client(base_url=url, timeout=10) as client:
        created = client.post(
            "/api/games", json={"game": "dice-race", "seats": ["human", "human"], "seed": 3}
        )
        seat_tokens = tokens(created.json())
        token = seat_tokens[0]
        assert client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token)).status_code == 200
        _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (512, hard))  # no file may grow past 512 bytes
        token = seat_tokens[1]
        refused = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
        assert refused.status_code == 503, refused.text
        assert "disk is full" in refused.json()["error"]
        assert client.get(f"/api/seat/{token}").json()["version"] == 1
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
        done = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
        assert done.status_code == 200, done.text
        assert done.json()["version"] == 2
    with _server_process(database_url) as (_proc, url):  # stopped and started: both actions, once each
        assert httpx.get(f"{url}/api/seat/{token}").json()["version"] == 2


def test_a_read_only_folder_at_start_is_one_line(tmp_path: Path) -> None:
    # root may write in any folder whatever its mode: it gets /proc, where no one creates files
    folder = tmp_path / "read-only" if os.geteuid() != 0 else Path("/proc")
    if folder != Path("/proc"):
        folder.mkdir()
        folder.chmod(0o555)
    code = (
        "import sys\nfrom warhorn.cli.app import main\n"
        f"sys.argv = ['warhorn', 'serve', '--port', '0', '--database-url', 'sqlite:///{folder}/w.sqlite3']\n"
        "main()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 1, output
    assert "Traceback" not in output and "sqlalchemy" not in output.lower()
    assert "cannot use the database" in output and "writable" in output, output
    assert len([line for line in output.splitlines() if line.strip()]) <= 2, output


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux prlimit")
def test_storage_problems_are_named() -> None:
    from warhorn.server.database import storage_problem

    readonly = sa.exc.OperationalError("UPDATE", {}, Exception("attempt to write a readonly database"))
    full = sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))
    integrity = sa.exc.IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))
    assert storage_problem(readonly) == "the database is read-only"
    assert "disk is full" in (storage_problem(full) or "")
    assert storage_problem(integrity) is None and storage_problem(ValueError("x")) is None


def _kill_connections(admin_url: str, database: str) -> int:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        ).fetchall()
    return len(rows)


def test_postgresql_connections_killed_mid_game_lose_nothing(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    from tests.server.conftest import _reachable_admin_url

    admin_url, database = _reachable_admin_url(), make_url(postgres_url).database or ""
    acknowledged: dict[str, int] = {}
    with TestClient(create_app(postgres_url)) as client:
        ai_game = create(client, ["random", "random"], seed=5)["game_id"]
        game = create(client, ["human", "random", "random"], seed=9)
        token = tokens(game)[0]
        refused = killed = 0
        for step in range(40):
            payload = state(client, token)
            if payload["pending"] is None:
                break
            if step % 3 == 0:
                killed += _kill_connections(admin_url, database)
            if payload["pending"]["yours"]:
                answer = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
                if answer.status_code == 503:  # the pool's connection was killed: say so, then retry
                    refused += 1
                    assert "unreachable" in answer.json()["error"], answer.text
                    continue
                assert answer.status_code in (200, 409), answer.text
            else:
                time.sleep(0.05)
        acknowledged[game["game_id"]] = state(client, token)["version"]
        finished = wait_for_game(client, ai_game, lambda g: g["status"] == "finished" and g["version"] > 0)
        acknowledged[ai_game] = finished["version"]
        assert killed > 0
        print(f"killed {killed} connections; {refused} actions answered 503 and retried")
    # a new server replays every stored log through its digest: nothing lost, nothing applied twice
    with TestClient(create_app(postgres_url)) as client:
        assert state(client, token)["version"] == acknowledged[game["game_id"]]
        assert client.get(f"/api/games/{ai_game}").json()["version"] == acknowledged[ai_game]


class TcpProxy:
    """Forwards a loopback port to the database server: ``stop()`` drops every connection and refuses
    new ones (the database server is down), ``start()`` accepts again (it is back)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.listener: socket.socket | None = None
        self.open: list[socket.socket] = []

    def start(self) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen()
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def stop(self) -> None:
        if self.listener is not None:
            with contextlib.suppress(OSError):  # wakes the thread blocked in accept()
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        for sock in self.open:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)


def test_postgresql_stopped_and_started_answers_503_and_heals(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    url = make_url(postgres_url)
    proxy = TcpProxy((url.host or "127.0.0.1", url.port or 5432))
    proxy.start()
    through_proxy = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        with TestClient(create_app(through_proxy, ai_delay=0.5)) as client:
            token = tokens(create(client, ["human", "random", "random"], seed=4))[0]
            proxy.stop()
            refused = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
            assert refused.status_code == 503, refused.text
            assert "unreachable" in refused.json()["error"]
            assert state(client, token)["version"] == 0  # the game is in memory: still shown
            proxy.start()
            done = client.post(f"/api/seat/{token}/actions", json=_first_legal(client, token))
            assert done.status_code == 200, done.text
            proxy.stop()  # the AI seats act 0.5 s later, with the database down
            waiting = wait_for(client, token, lambda p: p["ai_error"] is not None)
            assert "unreachable" in waiting["ai_error"] and waiting["version"] in (1, 2)
            proxy.start()
            healed = wait_for(client, token, lambda p: p["ai_error"] is None and p["pending"]["player"] == 0)
            assert healed["version"] >= 3
        with TestClient(create_app(postgres_url)) as client:  # every acknowledged action, once
            assert state(client, token)["version"] == healed["version"]
    finally:
        proxy.stop()
