"""How many SQL statements each scoreboard request issues, counted on the engine (SQLite and PostgreSQL).

A phone on a table's wifi waits for each of them; these bounds keep a buy, a poll and a recorded hand cheap."""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

from sqlalchemy import Engine, event

from referee.families import resolve
from referee.web.models import db
from tests.conftest import new_api_game as new_game

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


@contextmanager
def counted(app):
    """The statements the app sends to any of its databases (the games', the write limit's counts) while the
    block runs (BEGIN/COMMIT are not counted)."""
    seen: list[str] = []

    def listen(conn, cursor, statement, parameters, context, executemany):
        seen.append(statement)

    with event_listening(Engine, "before_cursor_execute", listen):
        yield seen


@contextmanager
def event_listening(engine, name, listener):
    event.listen(engine, name, listener)
    try:
        yield
    finally:
        event.remove(engine, name, listener)


def record_page(client, token, hand, out=0):
    data = {"hand": hand, "out": out}
    data |= {"cards_1": "7H KD", "cards_2": "2C", "cards_3": "A"}
    return client.post(f"/g/{token}/hand", data=data)


def test_recording_a_hand(app, client):
    g = new_game(client)
    with counted(app) as seen:
        r = record_page(client, g["edit_token"], 1)
    assert r.status_code == 302
    assert len(seen) <= 8, seen  # (SQLite: BEGIN IMMEDIATE) the game's read (3), its version bumped, the hand, its results and its change


def test_a_hand_saved_through_the_api(app, client):
    """The game read, its version bumped, the hand, its results and the change written, and the hands read
    for the totals the answer gives (not the buys and downs: the answer does not say them)."""
    g = new_game(client)
    with counted(app) as seen:
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={
            "hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["A"], "Dee": ["JK"]}},
            headers={"Authorization": f"Bearer {g['edit_token']}"})
    assert r.status_code == 201 and r.json["totals"] == {"Ann": 0, "Ben": 10, "Cy": 15, "Dee": 15}
    assert len(seen) <= 9, seen  # (SQLite: BEGIN IMMEDIATE) the game (3), its version bumped, the hand, results, change, and the totals
    # the last change that could be undone is not read with the game: the API answers with no undo button
    assert not [s for s in seen if s.lstrip().upper().startswith("SELECT") and "changes" in s], seen


def test_a_hand_saved_through_the_api_is_one_transaction(app, client):
    """The game is read, written and its totals read (the totals the save left) in one transaction: none is
    begun again after the commit to read them, and so none is rolled back at the end of the request."""
    g = new_game(client)
    with app.app_context():
        engine = db.engine
    steps: list[str] = []
    listeners = {"begin": lambda conn: steps.append("BEGIN"), "commit": lambda conn: steps.append("COMMIT"),
                 "rollback": lambda conn: steps.append("ROLLBACK"),
                 "before_cursor_execute": lambda conn, cursor, statement, *rest: steps.append(statement)}
    with ExitStack() as stack:
        for name, listener in listeners.items():
            stack.enter_context(event_listening(engine, name, listener))
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={
            "hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["A"], "Dee": ["JK"]}},
            headers={"Authorization": f"Bearer {g['edit_token']}"})
    assert r.status_code == 201 and r.json["totals"] == {"Ann": 0, "Ben": 10, "Cy": 15, "Dee": 15}
    kinds = [s if s in ("BEGIN", "COMMIT", "ROLLBACK") else "game read" if s.startswith("SELECT games.id")
             else "SELECT totals" if "results.penalty" in s else "-" for s in steps]
    assert [k for k in kinds if k != "-"] == ["BEGIN", "game read", "SELECT totals", "COMMIT"], steps


def test_a_buy(app, client):
    g = new_game(client)
    with counted(app) as seen:
        r = client.post(f"/g/{g['edit_token']}/buy", data={"hand": 1, "seat": 0})
    assert r.status_code == 302
    assert len(seen) <= 7, seen  # (SQLite: BEGIN IMMEDIATE) the game's read (3), its version bumped, the buy, its change


