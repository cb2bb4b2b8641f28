"""Melds: sets and runs with wild cards, and what each wild card stands for.

A *set* is cards of one rank, any suits; a *run* is consecutive cards of one suit, each rank once, the ace
low or high but never around the corner. Wild cards fill gaps or extend the ends of a run and stand for a
rank in a set; a wild-rank card that is not a joker may also stand for itself. All of this reads the house
rules from ``Rules``; nothing here knows which family it plays.

Run positions: 1 is a low ace, 2–13 the ranks, 14 a high ace.

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> m = analyze(parse_cards("5h 6h JK 8h"), resolve("liverpool"))
>>> m.kind, m.valid, [(str(w), a) for w, a in m.wilds]
('run', True, [('JK', '7H')])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Iterable, Sequence

from .cards import Card, Rank, Suit
from .families import Rules
from .verdicts import Violation

LOW_ACE, HIGH_ACE = 1, 14


def position_card(pos: int, suit: Suit) -> Card:
    """The card at a run position (1 and 14 are both the ace)."""
    return _BY_POSITION[(pos, suit)]


_BY_POSITION = {(p, s): Card.parse(Rank(1 if p == 14 else p).symbol + s.value) for p in range(1, 15) for s in Suit}


def _positions(rank: Rank, ace_high: bool) -> int:
    return HIGH_ACE if rank == Rank.ACE and ace_high else int(rank)


@dataclass(slots=True)
class Meld:
    """The referee's reading of one meld."""

    cards: tuple[Card, ...]
    kind: str | None  # "set" | "run" | None (not recognisable)
    valid: bool
    violations: list[Violation] = field(default_factory=list)
    wilds: list[tuple[Card, str]] = field(default_factory=list)  # (card, what it stands for)
    rank: Rank | None = None  # a set's rank
    suit: Suit | None = None  # a run's suit
    layout: tuple[tuple[int, Card], ...] = ()  # a run: (position, card) from low to high

    @property
    def low(self) -> int:
        return self.layout[0][0]

    @property
    def high(self) -> int:
        return self.layout[-1][0]


@dataclass(slots=True)
class _Attempt:
    kind: str
    violations: list[Violation]
    wilds: list[tuple[Card, str]] = field(default_factory=list)
    rank: Rank | None = None
    suit: Suit | None = None
    layout: tuple[tuple[int, Card], ...] = ()
    wild_count: int = 0


def analyze(cards: Sequence[Card], rules: Rules, index: int | None = None, kind: str | None = None,
            contract: bool = False) -> Meld:
    """Read ``cards`` as a set or a run under ``rules``. ``index`` is the meld's number in its verdict;
    ``contract``: the meld is put down for the contract (the house rules that hold only then apply too: a meld
    on the table, laid off on, is read without them).

    A meld is whatever its place needs it to be, where its cards allow: with ``kind`` ("set" or "run") given,
    the cards are read as that kind when they make a valid one (one natural card and wild cards are both a set
    and a run), else as they read best. The verdict never depends on the order of ``cards``; where a wild card
    at the end of a run could stand for either end, the order the cards were given in decides (as they lie on
    the table), else the high end.
    """
    cards = tuple(cards)
    best = _best(cards, rules, index, None)
    if kind is not None and (best.kind != kind or best.violations) and could_be_either(cards, rules):
        wanted = _best(cards, rules, index, kind)
        if not wanted.violations:
            best = wanted
    found: str | None = best.kind
    if not any(c.rank is not None for c in cards):
        found = None
    meld = Meld(cards, found, not best.violations, best.violations, best.wilds, best.rank, best.suit, best.layout)
    return for_the_contract(meld, rules, index) if contract else meld


def held_to_the_contract(melds: Sequence[Meld], rules: Rules) -> tuple[list[Meld], tuple[int, str, str] | None]:
    """The contract's melds, read, held to the house rules that apply only to melds put down for a contract
    (``for_the_contract``, ``keep_runs_apart``): the melds, and two runs of one suit that continue each other."""
    return keep_runs_apart([for_the_contract(m, rules, i) for i, m in enumerate(melds)], rules)


def for_the_contract(meld: Meld, rules: Rules, index: int | None = None) -> Meld:
    """``meld`` (a valid reading, with the fewest wild cards its cards allow) held to the house rules that apply
    only to a meld put down for the contract: wild cards no more than natural cards."""
    wilds = len(meld.wilds)
    if rules.wilds_at_most_naturals and meld.valid and 2 * wilds > len(meld.cards):
        meld.valid = False
        meld.violations = [Violation("wilds_outnumber_naturals", index, {
            "wilds": wilds, "naturals": len(meld.cards) - wilds})]
    return meld


