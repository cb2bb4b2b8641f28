"""Writes to a game on SQLite wait their turn in a queue of the app's own, not in SQLite's busy handler.

SQLite lets one writer into a file at a time; a writer that finds it taken sleeps and tries again, sleeping
longer each time (1, 2, 5, 10 … 100 ms), and one that arrives later may get in first. Under load a save
waited for the lock most of its time: at 100 tables the version bump that opens a write took 2 ms at the
median, 43 ms at the 90th percentile and 843 ms at the 99th, while the write itself held the lock for 11 ms
at the 90th (``docs/bench.md``). Here a write takes its turn first: threads of one process wait on a lock
that wakes the next one at once, and processes (the server's workers, or another server on the same file) take
turns on an advisory lock on a file beside the database, checked every half millisecond. A turn not had
within the database's busy timeout fails as a locked database does (503, nothing written).

PostgreSQL locks rows, and needs none of this (its queue is a no-op).

Every write of a request takes its turn (``every_write_in_turn``): a statement that changes a row takes the turn
if its thread does not hold it already, and the turn is given back when the transaction ends. A new route
cannot forget it. A write that must read under the turn (a game's version, a group's names) takes it first,
explicitly, with ``with queue:``; the turn is re-entrant.
"""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from flask import Flask, has_request_context
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: the threads of one process still take turns
    fcntl = None  # type: ignore[assignment]

POLL = 0.0005  # seconds between two looks at another process's turn


def beside_sqlite_file(url: str, ending: str) -> Path | None:
    """A file of the app's beside a SQLite database's (``rummy.sqlite3`` → ``rummy<ending>``); none for another
    database, or one in memory (which only one process can open)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    database = Path(parsed.database)
    return database.with_name(database.stem + ending)


def lock_path(url: str) -> Path | None:
    """The file whose lock gives the turn to write a SQLite database."""
    return beside_sqlite_file(url, ".writes.lock")


class WriteQueue:
    """``with queue:`` around a write transaction: one writer at a time, in turn. Re-entrant in a thread."""

    def __init__(self, path: Path | None, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._threads = threading.Lock()  # (a thread that holds its turn counts its depth instead)
        self._depth = threading.local()
        self._file: tuple[int, int] | None = None  # (pid, fd): a forked worker opens its own

    def _fd(self) -> int:
        pid = os.getpid()
        if self._file is None or self._file[0] != pid:
            assert self.path is not None
            self._file = (pid, os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        return self._file[1]

    def __enter__(self) -> WriteQueue:
        if self.path is None:
            return self
        depth = getattr(self._depth, "n", 0)
        if depth:
            self._depth.n = depth + 1
            return self
        deadline = time.monotonic() + self.timeout
        if not self._threads.acquire(timeout=self.timeout):
            raise _locked()
        try:
            if fcntl is not None:
                fd = self._fd()
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= deadline:
                            raise _locked() from None
                        time.sleep(POLL)
        except BaseException:
            self._threads.release()
            raise
        self._depth.n = 1
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.path is None:
            return
        self._depth.n -= 1
        if self._depth.n:
            return
        try:
            if fcntl is not None:
                fcntl.flock(self._fd(), fcntl.LOCK_UN)
        finally:
            self._threads.release()


def _locked() -> OperationalError:
    """What a write that never got its turn raises: the error a locked SQLite database gives (answered 503)."""
    return OperationalError("(waiting for the turn to write)", None, Exception("database is locked"))


_CHANGES = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def every_write_in_turn(app: Flask, engine: Engine, session: Any) -> None:
    """A request's first statement that changes a row takes the turn to write (``app.extensions["write_queue"]``)
    unless its thread holds it already; the turn is given back once the session's transaction has ended
    (committed or rolled back), or, at the latest, when the request ends. SQLite's driver opens a transaction
    at that same statement, not at the reads before it, so the whole of the write is in the turn."""
    held = threading.local()

    def release() -> None:
        queue = getattr(held, "queue", None)
        if queue is not None:
            held.queue = None
            queue.__exit__(None, None, None)

    @event.listens_for(engine, "before_cursor_execute")
    def _take(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if getattr(held, "queue", None) is None and has_request_context() and _CHANGES.match(statement):
            queue = app.extensions["write_queue"]
            queue.__enter__()
            held.queue = queue

    @event.listens_for(session, "after_transaction_end")
    def _ended(sess: Any, transaction: Any) -> None:
        if transaction.parent is None:
            release()

    @app.teardown_request
    def _request_ended(exc: BaseException | None) -> None:
        if getattr(held, "queue", None) is not None:  # a transaction left open: ended here, not later
            try:
                session.rollback()
            finally:
                release()
