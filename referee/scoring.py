"""Penalties, a hand's score, totals and the winner by the family's tie-break.

>>> from referee.families import resolve
>>> from referee.cards import parse_cards
>>> penalty(resolve("progressive"), parse_cards("AH KD 7C JK"))
55

Scoring a hand at the table: who went out, and what each other player has left (cards, or a typed total).
A card left in hand may be written by its rank alone, since suits never score.

>>> score = score_hand(resolve("liverpool"), 1, ["Ann", "Ben", "Cy"], out=0,
...                    entries={1: Entry(Leftover.parse_all("A K JK")), 2: Entry(total=25)})
>>> [(s.player, s.penalty) for s in score.seats], score.violations
([('Ann', 0), ('Ben', 40), ('Cy', 25)], ())
>>> score_hand(resolve("liverpool"), 1, ["Ann", "Ben", "Cy"], out=0, entries={1: Entry(total=7)}).violations[0].code
'impossible_total'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Collection, Mapping, Sequence

from .cards import Card, Leftover, Rank, Suit
from .families import Rules
from .pack import can_make, most_points
from .verdicts import Violation


def card_points(rules: Rules, cards: Sequence[Card]) -> list[tuple[Card, int]]:
    return [(c, rules.points(c)) for c in cards]


def penalty(rules: Rules, cards: Sequence[Card]) -> int:
    """What the cards left in a hand cost; the player who went out scores nothing."""
    return sum(rules.points(c) for c in cards)


def pack_points(rules: Rules) -> Counter[int]:
    """The pack as the scorer sees it: how many of its cards are worth each number of points.

    >>> from referee.families import resolve
    >>> sorted(pack_points(resolve("liverpool", players=6)).items())
    [(5, 96), (10, 48), (15, 18)]
    """
    pool: Counter[int] = Counter()
    for rank in Rank:
        pool[rules.rank_points(rank)] += 4 * rules.decks
    if rules.jokers:
        pool[rules.rank_points(None)] += rules.jokers
    return pool


def possible_totals(rules: Rules, max_cards: int) -> set[int]:
    """Every penalty that some hand of at most ``max_cards`` cards of this pack could score (0: no cards)."""
    pool = pack_points(rules)
    return {0} | {t for t in range(1, most_points(pool, max_cards) + 1) if can_make(pool, [(t, max_cards)])}


# --------------------------------------------------------------------------------------------- a hand's score
@dataclass(frozen=True)
class Entry:
    """One player's leftovers as entered at the table: the cards, or a typed total (or both, to check)."""

    cards: tuple[Leftover, ...] | None = None
    total: int | None = None


@dataclass(frozen=True)
class SeatScore:
    seat: int
    player: str
    penalty: int  # what the cards left cost
    bonus: int = 0  # taken off for cutting exactly the cards needed
    cards: tuple[Leftover, ...] | None = None  # None: a typed total

    @property
    def score(self) -> int:
        """What counts towards the player's total."""
        return net_score(self.penalty, self.bonus)


def net_score(penalty: int, bonus: int) -> int:
    """What a hand's penalty counts towards a player's total: the penalty less the exact-cut bonus (which comes
    off a score, never off what the cards left are worth)."""
    return penalty - bonus


def typed_total(rules: Rules, score: int, cut_exactly: bool) -> int:
    """The total that was typed for a player whose hand is kept only by its score (as an export keeps it): the
    exact-cut bonus that came off it put back, so that scoring the hand again gives the same score.

    >>> from referee.families import resolve
    >>> r = resolve("liverpool", options={"exact_cut_bonus": 10})
    >>> typed_total(r, 15, cut_exactly=True), typed_total(r, 15, cut_exactly=False)
    (25, 15)
    """
    return score + (rules.exact_cut_bonus if cut_exactly else 0)


