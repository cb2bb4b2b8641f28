"""The card picker's side on the server: cards typed or tapped in the reader's letters, read and written back,
and the facts of the pack the picker in the browser checks against (rendered into the page, never restated in
a script).

Every web form with cards reads them here (``typed_cards``, ``typed_leftovers``); the JSON API keeps its own
notation and does not.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from ..cards import JOKER, NATURALS, SUIT_ORDER, Card, CardError, Leftover, Rank, parse_cards
from ..families import Rules
from .errors import Refusal
from .i18n import card_reading, card_text, gettext, ngettext

RANKS = tuple(Rank)


def notation() -> dict[str, Any]:
    """How the reader's language writes cards, for the picker's script: what each typed rank, suit and joker
    name means (upper-cased), and the letters and symbols to show."""
    r = card_reading()
    return {
        "ranks": {text: rank.symbol for text, rank in r.ranks.items()},
        "suits": {text: suit.value for text, suit in r.suits.items()},
        "jokers": sorted(r.jokers),
        "show": {rank.symbol: r.rank_text(rank) for rank in RANKS},
        "order": [rank.symbol for rank in RANKS],
        "symbols": {s.value: s.symbol for s in SUIT_ORDER},
        "suitOrder": [s.value for s in SUIT_ORDER],
        "red": [s.value for s in SUIT_ORDER if s.red],
        "joker": r.joker,
    }


def facts(rules: Rules, hand: int | None = None, ranks_only: bool = False) -> dict[str, Any]:
    """What the picker checks as cards are tapped: how many copies the pack holds (of each card, or of each
    rank where suits do not count) and of the joker, the hand's deal, and the words it says about them."""
    copies = rules.rank_copies(Rank.ACE) if ranks_only else rules.copies(NATURALS[0])
    jokers = rules.copies(JOKER)
    size = rules.played(hand).deal if hand else None
    if ranks_only:
        full = ngettext("The pack holds only one card of rank %(rank)s: no more can be entered.",
                        "The pack holds only %(num)s cards of rank %(rank)s: no more can be entered.", copies,
                        rank="{card}")
    else:
        full = ngettext("The pack holds only one %(card)s: no more can be entered.",
                        "The pack holds only %(num)s × %(card)s: no more can be entered.", copies, card="{card}")
    if jokers:
        no_joker = ngettext("The pack holds only one joker: no more can be entered.",
                            "The pack holds only %(num)s jokers: no more can be entered.", jokers)
    else:
        no_joker = gettext("This pack has no jokers.")
    return {
        "copies": copies,
        "jokers": jokers,
        "size": size,
        "count": (gettext("Cards: %(n)s of %(size)s", n="{n}", size=size) if size
                  else gettext("Cards: %(n)s", n="{n}")),
        "full": full,
        "noJoker": no_joker,
        "remove": gettext("Remove %(card)s", card="{card}"),
    }


def _refuse(text: str, field: str | None) -> Refusal:
    r = card_reading()
    return Refusal("bad_typed_card", field, text=text[:20],
                   faces=" ".join(r.rank_text(rank) for rank in (Rank.JACK, Rank.QUEEN, Rank.KING)), joker=r.joker)


def typed_cards(text: str | None, field: str) -> list[Card]:
    """Cards typed or tapped into a form, in the reader's letters or the notation."""
    try:
        return parse_cards(text or "", card_reading())
    except CardError as e:
        raise _refuse(e.text, field) from None


def typed_leftovers(fields: dict[str, str | None]) -> dict[str, tuple[Leftover, ...]]:
    """Each player's leftover cards typed or tapped into the end-of-hand form (field name → text), read once, in
    the reader's letters (the scoreboard stores them in the notation: ``J``, ``10H``, ``JK``); a card that
    reads as nothing is refused naming its field."""
    reading = card_reading()
    out = {}
    for field, text in fields.items():
        text = (text or "").replace(",", " ")
        try:
            out[field] = Leftover.parse_all(text, reading) if text.strip() else ()
        except CardError as e:
            raise _refuse(e.text, field) from None
    return out


def leftovers_text(tokens: Any) -> str:
    """Stored leftovers (``J``, ``10H``, ``JK``) as the reader writes them, to refill a form."""
    out = []
    for token in tokens or ():
        try:
            left = Leftover.parse(token)
        except CardError:
            out.append(str(token))
            continue
        if left.suit is None:
            out.append(card_reading().rank_text(left.rank))
        else:
            out.append(card_text(Card.parse(str(left))))
    return " ".join(out)


def cards_text(notation_text: str) -> str:
    """Cards in the notation (``7H 7D JK``, lines kept) as the reader writes them: for examples and hints."""
    return "\n".join(" ".join(card_text(t) for t in line.split()) for line in notation_text.split("\n"))


def init_app(app: Flask) -> None:
    """The card picker's notation and the pack and deal it checks against, for the templates."""
    app.jinja_env.globals.update(card_notation=notation, card_facts=facts)
