"""Links that are the same text every time they are built: built once per process.

A board or a ruling holds a dozen links to one game's pages or to the rules, and the same ones come again and
again (a board is drawn with the process's mark in the token's place: ``scoreboard.boards.marks``); each cost
8 µs through ``url_for``. Only endpoints whose address depends on nothing but their values and the address the
app is served under go this way (the app's one ``url_defaults`` is for static files, which do not).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import request, url_for


def kept_url(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)``, kept for the address the app is served under."""
    return _kept(request.script_root, endpoint, tuple(sorted(values.items())))


@lru_cache(maxsize=4096)
def _kept(_root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
    return url_for(endpoint, **dict(values))
