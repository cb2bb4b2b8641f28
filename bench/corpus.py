"""A fixed corpus of hard hands: 12–14 cards, 0–4 wild cards, contracts 5–7, all three families.

Hands are drawn with a fixed seed from a two-deck pack, biased towards two suits and a few ranks so that
many hands come near their contract (the hard case for a search: it must look far before it can say no).
"""

from __future__ import annotations

import random

from referee.cards import JOKER, NATURALS, Card
from referee.families import Rules, resolve

SEED = 20261129


def hands(count: int = 240) -> list[tuple[Rules, int, list[Card]]]:
    rng = random.Random(SEED)
    families = [resolve(f, players=4) for f in ("liverpool", "progressive", "contract")]
    out: list[tuple[Rules, int, list[Card]]] = []
    while len(out) < count:
        rules = families[len(out) % 3]
        hand = 5 + len(out) % 3
        size = rng.randint(12, 14)
        wilds = rng.randint(0, 4)
        suits = rng.sample(range(4), 2)
        low = rng.randint(1, 7)
        pack = [c for c in NATURALS for _ in range(2)
                if (c.sort_key[1] in suits and low <= c.sort_key[0] <= low + 7) or rng.random() < 0.15]
        cards = rng.sample(pack, size - wilds) + [JOKER] * wilds
        if wilds > rules.jokers:
            continue
        rng.shuffle(cards)
        out.append((rules, hand, cards))
    return out
