"""The words of the data: contracts, deals, player counts and house-rule values as the reader's language says
them. Every screen that shows a house rule names it and its value through ``option_label`` and
``option_value``, which read the option's description (``families.OPTIONS``)."""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Any

from babel.support import NullTranslations
from flask import Flask
from markupsafe import Markup, escape

from ..families import OPTIONS, Contract, Family, resolve
from ..i18n import N_
from .i18n import catalog, gettext, ngettext, number, pgettext, rank_letters

_MELD_WORDS = {  # (kind, how many) -> words; the count is spelled out, the size stays a figure
    ("set", 1): N_("a set of %(size)s"), ("set", 2): N_("two sets of %(size)s"),
    ("set", 3): N_("three sets of %(size)s"), ("set", 4): N_("four sets of %(size)s"),
    ("run", 1): N_("a run of %(size)s"), ("run", 2): N_("two runs of %(size)s"),
    ("run", 3): N_("three runs of %(size)s"), ("run", 4): N_("four runs of %(size)s"),
}


def contract_words(contract: Contract) -> str:
    """``S3 S3 R4`` → "two sets of 3 and a run of 4", in the reader's language."""
    return melds_words([(m.kind, m.size) for m in contract.melds])


def melds_words(melds: list[tuple[str | None, int]]) -> str:
    """Melds by kind and size in words, in the reader's language: a contract, or what some melds make (a kind of
    ``None``: a meld that is neither a set nor a run)."""
    groups: dict[tuple[str, int], int] = {}
    unreadable = 0
    for kind, size in melds:
        if kind is None:
            unreadable += 1
        else:
            groups[(kind, size)] = groups.get((kind, size), 0) + 1
    parts = [gettext(_MELD_WORDS[(kind, n)], size=size) if (kind, n) in _MELD_WORDS else
             gettext(N_("%(count)s sets of %(size)s") if kind == "set" else N_("%(count)s runs of %(size)s"),
                     count=n, size=size)
             for (kind, size), n in groups.items()]
    if unreadable:
        parts.append(ngettext("%(num)s meld that is neither a set nor a run",
                              "%(num)s melds that are neither a set nor a run", unreadable))
    if not parts:
        return gettext("no melds")
    return in_a_list(parts)


@lru_cache(maxsize=4096)
def pname(name: str, reveal: bool = True) -> Markup:
    """A player's name where a column is narrow (the scores, the hand-by-hand headers, the deal): it breaks only
    at a space or after a hyphen, never inside a word, and a part too long for its box ends in an ellipsis. The
    whole name stays in the text (screen readers, copy) and in the title; the record form and the chart's legend
    show it whole, and so does the name itself while it is tapped (it takes the focus, and a focused name wraps
    instead of being cut: ``static/app.js``; the name takes no focus, a keyboard has nothing to do with it). A name
    inside a link leaves the tap to the link (``reveal=False``). A function, not a
    template macro (a board shows it for every player, and a macro call cost ten times as much), kept for the
    names a process has drawn (the same few at a table, board after board)."""
    words = []
    for word in name.split():
        bits = word.split("-")
        words.append("".join(f"<span>{escape(bit)}{'' if i == len(bits) - 1 else '-'}</span>"
                             for i, bit in enumerate(bits)))
    reveals = " data-reveal" if reveal else ""
    return Markup(f'<span class="pname" title="{escape(name)}"{reveals}>{" ".join(words)}</span>')


