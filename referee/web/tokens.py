"""Secret links, the one way the scoreboard and the groups handle them: a link's token opens a game or a group
(the edit token changes it, the view token only shows it), and this device remembers the tokens it opened in
a cookie, newest first."""

from __future__ import annotations

import json
from typing import Callable, Generic, TypeVar

from flask import abort, request
from werkzeug.wrappers import Response as BaseResponse

T = TypeVar("T")

KEEP_FOR = 400 * 24 * 3600  # seconds: as long as a browser keeps a cookie


class Links(Generic[T]):
    """What ``find`` (token → the thing and whether the token may change it, or None) opens, and the tokens this
    device remembers in the cookie ``cookie`` (at most ``limit``)."""

    def __init__(self, find: Callable[[str], tuple[T, bool] | None], cookie: str, limit: int = 30) -> None:
        self.find = find
        self.cookie = cookie
        self.limit = limit

    def load(self, token: str) -> tuple[T, bool]:
        """The thing a token opens and whether it may change it; 404 for a token that opens nothing."""
        found = self.find(token)
        if found is None:
            abort(404)
        return found

    def edit_only(self, token: str) -> T:
        """The thing an edit token opens; 403 for a view token."""
        thing, can_edit = self.load(token)
        if not can_edit:
            abort(403)
        return thing

    def remembered(self) -> list[str]:
        """The tokens this device opened, newest first (a cookie that is not a list of them counts as none)."""
        try:
            tokens = json.loads(request.cookies.get(self.cookie, "[]"))
        except ValueError:
            return []
        return [t for t in tokens if isinstance(t, str)][:self.limit] if isinstance(tokens, list) else []

    def remember(self, resp: BaseResponse, token: str) -> BaseResponse:
        return self._keep(resp, [token] + [t for t in self.remembered() if t != token])

    def forget(self, resp: BaseResponse, token: str) -> BaseResponse:
        return self._keep(resp, [t for t in self.remembered() if t != token])

    def _keep(self, resp: BaseResponse, tokens: list[str]) -> BaseResponse:
        resp.set_cookie(self.cookie, json.dumps(tokens[:self.limit]), max_age=KEEP_FOR, httponly=True,
                        samesite="Lax", secure=request.is_secure)
        return resp