@dataclass(frozen=True)
class HandScore:
    seats: tuple[SeatScore, ...]
    violations: tuple[Violation, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.violations


def score_hand(rules: Rules, hand: int, players: Sequence[str], out: int | None,
               entries: Mapping[int, Entry], buys: Mapping[int, int] | None = None,
               cutter: int | None = None, exact_cut: bool = False, absent: Collection[int] = ()) -> HandScore:
    """Score one hand: ``players`` in seat order, ``out`` the seat that went out (``None``: the stock ran out),
    ``entries`` each other seat's leftovers, ``buys`` how many discards each seat bought this hand, ``cutter``
    the seat that cut and ``exact_cut`` whether the cut was exact; ``absent``: the seats of players who sat
    down after this hand (they score nothing in it, and an entry for them is refused).

    Refuses (with violations, the first problem first, each naming the players it is about) what no deal could
    produce: cards for the player who went out; more cards than a player can hold (``Rules.can_hold``); a
    typed total above what that many cards of this pack can make, or one they cannot make at all; more copies
    of a card than the pack holds; and totals and cards that the pack cannot leave in those hands all at once
    (``pack.can_make``). The exact-cut bonus comes off a score, never off what the cards left are worth, so
    the bounds are on the penalty.

    >>> from referee.families import resolve
    >>> six = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
    >>> r = resolve("liverpool", ["no_buying"], players=6)
    >>> score_hand(r, 1, six, 0, {1: Entry(total=150)} | {i: Entry(total=5) for i in range(2, 6)}).valid
    True
    >>> v = score_hand(r, 1, six, 0, {1: Entry(total=150), 2: Entry(total=150)} | {
    ...     i: Entry(total=5) for i in range(3, 6)}).violations[0]
    >>> v.code, v.params["players"]
    ('pack_cannot_make', ['Ben', 'Cy'])
    """
    buys = buys or {}

    def refuse(code: str, field: str | None, **params: object) -> HandScore:
        return HandScore((), (Violation(code, None, dict(params), field=field),))

    if out is not None and not 0 <= out < len(players):
        return refuse("bad_out", "out")
    if out is not None and out in absent:
        return refuse("not_in_this_hand", "out", player=players[out], hand=hand)
    for seat in sorted(absent):
        entry = entries.get(seat)
        if entry is not None and (entry.cards or entry.total is not None):
            return refuse("not_in_this_hand", f"cards_{seat}", player=players[seat], hand=hand)
    if out is None and rules.stock_exhausted != "end_hand":
        return refuse("nobody_out", "out")
    bonus = rules.exact_cut_bonus if exact_cut else 0
    pack = pack_points(rules)
    seats = []
    held: dict[int, tuple[Leftover, ...]] = {}
    typed: dict[int, tuple[int, int]] = {}  # seat -> (total, the most cards it can be)
    for seat, name in enumerate(players):
        if seat in absent:
            continue
        entry = entries.get(seat, Entry())
        cut = bonus if seat == cutter else 0
        if seat == out:
            if entry.cards or entry.total:
                return refuse("out_has_cards", f"cards_{seat}", player=name)
            seats.append(SeatScore(seat, name, 0, cut, ()))
            continue
        holds = rules.can_hold(hand, buys.get(seat, 0))
        if entry.cards:
            if len(entry.cards) > holds:
                return refuse("too_many_cards", f"cards_{seat}", player=name, maximum=holds)
            points = sum(rules.rank_points(c.rank) for c in entry.cards)
            if entry.total is not None and entry.total != points:
                return refuse("total_disagrees", f"total_{seat}", player=name, total=entry.total, cards=points)
            held[seat] = entry.cards
            seats.append(SeatScore(seat, name, points, cut, entry.cards))
        elif entry.total is not None:
            highest = most_points(pack, holds)
            if entry.total > highest:
                return refuse("total_too_high", f"total_{seat}", player=name, total=entry.total, maximum=holds,
                              highest=highest)
            if can_make(pack, [(entry.total, holds)]) is False:
                return refuse("impossible_total", f"total_{seat}", player=name, total=entry.total)
            typed[seat] = (entry.total, holds)
            seats.append(SeatScore(seat, name, entry.total, cut, None))
        else:
            return refuse("missing_cards", f"cards_{seat}", player=name)
    over = pack_violations(rules, held, players)
    if over:
        return HandScore((), over)
    if typed and (held or len(typed) > 1) and not _fits(rules, pack, held, typed, set(held) | set(typed)):
        culprits = sorted(set(held) | set(typed))
        for seat in list(culprits):
            fewer = [s for s in culprits if s != seat]
            if not _fits(rules, pack, held, typed, set(fewer)):
                culprits = fewer
        first = culprits[0]
        return refuse("pack_cannot_make", f"total_{first}" if first in typed else f"cards_{first}",
                      players=[players[s] for s in culprits], decks=rules.decks, jokers=rules.jokers)
    return HandScore(tuple(seats))


def _fits(rules: Rules, pack: Counter[int], held: Mapping[int, tuple[Leftover, ...]],
          typed: Mapping[int, tuple[int, int]], seats: set[int]) -> bool:
    """Whether what is left of the pack once these seats' cards are out can make their typed totals (a search
    the budget cut short does not refuse)."""
    pool = Counter(pack)
    for seat in seats & set(held):
        pool.subtract(rules.rank_points(c.rank) for c in held[seat])
    return can_make(+pool, [typed[s] for s in sorted(seats & set(typed))]) is not False


def pack_violations(rules: Rules, held: Mapping[int, tuple[Leftover, ...]],
                    players: Sequence[str]) -> tuple[Violation, ...]:
    """More of a card, or of a rank, than the pack holds (a rank written alone counts against its rank), naming
    the players who have it."""
    left: Counter[Leftover] = Counter(c for cards in held.values() for c in cards)
    of_rank: Counter[Rank | None] = Counter()
    for c, n in left.items():
        of_rank[c.rank] += n
    # each card (then its rank as a whole) held, jokers first; named only where the pack runs out
    checks: list[tuple[Leftover | Rank, int, int]] = [(JOKER_LEFT, left[JOKER_LEFT], rules.jokers)]
    for rank in sorted(r for r in of_rank if r is not None):
        checks += [(Leftover(rank, suit), left[Leftover(rank, suit)], rules.decks) for suit in Suit]
        checks.append((rank, of_rank[rank], rules.decks * 4))
    out = []
    for what, count, copies in checks:
        if count > copies:
            seats = [s for s in sorted(held) if any(c == what or c.rank == what for c in held[s])]
            out.append(Violation("too_many_copies_left", None, {
                "card": what.symbol if isinstance(what, Rank) else str(what), "count": count, "copies": copies,
                "players": [players[s] for s in seats]}, field=f"cards_{seats[0]}"))
    return tuple(out)


JOKER_LEFT = Leftover(None)


@dataclass(frozen=True)
class Standing:
    player: str
    total: int
    place: int  # 1 = best; players who share a place share its number
    tie_score: int | None  # the player's score in the hand that breaks a tie (``Result.tie_hand``)


@dataclass(frozen=True)
class Result:
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]  # more than one: they share the win
    decided_by: str  # "total" | "tie_hand" | "replayed" | "shared" | "replay" (still tied: replay it)
    tied: tuple[str, ...] = ()  # the players who had the lowest total, when more than one did (the tie broken)
    tie_hand: int | None = None  # the number of the hand whose scores break a tie


