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
            rest = list(lines)  # the server ends the stream: the iteration stops
        assert proc.wait(timeout=30) in (0, 130)  # 130: stopped by SIGINT, as shells report it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    log = proc.stderr.read().decode()
    assert "Traceback" not in log and "CancelledError" not in log, log
    # a stream left open holds the server for its graceful-shutdown time (3 s) and is then cancelled,
    # which uvicorn logs: its absence, not a stopwatch (the machine may be loaded), shows the stream
    # was ended at once
    assert "timeout graceful shutdown exceeded" not in log, log
    assert all("update" not in line for line in rest)


def _start(tmp_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-c", _serve_code(port, f"sqlite:///{tmp_path / 'w.sqlite3'}")],
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline, "the server did not start"


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(p) for p in (task / "children").read_text().split()}
    return found


def _ended(pid: int) -> bool:
    """Gone, or a zombie nobody reaped (a container's first process may not reap orphans)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_ai_worker_processes_end_with_the_server_even_when_it_is_killed(tmp_path: Path) -> None:
    """warhorn serve runs AI searches in forked worker processes: none outlives the server, whether it
    stops on Ctrl+C or is killed outright (SIGKILL), when no one could tell them to stop."""
    for stop in (signal.SIGINT, signal.SIGKILL):
        proc, url = _start(tmp_path)
        try:
            game = httpx.post(
                f"{url}/api/games", json={"game": "dice-race", "seats": ["mcts", "mcts"]}
            ).json()
            deadline = time.monotonic() + 30
            while httpx.get(f"{url}/api/games/{game['game_id']}").json()["version"] < 1:
                assert time.monotonic() < deadline, "the AI seats did not move"
                time.sleep(0.05)
            workers = _children(proc.pid)
            assert workers, "no AI worker process"
            proc.send_signal(stop)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        deadline = time.monotonic() + 30
        while not all(_ended(w) for w in workers):
            assert time.monotonic() < deadline, f"AI workers outlived the server ({stop.name})"
            time.sleep(0.05)
