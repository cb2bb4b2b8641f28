"""Can one pack leave these totals in these hands? The check behind every typed total of a hand's score.

Suits never score, so a pack is, for this question, how many cards it holds of each point value
(``{15: 18, 10: 48, 5: 96}`` for three Liverpool decks and six jokers). Each player who did not go out wants
a total from at most so many cards; ``can_make`` says whether the pack's cards can be shared out so that
every player gets exactly their total, each card going to one player at most.

>>> liverpool_6 = {15: 18, 10: 48, 5: 96}
>>> can_make(liverpool_6, [(150, 10)])
True
>>> can_make(liverpool_6, [(150, 10), (150, 10)])  # twenty cards worth 15: the pack holds eighteen
False
>>> can_make(liverpool_6, [(150, 10), (145, 12)])
True

The search goes through the point values from the highest down, deciding at each how many of its cards each
player takes: at least enough that the cheaper cards can still make the rest in the cards left, at most what
the total and the cards allow; the two lowest values are decided at once (``last_two``). A player's state
(total still wanted, cards still free) is all that matters, so players in the same state are one, and each
state that failed is remembered and never searched again. A state is searched only if each total alone can
be made from the remaining values (``fewest``, a bounded change-making table) and the best remaining cards
reach all the totals together. The work is bounded (``budget``); a search cut short answers ``None`` (not
decided) and the caller must not refuse on it. ``brute_force`` is the slow oracle the property tests compare
against.
"""

from __future__ import annotations

from math import gcd
from typing import Mapping, Sequence

from .budget import Budget, OutOfBudget, current

Want = tuple[int, int]  # (total, most cards)


def most_points(pool: Mapping[int, int], cards: int) -> int:
    """The largest total ``cards`` cards of the pool can make.

    >>> most_points({15: 2, 10: 4, 5: 9}, 3)
    40
    """
    out = 0
    for value in sorted(pool, reverse=True):
        take = min(pool[value], cards)
        out += take * value
        cards -= take
        if cards <= 0:
            break
    return out


def can_make(pool: Mapping[int, int], wants: Sequence[Want], budget: Budget | None = None) -> bool | None:
    """Whether the pool (cards by point value) can give each ``(total, most)`` exactly ``total`` points in at
    least one and at most ``most`` cards, no card given twice. ``None``: the budget ran out first.

    A total of 0 needs a card worth nothing (a player who did not go out holds at least one card).

    >>> can_make({15: 1, 10: 4, 5: 9}, [(30, 2)]), can_make({15: 1, 10: 4, 5: 9}, [(30, 3)])
    (False, True)
    >>> can_make({10: 4, 5: 9}, [(0, 10)]), can_make({10: 4, 5: 9, 0: 1}, [(0, 10)])
    (False, True)
    """
    if any(total < 0 or most < 1 for total, most in wants):
        return False
    if sum(1 for total, _ in wants if total == 0) > pool.get(0, 0):
        return False
    try:
        return _Search(pool, [w for w in wants if w[0] > 0], budget or current()).run()
    except OutOfBudget:
        return None


_TABLES: dict[tuple[tuple[int, int], ...], tuple[int, list[list[int]]]] = {}  # pool -> (highest, its tables)
_TABLES_KEPT = 256


