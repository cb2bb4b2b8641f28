"""The board's poll: an unchanged board is answered from the game's version alone (one indexed query and a 304:
no session, no template, no rules), and no answer ever shows a board older than the last save, whichever of
two servers on one database a phone asks (SQLite and PostgreSQL)."""

from __future__ import annotations

import re

import pytest
from flask import template_rendered
from sqlalchemy import create_engine, event, text
from sqlalchemy.pool import NullPool

from referee.web import create_app
from referee.web.models import db
from referee.web.scoreboard import reads, services, view
from referee.web.scoreboard.boards import FORM_MARK, LINK_MARK
from tests.conftest import new_api_game as new_game
from tests.kit import said
from tests.test_games import auth
from tests.test_sql_counts import counted

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
LEFT = {"Ben": ["K", "7"], "Cy": ["A"], "Dee": ["JK"]}


@pytest.fixture()
def twin(app):
    """A second server on the same database: its own app, engine, connection pool and process-wide state."""
    other = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"]})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def save(client, g, hand):
    r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": hand, "out": "Ann", "leftovers": LEFT},
                    headers=auth(g["edit_token"]))
    assert r.status_code == 201, r.json
    return r


def totals(html):
    return [int(t) for t in re.findall(r'<td class="num total">(\d+)</td>', html)]


def watch_templates(app):
    """The names of the templates the app renders from now on (until the app goes)."""
    drawn: list[str] = []

    def seen(sender, template, context, **extra):
        drawn.append(template.name)

    template_rendered.connect(seen, app, weak=False)
    return drawn


def poll(client, token, tag):
    return client.get(f"/g/{token}/board", headers={"If-None-Match": tag} if tag else {})


def test_an_unchanged_poll_is_one_query_and_nothing_else(app, client, monkeypatch):
    g = new_game(client)
    save(client, g, 1)
    first = poll(client, g["view_token"], None)
    assert first.status_code == 200
    built = []
    drawn = watch_templates(app)
    monkeypatch.setattr(services, "state", lambda *a, **k: built.append(a) or pytest.fail("rules state built"))
    monkeypatch.setattr(reads, "find", lambda *a, **k: pytest.fail("game loaded"))
    for _ in range(3):  # several polls in a row: each is the same single query
        with counted(app) as seen:
            r = poll(client, g["view_token"], first.headers["ETag"])
        assert r.status_code == 304 and r.get_data() == b""
        assert len(seen) == 1 and seen[0].lstrip().upper().startswith("SELECT"), seen
        assert "Set-Cookie" not in r.headers  # no session written, no cookie
        assert r.headers["ETag"] == first.headers["ETag"]
    assert drawn == [] and built == []


def test_a_poll_for_a_link_that_opens_nothing_is_a_404(client):
    g = new_game(client)
    tag = poll(client, g["view_token"], None).headers["ETag"]
    assert poll(client, "no-such-game", tag).status_code == 404
    assert poll(client, "bad%00token", tag).status_code == 404
    assert poll(client, "no-such-game", None).status_code == 404


def test_the_tag_names_the_language_and_the_link(client):
    g = new_game(client)
    view = poll(client, g["view_token"], None)
    edit = poll(client, g["edit_token"], None)
    assert view.headers["ETag"] != edit.headers["ETag"]
    de = client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de",
                                                            "If-None-Match": view.headers["ETag"]})
    assert de.status_code == 200 and de.headers["ETag"] != view.headers["ETag"]
    assert "Spieler" in de.get_data(as_text=True)
    # the edit link's tag never answers for the view link, nor the other way round
    assert poll(client, g["view_token"], edit.headers["ETag"]).status_code == 200
    assert poll(client, g["edit_token"], view.headers["ETag"]).status_code == 200


def test_another_release_draws_the_board_again(client, monkeypatch):
    g = new_game(client)
    tag = poll(client, g["view_token"], None).headers["ETag"]
    assert poll(client, g["view_token"], tag).status_code == 304
    monkeypatch.setattr(view, "_release", lambda: "another")
    r = poll(client, g["view_token"], tag)
    assert r.status_code == 200 and r.headers["ETag"] != tag