# The starting scores a table gives a player who sits down after the game began, besides a number it types (the
# documents are silent: a house choice, "highest" by default)
START_CHOICES = ("highest", "lowest", "zero")


def starting_score(choice: str, so_far: Sequence[int]) -> int:
    """The starting score ``choice`` gives, from the totals so far (none before the first hand: 0).

    >>> starting_score("highest", [15, 25, 5]), starting_score("lowest", [15, 25, 5]), starting_score("highest", [])
    (25, 5, 0)
    """
    if choice == "zero" or not so_far:
        return 0
    return max(so_far) if choice == "highest" else min(so_far)


def totals(players: Sequence[str], hands: Sequence[dict[str, int]],
           start: Mapping[str, int] | None = None) -> dict[str, int]:
    """Each player's total: ``start`` (the score a player who sat down late was given, 0 for everyone else), and
    the hands they played (a hand played before a player sat down has no score of theirs)."""
    start = start or {}
    return {p: start.get(p, 0) + sum(h.get(p, 0) for h in hands) for p in players}


def running_totals(players: Sequence[str], hands: Sequence[dict[str, int]],
                   start: Mapping[str, int] | None = None) -> dict[str, list[int]]:
    """Each player's total after each hand (the last is their total), from ``start`` (as ``totals``)."""
    start = start or {}
    out: dict[str, list[int]] = {p: [] for p in players}
    for h in hands:
        for p in players:
            out[p].append((out[p][-1] if out[p] else start.get(p, 0)) + h.get(p, 0))
    return out


NOT_PLAYED = 1 << 62  # the tie-break score of a player who had not sat down by that hand: after every score


def standings(rules: Rules, players: Sequence[str], hands: Sequence[dict[str, int]],
              replays: Sequence[dict[str, int]] = (), ended_early: bool = False,
              start: Mapping[str, int] | None = None) -> Result:
    """Lowest total wins; ties are broken by the family's tie-break steps (the penalties of the hand the
    documents name, «la séptima mano», «ronda 7»: ``Rules.tie_hand``; then a shared win, or the last hand
    replayed: ``replays`` are the penalties of each replay, which count only to break the tie). A game the table
    ended before that hand is ranked on the hands played, the last of them in its place; nobody replays it, so a
    tie it leaves is a shared win.

    Places follow the tie-break: when it was used, players on the same total are ranked by that hand too.
    ``start``: the score each player who sat down late was given (``totals``).

    >>> from referee.families import resolve
    >>> r = standings(resolve("liverpool"), ["Carla", "Diego", "Eva"],
    ...               [{"Carla": 20, "Diego": 30, "Eva": 40}, {"Carla": 10, "Diego": 0, "Eva": 5}])
    >>> r.winners, r.decided_by, r.tied, r.tie_hand, [(s.player, s.place) for s in r.standings]
    (('Diego',), 'tie_hand', ('Diego', 'Carla'), 2, [('Diego', 1), ('Carla', 2), ('Eva', 3)])
    """
    tot = totals(players, hands, start)
    tie_hand = min(rules.tie_hand, len(hands)) if hands else None
    last = hands[tie_hand - 1] if tie_hand else {}

    def key(p: str) -> tuple[int, int]:
        # a player who sat down after the hand that breaks a tie has no score in it: those who have one come first
        return (tot[p], last.get(p, NOT_PLAYED))

    order = sorted(players, key=lambda p: (key(p), list(players).index(p)))
    best = min(tot.values()) if tot else 0
    leaders = [p for p in order if tot[p] == best]
    decided = "total"
    tied = tuple(leaders) if len(leaders) > 1 else ()
    if len(leaders) > 1:
        steps = tuple(s for s in rules.family.tie_break if not (ended_early and s == "replay"))
        if "tie_hand" in steps and hands:
            low = min(last.get(p, NOT_PLAYED) for p in leaders)
            narrowed = [p for p in leaders if last.get(p, NOT_PLAYED) == low]
            if len(narrowed) < len(leaders):
                leaders, decided = narrowed, "tie_hand"
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
    return Result(tuple(out), tuple(leaders), decided, tied, tie_hand if tied else None)