def _fewest(pool: tuple[tuple[int, int], ...], highest: int, budget: Budget) -> list[list[int]]:
    """The ``fewest`` tables of a pool ((value, count), highest value first) up to ``highest``: made once for a
    pool and kept, so that the checks of one save (each typed total alone, all of them together, which players
    are at fault) and the next saves with the same pack pay for them once. A table made for a higher total
    serves every lower one. Charged to the budget as made, before the work."""
    kept = _TABLES.get(pool)
    if kept is not None and kept[0] >= highest:
        return kept[1]
    never = 1 << 30
    fewest = [0] + [never] * highest
    tables: list[list[int]] = [fewest]
    for v, n in reversed(pool):
        budget.spend(_table_work(highest, v, n))  # (charged before: a table past the budget is not made)
        fewest = [min(fewest[t - x * v] + x for x in range(min(n, t // v) + 1)) for t in range(highest + 1)]
        tables.append(fewest)
    tables.reverse()
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[pool] = (highest, tables)
    return tables


def _table_work(highest: int, v: int, n: int) -> int:
    """The cells the ``fewest`` table visits for cards worth ``v`` (``n`` of them) up to ``highest``: for each
    total ``t``, one for each count of such cards it could hold (``min(n, t // v) + 1``).

    >>> _table_work(30, 10, 2) == sum(min(2, t // 10) + 1 for t in range(31))
    True
    """
    top = min(highest, n * v - 1)  # up to here a total holds t // v such cards; past it, all n
    q, r = divmod(top + 1, v)
    below = v * q * (q - 1) // 2 + r * q  # the sum of t // v for t in 0..top
    return (highest + 1) + below + n * max(0, highest - top)


class _Search:
    def __init__(self, pool: Mapping[int, int], wants: Sequence[Want], budget: Budget) -> None:
        self.values = sorted((v for v, n in pool.items() if v > 0 and n > 0), reverse=True)
        self.counts = [pool[v] for v in self.values]
        self.budget = budget
        self.wants = tuple(sorted(wants, reverse=True))
        m = len(self.values)
        # tops[j][k]: the largest total k cards of values j.. can make
        self.tops: list[list[int]] = []
        for j in range(m + 1):
            cards = sorted((v for v, n in zip(self.values[j:], self.counts[j:]) for _ in range(n)), reverse=True)
            top = [0]
            for v in cards:
                top.append(top[-1] + v)
            self.tops.append(top)
        # fewest[j][t]: the fewest cards of values j.. that make exactly t (alone, without the others' wants)
        self.fewest = _fewest(tuple(zip(self.values, self.counts)), max((t for t, _ in self.wants), default=0),
                              budget)
        self.failed: set[tuple[int, tuple[Want, ...]]] = set()

    def top(self, level: int, cards: int) -> int:
        top = self.tops[level]
        return top[min(cards, len(top) - 1)]

    def hopeful(self, level: int, wants: tuple[Want, ...]) -> bool:
        """Each total alone can be made from the cards of values ``level``.. in at most its cards, and what those
        cards can make at most reaches all the totals together."""
        fewest = self.fewest[level]
        if any(fewest[total] > most for total, most in wants):
            return False
        return sum(t for t, _ in wants) <= self.top(level, sum(n for _, n in wants))

    def last_two(self, wants: tuple[Want, ...]) -> bool:
        """The two lowest values, ``a`` > ``b``, decided at once. A player's count of ``a`` cards is ``x`` with
        ``a·x ≡ total (mod b)`` (a progression of step ``d = b / gcd(a, b)``), ``x ≤ total / a``, and
        ``x + (total − a·x) / b ≤ most``, that is ``x ≥ (total − b·most) / (a − b)``. The ``b`` cards all
        players need come to ``(Σ total − a·Σx) / b``, fewest when ``Σx`` is largest; and the sums of
        progressions of one step are every step from the sum of their starts to the sum of their ends."""
        a, b = self.values[-2], self.values[-1]
        have_a, have_b = self.counts[-2], self.counts[-1]
        d = b // gcd(a, b)
        starts = ends = 0
        for total, most in wants:
            low = max(0, -(-(total - b * most) // (a - b)))
            high = min(most, total // a)
            first = next((x for x in range(low, min(high, low + d - 1) + 1) if (total - a * x) % b == 0), None)
            if first is None:
                return False
            starts += first
            ends += first + (high - first) // d * d
        if starts > have_a:
            return False
        best = starts + (min(ends, have_a) - starts) // d * d
        return sum(t for t, _ in wants) - a * best <= b * have_b

    def run(self) -> bool:
        return self.hopeful(0, self.wants) and self.solve(0, self.wants)

    def solve(self, level: int, wants: tuple[Want, ...]) -> bool:
        if not wants:
            return True
        if level == len(self.values) or (level, wants) in self.failed:
            return False
        self.budget.spend()
        if level == len(self.values) - 2:
            return self.last_two(wants)
        value, have = self.values[level], self.counts[level]
        last = level == len(self.values) - 1
        fewest = self.fewest[level + 1]
        choices: list[list[int]] = []
        for total, most in wants:
            high = min(most, total // value, have)
            if last:
                options = [total // value] if total % value == 0 and total // value <= high else []
            else:
                options = [x for x in range(high, -1, -1) if fewest[total - x * value] <= most - x]
            if not options:
                self.failed.add((level, wants))
                return False
            choices.append(options)
        if sum(min(o) for o in choices) > have:
            self.failed.add((level, wants))
            return False
        taken = [0] * len(wants)

        def share(i: int, left: int) -> bool:
            if i == len(wants):
                self.budget.spend()
                rest = tuple(sorted(((t - x * value, n - x) for (t, n), x in zip(wants, taken) if t > x * value),
                                    reverse=True))
                return self.hopeful(level + 1, rest) and self.solve(level + 1, rest)
            need_after = sum(min(o) for o in choices[i + 1:])
            for x in choices[i]:
                if x > left - need_after:
                    continue
                # players in the same state are interchangeable: give them non-increasing counts
                if i and wants[i] == wants[i - 1] and x > taken[i - 1]:
                    continue
                taken[i] = x
                if share(i + 1, left - x):
                    return True
            return False

        if share(0, have):
            return True
        self.failed.add((level, wants))
        return False


def brute_force(pool: Mapping[int, int], wants: Sequence[Want]) -> bool:
    """The same answer by trying every way to make each total in turn (for tests: slow)."""
    values = sorted(v for v, n in pool.items() if n > 0)

    def ways(total: int, most: int, left: dict[int, int], j: int = 0) -> list[dict[int, int]]:
        if total == 0:
            return [{}]
        if j == len(values) or most == 0:
            return []
        v = values[j]
        out = []
        for x in range(min(left[v], most, total // v if v else most) + 1):
            if v == 0 and x:
                continue
            for rest in ways(total - x * v, most - x, left, j + 1):
                out.append(rest | ({v: x} if x else {}))
        return out

    def go(i: int, left: dict[int, int]) -> bool:
        if i == len(wants):
            return True
        total, most = wants[i]
        if total == 0:
            if left.get(0, 0) < 1 or most < 1:
                return False
            return go(i + 1, left | {0: left[0] - 1})
        for way in ways(total, most, left):
            if go(i + 1, {v: n - way.get(v, 0) for v, n in left.items()}):
                return True
        return False

    return go(0, dict(pool))
