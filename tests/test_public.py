"""Serving in public: the address the app gives out, the hosts it answers for, the limit on writes, what its
logs hold, the CSV a spreadsheet opens, and /healthz while the referee's hardest searches run."""

from __future__ import annotations

import csv
import http.client
import io
import json
import logging
import sqlite3
import threading
import time
from html import unescape

import pytest
from werkzeug.serving import make_server

from referee.web import create_app
from referee.web.public import mask
from tests.conftest import make_app
from tests.kit import refusal, said
from tests.test_games import auth, create, record


# ------------------------------------------------------------------------------------ the public address
@pytest.fixture()
def public_app(request, tmp_path):
    app = make_app(request, tmp_path, "sqlite")
    app.config.update(PUBLIC_URL="https://rummy.example.org/", TRUSTED_HOSTS=["rummy.example.org", "localhost"])
    return app


def test_links_are_built_on_the_public_address_not_the_host_header(public_app):
    c = public_app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]},
               headers={"Host": "localhost"}).json
    assert g["edit_url"] == f"https://rummy.example.org/g/{g['edit_token']}"
    assert g["view_url"] == f"https://rummy.example.org/g/{g['view_token']}"
    html = c.get(f"/g/{g['edit_token']}/share", headers={"Host": "localhost"}).get_data(as_text=True)
    assert f"https://rummy.example.org/g/{g['view_token']}" in html and "localhost/g/" not in html


def test_unknown_hosts_are_refused_when_trusted_hosts_are_set(public_app):
    c = public_app.test_client()
    for path in ("/", "/new", "/api/v1/rulesets", "/g/whatever/share"):
        r = c.get(path, headers={"Host": "evil.example", "Accept-Language": "es"})
        assert r.status_code == 400, path
        assert "evil.example" not in r.get_data(as_text=True)
    assert refusal("unknown_host", "es") in unescape(
        c.get("/", headers={"Host": "evil.example", "Accept-Language": "es"}).get_data(as_text=True))
    r = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]},
               headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.json["error"]["code"] == "unknown_host"
    assert c.get("/", headers={"Host": "rummy.example.org"}).status_code == 200


def test_without_configuration_links_follow_the_request(client):
    g = create(client)
    assert g["edit_url"] == f"http://localhost/g/{g['edit_token']}"


# ------------------------------------------------------------------------------------ the limit on writes
def test_writes_are_limited_per_client(tmp_path, request):
    app = make_app(request, tmp_path, "sqlite")
    app.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="4 per minute")
    c = app.test_client()
    g = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]}).json
    for hand in (1, 2, 3):
        r = record(c, g, hand, "Ann", {"Ben": ["K"], "Cy": ["7"]})
        assert r.status_code == 201
    refused = record(c, g, 4, "Ann", {"Ben": ["K"], "Cy": ["7"]})
    assert refused.status_code == 429 and refused.json["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) > 0
    page = c.post(f"/g/{g['edit_token']}/undo", headers={"Accept-Language": "de"})
    assert page.status_code == 429 and refusal("rate_limited", "de") in unescape(page.get_data(as_text=True))
    # reading, the referee and other clients are not held back
    assert c.get(f"/g/{g['edit_token']}").status_code == 200
    assert c.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"]]}
                  ).status_code == 200
    other = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]},
                   environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201
    assert len(c.get(f"/api/v1/games/{g['id']}", headers=auth(g["view_token"])).json["hands"]) == 3


def test_the_referees_rulings_count_no_write(tmp_path, request):
    """A ruling is asked with a post but changes nothing: any number of them leave the client's writes whole
    (and cost the limiter no work)."""
    app = make_app(request, tmp_path, "sqlite")
    app.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="1 per minute")
    c = app.test_client()
    for _ in range(3):
        assert c.post("/api/v1/check", json={"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"]]}
                      ).status_code == 200
        assert c.post("/api/v1/arrange", json={"ruleset": "liverpool", "hand": 1, "cards": ["7H", "7D"]}
                      ).status_code == 200
    first = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]})
    assert first.status_code == 201
    second = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]})
    assert second.status_code == 429


def test_tests_and_the_load_test_do_not_trip_the_limit(client):
    assert client.application.config["RATELIMIT_ENABLED"] is False  # TESTING: off unless a test turns it on
    app = create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "x", "RATE_LIMIT_WRITES": "100000 per minute"})
    assert app.config["RATELIMIT_ENABLED"] is True and app.config["RATE_LIMIT_WRITES"] == "100000 per minute"


