"""The write limit: how many writes (posts that start, change, import or delete a game) one client may send, as
one or more rates (``"10 per second;120 per minute"``, ``RATE_LIMIT_WRITES``), in fixed windows.

The counts are kept in the app's own database, so every server process and every server on one database count
a client's writes together: two server processes, or two machines, never double a client's allowance, and a
restart forgets nothing. One row per client and rate: its count and when its window ends.

A write's hit is **one statement for all of the client's rates**: an upsert of one row per rate that starts a
new window where the old one has ended, else adds one, and returns every count. It is committed before the
request goes on (on PostgreSQL through connections of their own that commit each statement and do not wait for
the disk: a crash may forget the last counts, never a game).
Rows whose window ended are swept now and then. A write over any of its rates is refused (429, with
``Retry-After``), and still counted, as every write sent is.

On SQLite the counts live in a file of their own beside the games' (``rummy.sqlite3`` → ``rummy.limits.sqlite3``),
made on first use: SQLite lets one writer at a time into a file, and counts queued behind the saves (and the saves
behind them) made the saves' p99 several times slower under load. Every process and server on the games' file
finds the same counts' file. (A database in memory keeps its counts in itself.)

This replaced Flask-Limiter, whose stores (memory, Redis, memcached, MongoDB, etcd) do not include the SQL database
every server shares: in memory each worker would count apart (``docs/decisions.md``).
"""

from __future__ import annotations

import math
import re
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import Engine, bindparam, case, create_engine, delete, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

from .models import RateCount, db

SWEEP_EVERY = 60.0  # seconds between two sweeps of ended windows, in each process
COUNTS = RateCount.__table__
UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Rate:
    """``amount`` writes in each window of ``seconds``."""

    amount: int
    seconds: int

    @property
    def key(self) -> str:
        return f"{self.amount}/{self.seconds}s"


@lru_cache(maxsize=8)
def rates(text: str) -> tuple[Rate, ...]:
    """The rates a limit is written as: ``"N per unit"``, ``"N per M units"`` or ``"N/unit"`` (a unit is a
    second, minute, hour or day), several separated by ``;`` or ``,``."""
    found = []
    for part in re.split(r"[;,]", text):
        if not part.strip():
            continue
        m = _RATE.fullmatch(part)
        if m is None or int(m.group(1)) < 1 or (m.group(2) is not None and int(m.group(2)) < 1):
            raise ValueError(f"RATE_LIMIT_WRITES: {part.strip()!r} is not a rate (write e.g. "
                             f"'10 per second;120 per minute')")
        found.append(Rate(int(m.group(1)), int(m.group(2) or 1) * UNITS[m.group(3).lower()]))
    if not found:
        raise ValueError("RATE_LIMIT_WRITES: no rate given (write e.g. '10 per second;120 per minute')")
    return tuple(found)


def clock() -> float:
    """Seconds since the epoch (one clock for every server: the machines' clocks, kept in step by NTP)."""
    return time.time()


