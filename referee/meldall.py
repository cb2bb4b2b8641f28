"""The hand without a final discard: every card goes down at once, so the search looks for the runs that meld
the whole hand ("todas las cartas a la vez, sin descarte"; "se sale poniendo toda la mano sobre la mesa").

Only runs are played in such a hand (every family's final contract is runs). Runs hold one suit each, so the
search covers the natural cards suit by suit: it takes the lowest card still to place (an ace low or high) and
tries each run that starts at it, reaching up to one of the suit's cards and taking every card of the suit in
between, lengthened with wild places where the run is shorter than the contract asks. Wild cards fill the
places no natural card fills; spare wild cards lengthen the runs at their ends. Where that melds no hand, a
second pass lets a run leave cards inside it to another run of the suit, a wild card in their place (what the
house rules on wild cards, or a run with no other natural card, may need). Where the cards fall short, the
same search counts the fewest cards that, added to the hand, would meld it all.

Also here: ``wild_places``, the most places of a run that wild cards may fill under the house rules on wild
cards, the rest to be natural cards (the nearest miss adds natural cards where a wild card would not do).

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> a = meld_all(resolve("progressive"), resolve("progressive").hand(7).contract.melds,
...              parse_cards("3h 4h 5h 6h 7h 9s 10s js qs 2d 3d 4d 5d"))
>>> a is not None and a.added, [len(m) for m in a.melds]
(0, [4, 5, 4])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Sequence

from .budget import Budget, current
from .cards import SUIT_ORDER, Card
from .families import MeldSpec, Rules
from .melds import (
    HIGH_ACE,
    LOW_ACE,
    ace_flips,
    analyze,
    end_spreads,
    ends_meet,
    position_card,
    run_bounds,
    touching_runs,
    wild_rule_breaks,
)


def wild_places(start: int, size: int, naturals: frozenset[int], rules: Rules) -> tuple[int, ...]:
    """The most places of the run ``start``…``start + size - 1`` (positions) that wild cards may fill under the
    house rules, given the places ``naturals`` that hold natural cards; the other free places are left for
    natural cards. A run needs one natural card at least, and where wild cards may not outnumber natural cards,
    as many natural cards as wild cards (fewer wild cards never break a house rule that more of them keep)."""
    limit = rules.run_max_wilds_per_4
    second = rules.second_wild_needs_fixed_position
    if limit is None and not second:
        free = [p for p in range(start, start + size) if p not in naturals]
        wild = tuple(free if naturals else free[1:])
    else:
        wild = _limited_wild_places(start, size, naturals, limit, second, rules.ace)
    return wild[:size // 2] if rules.wilds_at_most_naturals else wild


@lru_cache(maxsize=1 << 16)
def _limited_wild_places(start: int, size: int, naturals: frozenset[int], limit: int | None, second: bool,
                         ace: str) -> tuple[int, ...]:
    """``wild_places`` where a house rule limits wild cards in runs: it depends on these values alone, and the
    nearest-miss search asks for the same run shapes over and over, so the answers are kept."""
    rules: Any = _WildRules(limit, second, ace)  # read as Rules by wild_rule_breaks
    end = start + size - 1
    free = [p for p in range(start, end + 1) if p not in naturals]
    best: tuple[int, ...] = ()
    if free and (naturals or size >= 2):
        best = (free[-1],) if naturals or free[-1] != free[0] else ()  # one wild card alone: always allowed
    lo_nat = min(naturals) if naturals else end
    hi_nat = max(naturals) if naturals else start
    for a in range(start, lo_nat + 1):  # the natural cards reach from a to b, both natural
        for b in range(max(a, hi_nat), end + 1):
            outside = (a - start) + (end - b)
            has_ace = a == LOW_ACE or b == HIGH_ACE
            bounds = run_bounds(ace, has_ace, b == HIGH_ACE)
            if start < bounds[0] or end > bounds[1]:
                continue
            floating = outside if outside and len(end_spreads(a, b, outside, bounds, size)) > 1 else 0
            flags = {p: (p < a or p > b) for p in range(start, end + 1)}
            for p in range(a + 1, b):
                if p in naturals:
                    continue
                flags[p] = True
                if limit is not None and any(
                        sum(flags[q] for q in range(i, i + 4)) > limit
                        for i in range(max(start, p - 3), min(p, end - 3) + 1)):
                    flags[p] = False
            wild = tuple(p for p in range(start, end + 1) if flags[p])
            if len(wild) <= len(best):
                continue
            if ace_flips((p for p in range(start, end + 1) if not flags[p]), size, ace):
                floating = len(wild)
            if not wild_rule_breaks([flags[p] for p in range(start, end + 1)], floating, rules):
                best = wild
    return best


@dataclass(frozen=True)
class _WildRules:
    """The house rules ``wild_rule_breaks`` reads, by the names it reads them by."""

    run_max_wilds_per_4: int | None
    second_wild_needs_fixed_position: bool
    ace: str


@dataclass
class _Run:
    suit: int  # index in SUIT_ORDER
    low: int
    high: int
    cards: dict[int, Card]  # position -> the hand's card there (a natural, or a wild-rank card as itself)

    @property
    def size(self) -> int:
        return self.high - self.low + 1


@dataclass
class Found:
    """The runs that meld the hand (or come nearest): each meld's cards in run order, with the places left for
    added cards (``needs``, and those a wild card would not do for, ``needs_natural``)."""

    added: int
    melds: list[list[Card]] = field(default_factory=list)
    needs: list[str] = field(default_factory=list)
    needs_natural: list[str] = field(default_factory=list)
    spans: list[tuple[int, int, int]] = field(default_factory=list)  # each run's suit, lowest and highest place


def _touch(found: Found, rules: Rules) -> bool:
    """Do two of the runs found continue each other? Runs that meld the hand are read as the contract check
    reads them (a wild card at an end may stand at the other end); runs still missing cards, as placed."""
    if found.added == 0:
        return touching_runs([analyze(m, rules, kind="run") for m in found.melds], rules) is not None
    return any(a[0] == b[0] and ends_meet(a[1:], b[1:])
               for i, a in enumerate(found.spans) for b in found.spans[i + 1:])


def meld_all(rules: Rules, specs: Sequence[MeldSpec], cards: Sequence[Card], budget: Budget | None = None,
             most: int | None = None) -> Found | None:
    """The runs that meld every one of ``cards`` (``added`` 0), or the arrangement that needs the fewest cards
    added (at most ``most``); ``None`` where no cards could make it (more copies of a card than there are runs,
    or more suits than runs). Raises ``OutOfBudget`` when the budget runs out."""
    budget = budget or current()
    if any(s.kind != "run" for s in specs):
        return None
    sizes = sorted((s.size for s in specs), reverse=True)
    k = len(sizes)
    least = min(sizes)
    always = rules.always_wild  # (the wild ranks whose cards are as wild as a joker: never themselves)
    jokers = [c for c in cards if c.rank is None or c.rank in always]
    duals = [c for c in cards if c.rank is not None and rules.is_wild(c) and c.rank not in always]
    duals_left = list(duals)  # the wild-rank cards not standing for themselves in a run
    left: dict[tuple[int, int], list[Card]] = {}  # (suit, rank) -> natural cards still to place
    for c in cards:
        if c.rank is not None and not rules.is_wild(c):
            assert c.suit is not None
            left.setdefault((SUIT_ORDER.index(c.suit), int(c.rank)), []).append(c)
    apart = rules.runs_of_a_suit_apart and k > 1
    best: list[Found | None] = [None]
    cap = [most if most is not None else len(cards) + sum(sizes)]
    if len({s for s, _ in left}) > k or any(len(cs) > k for cs in left.values()):
        return None  # a run holds one suit, and each of its cards once

    def present(si: int, pos: int) -> bool:
        return bool(left.get((si, 1 if pos == HIGH_ACE else pos)))

    def take(si: int, pos: int) -> Card:
        return left[(si, 1 if pos == HIGH_ACE else pos)].pop()

    def give(si: int, pos: int, card: Card) -> None:
        left[(si, 1 if pos == HIGH_ACE else pos)].append(card)

    def spans(si: int) -> list[tuple[int, int, int, int]]:
        """The runs that may place the lowest card still to place in suit ``si``: (low, high, from, to), where
        from…to are the places the hand's cards reach."""
        ranks = sorted(r for (s, r), cs in left.items() if s == si and cs)
        out = []
        ace = rules.ace
        ends = []
        if ranks[0] == 1:
            if ace != "high":
                ends += [(1, q) for q in [1] + [r for r in ranks if r > 1]]
            if ace != "low":
                ends += [(q, HIGH_ACE) for q in [r for r in ranks if r > 1] + [HIGH_ACE]]
        else:
            ends += [(ranks[0], q) for q in ranks]
        for a, b in ends:
            has_ace = a == LOW_ACE or b == HIGH_ACE
            lo_b, hi_b = run_bounds(ace, has_ace, b == HIGH_ACE)
            short = max(0, least - (b - a + 1))
            for below in range(short + 1):
                low, high = a - below, b + short - below
                if low < lo_b or high > hi_b or high - low + 1 > 13:
                    continue
                # the wild places at the ends pass over no card of the suit still to place (in the second pass they
                # may: that card is left to another run of the suit)
                if not skipping[0] and any(present(si, p) for p in list(range(low, a)) + list(range(b + 1, high + 1))):
                    continue
                out.append((low, high, a, b))
        return out

    def finish(runs: list[_Run]) -> None:
        """All natural cards are placed: count what the runs need, fill them, and keep the best."""
        generic = k - len(runs)
        free_duals = list(duals_left)
        shapes = []
        for r in runs:
            fixed = frozenset(r.cards)
            shapes.append((r, wild_places(r.low, r.size, fixed, rules)))
        lengths = sorted([r.size for r in runs] + [0] * generic, reverse=True)
        # the generic runs (no card of the hand) take the sizes the others leave
        gen_sizes = sorted(sizes)[:generic] if generic else []
        if generic:
            mine = sorted((r.size for r in runs), reverse=True)
            rest = list(sizes)
            for n in mine:  # each run of the hand takes the largest size it can hold
                fit = next((s for s in rest if s <= n), None)
                if fit is None:
                    return
                rest.remove(fit)
            gen_sizes = rest
        else:
            if any(n < s for n, s in zip(sorted(lengths, reverse=True), sizes)):
                return
        gen_shapes: list[_Generic] = []
        for n in gen_sizes:
            # a run with no natural card of the hand: a wild-rank card left over may be its natural card, standing
            # for itself (a wild 2 as the 2 of its suit; never worse than a card to add); else a card to add
            anchored = _anchored(n, free_duals, rules)
            if anchored is not None and anchored[3] is not None:
                free_duals.remove(anchored[3][1])
                gen_shapes.append(anchored)
                continue
            start = max(run_bounds(rules.ace, False, False)[0], 2) if n <= 12 else 2
            gen_shapes.append((start, n, wild_places(start, n, frozenset(), rules), None))
        pool = list(jokers) + free_duals
        slots = sum(r.size - len(r.cards) for r in runs) + sum(gen_sizes) - sum(1 for *_, a in gen_shapes if a)
        room = sum(len(w) for _, w in shapes) + sum(len(w) for _, _, w, _ in gen_shapes)
        spare = len(pool) - room
        if spare > 0:  # more wild cards than places: lengthen the runs at their ends
            extra = _lengthen(shapes, spare, rules, apart)
            if extra is None:
                return
        else:
            extra = {}
        added = slots - min(len(pool), room)
        if added >= cap[0] and best[0] is not None or added > cap[0]:
            return
        found = _fill(runs, shapes, gen_shapes, extra, pool)
        if apart and _touch(found, rules):
            return  # two runs of a suit that continue each other: one run, where they must stay apart
        cap[0] = added
        best[0] = found

    def go(runs: list[_Run], slots_so_far: int) -> None:
        budget.spend()
        if len(runs) > k:
            return
        si = min((x for (x, _), cs in left.items() if cs), default=None)  # the first suit with cards to place
        if si is None:
            finish(runs)
            return
        if len(runs) == k:
            return
        wilds = len(jokers) + len(duals)
        if best[0] is not None and slots_so_far - wilds >= cap[0] or skipping[0] and slots_so_far > wilds:
            return
        for low, high, a, b in spans(si):
            inside = [p for p in range(a + 1, b) if present(si, p)] if skipping[0] else []
            for count in range(max(0, min(len(inside), wilds - slots_so_far)) + 1):
                for skip in combinations(inside, count):
                    place(si, low, high, a, b, skip, runs, slots_so_far)

    def place(si: int, low: int, high: int, a: int, b: int, skip: tuple[int, ...], runs: list[_Run],
              slots_so_far: int) -> None:
        """The run from ``low`` to ``high`` taking the suit's cards from ``a`` to ``b``, but those at ``skip``
        (left for another run of the suit, a wild card in their place), then the rest of the search."""
        taken: dict[int, Card] = {}
        as_itself: list[Card] = []
        for p in range(a, b + 1):
            if p not in skip and present(si, p):
                taken[p] = take(si, p)
        for p in range(low, high + 1):  # a wild-rank card of this suit may stand for itself
            own = position_card(p, SUIT_ORDER[si])
            if p not in taken and own in duals_left:
                duals_left.remove(own)
                as_itself.append(own)
                taken[p] = own
        run = _Run(si, low, high, taken)
        go(runs + [run], slots_so_far + run.size - len(taken))
        duals_left.extend(as_itself)
        for p, c in taken.items():
            if not rules.is_wild(c):
                give(si, p, c)

    # first each run takes every card of its suit between its ends; where that melds every card, no other way
    # needs trying. Else again, now leaving cards inside a run to another run of the suit, a wild card in their
    # place: under the house rules on wild cards, or where that card is the other run's only natural one, only
    # such a way may do (two runs of spades A-2-3-4 and 3-4, two jokers, at most one wild card in four: A-JK-3-4
    # and 2-3-4-JK). The second pass looks only for a way that melds every card: each card left inside a run
    # takes a wild card, so no more can be left than the hand has wild cards.
    skipping = [False]
    go([], 0)
    if (best[0] is None or best[0].added > 0) and len(jokers) + len(duals):
        nearest, nearest_cap = best[0], cap[0]
        skipping[0], best[0], cap[0] = True, None, 0
        go([], 0)
        if best[0] is None:
            best[0], cap[0] = nearest, nearest_cap
    return best[0]