def could_be_either(cards: Sequence[Card], rules: Rules) -> bool:
    """Could these cards read as a set and as a run? Only where at most one of them is a natural card that is
    not of a wild rank (two naturals of one rank are never a run; of two ranks, never a set)."""
    wild_ranks = rules.wild_ranks
    seen = False
    for c in cards:
        if c.rank not in wild_ranks:
            if seen:
                return False
            seen = True
    return True


def readings(cards: Sequence[Card], rules: Rules, index: int | None = None) -> list[Meld]:
    """Every valid reading of ``cards``: the best first, then (for one natural card and wild cards) the other
    kind where it is valid too."""
    first = analyze(cards, rules, index)
    if not first.valid or not could_be_either(cards, rules):
        return [first]
    other = analyze(cards, rules, index, kind="run" if first.kind == "set" else "set")
    return [first, other] if other.valid and other.kind != first.kind else [first]


def _best(cards: tuple[Card, ...], rules: Rules, index: int | None, only: str | None) -> _Attempt:
    """The best reading of ``cards``, of the kind ``only`` where it is given."""
    wild_ranks = rules.wild_ranks
    always = rules.always_wild  # (the wild ranks whose cards are as wild as a joker: never themselves)
    plain: list[Card] = []
    jokers: list[Card] = []
    for c in cards:
        if c.rank is None or c.rank in always:
            jokers.append(c)
        else:
            plain.append(c)
    dual_cards = [c for c in plain if c.rank in wild_ranks] if len(wild_ranks) > (None in wild_ranks) else []
    if not dual_cards:
        return _read(cards, plain, jokers, rules, index, only)
    # every way of reading the wild-rank cards that are not jokers: as wild, or as themselves
    duals = Counter(dual_cards)
    dual_types = sorted(duals, key=lambda c: c.sort_key)
    best = None
    for split in product(*(range(duals[c] + 1) for c in dual_types)):
        as_natural = dict(zip(dual_types, split))
        naturals: list[Card] = []
        wilds: list[Card] = []
        used: Counter[Card] = Counter()
        for c in cards:
            if c.rank is None or (c.rank in wild_ranks and used[c] >= as_natural[c]):
                wilds.append(c)
            else:
                if c.rank in wild_ranks:
                    used[c] += 1
                naturals.append(c)
        attempt = _read(cards, naturals, wilds, rules, index, only)
        if best is None or _better(attempt, best, _looks_like(naturals, len(cards))):
            best = attempt
    assert best is not None
    return best


def _read(cards: tuple[Card, ...], naturals: list[Card], wilds: list[Card], rules: Rules,
          index: int | None, only: str | None = None) -> _Attempt:
    """The better of reading the cards as a set or as a run (the likelier one first, the other only if needed);
    with ``only`` given, the reading of that kind."""
    if only == "set":
        return _as_set(naturals, wilds, rules, index)
    if only == "run":
        return _as_run(cards, naturals, wilds, rules, index)
    ranks = {c.rank for c in naturals}
    one_rank = len(ranks) == 1
    one_suit = len({c.suit for c in naturals}) == 1
    first = None
    if one_rank:
        first = _as_set(naturals, wilds, rules, index)
        if len(naturals) > 1:  # two naturals of one rank are never a run: the set reading is the answer
            return first
    if one_suit and not (one_rank and len(naturals) > 1):
        run = _as_run(cards, naturals, wilds, rules, index)
        if not run.violations and (first is None or first.violations or run.wild_count < first.wild_count):
            return run
        if first is not None and not first.violations:
            return first
        if len(naturals) > 1 and len(ranks) == len(naturals):  # distinct ranks of one suit: a run gone wrong
            return run
    guess = _looks_like(naturals, len(cards))
    best = first or _as_set(naturals, wilds, rules, index)
    other = _as_run(cards, naturals, wilds, rules, index)
    return other if _better(other, best, guess) else best


def _looks_like(naturals: list[Card], count: int) -> str:
    """For a meld that is neither: what was it meant to be? The larger group of one rank, or of one suit."""
    same_rank = max(Counter(c.rank for c in naturals).values(), default=0)
    by_suit: dict[Suit | None, set[Rank | None]] = {}
    for c in naturals:
        by_suit.setdefault(c.suit, set()).add(c.rank)
    same_suit = max((len(r) for r in by_suit.values()), default=0)
    if same_suit > same_rank or (same_suit == same_rank and count >= 4):
        return "run"
    return "set"


