"""House rules in forms and links, read and written from their descriptions (``families.OPTIONS``).

A screen offers the options whose ``screens`` name it (``families.options_on``); each is one ``opt_<name>``
field, drawn by ``templates/_option.html`` after the option's kind. ``from_form`` reads those fields back
into the API's JSON shape and ``as_text`` writes a value as the field holds it, so a link can carry the house
rules from one screen to another (``query``).
"""

from __future__ import annotations

import re
from typing import Any

from ..families import Family, Option, options_on

FIELD = "opt_{}"
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def field_name(option: Option | str) -> str:
    return FIELD.format(option if isinstance(option, str) else option.name)


def parse(option: Option, raw: str) -> Any:
    """One field's text as the option's value (a text the option cannot take is passed on for ``resolve`` to
    refuse by name)."""
    if option.kind == "bool":
        return raw == "yes"
    if option.kind in ("int", "int_or_null"):
        if raw == "none":
            return None
        return int(raw) if _WHOLE.fullmatch(raw.strip()) else raw
    if option.kind == "ranks":
        return [r for r in raw.replace(",", " ").split() if r]
    if option.kind == "contracts":  # one hand's contract per line: "S3 S3", "R7", …
        return [line.strip() for line in raw.replace(";", "\n").splitlines() if line.strip()]
    return raw


def as_text(option: Option, value: Any) -> str:
    """A value as the option's field holds it (``parse`` reads it back)."""
    if option.kind == "bool":
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ("\n" if option.kind == "contracts" else " ").join(str(v) for v in value)
    return str(value)


def from_form(values: Any, screen: str, fam: Family) -> dict[str, Any]:
    """The house rules a screen's form holds; an empty field keeps the family's default."""
    out: dict[str, Any] = {}
    for option in options_on(screen, fam):
        raw = values.get(field_name(option), "")
        if isinstance(raw, str) and raw:
            out[option.name] = parse(option, raw)
    return out


def as_fields(options: dict[str, Any], screen: str, fam: Family) -> dict[str, str]:
    """The fields of a screen's form that hold these house rules (the others stay empty: the default)."""
    return {field_name(o): as_text(o, options[o.name]) for o in options_on(screen, fam) if o.name in options}


def query(values: Any, screen: str, fam: Family) -> list[tuple[str, str]]:
    """A screen's house-rule fields, as typed, for a query string (empty ones left out)."""
    return [(field_name(o), values.get(field_name(o))) for o in options_on(screen, fam) if values.get(field_name(o))]