# a run with no natural card of the hand: start, size, its wild places, and the wild-rank card standing for itself
# as its natural card (position, card), if one does
_Generic = tuple[int, int, tuple[int, ...], "tuple[int, Card] | None"]


def _anchored(n: int, duals: list[Card], rules: Rules) -> _Generic | None:
    """A run of ``n`` whose one natural card is one of ``duals`` (wild-rank cards) standing for itself: (start, n,
    its wild places, (position, card)), the start that leaves the most places to wild cards; None where none
    fits."""
    best: _Generic | None = None
    for card in dict.fromkeys(duals):
        assert card.rank is not None
        spots = (LOW_ACE, HIGH_ACE) if int(card.rank) == 1 else (int(card.rank),)
        for pos in spots:
            for start in range(max(LOW_ACE, pos - n + 1), min(pos, HIGH_ACE - n + 1) + 1):
                end = start + n - 1
                bounds = run_bounds(rules.ace, start == LOW_ACE or end == HIGH_ACE, end == HIGH_ACE)
                if start < bounds[0] or end > bounds[1] or n > 13:
                    continue
                wild = wild_places(start, n, frozenset({pos}), rules)
                if best is None or len(wild) > len(best[2]):
                    best = (start, n, wild, (pos, card))
    return best


def _lengthen(shapes: list[tuple[_Run, tuple[int, ...]]], spare: int, rules: Rules,
              apart: bool = False) -> dict[int, list[int]] | None:
    """Places at the ends of the runs for ``spare`` more wild cards (run index -> positions), within the ace
    rule and the house rules on wild cards (``apart``: never next to another run of the suit); ``None`` where
    there is no room."""
    out: dict[int, list[int]] = {}
    spans = {i: (r.suit, r.low, r.high) for i, (r, _) in enumerate(shapes)}
    for i, (r, wild) in enumerate(shapes):
        low, high = r.low, r.high
        has_ace = any(p in (LOW_ACE, HIGH_ACE) for p in r.cards)
        bounds = run_bounds(rules.ace, has_ace, HIGH_ACE in r.cards)
        while spare > 0 and high - low + 1 < 13:
            trials = [p for p in (high + 1, low - 1) if bounds[0] <= p <= bounds[1]]
            placed = False
            for p in trials:
                lo2, hi2 = min(low, p), max(high, p)
                if apart and any(s == r.suit and j != i and ends_meet((lo2, hi2), (lo, hi))
                                 for j, (s, lo, hi) in spans.items()):
                    continue  # it would continue another run of the suit
                new = out.get(i, []) + [p]
                flags = [q not in r.cards for q in range(lo2, hi2 + 1)]
                if set(q for q in range(lo2, hi2 + 1) if q not in r.cards) - set(wild) - set(new):
                    continue  # a place left for a natural card would stand beside the new wild card: keep it simple
                nat = [q for q in r.cards]
                outside = (min(nat) - lo2) + (hi2 - max(nat)) if nat else 0
                floating = outside if outside and len(end_spreads(min(nat), max(nat), outside, bounds,
                                                                  hi2 - lo2 + 1)) > 1 else 0
                if ace_flips(nat, hi2 - lo2 + 1, rules.ace):
                    floating = sum(flags)
                if rules.wilds_at_most_naturals and 2 * sum(flags) > len(flags):
                    continue
                if not wild_rule_breaks(flags, floating, rules):
                    out[i] = new
                    low, high = lo2, hi2
                    spans[i] = (r.suit, low, high)
                    spare -= 1
                    placed = True
                    break
            if not placed:
                break
    return out if spare == 0 else None