def test_the_board_may_be_kept_but_is_always_asked_again(client):
    g = new_game(client)
    r = poll(client, g["view_token"], None)
    assert r.headers["Cache-Control"] == "no-cache, private"
    assert "Cookie" in r.headers["Vary"] and "Accept-Language" in r.headers["Vary"]
    again = poll(client, g["view_token"], r.headers["ETag"])
    assert again.headers["Cache-Control"] == "no-cache, private" and again.headers["ETag"] == r.headers["ETag"]


def test_every_save_is_seen_by_the_next_poll_on_either_server(app, twin):
    """Hands saved on one server; phones polling both servers with the tag they last saw: the first poll after
    each save draws the new board on both, the one after that is a 304."""
    a, b = app.test_client(), twin.test_client()
    g = new_game(a)
    tags = {"a": poll(a, g["view_token"], None).headers["ETag"], "b": poll(b, g["view_token"], None).headers["ETag"]}
    assert tags["a"] == tags["b"]  # the same board, whichever server draws it
    for hand in range(1, 8):
        save(a if hand % 2 else b, g, hand)  # the saves, too, go to either server
        for name, c in (("a", a), ("b", b)):
            r = poll(c, g["view_token"], tags[name])
            assert r.status_code == 200, (hand, name)
            assert r.headers["ETag"] != tags[name]
            html = r.get_data(as_text=True)
            if hand < 7:
                assert totals(html) == [0, 15 * hand, 15 * hand, 15 * hand], (hand, name)  # K 7, A, JK
                assert f"Hand {hand + 1} of 7" in html
            else:
                assert "wins" in html
            tags[name] = r.headers["ETag"]
            assert poll(c, g["view_token"], tags[name]).status_code == 304
        assert tags["a"] == tags["b"]


def test_every_kind_of_change_is_seen_by_the_next_poll(app, twin):
    """Buys, going down, undo, redo, a correction, a new name, the end of the game: each is a new version, and
    the other server's next poll draws it."""
    a, b = app.test_client(), twin.test_client()
    g = new_game(a)
    edit = f"/g/{g['edit_token']}"
    tag = poll(b, g["view_token"], None).headers["ETag"]

    def seen_on_b(why, check=None):
        nonlocal tag
        r = poll(b, g["view_token"], tag)
        assert r.status_code == 200, why
        if check:
            assert check(r.get_data(as_text=True)), why
        tag = r.headers["ETag"]
        assert poll(b, g["view_token"], tag).status_code == 304, why

    def version():
        return a.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json["version"]

    assert a.post(edit + "/buy", data={"hand": 1, "seat": 1}).status_code == 302
    seen_on_b("buy", lambda h: '<span class="count">1' in h)
    assert a.post(edit + "/buy", data={"hand": 1, "seat": 1, "action": "remove"}).status_code == 302
    seen_on_b("buy taken back", lambda h: '<span class="count">1' not in h)
    assert a.post(edit + "/down", data={"hand": 1, "seat": 2, "down": 1}).status_code == 302
    seen_on_b("down")
    save(a, g, 1)
    seen_on_b("hand", lambda h: totals(h) == [0, 15, 15, 15])
    assert a.post(edit + "/undo", data={"version": version()}).status_code == 302
    seen_on_b("undo", lambda h: totals(h) == [0, 0, 0, 0])
    assert a.post(edit + "/redo", data={"version": version()}).status_code == 302
    seen_on_b("redo", lambda h: totals(h) == [0, 15, 15, 15])
    r = a.post(edit + "/hands/1", data={"out": "0", "cards_1": "K", "cards_2": "7", "cards_3": "A",
                                        "version": version()})
    assert r.status_code == 302
    seen_on_b("correction", lambda h: totals(h) == [0, 10, 5, 15])  # K, 7, A
    assert a.post(edit + "/players/rename", data={"seat": 3, "name": "Dora"}).status_code == 302
    seen_on_b("rename", lambda h: "Dora" in h)
    assert a.post(edit + "/end", data={"version": version()}).status_code == 302
    seen_on_b("ended", lambda h: "Dora" in h and "Hand 2 of 7" not in h)


def test_a_deleted_game_stops_answering_polls(app, twin):
    a, b = app.test_client(), twin.test_client()
    g = new_game(a)
    tag = poll(b, g["view_token"], None).headers["ETag"]
    assert a.post(f"/g/{g['edit_token']}/delete").status_code == 302
    assert poll(b, g["view_token"], tag).status_code == 404


