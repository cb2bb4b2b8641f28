"""Fixtures: the app on a fresh database for every test, SQLite by default and PostgreSQL too when
TEST_POSTGRES_URL names a server (.ci/run starts one; under CI=true a missing server is a failure)."""

from __future__ import annotations

import os

import pytest
from flask_migrate import upgrade
from hypothesis import settings
from sqlalchemy import create_engine, text

from referee.web import create_app
from referee.web.models import db

# Property tests explore new examples on every local run; CI replays the same ones, so that whether a change
# lands does not hang on the draw (a failure found locally is kept in .hypothesis and replayed first).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")



def _worker_database(url: str | None) -> str | None:
    """Each of the suite's parallel workers (pytest-xdist: ``make test`` runs two, one a core) tests on a database
    of its own on the server TEST_POSTGRES_URL names, made on first use: the URL's database with the worker's
    name after it (``rummy_test_gw0``). Without workers, the URL's database itself."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    base, _, name = url.rpartition("/")
    own = f"{name}_{worker}"
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own}).first() is None:
                conn.execute(text(f'CREATE DATABASE "{own}"'))
    finally:
        admin.dispose()
    return f"{base}/{own}"


POSTGRES = _worker_database(os.environ.get("TEST_POSTGRES_URL"))
TABLES = ("changes", "downs", "buys", "results", "hands", "players", "games", "group_games", "group_members", "groups",
          "rate_limits")


PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def auth(token: str) -> dict[str, str]:
    """The header a JSON API client sends with a game's or a group's link token."""
    return {"Authorization": f"Bearer {token}"}


def new_api_game(client, players=PLAYERS, ruleset="liverpool", **fields) -> dict:
    """A game started through the JSON API (its answer: id, tokens, players), as the tests' one setup of a game."""
    r = client.post("/api/v1/games", json={"ruleset": ruleset, "players": list(players), **fields})
    assert r.status_code == 201, r.json
    return r.json


def backends():
    yield "sqlite"
    if POSTGRES or os.environ.get("CI") == "true":
        yield "postgres"


@pytest.fixture(scope="session")
def postgres_schema():
    """Migrate the PostgreSQL test database once a session (the migrations themselves are under test)."""
    if not POSTGRES:
        pytest.fail("CI=true but TEST_POSTGRES_URL is not set: .ci/run should have started PostgreSQL")
    engine = create_engine(POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    app = create_app({"TESTING": True, "DATABASE_URL": POSTGRES})
    with app.app_context():
        upgrade()
    return POSTGRES


def make_app(request, tmp_path, backend):
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"}
    if backend == "postgres":
        url = request.getfixturevalue("postgres_schema")
        config["DATABASE_URL"] = url
        app = create_app(config)
        with app.app_context():
            db.session.execute(text("TRUNCATE " + ", ".join(TABLES) + " RESTART IDENTITY CASCADE"))
            db.session.commit()
    else:
        config["DATABASE_URL"] = f"sqlite:///{tmp_path / 'test.sqlite3'}"
        app = create_app(config)
        with app.app_context():
            upgrade()
    return app


@pytest.fixture(params=list(backends()))
def app(request, tmp_path):
    app = make_app(request, tmp_path, request.param)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def serve(request, tmp_path):
    """Starts the app as ``make serve`` does (``tests/serverkit.py``), on a migrated, empty database of the
    backend asked for; every server it started is ended after the test, however the test ended."""
    from tests.serverkit import Served

    started: list[Served] = []

    def start(backend: str = "sqlite", **options) -> Served:
        folder = tmp_path / f"served-{len(started)}"
        folder.mkdir()
        app = make_app(request, folder, backend)
        with app.app_context():
            db.engine.dispose()
        served = Served(app.config["DATABASE_URL"], **options)
        started.append(served)
        return served.start()

    yield start
    for served in started:
        served.close()


@pytest.fixture(params=list(backends()))
def served(request, serve, tmp_path):
    """The production server on SQLite, and on PostgreSQL when TEST_POSTGRES_URL names one; its output in
    ``server.log`` in the test's folder."""
    return serve(request.param, log=tmp_path / "server.log")


def pytest_report_header(config):
    if not POSTGRES:
        return "PostgreSQL: not set (TEST_POSTGRES_URL); the PostgreSQL tests will not run"
    return f"PostgreSQL: {POSTGRES.rsplit('@', 1)[-1]}"


def pytest_terminal_summary(terminalreporter):
    if not POSTGRES:
        terminalreporter.write_line(
            "PostgreSQL tests did NOT run: TEST_POSTGRES_URL is not set (.ci/run starts a server and sets it; "
            "README, 'Tests').", yellow=True, bold=True)
