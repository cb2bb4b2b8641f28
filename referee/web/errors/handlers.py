"""The answers to refused or failed requests: one handler per kind of failure, each answering the JSON API with
``{"error": {"code", "message", "field"}}`` and a browser with the error page. Registered on the app by the
``errors`` blueprint, so no feature blueprint answers for the others."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from flask import Blueprint, current_app, g, jsonify, render_template, request
from flask_babel import force_locale
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import MethodNotAllowed, NotFound

from ...errors import RefereeError
from ..models import db
from . import Refusal, error_body, error_text, status_of

bp = Blueprint("errors", __name__)


def wants_json() -> bool:
    return request.path.startswith("/api/")


def answer(e: RefereeError) -> Any:
    """A refusal in the language asked for: the API body's ``"lang"``, else the request's."""
    asked = g.get("body_lang")
    with force_locale(asked) if asked else nullcontext():
        if wants_json():
            return jsonify(error_body(e)), status_of(e)
        return render_template("error.html", message=error_text(e.code, e.params)), status_of(e)


@bp.app_errorhandler(RefereeError)
def refused(e: RefereeError) -> Any:
    return answer(e)


@bp.app_errorhandler(NotFound)
def not_found(e: NotFound) -> Any:
    if wants_json():
        return answer(Refusal("not_found"))
    return e


@bp.app_errorhandler(MethodNotAllowed)
def not_allowed(e: MethodNotAllowed) -> Any:
    if wants_json():
        return answer(Refusal("method_not_allowed"))
    return e


@bp.app_errorhandler(OperationalError)
def database_unavailable(e: OperationalError) -> Any:
    """The database is locked, full or gone: nothing was written (the transaction rolled back)."""
    db.session.rollback()
    current_app.logger.warning("database unavailable: %s", e)
    return answer(Refusal("database_unavailable"))


@bp.app_errorhandler(CSRFError)
def expired(e: CSRFError) -> Any:
    if request.headers.get("HX-Request") == "true":  # htmx swaps in 200s only: say it where the verdict goes
        return render_template("referee/_verdict.html", error=error_text("form_expired")), 200
    return answer(Refusal("form_expired"))