# ------------------------------------------------------------------------------------ logs
def test_tokens_are_masked_in_log_lines():
    line = '127.0.0.1 - - "GET /g/Abc-_123456789012345678901234/board HTTP/1.1" 200 Authorization: Bearer s3cr3t'
    assert mask(line) == '127.0.0.1 - - "GET /g/***/board HTTP/1.1" 200 Authorization: Bearer ***'
    assert mask('{"edit_token": "abcDEF123_-"}') == '{"edit_token": "***"}'
    # a group's links too, and the group token a game's creation sends; its pages without a token stay readable
    assert mask('"GET /groups/Abc-_123456789012345678901234/stats.csv HTTP/1.1" 200') == \
        '"GET /groups/***/stats.csv HTTP/1.1" 200'
    assert mask('{"group_token": "abcDEF123_-"}') == '{"group_token": "***"}'
    assert mask('"POST /groups/new HTTP/1.1" "GET /groups/import?lang=de HTTP/1.1"') == \
        '"POST /groups/new HTTP/1.1" "GET /groups/import?lang=de HTTP/1.1"'


def test_the_request_log_and_the_access_log_hold_no_token(client, caplog):
    g = create(client)
    caplog.set_level(logging.INFO)
    for name, args in (("werkzeug", ('%s - - [%s] "%s" %s %s', "127.0.0.1", "now",
                                     f"GET /g/{g['edit_token']}/board HTTP/1.1", "304", "-")),
                       ("granian.access", ('%(addr)s "%(method)s %(path)s" %(status)d',
                                           {"addr": "127.0.0.1", "status": 200, "method": "POST",
                                            "path": f"/g/{g['edit_token']}/hand"}))):
        logger = logging.getLogger(name)
        logger.disabled = False  # (the migrations' logging set-up, run in this process, turned it off)
        logger.info(args[0], *args[1:]) if isinstance(args[1], str) else logger.info(args[0], args[1])
    group = client.post("/api/v1/groups", json={"name": "Club"}).json
    logger = logging.getLogger("werkzeug")
    logger.info('%s - - [%s] "%s" %s %s', "127.0.0.1", "now", f"GET /groups/{group['view_token']} HTTP/1.1", "200",
                "-")
    text = caplog.text
    assert "/g/***/board" in text and "/g/***/hand" in text and g["edit_token"] not in text
    assert "/groups/***" in text and group["view_token"] not in text


def test_the_503_warning_logs_no_sql_parameters(tmp_path):
    from flask_migrate import upgrade

    db = tmp_path / "locked.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}", "SQLITE_TIMEOUT": 0.2})
    with app.app_context():
        upgrade()
    app.logger.disabled = False  # (the migrations' logging set-up, run in this process, turned it off)
    blocker = sqlite3.connect(db, timeout=0.1, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    app.logger.addHandler(handler)
    try:
        r = app.test_client().post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"]})
    finally:
        app.logger.removeHandler(handler)
        blocker.execute("ROLLBACK")
        blocker.close()
    assert r.status_code == 503
    warning = lines.getvalue()
    assert "database unavailable" in warning and "locked" in warning
    assert "INSERT" not in warning and "parameters" not in warning and "Ann" not in warning


# ------------------------------------------------------------------------------------ the CSV
def _rows(client, g, lang="en"):
    text = client.get(f"/g/{g['edit_token']}/export.csv", headers={"Accept-Language": lang}).get_data(as_text=True)
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_has_headers_in_the_readers_language_and_the_buys(client):
    g = create(client, players=["Ann", "Ben", "Cy"])
    for player in ("Ben", "Ben", "Cy"):
        client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 1, "player": player}, headers=auth(g["edit_token"]))
    record(client, g, 1, "Ann", {"Ben": ["K"], "Cy": ["7"]})
    client.post(f"/api/v1/games/{g['id']}/buys", json={"hand": 2, "player": "Ann"}, headers=auth(g["edit_token"]))
    en = _rows(client, g)
    assert en[0] == ["Hand", "Went out", "Ann", "Ben", "Cy", "Buys: Ann", "Buys: Ben", "Buys: Cy"]
    assert en[1] == ["1", "Ann", "0", "10", "5", "0", "2", "1"]
    assert en[2] == ["2", "", "", "", "", "1", "0", "0"]  # the hand being played: its buys so far
    assert en[3] == ["Total", "", "0", "10", "5", "1", "2", "1"]
    de = _rows(client, g, "de")
    assert de[0] == [said("Hand", "de"), said("Went out", "de"), "Ann", "Ben", "Cy",
                     *(said("Buys: %(name)s", "de", name=n) for n in ("Ann", "Ben", "Cy"))]
    assert de[-1][0] == said("Total", "de")
    assert _rows(client, g, "es")[0][:2] == [said("Hand", "es"), said("Went out", "es")]
    assert _rows(client, g, "pt")[0][0] == said("Hand", "pt")
    exported = client.get(f"/g/{g['edit_token']}/export.json").json  # the JSON export stays as it was
    assert list(exported)[:3] == ["format", "ruleset", "variants"] and len(exported["buys"]) == 4


