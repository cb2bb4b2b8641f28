"""The write limit's counts, kept in the app's own database (``RATELIMIT_STORAGE_URI=database://``, the default),
so that every server process and every server on one database counts a client's writes together: two gunicorn
workers, or two machines, never double a client's allowance, and a restart forgets nothing.

A storage for the ``limits`` library (what Flask-Limiter counts with), fixed windows: one row per client and
limit, its count and when its window ends. A write's hit is one statement (an upsert that starts a new window
when the old one has ended, else adds one, and returns the count), in a transaction of its own, committed
before the request goes on (on PostgreSQL through connections of their own that commit each statement and
do not wait for the disk: a crash may forget the last counts, never a game). Rows whose window ended are
swept now and then.

On SQLite the counts live in a file of their own beside the games' (``rummy.sqlite3`` → ``rummy.limits.sqlite3``),
made on first use: SQLite lets one writer at a time into a file, and a save's two counts queued behind the
saves (and the saves behind them) made the saves' p99 several times slower under load. Every process and server
on the games' file finds the same counts' file. (A database in memory keeps its counts in itself.)
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import current_app, g, has_request_context
from limits.storage import Storage
from sqlalchemy import Engine, bindparam, case, create_engine, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from .models import RateCount, db
from .writequeue import WriteQueue, beside_sqlite_file, lock_path

SWEEP_EVERY = 60.0  # seconds between two sweeps of ended windows, in each process
COUNTS = RateCount.__table__
NO_QUEUE = WriteQueue(None, 0)  # (the database takes turns by itself)


def clock() -> float:
    """Seconds since the epoch (one clock for every server: the machines' clocks, kept in step by NTP)."""
    return time.time()


def counts_path(url: str) -> Path | None:
    """Where the counts of a game database live, if not in it: a SQLite file's own counts' file."""
    return beside_sqlite_file(url, ".limits.sqlite3")


_lock = threading.Lock()


def counts_engine() -> Engine:
    """The engine the counts are kept through, made the first time a process asks: on SQLite one on the counts'
    file (with its table), on PostgreSQL one of autocommit connections to the app's database, else the app's."""
    app = current_app
    engine: Engine | None = app.extensions.get("rate_counts_engine")
    if engine is not None:
        return engine
    with _lock:
        if "rate_counts_engine" not in app.extensions:
            url = app.config["SQLALCHEMY_DATABASE_URI"]
            path = counts_path(url)
            if path is not None:
                timeout = app.config.get("SQLITE_TIMEOUT", 5.0)
                engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": timeout}, hide_parameters=True)
                COUNTS.create(engine, checkfirst=True)
                # two phones of a table saving at once count on the same row: they take turns as game writes do
                app.extensions["rate_counts_queue"] = WriteQueue(lock_path(f"sqlite:///{path}"), timeout)
            elif db.engine.dialect.name == "postgresql":
                # connections of their own that never wait for the disk (a crash forgets the last counts, never
                # a game) and commit each statement (an upsert is one): a count is one round trip, not five
                engine = create_engine(db.engine.url, isolation_level="AUTOCOMMIT", hide_parameters=True,
                                       connect_args={"options": "-c synchronous_commit=off"},
                                       pool_size=2, max_overflow=6, pool_recycle=1800)
            else:
                engine = db.engine
            app.extensions["rate_counts_engine"] = engine
        return app.extensions["rate_counts_engine"]  # type: ignore[no-any-return]


@lru_cache(maxsize=2)
def _upsert(dialect_name: str) -> Any:
    """A count's upsert, built once (building and keying it cost as much as sending it): a new window starts at
    ``amount``, else the count grows by it."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    new = dialect.insert(COUNTS).values(key=bindparam("key"), count=bindparam("amount"),
                                        expires_at=bindparam("until"))
    ended = COUNTS.c.expires_at <= bindparam("now")  # (the row as it was: both assignments read the old values)
    return new.on_conflict_do_update(index_elements=[COUNTS.c.key], set_={
        "count": case((ended, new.excluded.count), else_=COUNTS.c.count + new.excluded.count),
        "expires_at": case((ended, new.excluded.expires_at), else_=COUNTS.c.expires_at),
    }).returning(COUNTS.c.count, COUNTS.c.expires_at)


class DatabaseStorage(Storage):
    STORAGE_SCHEME = ["database"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions, **options)
        self._swept = 0.0

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = clock()
        engine = counts_engine()
        with current_app.extensions.get("rate_counts_queue", NO_QUEUE), engine.begin() as conn:
            row = conn.execute(_upsert(engine.dialect.name), {"key": key, "amount": amount, "until": now + expiry,
                                                              "now": now}).one()
            count, expires = int(row[0]), float(row[1])
            if now - self._swept > SWEEP_EVERY:
                self._swept = now
                conn.execute(delete(COUNTS).where(COUNTS.c.expires_at < now))
        if has_request_context():  # what this request's hit left, for its X-RateLimit headers (no second read)
            g.setdefault("rate_counts", {})[key] = (count, expires)
        return count

    def _seen(self, key: str) -> tuple[int, float] | None:
        """The count and window end this request's own hit left (what its headers report, even if the window
        ended a moment later), else what the database holds now for a window not over yet."""
        if has_request_context() and key in g.get("rate_counts", {}):
            return g.rate_counts[key]  # type: ignore[no-any-return]
        with counts_engine().connect() as conn:
            row = conn.execute(select(COUNTS.c.count, COUNTS.c.expires_at).where(COUNTS.c.key == key)).first()
        if row is None or float(row[1]) <= clock():
            return None
        return int(row[0]), float(row[1])

    def get(self, key: str) -> int:
        seen = self._seen(key)
        return seen[0] if seen is not None else 0

    def get_expiry(self, key: str) -> float:
        seen = self._seen(key)
        return seen[1] if seen is not None else clock()

    def check(self) -> bool:
        try:
            with counts_engine().connect() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with counts_engine().begin() as conn:
            return conn.execute(delete(COUNTS)).rowcount

    def clear(self, key: str) -> None:
        with counts_engine().begin() as conn:
            conn.execute(delete(COUNTS).where(COUNTS.c.key == key))
