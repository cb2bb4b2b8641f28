"""Serving in public: the address the app gives out, the hosts it answers for, a limit on writes per client,
and logs that never hold a game's token.

- ``PUBLIC_URL`` (e.g. ``https://rummy.example.org``): share links, QR codes and the API's ``edit_url`` are
  built on it, never on the request's ``Host`` header, which any client can set.
- ``TRUSTED_HOSTS`` (comma-separated, e.g. ``rummy.example.org,localhost``): a request for any other host
  is refused (400) before it reaches a page.
- ``RATE_LIMIT_WRITES`` (default ``settings.WRITE_LIMIT``): how many writes (posts that start, change, import or delete
  a game) one client may send, counted in the app's own database by every process and server on it
  (``ratelimit``); ``RATE_LIMIT=off`` turns the limit off. A client is its address as the server sees it
  (behind a proxy, set ``TRUST_PROXY``).
- The app's own log lines (the development server's request log, granian's access log when the app runs
  under it, warnings) show ``/g/***`` for a game link and ``Bearer ***`` for a token.

The settings are read from the environment once, with the others (``settings``), into the app's config.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import segno
from flask import Blueprint, Flask, Response, current_app, g, request, url_for
from markupsafe import Markup

from . import ratelimit
from .errors import Refusal

WRITE_METHODS = ["POST", "PUT", "DELETE"]

_ruling_blueprints: set[str] = set()


def ruling(target: Any) -> Any:
    """Posts to ``target``, a view or a whole blueprint, ask something and change nothing (the referee's
    rulings): they do not count towards the write limit. Every other post, put and delete does, whatever route
    it is to: a new route is counted unless it says it changes nothing."""
    if isinstance(target, Blueprint):
        _ruling_blueprints.add(target.name)
    else:
        target.changes_nothing = True
    return target


def counted() -> bool:
    """Whether this request is a write: a read (a poll, a page) and a post that changes nothing (the referee's
    rulings, through a form or the API) are not counted, and cost the limit no work."""
    if request.method not in WRITE_METHODS:
        return False
    if request.blueprint in _ruling_blueprints:
        return False
    return getattr(current_app.view_functions.get(request.endpoint or ""), "changes_nothing", False) is not True


def client() -> str:
    """Who a write is counted for: the client's address as the app sees it (behind a proxy, with ``TRUST_PROXY``,
    the address the proxy was asked from)."""
    return request.remote_addr or "127.0.0.1"


def _count_write() -> None:
    """Before a write is handled: count it, and refuse it (nothing done) if the client is over the limit."""
    if not current_app.config["RATELIMIT_ENABLED"] or not counted():
        return
    verdict = ratelimit.judge(client(), current_app.config["RATE_LIMIT_WRITES"])
    g.write_limit = verdict
    if verdict.refused:
        raise Refusal("rate_limited")


def _limit_headers(resp: Response) -> Response:
    """A counted write's answer says what is left of the limit (``X-RateLimit-*``), and a refused one when to try
    again (``Retry-After``)."""
    verdict = g.get("write_limit")
    if verdict is not None:
        resp.headers.update(verdict.headers())
    return resp


# a game's link (/g/<token>) and a group's (/groups/<token>; not /groups/new or /groups/import)
_LINK = re.compile(r"(/g/|/groups/)(?!(?:new|import)(?:[/?#\s\"']|$))[^/?#\s\"']+")
_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"']+")
_TOKEN_FIELD = re.compile(r"((?:edit|view|group)_token[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9_-]+")


def mask(text: str) -> str:
    """``text`` with every game's and group's link token, bearer token and token field replaced by ``***``."""
    return _TOKEN_FIELD.sub(r"\1***", _BEARER.sub(r"\1***", _LINK.sub(r"\1***", text)))


def _masked(value: Any) -> Any:
    return mask(value) if isinstance(value, str) else value


class MaskTokens(logging.Filter):
    """Masks tokens in a log record's message and its arguments (a tuple, or granian's dict of a request's
    parts)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _masked(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_masked(a) for a in record.args)
        return True


LOGGERS = ("werkzeug", "granian.access", "_granian", "sqlalchemy.engine")


def init_app(app: Flask) -> None:
    ratelimit.rates(app.config["RATE_LIMIT_WRITES"])  # (a limit that cannot be read stops the start, not a write)
    # on unless turned off (``RATE_LIMIT=off``); tests turn it on where they test it (a test client sends
    # hundreds of writes)
    app.config.setdefault("RATELIMIT_ENABLED", app.config["RATE_LIMIT_ON"] and not app.testing)
    app.before_request(_count_write)
    app.after_request(_limit_headers)
    masking = MaskTokens()
    for logger in (app.logger, *(logging.getLogger(name) for name in LOGGERS)):
        if not any(isinstance(f, MaskTokens) for f in logger.filters):
            logger.addFilter(masking)
    for handler in logging.getLogger().handlers:  # lines that reach the root's handlers from other loggers
        if not any(isinstance(f, MaskTokens) for f in handler.filters):
            handler.addFilter(masking)


def external_url(endpoint: str, **values: Any) -> str:
    """An absolute link to give out (to share, in a QR code, in the API): every such link is made here. On
    ``PUBLIC_URL`` when it is set (``make table`` sets it to the address it serves on), never on the request's
    ``Host`` header then; without it, on the address the request came to."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def share_codes(endpoint: str, view_token: str, edit_token: str | None) -> list[tuple[str, str, Markup]]:
    """The links of a share page, each with its QR code: the view link first (a guest who scans the first code
    can change nothing), then the edit link when the page was opened with it."""
    tokens = [("view", view_token)] + ([("edit", edit_token)] if edit_token else [])
    links = [(kind, external_url(endpoint, token=token)) for kind, token in tokens]
    return [(kind, url, Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                                     omitsize=True)))
            for kind, url in links]