def test_names_that_look_like_formulas_reach_the_csv_as_text(client):
    names = ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tTab"]
    g = create(client, players=names)
    record(client, g, 1, names[1], {names[0]: ["K"], names[2]: ["7"], names[3]: ["A"], names[4]: ["2"]})
    for row in _rows(client, g):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t")), cell
    header = _rows(client, g)[0]
    assert "'=HYPERLINK(\"http://x\")" in header and "'-2" in header and "'+1" in header
    assert json.loads(client.get(f"/g/{g['edit_token']}/export.json").data)["players"][0] == names[0]


# ------------------------------------------------------------------------------------ healthz under load
THE_247_BYTES = {"ruleset": "liverpool", "hand": 1, "options": {"contracts": ["R13 R13 R13 R13"], "wild_ranks":
                 ["JK", "2"], "decks": 4, "jokers": 7}, "cards": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK JK JK JK 2H"}
HARDEST = {"ruleset": "liverpool", "hand": 1, "cards": "JS 3S QD AS KS 5C QS 8S JK 4D 9C 2C 3S 5C 8D 2H KH KH",
           "options": {"contracts": ["S3 R4 R4 R4"], "wild_ranks": ["JK", "2", "3"], "decks": 4, "jokers": 8}}


def test_healthz_answers_while_four_of_the_hardest_requests_run(client, monkeypatch):
    """Four clients send, over and over, the request that once cost 11 s (now refused: its house rules are
    past what tables play) and the hardest one within the ranges, on a budget small enough that it must say
    it could not decide; /healthz, asked meanwhile on the same threaded server, answers every time. Nothing
    here is timed: a loaded machine makes it slower, not different."""
    monkeypatch.setattr("referee.budget.STEPS", 300)
    server = make_server("127.0.0.1", 0, client.application, threaded=True)
    port = server.server_port
    threading.Thread(target=server.serve_forever, daemon=True).start()
    in_flight = [0]
    lock = threading.Lock()
    answers: list[tuple[int, dict]] = []
    during: list[int] = []

    def post(body):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/api/v1/arrange", body=json.dumps(body), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())

    def phone():
        for _ in range(6):
            for body in (THE_247_BYTES, HARDEST):
                with lock:
                    in_flight[0] += 1
                try:
                    answers.append(post(body))
                finally:
                    with lock:
                        in_flight[0] -= 1

    phones = [threading.Thread(target=phone) for _ in range(4)]
    try:
        for t in phones:
            t.start()
        while any(t.is_alive() for t in phones):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/healthz")
            assert conn.getresponse().status == 200
            with lock:
                during.append(in_flight[0])
        for t in phones:
            t.join()
    finally:
        server.shutdown()
    assert len(answers) == 48
    for status, body in answers:
        if status == 400:  # the 247 bytes: refused by name
            assert body["error"]["field"] == "options.contracts"
        else:  # the hardest within the ranges: the budget ran out, and the answer says so
            assert status == 200 and body["possible"] is None and body["search_exhausted"] and body["note"]
    assert any(n > 0 for n in during)  # /healthz answered while searches were running


def test_a_write_limit_is_read_as_rates_and_one_that_cannot_be_read_stops_the_start():
    from referee.web.ratelimit import Rate, rates

    assert rates("10 per second;120 per minute") == (Rate(10, 1), Rate(120, 60))
    assert rates("5/minute, 30 per 2 hours ; 100 per Days") == (Rate(5, 60), Rate(30, 7200), Rate(100, 86400))
    for wrong in ("", "ten per second", "10 per fortnight", "0 per minute", "10 per 0 minutes", "10 per second;x"):
        with pytest.raises(ValueError, match="RATE_LIMIT_WRITES"):
            rates(wrong)
    with pytest.raises(ValueError, match="'12 a minute' is not a rate"):
        create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "x", "RATE_LIMIT_WRITES": "12 a minute"})


