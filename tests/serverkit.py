"""The app served as ``make serve`` serves it: the production server (``referee.web.server``) in a subprocess of
its own, on a free loopback port, on a migrated database (SQLite or PostgreSQL). A test can stop it (SIGTERM),
kill it (SIGKILL, workers and all) and start it again on the same port and the same database, as a laptop's
server restarts at a real table. The ``serve`` and ``served`` fixtures (``tests/conftest.py``) end every process
they started, whatever the test did."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from referee.web import server

ROOT = Path(__file__).resolve().parents[1]
START_WITHIN_S = 60  # a busy machine starts the server slowly (two workers, each loading the app)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """One server on one database; ``start`` and ``stop`` as often as a test needs, always on the same port."""

    def __init__(self, database_url: str, log: Path | None = None, access_log: bool = False,
                 env: dict[str, str] | None = None, host: str = "127.0.0.1",
                 module: str | None = None) -> None:
        """``module``: a ``python -m`` entry point to start instead of the server's own command (it gets
        ``HOST`` and ``PORT`` in its environment: ``referee.web.host``, ``make table``'s)."""
        self.database_url = database_url
        self.host = host
        self.module = module
        self.port = free_port()
        self.log = log
        self.access_log = access_log
        # one client saving as fast as it can, on purpose; a fixed secret, so that a phone's session and form
        # token outlive a restart as they do on a real server
        self.env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="served-tests",
                        RATE_LIMIT_WRITES="100000 per minute", **(env or {}))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> Served:
        assert not self.running, "already running"
        out: Any = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            args = server.command(host=self.host, port=self.port, workers=2, access_log=self.access_log)
            env = self.env
            if self.module is not None:
                args = [sys.executable, "-m", self.module]
                env = dict(self.env, HOST=self.host, PORT=str(self.port), WORKERS="2")
            self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)  # (its own group: workers and all)
        finally:
            if out is not subprocess.DEVNULL:
                out.close()  # (the server holds its own copy)
        deadline = time.monotonic() + START_WITHIN_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server ended at once (exit {self.proc.returncode})")
            try:
                conn = http.client.HTTPConnection(self.host, self.port, timeout=1)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start")

    def stop(self, sig: int = signal.SIGTERM, wait_s: float = server.STOP_WITHIN_S + 20) -> None:
        """Ask the server to stop (SIGTERM: as a service manager does) or end it at once (SIGKILL: a power cut,
        the laptop's lid), and wait until it has; killed if it outlives ``wait_s``."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
                self.proc.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass
        self._reap_group()

    def kill(self) -> None:
        self.stop(signal.SIGKILL)

    def restart(self, sig: int = signal.SIGTERM) -> Served:
        self.stop(sig)
        return self.start()

    def close(self) -> None:
        """End everything this server started (its workers outlive a killed parent otherwise)."""
        if self.proc is not None:
            self.stop(signal.SIGKILL, wait_s=10)

    def _reap_group(self) -> None:
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # a worker left behind by its parent's end
        except (ProcessLookupError, PermissionError):
            pass

    # ---------------------------------------------------------------- a client of the JSON API
    def api(self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None,
            timeout: float = 10, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        headers = {"Content-Type": "application/json", **(headers or {})} | (
            {"Authorization": f"Bearer {token}"} if token else {})
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