def counts_path(url: str) -> Path | None:
    """Where the counts of a game database live, if not in it: a SQLite file's own counts' file
    (``rummy.sqlite3`` → ``rummy.limits.sqlite3``); none for another database, or one in memory."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    database = Path(parsed.database)
    return database.with_name(database.stem + ".limits.sqlite3")


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
                # counts a crash may forget (never a game): no sync at each commit
                event.listen(engine, "connect", lambda conn, _: conn.execute("PRAGMA synchronous=NORMAL"))
                COUNTS.create(engine, checkfirst=True)
            elif db.engine.dialect.name == "postgresql":
                # connections of their own that never wait for the disk (a crash forgets the last counts, never
                # a game) and commit each statement (an upsert is one): a hit is one round trip
                engine = create_engine(db.engine.url, isolation_level="AUTOCOMMIT", hide_parameters=True,
                                       connect_args={"options": "-c synchronous_commit=off"},
                                       pool_size=2, max_overflow=6, pool_recycle=1800)
            else:
                engine = db.engine
            app.extensions["rate_counts_engine"] = engine
        return app.extensions["rate_counts_engine"]  # type: ignore[no-any-return]


@lru_cache(maxsize=8)
def _upsert(dialect_name: str, rows: int) -> Any:
    """A hit's upsert of ``rows`` counts, built once (building and keying it cost as much as sending it): where a
    row's window has ended a new one starts at 1, else its count grows by 1. The rows go in one order for every
    client, so two hits of one client on PostgreSQL take their rows' locks in the same order."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    new = dialect.insert(COUNTS).values([{"key": bindparam(f"key{i}"), "count": 1, "expires_at": bindparam(f"until{i}")}
                                         for i in range(rows)])
    ended = COUNTS.c.expires_at <= bindparam("now")  # (the row as it was: both assignments read the old values)
    return new.on_conflict_do_update(index_elements=[COUNTS.c.key], set_={
        "count": case((ended, new.excluded.count), else_=COUNTS.c.count + new.excluded.count),
        "expires_at": case((ended, new.excluded.expires_at), else_=COUNTS.c.expires_at),
    }).returning(COUNTS.c.key, COUNTS.c.count, COUNTS.c.expires_at)


_SWEEP = delete(COUNTS).where(COUNTS.c.expires_at < bindparam("now"))


@dataclass(frozen=True)
class Hit:
    """What one write left of one rate: its count in the window, and when the window ends."""

    rate: Rate
    count: int
    ends: float

    @property
    def over(self) -> bool:
        return self.count > self.rate.amount

    @property
    def left(self) -> int:
        return max(0, self.rate.amount - self.count)


def hit(client: str, limit: tuple[Rate, ...], now: float) -> list[Hit]:
    """Count one write of ``client``, sent at ``now``, against each rate of ``limit``: one statement, committed."""
    params: dict[str, Any] = {"now": now}
    for i, rate in enumerate(limit):
        params[f"key{i}"] = f"writes/{client}/{rate.key}"
        params[f"until{i}"] = now + rate.seconds
    engine = counts_engine()
    extensions = current_app.extensions
    with engine.begin() as conn:  # (SQLite: one writer at a time, in turn by the busy timeout)
        rows: list[Any] = list(conn.execute(_upsert(engine.dialect.name, len(limit)), params))
        if abs(now - extensions.get("rate_counts_swept", 0.0)) > SWEEP_EVERY:  # (this app, in this process)
            extensions["rate_counts_swept"] = now
            conn.execute(_SWEEP, {"now": now})
    counted = {key: (int(count), float(ends)) for key, count, ends in rows}
    return [Hit(rate, *counted[params[f"key{i}"]]) for i, rate in enumerate(limit)]


@dataclass(frozen=True)
class Verdict:
    """A write's hits: refused if any rate is over; the headers report the rate with the fewest writes left."""

    hits: list[Hit]
    now: float

    @property
    def refused(self) -> bool:
        return any(h.over for h in self.hits)

    @property
    def retry_after(self) -> int:
        """Seconds until every window this write was over has ended."""
        return max(1, math.ceil(max(h.ends for h in self.hits if h.over) - self.now))

    def headers(self) -> dict[str, str]:
        tightest = min(self.hits, key=lambda h: (h.left, h.rate.seconds))
        out = {"X-RateLimit-Limit": str(tightest.rate.amount), "X-RateLimit-Remaining": str(tightest.left),
               "X-RateLimit-Reset": str(math.ceil(tightest.ends))}
        if self.refused:
            out["Retry-After"] = str(self.retry_after)
        return out


def judge(client: str, limit_text: str) -> Verdict:
    """Count a write of ``client`` under the limit written as ``limit_text``, and say what it left."""
    now = clock()
    return Verdict(hit(client, rates(limit_text), now), now)

