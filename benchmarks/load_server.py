"""Bounded loopback load test of the web server through its HTTP API, with real games.

Starts ``warhorn serve`` as a subprocess on 127.0.0.1 (its own SQLite file in a
temporary folder, or ``--database-url``), or targets ``--url`` (loopback only),
then runs N concurrent games for T seconds: Conquest of Nerath, Defenders of the
Realm (``--game mix``, the default: every other game is each), or one of them, or
the fixture game ``dice-race``. Every seat is a "human" seat driven by this
script with uniformly random legal actions, so each action is one HTTP round
trip: ``GET`` the decider's state (its legal actions) unless the reply to the last
action already was it, ``POST`` one of them with the version it was chosen on.
A finished game is replaced by a new one. The games are shared among
``--processes`` client processes (one Python client process saturates a core
first). ``--ai-seats K`` makes the last K seats server-side
random AI seats instead (their actions then happen inside the server).
``--think-ms`` adds a pause before each action (default 0: no think time, so the
server is saturated and the latency is mostly queueing).
``--background-ai-games N`` first creates N games whose every seat is a server-side AI of
``--background-ai-kind`` (default ``mcts``; the game of ``--game``, Nerath for ``mix``), which the server
plays by itself meanwhile: the latency of the human actions then shows whether requests wait behind AI
searches; the AI actions those games made during the run are reported. ``--serve-arg`` passes an option
to ``warhorn serve`` (repeatable), e.g. ``--serve-arg=--ai-workers=1``.

Reports the p50/p95/p99 round-trip latency of the action POSTs (overall and per
game), the time spent inside the app (``Server-Timing``), throughput, errors.
``--restart-at S`` kills the server (SIGKILL, no graceful shutdown) S seconds in
and starts it again on the same database; at the end every game is read back
after the restart (its summary and a seat's state, which the server rebuilds by
replaying the stored action log) and every action the server acknowledged must
still be there: lost actions = acknowledged version minus stored version, summed.

Bounded: at most 200 games, 600 seconds, 8 client processes, loopback only, and
every request times out after 30 s.

Example: ``python benchmarks/load_server.py --games 10 --seconds 20``; the issue-7 run:
``nice -n 5 python benchmarks/load_server.py --games 50 --seconds 120 --restart-at 60``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise SystemExit(f"refusing {url}: this load script targets loopback addresses only")


class ServerProcess:
    """``warhorn serve`` in a subprocess; the fixture game is registered when asked."""

    def __init__(
        self, port: int, database_url: str, fixture: bool, extra_args: list[str] | None = None
    ) -> None:
        self.port = port
        self.database_url = database_url
        self.fixture = fixture
        self.extra_args = list(extra_args or [])
        self.proc: subprocess.Popen[bytes] | None = None
        self.cpu_seconds_before = 0.0  # CPU time of the server processes that were stopped

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server has used so far, over its restarts (Linux /proc)."""
        used = self.cpu_seconds_before
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rpartition(")")[2].split()
                used += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return used

    def start(self) -> None:
        code = (
            "import sys\n"
            + (
                f"sys.path.insert(0, {str(ROOT / 'tests')!r})\nimport fixture_game\nfixture_game.register()\n"
                if self.fixture
                else ""
            )
            + "from warhorn.cli.app import main\n"
            + f"sys.argv = ['warhorn', 'serve', '--port', '{self.port}', '--ai-delay', '0',"
            + f" '--database-url', {self.database_url!r}, *{self.extra_args!r}]\n"
            + "main()\n"
        )
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/api/catalog", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise SystemExit(f"server exited at start:\n{err}")
        raise SystemExit("server did not start within 20 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.cpu_seconds_before = self.cpu_seconds()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.cpu_seconds_before = self.cpu_seconds()
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


#: The games ``--game mix`` alternates between, and each game's default number of seats.
MIX = ("nerath", "defenders")
DEFAULT_PLAYERS = {"nerath": 4, "defenders": 2, "dice-race": 2}
REQUEST_TIMEOUT = 30.0


@dataclass
class Acknowledged:
    """The highest version the server acknowledged for one game, and a human seat's token to read it back."""

    game: str
    version: int
    token: str


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=dict)  # game -> action POST round trips
    server_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unavailable: int = 0
    games_started: int = 0
    games_finished: int = 0
    acknowledged: dict[str, Acknowledged] = field(default_factory=dict)  # game id -> what was acknowledged
    lost_actions: int = 0
    server_cpu_seconds: float = 0.0  # while the games were played (a started server only)
    by_phase: dict[str, list[float]] = field(default_factory=dict)  # the same round trips, by restart phase

    def merge(self, other: Stats) -> None:
        for game, values in other.latencies.items():
            self.latencies.setdefault(game, []).extend(values)
        self.server_times += other.server_times
        self.errors += other.errors
        self.unavailable += other.unavailable
        self.games_started += other.games_started
        self.games_finished += other.games_finished
        for phase, values in other.by_phase.items():
            self.by_phase.setdefault(phase, []).extend(values)
        self.acknowledged.update(other.acknowledged)


