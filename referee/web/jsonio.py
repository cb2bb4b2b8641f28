"""JSON as the app reads and writes it, safe against what a stranger can send.

Reading refuses (as a ``ValueError``, which every caller already answers as "not JSON") what no client of ours
sends: nesting deeper than ``MAX_DEPTH`` (deep enough nesting would exhaust the interpreter's stack),
``NaN``/``Infinity`` and numbers too large for a float (``1e400``). Writing never fails on a lone surrogate that
came in through a JSON escape and is echoed back in a message: it is written as U+FFFD.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask.json.provider import DefaultJSONProvider

MAX_DEPTH = 20
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def depth_within(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects nest at most ``limit`` deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return False
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return True


def loads(text: str | bytes) -> Any:
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if not depth_within(value):
        raise ValueError("nested too deep")
    return value


def printable(text: str) -> str:
    """``text`` with any lone surrogate made U+FFFD, so that it can be sent as UTF-8."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


class JSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return printable(super().dumps(obj, **kwargs))
