"""Compact card strings for the tests: ``"7h 7d JK | 5c 6c 7c 8c"``."""

from __future__ import annotations

from referee.cards import Card, parse_cards
from referee.families import Rules, resolve


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def melds(text: str) -> list[list[Card]]:
    """``"7h 7d JK | 5c 6c 7c 8c"`` → two melds."""
    return [parse_cards(part) for part in text.split("|")]


def rules(family: str = "liverpool", *variants: str, players: int | None = None, **options: object) -> Rules:
    return resolve(family, list(variants), options, players)
