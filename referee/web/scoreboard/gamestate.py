"""A game's state as the pages, the API and the writes read it: its rules (resolved once for each set of settings),
the score sheet hand by hand, the totals, the hand being played with its dealer, cutter, buys and who is down, and
the standings by the family's tie-break."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, false, select

from ...families import Rules, resolve
from ...scoring import net_score, running_totals, standings
from ...table import deal_order
from ..models import Game, db
from .reads import HANDS, RESULTS


def rules_of(game: Game) -> Rules:
    """The rules a game is played by, resolved once for each set of settings (a game's never change)."""
    return _for(game, len(game.players))


def rules_at(game: Game, number: int) -> Rules:
    """The rules hand ``number`` was played by: the pack is the one for the players at the table then (a player
    who sat down later took no cards in it, and the pack may have grown when they did)."""
    return _for(game, sum(1 for p in game.players if p.joined_hand <= number))


def _for(game: Game, players: int) -> Rules:
    return _rules(game.family, tuple(game.variants), json.dumps(game.options, sort_keys=True), players)


@lru_cache(maxsize=256)
def _rules(family: str, variants: tuple[str, ...], options: str, players: int) -> Rules:
    return resolve(family, list(variants), json.loads(options), players)


@dataclass
class HandRow:
    number: int
    out: str | None  # the player who went out; None: the stock ran out
    penalties: dict[str, int]
    cards: dict[str, list[str] | None]


@dataclass
class State:
    game: Game
    rules: Rules
    names: list[str]
    hands: list[HandRow]
    totals: dict[str, int]
    running: dict[str, list[int]]  # totals after each hand, for the chart
    current: int | None  # the hand being played; None when the game is over
    finished: bool
    dealer: str | None = None
    cutter: str | None = None
    first: str | None = None
    buys: dict[str, int] = field(default_factory=dict)  # this hand
    down: set[str] = field(default_factory=set)  # this hand
    leaders: list[str] = field(default_factory=list)
    result: Any = None  # scoring.Result
    replays: list[HandRow] = field(default_factory=list)  # the last hand replayed to break a tie
    ended_early: bool = False  # the table stopped before the last hand: standings of the hands played
    start: dict[str, int] = field(default_factory=dict)  # the starting score of each player who sat down late
    joined: dict[str, int] = field(default_factory=dict)  # the first hand of each player who sat down late

    @property
    def replay_due(self) -> bool:
        """The game is over but tied, and the family breaks that tie by replaying the last hand."""
        return self.finished and self.result is not None and self.result.decided_by == "replay"


def _hand_rows(game: Game, names: list[str]) -> tuple[list[HandRow], list[HandRow]]:
    """The hands recorded, as rows of the score sheet; the replayed last hands apart."""
    rows: list[HandRow] = []
    replays: list[HandRow] = []
    for h in game.hands:
        pen = {names[r.seat]: r.score for r in h.results}
        (replays if h.replay else rows).append(HandRow(h.number, None if h.out_seat is None else names[h.out_seat],
                                                       pen, {names[r.seat]: r.cards for r in h.results}))
    return rows, replays


def _totals(names: list[str], rows: list[HandRow],
            start: dict[str, int]) -> tuple[dict[str, list[int]], dict[str, int]]:
    running = running_totals(names, [r.penalties for r in rows], start)
    return running, {n: (running[n][-1] if rows else start.get(n, 0)) for n in names}


def joined(game: Game) -> list[int]:
    """The first hand each seat plays (1, except a player who sat down after the game began)."""
    return [p.joined_hand for p in game.players]


def start_totals(game: Game) -> dict[str, int]:
    """The starting score of each player who sat down late (what the table gave them)."""
    return {p.name: p.start_total for p in game.players if p.start_total}


def seating(game: Game, number: int) -> tuple[list[int], set[int]]:
    """The first hand each seat plays (``joined``), and the seats of the players who sat down after hand
    ``number``."""
    first = joined(game)
    return first, {seat for seat, hand in enumerate(first) if hand > number}


_SCORES = (select(RESULTS.c.seat, RESULTS.c.penalty, RESULTS.c.bonus)
           .select_from(RESULTS.join(HANDS, HANDS.c.id == RESULTS.c.hand_id))
           .where(HANDS.c.game_id == bindparam("game"), HANDS.c.replay == false()))


def totals(game: Game) -> dict[str, int]:
    """Each player's total so far (a replayed last hand does not count to it): what a saved hand is answered
    with, from one read of the results' penalties and bonuses (a save loads neither the hands as objects nor
    the buys and downs again to say it)."""
    return _summed(game, db.session.execute(_SCORES, {"game": game.id}))


def _summed(game: Game, scores: Any) -> dict[str, int]:
    """Each player's total from the rows of ``_SCORES``."""
    summed = {p.seat: p.start_total for p in game.players}
    for seat, penalty, bonus in scores:
        summed[seat] += net_score(penalty, bonus)
    return {p.name: summed[p.seat] for p in game.players}


def state(game: Game) -> State:
    rules = rules_of(game)
    names = [p.name for p in game.players]
    rows, replays = _hand_rows(game, names)
    start = start_totals(game)
    running, totals = _totals(names, rows, start)
    ended_early = game.ended_at is not None
    finished = len(rows) >= len(rules.hands) or ended_early
    current = None if finished else len(rows) + 1
    st = State(game, rules, names, rows, totals, running, current, finished, replays=replays,
               ended_early=ended_early, start=start,
               joined={p.name: p.joined_hand for p in game.players if p.joined_hand > 1})
    if current is not None:
        order = deal_order(rules, names, current, game.first_dealer, joined(game))
        st.dealer, st.cutter, st.first = order.dealer, order.cutter, order.first
        st.buys = Counter(names[b.seat] for b in game.current_buys)
        st.down = {names[d.seat] for d in game.downs if d.hand_number == current}
    if rows:
        st.result = standings(rules, names, [r.penalties for r in rows], [r.penalties for r in replays],
                              ended_early=ended_early, start=start)
        best = min(totals.values())
        st.leaders = [n for n in names if totals[n] == best]
    return st
