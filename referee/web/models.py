"""The scoreboard's tables: games, players, hands, per-player results, buys, who has gone down, and the
history of changes; and the groups that play together (their rosters and games). The schema is managed by
Alembic migrations (``migrations/``), applied by ``make run``.

SQLite in the instance folder is the default (WAL, foreign keys, a busy timeout); ``DATABASE_URL`` selects
PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from time import monotonic
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    and_,
    event,
    false,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase, Mapped, aliased, column_property, foreign, mapped_column, relationship
from sqlalchemy.pool import Pool

from .. import history
from ..scoring import net_score


class Base(DeclarativeBase):
    pass


# Objects keep what they hold after a commit: a request that writes goes on to render what it wrote without
# reading it back. Each write in ``services`` expires the attributes it changed.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

# the changes that undo can take back: the moves of the engine's history (``referee.history``)
UNDOABLE = history.UNDOABLE


def now() -> datetime:
    return datetime.now(timezone.utc)


class Game(db.Model):  # type: ignore[name-defined]
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    family: Mapped[str] = mapped_column(String(20))
    variants: Mapped[list[str]] = mapped_column(JSON, default=list)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    edit_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    version: Mapped[int] = mapped_column(Integer, default=1)  # bumps with every change: ETag and stale-edit guard
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # set when the table ended the game before its last hand: the standings are those of the hands played
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    # What a page needs comes in few statements: the game row brings its players, the buys of the hand being
    # played and the change undo would take back (joined); the hands bring their results (joined).
    players: Mapped[list[Player]] = relationship(back_populates="game", order_by="Player.seat",
                                                 cascade="all, delete-orphan", lazy="joined")
    hands: Mapped[list[Hand]] = relationship(back_populates="game", order_by="Hand.number",
                                             cascade="all, delete-orphan")
    buys: Mapped[list[Buy]] = relationship(cascade="all, delete-orphan")
    downs: Mapped[list[Down]] = relationship(cascade="all, delete-orphan")
    changes: Mapped[list[Change]] = relationship(order_by="Change.id", cascade="all, delete-orphan")


class Player(db.Model):  # type: ignore[name-defined]
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "name"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    # a player who sat down after the game began: the first hand they play, and the score the table gave them
    joined_hand: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    start_total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    game: Mapped[Game] = relationship(back_populates="players")


class Hand(db.Model):  # type: ignore[name-defined]
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "number"),)  # two phones, one hand: exactly one is recorded

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    out_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the stock ran out
    cut_bonus: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # the exact-cut bonus given
    # the last hand replayed for a tie
    replay: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    game: Mapped[Game] = relationship(back_populates="hands")
    results: Mapped[list[Result]] = relationship(back_populates="hand", order_by="Result.seat",
                                                 cascade="all, delete-orphan", lazy="joined")


class Result(db.Model):  # type: ignore[name-defined]
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("hand_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    penalty: Mapped[int] = mapped_column(Integer)  # what the cards left cost
    bonus: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # taken off for an exact cut
    cards: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)  # None: a typed total

    hand: Mapped[Hand] = relationship(back_populates="results")

    @property
    def score(self) -> int:
        """What counts towards the player's total (``scoring.net_score``)."""
        return net_score(self.penalty, self.bonus)