def _fill(runs: list[_Run], shapes: list[tuple[_Run, tuple[int, ...]]],
          gen_shapes: list[_Generic], extra: dict[int, list[int]],
          pool: list[Card]) -> Found:
    wilds = iter(pool)
    found = Found(0)
    for i, (r, wild) in enumerate(shapes):
        suit = SUIT_ORDER[r.suit]
        places = sorted(set(range(r.low, r.high + 1)) | set(extra.get(i, [])))
        meld: list[Card] = []
        for p in places:
            if p in r.cards:
                meld.append(r.cards[p])
                continue
            w = next(wilds, None) if (p in wild or p in extra.get(i, [])) else None
            if w is not None:
                meld.append(w)
            else:
                stands = str(position_card(p, suit))
                found.needs.append(stands)
                if p not in wild:
                    found.needs_natural.append(stands)
        found.melds.append(meld)
        found.spans.append((r.suit, places[0], places[-1]))
    used_suits = {r.suit for r in runs}
    free_suit = next((s for s in range(4) if s not in used_suits), 0)
    for start, n, wild, anchor in gen_shapes:
        suit = anchor[1].suit if anchor is not None and anchor[1].suit is not None else SUIT_ORDER[free_suit]
        meld = []
        for p in range(start, start + n):
            if anchor is not None and p == anchor[0]:
                meld.append(anchor[1])
                continue
            w = next(wilds, None) if p in wild else None
            if w is not None:
                meld.append(w)
            else:
                stands = str(position_card(p, suit))
                found.needs.append(stands)
                if p not in wild:
                    found.needs_natural.append(stands)
        found.melds.append(meld)
        found.spans.append((SUIT_ORDER.index(suit), start, start + n - 1))
    found.added = len(found.needs)
    return found
