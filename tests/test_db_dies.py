"""A database that fails in the middle of a write: PostgreSQL's connection killed mid-save, SQLite's disk full or
read-only. The answer is a 503 that says what happened (never a 500), nothing is half-written, and the form keeps
what the user typed, ready to be sent again."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlalchemy import create_engine, event, text

from referee.web.models import db
from referee.web.scoreboard import services
from tests.conftest import POSTGRES, make_app, new_api_game
from tests.kit import refusal

HAND = {"hand": "1", "out": "0", "cards_1": "K Q", "cards_2": "7"}


def hands(c, g) -> list:
    return c.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {g['edit_token']}"}).json["hands"]


def kept_for_sending_again(html: str, action: str) -> dict[str, str]:
    """The fields of the page's form that sends the same request again."""
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*class="send-again"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None, html[-3000:]
    assert form.group(1) == action
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2)))


@pytest.mark.parametrize("when", ["before the hand is written", "before the commit"])
def test_postgresql_killed_mid_save_answers_503_and_keeps_the_hand(request, tmp_path, monkeypatch, when):
    if not POSTGRES:
        pytest.skip("PostgreSQL is not set up (TEST_POSTGRES_URL)")
    app = make_app(request, tmp_path, "postgres")
    app.config.update(PROPAGATE_EXCEPTIONS=False)
    c = app.test_client()
    g = new_api_game(c, ["Ann", "Ben", "Cy"])
    admin = create_engine(POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    killed: list[int] = []

    def die() -> None:
        pid = db.session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        killed.append(pid)

    if when == "before the hand is written":
        real = services._record
        monkeypatch.setattr(services, "_record", lambda *a, **k: die() or real(*a, **k))
    else:
        real_exit = services.Write.__exit__

        def exit_after_dying(self, kind, exc, tb):
            if kind is None and not self.cancelled:
                die()
            return real_exit(self, kind, exc, tb)

        monkeypatch.setattr(services.Write, "__exit__", exit_after_dying)
    try:
        for lang, words in (("en", "database"), ("de", "Datenbank")):
            page = c.post(f"/g/{g['edit_token']}/hand?lang={lang}", data=HAND)
            html = page.get_data(as_text=True)
            assert page.status_code == 503, html[-2000:]
            assert words in html
            kept = kept_for_sending_again(html, f"/g/{g['edit_token']}/hand")
            assert kept["cards_1"] == "K Q" and kept["cards_2"] == "7" and kept["out"] == "0"
        api = c.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "Ann",
                                                             "leftovers": {"Ben": ["K"], "Cy": ["7"]}},
                     headers={"Authorization": f"Bearer {g['edit_token']}"})
        assert api.status_code == 503 and api.json["error"]["code"] == "database_unavailable"
    finally:
        monkeypatch.undo()
        admin.dispose()
    assert len(killed) == 3
    assert hands(c, g) == []  # nothing half-written, and the next request finds a working connection
    assert c.post(f"/g/{g['edit_token']}/hand", data=HAND).status_code in (302, 303)
    assert len(hands(c, g)) == 1


def test_sqlite_read_only_says_so_and_keeps_the_hand(request, tmp_path):
    app = make_app(request, tmp_path, "sqlite")
    app.config.update(PROPAGATE_EXCEPTIONS=False)
    c = app.test_client()
    g = new_api_game(c, ["Ann", "Ben", "Cy"])
    with app.app_context():
        engine = db.engine

    def read_only(dbapi_connection, record):
        dbapi_connection.execute("PRAGMA query_only = 1")  # (as a file the server may not write to answers)

    engine.dispose()
    event.listen(engine, "connect", read_only)
    try:
        page = c.post(f"/g/{g['edit_token']}/hand?lang=pt", data=HAND)
        html = page.get_data(as_text=True)
        assert page.status_code == 503, html[-2000:]
        assert refusal("database_cannot_write", "pt") in unescape(html)  # said as what it is, not as a busy database
        kept = kept_for_sending_again(html, f"/g/{g['edit_token']}/hand")
        assert kept["cards_1"] == "K Q" and kept["cards_2"] == "7"
        api = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]})
        assert api.status_code == 503 and api.json["error"]["code"] == "database_cannot_write"
    finally:
        event.remove(engine, "connect", read_only)
        engine.dispose()
    assert hands(c, g) == []
    again = c.post(f"/g/{g['edit_token']}/hand", data=kept)  # the page's "send it again"
    assert again.status_code in (302, 303)
    assert len(hands(c, g)) == 1


def test_sqlite_whose_disk_fills_up_mid_evening_keeps_every_saved_hand_and_the_one_typed(request, tmp_path):
    """The database may grow no further than it is (as a full disk allows): saves go on, each answered as saved
    or as not saved, until one needs a new page of the file; that one says the disk is full and keeps what was
    typed, and every hand answered as saved is there."""
    app = make_app(request, tmp_path, "sqlite")
    app.config.update(PROPAGATE_EXCEPTIONS=False)
    c = app.test_client()
    games = [new_api_game(c, ["Ann", "Ben", "Cy"]) for _ in range(60)]
    with app.app_context():
        engine = db.engine

    def full(dbapi_connection, record):
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    engine.dispose()
    event.listen(engine, "connect", full)
    saved, refused = [], None
    try:
        for g in games:
            page = c.post(f"/g/{g['edit_token']}/hand?lang=de", data=HAND)
            if page.status_code == 503:
                refused = (g, page.get_data(as_text=True))
                break
            assert page.status_code == 302
            saved.append(g)
    finally:
        event.remove(engine, "connect", full)
        engine.dispose()
    assert refused is not None, "the file never filled up"
    g, html = refused
    assert refusal("database_cannot_write", "de") in unescape(html)
    kept = kept_for_sending_again(html, f"/g/{g['edit_token']}/hand")
    assert kept["cards_1"] == "K Q" and kept["cards_2"] == "7"
    assert all(len(hands(c, s)) == 1 for s in saved) and hands(c, g) == []
    assert c.post(f"/g/{g['edit_token']}/hand", data=kept).status_code == 302  # room again: sent again
    assert len(hands(c, g)) == 1
