"""Nothing that must be shared lives in one process's memory: two app instances on one database (SQLite and
PostgreSQL) count a client's writes together, so two servers, or two workers of one, never double the limit."""

from __future__ import annotations

import threading

import pytest

from referee.web import create_app, ratelimit
from referee.web.models import RateCount, db
from tests.conftest import backends, make_app

PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.fixture(params=list(backends()))
def pair(request, tmp_path):
    """Two servers on one database, the write limit on (4 a minute)."""
    first = make_app(request, tmp_path, request.param)
    second = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                         "DATABASE_URL": first.config["SQLALCHEMY_DATABASE_URI"]})
    for app in (first, second):
        app.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="4 per minute")
    yield first, second
    for app in (first, second):
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def counts(app):
    """The write counts every server on the app's database shares: (count, when its window ends) per row."""
    with app.app_context(), ratelimit.counts_engine().connect() as conn:
        return [(row.count, row.expires_at) for row in conn.execute(RateCount.__table__.select())]


def test_sqlite_keeps_the_counts_beside_the_games_in_a_file_of_their_own(pair):
    """On SQLite a save never queues behind another client's count (one writer at a time per file); on
    PostgreSQL the counts are a table of the app's database, written in one round trip each."""
    a, b = pair
    write(a)
    url = a.config["SQLALCHEMY_DATABASE_URI"]
    with a.app_context(), b.app_context():
        engine = ratelimit.counts_engine()
        if url.startswith("sqlite"):
            assert engine is not db.engine and engine.url.database.endswith(".limits.sqlite3")
            assert ratelimit.counts_path(url).exists()
        else:  # the app's database, through connections that commit each count and never wait for the disk
            assert engine.url.database == db.engine.url.database and engine.url.host == db.engine.url.host
            with engine.connect() as conn:
                assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
    assert counts(b) == counts(a) == [(1, counts(a)[0][1])]  # one client, one window (4 a minute), both servers


def write(app, address="10.0.0.1"):
    return app.test_client().post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS},
                                  environ_overrides={"REMOTE_ADDR": address})


def test_two_servers_count_one_clients_writes_together(pair):
    a, b = pair
    answers = [write(app).status_code for app in (a, b, a, b)]
    assert answers == [201] * 4
    # the counts are in the database, not in this process: a server started afresh (as another process, or after
    # a restart) holds nothing of its own and still refuses the fifth
    assert [count for count, _ in counts(a)] == [4]
    fresh = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                        "DATABASE_URL": a.config["SQLALCHEMY_DATABASE_URI"]})
    fresh.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="4 per minute")
    assert write(fresh).status_code == 429
    with fresh.app_context():
        ratelimit.counts_engine().dispose()
        db.engine.dispose()
    assert write(a).status_code == 429 and write(b).status_code == 429
    refused = write(b)
    assert refused.json["error"]["code"] == "rate_limited" and int(refused.headers["Retry-After"]) > 0
    assert write(a, "10.0.0.2").status_code == 201  # another client has a count of its own


def test_the_headers_say_what_is_left_whichever_server_answers(pair):
    a, b = pair
    left = [int(write(app).headers["X-RateLimit-Remaining"]) for app in (a, b, a)]
    assert left == [3, 2, 1]


def test_a_window_that_ended_starts_again(pair, monkeypatch):
    a, b = pair
    now = ratelimit.clock()
    monkeypatch.setattr(ratelimit, "clock", lambda: now)
    for app in (a, b, a, b):
        assert write(app).status_code == 201
    assert write(a).status_code == 429
    monkeypatch.setattr(ratelimit, "clock", lambda: now + 61)  # a minute later, on both servers
    assert write(b).status_code == 201 and write(a).status_code == 201
    # the ended windows are swept (each process now and then): no row is left whose window is over
    monkeypatch.setattr(ratelimit, "clock", lambda: now + 200)
    write(a, "10.0.0.3")
    assert [ends for _, ends in counts(a) if ends < now + 200] == []


def test_writes_sent_at_once_to_two_servers_get_exactly_the_limit(pair):
    a, b = pair
    barrier = threading.Barrier(8)
    codes: list[int] = []
    lock = threading.Lock()

    def run(app):
        client = app.test_client()
        barrier.wait(timeout=10)
        code = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS},
                           environ_overrides={"REMOTE_ADDR": "10.0.0.7"}).status_code
        with lock:
            codes.append(code)

    threads = [threading.Thread(target=run, args=(a if i % 2 else b,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(codes) == [201] * 4 + [429] * 4, codes


def test_a_form_drawn_by_one_server_is_taken_by_the_other(tmp_path, request):
    """Sessions and form tokens are signed with the one SECRET_KEY every server is given, and live in the
    phone's cookie: a buy drawn by one server and sent to the other is taken."""
    import re

    a = make_app(request, tmp_path, "sqlite")
    b = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": a.config["SQLALCHEMY_DATABASE_URI"]})
    a.config["WTF_CSRF_ENABLED"] = b.config["WTF_CSRF_ENABLED"] = True
    phone = a.test_client()
    g = phone.post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS}).json
    html = phone.get(f"/g/{g['edit_token']}/board").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    other = b.test_client()
    for cookie in phone._cookies.values():  # the same phone (its cookies) asking the other server
        other.set_cookie(cookie.key, cookie.value, domain=cookie.domain)
    r = other.post(f"/g/{g['edit_token']}/buy", data={"hand": 1, "seat": 1, "csrf_token": token})
    assert r.status_code == 302
    assert '<span class="count">1' in other.get(f"/g/{g['view_token']}/board").get_data(as_text=True)


def test_the_headers_report_the_requests_own_count_even_if_its_window_ends_meanwhile(pair, monkeypatch):
    a, _ = pair
    now = ratelimit.clock()
    ticks = iter([now] + [now + 90] * 20)  # the hit at the start of the request, then the minute is over
    monkeypatch.setattr(ratelimit, "clock", lambda: next(ticks))
    r = write(a)
    assert r.status_code == 201 and r.headers["X-RateLimit-Remaining"] == "3"


def test_a_write_over_any_of_its_rates_is_refused_until_that_window_ends(pair, monkeypatch):
    """Two rates (2 a second, 3 a minute): the second's is met first, then the minute's; each refusal says when
    to try again, and the headers report the rate with the fewest writes left."""
    a, b = pair
    for app in pair:
        app.config["RATE_LIMIT_WRITES"] = "2 per second; 3 per minute"
    now = ratelimit.clock()
    monkeypatch.setattr(ratelimit, "clock", lambda: now)
    first = write(a)
    assert first.headers["X-RateLimit-Limit"] == "2" and first.headers["X-RateLimit-Remaining"] == "1"
    assert write(b).headers["X-RateLimit-Remaining"] == "0"
    third = write(a)
    assert third.status_code == 429 and third.headers["Retry-After"] == "1"
    monkeypatch.setattr(ratelimit, "clock", lambda: now + 1.5)  # a new second; the minute has had 3 writes
    fourth = write(b)
    assert fourth.status_code == 429 and fourth.json["error"]["code"] == "rate_limited"
    assert fourth.headers["X-RateLimit-Limit"] == "3" and 58 <= int(fourth.headers["Retry-After"]) <= 59
    monkeypatch.setattr(ratelimit, "clock", lambda: now + 61)
    assert write(a).status_code == 201
