"""A poll whose board has not changed is answered before the app is reached.

Every phone at a table asks for its board every two seconds, with the ETag of the board it shows; most of
the time nothing has changed and the answer is a 304. That answer needs the game's version (one indexed
query) and the reader's language, and nothing else; going through the whole app for it (request context,
URL matching, the hooks before and after) cost more than the query itself. This WSGI layer answers exactly
that case, with the same tag, the same query and the same headers as the board route
(``routes.board``); anything else (another path, a changed board, ``?lang=``, a link that opens nothing, a
database that fails) goes on to the app as before, which answers it in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie

from .. import security_headers
from ..i18n import COOKIE, remembered_or_asked
from . import routes, services

if TYPE_CHECKING:
    from flask import Flask

BOARD = re.compile(r"/g/([^/]+)/board")


class UnchangedBoards:
    """WSGI middleware in front of the app: 304 for a board poll whose tag is still the board's."""

    def __init__(self, app: Flask, wsgi_app: Any) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.languages = tuple(app.config["LANGUAGES"])
        self.engine: Any = None  # the app's engine for lone reads, found at the first poll (after the fork)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            found = BOARD.fullmatch(environ.get("PATH_INFO", ""))
            if found:
                tag = self._tag(found.group(1), environ)
                if tag is not None and tag in asked:
                    start_response("304 NOT MODIFIED", [
                        *routes.board_headers(tag),
                        *security_headers(environ.get("wsgi.url_scheme") == "https")])
                    return []
        return self.wsgi_app(environ, start_response)  # type: ignore[no-any-return]

    def _tag(self, token: str, environ: dict[str, Any]) -> str | None:
        """The board's tag as the board route would write it now; None where the app must answer."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = services.reads_engine()
        try:
            found = services.version_on(self.engine, token)
        except SQLAlchemyError:
            return None  # the app answers, and reports it as it reports any failed read
        if found is None:
            return None  # (a 404 page, from the app)
        environ[routes.BOARD_READ] = found  # a changed board: the app draws it from this read, not from a second one
        cookie = parse_cookie(environ.get("HTTP_COOKIE")).get(COOKIE)
        accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
        game_id, version, can_edit = found
        return routes.board_tag(game_id, version, remembered_or_asked(cookie, accepted, self.languages), can_edit)


def install(app: Flask) -> None:
    app.wsgi_app = UnchangedBoards(app, app.wsgi_app)  # type: ignore[method-assign]