class Reply:
    """The parts of an HTTP answer the load test reads."""

    def __init__(self, status_code: int, headers: dict[str, str], body: bytes) -> None:
        self.status_code = status_code
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


class LoopbackHttp:
    """A minimal HTTP/1.1 keep-alive client on one connection (much cheaper per request than httpx,
    so that on a small machine the load generator does not starve the server it measures)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _request(self, method: str, target: str, body: bytes | None) -> Reply:
        try:
            return await asyncio.wait_for(self._exchange(method, target, body), REQUEST_TIMEOUT)
        except TimeoutError:
            await self.close()
            raise

    async def _exchange(self, method: str, target: str, body: bytes | None) -> Reply:
        if self._writer is None or self._reader is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAccept: application/json\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        try:
            self._writer.write(head.encode() + b"\r\n" + (body or b""))
            await self._writer.drain()
            status_line = await self._reader.readuntil(b"\r\n")
            headers: dict[str, str] = {}
            while True:
                line = await self._reader.readuntil(b"\r\n")
                if line == b"\r\n":
                    break
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            payload = await self._reader.readexactly(int(headers.get("content-length", "0")))
        except (OSError, asyncio.IncompleteReadError):
            await self.close()
            raise
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return Reply(int(status_line.split()[1]), headers, payload)

    async def get(self, path: str, params: dict[str, Any] | None = None) -> Reply:
        query = ("?" + "&".join(f"{k}={v}" for k, v in params.items())) if params else ""
        return await self._request("GET", path + query, None)

    async def post(self, path: str, json: Any) -> Reply:
        return await self._request("POST", path, _dumps(json))

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


TRANSPORT_ERRORS = (OSError, asyncio.IncompleteReadError, TimeoutError)


def game_of_worker(args: argparse.Namespace, worker: int) -> str:
    return MIX[worker % len(MIX)] if args.game == "mix" else str(args.game)


async def drive_game(
    client: LoopbackHttp, args: argparse.Namespace, stats: Stats, stop_at: float, worker: int
) -> None:
    """Play games one after another on this connection until ``stop_at``: random legal actions for every
    human seat, each chosen on a fresh state of its seat and posted with that state's version."""
    rng = random.Random(args.seed * 1000 + worker)
    game_id = game_of_worker(args, worker)
    players = args.players or DEFAULT_PLAYERS.get(game_id, 2)
    seats = ["human"] * (players - args.ai_seats) + ["random"] * args.ai_seats
    latencies = stats.latencies.setdefault(game_id, [])
    restart_at = stop_at - args.seconds + args.restart_at if args.restart_at is not None else None
    while time.monotonic() < stop_at:
        try:
            created = await client.post(
                "/api/games", json={"game": game_id, "seats": seats, "options": {"players": players}}
            )
        except TRANSPORT_ERRORS:
            stats.unavailable += 1
            await asyncio.sleep(0.2)
            continue
        if created.status_code != 201:
            stats.errors.append(f"create {game_id}: {created.status_code} {created.text[:200]}")
            await asyncio.sleep(0.5)
            continue
        stats.games_started += 1
        game = created.json()
        tokens = {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
        any_token = next(iter(tokens.values()))
        decider: int | None = -1  # unknown: ask
        mine: dict[str, Any] | None = None  # the decider's state, when the last reply was it
        while time.monotonic() < stop_at:
            try:
                if decider == -1 or (decider is not None and decider not in tokens):
                    if decider is not None and decider != -1:  # a server-side AI seat decides
                        await asyncio.sleep(0.01)
                    view = await client.get(f"/api/seat/{any_token}", params={"after": 10**9})
                    if view.status_code != 200:
                        stats.errors.append(f"get {game_id}: {view.status_code} {view.text[:200]}")
                        break
                    pending = view.json()["pending"]
                    decider = pending["player"] if pending else None
                    mine = None
                    continue
                if decider is None:
                    stats.games_finished += 1
                    break
                token = tokens[decider]
                if mine is None:
                    reply = await client.get(f"/api/seat/{token}", params={"after": 10**9})
                    if reply.status_code != 200:
                        stats.errors.append(f"get {game_id}: {reply.status_code} {reply.text[:200]}")
                        break
                    mine = reply.json()
                if not mine["legal"]:
                    decider, mine = -1, None
                    continue
                choice = rng.choice(mine["legal"])
                if args.think_ms:
                    await asyncio.sleep(args.think_ms / 1000)
                started = time.perf_counter()
                response = await client.post(
                    f"/api/seat/{token}/actions",
                    json={"version": mine["version"], "action": choice["action"]},
                )
                elapsed = time.perf_counter() - started
            except TRANSPORT_ERRORS:
                stats.unavailable += 1
                decider, mine = -1, None
                await asyncio.sleep(0.2)
                continue
            if response.status_code == 200:
                latencies.append(elapsed)
                if restart_at is not None:
                    phase = "before the restart" if time.monotonic() < restart_at else "after the restart"
                    stats.by_phase.setdefault(phase, []).append(elapsed)
                timing = response.headers.get("server-timing", "")
                if timing.startswith("app;dur="):
                    stats.server_times.append(float(timing[8:]) / 1000)
                body = response.json()
                stats.acknowledged[game["game_id"]] = Acknowledged(game_id, body["version"], any_token)
                decider = body["pending"]["player"] if body["pending"] else None
                # The reply is the posting seat's state: it serves as is when that seat decides again.
                mine = body if decider is not None and body["pending"]["yours"] else None
            else:
                stats.errors.append(
                    f"action {game_id} {choice['notation']!r}: {response.status_code} {response.text[:200]}"
                )
                decider, mine = -1, None


async def drive_games(args: argparse.Namespace, base_url: str, workers: list[int], stop_at: float) -> Stats:
    """One client process: its share of the games, until ``stop_at`` (time.monotonic, system-wide)."""
    stats = Stats()
    parsed = urlparse(base_url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 80

    async def one(worker: int) -> None:
        client = LoopbackHttp(host, port)
        try:
            await drive_game(client, args, stats, stop_at, worker)
        finally:
            await client.close()

    await asyncio.gather(*(one(w) for w in workers))
    return stats


def client_process(args: argparse.Namespace, base_url: str, workers: list[int], stop_at: float) -> Stats:
    return asyncio.run(drive_games(args, base_url, workers, stop_at))


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def run(args: argparse.Namespace, base_url: str, server: ServerProcess | None) -> Stats:
    """Drive the games from ``--processes`` client processes; restart the server if asked; check losses."""
    stop_at = time.monotonic() + args.seconds
    cpu_at_start = server.cpu_seconds() if server is not None else 0.0
    shares = [list(range(args.games))[i :: args.processes] for i in range(args.processes)]
    with ProcessPoolExecutor(args.processes) as pool:
        futures = [pool.submit(client_process, args, base_url, share, stop_at) for share in shares if share]
        if args.restart_at is not None and server is not None:
            time.sleep(args.restart_at)
            print(
                f"killing the server (SIGKILL) at {args.restart_at:.0f} s and starting it again", flush=True
            )
            killed = time.monotonic()
            server.kill()
            server.start()
            print(f"the server answers again after {time.monotonic() - killed:.1f} s", flush=True)
        parts = [f.result() for f in futures]
    stats = Stats()
    stats.server_cpu_seconds = server.cpu_seconds() - cpu_at_start if server is not None else 0.0
    for part in parts:
        stats.merge(part)
    check_nothing_lost(base_url, stats)
    return stats


def start_background_ai_games(args: argparse.Namespace, base_url: str) -> dict[str, int]:
    """Create ``--background-ai-games`` games played only by server-side AI seats: game id → version."""
    game_id = "nerath" if args.game == "mix" else str(args.game)
    players = args.players or DEFAULT_PLAYERS.get(game_id, 2)
    started: dict[str, int] = {}
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT) as client:
        for _ in range(args.background_ai_games):
            created = client.post(
                "/api/games",
                json={
                    "game": game_id,
                    "seats": [args.background_ai_kind] * players,
                    "options": {"players": players},
                },
            )
            if created.status_code != 201:
                raise SystemExit(
                    f"could not create a background AI game: {created.status_code} {created.text}"
                )
            started[created.json()["game_id"]] = 0
    return started


def background_ai_progress(base_url: str, started: dict[str, int]) -> tuple[int, int]:
    """(AI actions the background games made, how many of them are still running)."""
    actions = running = 0
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT) as client:
        for game_id, version in started.items():
            try:
                summary = client.get(f"/api/games/{game_id}").json()
            except httpx.HTTPError:
                return -1, -1  # the server does not answer: unknown
            actions += summary["version"] - version
            running += summary["status"] == "active"
    return actions, running


