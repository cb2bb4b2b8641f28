"""A game read: by the link that opens it (``find``: the ORM's ``Game``; ``read_board`` and ``read_game``: plain
read-only objects, ``GameRead``, that ``state``, the pages and the writes read as they read a ``Game``), and a
poll's version read (``version_of``). The reads that need no transaction run on an autocommit connection
(``models.autocommit``)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, literal, or_, select, union_all
from sqlalchemy.orm import lazyload

from ...scoring import net_score
from ..errors import Refusal
from ..models import UNDOABLE, Buy, Change, Down, Game, Hand, Player, Result, autocommit, db

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def find(token: str, last_change: bool = True) -> tuple[Game, bool] | None:
    """The game a link opens, and whether the link may change it. ``last_change=False``: the last change that
    can be undone is read only if it is asked for, not with the game (what the pages' undo button needs, and
    the JSON API's writes do not: its join cost the database 0.3-0.5 ms of a save's read)."""
    if not TOKEN.fullmatch(token):  # a link is URL-safe base64: anything else (a NUL, a slash) opens nothing
        return None
    digest = token_hash(token)
    query = db.select(Game).where(or_(Game.edit_hash == digest, Game.view_token == token))
    if not last_change:
        query = query.options(lazyload(Game.last_undoable))  # type: ignore[attr-defined]
    game = db.session.execute(query).unique().scalar_one_or_none()
    if game is None:
        return None
    return game, game.edit_hash == digest


GAMES = Game.__table__
# The game a link opens: the edit link's hash, or the view link itself (the statements below read by it).
_OPENED = or_(GAMES.c.edit_hash == bindparam("digest"), GAMES.c.view_token == bindparam("token"))
# No ORM object is made for a poll.
_VERSION_OF = select(GAMES.c.id, GAMES.c.version, GAMES.c.edit_hash).where(_OPENED)


def version_of(token: str) -> tuple[str, int, bool] | None:
    """The id and version of the game a link opens, and whether the link may change it: one indexed query on the
    games table, nothing else loaded (what a poll needs to answer "unchanged")."""
    if not TOKEN.fullmatch(token):
        return None
    digest = token_hash(token)
    with autocommit() as conn:
        row = conn.execute(_VERSION_OF, {"digest": digest, "token": token}).first()
    if row is None:
        return None
    return row[0], row[1], row[2] == digest


# ------------------------------------------------------------------------------------ a board's read
# A board drawn for a poll reads the game with statements on the tables, into the plain objects below: the same
# rows the ORM would load, without making and tracking an ORM object for each of them (that cost 2 ms of a 3 ms
# read; the statements themselves take 0.2 ms). ``state``, ``board_context`` and the board's templates read these
# as they read a ``Game``; so do a hand's save, a buy and a player going down (``read_game``). The other writes
# keep the ORM objects.
@dataclass(frozen=True, slots=True)
class PlayerRead:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class ResultRead:
    seat: int
    penalty: int
    bonus: int
    cards: list[str] | None

    @property
    def score(self) -> int:
        return net_score(self.penalty, self.bonus)


@dataclass(frozen=True, slots=True)
class HandRead:
    number: int
    out_seat: int | None
    replay: bool
    results: list[ResultRead]


@dataclass(frozen=True, slots=True)
class MarkRead:  # a buy or a player down, in a hand
    hand_number: int
    seat: int


@dataclass(frozen=True, slots=True)
class ChangeRead:
    id: int
    kind: str
    hand_number: int | None
    seat: int | None
    before: Any
    after: Any
    undone: bool


@dataclass(slots=True)
class GameRead:
    id: str
    family: str
    variants: list[str]
    options: dict[str, Any]
    first_dealer: int
    version: int
    ended_at: Any
    view_token: str
    players: list[PlayerRead]
    hands: list[HandRead] = field(default_factory=list)
    buys: list[MarkRead] = field(default_factory=list)  # of every hand
    current_buys: list[MarkRead] = field(default_factory=list)
    downs: list[MarkRead] = field(default_factory=list)
    changes: list[ChangeRead] = field(default_factory=list)  # read for an edit link's board only

    @property
    def hands_recorded(self) -> int:
        return len(self.hands)

    @property
    def last_undoable(self) -> ChangeRead | None:  # as ``models.Game.last_undoable`` reads it with the game row
        return next((c for c in reversed(self.changes) if not c.undone and c.kind in UNDOABLE), None)


PLAYERS, HANDS, RESULTS = Player.__table__, Hand.__table__, Result.__table__


def _game_reads(opened: Any, game_id: Any) -> tuple[Any, Any, Any]:
    """The statements that read a game as a ``GameRead``: its row and players (the game that ``opened`` finds),
    its hands with their results, and its buys and who is down (of the game ``game_id`` names). Built once for
    a game found by its link and once for a game found by its id (read again under a write's lock)."""
    game = (select(GAMES.c.id, GAMES.c.family, GAMES.c.variants, GAMES.c.options, GAMES.c.first_dealer,
                   GAMES.c.version, GAMES.c.ended_at, GAMES.c.view_token, GAMES.c.edit_hash, PLAYERS.c.seat,
                   PLAYERS.c.name)
            .select_from(GAMES.join(PLAYERS, PLAYERS.c.game_id == GAMES.c.id))
            .where(opened).order_by(PLAYERS.c.seat))
    hands = (select(HANDS.c.id, HANDS.c.number, HANDS.c.out_seat, HANDS.c.replay, RESULTS.c.seat,
                    RESULTS.c.penalty, RESULTS.c.bonus, RESULTS.c.cards)
             .select_from(HANDS.outerjoin(RESULTS, RESULTS.c.hand_id == HANDS.c.id))
             .where(HANDS.c.game_id == game_id).order_by(HANDS.c.number, RESULTS.c.seat))
    marks = union_all(  # the buys (of every hand) and who is down
        select(literal("buy").label("kind"), Buy.__table__.c.hand_number, Buy.__table__.c.seat)
        .where(Buy.__table__.c.game_id == game_id),
        select(literal("down").label("kind"), Down.__table__.c.hand_number, Down.__table__.c.seat)
        .where(Down.__table__.c.game_id == game_id))
    return game, hands, marks


# The rest of a read by link is keyed by the link, as the game's row is: the game a link opens, and the game only
# an edit link opens (the history it reads).
_LINKED = select(GAMES.c.id).where(_OPENED).scalar_subquery()
_EDITED = select(GAMES.c.id).where(GAMES.c.edit_hash == bindparam("digest")).scalar_subquery()
_CHANGES_READ = (select(*(Change.__table__.c[name] for name in ("id", "kind", "hand_number", "seat", "before",
                                                                "after", "undone")))
                 .where(Change.__table__.c.game_id == _EDITED).order_by(Change.__table__.c.id))
_GAME_READ = _game_reads(_OPENED, _LINKED)
_BOARD_READ = (*_GAME_READ, _CHANGES_READ)
_GAME_READ_AGAIN = _game_reads(GAMES.c.id == bindparam("game"), bindparam("game"))


def read_board(token: str) -> tuple[GameRead, bool] | None:
    """The game a link opens, as its board is drawn (``GameRead``), and whether the link may change it: four
    statements. The history is read for an edit link only (for a view link its statement finds no game)."""
    return _read_by_link(token, _BOARD_READ)


def read_game(token: str) -> tuple[GameRead, bool] | None:
    """As ``read_board``, without the history: the game as a hand's save, a buy and a player going down read it,
    and the JSON API's read of a game (the writes take a ``GameRead`` as they take a ``Game``)."""
    return _read_by_link(token, _GAME_READ)


def _read_by_link(token: str, statements: Any) -> tuple[GameRead, bool] | None:
    if not TOKEN.fullmatch(token):
        return None
    digest = token_hash(token)
    keys = {"digest": digest, "token": token}
    with autocommit() as conn:
        rows, hand_rows, marks, *changes = [list[Any](conn.execute(statement, keys)) for statement in statements]
    if not rows:
        return None
    game = _game_from(rows, hand_rows, marks)
    can_edit = rows[0][8] == digest
    if can_edit and changes:
        game.changes = [ChangeRead(change_id, kind, hand_number, seat, before, after, bool(undone))
                        for change_id, kind, hand_number, seat, before, after, undone in changes[0]]
    return game, can_edit


def _game_from(rows: Any, hand_rows: Any, marks: Any) -> GameRead:
    """The ``GameRead`` of the rows of ``_game_reads``' statements."""
    game_id, family, variants, options, first_dealer, version, ended_at, view_token = rows[0][:8]
    game = GameRead(game_id, family, list(variants or ()), dict(options or {}), first_dealer, version, ended_at,
                    view_token, [PlayerRead(seat, name) for *_, seat, name in rows])
    hands: dict[int, HandRead] = {}
    for hand_id, number, out_seat, replay, seat, penalty, bonus, cards in hand_rows:
        hand = hands.get(hand_id)
        if hand is None:
            hand = hands[hand_id] = HandRead(number, out_seat, bool(replay), [])
        if seat is not None:
            hand.results.append(ResultRead(seat, penalty, bonus, cards))
    game.hands = list(hands.values())
    playing = len(game.hands) + 1
    for kind, hand_number, seat in marks:
        if kind == "down":
            game.downs.append(MarkRead(hand_number, seat))
        else:
            game.buys.append(MarkRead(hand_number, seat))
            if hand_number == playing:
                game.current_buys.append(MarkRead(hand_number, seat))
    return game


def read_again(game: GameRead) -> None:
    """A ``GameRead`` read again inside the session's transaction (under a write's lock)."""
    rows, hand_rows, marks = [db.session.execute(statement, {"game": game.id}).all()
                              for statement in _GAME_READ_AGAIN]
    if not rows:  # (the row is locked by this transaction: it cannot have gone)
        raise Refusal("stale", None)
    again = _game_from(rows, hand_rows, marks)
    for name in ("version", "ended_at", "players", "hands", "buys", "current_buys", "downs"):
        setattr(game, name, getattr(again, name))