def _better(a: _Attempt, b: _Attempt, guess: str) -> bool:
    """Is reading ``a`` a better account of the meld than ``b``? Valid first, with fewer wild cards; among
    invalid readings, the kind the cards look like."""
    ka = (bool(a.violations), a.wild_count if not a.violations else a.kind != guess, len(a.violations))
    kb = (bool(b.violations), b.wild_count if not b.violations else b.kind != guess, len(b.violations))
    return ka < kb


def _as_set(naturals: list[Card], wilds: list[Card], rules: Rules, index: int | None) -> _Attempt:
    v: list[Violation] = []
    count = len(naturals) + len(wilds)
    ranks = sorted({c.rank for c in naturals if c.rank is not None})
    if not naturals:
        v.append(Violation("no_natural", index))
    if len(ranks) > 1:
        v.append(Violation("set_mixed_ranks", index, {"ranks": [Rank(r).symbol for r in ranks]}))
    if count < 3:
        v.append(Violation("set_too_short", index, {"minimum": 3, "count": count}))
    need = rules.set_min_naturals
    if naturals and wilds and len(naturals) < need:
        v.append(Violation("set_too_few_naturals", index, {"minimum": need, "count": len(naturals)}))
    rank = ranks[0] if len(ranks) == 1 else None
    stands = rank.symbol if rank is not None else "?"
    return _Attempt("set", v, [(w, stands) for w in wilds], rank=rank, wild_count=len(wilds))


def _as_run(cards: tuple[Card, ...], naturals: list[Card], wilds: list[Card], rules: Rules,
            index: int | None) -> _Attempt:
    v: list[Violation] = []
    count = len(naturals) + len(wilds)
    if not naturals:
        return _Attempt("run", [Violation("no_natural", index)] + (
            [Violation("run_too_short", index, {"minimum": 4, "count": count})] if count < 4 else []))
    suits = {c.suit for c in naturals}
    ranks = [int(c.rank) for c in naturals]  # type: ignore[arg-type]
    if len(suits) > 1:
        names = sorted(s.value for s in suits if s is not None)
        v.append(Violation("run_mixed_suits", index, {"suits": names}))
    elif len(set(ranks)) != len(ranks):
        dup = sorted((c for c, n in Counter(naturals).items() if n > 1), key=lambda c: c.sort_key)
        v.append(Violation("run_duplicate_rank", index, {"cards": [str(c) for c in dup]}))
    if count < 4:
        v.append(Violation("run_too_short", index, {"minimum": 4, "count": count}))
    if v:
        return _Attempt("run", v)
    suit = naturals[0].suit
    assert suit is not None
    w = len(wilds)
    ace = rules.ace
    has_ace = 1 in ranks
    choices = ([False, True] if ace == "either" else [ace == "high"]) if has_ace else [False]
    fits: list[tuple[bool, list[int], int]] = []
    for ace_high in choices:
        pos = sorted(ranks) if not ace_high else sorted(HIGH_ACE if r == 1 else r for r in ranks)
        gaps = pos[-1] - pos[0] + 1 - len(pos)
        if gaps <= w:
            fits.append((ace_high, pos, gaps))
    if not fits:
        return _Attempt("run", [_why_not_linear(naturals, w, rules, index)])
    # where the order the cards were given in matters: wild cards that could go to either end
    hinted = _order_hint(cards, rules) if any(w > gaps for _, _, gaps in fits) else None
    per_4 = rules.run_max_wilds_per_4 is not None
    second = rules.second_wild_needs_fixed_position
    chosen: tuple[tuple[int, Card], ...] | None = None  # the layout the order hint names, else the first valid
    least: list[Violation] | None = None
    for ace_high, pos, gaps in fits:
        extra = w - gaps
        spread = end_spreads(pos[0], pos[-1], extra, run_bounds(ace, has_ace, ace_high), len(pos) + w)
        floating = w if ace_flips(pos, len(pos) + w, ace) else extra if len(spread) > 1 else 0
        # the second-wild rule is broken only where wild cards could sit elsewhere
        limited = w and (per_4 or (second and floating))
        for below in spread:
            layout = _layout(pos[0] - below, naturals, wilds, ace_high)
            problems = _wild_rules(layout, suit, rules, index, floating) if limited else []
            if problems:
                if least is None or len(problems) < len(least):
                    least = problems
            elif hinted is None or (layout[0][0], layout[-1][0]) == hinted:
                chosen = layout
                break
            elif chosen is None:
                chosen = layout
        else:
            continue
        break
    if chosen is not None:
        layout = chosen
        wild_as = [(c, str(position_card(p, suit))) for p, c in layout if wild_at(p, c, suit, rules.always_wild)] \
            if w else []
        return _Attempt("run", [], wild_as, suit=suit, layout=layout, wild_count=w)
    return _Attempt("run", least or [Violation("run_too_long", index)])


