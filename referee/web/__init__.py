"""The web layer: the Flask application factory, its blueprints and its translations."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_wtf import CSRFProtect
from flask_wtf.csrf import CSRFError

ROOT = Path(__file__).resolve().parents[2]
csrf = CSRFProtect()
migrate = Migrate()


def database_url(url: str | None, instance: Path) -> str:
    """SQLite in the instance folder unless ``DATABASE_URL`` names another database (PostgreSQL through
    psycopg 3)."""
    if not url:
        return f"sqlite:///{instance / 'rummy.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder (made once), so sessions and forms outlive a restart."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        SQLALCHEMY_DATABASE_URI=database_url(os.environ.get("DATABASE_URL"), Path(app.instance_path)),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=("en", "es", "pt", "de"),
        JSON_SORT_KEYS=False,
    )
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

    from . import api, cli, games_web, i18n, pages, referee
    from .models import db

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    i18n.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the JSON API takes no cookies; its writes will need a bearer token
    app.register_blueprint(referee.bp)
    app.register_blueprint(games_web.bp)
    cli.init_app(app)

    @app.errorhandler(CSRFError)
    def _expired(e: CSRFError):  # type: ignore[no-untyped-def]
        from flask import render_template, request
        from flask_babel import gettext

        text = gettext("The form expired: please send it again.")
        if request.headers.get("HX-Request") == "true":  # htmx swaps in 200s only: say it where the verdict goes
            return render_template("referee/_verdict.html", error=text), 200
        return render_template("error.html", message=text), 400

    return app
