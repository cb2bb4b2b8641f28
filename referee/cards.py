"""Cards: ranks, suits, jokers; notation in and out.

Notation (the JSON API's): a rank ``A 2 … 10 J Q K`` (``T`` for ten too) followed by a suit ``S H D C`` or
``♠ ♥ ♦ ♣``, case-insensitive; ``JK`` is a joker. ``str(card)`` writes the canonical form back (``10H``, ``JK``).

>>> Card.parse("th"), Card.parse("J♣"), Card.parse("jk")
(Card('10H'), Card('JC'), Card('JK'))
>>> [str(c) for c in parse_cards("7h 7d JK")]
['7H', '7D', 'JK']

People write cards in their own language's letters (pt ``V D R`` for jack, queen, king; de ``B D K``) and the
joker by its name; ``lang`` reads those as well as the notation above, and ``display`` writes them back:

>>> Card.parse("B♥", lang="de"), Card.parse("dc", lang="pt"), Card.parse("Coringa", lang="pt")
(Card('JH'), Card('QC'), Card('JK'))
>>> display(Card.parse("BH", lang="de"), "de")
'B♥'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum

from .errors import RefereeError


class CardError(RefereeError):
    """A card written in a notation this module cannot read."""

    def __init__(self, text: str) -> None:
        super().__init__("bad_card", None, text=text[:20])
        self.text = text

    def __str__(self) -> str:
        return f"invalid card: {self.text!r}"


class Rank(IntEnum):
    __hash__ = int.__hash__  # Enum's own hash is written in Python; ranks are hashed in every search

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOL[self]

    @classmethod
    def parse(cls, text: str, lang: str | None = None) -> "Rank":
        """A rank in the notation, or also in the letters of ``lang``."""
        try:
            return _reading(lang).ranks[text.strip().upper()]
        except KeyError:
            raise CardError(text) from None


_RANK_SYMBOL = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"} | {
    Rank(v): str(v) for v in range(2, 11)
}
_RANK_BY_SYMBOL = {s: r for r, s in _RANK_SYMBOL.items()} | {"T": Rank.TEN}


class Suit(str, Enum):
    __hash__ = str.__hash__

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOL.items()} | {
    # the text-presentation forms some keyboards produce
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_NUM = {s: i + 1 for i, s in enumerate(SUIT_ORDER)}

JOKER_TEXT = "JK"


@dataclass(frozen=True, eq=True)
class Card:
    """A natural card (rank and suit) or a joker (both None)."""

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        key = (0 if self.rank is None else int(self.rank)) * 8 + (0 if self.suit is None else _SUIT_NUM[self.suit])
        object.__setattr__(self, "_key", key)

    def __hash__(self) -> int:  # cards are hashed in every search: keep it cheap
        return self._key  # type: ignore[attr-defined, no-any-return]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self._key == other._key  # type: ignore[attr-defined]

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @classmethod
    def parse(cls, text: str, lang: str | None = None) -> "Card":
        """A card in the notation, or also in the letters and the joker's name of ``lang``."""
        if not isinstance(text, str):
            raise CardError(repr(text))
        reading = _reading(lang)
        t = text.strip().upper()
        if t in reading.jokers:
            return JOKER
        if len(t) < 2:
            raise CardError(text)
        suit = _SUIT_BY_TEXT.get(t[-1])
        rank = reading.ranks.get(t[:-1])
        if suit is None or rank is None:
            raise CardError(text)
        return _CARDS[(rank, suit)]

    def __str__(self) -> str:
        if self.rank is None:
            return JOKER_TEXT
        assert self.suit is not None
        return self.rank.symbol + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def sort_key(self) -> tuple[int, int]:
        if self.rank is None:
            return (99, 0)
        assert self.suit is not None
        return (int(self.rank), SUIT_ORDER.index(self.suit))


JOKER = Card(None, None)
_CARDS = {(r, s): Card(r, s) for r in Rank for s in Suit}
NATURALS: tuple[Card, ...] = tuple(_CARDS[(r, s)] for r in Rank for s in SUIT_ORDER)

_SPLIT = re.compile(r"[\s,|;]+")


def parse_cards(text: str | list[str], lang: str | None = None) -> list[Card]:
    """Cards from a list of tokens or from one string separated by spaces, commas or bars."""
    tokens = [t for t in _SPLIT.split(text) if t] if isinstance(text, str) else text
    if not isinstance(tokens, list):
        raise CardError(repr(text))
    return [Card.parse(t, lang) for t in tokens]


# Rank letters as the source documents write them (es J Q K A, pt V D R A, de B D K A).
LOCAL_RANK_LETTERS: dict[str, dict[Rank, str]] = {
    "en": {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    "es": {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    "pt": {Rank.ACE: "A", Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"},
    "de": {Rank.ACE: "A", Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K"},
}
LOCAL_JOKER = {"en": "Joker", "es": "Comodín", "pt": "Coringa", "de": "Joker"}


def rank_display(rank: Rank, lang: str = "en") -> str:
    letters = LOCAL_RANK_LETTERS.get(lang, LOCAL_RANK_LETTERS["en"])
    return letters.get(rank, rank.symbol)


def display(card: Card, lang: str = "en") -> str:
    """A card for people: localized rank letter and a suit symbol (``10♥``, pt ``V♣``)."""
    if card.rank is None:
        return LOCAL_JOKER.get(lang, LOCAL_JOKER["en"])
    assert card.suit is not None
    return rank_display(card.rank, lang) + card.suit.symbol


@dataclass(frozen=True)
class Reading:
    """What a card may be written as, upper-cased: rank texts, suit texts and the joker's names."""

    ranks: dict[str, Rank]
    suits: dict[str, Suit]
    jokers: frozenset[str]


_NOTATION_JOKERS = (JOKER_TEXT, "JOKER", "🃏")


def _make_reading(lang: str | None) -> Reading:
    ranks = dict(_RANK_BY_SYMBOL)
    jokers = set(_NOTATION_JOKERS)
    if lang in LOCAL_RANK_LETTERS:
        # the reader's letters come first; the notation's letters stay readable where no local letter takes them
        # (no language here gives a notation letter another rank: tests/test_cards.py holds that)
        ranks |= {letter.upper(): rank for rank, letter in LOCAL_RANK_LETTERS[lang].items()}
        jokers.add(LOCAL_JOKER[lang].upper())
    return Reading(ranks, dict(_SUIT_BY_TEXT), frozenset(jokers))


_READINGS = {lang: _make_reading(lang) for lang in (None, *LOCAL_RANK_LETTERS)}


def _reading(lang: str | None) -> Reading:
    return _READINGS.get(lang) or _READINGS[None]


def reading(lang: str | None) -> Reading:
    """How cards written in ``lang`` are read (the notation's, when ``lang`` is None): the card picker in the
    browser reads typed cards with these same tables."""
    return _reading(lang)


def rank_text(rank: Rank | None, lang: str = "en") -> str:
    """A rank alone as people write it (a joker by its name): what a leftover card is when suits do not count."""
    return LOCAL_JOKER.get(lang, LOCAL_JOKER["en"]) if rank is None else rank_display(rank, lang)
