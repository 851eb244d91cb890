"""A real Ray cluster on this machine's loopback, for tests and the scale benchmark.

:class:`LocalRayCluster` runs ``ray start --head --block`` (the ``ray`` command
beside this interpreter) in its own session and temporary folder, with every
port chosen free up front so that several clusters (other test runs on a
shared machine) never meet, and with generous timeouts so that a loaded
machine does not turn slowness into "RPC Deadline Exceeded". Its ``address``
(``127.0.0.1:PORT``, the head's GCS) and its ``client_address``
(``ray://127.0.0.1:PORT``, Ray Client) are what ``warhorn tournament --backend
ray --address`` joins. Leaving the ``with`` block stops the head (SIGTERM: it stops the
processes it started) and then kills whatever is left of its own process
group — never any other Ray on the machine (no ``ray stop``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType

#: Timeouts (seconds, or ms where named) raised well above Ray's defaults; the environment of the head
#: and of any driver that joins it (:meth:`LocalRayCluster.driver_env`).
PATIENT_RAY_ENV = {
    "RAY_worker_register_timeout_seconds": "600",
    "RAY_gcs_server_request_timeout_seconds": "600",
    "RAY_gcs_rpc_server_reconnect_timeout_s": "600",
    "RAY_gcs_rpc_server_connect_timeout_s": "120",
    "RAY_raylet_client_connect_timeout_milliseconds": "120000",
    "RAY_health_check_initial_delay_ms": "30000",
    "RAY_health_check_period_ms": "10000",
    "RAY_health_check_timeout_ms": "60000",
    "RAY_health_check_failure_threshold": "30",
    "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "300",
    "RAY_USAGE_STATS_ENABLED": "0",
    # no token authentication on this loopback-only cluster: Ray keeps one token per user (~/.ray), which
    # other clusters started on a shared machine may replace while this one runs
    "RAY_AUTH_MODE": "disabled",
    "RAY_DISABLE_DOCKER_CPU_WARNING": "1",
}


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports free on loopback right now (held open together while choosing)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _free_port_range(size: int) -> tuple[int, int]:
    """A run of ``size`` consecutive ports, none listening now, away from the ephemeral range."""
    for start in range(20_000 + (os.getpid() % 200) * 50, 32_000, 50):
        if all(_port_free(port) for port in range(start, start + size)):
            return start, start + size - 1
    raise RuntimeError("no free range of worker ports between 20000 and 32000")


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class LocalRayCluster:
    """``with LocalRayCluster(cpus=1) as cluster: …cluster.address…`` (see the module doc)."""

    def __init__(self, cpus: int = 1, start_timeout_s: float = 300.0, attempts: int = 3) -> None:
        self.cpus = cpus
        self.attempts = attempts
        self.start_timeout_s = start_timeout_s
        self.address = ""
        self.client_address = ""
        self._process: subprocess.Popen[str] | None = None
        self._folder = ""
        self._output: list[str] = []

    def driver_env(self) -> dict[str, str]:
        """The environment for a driver process joining this cluster (patient timeouts, no RAY_ADDRESS)."""
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        return {**env, **PATIENT_RAY_ENV}

    def __enter__(self) -> LocalRayCluster:
        """Start the head; a start that fails (Ray gives its raylet a fixed 30 s to register, which a loaded
        machine can miss) is tried again on fresh ports, up to ``attempts`` times."""
        for attempt in range(1, self.attempts + 1):
            try:
                return self._start()
            except RuntimeError:
                if attempt == self.attempts:
                    raise
        raise AssertionError("unreachable")

    def _start(self) -> LocalRayCluster:
        ray = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
        if ray is None:
            raise RuntimeError("the ray command is not installed (pip install 'warhorn[ray]')")
        # a short folder: Ray's socket paths must fit in 107 bytes
        self._folder = tempfile.mkdtemp(prefix="wray", dir="/tmp")
        (gcs, node_manager, object_manager, client, agent_listen, agent_grpc, metrics, runtime_env) = (
            free_ports(8)
        )
        low, high = _free_port_range(40)
        self.address = f"127.0.0.1:{gcs}"
        self.client_address = f"ray://127.0.0.1:{client}"
        command = [
            ray, "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={gcs}",
            f"--num-cpus={self.cpus}", "--num-gpus=0", f"--temp-dir={self._folder}",
            "--include-dashboard=false", "--disable-usage-stats",
            f"--node-manager-port={node_manager}", f"--object-manager-port={object_manager}",
            f"--ray-client-server-port={client}", f"--dashboard-agent-listen-port={agent_listen}",
            f"--dashboard-agent-grpc-port={agent_grpc}", f"--metrics-export-port={metrics}",
            f"--runtime-env-agent-port={runtime_env}",
            f"--min-worker-port={low}", f"--max-worker-port={high}",
        ]  # fmt: skip
        self._process = subprocess.Popen(
            command,
            env=self.driver_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream: object) -> None:
            assert self._process is not None and self._process.stdout is not None
            for line in self._process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, args=(None,), daemon=True).start()
        deadline = time.monotonic() + self.start_timeout_s
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._stop()
                raise RuntimeError(f"the Ray head did not start in {self.start_timeout_s:.0f} s") from None
            if line is None:
                self._stop()
                raise RuntimeError("the Ray head exited while starting:\n" + "".join(self._output[-30:]))
            self._output.append(line)
            if "Ray runtime started" in line:
                return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stop()

    def _stop(self) -> None:
        process = self._process
        if process is not None:
            group = process.pid  # the head leads its own session and process group
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)  # anything of this cluster still running
            self._process = None
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = ""