class Buy(db.Model):  # type: ignore[name-defined]
    __tablename__ = "buys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    hand_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Down(db.Model):  # type: ignore[name-defined]
    __tablename__ = "downs"
    __table_args__ = (UniqueConstraint("game_id", "hand_number", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    hand_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)


class Change(db.Model):  # type: ignore[name-defined]
    """One entry of a game's history: what changed, when, through which link, and enough to undo it; and the id
    of the request that made it, when the phone sent one, so that a retried request is applied once."""

    __tablename__ = "changes"
    __table_args__ = (Index("ix_changes_game_request", "game_id", "request_id", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    via: Mapped[str] = mapped_column(String(20))  # "edit link" | "api" | "import"
    kind: Mapped[str] = mapped_column(String(30))
    hand_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    request_id: Mapped[str | None] = mapped_column(String(40), nullable=True)


def _hands_of_game() -> Any:
    """How many hands the game has recorded (replays included), as a subquery correlated to the game row."""
    hand = aliased(Hand)
    return select(func.count(hand.id)).where(hand.game_id == Game.id).correlate(Game).scalar_subquery()


def _last_undoable_id() -> Any:
    change = aliased(Change)
    return (select(func.max(change.id)).where(change.game_id == Game.id, change.undone == false(),
                                              change.kind.in_(UNDOABLE)).correlate(Game).scalar_subquery())


# The next hand's number without loading the hands: the count of those recorded, read with the game row.
Game.hands_recorded = column_property(_hands_of_game())  # type: ignore[attr-defined]

# The buys of the hand being played (the one after the last recorded), read with the game row.
Game.current_buys = relationship(  # type: ignore[attr-defined]
    Buy, viewonly=True, lazy="joined", order_by=Buy.id,
    primaryjoin=lambda: and_(foreign(Buy.game_id) == Game.id, Buy.hand_number == _hands_of_game() + 1))

# The change undo would take back: the newest one not undone yet.
Game.last_undoable = relationship(  # type: ignore[attr-defined]
    Change, viewonly=True, lazy="joined", uselist=False,
    primaryjoin=lambda: and_(foreign(Change.game_id) == Game.id, Change.id == _last_undoable_id()))


class Group(db.Model):  # type: ignore[name-defined]
    """A group that plays together: a name, its two links (the edit token kept only as a hash), its roster and
    its games."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    edit_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # moved on by each change to the roster's names (a rename, a merge, a removal): the group's figures are kept
    # for each state of the group (``stats.stats``), and a name respelled changes neither the count nor the ids
    roster_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    members: Mapped[list[Member]] = relationship(back_populates="group", order_by="Member.id",
                                                 cascade="all, delete-orphan")
    games: Mapped[list[GroupGame]] = relationship(back_populates="group", cascade="all, delete-orphan")


class Member(db.Model):  # type: ignore[name-defined]
    """One person on a group's roster. ``key`` is the name case-folded: "ann" and "Ann" are one person."""

    __tablename__ = "group_members"
    __table_args__ = (UniqueConstraint("group_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(160))

    group: Mapped[Group] = relationship(back_populates="members")


class GroupGame(db.Model):  # type: ignore[name-defined]
    """A game a group played. Deleting a group's game keeps its rows (its links stop working, ``deleted_at`` is
    set), so the group's stats, computed from the recorded hands, keep it (docs/decisions.md)."""

    __tablename__ = "group_games"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    group: Mapped[Group] = relationship(back_populates="games")
    game: Mapped[Game] = relationship()


class RateCount(db.Model):  # type: ignore[name-defined]
    """How many writes one client has sent in the current window of one limit (``ratelimit``): kept here so
    that every server process on the database counts them together."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)  # when the window ends, seconds since the epoch


def is_sqlite(dbapi_connection: Any) -> bool:
    """Whether a driver's connection is SQLite's (else PostgreSQL's, through psycopg)."""
    return type(dbapi_connection).__module__.startswith("sqlite3")


@contextmanager
def each_statement_commits(dbapi_connection: Any) -> Iterator[None]:
    """While the block runs, each statement on a driver's connection commits by itself: on PostgreSQL no BEGIN
    is sent before it nor ROLLBACK after (two round trips); SQLite's driver opens no transaction for a select."""
    if is_sqlite(dbapi_connection):
        yield
        return
    before = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    try:
        yield
    finally:
        dbapi_connection.autocommit = before


@contextmanager
def autocommit() -> Iterator[Any]:
    """A connection of the app's pool on which each statement commits by itself (SQLAlchemy's ``AUTOCOMMIT``
    isolation level), for a poll's version read, which needs no session (``reads_only`` does the same for a
    session that only reads: tried for the polls too, it cost the servers a tenth more CPU at a real evening,
    polls p50 2.6 -> 3.2-3.4 ms on PostgreSQL). On PostgreSQL that spares two round trips of a transaction
    each (BEGIN before, ROLLBACK after): at a real evening's load, with every poll in a transaction of the
    request's session, the database's CPU put the p99 of polls at 40 ms and saves' at 67 (``docs/bench.md``)."""
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        yield conn


def reads_only() -> None:
    """The request's session will only read (a page, a board, the API's read of a game): on PostgreSQL each of
    its statements then commits by itself (SQLAlchemy's ``AUTOCOMMIT`` for the session's transaction), sparing the
    BEGIN before and the ROLLBACK after (two round trips; the pool puts the connection's level back when it is
    returned). Called before the session's first statement; SQLite's driver opens no transaction for a select."""
    session = db.session()
    if not session.in_transaction() and session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def begin_write() -> None:
    """Opens the session's transaction as a writer's, where a write must read under its lock (a game's version,
    a group's newest game). SQLite: ``BEGIN IMMEDIATE``, which takes the file's one write lock at once (waiting
    for it up to the busy timeout, ``SQLITE_TIMEOUT``; past it the write fails as a locked database, 503) unless
    the transaction is open already; the reads before it ran each on its own (SQLite's driver opens a
    transaction only at a statement that changes rows), so no write ever meets a snapshot older than the last
    commit. PostgreSQL: nothing (its statements lock the rows they change)."""
    conn = db.session.connection()
    if conn.dialect.name == "sqlite" and not conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        conn.exec_driver_sql("BEGIN IMMEDIATE")


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):  # type: ignore[no-untyped-def]
    """SQLite: write-ahead log (readers never wait for a writer) and foreign keys. The busy timeout, so that
    two phones saving at once take turns instead of failing, is the driver's ``timeout`` (``SQLITE_TIMEOUT``).
    ``synchronous=FULL``: a commit is on the disk before the save is answered, so a power cut loses no hand a
    phone was told is saved (``NORMAL`` synced only at checkpoints: 240 saves made 7 syncs). Measured side by
    side at 300 tables it moved the save's median from 5.2 to 7.1 ms, its p99 not at all (docs/bench.md). The
    write limit's own file turns it back to ``NORMAL`` (``ratelimit``): its counts may be forgotten."""
    if not is_sqlite(dbapi_connection):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


# A connection a server's pool has held idle for this long is checked (a round trip) before it is used again.
PING_AFTER = 5.0


@event.listens_for(Pool, "checkin")
def _idle_from(dbapi_connection, connection_record):  # type: ignore[no-untyped-def]
    if connection_record is not None:
        connection_record.info["idle_from"] = monotonic()


@event.listens_for(Pool, "checkout")
def _ping_if_idle(dbapi_connection, connection_record, connection_proxy):  # type: ignore[no-untyped-def]
    """PostgreSQL: a connection that sat in the pool for ``PING_AFTER`` seconds or more is checked before it is
    given out, and replaced if the database no longer answers on it (after a restart, or a firewall that dropped
    it); one used a moment ago is given out as it is. Checking every connection on every checkout (SQLAlchemy's
    ``pool_pre_ping``) was a second round trip for every poll and three more for every save, while a busy
    server's connections are never idle for long. The price: when the database restarts while a server is
    busy, a request on a connection used just before fails (a 503: nothing is written, a phone's poll tries
    again 2 s later), the connection is dropped, and the ones after it get new connections. SQLite's file needs
    no check."""
    if is_sqlite(dbapi_connection):
        return
    idle_from = connection_record.info.get("idle_from")
    if idle_from is None or monotonic() - idle_from < PING_AFTER:
        return
    try:
        with each_statement_commits(dbapi_connection):  # (the check opens no transaction)
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
    except Exception as e:  # any failure: the pool drops this connection and gives out another
        raise DisconnectionError("the database no longer answers on this connection") from e
