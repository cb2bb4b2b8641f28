"""The write limit's counts, kept in the app's own database (``RATELIMIT_STORAGE_URI=database://``, the default),
so that every server process and every server on one database counts a client's writes together: two gunicorn
workers, or two machines, never double a client's allowance, and a restart forgets nothing.

A storage for the ``limits`` library (what Flask-Limiter counts with), fixed windows: one row per client and
limit, its count and when its window ends. A write's hit is one statement (an upsert that starts a new window
when the old one has ended, else adds one, and returns the count), in a transaction of its own, committed
before the request goes on (on PostgreSQL without waiting for the disk: a crash may forget the last counts,
never a game). Rows whose window ended are swept now and then.
"""

from __future__ import annotations

import time
from typing import Any

from flask import g, has_request_context
from limits.storage import Storage
from sqlalchemy import case, delete, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from .models import RateCount, db

SWEEP_EVERY = 60.0  # seconds between two sweeps of ended windows, in each process
COUNTS = RateCount.__table__


def clock() -> float:
    """Seconds since the epoch (one clock for every server: the machines' clocks, kept in step by NTP)."""
    return time.time()


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
        dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
        new = dialect.insert(COUNTS).values(key=key, count=amount, expires_at=now + expiry)
        ended = COUNTS.c.expires_at <= now  # (the row as it was: both assignments read the old values)
        stmt = new.on_conflict_do_update(index_elements=[COUNTS.c.key], set_={
            "count": case((ended, new.excluded.count), else_=COUNTS.c.count + new.excluded.count),
            "expires_at": case((ended, new.excluded.expires_at), else_=COUNTS.c.expires_at),
        }).returning(COUNTS.c.count, COUNTS.c.expires_at)
        with db.engine.begin() as conn:
            if dialect is postgresql:  # a count need not wait for the disk: a crash forgets a few (SQLite's WAL
                conn.execute(text("SET LOCAL synchronous_commit TO OFF"))  # with synchronous=NORMAL never waits)
            row = conn.execute(stmt).one()
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
        with db.engine.connect() as conn:
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
            with db.engine.connect() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with db.engine.begin() as conn:
            return conn.execute(delete(COUNTS)).rowcount

    def clear(self, key: str) -> None:
        with db.engine.begin() as conn:
            conn.execute(delete(COUNTS).where(COUNTS.c.key == key))