def run_spans(meld: Meld, rules: Rules) -> dict[tuple[int, int], tuple[int, ...]]:
    """Where a valid run may lie, as (lowest, highest) positions, each with the places of its natural cards there
    (the run as read first): its natural cards fix their places, a wild card at an end may stand at the other
    end where there is room (and the house rules on wild cards allow it), and an ace plays low or high where the
    table lets it and the run holds either way."""
    suit = meld.suit
    assert suit is not None
    length = len(meld.layout)
    fixed = tuple(p for p, c in meld.layout if not wild_at(p, c, suit, rules.always_wild))
    ways = [fixed]
    if rules.ace == "either" and (LOW_ACE in fixed or HIGH_ACE in fixed):
        ways.append(tuple(sorted(HIGH_ACE if p == LOW_ACE else LOW_ACE if p == HIGH_ACE else p for p in fixed)))
    limit = rules.run_max_wilds_per_4
    out = {(meld.low, meld.high): fixed}
    for places in ways:
        low, high = min(places), max(places)
        if high - low + 1 > length:
            continue
        bounds = run_bounds(rules.ace, LOW_ACE in places or HIGH_ACE in places, HIGH_ACE in places)
        for below in end_spreads(low, high, length - (high - low + 1), bounds, length):
            start = low - below
            flags = [p not in places for p in range(start, start + length)]
            if limit is None or all(sum(flags[i:i + 4]) <= limit for i in range(length - 3)):
                out.setdefault((start, start + length - 1), places)
    return out


def keep_runs_apart(melds: Sequence[Meld], rules: Rules) -> tuple[list[Meld], tuple[int, str, str] | None]:
    """Where two runs of one suit may not touch or continue each other (``runs_of_a_suit_apart``): the melds with
    each run laid where it stays apart from the others of its suit (a wild card at an end standing at the other
    end, where the cards as read would touch), and None; or, for two valid runs of one suit that lie end to end
    however their wild cards stand, (the later run's index, the card ending one, the card starting the other).
    Runs that share ranks (two decks) do not continue each other."""
    out = list(melds)
    if not rules.runs_of_a_suit_apart:
        return out, None
    by_suit: dict[Suit, list[int]] = {}
    for i, m in enumerate(melds):
        if m.valid and m.kind == "run" and m.suit is not None:
            by_suit.setdefault(m.suit, []).append(i)
    for suit, found in by_suit.items():
        if len(found) < 2:
            continue
        ways = [list(run_spans(melds[i], rules).items()) for i in found]
        choice = next((c for c in product(*ways) if not any_meet([span for span, _ in c])), None)
        if choice is not None:
            for i, (span, places) in zip(found, choice):
                if span != (melds[i].low, melds[i].high):
                    out[i] = _laid(melds[i], span, places, rules, i)
            continue
        # they touch however they lie: name the pair that touches as the cards were read
        spans = [(melds[i].low, melds[i].high) for i in found]
        for a, b in ((a, b) for a in range(len(found)) for b in range(a + 1, len(found))):
            (lo_a, hi_a), (lo_b, hi_b) = spans[a], spans[b]
            if ends_meet(spans[a], spans[b]):
                end, start = (hi_a, lo_b) if hi_a + 1 == lo_b else (hi_b, lo_a)
                return out, (found[b], str(position_card(end, suit)), str(position_card(start, suit)))
        # (not reached: the runs as read are one of the ways they may lie)
        return out, (found[1], str(position_card(spans[0][1], suit)), str(position_card(spans[1][0], suit)))
    return out, None


def touching_runs(melds: Sequence[Meld], rules: Rules) -> tuple[int, str, str] | None:
    """Two runs of one suit that continue each other however they lie, where they may not (``keep_runs_apart``)."""
    return keep_runs_apart(melds, rules)[1]


