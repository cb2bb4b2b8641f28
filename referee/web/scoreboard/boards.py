"""Boards a process keeps once drawn, by their ETag.

After a save every phone at the table fetches the new board; the first one's poll draws it, the others get the
board as drawn. Nothing here can show an old board: a board is only ever looked up by its ETag, which holds the
game's version as the database holds it now (read by the same request), the language, the kind of link and the
release. What differs from reader to reader is not kept: a board is drawn with marks where the link's token and
the reader's form token go, and they are put in on the way out.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Hashable

# What stands in a kept board for the link's token and for the reader's form token: no text a player could
# type on purpose (made once per process: the boards are this process's own).
LINK_MARK = "m" + secrets.token_hex(16)
FORM_MARK = "m" + secrets.token_hex(16)


class Boards:
    """What a process keeps in memory of boards drawn, the most recently used last, at most ``size``: boards by
    ETag, or parts of boards by what they were drawn from (``view.drawn_history``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._drawn: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tag: Hashable) -> str | None:
        with self._lock:
            html = self._drawn.get(tag)
            if html is not None:
                self._drawn.move_to_end(tag)
            return html

    def clear(self) -> None:
        with self._lock:
            self._drawn.clear()

    def put(self, tag: Hashable, html: str) -> None:
        with self._lock:
            self._drawn[tag] = html
            self._drawn.move_to_end(tag)
            while len(self._drawn) > self.size:
                self._drawn.popitem(last=False)