def test_the_query_a_poll_makes_uses_an_index(app):
    """The one query of a poll finds the game by an index on either token, never by reading the table."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            plan = db.session.execute(db.text(
                "EXPLAIN QUERY PLAN SELECT id, version, edit_hash FROM games WHERE edit_hash = 'x' OR "
                "view_token = 'y'")).all()
            text = " ".join(str(row[-1]) for row in plan)
            assert "USING INDEX" in text or "USING COVERING INDEX" in text, text
            assert "SCAN games" not in text.replace("SCAN games USING", ""), text
        else:
            db.session.execute(db.text("SET enable_seqscan = off"))  # an empty table: ask what it would use
            plan = db.session.execute(db.text(
                "EXPLAIN SELECT id, version, edit_hash FROM games WHERE edit_hash = 'x' OR view_token = 'y'")).all()
            text = " ".join(row[0] for row in plan)
            assert "Index" in text and "Seq Scan" not in text, text
        db.session.rollback()


# ------------------------------------------------------------------------------------ boards drawn once
def test_a_board_is_drawn_once_for_each_version_and_never_shown_after_a_save(app, client, monkeypatch):
    g = new_game(client)
    drawn = watch_templates(app)
    first = poll(client, g["view_token"], None)
    assert drawn == ["games/_board_fragment.html"]
    drawn.clear()
    with counted(app) as seen:
        again = poll(client, g["view_token"], "W/\"stale\"")  # another phone, with an old tag: the same board
    assert again.status_code == 200 and again.get_data() == first.get_data() and drawn == [] and len(seen) == 1
    save(client, g, 1)
    after = poll(client, g["view_token"], None)
    assert after.headers["ETag"] != first.headers["ETag"] and totals(after.get_data(as_text=True)) == [0, 15, 15, 15]
    assert drawn == ["games/_board_fragment.html"]


def test_a_board_kept_for_every_reader_carries_each_readers_own_form_token(tmp_path, request):
    from tests.conftest import make_app

    app = make_app(request, tmp_path, "sqlite")
    app.config["WTF_CSRF_ENABLED"] = True
    ann, ben = app.test_client(), app.test_client()
    g = new_game(ann)
    tokens = []
    for c in (ann, ben, ann):
        html = poll(c, g["edit_token"], None).get_data(as_text=True)
        assert LINK_MARK not in html and FORM_MARK not in html
        found = set(re.findall(r'name="csrf_token" value="([^"]+)"', html))
        assert len(found) == 1
        tokens.append(found.pop())
    assert tokens[0] != tokens[1]  # two readers, two sessions: each its own token in the same board
    for c, token in ((ann, tokens[2]), (ben, tokens[1])):  # and each works for its reader
        r = c.post(f"/g/{g['edit_token']}/buy", data={"hand": 1, "seat": 1, "csrf_token": token})
        assert r.status_code == 302
    assert ben.post(f"/g/{g['edit_token']}/buy", data={"hand": 1, "seat": 1, "csrf_token": tokens[0]}
                    ).status_code == 400  # not another reader's


def test_the_boards_kept_are_bounded(app, client):
    app.extensions["boards"].size = 2
    games = [new_game(client) for _ in range(3)]
    for g in games:
        poll(client, g["view_token"], None)
    assert len(app.extensions["boards"]._drawn) == 2


# ------------------------------------------------------------------- boards drawn by each server
def test_each_server_draws_its_own_board_and_none_shows_an_old_one(app, twin):
    g = new_game(app.test_client())
    drawn_here, drawn_there = watch_templates(app), watch_templates(twin)
    first = poll(app.test_client(), g["view_token"], None)
    second = poll(twin.test_client(), g["view_token"], None)
    assert drawn_here == drawn_there == ["games/_board_fragment.html"]
    assert second.get_data() == first.get_data() and second.headers["ETag"] == first.headers["ETag"]
    save(twin.test_client(), g, 1)  # a new version: the board kept for the last one is not shown again
    after = poll(app.test_client(), g["view_token"], first.headers["ETag"])
    assert after.status_code == 200 and totals(after.get_data(as_text=True)) == [0, 15, 15, 15]
    assert totals(poll(twin.test_client(), g["view_token"], None).get_data(as_text=True)) == [0, 15, 15, 15]
    assert drawn_here == drawn_there == ["games/_board_fragment.html"] * 2


def test_a_kept_board_never_holds_a_links_token(app, client):
    g = new_game(client)
    html = poll(client, g["edit_token"], None).get_data(as_text=True)
    assert f"/g/{g['edit_token']}/buy" in html
    (kept,) = app.extensions["boards"]._drawn.values()
    assert g["edit_token"] not in kept and LINK_MARK in kept


# -------------------------------------------------------------- an unchanged board's answer
def test_an_unchanged_poll_carries_the_boards_headers(app, client):
    g = new_game(client)
    first = poll(client, g["view_token"], None)
    with counted(app) as seen:
        unchanged = poll(client, g["view_token"], first.headers["ETag"])
    assert unchanged.status_code == 304 and unchanged.get_data() == b"" and len(seen) == 1
    for name in ("ETag", "Cache-Control", "Vary", "Content-Security-Policy"):
        assert unchanged.headers[name] == first.headers[name], name
    secure = client.get(f"/g/{g['view_token']}/board", base_url="https://localhost",
                        headers={"If-None-Match": first.headers["ETag"]})
    assert secure.status_code == 304 and "max-age" in secure.headers["Strict-Transport-Security"]


def test_a_polls_language_is_the_cookie_else_the_browsers(app, client):
    g = new_game(client)
    de = client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "-de-" in de.headers["ETag"]
    tag = de.headers["ETag"]
    assert client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de-DE,de;q=0.9",
                                                               "If-None-Match": tag}).status_code == 304
    assert client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "pt",
                                                               "If-None-Match": tag}).status_code == 200
    client.get(f"/g/{g['view_token']}/board?lang=es")  # remembered in the cookie: it wins over the browser's language
    es = client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de"})
    assert "-es-" in es.headers["ETag"]
    assert client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de",
                                                               "If-None-Match": es.headers["ETag"]}).status_code == 304
    assert client.get(f"/g/{g['view_token']}/board", headers={"Accept-Language": "de",
                                                               "If-None-Match": tag}).status_code == 200


def test_a_changed_board_is_drawn_and_a_failed_read_is_a_503(app, client, monkeypatch):
    g = new_game(client)
    tag = poll(client, g["view_token"], None).headers["ETag"]
    save(client, g, 1)
    after = poll(client, g["view_token"], tag)
    assert after.status_code == 200 and totals(after.get_data(as_text=True)) == [0, 15, 15, 15]
    from sqlalchemy.exc import OperationalError

    def fails(*a, **k):
        raise OperationalError("SELECT", {}, Exception("gone"))
    monkeypatch.setattr(reads, "version_of", fails)
    r = poll(client, g["view_token"], after.headers["ETag"])
    assert r.status_code == 503  # the app's answer to a database it cannot read, not a 304 from nothing


def test_a_poll_after_the_database_dropped_the_servers_connections(app, client, monkeypatch):
    """On PostgreSQL a connection that sat in the pool for ``PING_AFTER`` seconds is checked before it is used
    (with a moved clock here), and one the database dropped is replaced: the poll answers as if nothing
    happened. One used a moment ago is given out unchecked: a poll on it fails (a 503, which the page answers
    by polling again 2 s later) and its connection is dropped, so within as many polls as the pool held
    connections the board answers again, and a save after it is recorded. (On SQLite the pool's connections
    are closed under it, and the file needs no check.)"""
    from referee.web import models

    g = new_game(client)
    tag = poll(client, g["view_token"], None).headers["ETag"]
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"

    def drop():
        with app.app_context():
            if postgres:  # from a connection of its own: every one the app's pool holds goes
                other = create_engine(db.engine.url, poolclass=NullPool)
                with other.begin() as conn:
                    conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
                other.dispose()
            else:
                db.engine.pool.dispose()

    failed = []  # what a statement met
    with app.app_context():
        engine = db.engine
    event.listen(engine, "handle_error", lambda context: failed.append(context.original_exception))
    drop()
    later = models.monotonic() + models.PING_AFTER + 1  # every connection now idle for longer than PING_AFTER
    monkeypatch.setattr(models, "monotonic", lambda: later)
    assert poll(client, g["view_token"], tag).status_code == 304 and failed == []  # checked, replaced, unseen
    save(client, g, 1)
    tag = poll(client, g["view_token"], tag).headers["ETag"]
    monkeypatch.undo()
    if postgres:
        drop()  # the connections were used a moment ago: not checked
        answers = []
        while not answers or answers[-1] != 304:
            answers.append(poll(client, g["view_token"], tag).status_code)
            assert len(answers) <= 16 and answers[-1] in (304, 503), answers
        for _ in range(16):
            r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 2, "out": "Ann", "leftovers": LEFT},
                            headers=auth(g["edit_token"]))
            if r.status_code != 503:
                break
        assert r.status_code == 201, r.json
        assert poll(client, g["view_token"], tag).status_code == 200


def test_a_board_drawn_already_is_answered_with_each_links_own_tokens(app, client):
    """After a save, the first phone's poll draws the board; the other phones' polls get that board as drawn
    (one query, no template), with their own link's token in it and, for an edit link, their own form token."""
    g = new_game(client)
    tag = poll(client, g["view_token"], None).headers["ETag"]
    edit_tag = poll(client, g["edit_token"], None).headers["ETag"]
    save(client, g, 1)
    first = poll(client, g["view_token"], tag)
    assert first.status_code == 200
    drawn = watch_templates(app)
    with counted(app) as seen:
        kept = poll(client, g["view_token"], tag)
    assert kept.status_code == 200 and kept.get_data() == first.get_data() and len(seen) == 1 and drawn == []
    assert kept.headers["ETag"] == first.headers["ETag"] and g["view_token"] in kept.get_data(as_text=True)
    edited = poll(client, g["edit_token"], edit_tag)
    assert edited.status_code == 200 and 'name="csrf_token"' in edited.get_data(as_text=True)
    assert drawn == ["games/_board_fragment.html"]  # the edit link's board is its own
    assert client.get(f"/g/{g['view_token']}/board", headers={"If-None-Match": tag,
                                                               "Accept-Language": "de"}).status_code == 200
    assert drawn == ["games/_board_fragment.html"] * 2  # and so is each language's