def check_nothing_lost(base_url: str, stats: Stats) -> int:
    """Read every game back; count the acknowledged actions the server no longer has (errors name them)."""
    lost_actions = 0
    games_with_losses = 0
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT) as client:
        for game_id, ack in stats.acknowledged.items():
            try:
                summary = client.get(f"/api/games/{game_id}")
                seat = client.get(f"/api/seat/{ack.token}", params={"after": 10**9})  # replays the stored log
            except httpx.HTTPError as exc:
                stats.errors.append(f"read-back of {ack.game} game {game_id} failed: {type(exc).__name__}")
                continue
            stored = [r.json()["version"] if r.status_code == 200 else 0 for r in (summary, seat)]
            missing = max(0, ack.version - min(stored))
            if missing:
                lost_actions += missing
                games_with_losses += 1
                stats.errors.append(
                    f"lost: {ack.game} game {game_id} acknowledged version {ack.version}, "
                    f"stored {stored[0]}, resumed {stored[1]}: {summary.text[:80]} {seat.text[:80]}"
                )
    stats.lost_actions = lost_actions
    acknowledged = sum(a.version for a in stats.acknowledged.values())
    print(
        f"read back {len(stats.acknowledged)} games holding {acknowledged} acknowledged actions: "
        f"{lost_actions} actions lost in {games_with_losses} games"
    )
    return lost_actions


