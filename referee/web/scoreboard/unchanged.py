"""A poll whose board has not changed is answered before the app is reached, and so is a view link's poll for a
board drawn already on this machine.

Every phone at a table asks for its board every two seconds, with the ETag of the board it shows; most of
the time nothing has changed and the answer is a 304. That answer needs the game's version (one indexed
query) and the reader's language, and nothing else; going through the whole app for it (request context,
URL matching, the hooks before and after) cost more than the query itself. This WSGI layer answers exactly
that case, with the same tag, the same query and the same headers as the board route
(``routes.board``). After a save, five of a table's six phones ask for a board another phone's poll drew
already: for a view link (no form token to put in) that is the kept board with the link's token put back, and
it is answered here too. Anything else (another path, an edit link's changed board, a board not drawn yet,
``?lang=``, a link that opens nothing, a database that fails) goes on to the app as before, which answers it in
full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError
from werkzeug.http import parse_cookie

from .. import security_headers
from ..i18n import COOKIE, remembered_or_asked
from . import routes, services
from .boards import marks

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
        self.link_mark = ""  # what stands for the link's token in a kept board (``boards.marks``)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            found = BOARD.fullmatch(environ.get("PATH_INFO", ""))
            token = found.group(1) if found else ""
            read = self._read(token, environ) if token else None
            if read is not None:
                tag, game_id, lang, can_edit = read
                secure = environ.get("wsgi.url_scheme") == "https"
                if tag in asked:
                    start_response("304 NOT MODIFIED", [*routes.board_headers(tag), *security_headers(secure)])
                    return []
                # a view link's board holds no form token: as drawn already on this machine, it is the answer
                html = None if can_edit else routes.kept_board(self.app, tag, game_id, lang, False)
                if html is None and not can_edit:
                    environ[routes.BOARD_LOOKED] = tag  # (the app draws it without looking again)
                if html is not None:
                    body = html.replace(self.link_mark, token).encode()
                    start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                              ("Content-Length", str(len(body))), *routes.board_headers(tag),
                                              *security_headers(secure)])
                    return [body]
        return self.wsgi_app(environ, start_response)  # type: ignore[no-any-return]

    def _read(self, token: str, environ: dict[str, Any]) -> tuple[str, str, str, bool] | None:
        """The board's tag as the board route would write it now, its game, language and kind of link; None
        where the app must answer."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = services.reads_engine()
            self.link_mark = marks(self.app.config["SECRET_KEY"])[0]
        try:
            found = services.version_on(self.engine, token)
        except SQLAlchemyError:
            return None  # the app answers, and reports it as it reports any failed read
        if found is None:
            return None  # (a 404 page, from the app)
        environ[routes.BOARD_READ] = found  # a changed board: the app draws it from this read, not from a second one
        cookie = parse_cookie(environ.get("HTTP_COOKIE")).get(COOKIE)
        game_id, version, can_edit = found
        lang = remembered_or_asked(cookie, environ.get("HTTP_ACCEPT_LANGUAGE"), self.languages)
        return routes.board_tag(game_id, version, lang, can_edit), game_id, lang, can_edit


def install(app: Flask) -> None:
    app.wsgi_app = UnchangedBoards(app, app.wsgi_app)  # type: ignore[method-assign]
