"""What one server lets its clients spend: games, AI kinds, AI thinking time, request time and size.

:class:`ServerLimits` holds the settings (``warhorn serve`` fills them from its options, with the
safe defaults of :meth:`ServerLimits.public` when it listens beyond loopback);
:class:`RequestBodyLimit` is the ASGI middleware that reads each request's body within a time and
size bound, so a client that promises more bytes than it sends (or sends them one at a time) gets
``408`` instead of holding a connection forever; :class:`CreationRateLimit` counts the games each
client created in the last hour.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Any, Literal

import pydantic

#: Hosts that are this machine only: no public defaults when the server listens on one of these.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class ServerLimits(pydantic.BaseModel):
    """What the server allows. ``None`` means: no limit."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    #: Games one client (IP address) may create per hour.
    games_per_client_per_hour: int | None = pydantic.Field(default=None, ge=1, le=100_000)
    #: Unfinished games the server keeps at once; creating one more is refused.
    max_open_games: int | None = pydantic.Field(default=None, ge=1, le=1_000_000)
    #: The AI kinds a seat may be (None: every registered kind).
    ai_kinds: frozenset[str] | None = None
    #: Seconds an AI seat may think per action (None: the agent's own budget, in iterations).
    ai_think_seconds: float | None = pydantic.Field(default=None, gt=0, le=600)
    #: Workers that run AI searches: AI work waits for one of these, never for the request threads.
    ai_workers: int = pydantic.Field(default=1, ge=1, le=64)
    #: ``threads`` (in the server process) or ``processes`` (forked workers: a search then does not
    #: hold the server's interpreter lock; each move's state is copied to the worker). ``warhorn serve``
    #: uses processes (:meth:`for_host`); threads are the default of an app built in a program or test.
    ai_pool: Literal["threads", "processes"] = "threads"
    #: Seconds a client has to send a request's head (request line and headers; see
    #: :mod:`warhorn.server.serving`).
    request_head_seconds: float = pydantic.Field(default=10.0, gt=0, le=3600)
    #: Seconds a client has to send a request's whole body, and the largest body accepted.
    request_body_seconds: float = pydantic.Field(default=10.0, gt=0, le=3600)
    max_body_bytes: int = pydantic.Field(default=1_000_000, ge=1_000, le=100_000_000)

    @classmethod
    def public(cls, **overrides: Any) -> ServerLimits:
        """The defaults for a server others can reach: bounded games, creation rate and AI thinking."""
        defaults: dict[str, Any] = {
            "games_per_client_per_hour": 12,
            "max_open_games": 32,
            "ai_think_seconds": 1.0,
            "ai_pool": "processes",
        }
        return cls(**{**defaults, **{k: v for k, v in overrides.items() if v is not None}})

    @classmethod
    def for_host(cls, host: str, **overrides: Any) -> ServerLimits:
        """What ``warhorn serve`` applies: the public defaults unless ``host`` is loopback, and on
        loopback AI searches in a worker process (a human's action then waits less while many AI games
        run: docs/benchmarks.md); ``overrides`` (None = not given) win."""
        if host in LOOPBACK_HOSTS:
            given = {k: v for k, v in overrides.items() if v is not None}
            return cls(**{"ai_pool": "processes", **given})
        return cls.public(**overrides)


class CreationRateLimit:
    """How many games each client created within the last hour (kept in memory)."""

    WINDOW_SECONDS = 3600.0

    def __init__(self, per_hour: int | None) -> None:
        self.per_hour = per_hour
        self._created: dict[str, deque[float]] = {}

    def allow(self, client: str, now: float | None = None) -> bool:
        """Whether ``client`` may create one more game now; if so, it is counted."""
        if self.per_hour is None:
            return True
        now = time.monotonic() if now is None else now
        stamps = self._created.setdefault(client, deque())
        while stamps and stamps[0] <= now - self.WINDOW_SECONDS:
            stamps.popleft()
        if len(stamps) >= self.per_hour:
            return False
        stamps.append(now)
        if len(self._created) > 100_000:  # forget clients with nothing in the window
            for key in [k for k, v in self._created.items() if not v]:
                del self._created[key]
        return True


class RequestBodyLimit:
    """ASGI middleware: reads an HTTP request's whole body within ``seconds`` and ``max_bytes``.

    The body is read before the app sees the request and then handed to it as one message; later
    ``receive`` calls (a stream waiting for the client to leave) go to the client. A body not complete
    in time is answered ``408`` and one too large ``413``; the server then closes the connection.
    """

    def __init__(self, app: Any, *, seconds: float, max_bytes: int) -> None:
        self.app = app
        self.seconds = seconds
        self.max_bytes = max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        import asyncio

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), timeout=max(deadline - loop.time(), 0.0))
            except TimeoutError:
                await _refuse(
                    send,
                    408,
                    "request_timeout",
                    f"the request's body did not arrive within {self.seconds:g} s",
                )
                return
            if message["type"] == "http.disconnect":
                return
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await _refuse(
                    send, 413, "too_large", f"the request's body is larger than {self.max_bytes} bytes"
                )
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Any, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": message, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
