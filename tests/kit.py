"""Compact card strings for the tests: ``"7h 7d JK | 5c 6c 7c 8c"``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.support import Translations

from referee.cards import Card, Reading, parse_cards
from referee.families import Rules, resolve
from referee.web.i18n import card_readings

CATALOGS = Path(__file__).resolve().parents[1] / "translations"
# How each of the app's languages writes cards, from the catalogs in translations/ (as the app reads them)
READINGS: dict[str, Reading] = card_readings(str(CATALOGS))


def said(msgid: str, lang: str = "en", **params: object) -> str:
    """What the app says for the words ``msgid`` (their English source, the catalogs' key) in ``lang``, with
    ``params`` filled in: a test names the words, the numbers and the language it expects, and the catalogs
    hold the wording (a reworded sentence changes no test)."""
    words = msgid if lang == "en" else Translations.load(str(CATALOGS), [lang]).gettext(msgid)
    return words % params if params else words


def said_n(singular: str, plural: str, n: int, lang: str = "en", **params: object) -> str:
    """``said`` for words that change with a number ``n`` (``%(num)s`` in them), as the app's ``ngettext``."""
    words = Translations.load(str(CATALOGS), [lang]).ngettext(singular, plural, n) if lang != "en" else (
        singular if n == 1 else plural)
    return words % {"num": n, **params}


def said_up_to(msgid: str, lang: str, param: str, **params: object) -> str:
    """What the app says for ``msgid`` in ``lang`` up to where the parameter ``param`` goes (for words whose
    rest the test does not know in full, such as a list of scores)."""
    return said(msgid, lang, **{param: "\0", **params}).split("\0")[0]


def refusal(code: str, lang: str = "en", **params: object) -> str:
    """What the app says for the refusal ``code`` in ``lang`` (the error registry's words, its parameters written
    as a page in that language writes them: cards in the reader's letters)."""
    from referee.web.errors import error_text

    with _words_app().test_request_context(f"/?lang={lang}"):
        return error_text(code, params)


@lru_cache(maxsize=1)
def _words_app():
    from referee.web import create_app

    return create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})


def reading(lang: str | None) -> Reading | None:
    """A language's way of writing cards; None (the notation alone) for no language or one the app lacks."""
    return READINGS.get(lang) if lang else None


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def melds(text: str) -> list[list[Card]]:
    """``"7h 7d JK | 5c 6c 7c 8c"`` → two melds."""
    return [parse_cards(part) for part in text.split("|")]


def rules(family: str = "liverpool", *variants: str, players: int | None = None, **options: object) -> Rules:
    return resolve(family, list(variants), options, players)


def resolve_cited(client, cited: list[dict[str, str]], lang: str | None = None) -> list[str]:
    """Open every rule an answer cites: each link must load the rules page (in ``lang``, where given) and land on
    an element with that rule's anchor. Returns the anchors."""
    import re

    assert cited, "an answer cites no rule"
    pages: dict[str, str] = {}
    for item in cited:
        url, _, anchor = item["rule_url"].partition("#")
        assert anchor == item["rule"], item
        if url not in pages:
            r = client.get(url)
            assert r.status_code == 200, url
            pages[url] = r.get_data(as_text=True)
        html = pages[url]
        if lang is not None:
            assert f'<html lang="{lang}">' in html, url
        assert re.search(r'id="%s"' % re.escape(anchor), html), (url, anchor)
    return [item["rule"] for item in cited]