def _every_write(c) -> dict[str, object]:
    """A way to make each kind of write, set up with the limit off; each is a function sending one write."""
    group = c.post("/api/v1/groups", json={"name": "Club"}).json
    game = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["Ann", "Ben", "Cy"], "group": group["id"],
                                         "group_token": group["edit_token"]}).json
    record(c, game, 1, "Ann", {"Ben": ["K"], "Cy": ["7"]})
    exported = {"format": 1, "kind": "group", "name": "Imported", "roster": ["Ann"], "games": []}
    edit = group["edit_token"]
    return {
        "group created (API)": lambda: c.post("/api/v1/groups", json={"name": "Another"}),
        "group created (form)": lambda: c.post("/groups/new", data={"name": "Another"}),
        "roster name added": lambda: c.post(f"/groups/{edit}/roster", data={"name": "Dee"}),
        "rematch": lambda: c.post(f"/groups/{edit}/rematch", data={}),
        "group imported": lambda: c.post("/groups/import", data={"json": json.dumps(exported)}),
        "a group's new game": lambda: c.post(f"/groups/{edit}/new", data={
            "family": "liverpool", "players": ["Ann", "Ben", "Cy"], "start": "1"}),
        "game ended (API)": lambda: c.post(f"/api/v1/games/{game['id']}/end", json={},
                                           headers=auth(game["edit_token"])),
        "game ended (form)": lambda: c.post(f"/g/{game['edit_token']}/end", data={}),
    }


@pytest.mark.parametrize("kind", ["group created (API)", "group created (form)", "roster name added", "rematch",
                                  "group imported", "a group's new game", "game ended (API)", "game ended (form)"])
def test_every_kind_of_write_is_counted(tmp_path, request, kind):
    app = make_app(request, tmp_path, "sqlite")
    c = app.test_client()
    write = _every_write(c)[kind]
    app.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="1 per minute")
    c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]})  # the one write allowed
    refused = write()
    assert refused.status_code == 429, (kind, refused.status_code)


@pytest.mark.parametrize("kind", ["group created (API)", "group created (form)", "roster name added", "rematch",
                                  "group imported", "a group's new game", "game ended (API)", "game ended (form)",
                                  "buy (API)", "hand saved (API)", "undo (form)"])
def test_every_write_waits_for_another_writer_on_sqlite(tmp_path, request, kind):
    """On SQLite every kind of write that meets another writer holding the file (another process saving) waits
    for it, up to the busy timeout, and goes in: nothing fails, nothing is left half written."""
    app = make_app(request, tmp_path, "sqlite")
    c = app.test_client()
    writes = _every_write(c)
    game = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}).json
    writes |= {
        "buy (API)": lambda: c.post(f"/api/v1/games/{game['id']}/buys", json={"hand": 1, "player": "B"},
                                    headers=auth(game["edit_token"])),
        "hand saved (API)": lambda: c.post(f"/api/v1/games/{game['id']}/hands", json={
            "hand": 1, "out": "A", "leftovers": {"B": ["K"], "C": ["7"]}}, headers=auth(game["edit_token"])),
        "undo (form)": lambda: c.post(f"/g/{game['edit_token']}/undo", data={}),
    }
    if kind == "undo (form)":
        writes["buy (API)"]()
    other = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    freed = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    freed.start()
    try:
        started = time.monotonic()
        r = writes[kind]()
        waited = time.monotonic() - started
    finally:
        freed.join()
        other.close()
    assert r.status_code < 400, (kind, r.status_code)
    assert waited >= 0.25, (kind, waited)  # it met the other writer and waited for it


def test_sqlite_commits_reach_the_disk_before_a_save_is_answered(tmp_path, request):
    """synchronous=FULL on the games' database (a power cut loses no acknowledged save); the write limit's own
    file keeps NORMAL (its counts may be forgotten)."""
    from referee.web import ratelimit
    from referee.web.models import db

    app = make_app(request, tmp_path, "sqlite")
    app.config.update(RATELIMIT_ENABLED=True)
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        limits = ratelimit.counts_engine()
        assert limits is not db.engine and limits.dialect.name == "sqlite"
        with limits.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL


