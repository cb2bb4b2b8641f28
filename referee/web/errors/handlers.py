"""The answers to refused or failed requests: one handler per kind of failure, each answering the JSON API with
``{"error": {"code", "message", "field"}}`` and a browser with the error page. Registered on the app by the
``errors`` blueprint, so no feature blueprint answers for the others."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import (
    Forbidden,
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    NotFound,
    RequestEntityTooLarge,
    SecurityError,
)

from ...errors import RefereeError
from ..i18n import in_language
from ..models import db
from . import Refusal, error_body, error_text, status_of

bp = Blueprint("errors", __name__)


def wants_json() -> bool:
    return request.path.startswith("/api/")


def answer(e: RefereeError) -> Any:
    """A refusal in the language asked for: the API body's ``"lang"``, else the request's."""
    asked = g.get("body_lang")
    with in_language(asked) if asked else nullcontext():
        if wants_json():
            return jsonify(error_body(e)), status_of(e)
        return render_template("error.html", message=error_text(e.code, e.params), status=status_of(e)), status_of(e)


def page(code: str, e: HTTPException | None = None) -> Any:
    """The app's own error page for a browser, in the reader's language (a 405 keeps its Allow header)."""
    status = status_of(Refusal(code))
    resp = current_app.make_response((render_template("error.html", message=error_text(code), status=status),
                                      status))
    if e is not None and e.code == 405:
        allow = [h for k, h in e.get_headers() if k.lower() == "allow"]
        if allow:
            resp.headers["Allow"] = allow[0]
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.app_errorhandler(RefereeError)
def refused(e: RefereeError) -> Any:
    return answer(e)


@bp.app_errorhandler(NotFound)
def not_found(e: NotFound) -> Any:
    if wants_json():
        return answer(Refusal("not_found"))
    return page("page_not_found")


@bp.app_errorhandler(MethodNotAllowed)
def not_allowed(e: MethodNotAllowed) -> Any:
    if wants_json():
        return answer(Refusal("method_not_allowed"))
    return page("page_not_allowed", e)


@bp.app_errorhandler(Forbidden)
def forbidden(e: Forbidden) -> Any:
    if wants_json():
        return answer(Refusal("forbidden"))
    return page("page_forbidden")


@bp.app_errorhandler(InternalServerError)
def server_error(e: InternalServerError) -> Any:
    """An unexpected failure: the transaction is rolled back, so nothing half-written stays."""
    db.session.rollback()
    if wants_json():
        return answer(Refusal("server_error"))
    return page("server_error")


@bp.app_errorhandler(HTTPException)
def other_http_error(e: HTTPException) -> Any:
    """Any other refused request (a body too large, a bad request) on the app's own page."""
    code = e.code or 400
    if code >= 500:
        return server_error(InternalServerError())
    if wants_json():
        return jsonify({"error": {"code": "bad_request", "message": error_text("bad_request"), "field": None}}), code
    resp = current_app.make_response((render_template("error.html", message=error_text("bad_request"),
                                                      status=code), code))
    return resp


@bp.app_errorhandler(RequestEntityTooLarge)
def too_large(e: RequestEntityTooLarge) -> Any:
    return answer(Refusal("too_large", kb=current_app.config["MAX_CONTENT_LENGTH"] // 1024))


@bp.app_errorhandler(SecurityError)
def unknown_host(e: SecurityError) -> Any:
    """A ``Host`` that is not one of ``TRUSTED_HOSTS``: nothing is built on it (no page either: its links
    would need the host), only the refusal in plain text."""
    if wants_json():
        return answer(Refusal("unknown_host"))
    return Response(error_text("unknown_host"), 400, mimetype="text/plain")


@bp.app_errorhandler(OperationalError)
@bp.app_errorhandler(InterfaceError)
def database_unavailable(e: OperationalError | InterfaceError) -> Any:
    """The database is locked, gone (PostgreSQL stopped, its connection cut mid-request) or cannot write (a full
    disk, a read-only file): nothing was written (the transaction rolled back, or died with its connection). The
    log says what the driver said, never the statement or its parameters (they hold a new game's token
    hashes). A form sent from a page comes back with what was typed in it, ready to be sent again."""
    try:
        db.session.rollback()
    except Exception:  # the connection died with the transaction: nothing to roll back, the pool drops it
        db.session.close()
    reason = str(e.orig).splitlines()[0][:200] if e.orig is not None else type(e).__name__
    current_app.logger.warning("database unavailable: %s: %s", type(e.orig).__name__, reason)
    refusal = Refusal("database_cannot_write" if cannot_write(e) else "database_unavailable")
    if wants_json() or request.method != "POST" or not request.form or request.files:
        return answer(refusal)
    status = status_of(refusal)
    kept = [(name, value) for name, value in request.form.items(multi=True)]
    return render_template("error.html", message=error_text(refusal.code), status=status, resend=kept), status


def cannot_write(e: OperationalError | InterfaceError) -> bool:
    """Whether the database refuses to write at all (its disk full, its file or server read-only, an I/O error),
    rather than being busy or out of reach: the first will not pass by itself in a moment."""
    name = getattr(e.orig, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR")):
        return True
    state = getattr(e.orig, "sqlstate", "") or ""
    return state.startswith("53") or state in ("25006", "58030")  # resources (disk full), read-only, I/O


@bp.app_errorhandler(CSRFError)
def expired(e: CSRFError) -> Any:
    if request.headers.get("HX-Request") == "true":  # htmx swaps in 200s only: say it where the verdict goes
        return render_template("referee/_verdict.html", error=error_text("form_expired")), 200
    return answer(Refusal("form_expired"))
