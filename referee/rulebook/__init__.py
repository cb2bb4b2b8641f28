"""The rules texts: one Markdown file per family and language (``<family>/<lang>.md``, see docs/rulebook.md).

Numbers are placeholders filled from the rule-family data, so the prose can never disagree with it:
``{{fact:NAME}}``, ``{{contract:N}}`` and ``{{table:NAME}}``; a house rule is named by ``{{option:NAME}}``, which
the page shows as its label in the reader's language (never the API name). This module reads the files and fills the
placeholders through callbacks the caller gives (the web layer renders tables and words in the reader's
language); it knows nothing of Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import unescape
from pathlib import Path
from typing import Callable, Collection

import markdown

from ..i18n import LANGUAGES

HERE = Path(__file__).resolve().parent
LANGS = LANGUAGES
SECTIONS = ("overview", "players", "cards", "objective", "contracts", "deal", "turn", "buying", "wild-cards",
            "going-out", "winning", "variants", "tips", "glossary")
RULE_ANCHORS = {
    "rule-decks": "cards", "rule-aces": "cards", "rule-penalty-values": "cards",
    "rule-set": "contracts", "rule-run": "contracts", "rule-contract": "contracts", "rule-final-hand": "contracts",
    "rule-deal-order": "deal", "rule-going-down": "turn", "rule-lay-off": "turn",
    "rule-buying": "buying", "rule-buy-priority": "buying", "rule-buy-limit": "buying",
    "rule-wilds": "wild-cards", "rule-wild-natural": "wild-cards", "rule-set-naturals": "wild-cards",
    "rule-run-wilds": "wild-cards", "rule-second-wild": "wild-cards", "rule-joker-swap": "wild-cards",
    "rule-stock-exhausted": "going-out", "rule-scoring": "going-out", "rule-tie-break": "winning",
}
TABLES = ("decks", "contracts", "penalties", "options", "variants")

PLACEHOLDER = re.compile(r"\{\{\s*(fact|contract|table|option):([a-z0-9_]+)\s*\}\}")
HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*\{#([a-z0-9-]+)\}\s*$", re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


class RulebookError(LookupError):
    pass


def path(family: str, lang: str) -> Path:
    return HERE / family / f"{lang}.md"


@lru_cache(maxsize=None)
def source(family: str, lang: str) -> str:
    p = path(family, lang)
    if lang not in LANGS or not p.is_file():
        raise RulebookError(f"no rules text for {family}/{lang}")
    return p.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    anchor: str


def headings(text: str) -> list[Heading]:
    return [Heading(len(h), t, a) for h, t, a in HEADING.findall(text)]


def title(text: str) -> str:
    first = text.lstrip().splitlines()[0]
    return first.lstrip("# ").strip()


def prose_numbers(text: str) -> list[str]:
    """Digits written in the prose itself, outside placeholders, code spans and heading anchors (the tests
    require none: rule numbers come from the data)."""
    bare = PLACEHOLDER.sub("", text)
    bare = HEADING.sub(lambda m: m.group(1) + " " + m.group(2), bare)
    bare = CODE_SPAN.sub("", bare)
    return re.findall(r"\d+", bare)


def code_numbers(text: str) -> list[int]:
    """Numbers written inside code spans (card examples, option values); the tests require each to be a card
    rank or a number of the family's data."""
    out = []
    for span in CODE_SPAN.findall(text):
        out += [int(n) for n in re.findall(r"\d+", span)]
    return out


def options_as_placeholders(text: str, names: Collection[str]) -> str:
    """A house rule's API name written in a code span (`` `joker_swap` ``) becomes ``{{option:joker_swap}}``, so
    that the page shows its label: readers never see the API names."""
    return re.sub(r"`([a-z][a-z0-9_]*)`", lambda m: "{{option:%s}}" % m.group(1) if m.group(1) in names
                  else m.group(0), text)


def fill(text: str, fact: Callable[[str], str], contract: Callable[[int], str],
         table: Callable[[str], str], option: Callable[[str], str] = str) -> str:
    """Replace the placeholders; a name the data does not have raises ``RulebookError``."""

    def one(m: re.Match[str]) -> str:
        kind, name = m.group(1), m.group(2)
        if kind == "fact":
            return fact(name)
        if kind == "contract":
            return contract(int(name))
        if kind == "option":
            return option(name)
        if name not in TABLES:
            raise RulebookError(f"unknown table {name}")
        return "\n\n" + table(name) + "\n\n"

    return PLACEHOLDER.sub(one, text)


def to_html(text: str) -> str:
    """Markdown to HTML: headings keep their ``{#id}`` anchors; silence notes (blockquotes) get a class. The
    ``# Title`` line is left out (the page shows it above its contents)."""
    body = re.sub(r"\A\s*# [^\n]*\n", "", text)
    html = markdown.markdown(body, extensions=["attr_list", "tables", "sane_lists"], output_format="html")
    return html.replace("<blockquote>", '<blockquote class="app-default">')


_BLOCK_TAG = re.compile(r"</?(?:p|li|ul|ol|h[1-6]|table|thead|tbody|tr|td|th|dl|dt|dd|div|br|hr|blockquote|pre)\b"
                        r"[^>]*>")


def plain(html: str) -> str:
    """The text of a page's HTML as it reads: a block's end parts words, an inline tag parts nothing ("**Jokers**:"
    reads "Jokers:", not "Jokers :"), entities read as their characters.

    >>> plain("<p><strong>Jokers</strong>: one <em>each</em>.</p><ul><li>A</li><li>B &amp; C</li></ul>")
    'Jokers: one each. A B & C'
    """
    text = re.sub(r"<[^>]+>", "", _BLOCK_TAG.sub(" ", html))
    return re.sub(r"\s+", " ", unescape(text)).strip()
