"""Locale choice and the translated words of the engine's verdicts.

The locale comes from ``?lang=`` (remembered in a cookie), else the cookie, else ``Accept-Language``, among
the app's languages; English is the source language.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from babel import Locale
from flask import Flask, current_app, g, request
from flask_babel import Babel, format_decimal, get_locale, lazy_gettext

from ..cards import Card, Rank, display, rank_display

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
    cookie = request.cookies.get(COOKIE)
    if cookie and cookie in languages:
        return cookie
    return request.accept_languages.best_match(languages) or "en"


def lang() -> str:
    return str(get_locale() or "en")


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)

    @app.after_request
    def remember_language(response):  # type: ignore[no-untyped-def]
        chosen = g.get("set_lang_cookie")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax",
                                secure=request.is_secure, httponly=True)
        return response

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {"lang": lang(), "language_names": language_names(), "card_text": card_text,
                "number": format_decimal, "rank_letters": rank_letters, "card_notation": card_notation,
                "card_facts": card_facts}


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


def card_notation() -> dict[str, Any]:
    """How the reader's language writes cards, for the card picker (``picker.notation``)."""
    from .picker import notation

    return notation()


def card_facts(rules: Any, hand: int | None = None, ranks_only: bool = False) -> dict[str, Any]:
    """The pack and the deal the card picker checks against (``picker.facts``)."""
    from .picker import facts

    return facts(rules, hand, ranks_only)


def rank_letters(symbols: str) -> str:
    """Rank letters as the reader's language writes them (pt ``R D V`` for ``K Q J``)."""
    return " ".join(rank_display(Rank.parse(s), lang()) for s in symbols)


def card_text(card: Card | str) -> str:
    if isinstance(card, str):
        try:
            return display(Card.parse(card), lang())
        except ValueError:
            return card
    return display(card, lang())


def message(code: str, params: dict[str, Any]) -> str:
    """The reader's-language words for a verdict or ruling code (the same words as any refusal)."""
    from .errors import error_text

    return error_text(code, params)


_l = lazy_gettext

