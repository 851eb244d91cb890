"""Stopping the server (issue #19): Ctrl+C (SIGINT) with a seat's page open ends its live stream at once
and the server exits cleanly, without the graceful-shutdown wait and the CancelledError traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def _serve_code(port: int, database_url: str) -> str:
    return (
        f"import sys\nsys.path.insert(0, {str(ROOT / 'tests')!r})\n"
        "import fixture_game\nfixture_game.register()\n"
        "from warhorn.cli.app import main\n"
        f"sys.argv = ['warhorn', 'serve', '--port', '{port}', '--ai-delay', '0', '--database-url', "
        f"{database_url!r}]\nmain()\n"
    )


def test_ctrl_c_with_a_live_stream_open_exits_at_once_without_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen(
        [sys.executable, "-c", _serve_code(port, f"sqlite:///{tmp_path / 'w.sqlite3'}")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
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
        created = httpx.post(f"{url}/api/games", json={"game": "dice-race", "seats": ["human", "human"]})
        token = created.json()["seats"][0]["token"]
        # a seat's page: its live stream (server-sent events) stays open
        with (
            httpx.Client(timeout=10) as client,
            client.stream("GET", f"{url}/api/seat/{token}/stream") as live,
        ):
            lines = live.iter_lines()
            while not next(lines).startswith("event: update"):
                pass
            proc.send_signal(signal.SIGINT)
            stopping = time.monotonic()
            rest = list(lines)  # the server ends the stream: the iteration stops
            ended = time.monotonic() - stopping
        assert proc.wait(timeout=10) in (0, 130)  # 130: stopped by SIGINT, as shells report it
        exited = time.monotonic() - stopping
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    log = proc.stderr.read().decode()
    assert "Traceback" not in log and "CancelledError" not in log, log
    assert "timeout graceful shutdown exceeded" not in log, log
    assert ended < 1.5 and exited < 2.5, (ended, exited, log)
    assert all("update" not in line for line in rest)
