"""Rulings at the table: who gets a bought discard, whether cards may be laid off, joker swaps, and who deals.

>>> from referee.families import resolve
>>> buy(resolve("liverpool"), ["Ann", "Ben", "Cy", "Dee"], "Ben", ["Dee", "Cy"]).winner
'Cy'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .cards import Card, Suit
from .contracts import copies_violations
from .errors import RefereeError
from .families import Rules, check_players
from .melds import (
    HIGH_ACE,
    LOW_ACE,
    Meld,
    ace_flips,
    analyze,
    end_spreads,
    meld_rules,
    position_card,
    readings,
    run_bounds,
    wild_at,
    wild_rule_breaks,
)
from .verdicts import CODES, Violation, cite


class TableError(RefereeError):
    """Input that names nobody at the table, or a meld that is not on the table as given."""


# ------------------------------------------------------------------------------------------------- buying
@dataclass
class BuyRuling:
    winner: str | None
    penalty_card: bool
    reason: str  # a code of ``verdicts.CODES``; the web layer words it
    params: dict[str, object] = field(default_factory=dict)
    buys_left: dict[str, int | None] = field(default_factory=dict)  # None: no limit
    rules: list[str] = field(default_factory=list)  # the rule anchors the ruling rests on


def buy(rules: Rules, seats: Sequence[str], current: str, callers: Sequence[str],
        buys_used: dict[str, int] | None = None, shanghai: bool = False) -> BuyRuling:
    ruling = _buy(rules, seats, current, callers, buys_used, shanghai)
    why = [CODES[ruling.reason].rule, "rule-buying", "rule-buy-priority"]
    if rules.buy_limit is not None:
        why.append("rule-buy-limit")
    ruling.rules = cite((), why)
    return ruling


def buys_left(rules: Rules, used: int) -> int | None:
    """How many more discards a player who has bought ``used`` this hand may buy (None: no limit)."""
    limit = rules.buy_limit
    return None if limit is None else max(0, limit - used)


def buy_refused(rules: Rules, used: int) -> str | None:
    """Why a player who has bought ``used`` discards this hand may buy no more ("no_buying": the table does
    not buy; "limit_reached"), or None.

    >>> from referee.families import resolve
    >>> [buy_refused(resolve("liverpool", options={"buy_limit": n}), 1) for n in (0, 1, 2, None)]
    ['no_buying', 'limit_reached', None, None]
    """
    if rules.buy_limit == 0:
        return "no_buying"
    return "limit_reached" if buys_left(rules, used) == 0 else None


def _buy(rules: Rules, seats: Sequence[str], current: str, callers: Sequence[str],
         buys_used: dict[str, int] | None = None, shanghai: bool = False) -> BuyRuling:
    """Who takes the top discard. ``current`` is the player whose turn it is (the next to draw); ``callers``
    want the card. The player in turn may take it as their draw, with no penalty card; otherwise the nearest
    caller after them in seat order who has buys left takes it with a penalty card from the stock. The
    player who discarded it (the seat before ``current``) may not buy it back."""
    seats = list(seats)
    if len(seats) != len(set(seats)) or len(seats) < 2:
        raise TableError("bad_seats", "seats")
    check_players(rules.family, len(seats), "seats")  # the table the family allows, as every ruling asks
    if current not in seats:
        raise TableError("unknown_player", "current", name=current)
    for name in callers:
        if name not in seats:
            raise TableError("unknown_player", "callers", name=name)
    used = dict(buys_used or {})
    for name, n in used.items():
        if name not in seats:
            raise TableError("unknown_player", "buys_used", name=name)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise TableError("bad_count", "buys_used", name=name)
    limit = rules.buy_limit
    left = {s: buys_left(rules, used.get(s, 0)) for s in seats}
    start = seats.index(current)
    discarder = seats[start - 1]
    if not callers:
        return BuyRuling(None, False, "no_callers", buys_left=left)
    if current in callers:
        return BuyRuling(current, False, "current_player_first", {"player": current}, buys_left=left)
    if limit == 0:
        return BuyRuling(None, False, "no_buying", buys_left=left)
    if shanghai and rules.shanghai_block:
        return BuyRuling(None, False, "shanghai_blocked", buys_left=left)
    skipped = []
    for step in range(1, len(seats)):
        name = seats[(start + step) % len(seats)]
        if name not in callers:
            continue
        if name == discarder:
            skipped.append((name, "own_discard"))
            continue
        if left[name] == 0:
            skipped.append((name, "limit_reached"))
            continue
        params: dict[str, object] = {"player": name, "current": current}
        if skipped:
            params["skipped"] = [s for s, _ in skipped]
        left = dict(left)
        if left[name] is not None:
            left[name] = left[name] - 1  # type: ignore[operator]
        return BuyRuling(name, True, "nearest_caller", params, buys_left=left)
    reason = skipped[0][1] if len(skipped) == 1 else "nobody_eligible"
    return BuyRuling(None, False, reason, {"players": [s for s, _ in skipped]}, buys_left=left)


# ------------------------------------------------------------------------------------------------ lay-off
@dataclass
class LayoffRuling:
    valid: bool
    meld: Meld
    violations: list[Violation]
    placed: list[tuple[Card, str]] = field(default_factory=list)  # (card, "low" | "high" | "gap" | "set")
    rules: list[str] = field(default_factory=list)  # the rule anchors the ruling rests on


def table_readings(rules: Rules, meld: Sequence[Card], kind: str | None = None) -> list[Meld]:
    """The ways a meld on the table may be read: as ``kind`` where it is given (as it was put down), else every
    valid reading (one natural card and wild cards are a set and a run). Refuses a meld that is not valid."""
    found = [analyze(meld, rules, kind=kind)] if kind is not None else readings(meld, rules)
    if not found[0].valid:
        raise TableError("meld_invalid", "meld", codes=[v.code for v in found[0].violations])
    return found


def layoff(rules: Rules, meld: Sequence[Card], cards: Sequence[Card], down: bool = True,
           same_turn: bool = False, kind: str | None = None) -> LayoffRuling:
    """May ``cards`` be laid off on ``meld`` (as it lies on the table: its wild cards keep their places), and
    where does each go? ``kind`` says how the meld was put down where its cards could be either."""
    permission = []
    if not down:
        permission.append(Violation("layoff_not_down"))
    elif same_turn and not rules.lay_off_same_turn:
        permission.append(Violation("layoff_same_turn"))
    first: LayoffRuling | None = None
    for table in table_readings(rules, meld, kind):
        ruling = _layoff_set(rules, table, list(cards)) if table.kind == "set" else \
            _layoff_run(rules, table, list(cards))
        if first is None:
            first = ruling
        if ruling.valid:
            break
    else:
        ruling = first  # type: ignore[assignment]
    # the meld it would leave holds no card more often than the pack does (as the contract check counts)
    pack = copies_violations([list(meld) + list(cards)], rules) if ruling.valid else []
    if pack:
        ruling.placed = []  # (nothing goes anywhere)
    violations = permission + ruling.violations + [Violation(v.code, None, v.params) for v in pack]
    ruling.rules = cite(violations, ["rule-lay-off"] + meld_rules(rules, ruling.meld))
    ruling.valid = not violations
    ruling.violations = violations
    return ruling


def _layoff_set(rules: Rules, table: Meld, cards: list[Card]) -> LayoffRuling:
    out = []
    for c in cards:
        if c.rank is not None and not rules.is_wild(c) and c.rank != table.rank:
            assert table.rank is not None
            out.append(Violation("layoff_wrong_rank", None, {"card": str(c), "rank": table.rank.symbol}))
    result = analyze(list(table.cards) + list(cards), rules, kind="set")
    problems = out or ([] if result.valid and result.kind == "set" else result.violations)
    return LayoffRuling(not problems, result, problems, [(c, "set") for c in cards] if not problems else [])


def _layoff_run(rules: Rules, table: Meld, cards: list[Card]) -> LayoffRuling:
    assert table.suit is not None
    suit = table.suit
    occupied = {p: c for p, c in table.layout}  # the table's wild cards keep their places
    problems: list[Violation] = []
    naturals: dict[int, Card] = {}
    wilds: list[Card] = []
    for c in cards:
        if c.rank is None or c.rank in rules.always_wild or (rules.is_wild(c) and c.suit != suit):
            wilds.append(c)  # a joker, or a wild-rank card that cannot be itself here
            continue
        if c.suit != suit:
            problems.append(Violation("layoff_wrong_suit", None, {"card": str(c)}))
            continue
        # an ace goes where the house rule on aces lets it: low, high, or either end
        spots = ({"low": (LOW_ACE,), "high": (HIGH_ACE,)}.get(rules.ace, (HIGH_ACE, LOW_ACE)) if c.rank == 1
                 else (int(c.rank),))
        free = [p for p in spots if p not in occupied and p not in naturals]
        if not free:
            if rules.is_wild(c):
                wilds.append(c)
                continue
            problems.append(Violation("layoff_taken", None, {"card": str(c)}))
            continue
        # an ace goes to the end it is nearer to
        naturals[min(free, key=lambda p: min(abs(p - table.low), abs(p - table.high)))] = c
    if problems:
        return LayoffRuling(False, table, problems)
    lo = min([table.low, *naturals])
    hi = max([table.high, *naturals])
    holes = [p for p in range(lo, hi + 1) if p not in occupied and p not in naturals]
    if len(holes) > len(wilds):
        far = [c for p, c in naturals.items() if p < table.low - 1 - len(wilds) or p > table.high + 1 + len(wilds)]
        card = far[0] if far else next(iter(naturals.values()))
        return LayoffRuling(False, table, [Violation("layoff_no_end", None, {"card": str(card)})])
    layout = dict(occupied) | naturals
    filler = iter(wilds)
    for p in holes:
        layout[p] = next(filler)
    spare = list(filler)
    has_low_ace = any(p == LOW_ACE for p in layout)
    has_high_ace = any(p == HIGH_ACE for p in layout)
    top = 13 if (rules.ace == "low" or has_low_ace) else HIGH_ACE
    bottom = 2 if (rules.ace == "high" or has_high_ace) else LOW_ACE
    # the ways the spare wild cards can go at the ends, the high end first; where there is more than one, the
    # natural cards do not fix their places
    ways = [below for below in range(len(spare) + 1)
            if lo - below >= bottom and hi + len(spare) - below <= top and hi - lo + 1 + len(spare) <= 13]
    if not ways:
        return LayoffRuling(False, table, [Violation("run_too_long")])
    floating = _floating(rules, layout, spare, suit)
    first_breaks: list[tuple[str, dict[str, object]]] | None = None
    for below in ways:
        trial = dict(layout)
        for i in range(below):
            trial[lo - 1 - i] = spare[i]
        for i in range(len(spare) - below):
            trial[hi + 1 + i] = spare[below + i]
        order = sorted(trial)
        breaks = wild_rule_breaks([wild_at(p, trial[p], suit, rules.always_wild) for p in order], floating, rules)
        if not breaks:
            result = run_meld(tuple((p, trial[p]) for p in order), suit, rules)
            placed = [(trial[p], "low" if p < table.low else "high" if p > table.high else "gap")
                      for p in order if p not in occupied]
            return LayoffRuling(True, result, [], placed)
        if first_breaks is None:
            first_breaks = breaks
    assert first_breaks is not None
    return LayoffRuling(False, table, [Violation(code, None, params) for code, params in first_breaks])


def _floating(rules: Rules, layout: dict[int, Card], spare: list[Card], suit: Suit) -> int:
    """How many of the run's end wild cards the natural cards leave free to sit at the other end, as ``analyze``
    counts them: the wild cards already on the table do not fix the place of another one."""
    naturals = sorted(p for p, c in layout.items() if not wild_at(p, c, suit, rules.always_wild))
    length = len(layout) + len(spare)
    if ace_flips(naturals, length, rules.ace):
        return length - len(naturals)
    outer = length - (naturals[-1] - naturals[0] + 1)
    if not outer:
        return 0
    ace_high = HIGH_ACE in naturals
    bounds = run_bounds(rules.ace, ace_high or LOW_ACE in naturals, ace_high)
    return outer if len(end_spreads(naturals[0], naturals[-1], outer, bounds, length)) > 1 else 0


def run_meld(layout: tuple[tuple[int, Card], ...], suit: Suit, rules: Rules) -> Meld:
    """A valid run laid out as ``layout`` (position, card), its wild cards where they lie."""
    wilds = [(c, str(position_card(p, suit))) for p, c in layout if wild_at(p, c, suit, rules.always_wild)]
    return Meld(tuple(c for _, c in layout), "run", True, [], wilds, None, suit, layout)


# ------------------------------------------------------------------------------------------- joker swap
@dataclass
class SwapRuling:
    valid: bool
    represents: list[tuple[Card, str]]  # each wild card on the meld and what it stands for
    violations: list[Violation]
    meld: Meld | None = None  # the meld after the swap
    rules: list[str] = field(default_factory=list)  # the rule anchors the ruling rests on


def swap(rules: Rules, meld: Sequence[Card], card: Card, kind: str | None = None, down: bool = False) -> SwapRuling:
    """May ``card`` (a natural card from hand) take the place of a wild card on ``meld``? ``kind`` says how the
    meld was put down where its cards could be either; ``down``: the player swapping has gone down (some tables
    let only a player who has not take a joker back)."""
    first: SwapRuling | None = None
    for table in table_readings(rules, meld, kind):
        ruling = _swap(rules, table, card, down)
        if first is None:
            first = ruling
        if ruling.valid or not any(v.code == "swap_wrong_card" for v in ruling.violations):
            break
    else:
        ruling = first  # type: ignore[assignment]
    ruling.rules = cite(ruling.violations, ["rule-joker-swap"] + meld_rules(rules, ruling.meld or
                                                                         table_readings(rules, meld, kind)[0]))
    return ruling


def _swap(rules: Rules, table: Meld, card: Card, down: bool) -> SwapRuling:
    represents = list(table.wilds)
    problems: list[Violation] = []
    if not rules.joker_swap:
        problems.append(Violation("swap_not_allowed"))
    elif down and rules.joker_swap_before_down:
        problems.append(Violation("swap_after_down"))
    if rules.joker_swap_runs_only and table.kind == "set":
        problems.append(Violation("swap_from_set"))
    if not represents:
        return SwapRuling(False, represents, problems + [Violation("swap_no_wild")], table)
    if card.rank in rules.always_wild:  # (only a natural card takes a wild card's place)
        return SwapRuling(False, represents, problems + [Violation("swap_wild_card", None, {"card": str(card)})],
                          table)
    matching = [wild for wild, stands in represents if card.rank is not None and
                (stands == str(card) if table.kind == "run" else card.rank.symbol == stands)]
    # (a joker first, where a wild 2 of a set stands for the same card: some tables take back jokers only)
    target = next((w for w in matching if w.rank is None), matching[0] if matching else None)
    if target is None:
        return SwapRuling(False, represents, problems + [Violation("swap_wrong_card", None, {
            "card": str(card), "represents": [s for _, s in represents]})], table)
    if rules.joker_swap_jokers_only and target.rank is not None:
        problems.append(Violation("swap_not_a_joker", None, {"card": str(target)}))
    if table.kind == "run":
        assert table.suit is not None
        # the wild card at that place gives way to the natural card; the rest of the run stays where it lies
        result = run_meld(tuple((p, card if position_card(p, table.suit) == card else c) for p, c in table.layout),
                          table.suit, rules)
    else:
        after = list(table.cards)
        after[after.index(target)] = card
        result = analyze(after, rules, kind="set")
        problems += result.violations
    # the meld it would leave holds no card more often than the pack does (as the contract check counts)
    problems += [Violation(v.code, None, v.params) for v in copies_violations([list(result.cards)], rules)]
    return SwapRuling(not problems, represents, problems, result)


# ---------------------------------------------------------------------------------------------- the deal
@dataclass(frozen=True)
class DealOrder:
    dealer: str
    cutter: str
    first: str


def deal_order(rules: Rules, seats: Sequence[str], hand: int, first_dealer: int = 0,
               joined: Sequence[int] | None = None) -> DealOrder:
    """Who deals, cuts and plays first in ``hand`` (1-based). Seats are in clockwise order; the deal passes
    to the left, i.e. to the next seat. ``joined``: the first hand each seat plays (1, except a player who sat
    down after the game began): the deal passes to the next seat playing that hand, so a player who sits down
    at the last dealer's left deals next; the cutter and the first player are the dealer's neighbours among
    those playing.

    >>> from referee.families import resolve
    >>> r = resolve("liverpool")
    >>> [deal_order(r, "ABC", h, 1).dealer for h in (1, 2, 3, 4)]
    ['B', 'C', 'A', 'B']
    >>> [deal_order(r, "ABDC", h, 1, joined=(1, 1, 3, 1)).dealer for h in (1, 2, 3, 4, 5)]
    ['B', 'C', 'A', 'B', 'D']
    >>> deal_order(r, "ABDC", 2, 1, joined=(1, 1, 3, 1)).first, deal_order(r, "ABDC", 4, 1, joined=(1, 1, 3, 1)).first
    ('A', 'D')
    """
    n = len(seats)
    if joined is None or all(j <= 1 for j in joined):
        d = (first_dealer + hand - 1) % n
        left, right = (d + 1) % n, (d - 1) % n
    else:
        d = first_dealer
        for h in range(2, hand + 1):
            d = next(s % n for s in range(d + 1, d + n + 1) if joined[s % n] <= h)
        playing = [s for s in range(n) if joined[s] <= hand]
        i = playing.index(d)
        left, right = playing[(i + 1) % len(playing)], playing[(i - 1) % len(playing)]
    cutter = left if rules.family.cut == "left" else right
    first = left if rules.family.first_player == "left" else right
    return DealOrder(seats[d], seats[cutter], seats[first])

