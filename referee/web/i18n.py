"""Locale choice, cards in the reader's letters, and the translated words of the engine's verdicts.

The locale comes from ``?lang=`` (remembered in a cookie), else the cookie, else ``Accept-Language``, among
the app's languages; English is the source language.

Each language's rank letters and joker name live in its catalog, once, under the context "card rank" (de
``B D K``, pt ``V D R``, es "Comodín"); ``card_readings`` turns them into the engine's ``Reading``, which every
web form with cards and the card picker read with.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timezone
from functools import lru_cache
from typing import Any, Callable

import flask_babel
from babel import Locale, dates, numbers
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, g, has_request_context, request
from flask_babel import Babel, force_locale, format_decimal, get_locale, get_timezone, get_translations, lazy_gettext
from markupsafe import Markup

from ..cards import Card, Rank, Reading
from ..i18n import LANGUAGES

COOKIE = "lang"

babel = Babel()


def select_locale() -> str:
    languages = current_app.config["LANGUAGES"]
    asked = request.args.get("lang")
    if asked and asked in languages:
        g.set_lang_cookie = asked
        return asked
    body_lang = getattr(g, "body_lang", None)
    if body_lang and body_lang in languages:
        return str(body_lang)
    remembered = request.cookies.get(COOKIE)
    if remembered and remembered in languages:
        return remembered
    return request.accept_languages.best_match(languages) or "en"


@contextmanager
def in_language(code: str) -> Iterator[None]:
    """Words in ``code`` within the block (flask-babel's ``force_locale``): the JSON API's ``"lang"``. The web
    layer switches language only through this."""
    with force_locale(code):
        yield


def lang() -> str:
    """The reader's language, as flask-babel chose it (``select_locale``); English outside a request."""
    locale = get_locale() if has_request_context() else None
    return str(locale) if locale is not None else "en"


def catalog() -> NullTranslations:
    """The reader's catalog, flask-babel's (what the templates' ``_`` reads)."""
    return get_translations()


# The web layer's gettext family is flask-babel's own.
gettext: Callable[..., str] = flask_babel.gettext  # (flask-babel's own, typed for the callers)
ngettext: Callable[..., str] = flask_babel.ngettext
pgettext: Callable[..., str] = flask_babel.pgettext


_PLAIN: weakref.WeakKeyDictionary[NullTranslations, dict[str, Markup]] = weakref.WeakKeyDictionary()


def markup_gettext(string: str, **variables: Any) -> Markup:
    """The templates' ``_``: what Jinja's newstyle gettext makes of a string (the translation as markup, always
    read as a format string, its variables escaped into it; every template is HTML, so always autoescaped), in
    one call instead of three, and worked out once per catalog for a string without variables (most of a
    board's forty strings: "Down", "Scores", "Player")."""
    found = catalog()
    if variables:
        return Markup(found.ugettext(string)) % variables
    kept = _PLAIN.get(found)
    if kept is None:
        kept = _PLAIN.setdefault(found, {})
    text = kept.get(string)
    if text is None:
        text = kept[string] = Markup(found.ugettext(string)) % {}
    return text


def number(value: Any, format: str | None = None) -> str:
    """A number in the reader's digits (flask-babel's ``format_decimal``); whole numbers, which boards and
    rulings show by the dozen, are worked out once per language."""
    if format is None and isinstance(value, int) and not isinstance(value, bool):
        return _whole(lang(), value)
    return str(format_decimal(value, format))


@lru_cache(maxsize=4096)
def _whole(locale: str, value: int) -> str:
    return str(numbers.format_decimal(value, locale=locale))


# English is read at tables on both sides of the Atlantic (Liverpool rummy is a British game): its dates put the
# day before the month and its clock runs to 24 hours ("2 Dec 2026, 21:05", "02/12/2026"), as British English
# writes them, so no reader takes one for another day. The other languages write dates their own way.
DATE_LOCALES = {"en": "en_GB"}


def date_locale() -> Locale:
    """The locale dates and times are written in for the reader's language."""
    code = lang()
    return Locale.parse(DATE_LOCALES.get(code, code))


def format_when(value: Any, format: str = "medium") -> str:
    """A moment (a stored UTC ``datetime``), date and time, in the reader's words and the app's time zone."""
    return str(dates.format_datetime(value, format, tzinfo=get_timezone(), locale=date_locale()))


def format_day(value: Any, format: str = "medium") -> str:
    """The day of a moment (a stored UTC ``datetime``) in the reader's words and the app's time zone."""
    moment = (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).astimezone(get_timezone())
    return str(dates.format_date(moment.date(), format, locale=date_locale()))


def card_words(catalog: NullTranslations) -> tuple[dict[Rank, str], str]:
    """A language's rank letters and its joker's name, as its catalog translates them."""
    letters = {Rank.ACE: catalog.pgettext("card rank", "A"), Rank.JACK: catalog.pgettext("card rank", "J"),
               Rank.QUEEN: catalog.pgettext("card rank", "Q"), Rank.KING: catalog.pgettext("card rank", "K")}
    return {rank: str(text) for rank, text in letters.items()}, str(catalog.pgettext("card rank", "Joker"))


def card_readings(directories: str, languages: tuple[str, ...] = LANGUAGES) -> dict[str, Reading]:
    """How each language writes cards, from the catalogs in ``directories`` (the app's
    ``BABEL_TRANSLATION_DIRECTORIES``). Letters that would make a card mean two things fail here, when the app
    starts (``ReadingError``)."""
    out = {}
    for code in languages:
        catalog: NullTranslations = NullTranslations()
        for directory in directories.split(";"):
            found = Translations.load(directory, [code])
            if isinstance(found, Translations):
                catalog = found
                break
        out[code] = Reading.local(*card_words(catalog))
    return out


def card_reading() -> Reading:
    """How the reader's language writes cards: what the forms read, and how cards are shown."""
    readings: dict[str, Reading] = current_app.extensions["card_readings"]
    return readings.get(lang()) or readings["en"]


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.filters.update(datetimeformat=format_when, dateformat=format_day)
    # the templates' ``_`` (and ``gettext``): Jinja's newstyle gettext in one call (see ``markup_gettext``); their
    # ``ngettext`` and ``pgettext`` are flask-babel's, as it installs them
    app.jinja_env.globals.update(_=markup_gettext, gettext=markup_gettext)
    app.extensions["card_readings"] = card_readings(app.config["BABEL_TRANSLATION_DIRECTORIES"],
                                                    tuple(app.config["LANGUAGES"]))

    @app.after_request
    def remember_language(response):  # type: ignore[no-untyped-def]
        if (response.mimetype == "text/html" and request.endpoint != "games.board"
                and "Content-Language" not in response.headers):
            # a page's language (not the board's, a fragment, answered from memory without it): the service
            # worker remembers it, to show its offline page in the reader's language
            response.headers["Content-Language"] = lang()
        chosen = g.get("set_lang_cookie")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax",
                                secure=request.is_secure, httponly=True)
        return response

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {"lang": lang(), "language_names": language_names(), "card_text": card_text,
                "number": number, "rank_letters": rank_letters}


def language_names() -> dict[str, str]:
    """Each of the app's languages by its own name, for the language menu ("Español", "Deutsch")."""
    return dict(_language_names(tuple(current_app.config["LANGUAGES"])))


@lru_cache(maxsize=8)
def _language_names(codes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    names = []
    for code in codes:
        name = Locale.parse(code).get_display_name(code) or code
        names.append((code, name[:1].upper() + name[1:]))
    return tuple(names)


def rank_letters(symbols: str) -> str:
    """Rank letters as the reader's language writes them (pt ``R D V`` for ``K Q J``)."""
    reading = card_reading()
    return " ".join(reading.rank_text(Rank.parse(s)) for s in symbols)


def card_text(card: Card | str) -> str:
    """A card (or a card in the notation) as the reader writes it (pt ``V♣``)."""
    if isinstance(card, str):
        try:
            return card_reading().card_text(Card.parse(card))
        except ValueError:
            return card
    return card_reading().card_text(card)


_l = lazy_gettext

