"""Statements sent to the database driver directly, on a connection of an engine's pool: the few statements
every poll or every write sends (a game's version, a board's read, the write limit's count), where the
engine's own machinery (a ``Connection``, an execution context, a result object, an isolation level set and
reset at each checkout) cost several times what the statement itself did. And a save's writes, sent inside the
session's transaction in one round trip (``in_one_trip``). The poll's version read goes further on PostgreSQL:
prepared on each connection and sent by name through libpq (``PreparedRead``).

Each statement is compiled once per dialect by SQLAlchemy (``_compiled``): what goes to the driver is
SQLAlchemy's SQL, and what comes back is turned by each column type's own result processor, so the rows are the
ones the engine would have returned. A driver error is raised as SQLAlchemy's (``DBAPIError``), so every caller
reports it as any failed statement (503), and the connection that failed is not given out again.
"""

from __future__ import annotations

import hashlib
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from typing import Any

from sqlalchemy.exc import DBAPIError

from .models import each_statement_commits, is_sqlite

Compiled = tuple[str, tuple[str, ...] | None, dict[str, Any], dict[str, Any]]


@lru_cache(maxsize=64)
def _compiled(dialect: Any, statement: Any) -> Compiled:
    """A statement's SQL in the driver's own form; the order of its parameters where the driver takes them by
    position (SQLite's ``?``), None where it takes them by name (psycopg's ``%(name)s``); the values of those
    the statement holds itself (a ``literal``, a constant in an INSERT's values, None too); and what turns the
    values of those that need it into the driver's (each parameter type's own bind processor: JSON to text,
    SQLite's dates and booleans)."""
    compiled = statement.compile(dialect=dialect)
    turn = {name: process for name, bind in compiled.binds.items()
            if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
    return (compiled.string, tuple(compiled.positiontup) if dialect.positional else None,
            {name: value for name, value in compiled.params.items() if not compiled.binds[name].required}, turn)


def _arguments(compiled: Compiled, params: dict[str, Any]) -> Any:
    """The parameters as the driver takes them: in order for SQLite, by name for psycopg."""
    _, order, held, turn = compiled
    given = {**held, **params} if held else params
    if turn:
        given = {name: turn[name](value) if name in turn else value for name, value in given.items()}
    return [given[name] for name in order] if order is not None else given


@lru_cache(maxsize=64)
def _converters(dialect: Any, statement: Any, codes: tuple[Any, ...]) -> tuple[tuple[int, Any], ...] | None:
    """What turns the columns the driver returns (a select's, or an INSERT's ``RETURNING``) into what SQLAlchemy
    would (JSON text, SQLite's dates and booleans): each such column's place and its type's own result
    processor, given the type the driver said it returned (``codes``, from the cursor's description); None if
    nothing needs turning."""
    convert = tuple((place, process) for place, (column, code) in enumerate(zip(statement.exported_columns, codes))
                    if (process := column.type.dialect_impl(dialect).result_processor(dialect, code)) is not None)
    return convert or None


class DriverReads:
    """Statements sent to the database driver on one connection of the engine's pool (``driver_reads``)."""

    def __init__(self, dialect: Any, driver: Any) -> None:
        self.dialect = dialect
        self.driver = driver
        self.sql: str | None = None  # the statement sent last (named by an error)
        self.args: Any = None

    def __call__(self, statement: Any, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """The rows a statement returns, as SQLAlchemy would return them."""
        cursor = self._send(statement, params)
        try:
            return self._rows(statement, cursor)
        finally:
            cursor.close()

    def all(self, steps: Sequence[tuple[Any, dict[str, Any] | list[dict[str, Any]]]]) -> list[list[tuple[Any, ...]]]:
        """The rows each statement returns, the statements sent in the order given, each with its parameters (a
        list of them: the statement once for each, an executemany). On PostgreSQL they go in one pipeline: sent
        together, and answered together, one round trip for all of them instead of one each (a statement that
        fails leaves the rest undone, and its error is raised). On SQLite one after another."""
        pipelined = not is_sqlite(self.driver)
        cursors: list[tuple[Any, Any]] = []
        out: list[list[tuple[Any, ...]]] = []
        try:
            with self.driver.pipeline() if pipelined else nullcontext():
                for statement, params in steps:
                    cursor = self._send(statement, params)
                    cursors.append((statement, cursor))
                    if not pipelined:
                        out.append(self._rows(statement, cursor))
            return [self._rows(statement, cursor) for statement, cursor in cursors] if pipelined else out
        finally:
            for _, cursor in cursors:
                cursor.close()

    def _send(self, statement: Any, params: dict[str, Any] | list[dict[str, Any]]) -> Any:
        compiled = _compiled(self.dialect, statement)
        cursor = self.driver.cursor()
        self.sql = compiled[0]
        try:
            if isinstance(params, list):
                self.args = [_arguments(compiled, each) for each in params]
                cursor.executemany(self.sql, self.args)
            else:
                self.args = _arguments(compiled, params)
                cursor.execute(self.sql, self.args)
        except BaseException:
            cursor.close()
            raise
        return cursor

    def _rows(self, statement: Any, cursor: Any) -> list[tuple[Any, ...]]:
        described = cursor.description
        rows = cursor.fetchall() if described is not None else []
        convert = None if described is None else _converters(self.dialect, statement,
                                                             tuple(column[1] for column in described))
        if convert is not None:  # (only the columns that need it: a board's results turn two of eight)
            turned = []
            for row in rows:
                values = list(row)
                for place, turn in convert:
                    values[place] = turn(values[place])
                turned.append(tuple(values))
            rows = turned
        return rows


@contextmanager
def _checked_out(engine: Any, sent: Callable[[], tuple[Any, Any]]) -> Iterator[Any]:
    """A connection of the engine's pool for the block, back to it after. A driver error drops the connection
    from the pool (it is not given out again) and comes out as SQLAlchemy's, naming what was sent (``sent``: the
    statement and its arguments, asked for when it failed)."""
    failure = engine.dialect.loaded_dbapi.Error
    try:
        conn = engine.raw_connection()  # (a database that cannot be reached fails here)
        try:
            yield conn
        except failure as e:
            conn.invalidate(e)
            raise
        finally:
            conn.close()
    except failure as e:
        sql, args = sent()
        raise DBAPIError.instance(sql, args, e, failure, hide_parameters=True, dialect=engine.dialect) from e


@contextmanager
def _on_driver(engine: Any, commit: bool) -> Iterator[DriverReads]:
    reads: DriverReads | None = None
    with _checked_out(engine, lambda: (reads.sql, reads.args) if reads is not None else (None, None)) as conn:
        with each_statement_commits(conn.driver_connection):
            reads = DriverReads(engine.dialect, conn.driver_connection)
            try:
                yield reads
            except BaseException:
                if commit and is_sqlite(conn.driver_connection):
                    conn.driver_connection.rollback()
                raise
            if commit and is_sqlite(conn.driver_connection):
                conn.driver_connection.commit()


def driver_reads(engine: Any) -> Any:
    """A connection of the engine's pool, for selects sent to its driver directly: the pool's checks stay (on
    PostgreSQL a connection idle for a while is checked, ``models.PING_AFTER``; one that failed is replaced).
    A poll's version read cost 340 µs through a ``Connection`` and 40 µs this way, and every poll makes one. On
    PostgreSQL each statement commits by itself (no BEGIN before them nor ROLLBACK after)."""
    return _on_driver(engine, commit=False)


def driver_writes(engine: Any) -> Any:
    """As ``driver_reads``, for statements that write: on PostgreSQL each commits by itself; on SQLite (whose
    driver opens a transaction before a write) what the block wrote is committed at its end, or rolled back if
    it raised."""
    return _on_driver(engine, commit=True)


def in_one_trip(connection: Any, steps: Sequence[tuple[Any, dict[str, Any] | list[dict[str, Any]]]]
                ) -> list[list[tuple[Any, ...]]]:
    """``DriverReads.all`` on the driver's connection under a session's ``Connection``, inside the transaction it
    holds: statements that write, then what they left, in one round trip on PostgreSQL (a save's hand, its
    results, its change and the totals: four round trips were one each, while the game's row stayed locked and
    its other phones' saves waited). A driver error is raised as SQLAlchemy's (a broken unique constraint as its
    ``IntegrityError``); the transaction is then the session's to roll back."""
    dialect = connection.dialect
    failure = dialect.loaded_dbapi.Error
    sent = DriverReads(dialect, connection.connection.driver_connection)
    try:
        return sent.all(steps)
    except failure as e:
        raise DBAPIError.instance(sent.sql, sent.args, e, failure, hide_parameters=True, dialect=dialect) from e


def lone_read(engine: Any, statement: Any, params: dict[str, Any]) -> Any:
    """The first row of a select sent to the driver (``driver_reads``), or None."""
    with driver_reads(engine) as read:
        rows = read(statement, params)
    return rows[0] if rows else None


@lru_cache(maxsize=16)
def _numbered(dialect: Any, statement: Any) -> tuple[str, tuple[str, ...]]:
    """A statement's SQL as libpq prepares it (``$1``, ``$2``… where psycopg takes ``%(name)s``), and the names
    of its parameters in that order."""
    names: list[str] = []

    def number(found: re.Match[str]) -> str:
        if found.group(0) == "%%":
            return "%"
        if found.group(1) not in names:
            names.append(found.group(1))
        return f"${names.index(found.group(1)) + 1}"
    sql = re.sub(r"%%|%\((\w+)\)s", number, _compiled(dialect, statement)[0])
    return sql, tuple(names)


class PreparedRead:
    """A select that every poll sends (a game's version, by its link), sent on PostgreSQL through libpq itself:
    prepared once on each connection of the pool, then executed by name. Through psycopg's cursor (a cursor
    made, the parameters adapted, the columns described and each value turned into Python by its type) it cost
    77–98 µs of CPU; this way 35–44 µs. The pool's checkout, its checks and the handling of a failure are those
    of ``driver_reads`` (``_checked_out``). libpq returns each value as text; ``columns`` say how each is read
    (None stays None). Where the app's prepared statements are turned off (``prepare_threshold`` None) it is
    sent whole each time, still through libpq. On SQLite (in the process, cheap already) it is ``lone_read``."""

    def __init__(self, statement: Any, columns: tuple[Callable[[bytes], Any], ...]) -> None:
        self.statement = statement
        self.columns = columns
        self.name = b"referee_" + hashlib.sha256(str(statement).encode()).hexdigest()[:16].encode()
        self._prepared: weakref.WeakSet[Any] = weakref.WeakSet()  # the driver's connections it is prepared on
        self._lock = threading.Lock()

    def first(self, engine: Any, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row, or None."""
        dialect = engine.dialect
        if dialect.name != "postgresql":
            return lone_read(engine, self.statement, params)  # type: ignore[no-any-return]
        sql, names = _numbered(dialect, self.statement)
        given = _arguments(_compiled(dialect, self.statement), params)
        args = [None if given[name] is None else str(given[name]).encode() for name in names]
        with _checked_out(engine, lambda: (sql, args)) as conn:
            result = self._execute(conn.driver_connection, sql, args)
        if not result.ntuples:
            return None
        return tuple(None if (value := result.get_value(0, place)) is None else read(value)
                     for place, read in enumerate(self.columns))

    def _execute(self, driver: Any, sql: str, args: list[bytes | None]) -> Any:
        pgconn = driver.pgconn
        if driver.prepare_threshold is None:  # prepared statements turned off (a pooling proxy that cannot carry
            result = pgconn.exec_params(sql.encode(), args)  # them: docs/deploy.md): sent whole each time
            _raise_if_failed(driver, result)
            return result
        with self._lock:
            prepared = driver in self._prepared
        if not prepared:
            self._prepare(driver, sql)
        result = pgconn.exec_prepared(self.name, args)  # (libpq lets go of the interpreter while it waits)
        if _sqlstate(result) == "26000":  # no longer prepared there (a DEALLOCATE): prepared again, once
            self._prepare(driver, sql)
            result = pgconn.exec_prepared(self.name, args)
        _raise_if_failed(driver, result)
        return result

    def _prepare(self, driver: Any, sql: str) -> None:
        result = driver.pgconn.prepare(self.name, sql.encode())
        if _sqlstate(result) != "42P05":  # (prepared there already: as good)
            _raise_if_failed(driver, result)
        with self._lock:
            self._prepared.add(driver)


def _sqlstate(result: Any) -> str | None:
    from psycopg import pq

    if result.status != pq.ExecStatus.FATAL_ERROR:
        return None
    code = result.error_field(pq.DiagnosticField.SQLSTATE)
    return code.decode() if code else ""


def _raise_if_failed(driver: Any, result: Any) -> None:
    from psycopg import errors, pq

    if result.status not in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
        raise errors.error_from_result(result, encoding=driver.info.encoding)