def in_a_list(items: list[str]) -> str:
    """Items as a sentence lists them in the reader's language: "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


_NOTATIONS: weakref.WeakKeyDictionary[NullTranslations, dict[str, str]] = weakref.WeakKeyDictionary()
_NOTATIONS_KEPT = 1024  # for each catalog: a family's contracts, and the shapes a hand's melds take


def notation_words(notation: str) -> str:
    """Melds in the engine's notation (``S3 R4``; ``?5`` for a meld that is neither) in words: worked out once
    for each catalog (most verdicts name the contract, and a table's contracts are the family's few; building
    the words was a third of the time a checked meld's answer took to write)."""
    found = catalog()
    kept = _NOTATIONS.get(found)
    if kept is None:
        kept = _NOTATIONS.setdefault(found, {})
    words = kept.get(notation)
    if words is None:
        if len(kept) >= _NOTATIONS_KEPT:
            kept.clear()
        words = kept[notation] = _notation_words(notation)
    return words


def _notation_words(notation: str) -> str:
    melds: list[tuple[str | None, int]] = []
    for token in notation.split():
        kind = {"S": "set", "R": "run"}.get(token[:1])
        melds.append((kind, int(token[1:]) if token[1:].isdigit() else 0))
    return melds_words(melds)


def contract_shorthand(contract: Contract) -> str:
    """The Liverpool document's score-sheet shorthand, one letter per meld in the reader's language (G-G, E7):
    a meld's size is written only where it is longer than the smallest set or run."""
    letters = []
    for m in contract.melds:
        letter = pgettext("shorthand letter for a set", "S") if m.kind == "set" else \
            pgettext("shorthand letter for a run", "R")
        smallest = 3 if m.kind == "set" else 4
        letters.append(letter + (str(m.size) if m.size > smallest else ""))
    return "-".join(letters)


def _deal_words(fam: Family) -> str:
    deals = [h.deal for h in resolve(fam.id).hands]
    small, large = min(deals), max(deals)
    if small == large:
        return gettext("%(n)s in every hand", n=small)
    return gettext("%(small)s in hands 1 to %(last)s, then %(large)s", small=small, last=deals.index(large),
                   large=large)


def _by_players(fam: Family, what: str) -> str:
    return "; ".join(gettext("%(n)s for %(players)s players", n=getattr(d, what), players=span(*d.players))
                     for d in fam.deck_rules)


def span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def option_label(name: str) -> str:
    return gettext(OPTIONS[name].label)


def option_value(name: str, value: Any, fam: Family | None = None) -> str:
    """An option's value in words. An empty value means "the family's own": with ``fam`` given, it is shown."""
    o = OPTIONS[name]
    if value is None:
        if o.empty is not None:
            return gettext(o.empty)
        if fam is None:
            return gettext("the family's contracts") if name == "contracts" else gettext("the family's")
        if name == "contracts":
            return gettext("the %(family)s contracts", family=fam.name)
        if name == "joker_points":
            return number(fam.penalties["JK"])
        if name == "hand_size":
            return _deal_words(fam)
        if name in ("decks", "jokers"):
            return _by_players(fam, name)
        if name == "final_run":
            return gettext("a run of %(size)s", size=fam.contracts[fam.no_discard_contract][0].lstrip("R"))
        return gettext("the family's")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    words = dict(o.choice_labels)
    if isinstance(value, list):
        if name == "contracts":
            return "; ".join(contract_words(Contract.parse(v)) for v in value)
        # the wild cards as a list says them: "Jokers and twos" (es and pt: not "Comodines: Comodines"); a rank the
        # documents make wild by name (twos, queens) in words, any other by its letter
        named = {"JK": pgettext("the cards that are wild", "Jokers"), "2": pgettext("the cards that are wild", "twos"),
                 "Q": pgettext("the cards that are wild", "queens")}
        return in_a_list([named[v] if v in named else gettext(words[v]) if v in words else
                          rank_letters(v) if len(v) == 1 else v for v in value])
    if isinstance(value, int):
        if value == 0 and o.zero is not None:
            return gettext(o.zero)
        return number(value)
    return gettext(words[value]) if value in words else str(value)


def init_app(app: Flask) -> None:
    """The templates' words: a list in the reader's language (``in_a_list``) and a player's name (``pname``)."""
    app.jinja_env.filters["in_a_list"] = lambda items: in_a_list(list(items))
    app.jinja_env.globals["pname"] = pname
