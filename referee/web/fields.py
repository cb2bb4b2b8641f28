"""Form fields the areas share (WTForms): a whole number as a phone types it, a repeated field's values, and a
text cut to a length."""

from __future__ import annotations

import re
from typing import Any, Callable

from wtforms import Field, IntegerField

WHOLE = re.compile(r"-?[0-9]{1,9}")


class WholeNumberField(IntegerField):
    """A whole number as a phone's keypad types it: ASCII digits, an optional minus, at most nine digits
    (``int`` alone would also take "1_000" and "٣"). Anything else leaves ``data`` None and an error."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        text = valuelist[0].strip() if isinstance(valuelist[0], str) else ""
        if text and WHOLE.fullmatch(text):
            self.data = int(text)
        else:
            self.data = None  # type: ignore[assignment]
            if text:
                raise ValueError("not a whole number")  # the routes answer with a refusal that names the field


class ListField(Field):
    """Every value a repeated field posts (``name=Ann&name=Ben``), in order, as text."""

    def process_data(self, value: Any) -> None:
        self.data = list(value or ())

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = [v for v in valuelist if isinstance(v, str)]

    def _value(self) -> str:
        return ""


def cut(limit: int) -> Callable[[Any], Any]:
    """A filter that keeps a text's first ``limit`` characters (what a link may carry)."""
    return lambda text: text[:limit] if isinstance(text, str) else text
