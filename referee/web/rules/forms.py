"""The rules pages' one form: the search box (a GET form, so a search is a link)."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import SearchField

from ..fields import cut
from ..i18n import _l


def _strip(text: Any) -> Any:
    return text.strip() if isinstance(text, str) else text


class SearchForm(FlaskForm):
    q = SearchField(_l("Search the rules"), default="", filters=[_strip, cut(100)])

    class Meta:
        csrf = False
