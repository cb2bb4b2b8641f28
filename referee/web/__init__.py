"""The web layer: the Flask application factory, its blueprints and its translations."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, g, has_request_context, request
from flask_compress import Compress
from flask_migrate import Migrate
from flask_wtf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import budget as work
from ..i18n import LANGUAGES
from . import api, assets, cli, groups, i18n, picker, public, referee, rules, scoreboard, words
from .errors import handlers
from .jsonio import JSONProvider
from .models import db
from .rules.routes import search_index
from .settings import ROOT, Settings

csrf = CSRFProtect()
migrate = Migrate()
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
       "manifest-src 'self'; worker-src 'self'")


# PostgreSQL: psycopg prepares a statement on its second use on a connection (its default: the sixth), so that the
# database parses and plans a poll's read once, not at every poll; the planner itself is left to its defaults. A
# proxy pooling connections by transaction must carry prepared statements over (PgBouncer 1.21 or later with
# ``max_prepared_statements``), or ``prepare_threshold: None`` in the instance's ``connect_args`` turns them off.
PREPARE_AFTER = 1


def database_url(url: str | None, instance: Path) -> str:
    """SQLite in the instance folder unless ``DATABASE_URL`` names another database (PostgreSQL through
    psycopg 3)."""
    if not url:
        return f"sqlite:///{instance / 'rummy.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def pool_options(config: Any) -> dict[str, Any]:
    """The connection pool of each server process. A request holds one connection at a time (the poll's own
    query, the write limit's count and the request's session take turns), so as many as a process has threads
    (the server's ``THREADS``, 3: ``server.py``) are kept open, and a few more are opened for a burst
    rather than making a request wait. On PostgreSQL a connection idle for some seconds is checked before it
    is used again (``models.PING_AFTER``), and each is replaced after half an hour, before a firewall or the
    server drops it as idle (SQLite's file needs neither). ``DB_POOL_SIZE`` and ``DB_MAX_OVERFLOW`` (settings)
    size it: every process of every server takes up to their sum from the database's ``max_connections``
    (PostgreSQL's default: 100)."""
    return {"pool_size": int(config["DB_POOL_SIZE"]), "max_overflow": int(config["DB_MAX_OVERFLOW"]),
            "pool_recycle": 1800}


def instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder (made once), so sessions and forms outlive a restart."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def security_headers(secure: bool, document: bool = True) -> list[tuple[str, str]]:
    """The headers every answer carries. A file of ``static``
    (a style sheet, a script a page loads, an image) is no document: the policies that govern a document (what
    it may load, who may frame it, which window may reach it) mean nothing on it, and cost 400 bytes on each of
    the half a dozen a first visit loads."""
    headers = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]  # (links carry tokens)
    if document:
        headers += [("Content-Security-Policy", CSP), ("X-Frame-Options", "DENY"),
                    ("Cross-Origin-Opener-Policy", "same-origin")]
    if secure:
        headers.append(("Strict-Transport-Security", "max-age=31536000"))
    return headers


def warm(app: Flask) -> None:
    """Do, as a server process starts, what its first requests would otherwise do while a phone waits: compile
    every template (a first board took 50-120 ms, most of it compiling its templates) and read each language's
    catalog and locale data (the language menu's names alone took 27 ms; each further language 3 ms), and build
    the rules search's index in each language. The
    production entry point (``app.py``) calls it; a test app does without."""
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
    for code in app.config["LANGUAGES"]:
        with app.test_request_context("/", headers={"Accept-Language": code}):
            i18n.language_names()
            i18n.number(1.5)
            i18n.catalog()
            search_index(code)  # the rules search's index, built once a process (100 ms a language)


# A Host header the app can put in a link: a name of labels of at most 63 letters, digits and hyphens (or an IPv4
# or a bracketed IPv6 address), an optional port. Anything else (a label of 70 letters failed the IDNA encoding
# of every link, and the error page with it: a 500 with no body) is answered 400 before the app sees it.
_HOST = re.compile(r"(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")


def _sane_host(wsgi_app: Any) -> Any:
    def checked(environ: dict[str, Any], start_response: Any) -> Any:
        host = environ.get("HTTP_HOST")
        if host is not None and (len(host) > 260 or not _HOST.fullmatch(host)):
            body = b"Bad Request: the Host header is not a host name.\n"
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"),
                                               ("Content-Length", str(len(body)))])
            return [body]
        return wsgi_app(environ, start_response)

    return checked


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    settings = Settings.from_env()  # (the one place the environment is read)
    app.config.from_mapping(
        settings.config(),
        SQLALCHEMY_DATABASE_URI=database_url(settings.database_url, Path(app.instance_path)),
        SQLALCHEMY_ENGINE_OPTIONS={},
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=LANGUAGES,
        JSON_SORT_KEYS=False,
        # A phone keeps a game open all evening: a form token lives as long as the browser's session, not an
        # hour. Over HTTPS Flask-WTF would also demand a Referer from this host, which no browser sends under
        # our Referrer-Policy (links carry tokens); the token and the SameSite session cookie protect forms.
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        # MAX_CONTENT_LENGTH (settings): no request needs more; the largest is an imported game
        # (IMPORT_MAX_BYTES); anything bigger gets 413 before it is read.
        MAX_FORM_MEMORY_SIZE=256 * 1024,
        MAX_FORM_PARTS=200,
        IMPORT_MAX_BYTES=200_000,
    )
    app.json = JSONProvider(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))
    if test_config and "DATABASE_URL" in test_config:
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url(test_config["DATABASE_URL"], Path(app.instance_path))
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # wait this long for another writer before giving up (busy timeout)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"timeout": app.config.get("SQLITE_TIMEOUT", 5.0)}}
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if uri.startswith("postgresql"):
        options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            **options, "connect_args": {"prepare_threshold": PREPARE_AFTER, **options.get("connect_args", {})}}
    if uri not in ("sqlite://", "sqlite:///:memory:"):  # (a database in memory has a pool of one)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {**pool_options(app.config),
                                                   **app.config["SQLALCHEMY_ENGINE_OPTIONS"]}
    # a failed statement's message (and so a log line) never carries its parameters: they hold token hashes
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {**app.config["SQLALCHEMY_ENGINE_OPTIONS"], "hide_parameters": True}

    db.init_app(app)
    # Text answers compressed (zstd, brotli or gzip, as the browser accepts; flask-compress adds the Vary header,
    # keeps ETags apart per encoding and answers conditional requests after). Registered first, so that its
    # hook runs after every other one. Files from ``static`` are sent in pieces: gzip is allowed for those too.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    Compress(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    i18n.init_app(app)
    words.init_app(app)
    picker.init_app(app)
    assets.init_app(app)
    public.init_app(app)
    app.register_blueprint(handlers.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the JSON API takes no cookies; its writes will need a bearer token
    app.register_blueprint(referee.bp)
    app.register_blueprint(scoreboard.bp)
    app.register_blueprint(groups.bp)
    cli.init_app(app)

    app.wsgi_app = _sane_host(app.wsgi_app)  # type: ignore[method-assign]
    hops = int(app.config["TRUST_PROXY"])
    if hops:  # behind a reverse proxy: trust its X-Forwarded-* headers (docs/deploy.md)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    if app.config["HTTPS"]:  # served over HTTPS only: cookies never travel in the clear
        app.config.update(SESSION_COOKIE_SECURE=True)
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")

    # One budget for all the searches a request makes (``referee.budget``), from its start to its end
    work.provide(lambda: g.get("work") if has_request_context() else None)

    @app.before_request
    def _budget() -> None:
        g.work = work.Budget(from_first_step=True)  # (the searches' time, not the framework's)

    @app.after_request
    def _headers(resp):  # type: ignore[no-untyped-def]
        for name, value in security_headers(request.is_secure, document=request.endpoint != "static"):
            resp.headers.setdefault(name, value)
        return resp

    return app
