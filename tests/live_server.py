"""A real uvicorn server on a loopback port, in a thread (for the server and browser tests)."""

from __future__ import annotations

import socket
import threading
import time

from fastapi import FastAPI


class LiveServer:
    """A real uvicorn server on a loopback port, in a thread."""

    def __init__(self, app: FastAPI) -> None:
        from warhorn.server.serving import WarhornServer, server_config

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.app = app
        config = server_config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on")
        self.server = WarhornServer(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
