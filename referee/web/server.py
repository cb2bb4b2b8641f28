"""The production server: granian (HTTP in Rust, the app on a few Python threads in each worker process), run
as ``make serve``, ``python -m referee.web.server``, or the command ``command`` prints. The load test and the
tests that kill a running server start it the same way.

Chosen over gunicorn because HTTP parsing and connection handling leave Python: about a third less CPU a
request side by side (``docs/decisions.md``, ``docs/bench.md``).

``HOST`` (default 127.0.0.1), ``PORT`` (8000), ``WORKERS`` (processes) and ``THREADS`` (Python threads in each)
override the defaults; ``ACCESS_LOG=1`` logs each request (its game links masked, ``public.py``).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from .settings import Settings

WORKERS = 2  # processes: one a core (two here); see docs/deploy.md for the side-by-side runs behind these numbers
THREADS = 3  # Python threads in each (the database pool of each process is sized for them: ``pool_options``)
# Connections a worker holds open at once (granian's backpressure). granian takes a permit before it accepts a
# connection and gives it back only when the connection closes, so a phone's kept-alive connection counts while
# it waits for its next poll, not only while a request runs. granian's default is the backlog shared out among
# the workers (2,048 each): at 550 tables (about 3,850 phones' connections over two workers) saves waited up to
# 4.7 s before the app saw them, and none did with this (docs/bench.md). Each connection needs a file
# descriptor: docs/deploy.md says how many open files to allow.
BACKPRESSURE = 8192
KEEP_ALIVE_MS = 10_000  # how long a client may take to send a request's headers, the next ones on a connection
# (and the first: HTTP/1.1 only, ``--http 1``. granian's default first waits to learn whether a connection speaks
# HTTP/1 or HTTP/2, with no limit: a connection that never sent a byte stayed open for ever. Browsers speak
# HTTP/2 only over TLS, which the proxy in front ends.)
# A worker not stopped this many seconds after the server was asked to stop is killed. Without it granian waits
# for ever: a worker asked while it was still starting never stopped by itself (4 of 6 servers stopped just as
# they began to answer), nor would one whose thread waits on a request body that never comes.
STOP_WITHIN_S = 10
ROOT = Path(__file__).resolve().parents[2]


def command(host: str = "127.0.0.1", port: int = 8000, workers: int = WORKERS, threads: int = THREADS,
            access_log: bool = False) -> list[str]:
    """The command line that serves ``app:app`` (run it in the project's folder)."""
    granian = shutil.which("granian", path=str(Path(sys.executable).parent)) or "granian"
    return [granian, "--interface", "wsgi", "--workers", str(workers), "--blocking-threads", str(threads),
            "--host", host, "--port", str(port), "--backlog", "4096",
            "--backpressure", str(BACKPRESSURE), "--no-ws", "--http", "1",
            "--http1-header-read-timeout", str(KEEP_ALIVE_MS), "--respawn-failed-workers",
            "--workers-kill-timeout", str(STOP_WITHIN_S),
            "--log-level", "warning", *(["--access-log"] if access_log else []), "app:app"]


def main() -> None:
    s = Settings.from_env()
    args = command(s.host or "127.0.0.1", s.port, s.workers or WORKERS, s.threads or THREADS, s.access_log)
    os.chdir(ROOT)
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
