"""The contract check: do these melds make this hand's contract under these house rules?

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> v = check(resolve("liverpool"), 1, [parse_cards("7h 7d 7s"), parse_cards("kc kd JK")])
>>> v.valid
True
>>> v = check(resolve("liverpool"), 1, [parse_cards("7h 7d 7s")])
>>> [x.code for x in v.violations]
['contract_mismatch']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import Card
from .families import Contract, Rules
from .melds import Meld, analyze
from .verdicts import Violation


@dataclass
class Verdict:
    valid: bool
    contract: Contract
    melds: list[Meld]
    violations: list[Violation]


def describe(kinds: Sequence[tuple[str, int]]) -> str:
    """A contract or a list of melds in notation: ``S3 S3 R4``."""
    return " ".join(("S" if k == "set" else "R" if k == "run" else "?") + str(n) for k, n in kinds)


def copies_violations(melds: Sequence[Sequence[Card]], rules: Rules) -> list[Violation]:
    """More copies of a card than the pack holds, named at the meld where the count first runs over."""
    cards = [c for meld in melds for c in meld]
    if len(set(cards)) == len(cards) and rules.decks >= 1 and (rules.jokers or not any(c.rank is None for c in cards)):
        return []  # every card once, and the pack holds at least one of each
    seen: dict[Card, int] = {}
    first: dict[Card, int] = {}
    for i, meld in enumerate(melds):
        for card in meld:
            n = seen[card] = seen.get(card, 0) + 1
            if n == rules.copies(card) + 1:
                first[card] = i
    return [Violation("too_many_copies", i, {"card": str(card), "count": seen[card], "copies": rules.copies(card)})
            for card, i in first.items()]


def check(rules: Rules, hand: int, melds: Sequence[Sequence[Card]], cards_left: int | None = None) -> Verdict:
    spec = rules.hand(hand)
    contract = spec.contract
    readings = [analyze(m, rules, i) for i, m in enumerate(melds)]
    violations = copies_violations(melds, rules)
    for r in readings:
        violations.extend(r.violations)
    violations.extend(_contract_violations(contract, readings, rules))
    if contract.no_discard and cards_left is not None and cards_left > 0:
        violations.append(Violation("final_hand_cards_left", None, {"count": cards_left}))
    violations.sort(key=Violation.sort_key)
    return Verdict(not violations, contract, readings, violations)


def _contract_violations(contract: Contract, readings: list[Meld], rules: Rules) -> list[Violation]:
    said: dict[str, str] = {}

    def mismatch() -> dict[str, str]:
        if not said:
            said.update(expected=contract.notation,
                        got=describe(sorted(((r.kind or "?", len(r.cards)) for r in readings),
                                            key=lambda k: (k[0] != "set", -k[1]))) or "-")
        return dict(said)

    if len(readings) != len(contract.melds) or (
            sorted(m.kind for m in contract.melds) != sorted(r.kind or "" for r in readings)):
        return [Violation("contract_mismatch", None, mismatch())]
    out = []
    for kind in ("set", "run"):
        specs = sorted((m.size for m in contract.melds if m.kind == kind), reverse=True)
        mine = sorted((r for r in readings if r.kind == kind), key=lambda r: -len(r.cards))
        for size, r in zip(specs, mine):
            n = len(r.cards)
            if n < size:
                out.append(Violation("contract_mismatch", _index(readings, r), mismatch()))
            elif n > size and not rules.contract_extra_cards and r.valid:
                out.append(Violation("contract_extra_cards", _index(readings, r), {"size": size, "count": n}))
    return out


def _index(readings: list[Meld], r: Meld) -> int:
    return next(i for i, x in enumerate(readings) if x is r)
