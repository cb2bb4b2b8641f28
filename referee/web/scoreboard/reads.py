"""A game read by the link that opens it: the ORM's ``Game`` (``find``), the one model of a game that the pages,
the API and the writes read; and a poll's version read (``version_of``), which makes no object and runs on an
autocommit connection (``models.autocommit``)."""

from __future__ import annotations

import hashlib
import re

from flask import request
from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import lazyload

from ..models import Game, Hand, Result, autocommit, db, reads_only

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def opened(token: str) -> tuple[Game, bool] | None:
    """The game a link opens to a page, a board or a form (``find``: a GET or HEAD only reads)."""
    return find(token, writing=request.method not in ("GET", "HEAD"))


def find(token: str, last_change: bool = True, writing: bool = True) -> tuple[Game, bool] | None:
    """The game a link opens, and whether the link may change it. ``last_change=False``: the last change that
    can be undone is read only if it is asked for, not with the game (what the pages' undo button needs, and
    the JSON API's writes do not: its join cost the database 0.3-0.5 ms of a save's read). ``writing=False``:
    the request only reads (``models.reads_only``)."""
    if not TOKEN.fullmatch(token):  # a link is URL-safe base64: anything else (a NUL, a slash) opens nothing
        return None
    if not writing:
        reads_only()
    digest = token_hash(token)
    query = db.select(Game).where(or_(Game.edit_hash == digest, Game.view_token == token))
    if not last_change:
        query = query.options(lazyload(Game.last_undoable))  # type: ignore[attr-defined, unused-ignore]
    game = db.session.execute(query).unique().scalar_one_or_none()
    if game is None:
        return None
    return game, game.edit_hash == digest


GAMES, HANDS, RESULTS = Game.__table__, Hand.__table__, Result.__table__  # (for statements on the tables)
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