# ------------------------------------------------------------------------------------ inputs that gave a 500
def test_hostile_names_tokens_numbers_and_nesting_answer_4xx(app):
    """A lone surrogate in a group's name, a NUL in a group's or a roster's name or in a token (PostgreSQL
    refuses NUL in text), a hand number of 31 digits, JSON nested thousands deep in a group's import."""
    app.config.update(PROPAGATE_EXCEPTIONS=False)
    c = app.test_client()
    r = c.post("/api/v1/groups", data='{"name": "a\\ud800b"}', content_type="application/json")
    assert r.status_code == 201 and r.json["id"]
    assert c.get(f"/api/v1/groups/{r.json['id']}", headers={"Authorization": f"Bearer {r.json['view_token']}"}
                 ).json["name"] == "ab"
    g = c.post("/api/v1/groups", json={"name": "a\x00b"}).json
    assert c.get(f"/api/v1/groups/{g['id']}", headers={"Authorization": f"Bearer {g['view_token']}"}).json["name"] == "ab"
    assert c.post(f"/groups/{g['edit_token']}/roster", data={"name": "D\x00ee"}).status_code == 302
    assert "Dee" in c.get(f"/groups/{g['edit_token']}").get_data(as_text=True)
    assert c.get("/groups/abc%00def").status_code == 404
    assert c.get(f"/api/v1/groups/{g['id']}", headers={"Authorization": "Bearer a\x00b"}).status_code in (401, 403, 404)
    game = c.post("/api/v1/games", json={"ruleset": "liverpool", "players": ["A", "B", "C"]}).json
    r = c.post(f"/api/v1/games/{game['id']}/hands", headers=auth(game["edit_token"]), content_type="application/json",
               data='{"hand": 1000000000000000000000000000000, "out": "A", "leftovers": {"B": 5, "C": 5}}')
    assert r.status_code == 400 and r.json["error"]["field"] == "hand"
    nested = "[" * 5000 + "]" * 5000
    assert c.post("/groups/import", data={"json": nested}).status_code == 400
    assert c.post("/import", data={"json": nested}).status_code == 400


def test_a_host_header_no_link_can_hold_is_a_400_not_a_500(served):
    """A Host label of 70 letters failed the IDNA encoding of every link the page makes, and the error page's
    own: a 500 with no body. It is refused before the app sees it; a normal host and a port are served."""
    for path in ("/", "/rules", "/g/abc", "/api/v1/games/x"):
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        conn.request("GET", path, headers={"Host": "a" * 70 + ".example.org"})
        resp = conn.getresponse()
        assert resp.status == 400 and b"Host" in resp.read(), path
    for host in (f"127.0.0.1:{served.port}", "rummy.example.org", "[::1]:8000", "my-laptop.local."):
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        conn.request("GET", "/healthz", headers={"Host": host})
        assert conn.getresponse().status == 200, host


def test_idle_connections_are_closed_after_the_keep_alive_limit(served):
    """A kept-alive connection that sends nothing more, and one that never sends a request at all, are closed
    by the server within its limit (``server.KEEP_ALIVE_MS``, docs/deploy.md), not held open for ever."""
    import socket
    import time

    from referee.web import server

    limit = server.KEEP_ALIVE_MS / 1000
    kept = socket.create_connection(("127.0.0.1", served.port), timeout=limit + 10)
    kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
    first = kept.recv(65536)
    assert first.startswith(b"HTTP/1.1 200")
    silent = socket.create_connection(("127.0.0.1", served.port), timeout=limit + 10)
    start = time.monotonic()
    closed_after: dict[str, float] = {}

    def wait_closed(name: str, conn: socket.socket) -> None:
        try:
            while conn.recv(65536):  # (a timeout answer, if the server sends one, before it closes)
                pass
        except (TimeoutError, ConnectionError):
            return
        closed_after[name] = time.monotonic() - start

    threads = [threading.Thread(target=wait_closed, args=pair) for pair in (("kept", kept), ("silent", silent))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=limit + 15)
    kept.close()
    silent.close()
    assert set(closed_after) == {"kept", "silent"}, closed_after
    assert all(s <= limit + 2 for s in closed_after.values()), closed_after