def summarise(name: str, values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return f"{name}: no actions"
    p50, p95, p99 = (1000 * percentile(values, q) for q in (0.5, 0.95, 0.99))
    return (
        f"{name}: {len(values)} actions, p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, "
        f"mean {1000 * statistics.fmean(values):.1f} ms, max {1000 * values[-1]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="concurrent games (at most 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (at most 600)")
    parser.add_argument(
        "--game",
        default="mix",
        choices=["mix", *DEFAULT_PLAYERS],
        help="which game; mix (default) alternates nerath and defenders",
    )
    parser.add_argument("--players", type=int, help="seats per game (default: nerath 4, others 2)")
    parser.add_argument("--ai-seats", type=int, default=0, help="seats played by the server's random AI")
    parser.add_argument("--think-ms", type=float, default=0.0, help="pause before each action (ms)")
    parser.add_argument("--url", help="an already running server (loopback only); default: start one")
    parser.add_argument(
        "--database-url", help="database for the started server (default: a temporary SQLite file)"
    )
    parser.add_argument(
        "--restart-at", type=float, help="kill and restart the started server after S seconds"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--background-ai-games",
        type=int,
        default=0,
        help="games played only by server-side AI meanwhile (0..50)",
    )
    parser.add_argument("--background-ai-kind", default="mcts", help="the AI kind of those games' seats")
    parser.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        help="an option for the started warhorn serve (repeatable)",
    )
    parser.add_argument("--processes", type=int, default=2, help="client processes sharing the games (1..8)")
    args = parser.parse_args()
    if not 1 <= args.games <= 200 or not 0 < args.seconds <= 600:
        raise SystemExit("keep it bounded: 1..200 games, up to 600 seconds")
    if not 1 <= args.processes <= 8:
        raise SystemExit("--processes must be 1..8")
    if not 0 <= args.think_ms <= 10_000:
        raise SystemExit("--think-ms must be 0..10000")
    smallest = args.players or min(DEFAULT_PLAYERS[game_of_worker(args, w)] for w in range(2))
    if not 0 <= args.ai_seats < smallest:
        raise SystemExit("--ai-seats must leave at least one human seat")
    if args.restart_at is not None and not 0 < args.restart_at < args.seconds:
        raise SystemExit("--restart-at must fall within the run")
    if not 0 <= args.background_ai_games <= 50:
        raise SystemExit("--background-ai-games must be 0..50")

    server: ServerProcess | None = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            _loopback_only(args.url)
            if args.restart_at is not None:
                raise SystemExit("--restart-at needs the server this script starts (no --url)")
            base_url = args.url.rstrip("/")
        else:
            port = _free_port()
            if args.database_url and not args.database_url.startswith("sqlite"):
                _loopback_only(args.database_url)  # the database server must be on this machine too
            database_url = args.database_url or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
            server = ServerProcess(
                port, database_url, fixture=args.game == "dice-race", extra_args=args.serve_arg
            )
            server.start()
            base_url = f"http://127.0.0.1:{port}"
        try:
            background = start_background_ai_games(args, base_url)
            stats = run(args, base_url, server)
            if background:
                ai_actions, running = background_ai_progress(base_url, background)
                print(
                    f"background: {len(background)} all-{args.background_ai_kind} games made {ai_actions} "
                    f"AI actions during the run; {running} still running at the end"
                )
        finally:
            if server is not None:
                server.stop()
    everything = [v for values in stats.latencies.values() for v in values]
    print(
        f"target {base_url}, {args.games} concurrent games ({args.game}), {args.seconds:.0f} s, "
        f"think time {args.think_ms:.0f} ms, {args.processes} client process(es)"
    )
    print(
        f"throughput: {len(everything) / args.seconds:.1f} actions/s; games started {stats.games_started}, "
        f"finished {stats.games_finished}"
    )
    if stats.server_cpu_seconds and everything:
        print(
            f"server CPU: {stats.server_cpu_seconds:.1f} s while playing, "
            f"{1000 * stats.server_cpu_seconds / len(everything):.2f} ms per action "
            "(every request included: the action, the states read, game creations, the restart)"
        )
    print(summarise("action round trip, all games", everything))
    for game in sorted(stats.latencies):
        print("  " + summarise(game, stats.latencies[game]))
    for phase in ("before the restart", "after the restart"):
        if phase in stats.by_phase:
            print("  " + summarise(phase, stats.by_phase[phase]))
    inside = sorted(stats.server_times)
    if inside:
        print(
            "  inside the server app (Server-Timing): p50 {:.1f} ms, p95 {:.1f} ms, p99 {:.1f} ms".format(
                *(1000 * percentile(inside, q) for q in (0.5, 0.95, 0.99))
            )
        )
    print(
        f"errors: {len(stats.errors)}; lost actions: {stats.lost_actions}; "
        f"requests refused while the server was down (retried): {stats.unavailable}"
    )
    for line in stats.errors[:10]:
        print("  ", line)
    if stats.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
