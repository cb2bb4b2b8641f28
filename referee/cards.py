"""Cards: ranks, suits, jokers; notation in and out.

Notation (the JSON API's): a rank ``A 2 … 10 J Q K`` (``T`` for ten too) followed by a suit ``S H D C`` or
``♠ ♥ ♦ ♣``, case-insensitive; ``JK`` is a joker. ``str(card)`` writes the canonical form back (``10H``, ``JK``).

>>> Card.parse("th"), Card.parse("J♣"), Card.parse("jk")
(Card('10H'), Card('JC'), Card('JK'))
>>> [str(c) for c in parse_cards("7h 7d JK")]
['7H', '7D', 'JK']

People write cards in their own language's letters (pt ``V D R`` for jack, queen, king; de ``B D K``) and the
joker by its name. The engine knows no language's words: a ``Reading`` made of a language's letters (the web
layer takes them from its translation catalogs) reads those as well as the notation, and writes them back:

>>> pt = Reading.local({Rank.ACE: "A", Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"}, "Coringa")
>>> Card.parse("vh", pt), Card.parse("D♣", pt), Card.parse("coringa", pt), Card.parse("QS", pt)
(Card('JH'), Card('QC'), Card('JK'), Card('QS'))
>>> pt.card_text(Card.parse("KS")), pt.rank_text(None)
('R♠', 'Coringa')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Mapping, Sequence

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
    def parse(cls, text: str, reading: "Reading | None" = None) -> "Rank":
        """A rank in the notation, or in ``reading``'s letters."""
        try:
            return (reading or NOTATION).ranks[text.strip().upper()]
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
    def parse(cls, text: str, reading: "Reading | None" = None) -> "Card":
        """A card in the notation, or in ``reading``'s letters and joker's name."""
        if not isinstance(text, str):
            raise CardError(repr(text))
        reading = reading or NOTATION
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
        return _RANK_SYMBOL[self.rank] + self.suit.value

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


def parse_cards(text: str | list[str], reading: Reading | None = None) -> list[Card]:
    """Cards from a list of tokens or from one string separated by spaces, commas or bars."""
    tokens = [t for t in _SPLIT.split(text) if t] if isinstance(text, str) else text
    if not isinstance(tokens, list):
        raise CardError(repr(text))
    return [Card.parse(t, reading) for t in tokens]


_LEFTOVER_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True)
class Leftover:
    """A card left in a hand as the scorer writes it: a full card, a joker, or a rank alone (``"7"``, since
    suits never score).

    >>> Leftover.parse("7"), Leftover.parse("th"), Leftover.parse("jk")
    (Leftover('7'), Leftover('10H'), Leftover('JK'))
    """

    rank: Rank | None  # None: a joker
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str, reading: Reading | None = None) -> "Leftover":
        """A leftover in the notation, or in ``reading``'s letters (de ``B`` is a jack)."""
        if not isinstance(text, str):
            raise CardError(repr(text))
        try:  # most often a rank alone: the scoreboard's pad writes ranks (no text is both a rank and a card)
            return cls(Rank.parse(text, reading))
        except CardError:
            pass
        card = Card.parse(text, reading)
        return cls(card.rank, card.suit)

    @classmethod
    def parse_all(cls, text: str | Sequence[str], reading: Reading | None = None) -> tuple["Leftover", ...]:
        """Leftovers from a list of tokens or from one string separated by spaces or commas."""
        tokens = [t for t in _LEFTOVER_SPLIT.split(text) if t] if isinstance(text, str) else list(text)
        return tuple(cls.parse(t, reading) for t in tokens)

    def __str__(self) -> str:
        if self.rank is None:
            return JOKER_TEXT
        return _RANK_SYMBOL[self.rank] + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Leftover({str(self)!r})"


_NOTATION_JOKERS = (JOKER_TEXT, "JOKER", "🃏")
_SEPARATOR = re.compile(r"[\s,|;]")


class ReadingError(ValueError):
    """Letters that would make a written card mean two things, or nothing."""


@dataclass(frozen=True)
class Reading:
    """How cards are written in one language: what each text means (upper-cased: rank texts, suit texts and
    the joker's names) and how each rank and the joker are shown. ``NOTATION`` is the JSON API's; a language's
    own letters and joker name are laid over it with ``Reading.local`` (the web layer finds them in its
    translation catalogs: the engine holds no language's words)."""

    ranks: dict[str, Rank]
    suits: dict[str, Suit]
    jokers: frozenset[str]
    letters: dict[Rank, str]  # how each rank is shown
    joker: str  # how a joker is shown

    @classmethod
    def local(cls, letters: Mapping[Rank, str], joker: str) -> "Reading":
        """The notation, with these letters for their ranks (the notation's letters stay readable where no
        local letter takes them) and this name for the joker. Letters that would make one text mean two
        ranks, or a joker's name that reads as a card, are refused (``ReadingError``)."""
        ranks = dict(_RANK_BY_SYMBOL)
        taken: dict[str, Rank] = {}
        for rank, letter in letters.items():
            text = letter.strip().upper()
            if not text or _SEPARATOR.search(text):
                raise ReadingError(f"no usable letter for {rank.symbol}: {letter!r}")
            if taken.get(text, rank) != rank or _RANK_BY_SYMBOL.get(text, rank) != rank:
                raise ReadingError(f"{letter!r} would mean two ranks")
            if text in _NOTATION_JOKERS:
                raise ReadingError(f"{letter!r} is the joker's notation")
            taken[text] = rank
        ranks |= taken
        name = joker.strip()
        if not name or _SEPARATOR.search(name) or name.upper() in ranks or _reads_as_card(name.upper(), ranks):
            raise ReadingError(f"{joker!r} cannot name the joker")
        shown = {rank: letters.get(rank, rank.symbol).strip() for rank in Rank}
        return cls(ranks, dict(_SUIT_BY_TEXT), frozenset((*_NOTATION_JOKERS, name.upper())), shown, name)

    def rank_text(self, rank: Rank | None) -> str:
        """A rank alone as people write it (a joker by its name): a leftover card where suits do not count."""
        return self.joker if rank is None else self.letters[rank]

    def card_text(self, card: Card) -> str:
        """A card for people: the rank's letter and a suit symbol (``10♥``, pt ``V♣``), a joker by its name."""
        if card.rank is None:
            return self.joker
        assert card.suit is not None
        return self.letters[card.rank] + card.suit.symbol


def _reads_as_card(text: str, ranks: dict[str, Rank]) -> bool:
    return len(text) >= 2 and text[-1] in _SUIT_BY_TEXT and text[:-1] in ranks


NOTATION = Reading(dict(_RANK_BY_SYMBOL), dict(_SUIT_BY_TEXT), frozenset(_NOTATION_JOKERS),
                   {rank: rank.symbol for rank in Rank}, JOKER_TEXT)


def display(card: Card, reading: Reading = NOTATION) -> str:
    """A card as ``reading`` shows it (``Reading.card_text``)."""
    return reading.card_text(card)


def rank_text(rank: Rank | None, reading: Reading = NOTATION) -> str:
    """A rank alone as ``reading`` shows it, a joker by its name (``Reading.rank_text``)."""
    return reading.rank_text(rank)
