"""Can these cards make this hand's contract? A search that returns one arrangement the contract check
accepts, or says that none exists and how near the cards came.

The search works on what a meld *consumes* and what it *costs*: each contract meld takes natural cards from
the hand and needs wild cards for the places no natural fills. A wild-rank card that is not a joker (a wild 2)
stays in the pool of naturals; every such card used as a natural costs one wild card it could have been.
So the contract is possible exactly when the cheapest arrangement costs no more than the jokers plus the
wild-rank cards in hand, and when it is not, the difference is how many more wild cards (or the natural cards
they would stand for) the hand is missing.

The search is a branch and bound for the cheapest arrangement: each arrangement found lowers the bound, and
a branch is cut when its cost plus what each remaining meld would cost on its own already reaches it. Runs are
chosen first, then sets: once the runs are out, only the ranks of the remaining cards matter, so the set
search works on rank counts. Melds that consume the same cards at the same cost are tried once, equal
contract melds are chosen in a fixed order, and each state's cheapest completion (or a cost it cannot go
below) is remembered, so no arrangement is searched twice.

Two searches share that code. The nearest-miss search may also add the cards the hand lacks, so every
arrangement of the hand's own cards is one of its arrangements, at the same cost: when its cheapest costs more
than the hand's wild cards, no arrangement of the hand's own cards can do, and the same search goes on to say
how near the cards came. It runs first: a hand that cannot make the contract takes one search, not two (a
hand that can pays a little for it: docs/bench.md). When it costs no more, its melds are the contract
search's own where each is one the contract search makes (the hand's cards only, its wild cards where the
house rules allow them); else the contract search decides.

The search works within a budget (``referee.budget``): a hand built to make it explode (four runs of thirteen,
twos and jokers wild, eighteen cards) gets an answer that says the search could not decide, instead of
seconds of a server's time.

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> a = arrange(resolve("liverpool"), 1, parse_cards("7h 7d 7s 9c 9d JK 2c"))
>>> a.possible, [[str(c) for c in m] for m in a.melds]
(True, [['7S', '7H', '7D'], ['9D', '9C', 'JK']])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from operator import attrgetter, itemgetter
from typing import Any, Sequence

from .budget import Budget, OutOfBudget, current
from .cards import NATURALS, SUIT_ORDER, Card, Rank
from .contracts import check, copies_violations
from .families import Contract, MeldSpec, Rules
from .meldall import meld_all, wild_places
from .melds import (
    HIGH_ACE,
    LOW_ACE,
    ace_flips,
    analyze,
    end_spreads,
    ends_meet,
    run_bounds,
    touching_runs,
    wild_rule_breaks,
)
from .verdicts import Violation, cite

INDEX = {c: i for i, c in enumerate(NATURALS)}  # rank-major: index = (rank - 1) * 4 + suit
MAX_CARDS = 18  # a dealt hand of 12, a draw and a few buys


@dataclass
class Slot:
    """A place in a meld: a natural card taken from the hand, or a wild card standing for ``stands``."""

    card: Card | None  # None: a wild card goes here
    stands: str  # what the place is: "7H" in a run, "7" in a set
    natural: bool = False  # the nearest miss: a natural card the hand lacks goes here, a wild card would not do


@dataclass
class Arrangement:
    possible: bool | None  # None: the search ran out of its budget before it could tell
    melds: list[list[Card]] = field(default_factory=list)
    unused: list[Card] = field(default_factory=list)
    missing: int | None = 0  # wild cards (or the naturals they stand for) short of the contract; None: never
    needs: list[str] = field(default_factory=list)  # what the missing cards would stand for
    violations: list[Violation] = field(default_factory=list)  # input that cannot be a hand (too many copies)
    exhausted: bool = False  # the budget ran out: possible is None, or (when False) how near is not known
    kinds: list[str] = field(default_factory=list)  # what each meld is ("set" | "run"), as the contract needs it
    needs_natural: list[str] = field(default_factory=list)  # those of ``needs`` that a wild card would not do for
    rules: list[str] = field(default_factory=list)  # the rule anchors the answer rests on

    @property
    def decided(self) -> bool:
        return self.possible is not None


@dataclass(slots=True, eq=False)  # (made by the thousand: a plain init; never changed once made)
class _Candidate:
    key: tuple[Any, ...]  # orders equal contract melds, so each combination is tried once
    consumed: tuple[int, ...]  # natural card indices taken from the pool
    cost: int
    # ("run", suit index, first position, size, used positions, wild places) | ("set", rank index, wild count)
    shape: tuple[Any, ...]
    forced: int = 0  # the nearest miss: places only a natural card the hand lacks may fill

    @property
    def slots(self) -> tuple[Slot, ...]:
        if self.shape[0] == "set":
            _, r, wilds = self.shape[:3]
            symbol = Rank(r + 1).symbol
            return tuple(Slot(NATURALS[i], symbol) for i in self.consumed) + tuple(
                Slot(None, symbol, k < self.forced) for k in range(int(wilds)))
        _, si, start, size, used, wild = self.shape
        suit = SUIT_ORDER[si].value
        return tuple(Slot(NATURALS[_pos_index(p, si)] if p in used else None,
                          Rank(1 if p == HIGH_ACE else p).symbol + suit, p not in used and p not in wild)
                     for p in range(start, start + size))


def _pos_index(pos: int, suit_i: int) -> int:
    rank = 1 if pos in (LOW_ACE, HIGH_ACE) else pos
    return (rank - 1) * 4 + suit_i


_INDEX_AT = [[_pos_index(max(p, 1), si) for p in range(HIGH_ACE + 1)] for si in range(4)]  # suit, place -> index
_SUIT_COUNTS = [itemgetter(*at) for at in _INDEX_AT]
_RANK_CARDS = [itemgetter(*range(r * 4, r * 4 + 4)) for r in range(13)]  # a rank's cards in hand, by suit
_ORDER = attrgetter("cost", "key")  # the search's order of candidate melds
_COST = attrgetter("cost")


_NO_WILD_RANK = (False,) * 4


@lru_cache(maxsize=1 << 14)
def _rank_sets(size: int, r: int, held: tuple[int, ...], wild_rank: tuple[bool, ...], min_naturals: int,
               relaxed: bool) -> tuple[tuple[_Candidate, ...], int]:
    """The sets of ``size`` of rank ``r`` that ``held`` (how many of each suit) allows, ``wild_rank`` telling which
    suits' cards are wild cards held as themselves; with the steps it takes to work them out. It depends on these
    values alone, and a rank is held in few ways: each is worked out once per process. (Candidates are never
    changed once made, so searches may share them.)"""
    base = r * 4
    plain = [base + s for s in range(4) for _ in range(held[s]) if not wild_rank[s]]
    dual = [base + s for s in range(4) for _ in range(held[s]) if wild_rank[s]]
    out = []
    tried = 0
    for n_plain in range(min(size, len(plain)), -1, -1):
        for n_dual in range(0, min(size - n_plain, len(dual)) + 1):
            tried += 1
            naturals = n_plain + n_dual
            wilds = size - naturals
            forced = 0
            if naturals == 0:
                continue
            if wilds and naturals < min_naturals:
                if not relaxed:
                    continue
                forced = min(wilds, min_naturals - naturals)
            consumed = tuple(sorted(plain[:n_plain] + dual[:n_dual]))
            out.append(_Candidate(("set", r, n_plain, n_dual), consumed, wilds + n_dual, ("set", r, wilds), forced))
    out.sort(key=_ORDER)
    return tuple(out), tried


class _Search:
    """``relaxed``: the nearest miss, where cards the hand lacks may be added. Then melds may have places only a
    natural card can fill (``forced``: a set short of its natural cards, a run whose wild cards would break a
    house rule), and a meld may be made of added cards and the hand's wild cards alone."""

    def __init__(self, rules: Rules, specs: Sequence[MeldSpec], duals: frozenset[int], budget: Budget,
                 relaxed: bool = False, hand: Sequence[int] = (), supply: int = 0):
        self.rules = rules
        self.relaxed = relaxed
        # Where a house rule limits wild cards in runs and a contract meld may be longer than the contract asks,
        # a run may need natural cards past its size to fix its wild cards' places (5H JK 7H JK 9H, where
        # 5H JK 7H JK is not a run): such runs, both ends natural, at most ``supply`` (the hand's wild cards)
        # wild cards and places longer, are candidates too.
        self.longer = supply if (rules.contract_extra_cards and supply >= 2 and (
            rules.second_wild_needs_fixed_position or rules.run_max_wilds_per_4 is not None)) else 0
        # Where two runs of one suit may not touch (``runs_of_a_suit_apart``) and the contract asks for two runs or
        # more: a run is tried at each place its cards allow, not only the lowest, and the runs chosen so far are
        # part of the search's state.
        self.apart = rules.runs_of_a_suit_apart and sum(m.kind == "run" for m in specs) > 1
        self.generic: dict[tuple[str, int], list[_Candidate]] = {}
        if relaxed:
            counts = [sum(hand[r * 4:(r + 1) * 4]) for r in range(13)]
            spare_rank = min(range(12, -1, -1), key=lambda r: counts[r])  # a rank the hand has least of
            suits = [sum(hand[r * 4 + si] for r in range(13)) for si in range(4)]
            spare_suit = min(range(4), key=lambda si: suits[si])
            for m in specs:
                if m.kind == "set":
                    forced = min(m.size, self.set_naturals(m.size))
                    self.generic[("set", m.size)] = [_Candidate(("set", 13, 0, 0), (), m.size,
                                                                ("set", spare_rank, m.size), forced)]
                else:
                    lo, hi = run_bounds(rules.ace, False, False)
                    shapes = []
                    for start in range(lo, hi - m.size + 2):
                        if start == LOW_ACE and start + m.size > HIGH_ACE:
                            continue
                        wild = wild_places(start, m.size, frozenset(), rules)
                        shapes.append((m.size - len(wild), start, wild))
                    if shapes:
                        forced, start, wild = min(shapes)
                        # (where runs of a suit must stay apart, one in each suit: one of them does)
                        others = [si for si in range(4) if si != spare_suit] if self.apart else []
                        self.generic[("run", m.size)] = [_Candidate(
                            ("run", (), m.size, n), (), m.size, ("run", si, start, m.size, (), wild), forced)
                            for n, si in enumerate([spare_suit] + others)]
        self.spend = budget.spend
        # runs first (largest first), then sets (largest first)
        self.specs = sorted(specs, key=lambda m: (m.kind != "run", -m.size))
        self.duals = duals
        self.run_cache: dict[tuple[Any, ...], tuple[int, list[_Candidate], list[int]]] = {}
        self.set_cache: dict[tuple[Any, ...], Sequence[_Candidate]] = {}
        self.exact: dict[tuple[Any, ...], tuple[int, list[_Candidate]]] = {}  # state -> its cheapest completion
        self.at_least: dict[tuple[Any, ...], int] = {}  # state -> a cost its completions cannot go below

    def set_naturals(self, size: int) -> int:
        """The natural cards a contract set of ``size`` needs: one at least, the house rule's minimum, and no
        fewer than its wild cards where they may not outnumber them."""
        least = max(1, self.rules.set_min_naturals)
        return max(least, (size + 1) // 2) if self.rules.wilds_at_most_naturals else least

    # ---- candidates
    def _suit_runs(self, size: int, si: int, present: tuple[bool, ...], budget: int) -> list[_Candidate]:
        """Every run of ``size`` in one suit that costs at most ``budget``, given how many of each card of the
        suit are in hand (``present[p]`` for positions 0–14). Cached: it depends on nothing else, and a list made
        for a larger budget serves every smaller one (it is sorted by cost)."""
        key = (size, si, present)
        hit = self.run_cache.get(key)
        if hit is not None and hit[0] >= budget:
            _, cands, costs = hit
            return cands[:bisect_right(costs, budget)]
        ace = self.rules.ace
        out: dict[tuple[Any, ...], tuple[int, _Candidate]] = {}
        lo_all, hi_all = run_bounds(ace, False, False)
        keep_min = max(1, size - budget)
        places = [p for p in range(LOW_ACE, HIGH_ACE + 1) if present[p]]
        longest = size + min(self.longer, budget)  # (longer runs: see __init__)
        # each set of the suit's places a run could use, once (its lowest place first): the run is the one at the
        # lowest start that holds it and that the house rules allow
        tried = 0  # (each set of places and each start tried is a step: spent as each lowest place is done)
        for i, low in enumerate(places):
            reach = [p for p in places[i + 1:] if p - low < longest]
            for more in range(max(0, keep_min - 1), len(reach) + 1):
                for rest in combinations(reach, more):
                    tried += 1  # (each set of places looked at is a step, whatever becomes of it)
                    used = (low,) + rest
                    top = used[-1]
                    bounds = run_bounds(ace, low == LOW_ACE or top == HIGH_ACE, top == HIGH_ACE)
                    span = top - low + 1
                    if span > size:  # a longer run, from its lowest natural card to its highest
                        wilds = span - len(used)
                        if wilds < 2 or wilds > min(self.longer, budget) or low < bounds[0] or top > bounds[1] \
                                or span > 13:
                            continue
                        tried += 1
                        cand = self._run_candidate(used, low, span, si, ace, bounds)
                        if cand is not None and cand.cost <= budget and cand.key not in out:
                            out[cand.key] = (HIGH_ACE + span, cand)  # (a shorter run of the same cards first)
                        continue
                    for start in range(max(lo_all, top - size + 1, bounds[0]),
                                       min(low, hi_all - size + 1, bounds[1] - size + 1) + 1):
                        if start == LOW_ACE and start + size > HIGH_ACE:
                            continue
                        tried += 1
                        cand = self._run_candidate(used, start, size, si, ace, bounds)
                        if cand is not None:
                            if cand.cost <= budget and (cand.key not in out or out[cand.key][0] > start):
                                out[cand.key] = (start, cand)
                            if not self.apart:
                                break
            self.spend(tried)  # (spent as each lowest place is done: the clock is looked at as the work goes)
            tried = 0
        result = sorted((c for _, c in out.values()), key=_ORDER)
        self.run_cache[key] = (budget, result, [c.cost for c in result])
        return result

    def _runs(self, size: int, pool: list[int], budget: int) -> list[_Candidate]:
        out: list[_Candidate] = []
        for si in range(4):
            present = _SUIT_COUNTS[si](pool)  # the suit's cards in hand by position (0 and 14 both the ace)
            if any(present):
                out += self._suit_runs(size, si, present, budget)
        self.spend(len(out))  # copied and sorted on every call, cached or not
        out.sort(key=_ORDER)
        return out

    def _run_candidate(self, used: tuple[int, ...], start: int, size: int, si: int, ace: str,
                       bounds: tuple[int, int] | None = None) -> _Candidate | None:
        """The run of ``size`` from ``start`` holding the suit's cards at ``used``, if the house rules allow it
        (``bounds``: the ace rule's, where the caller has kept ``start`` within them)."""
        if bounds is None:
            bounds = run_bounds(ace, used[0] == LOW_ACE or used[-1] == HIGH_ACE, used[-1] == HIGH_ACE)
            if start < bounds[0] or start + size - 1 > bounds[1]:
                return None
        wild_count = size - len(used)
        forced = 0
        wild: tuple[int, ...] = tuple(p for p in range(start, start + size) if p not in used)
        if wild_count and (self.rules.run_max_wilds_per_4 is not None or self.rules.wilds_at_most_naturals
                           or self.rules.second_wild_needs_fixed_position):
            if self.relaxed:
                wild = wild_places(start, size, frozenset(used), self.rules)
                forced = wild_count - len(wild)
            elif self.rules.wilds_at_most_naturals and 2 * wild_count > size:
                return None
            else:
                flags = [p not in used for p in range(start, start + size)]
                inside = used[-1] - used[0] + 1 - len(used)
                extra = wild_count - inside
                floating = wild_count if ace_flips(used, size, ace) else (
                    extra if len(end_spreads(used[0], used[-1], extra, bounds, size)) > 1 else 0)
                if wild_rule_breaks(flags, floating, self.rules):
                    return None
        consumed = tuple(map(_INDEX_AT[si].__getitem__, used))  # in order of rank, as the places are:
        if used[-1] == HIGH_ACE:  # but a high ace's index (rank 1) comes first
            consumed = consumed[-1:] + consumed[:-1]
        cost = wild_count + sum(1 for i in consumed if i in self.duals) if self.duals else wild_count
        key = ("run", consumed, cost, start) if self.apart else ("run", consumed, cost)
        return _Candidate(key, consumed, cost, ("run", si, start, size, used, wild), forced)

    def _sets(self, size: int, pool: list[int], budget: int) -> list[_Candidate]:
        """Every set of ``size`` the pool allows at a cost of at most ``budget``, cheapest first. A set takes the
        cards of one rank, so each rank's sets are worked out once for each way the hand holds that rank's cards
        (the search asks again and again, with other cards gone); here they are put in order by cost."""
        by_cost: list[list[_Candidate]] = [[] for _ in range(budget + 1)]
        kept = self.set_cache
        for r in range(13):
            held = _RANK_CARDS[r](pool)
            if not any(held):  # no card of the rank: no set of it (a set needs one natural card at least)
                continue
            sets = kept.get((size, r, held))  # (most are: ``_rank_sets`` for the others)
            for cand in sets if sets is not None else self._rank_sets(size, r, held):
                if cand.cost > budget:
                    break
                by_cost[cand.cost].append(cand)
        out = [c for same in by_cost for c in same]
        self.spend(len(out))  # made on every call
        return out

    def _rank_sets(self, size: int, r: int, held: tuple[int, ...]) -> Sequence[_Candidate]:
        """The sets of ``size`` of rank ``r`` (index 0–12) that the hand's cards of that rank (``held``: how many
        of each suit) allow, in the search's order: by cost, then by key."""
        key = (size, r, held)
        hit = self.set_cache.get(key)
        if hit is not None:
            return hit
        wild_rank = tuple(r * 4 + s in self.duals for s in range(4)) if self.duals else _NO_WILD_RANK
        out, tried = _rank_sets(size, r, held, wild_rank, self.set_naturals(size), self.relaxed)
        self.spend(tried)  # (the same steps whether this process worked them out before or not)
        self.set_cache[key] = out
        return out

    # ---- the search
    def _make(self, spec: MeldSpec, pool: list[int], budget: int) -> list[_Candidate]:
        """The candidate melds for ``spec``, cheapest first (with the nearest miss's melds of added cards)."""
        cands = self._runs(spec.size, pool, budget) if spec.kind == "run" else self._sets(spec.size, pool, budget)
        generic = self.generic.get((spec.kind, spec.size))
        if generic is not None and generic[0].cost <= budget:
            # in their place by cost and key: a generic run's key comes before its cost's others, a set's after
            at = (bisect_left if spec.kind == "run" else bisect_right)(cands, generic[0].cost, key=_COST)
            cands = cands[:at] + generic + cands[at:]
        return cands

    def _state(self, i: int, pool: list[int], floor: tuple[Any, ...]) -> tuple[Any, ...]:
        if i < len(self.specs) and self.specs[i].kind == "set":
            # only ranks matter now: fold the suits, keeping wild-rank cards apart
            if not self.duals:
                return (i, tuple(map(sum, (g(pool) for g in _RANK_CARDS))), floor)
            ranks = tuple(
                (sum(pool[r * 4 + s] for s in range(4) if r * 4 + s not in self.duals),
                 sum(pool[r * 4 + s] for s in range(4) if r * 4 + s in self.duals))
                for r in range(13))
            return (i, ranks, floor)
        return (i, bytes(pool), floor)

    def _rebase(self, i: int, pool: list[int], found: list[_Candidate]) -> list[_Candidate]:
        """Sets remembered for a state reached with other suits of the same ranks: the same sets, made of the
        cards this pool holds (a state of the sets counts ranks only)."""
        out = []
        taken: list[int] = []
        for spec, cand in zip(self.specs[i:], found):
            r = cand.shape[1]
            if cand.consumed:  # the same key: as many plain and wild-rank cards of the rank, from this pool
                cand = next(c for c in self._rank_sets(spec.size, r, _RANK_CARDS[r](pool)) if c.key == cand.key)
            for k in cand.consumed:
                pool[k] -= 1
                taken.append(k)
            out.append(cand)
        for k in taken:
            pool[k] += 1
        return out

    def _lower_bound(self, i: int, pool: list[int], budget: int, cheapest_here: int) -> int:
        """No arrangement of the melds after ``i`` costs less than the sum of each one's cheapest way alone.
        ``cheapest_here``: the cheapest way to make meld ``i`` from this pool, which is every equal meld's too."""
        total = 0
        here = self.specs[i]
        for spec in self.specs[i + 1:]:
            if spec == here:
                total += cheapest_here
            else:
                options = self._make(spec, pool, budget)
                if not options:
                    return budget + 1
                total += options[0].cost
            if total > budget:
                break
        return total

    def as_made(self, found: list[_Candidate]) -> list[_Candidate] | None:
        """The melds the nearest-miss search found, as this search makes them, if each is one it makes: of the
        hand's own cards (none added), its wild cards where the house rules allow them. Else None."""
        made = []
        for cand in found:
            if not cand.consumed or cand.forced:
                return None
            if cand.shape[0] == "run":
                _, si, start, size, used, _ = cand.shape
                own = self._run_candidate(used, start, size, si, self.rules.ace)
                if own is None:
                    return None
                cand = own
            made.append(cand)
        return made

    def cheapest_of_all(self, pool: list[int], supply: int) -> tuple[int, list[_Candidate]] | None:
        """The nearest-miss search's cheapest arrangement, bounded only by the contract's whole size (every place
        filled by an added card) past the hand's ``supply`` of wild cards."""
        most = supply + sum(m.size for m in self.specs) + 1
        return self.cheapest(0, pool, most, forced=most)

    def cheapest(self, i: int, pool: list[int], bound: int, floor: tuple[Any, ...] = (), forced: int = 0,
                 runs: tuple[tuple[int, int, int], ...] = ()) -> tuple[int, list[_Candidate]] | None:
        """The cheapest way to make the melds from ``i`` on, if it costs less than ``bound`` (branch and bound:
        each way found lowers the bound for the rest), with at most ``forced`` places for natural cards the hand
        lacks; ``runs``: the runs chosen so far (suit, lowest and highest place), where runs of a suit must stay
        apart."""
        if i == len(self.specs):
            return (0, [])
        self.spend()
        left = self.specs[i:]
        naturals = sum(pool)
        if (naturals < len(left) and not self.relaxed) or sum(m.size for m in left) - naturals >= bound:
            return None
        state = self._state(i, pool, floor) + (forced, runs if self.specs[i].kind == "run" else ())
        if state in self.exact:
            known = self.exact[state]
            if known[0] >= bound:
                return None
            return (known[0], self._rebase(i, pool, known[1])) if self.specs[i].kind == "set" else known
        if self.at_least.get(state, 0) >= bound:
            return None
        spec = self.specs[i]
        same_next = i + 1 < len(self.specs) and self.specs[i + 1] == spec
        cands = self._make(spec, pool, bound - 1)
        rest_bound = self._lower_bound(i, pool, bound - 1, cands[0].cost) if cands else 0
        best: tuple[int, list[_Candidate]] | None = None
        for cand in cands:
            if cand.cost + rest_bound >= bound:
                break
            if (floor and cand.key < floor) or cand.forced > forced:
                continue
            after = runs
            if self.apart and cand.shape[0] == "run":
                _, si, start, size = cand.shape[:4]
                if any(s == si and ends_meet((lo, hi), (start, start + size - 1)) for s, lo, hi in runs):
                    continue  # it would continue a run of its suit
                after = runs + ((si, start, start + size - 1),)
            for k in cand.consumed:
                pool[k] -= 1
            rest = self.cheapest(i + 1, pool, bound - cand.cost, cand.key if same_next else (),
                                 forced - cand.forced, after)
            for k in cand.consumed:
                pool[k] += 1
            if rest is not None:
                best = (cand.cost + rest[0], [cand] + rest[1])
                bound = best[0]
        if best is not None:
            self.exact[state] = best
        else:
            self.at_least[state] = max(self.at_least.get(state, 0), bound)
        return best


def arrange(rules: Rules, hand: int, cards: Sequence[Card], budget: Budget | None = None) -> Arrangement:
    """One arrangement that makes the contract, or how near the cards came; within ``budget`` (a fresh default
    budget when none is given), after which the answer says it could not decide."""
    result = _arrange(rules, hand, cards, budget or current())
    result.rules = arrangement_rules(rules, rules.hand(hand).contract, result)
    return result


def arrangement_rules(rules: Rules, contract: Contract, a: Arrangement) -> list[str]:
    """The rules an answer to "can I go down?" rests on: the contract, its melds' kinds, and the house rules on
    wild cards that the melds were held to."""
    why = ["rule-contract"]
    if contract.no_discard:
        why.append("rule-final-hand")
    kinds = {m.kind for m in contract.melds}
    why += [f"rule-{k}" for k in ("set", "run") if k in kinds]
    wilds_used = any(rules.is_wild(c) for m in a.melds for c in m)
    if wilds_used or not a.possible:
        if "set" in kinds and rules.set_min_naturals > 1:
            why.append("rule-set-naturals")
        if "run" in kinds and rules.run_max_wilds_per_4 is not None:
            why.append("rule-run-wilds")
        if rules.second_wild_needs_fixed_position:
            why.append("rule-second-wild")
        if rules.wilds_at_most_naturals:
            why.append("rule-wilds")
    if a.possible and any(len(m) > spec.size for m, spec in zip(a.melds, _by_kind(contract, a.kinds))):
        why.append("rule-going-down")
    return cite(a.violations, why)


def _by_kind(contract: Contract, kinds: list[str]) -> list[MeldSpec]:
    """The contract's melds in the order of ``kinds`` (largest first within a kind)."""
    left = sorted(contract.melds, key=lambda m: -m.size)
    out = []
    for k in kinds:
        spec = next((m for m in left if m.kind == k), None)
        if spec is None:
            return []
        left.remove(spec)
        out.append(spec)
    return out


def _arrange(rules: Rules, hand: int, cards: Sequence[Card], budget: Budget) -> Arrangement:
    spec = rules.hand(hand)
    cards = list(cards)
    bad = copies_violations([cards], rules)
    if bad:
        return Arrangement(False, unused=cards, missing=None, violations=bad)
    pool = [0] * len(NATURALS)
    jokers: list[Card] = []
    always = rules.always_wild  # (the wild ranks whose cards are as wild as a joker: never themselves)
    dual_cards = [c for c in cards if c.rank is not None and rules.is_wild(c) and c.rank not in always]
    duals = frozenset(INDEX[c] for c in dual_cards)
    for c in cards:
        if c.rank is None or c.rank in always:
            jokers.append(c)
        else:
            pool[INDEX[c]] += 1
    wild_supply = len(jokers) + len(dual_cards)
    contract = spec.contract
    if contract.no_discard and all(m.kind == "run" for m in contract.melds):
        # every card goes down at once: look for the runs that meld the whole hand
        try:
            whole = meld_all(rules, contract.melds, cards, budget)
        except OutOfBudget:
            return Arrangement(None, unused=cards, missing=None, exhausted=True)
        kinds = ["run"] * len(contract.melds)
        if whole is not None and whole.added == 0:
            return Arrangement(True, whole.melds, [], 0, [], kinds=kinds)
        if not rules.lay_off_same_turn:  # no card may stay in hand, and none can be laid off this turn
            if whole is None:
                return Arrangement(False, unused=cards, missing=None)
            return Arrangement(False, whole.melds, [], whole.added, whole.needs, kinds=kinds,
                               needs_natural=whole.needs_natural)
        # the rest may be laid off in the same turn: going down with the contract is enough
    specs = contract.melds
    nearest = _Search(rules, specs, duals, budget, relaxed=True, hand=pool, supply=wild_supply)
    try:
        with budget.keeping(budget.left // 2):  # (half is kept for the two searches one after the other)
            lowest = nearest.cheapest_of_all(list(pool), wild_supply)  # (a copy: cut short, it keeps cards)
    except OutOfBudget:
        if budget.out_of_time():
            return Arrangement(None, unused=cards, missing=None, exhausted=True)
        return _searched_twice(rules, specs, duals, budget, pool, cards, jokers, wild_supply)
    if lowest is None:
        return Arrangement(False, unused=cards, missing=None)
    if lowest[0] <= wild_supply:  # the hand's own cards may make the contract: see that they do
        own = _Search(rules, specs, duals, budget, supply=wild_supply)  # the contract search: the hand's own cards
        made = own.as_made(lowest[1])
        if made is None:
            try:
                first = own.cheapest(0, pool, wild_supply + 1)
            except OutOfBudget:
                return Arrangement(None, unused=cards, missing=None, exhausted=True)
            made = first[1] if first is not None else None
        if made is not None:
            return _build(made, cards, jokers, duals, rules, 0, budget)
    try:
        found = _nearer(nearest, pool, wild_supply, lowest)
    except OutOfBudget:  # not possible, but how near is more than the budget can tell
        return Arrangement(False, unused=cards, missing=None, exhausted=True)
    return _build(found, cards, jokers, duals, rules, 1, budget)  # (missing: counted from the places left empty)


def _searched_twice(rules: Rules, specs: Sequence[MeldSpec], duals: frozenset[int], budget: Budget,
                    pool: list[int], cards: list[Card], jokers: list[Card], supply: int) -> Arrangement:
    """Where the nearest-miss search outgrew its half of the budget: the contract search alone (it looks at
    fewer melds), and only if that finds nothing, the nearest miss again with what is left."""
    try:
        first = _Search(rules, specs, duals, budget, supply=supply).cheapest(0, pool, supply + 1)
    except OutOfBudget:
        return Arrangement(None, unused=cards, missing=None, exhausted=True)
    if first is not None:
        return _build(first[1], cards, jokers, duals, rules, 0, budget)
    try:
        found = _nearest(rules, specs, duals, budget, pool, supply)
    except OutOfBudget:
        return Arrangement(False, unused=cards, missing=None, exhausted=True)
    if found is None:
        return Arrangement(False, unused=cards, missing=None)
    return _build(found, cards, jokers, duals, rules, 1, budget)


def _nearest(rules: Rules, specs: Sequence[MeldSpec], duals: frozenset[int], budget: Budget, pool: list[int],
             supply: int) -> list[_Candidate] | None:
    """The melds that need the fewest cards added to the hand (``_nearer``), searched from the start."""
    search = _Search(rules, specs, duals, budget, relaxed=True, hand=pool, supply=supply)
    first = search.cheapest_of_all(pool, supply)
    return None if first is None else _nearer(search, pool, supply, first)


def _nearer(search: _Search, pool: list[int], supply: int,
            first: tuple[int, list[_Candidate]]) -> list[_Candidate]:
    """The melds that need the fewest cards added to the hand: each place is filled by one of the hand's wild
    cards or by an added card (a natural one where a wild card would not do). With ``C`` the places to fill
    (and wild-rank cards spent as themselves) and ``F`` the places only a natural card may fill, the cards to add
    are max(C - wild cards, F): ``first`` is the cheapest arrangement the nearest-miss ``search`` found; where
    its ``F`` decides, the arrangements allowed fewer such places are tried."""
    cost, found = first
    forced = sum(c.forced for c in found)
    low = max(1, cost - supply)
    for allowed in range(low, max(cost - supply, forced)):
        better = search.cheapest(0, pool, supply + allowed + 1, forced=allowed)
        if better is not None:
            return better[1]
    return found


def _build(found: list[_Candidate], cards: list[Card], jokers: list[Card], duals: frozenset[int], rules: Rules,
           missing: int, budget: Budget) -> Arrangement:
    left = Counter(c for c in cards if c.rank is not None) - Counter(c for c in jokers if c.rank is not None)
    for cand in found:
        for i in cand.consumed:
            left[NATURALS[i]] -= 1
    # wild cards for the wild places: jokers first, then wild-rank cards nobody used as themselves
    spare = list(jokers)
    for c in cards:
        if c.rank is not None and INDEX[c] in duals and left[c] > 0:
            spare.append(c)
            left[c] -= 1
    spare_iter = iter(spare)
    melds: list[list[Card]] = []
    needs: list[str] = []
    natural: list[str] = []
    kinds = [str(cand.shape[0]) for cand in found]
    for cand in found:
        meld: list[Card] = []
        for slot in cand.slots:
            if slot.card is not None:
                meld.append(slot.card)
                continue
            wild = None if slot.natural else next(spare_iter, None)
            if wild is None:
                needs.append(slot.stands)
                if slot.natural:
                    natural.append(slot.stands)
            else:
                meld.append(wild)
        melds.append(meld)
    unused = list(left.elements()) + list(spare_iter)
    if missing:
        return Arrangement(False, melds, unused, len(needs), needs, kinds=kinds, needs_natural=natural)
    if rules.contract_extra_cards:
        try:
            melds = _extend(melds, kinds, unused, rules, budget)
        except OutOfBudget:  # the melds found make the contract; only the longer ones were cut short
            pass
    return Arrangement(True, melds, unused, 0, [], kinds=kinds)


def _extend(melds: list[list[Card]], kinds: list[str], unused: list[Card], rules: Rules,
            budget: Budget) -> list[list[Card]]:
    """Where the contract melds may be longer, add the leftover cards that fit them (fewer cards left in hand)."""
    changed = True
    while changed and unused:
        changed = False
        for card in list(unused):
            for i, meld in enumerate(melds):
                kind = kinds[i]
                if not _could_join(card, meld, kind, rules):
                    continue
                for trial in ([card] + meld, meld + [card]):
                    budget.spend(8)  # a meld reading costs about as much as eight search steps
                    reading = analyze(trial, rules, kind=kind, contract=True)
                    if reading.valid and reading.kind == kind and not _would_touch(melds, kinds, i, trial, rules):
                        melds[i] = trial
                        unused.remove(card)
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
    return melds


def _would_touch(melds: list[list[Card]], kinds: list[str], i: int, trial: list[Card], rules: Rules) -> bool:
    """Would meld ``i`` made ``trial`` continue another run of its suit, where runs of a suit must stay apart?"""
    if not rules.runs_of_a_suit_apart or kinds[i] != "run" or kinds.count("run") < 2:
        return False
    readings = [analyze(trial if j == i else m, rules, kind=k) for j, (m, k) in enumerate(zip(melds, kinds))]
    return touching_runs(readings, rules) is not None


def _could_join(card: Card, meld: list[Card], kind: str, rules: Rules) -> bool:
    """A first look before the meld reading, which decides: a natural card that is not wild joins a set only of
    its own rank, and a run only of its own suit."""
    if card.rank is None or rules.is_wild(card):
        return True
    for c in meld:
        if c.rank is not None and not rules.is_wild(c):
            return c.rank == card.rank if kind == "set" else c.suit == card.suit
    return True


def brute_force(rules: Rules, hand: int, cards: Sequence[Card]) -> list[list[Card]] | None:
    """The slow oracle: try every way of taking the contract's melds, at their exact sizes, out of ``cards``,
    and ask the contract check. For tests and the benchmark only (it grows combinatorially)."""
    spec = rules.hand(hand)
    specs = sorted(spec.contract.melds, key=lambda m: (m.kind != "run", -m.size))
    cards = sorted(cards, key=lambda c: c.sort_key)
    memo: dict[tuple[tuple[Card, ...], str], bool] = {}

    def makes(meld: tuple[Card, ...], kind: str) -> bool:
        if (meld, kind) not in memo:
            reading = analyze(meld, rules, kind=kind, contract=True)
            memo[(meld, kind)] = reading.valid and reading.kind == kind
        return memo[(meld, kind)]

    def go(i: int, left: list[Card], chosen: tuple[tuple[Card, ...], ...] = ()) -> list[list[Card]] | None:
        if i == len(specs):  # (the melds together: runs of a suit that must stay apart)
            return [] if not rules.runs_of_a_suit_apart or check(rules, hand, chosen).valid else None
        seen = set()
        for idx in combinations(range(len(left)), specs[i].size):
            meld = tuple(left[j] for j in idx)
            if meld in seen:
                continue
            seen.add(meld)
            if not makes(meld, specs[i].kind):
                continue
            rest = go(i + 1, [c for j, c in enumerate(left) if j not in idx], chosen + (meld,))
            if rest is not None:
                return [list(meld)] + rest
        return None

    found = go(0, cards)
    if found is not None and not check(rules, hand, found).valid:  # pragma: no cover - the oracle disagrees
        raise AssertionError("brute force found melds the contract check refuses")
    return found