def test_an_htmx_buy_is_the_buy_and_the_board(app, client, monkeypatch):
    from referee.web.scoreboard import gamestate

    g = new_game(client)
    client.get(f"/g/{g['edit_token']}")  # the game's rules are resolved (and kept) on the first page
    resolved = []
    monkeypatch.setattr(gamestate, "resolve", lambda *a, **k: resolved.append(a) or resolve(*a, **k))
    gamestate._rules.cache_clear()
    with counted(app) as seen:
        r = client.post(f"/g/{g['edit_token']}/buy", data={"hand": 1, "seat": 0}, headers={"HX-Request": "true"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="board"' in html
    assert len(seen) <= 11, seen  # (SQLite: BEGIN IMMEDIATE) the game's read (3), the buy (bump, insert, its change), the board's read (4)
    assert len(resolved) == 1  # the rules are worked out once for the request


def test_an_htmx_down_is_the_down_and_the_board(app, client):
    g = new_game(client)
    with counted(app) as seen:
        r = client.post(f"/g/{g['edit_token']}/down", data={"hand": 1, "seat": 2, "down": 1},
                        headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'aria-pressed="true"' in r.get_data(as_text=True)
    assert len(seen) <= 12, seen  # (SQLite: BEGIN IMMEDIATE) the game's read (3), the down (bump, its row looked up, written, its change),
    # the board's read (4)


def test_an_unchanged_poll(app, client):
    g = new_game(client)
    first = client.get(f"/g/{g['view_token']}/board")
    with counted(app) as seen:
        r = client.get(f"/g/{g['view_token']}/board", headers={"If-None-Match": first.headers["ETag"]})
    assert r.status_code == 304
    assert len(seen) == 1, seen


def test_a_full_board(app, client):
    g = new_game(client)
    for hand in (1, 2):
        assert record_page(client, g["edit_token"], hand).status_code == 302
    client.post(f"/g/{g['edit_token']}/buy", data={"hand": 3, "seat": 1})
    client.post(f"/g/{g['edit_token']}/down", data={"hand": 3, "seat": 2, "down": 1})
    with counted(app) as seen:
        r = client.get(f"/g/{g['view_token']}/board")
    assert r.status_code == 200
    assert len(seen) <= 5, seen  # the game's version, then the game, its hands, buys and downs, its history


def test_a_bad_seat_takes_back_nobodys_buy(app, client):
    g = new_game(client)
    url = f"/g/{g['edit_token']}"
    client.post(url + "/buy", data={"hand": 1, "seat": 0})
    r = client.post(url + "/buy", data={"hand": 1, "seat": "x", "action": "remove"}, follow_redirects=True)
    assert r.status_code == 200
    state = client.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {g['view_token']}"}).json
    assert state["buys"] == {"Ann": 1}


def test_the_buy_limit_holds_against_a_buy_from_another_phone(app, client):
    """The page's game row said no buys yet; another phone used the last one since: the INSERT itself refuses."""
    from referee.web.models import Buy
    from referee.web.scoreboard import reads, services

    r = client.post("/api/v1/games", json={"ruleset": "liverpool", "players": PLAYERS, "options": {"buy_limit": 1}})
    g = r.json
    with app.test_request_context():
        game, _ = reads.find(g["edit_token"])
        assert game.current_buys == []
        with app.app_context():  # the other phone, on its own session
            db.session.add(Buy(game_id=g["id"], hand_number=1, seat=2))
            db.session.commit()
        outcome = services.add_buy(game, 1, 2)
        assert not outcome.added and outcome.reason == "limit_reached"
    state = client.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {g['view_token']}"}).json
    assert state["buys"] == {"Cy": 1}


def test_the_write_limit_counts_a_write_in_one_statement_whatever_its_rates(app, client, monkeypatch):
    """Each rate of the limit has its own count, all of them moved by one upsert (one turn on SQLite's counts'
    file, one round trip to PostgreSQL)."""
    from referee.web import ratelimit

    now = ratelimit.clock()
    monkeypatch.setattr(ratelimit, "clock", lambda: now)  # (both writes in one second, however slow the machine)
    app.config.update(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITES="10 per second;120 per minute;1000 per day")
    g = new_game(client)
    with counted(app) as seen:
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={
            "hand": 1, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["A"], "Dee": ["JK"]}},
            headers={"Authorization": f"Bearer {g['edit_token']}"})
    assert r.status_code == 201 and r.headers["X-RateLimit-Remaining"] == "8"  # the second write this second
    assert len([s for s in seen if "rate_limits" in s]) == 1, seen
    assert len(seen) <= 10, seen  # the count, and the save's own (test_a_hand_saved_through_the_api)


def test_on_postgresql_a_statement_used_again_is_prepared(app, client):
    """PostgreSQL parses each statement once a connection: psycopg prepares it on its second use, so a poll's
    version read is not parsed again on every poll."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql":
        return  # (SQLite keeps its own cache of compiled statements)
    g = new_game(client)
    raw = engine.raw_connection()
    try:
        conn = raw.driver_connection
        conn.autocommit = True
        for _ in range(3):
            conn.execute("SELECT version FROM games WHERE id = %s", (g["id"],))
        prepared = conn.execute("SELECT statement FROM pg_prepared_statements").fetchall()
    finally:
        raw.close()
    assert [p for p in prepared if "FROM games WHERE id" in p[0]], prepared


def test_on_postgresql_the_hot_statements_have_an_index_to_find_their_rows(app, client):
    """Every statement of the hot requests (a poll, a board drawn for each link, a hand saved through the page
    and the API, a buy) can find its rows by an index: asked not to read whole tables, the planner finds a way
    for each. (The app's connections leave the planner to its own choices: at a real evening's load it chose
    well enough, docs/bench.md.)"""
    import json

    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql":
        return
    g = new_game(client)
    edit = g["edit_token"]
    sent: list[tuple[str, object]] = []

    def listen(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
            sent.append((statement, parameters))

    with event_listening(Engine, "before_cursor_execute", listen):
        assert record_page(client, edit, 1).status_code == 302
        assert client.post(f"/g/{edit}/buy", data={"hand": 2, "seat": 1}).status_code == 302
        for token in (edit, g["view_token"]):
            assert client.get(f"/g/{token}/board").status_code == 200
            assert client.get(f"/g/{token}").status_code == 200
        r = client.post(f"/api/v1/games/{g['id']}/hands", json={
            "hand": 2, "out": "Ann", "leftovers": {"Ben": ["K"], "Cy": ["A"], "Dee": ["JK"]}},
            headers={"Authorization": f"Bearer {edit}"})
        assert r.status_code == 201
    assert len(sent) > 10, sent
    raw = engine.raw_connection()
    try:
        conn = raw.driver_connection
        conn.autocommit = True
        conn.execute("SET enable_seqscan = off")  # (this test's connection only)
        whole = []
        for statement, parameters in sent:
            plan = conn.execute("EXPLAIN (FORMAT JSON) " + statement, parameters).fetchone()[0]
            if "Seq Scan" in json.dumps(plan):
                whole.append(statement[:80])
    finally:
        raw.close()
    assert not whole, whole


def test_on_postgresql_reads_send_no_transaction_and_writes_one(app, client):
    """A page, a board and the API's read of a game only read: on PostgreSQL their statements each commit by
    themselves (no BEGIN nor ROLLBACK reaches the database); a save's statements all run in one transaction."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql":
        return
    g = new_game(client)
    edit = g["edit_token"]
    autocommit: list[bool] = []

    def listen(conn, cursor, statement, parameters, context, executemany):
        autocommit.append(conn.connection.dbapi_connection.autocommit)

    with event_listening(Engine, "before_cursor_execute", listen):
        for path in (f"/g/{edit}", f"/g/{edit}/board", f"/g/{g['view_token']}", "/games"):
            assert client.get(path).status_code == 200, path
        assert client.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {edit}"}).status_code == 200
        reads = list(autocommit)
        autocommit.clear()
        assert record_page(client, edit, 1).status_code == 302
    assert len(reads) >= 8 and all(reads), reads
    assert len(autocommit) >= 5 and not any(autocommit), autocommit
