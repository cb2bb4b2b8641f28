"""Small helpers the web forms share."""

from __future__ import annotations

import re
from typing import Any

from ..families import OPTIONS

_INT = re.compile(r"-?[0-9]{1,9}")


def as_int(text: Any) -> int | None:
    """A whole number typed in a form, or None (``str.isdigit`` also accepts "²", which ``int`` refuses)."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if _INT.fullmatch(text) else None


def options_from_form(values: Any, names: Any) -> dict[str, Any]:
    """House rules from a form's ``opt_<name>`` fields, typed by the option's kind; an empty field keeps the
    family's default (and a value the option cannot take is passed on for ``resolve`` to refuse by name)."""
    out: dict[str, Any] = {}
    for name in names:
        raw = values.get(f"opt_{name}", "")
        if raw in ("", None):
            continue
        kind = OPTIONS[name].kind
        if kind == "bool":
            out[name] = raw == "yes"
        elif kind in ("int", "int_or_null"):
            number = as_int(raw)
            out[name] = None if raw == "none" else (number if number is not None else raw)
        elif kind == "ranks":
            out[name] = [r for r in raw.replace(",", " ").split() if r]
        elif kind == "contracts":  # one hand's contract per line: "S3 S3", "R7", …
            out[name] = [line.strip() for line in raw.replace(";", "\n").splitlines() if line.strip()]
        else:
            out[name] = raw
    return out
