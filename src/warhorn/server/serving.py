"""Running the app under uvicorn: a bound on the time a request's headers may take, and a clean stop.

:class:`HeaderTimeoutProtocol` is uvicorn's HTTP/1.1 protocol (h11) with one more deadline: a client
that opens a connection, or starts a new request on a kept-alive one, must finish sending the
request's head (request line and headers) within ``HEADER_SECONDS``, else it is answered
``408`` and the connection is closed. Uvicorn bounds the idle time between requests
(``timeout_keep_alive``) but not a head that never ends; the body's deadline is
:class:`warhorn.server.limits.RequestBodyLimit`'s.

:class:`WarhornServer` is uvicorn's server that, when it is asked to stop (Ctrl+C, SIGTERM), first
ends the live streams (server-sent events) of the seats' pages, which would otherwise hold their
connections until uvicorn's graceful-shutdown timeout and be cancelled with a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("warhorn.server")

#: Seconds a client has to send a request's head (request line and headers).
HEADER_SECONDS = 10.0

_TIMEOUT_BODY = b'{"error": "the request\'s headers did not arrive in time", "code": "request_timeout"}'
_TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY)
)


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head (see the module's docstring)."""

    header_seconds: float = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._arm_head_deadline()

    def data_received(self, data: bytes) -> None:
        # the first bytes of a request on a kept-alive connection: its head has the deadline from now
        if self._head_deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm_head_deadline()
        super().data_received(data)
        if self.cycle is not None and self.cycle is not self._waiting_after:
            self._disarm_head_deadline()  # a request's head arrived

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_deadline()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        self._disarm_head_deadline()
        self._waiting_after = self.cycle  # the head awaited is the one after this cycle
        self._head_deadline = self.loop.call_later(self.header_seconds, self._head_too_late)

    def _disarm_head_deadline(self) -> None:
        deadline = getattr(self, "_head_deadline", None)
        if deadline is not None:
            deadline.cancel()
        self._head_deadline = None

    def _head_too_late(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing() or self.cycle is not self._waiting_after:
            return
        log.info("closed a connection whose request headers did not arrive within %g s", self.header_seconds)
        self.transport.write(_TIMEOUT_ANSWER)
        self.transport.close()


class WarhornServer(uvicorn.Server):
    """uvicorn's server; on stopping, the seats' live streams end first (see the module's docstring)."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hub = getattr(getattr(self.config.app, "state", None), "hub", None)
        if hub is not None:
            hub.close_streams()
        await super().shutdown(sockets)


def run_server(app: Any, **settings: Any) -> None:
    """Serve ``app`` until stopped (Ctrl+C, SIGTERM): :class:`WarhornServer` with :func:`server_config`."""
    WarhornServer(server_config(app, **settings)).run()


def server_config(app: Any, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the app: the h11 protocol with the head deadline (the app's
    ``ServerLimits.request_head_seconds``, else ``HEADER_SECONDS``), and ``settings``."""
    limits = getattr(getattr(app, "state", None), "limits", None)
    seconds = getattr(limits, "request_head_seconds", HEADER_SECONDS)
    protocol = type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_seconds": seconds})
    return uvicorn.Config(app, http=protocol, **settings)
