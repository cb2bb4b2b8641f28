"""Penalties, totals and the winner by the family's tie-break.

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> penalty(resolve("progressive"), parse_cards("AH KD 7C JK"))
55
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import JOKER, NATURALS, Card
from .families import Rules


def card_points(rules: Rules, cards: Sequence[Card]) -> list[tuple[Card, int]]:
    return [(c, rules.points(c)) for c in cards]


def penalty(rules: Rules, cards: Sequence[Card]) -> int:
    """What the cards left in a hand cost; the player who went out scores nothing."""
    return sum(rules.points(c) for c in cards)


def possible_totals(rules: Rules, max_cards: int) -> set[int]:
    """Every penalty that some hand of at most ``max_cards`` cards could score (a typed total is accepted only
    if it is one of these)."""
    values = sorted({rules.points(c) for c in _one_of_each()})
    reach = {0}
    for _ in range(max_cards):
        reach |= {r + v for r in reach for v in values}
    return reach


def _one_of_each() -> list[Card]:
    return list(NATURALS) + [JOKER]


@dataclass(frozen=True)
class Standing:
    player: str
    total: int
    place: int  # 1 = best; players who share a place share its number
    last_hand: int | None


@dataclass(frozen=True)
class Result:
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]  # more than one: they share the win
    decided_by: str  # "total" | "last_hand" | "replayed" | "shared" | "replay" (still tied: replay it)


def totals(players: Sequence[str], hands: Sequence[dict[str, int]]) -> dict[str, int]:
    return {p: sum(h.get(p, 0) for h in hands) for p in players}


def standings(rules: Rules, players: Sequence[str], hands: Sequence[dict[str, int]],
              replays: Sequence[dict[str, int]] = ()) -> Result:
    """Lowest total wins; ties are broken by the family's tie-break steps (the last hand's penalties, then a
    shared win, or the last hand replayed: ``replays`` are the penalties of each replay, which count only to
    break the tie)."""
    tot = totals(players, hands)
    last = hands[-1] if hands else {}

    def key(p: str) -> tuple[int, int]:
        return (tot[p], last.get(p, 0))

    order = sorted(players, key=lambda p: (key(p), list(players).index(p)))
    best = min(tot.values()) if tot else 0
    leaders = [p for p in order if tot[p] == best]
    decided = "total"
    if len(leaders) > 1:
        steps = rules.family.tie_break
        if "last_hand" in steps and hands:
            low = min(last.get(p, 0) for p in leaders)
            narrowed = [p for p in leaders if last.get(p, 0) == low]
            if len(narrowed) < len(leaders):
                leaders, decided = narrowed, "last_hand"
        if len(leaders) > 1 and "replay" in steps:
            for replay in replays:
                low = min(replay.get(p, 0) for p in leaders)
                leaders = [p for p in leaders if replay.get(p, 0) == low]
                if len(leaders) == 1:
                    decided = "replayed"
                    break
        if len(leaders) > 1:
            decided = "replay" if "replay" in steps else "shared"
    out = []
    place = 0
    prev: tuple[int, int] | None = None
    for i, p in enumerate(order):
        k = key(p) if decided != "total" else (tot[p], 0)
        if k != prev:
            place = i + 1
            prev = k
        out.append(Standing(p, tot[p], 1 if p in leaders else max(place, 2), last.get(p) if hands else None))
    return Result(tuple(out), tuple(leaders), decided)