def test_the_hand_by_hand_table_is_drawn_again_whenever_what_it_shows_changes(app, client, monkeypatch):
    """A board drawn after a buy or a player going down keeps the hand-by-hand table and chart it drew for the same
    hands (``view.drawn_history``); a save, a correction, a renamed player, another language or the other link
    draws them again, and every board shows what the game holds now."""
    g = new_game(client)
    edit = f"/g/{g['edit_token']}"
    drawn = []
    real = view.chart
    monkeypatch.setattr(view, "chart", lambda st: drawn.append(tuple(st.names)) or real(st))

    def board(token=g["view_token"], lang="en"):
        return client.get(f"/g/{token}/board?lang={lang}").get_data(as_text=True)

    def penalties(html):
        row = re.search(r'<tr id="hand-1".*?</tr>', html, re.S)
        return re.findall(r'<td class="num">(?:<span class="went-out-mark"[^>]*>)?(\d+)', row.group(0))

    save(client, g, 1)
    first = board()
    assert len(drawn) == 1 and penalties(first) == ["0", "15", "15", "15"]
    for seat in (1, 2):
        assert client.post(edit + "/down", data={"hand": 2, "seat": seat, "down": 1}).status_code == 302
        assert client.post(edit + "/buy", data={"hand": 2, "seat": seat}).status_code == 302
        again = board()
        assert "is-down" in again and again != first
        assert len(drawn) == 1  # the same hands: the table and chart as drawn
    assert len(drawn) == 1 and 'id="hand-1"' in board() and "correct-link" not in board()
    assert "correct-link" in board(g["edit_token"]) and len(drawn) == 2  # the edit link's own (its links)
    assert said("Hand by hand", "pt") in board(lang="pt") and len(drawn) == 3  # another language: its own
    r = client.post(edit + "/hands/1", data={"out": "0", "cards_1": "K", "cards_2": "7", "cards_3": "A",
                                             "version": client.get(f"/api/v1/games/{g['id']}",
                                                                   headers=auth(g["view_token"])).json["version"]})
    assert r.status_code == 302
    assert penalties(board()) == ["0", "10", "5", "15"] and len(drawn) == 4
    assert client.post(edit + "/players/rename", data={"seat": 1, "name": "Bea"}).status_code == 302
    renamed = board()
    assert len(drawn) == 5 and '<span title="Bea">Bea</span>' in renamed and 'title="Ben"' not in renamed
    r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 2, "out": "Bea", "leftovers": {"Ann": ["K"], "Cy": ["5"],
                                                                                       "Dee": ["7"]}},
                    headers=auth(g["edit_token"]))
    assert r.status_code == 201, r.json
    assert 'id="hand-2"' in board() and len(drawn) == 6