def _laid(meld: Meld, span: tuple[int, int], places: tuple[int, ...], rules: Rules, index: int) -> Meld:
    """The run ``meld`` read as lying at ``span`` with its natural cards at ``places`` (the cards in that order:
    the order they are given in places the wild cards at the ends)."""
    suit = meld.suit
    assert suit is not None
    naturals = {1 if p == HIGH_ACE else p: c for p, c in meld.layout if not wild_at(p, c, suit, rules.always_wild)}
    wilds = iter([c for p, c in meld.layout if wild_at(p, c, suit, rules.always_wild)])
    ordered = [naturals[1 if p == HIGH_ACE else p] if p in places else next(wilds) for p in range(span[0], span[1] + 1)]
    again = analyze(ordered, rules, index, kind="run")
    if not again.valid or (again.low, again.high) != span:
        return meld
    return Meld(meld.cards, again.kind, True, [], again.wilds, again.rank, again.suit, again.layout)


def ends_meet(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Do two runs of one suit, lying from ``a[0]`` to ``a[1]`` and from ``b[0]`` to ``b[1]``, continue each
    other (one ends just below where the other starts)? Runs that share a place do not."""
    return a[1] + 1 == b[0] or b[1] + 1 == a[0]


def any_meet(spans: Sequence[tuple[int, int]]) -> bool:
    return any(ends_meet(a, b) for i, a in enumerate(spans) for b in spans[i + 1:])


def wild_at(pos: int, card: Card, suit: Suit, always: frozenset[Rank | None] = frozenset()) -> bool:
    """Does ``card`` at run position ``pos`` of ``suit`` stand for another card (or is it of a rank that is
    ``always`` wild: ``Rules.always_wild``)?"""
    if card.rank is None or card.suit != suit or card.rank in always:
        return True
    return _positions(card.rank, pos == HIGH_ACE) != pos


def run_bounds(ace: str, has_ace: bool, ace_high: bool) -> tuple[int, int]:
    """The lowest and highest positions a run may reach under the table's ace rule."""
    lo_min, hi_max = LOW_ACE, HIGH_ACE
    if ace == "low" or (has_ace and not ace_high):
        hi_max = 13
    if ace == "high" or (has_ace and ace_high):
        lo_min = 2
    return lo_min, hi_max


def ace_flips(naturals: Iterable[int], length: int, ace: str) -> bool:
    """Could a run of ``length`` cards whose natural cards sit at the positions ``naturals`` be read with its ace
    at the other end as well, where the ace may be low or high? Then its wild cards stand for other cards either
    way, and the natural cards do not fix their places (``AH JK JK JK``: the 2-3-4 or the J-Q-K). A run of
    thirteen holds the same cards both ways."""
    if ace != "either" or length >= 13:
        return False
    places = set(naturals)
    if LOW_ACE in places:
        places = (places - {LOW_ACE}) | {HIGH_ACE}
    elif HIGH_ACE in places:
        places = (places - {HIGH_ACE}) | {LOW_ACE}
    else:
        return False
    return max(places) - min(places) + 1 <= length


def end_spreads(low: int, high: int, extra: int, bounds: tuple[int, int], length: int) -> list[int]:
    """The ways ``extra`` wild cards can extend a run whose naturals reach from ``low`` to ``high``: how many go
    below the low end (the rest go above). The first way extends the high end most."""
    if length > 13:
        return []
    return [below for below in range(extra + 1) if below <= low - bounds[0] and extra - below <= bounds[1] - high]


def _layout(start: int, naturals: list[Card], wilds: list[Card], ace_high: bool) -> tuple[tuple[int, Card], ...]:
    by_pos = {_positions(c.rank, ace_high): c for c in naturals if c.rank is not None}
    if not wilds:
        return tuple(sorted(by_pos.items()))
    spare = iter(wilds)
    length = len(naturals) + len(wilds)
    return tuple((p, by_pos[p] if p in by_pos else next(spare)) for p in range(start, start + length))


def _wild_rules(layout: tuple[tuple[int, Card], ...], suit: Suit, rules: Rules, index: int | None,
                floating: int) -> list[Violation]:
    """The house rules on wild cards in a run laid out as ``layout``; ``floating`` of its end wild cards
    could as well sit at the other end."""
    return [Violation(code, index, params) for code, params in
            wild_rule_breaks([wild_at(p, c, suit, rules.always_wild) for p, c in layout], floating, rules)]


def wild_rule_breaks(flags: Sequence[bool], floating: int, rules: Rules) -> list[tuple[str, dict[str, Any]]]:
    """Which house rules on wild cards a run breaks, given which of its places (low to high) hold a wild card
    and how many of its end wild cards could as well sit at the other end. A run with two or more wild cards
    keeps the second-wild rule only where the natural cards fix the place of every one of them: a lone wild
    card may stand at either end, a second may not."""
    out: list[tuple[str, dict[str, Any]]] = []
    limit = rules.run_max_wilds_per_4
    if limit is not None and any(sum(flags[i:i + 4]) > limit for i in range(len(flags) - 3)):
        out.append(("run_too_many_wilds", {"maximum": limit}))
    if rules.second_wild_needs_fixed_position and floating and sum(flags) >= 2:
        out.append(("second_wild_position", {}))
    return out


def _order_hint(cards: tuple[Card, ...], rules: Rules) -> tuple[int, int] | None:
    """If ``cards`` were given in run order (either direction), the (low, high) positions they occupy."""
    wild_ranks = rules.wild_ranks
    nat = [(i, c) for i, c in enumerate(cards) if c.rank is not None and c.rank not in wild_ranks]
    if len(nat) < 1 or len(cards) == len(nat):
        return None
    for ace_high in (False, True):
        for direction in (1, -1):
            i0, c0 = nat[0]
            assert c0.rank is not None
            p0 = _positions(c0.rank, ace_high)
            ok = all(_positions(c.rank, ace_high) == p0 + (i - i0) * direction for i, c in nat if c.rank)
            if ok and len(nat) == 1 and direction == -1:
                continue  # a single natural: read left to right
            if ok:
                ends = (p0 - i0 * direction, p0 + (len(cards) - 1 - i0) * direction)
                lo, hi = min(ends), max(ends)
                if lo >= LOW_ACE and hi <= HIGH_ACE:
                    return (lo, hi)
    return None


def _why_not_linear(naturals: list[Card], w: int, rules: Rules, index: int | None) -> Violation:
    """The naturals do not fit in a row with ``w`` wilds under the table's ace rule: say why."""
    ranks = sorted(int(c.rank) for c in naturals if c.rank is not None)
    has_ace = ranks[0] == 1

    def gaps(pos: list[int]) -> int:
        return pos[-1] - pos[0] + 1 - len(pos)

    if has_ace:
        high = sorted(HIGH_ACE if r == 1 else r for r in ranks)
        if rules.ace == "low" and gaps(high) <= w:
            return Violation("ace_low_only", index)
        if rules.ace == "high" and gaps(ranks) <= w:
            return Violation("ace_high_only", index)
    # around the corner: some rotation of the circle fits
    for shift in range(1, 13):
        rotated = sorted((r - 1 + shift) % 13 for r in ranks)
        if gaps(rotated) <= w and len(ranks) + w <= 13:
            return Violation("run_wraps", index)
    pos = ranks if rules.ace != "high" or not has_ace else sorted(HIGH_ACE if r == 1 else r for r in ranks)
    if rules.ace == "either" and has_ace and gaps(sorted(HIGH_ACE if r == 1 else r for r in ranks)) < gaps(ranks):
        pos = sorted(HIGH_ACE if r == 1 else r for r in ranks)
    widest = max(range(len(pos) - 1), key=lambda i: pos[i + 1] - pos[i])
    suit = naturals[0].suit
    assert suit is not None
    return Violation("run_gap", index, {
        "needed": gaps(pos), "wilds": w,
        "low_card": str(position_card(pos[widest], suit)), "high_card": str(position_card(pos[widest + 1], suit)),
    })


def meld_rules(rules: Rules, r: Meld) -> list[str]:
    """The rules one meld's reading rests on."""
    out = ["rule-set" if r.kind == "set" else "rule-run" if r.kind == "run" else "rule-wild-natural"]
    if r.wilds:
        out.append("rule-wilds")
        if r.kind == "set" and rules.set_min_naturals > 1:
            out.append("rule-set-naturals")
        if r.kind == "run" and rules.run_max_wilds_per_4 is not None:
            out.append("rule-run-wilds")
        if len(r.wilds) > 1 and rules.second_wild_needs_fixed_position:
            out.append("rule-second-wild")
    if r.kind == "run" and any(c.rank is not None and int(c.rank) == 1 for c in r.cards):
        out.append("rule-aces")
    return out
