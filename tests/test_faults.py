"""Faults at the table: the server killed mid-save, the database locked or gone.

Every save that was acknowledged survives a SIGKILL of the server; a save that cannot be made says so in
plain words and leaves nothing half-written.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
from html import unescape
from pathlib import Path

import pytest
from flask_migrate import upgrade

from referee.web import create_app, server
from tests.kit import refusal


@pytest.fixture()
def migrated_db(tmp_path) -> Path:
    db = tmp_path / "faults.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}"})
    with app.app_context():
        upgrade()
    return db


def test_sigkill_mid_stream_keeps_every_acknowledged_save(served):
    acked: list[tuple[str, int]] = []
    games = []
    for _ in range(24):
        status, g = served.api("POST", "/api/v1/games", {"ruleset": "liverpool", "players": ["A", "B", "C"]})
        assert status == 201
        games.append(g)
    stop = threading.Event()

    def saver(g):
        for hand in range(1, 8):
            if stop.is_set():
                return
            try:
                status, _ = served.api("POST", f"/api/v1/games/{g['id']}/hands",
                                       {"hand": hand, "out": "A", "leftovers": {"B": ["K", "7"], "C": ["A"]}},
                                       g["edit_token"])
            except (OSError, http.client.HTTPException, ValueError):
                return  # the server died under this request: not acknowledged
            if status == 201:
                acked.append((g["id"], hand))

    threads = [threading.Thread(target=saver, args=(g,)) for g in games]
    for t in threads:
        t.start()
    deadline = time.time() + 20
    while len(acked) < 15 and time.time() < deadline:
        time.sleep(0.005)
    served.kill()  # the whole server, workers and all, mid-stream
    stop.set()
    for t in threads:
        t.join()
    assert 0 < len(acked) < len(games) * 7, "the kill did not land mid-stream: the test proves nothing"
    if served.database_url.startswith("sqlite"):
        with sqlite3.connect(served.database_url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    served.start()
    for game_id, hand in acked:
        g = next(x for x in games if x["id"] == game_id)
        status, state = served.api("GET", f"/api/v1/games/{game_id}", None, g["edit_token"])
        assert status == 200
        assert hand in [h["hand"] for h in state["hands"]], (game_id, hand)
        for h in state["hands"]:  # nothing half-written: every recorded hand is whole
            assert set(h["penalties"]) == {"A", "B", "C"}


def test_locked_database_says_so_and_writes_nothing(migrated_db):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{migrated_db}", "SQLITE_TIMEOUT": 0.2,
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    g = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}).json
    auth = {"Authorization": f"Bearer {g['edit_token']}"}
    blocker = sqlite3.connect(migrated_db, timeout=0.1, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "A",
                                                                "leftovers": {"B": ["K"], "C": ["A"]}}, headers=auth)
        assert r.status_code == 503 and r.json["error"]["code"] == "database_unavailable"
        assert r.json["error"]["message"] == refusal("database_unavailable")
        page = client.post(f"/g/{g['edit_token']}/hand", data={"hand": "1", "out": "0", "cards_1": "K",
                                                               "cards_2": "A"})
        assert page.status_code == 503 and refusal("database_unavailable") in unescape(page.get_data(as_text=True))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    state = client.get(f"/api/v1/games/{g['id']}", headers=auth).json
    assert state["hands"] == [] and state["version"] == 1
    r = client.post(f"/api/v1/games/{g['id']}/hands", json={"hand": 1, "out": "A",
                                                            "leftovers": {"B": ["K"], "C": ["A"]}}, headers=auth)
    assert r.status_code == 201


def test_database_gone_says_so():
    app = create_app({"TESTING": True, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none",
                      "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"connect_timeout": 1}}})
    client = app.test_client()
    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]})
    assert r.status_code == 503 and r.json["error"]["code"] == "database_unavailable"
    r = client.get("/g/sometoken", headers={"Accept-Language": "de"})
    assert r.status_code == 503 and "<html lang=\"de\">" in r.get_data(as_text=True)
    # a phone's poll: its version read fails, and the app says so
    r = client.get("/g/sometoken/board", headers={"If-None-Match": 'W/"1"', "Accept-Language": "de"})
    assert r.status_code == 503 and "<html lang=\"de\">" in r.get_data(as_text=True)
    assert client.get("/healthz").status_code == 200  # the rules and the referee still work
    assert client.get("/rules/liverpool").status_code == 200


def test_sqlite_writes_take_turns_and_one_that_never_gets_its_turn_writes_nothing(tmp_path, request):
    """On SQLite a write waits for the file's one write lock (``BEGIN IMMEDIATE`` and the busy timeout). Another
    process holding it past the busy timeout gets the writer a 503 in plain words and nothing written; once
    it is free the same save goes in."""
    from referee.web.models import db
    from tests.conftest import make_app

    url = f"sqlite:///{tmp_path / 'test.sqlite3'}"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test", "DATABASE_URL": url,
                      "SQLITE_TIMEOUT": 0.3})
    with app.app_context():
        upgrade()
    c = app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
    save = {"hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["7"]}}
    auth = {"Authorization": f"Bearer {g['edit_token']}"}
    other = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None)  # another process's writer
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        refused = c.post(f"/api/v1/games/{g['id']}/hands", json=save, headers=auth | {"Accept-Language": "de"})
        assert refused.status_code == 503 and 0.3 <= time.monotonic() - started < 5
        assert "<html" not in refused.get_data(as_text=True) and refused.json["error"]["message"]
        assert c.get(f"/api/v1/games/{g['id']}", headers=auth).json["hands"] == []
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert c.post(f"/api/v1/games/{g['id']}/hands", json=save, headers=auth).status_code == 201
    with app.app_context():
        db.engine.dispose()

    app = make_app(request, tmp_path, "sqlite")  # (the busy timeout at its default)
    c = app.test_client()
    # threads of one process take turns too: eight saves at once to eight games all go in
    games = [c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
             for _ in range(8)]
    codes: list[int] = []
    barrier = threading.Barrier(8)

    def one(game):
        client = app.test_client()
        barrier.wait(timeout=10)
        r = client.post(f"/api/v1/games/{game['id']}/hands", json=save,
                        headers={"Authorization": f"Bearer {game['edit_token']}"})
        codes.append(r.status_code)

    threads = [threading.Thread(target=one, args=(game,)) for game in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert codes == [201] * 8


def test_the_production_servers_access_log_holds_no_token_and_a_large_body_is_refused(serve, tmp_path):
    """granian's own access log (``ACCESS_LOG=1``) shows a game link as ``/g/***``; a body over the app's cap is
    refused with 413 before the app reads it, on the real server."""
    log = tmp_path / "server.log"
    served = serve("sqlite", log=log, access_log=True)
    status, g = served.api("POST", "/api/v1/games", {"ruleset": "liverpool", "players": ["A", "B", "C"]})
    assert status == 201
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    for path in (f"/g/{g['edit_token']}/board", f"/g/{g['view_token']}"):
        conn.request("GET", path)
        assert conn.getresponse().read()
    conn.request("POST", "/api/v1/games", body=b"{" + b" " * 400_000 + b"}",
                 headers={"Content-Type": "application/json"})
    refused = conn.getresponse()
    assert refused.status == 413 and json.loads(refused.read())["error"]["code"] == "too_large"
    deadline = time.time() + 10
    while "/board" not in log.read_text() and time.time() < deadline:
        time.sleep(0.05)
    served.stop()
    text = log.read_text()
    assert "/g/***/board" in text and "GET /g/***" in text and "POST /api/v1/games" in text, text
    assert g["edit_token"] not in text and g["view_token"] not in text


def test_a_server_asked_to_stop_stops_even_just_after_it_started(serve):
    """Asked to stop as soon as it answers (a restart right after a start, its second worker maybe still
    loading the app), the server stops within its time to stop (``server.STOP_WITHIN_S``): without that time
    granian waited for such a worker for ever. Three starts and stops, each at once."""
    served = serve("sqlite")
    for i in range(3):
        if i:
            served.start()
        proc = served.proc
        asked = time.monotonic()
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=server.STOP_WITHIN_S + 20)
        except subprocess.TimeoutExpired:
            served.kill()
            pytest.fail("the server did not stop")
        assert time.monotonic() - asked < server.STOP_WITHIN_S + 5
