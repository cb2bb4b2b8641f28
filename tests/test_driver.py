"""Statements sent to the driver inside a session's transaction, in one round trip (``driver.in_one_trip``), on
SQLite and PostgreSQL: what they write and return is what SQLAlchemy would have written and returned, and a
statement that fails leaves the transaction to roll back whole."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from referee.web import driver
from referee.web.models import Change, Hand, Result, db

HANDS, RESULTS, CHANGES = Hand.__table__, Result.__table__, Change.__table__
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
ADD_HAND = insert(HANDS).values(game_id=bindparam("game"), number=bindparam("number"), out_seat=None, cut_bonus=0,
                                replay=bindparam("replay"), created_at=bindparam("at")).returning(HANDS.c.id)
ADD_RESULT = insert(RESULTS).inline().values(
    hand_id=select(HANDS.c.id).where(HANDS.c.game_id == bindparam("game"),
                                     HANDS.c.number == bindparam("number")).scalar_subquery(),
    seat=bindparam("seat"), penalty=bindparam("penalty"), bonus=0, cards=bindparam("cards"))
ADD_CHANGE = insert(CHANGES).inline().values(
    game_id=bindparam("game"), at=bindparam("at"), via="api", kind="hand_recorded", hand_number=bindparam("number"),
    undone=False, after=bindparam("after", type_=CHANGES.c.after.type))
RESULTS_OF = (select(RESULTS.c.seat, RESULTS.c.cards, HANDS.c.replay, HANDS.c.created_at)
              .join(HANDS, HANDS.c.id == RESULTS.c.hand_id)
              .where(HANDS.c.game_id == bindparam("game")).order_by(RESULTS.c.seat))


def new_game(client):
    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS})
    assert r.status_code == 201
    return r.json


def hand_steps(game_id, number, at):
    return [(ADD_HAND, {"game": game_id, "number": number, "replay": False, "at": at}),
            (ADD_RESULT, [{"game": game_id, "number": number, "seat": 0, "penalty": 0, "cards": None},
                          {"game": game_id, "number": number, "seat": 1, "penalty": 15, "cards": ["K", "5"]}]),
            (ADD_CHANGE, {"game": game_id, "number": number, "at": at, "after": {"results": [1, 2]}})]


def test_statements_in_one_trip_write_and_read_what_the_engine_would(app, client):
    """Each statement's rows come back in the order sent: the hand's id from its RETURNING, nothing from the
    writes, and a read sent after them sees them, in the same transaction. JSON, a boolean and a time with its
    zone go in and come out as SQLAlchemy's own statements put and read them."""
    g = new_game(client)
    at = datetime(2026, 12, 3, 20, 15, 7, 123456, tzinfo=timezone.utc)
    with app.app_context():
        rows = driver.in_one_trip(db.session.connection(),
                                  [*hand_steps(g["id"], 1, at), (RESULTS_OF, {"game": g["id"]})])
        db.session.commit()
        assert len(rows) == 4 and rows[1] == rows[2] == []
        hand_id = rows[0][0][0]
        assert isinstance(hand_id, int)
        assert [r[:3] for r in rows[3]] == [(0, None, False), (1, ["K", "5"], False)]
        # read back by the engine itself, after the commit
        engine_rows = db.session.execute(RESULTS_OF, {"game": g["id"]}).all()
        assert [tuple(r) for r in engine_rows] == rows[3]
        written_at = engine_rows[0].created_at
        assert (written_at if written_at.tzinfo else written_at.replace(tzinfo=timezone.utc)) == at
        change = db.session.execute(select(CHANGES.c.after, CHANGES.c.undone)
                                    .where(CHANGES.c.game_id == g["id"], CHANGES.c.kind == "hand_recorded")).one()
        assert tuple(change) == ({"results": [1, 2]}, False)
        assert db.session.execute(select(RESULTS.c.hand_id).where(RESULTS.c.seat == 1,
                                                                  RESULTS.c.hand_id == hand_id)).scalar_one()
    # the game as the API reads it: the hand is there
    assert [h["hand"] for h in client.get(f"/api/v1/games/{g['id']}", headers={
        "Authorization": f"Bearer {g['view_token']}"}).json["hands"]] == [1]


def test_a_statement_that_fails_in_one_trip_raises_the_engines_error_and_nothing_of_the_trip_stays(app, client):
    """A hand written twice breaks the (game, number) constraint: the error is SQLAlchemy's ``IntegrityError`` (a
    save turns it into "already recorded"), the statements after it are not run, and once the session rolls
    back nothing the trip wrote is there; the session goes on as before."""
    g = new_game(client)
    at = datetime(2026, 12, 3, 20, 15, tzinfo=timezone.utc)
    with app.app_context():
        driver.in_one_trip(db.session.connection(), hand_steps(g["id"], 1, at))
        db.session.commit()
        with pytest.raises(IntegrityError):
            driver.in_one_trip(db.session.connection(), [*hand_steps(g["id"], 2, at), *hand_steps(g["id"], 1, at)])
        db.session.rollback()
        numbers = db.session.execute(select(HANDS.c.number).where(HANDS.c.game_id == g["id"])).scalars().all()
        assert numbers == [1]
        assert len(db.session.execute(RESULTS_OF, {"game": g["id"]}).all()) == 2
        assert db.session.execute(select(CHANGES.c.hand_number).where(
            CHANGES.c.game_id == g["id"], CHANGES.c.kind == "hand_recorded")).scalars().all() == [1]
        driver.in_one_trip(db.session.connection(), hand_steps(g["id"], 2, at))
        db.session.commit()
        assert sorted(db.session.execute(select(HANDS.c.number).where(HANDS.c.game_id == g["id"])).scalars()) == [1, 2]
