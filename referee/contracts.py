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

from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from typing import Sequence

from .cards import Card
from .families import Contract, Rules
from .melds import Meld, analyze, could_be_either, held_to_the_contract, meld_rules
from .verdicts import Violation, cite


@dataclass
class Verdict:
    valid: bool
    contract: Contract
    melds: list[Meld]
    violations: list[Violation]
    rules: list[str] = field(default_factory=list, compare=False)  # the anchors it rests on, the deciding first

    @property
    def missing(self) -> dict[str, int]:
        """For each kind of meld, how many more the contract needs than the valid melds make: a negative count is
        melds of that kind too many.

        >>> from referee.families import resolve
        >>> from referee.cards import parse_cards
        >>> check(resolve("liverpool"), 1, [parse_cards("7h 7c JK")]).missing
        {'set': 1, 'run': 0}
        >>> check(resolve("liverpool"), 1, [parse_cards("7h 7c JK"), parse_cards("5s 6s 7s 8s")]).missing
        {'set': 1, 'run': -1}
        """
        by_kind = self.contract.sizes_by_kind
        return {kind: len(by_kind[kind]) - sum(1 for m in self.melds if m.kind == kind and m.valid)
                for kind in ("set", "run")}


def describe(kinds: Sequence[tuple[str, int]]) -> str:
    """A contract or a list of melds in notation: ``S3 S3 R4``."""
    return " ".join(("S" if k == "set" else "R" if k == "run" else "?") + str(n) for k, n in kinds)


def copies_violations(melds: Sequence[Sequence[Card]], rules: Rules) -> list[Violation]:
    """More copies of a card than the pack holds, named at the meld where the count first runs over."""
    counts = Counter(c for meld in melds for c in meld)
    decks, jokers = rules.decks, rules.jokers
    if all(n <= (jokers if c.rank is None else decks) for c, n in counts.items()):
        return []  # no card more often than the pack holds it
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
    found = _contract_violations(contract, readings, rules)
    if found and len(readings) == len(contract.melds):
        # a meld of one natural card and wild cards is a set or a run, whichever the contract needs (reading one
        # as the other kind never changes how many melds there are)
        readings, found = _as_the_contract_needs(contract, melds, readings, found, rules)
    touching = None
    if rules.wilds_at_most_naturals or rules.runs_of_a_suit_apart:  # (house rules on the melds of a contract)
        readings, touching = held_to_the_contract(readings, rules)
    violations = copies_violations(melds, rules)
    for r in readings:
        violations.extend(r.violations)
    violations.extend(found)
    if touching is not None:
        violations.append(Violation("runs_touch", touching[0], {"low_card": touching[1], "high_card": touching[2]}))
    if contract.no_discard and cards_left is not None and cards_left > 0:
        violations.append(Violation("final_hand_cards_left", None, {"count": cards_left}))
    violations.sort(key=Violation.sort_key)
    return Verdict(not violations, contract, readings, violations, check_rules(rules, contract, readings, violations))


def check_rules(rules: Rules, contract: Contract, readings: Sequence[Meld],
                violations: Sequence[Violation]) -> list[str]:
    """The rules a contract verdict rests on: what is wrong first, then the contract, the melds' kinds and the
    house rules on wild cards and extra cards that the melds were held to."""
    why = ["rule-contract"]
    if contract.no_discard:
        why.append("rule-final-hand")
    for r in readings:
        why += meld_rules(rules, r)
    sizes = {m.kind: m.size for m in contract.melds}
    if any(r.kind in sizes and len(r.cards) > sizes[r.kind] for r in readings):
        why.append("rule-going-down")
    return cite(violations, why)


def _as_the_contract_needs(contract: Contract, melds: Sequence[Sequence[Card]], readings: list[Meld],
                           found: list[Violation], rules: Rules) -> tuple[list[Meld], list[Violation]]:
    """Read the melds that could be either kind as the kind that makes the contract, where one does."""
    options: list[list[Meld]] | None = None
    for i, (m, r) in enumerate(zip(melds, readings)):
        if r.valid and r.kind is not None and could_be_either(m, rules):
            alt = analyze(m, rules, i, kind="run" if r.kind == "set" else "set")
            if alt.valid and alt.kind != r.kind:
                if options is None:
                    options = [[x] for x in readings]
                options[i].append(alt)
    if options is None:
        return readings, found
    best = (readings, found)
    for choice in product(*options):
        trial = list(choice)
        v = _contract_violations(contract, trial, rules)
        if len(v) < len(best[1]):
            best = (trial, v)
            if not v:
                break
    return best


def _contract_violations(contract: Contract, readings: list[Meld], rules: Rules) -> list[Violation]:
    said: dict[str, str] = {}

    def mismatch() -> dict[str, str]:
        if not said:
            said.update(contract=contract.notation,
                        melds=describe(sorted(((r.kind or "?", len(r.cards)) for r in readings),
                                              key=lambda k: (k[0] != "set", -k[1]))))
        return dict(said)

    by_kind = contract.sizes_by_kind
    sets = [r for r in readings if r.kind == "set"]
    runs = [r for r in readings if r.kind == "run"]
    if len(readings) != len(contract.melds) or len(sets) != len(by_kind["set"]) or len(runs) != len(by_kind["run"]):
        return [Violation("contract_mismatch", None, mismatch())]
    out = []
    for specs, mine in ((by_kind["set"], sets), (by_kind["run"], runs)):
        mine.sort(key=_longest_first)
        for size, r in zip(specs, mine):
            n = len(r.cards)
            if n < size:
                out.append(Violation("contract_mismatch", _index(readings, r), mismatch()))
            elif n > size and not (rules.contract_extra_cards or contract.no_discard) and r.valid:
                out.append(Violation("contract_extra_cards", _index(readings, r), {"size": size, "count": n}))
    return out


def _longest_first(r: Meld) -> int:
    return -len(r.cards)


def _index(readings: list[Meld], r: Meld) -> int:
    return next(i for i, x in enumerate(readings) if x is r)
