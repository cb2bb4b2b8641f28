"""A group's stats, worked out from the recorded hands of its games (never stored: a corrected or undone hand
changes them at once), in a fixed number of queries whatever the number of games, and kept for each state of
the group; the winner of a game, its standings and whether it is finished come from the scoreboard's
``state``, i.e. from the engine. As JSON and as CSV."""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Collection

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import selectinload

from ...families import FAMILIES
from ..models import Game, Group, GroupGame, Member, db
from ..scoreboard import gamestate
from .services import name_key


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    finished: int = 0  # games played to the end, whose result counts
    wins: int = 0
    hands: int = 0
    points: int = 0
    outs: int = 0
    best: int | None = None  # the lowest score of a hand
    worst: int | None = None
    buys: int = 0
    series: list[dict[str, Any]] = field(default_factory=list)  # one point per game played, in order

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    @property
    def average(self) -> float | None:
        return self.points / self.hands if self.hands else None


@dataclass(frozen=True)
class GameRef:
    """What a group's statistics keep of a game: plain values, so that the figures can be kept from one request
    to the next (``stats``) without holding a database session's objects."""

    id: str
    family: str
    created_at: datetime | None
    view_token: str
    deleted_at: datetime | None


@dataclass
class GameSummary:
    game: GameRef
    names: list[str]  # as the roster spells them, in seat order
    hands: int
    total_hands: int
    finished: bool
    counts: bool  # its result counts: decided (played to its end, or ended early: its standings are its result)
    winners: list[str]
    places: dict[str, int]
    totals: dict[str, int]
    ended_early: bool = False
    decided_by: str | None = None  # the engine's word for how the result came (``scoring.Result.decided_by``)

    @property
    def deleted(self) -> bool:
        return self.game.deleted_at is not None


@dataclass
class Stats:
    group: str  # its id
    family: str | None
    players: list[PlayerStats]
    games: list[GameSummary]  # oldest first
    ahead: dict[str, dict[str, int]]  # ahead[a][b]: games a finished ahead of b
    met: Counter[tuple[str, str]] = field(default_factory=Counter)  # (a, b) -> counted games they shared

    def times_met(self, a: str, b: str) -> int:
        """How many counted games ``a`` and ``b`` shared."""
        return self.met[(a, b) if a < b else (b, a)]

    def pairs(self, among: Collection[str] | None = None) -> list[tuple[str, str, int, int]]:
        """Every pair that met in a counted game (of ``among`` only, if given): (a, b, times a was ahead, times b
        was ahead), in the players' order. Only pairs that met are looked at: a group of many people who never
        played each other costs nothing here."""
        place = {p.name: i for i, p in enumerate(self.players)}
        out = []
        for a, b in self.met:
            if among is not None and (a not in among or b not in among):
                continue
            if place[a] > place[b]:
                a, b = b, a
            out.append((a, b, self.ahead.get(a, {}).get(b, 0), self.ahead.get(b, {}).get(a, 0)))
        out.sort(key=lambda pair: (place[pair[0]], place[pair[1]]))
        return out


def games_of(group: Group, family: str | None) -> list[GroupGame]:
    """The group's games with everything ``state`` reads, loaded in one query per table."""
    stmt = (select(GroupGame).join(Game, Game.id == GroupGame.game_id).where(GroupGame.group_id == group.id)
            .order_by(Game.created_at, Game.id)
            .options(selectinload(GroupGame.game).selectinload(Game.players),
                     selectinload(GroupGame.game).selectinload(Game.hands),
                     selectinload(GroupGame.game).selectinload(Game.buys),
                     selectinload(GroupGame.game).selectinload(Game.downs)))
    if family:
        stmt = stmt.where(Game.family == family)
    return list(db.session.execute(stmt).scalars().all())


_KEPT: dict[tuple[str, str | None], tuple[tuple[Any, ...], Stats]] = {}  # (group, family) -> (as of, figures)
_KEPT_MOST = 256


_AS_OF = (select(func.count(GroupGame.game_id), func.max(Game.updated_at), func.sum(Game.version),
                 func.count(GroupGame.deleted_at), func.max(GroupGame.deleted_at))
          .join(Game, Game.id == GroupGame.game_id).where(GroupGame.group_id == bindparam("group")))


_ROSTER_AS_OF = select(func.count(Member.id), func.max(Member.id)).where(Member.group_id == bindparam("group"))


def stats(group: Group, family: str | None = None) -> Stats:
    """Every player's figures over the group's games (or those of one family), from the recorded hands: worked
    out once for each state of the group (a change to any of its games, or to its roster, is a new state; two
    short queries and the roster's version tell) and kept, so that the group's page costs the same however
    many games it has."""
    if family is not None and family not in FAMILIES:
        family = None
    as_of = (tuple(db.session.execute(_AS_OF, {"group": group.id}).one())
             + tuple(db.session.execute(_ROSTER_AS_OF, {"group": group.id}).one())
             + (group.roster_version,))
    kept = _KEPT.get((group.id, family))
    if kept is not None and kept[0] == as_of:
        return kept[1]
    figures = _stats(group, family)
    if len(_KEPT) >= _KEPT_MOST:
        _KEPT.clear()
    _KEPT[(group.id, family)] = (as_of, figures)
    return figures


def _stats(group: Group, family: str | None) -> Stats:
    spelled = {m.key: m.name for m in group.members}
    players: dict[str, PlayerStats] = {m.name: PlayerStats(m.name) for m in group.members}
    ahead: dict[str, dict[str, int]] = {}
    met: Counter[tuple[str, str]] = Counter()
    summaries = []
    for link in games_of(group, family):
        game = link.game
        st = gamestate.state(game)
        name_of = {n: spelled.get(name_key(n), n) for n in st.names}
        names = [name_of[n] for n in st.names]
        for n in names:
            players.setdefault(n, PlayerStats(n))
        # a result counts once the game is decided, as its screen shows it: played to its end, or ended early by
        # the table (its standings then are its result, and its leader wins); a tie awaiting its replay is not
        # decided yet (docs/decisions.md)
        counts = st.finished and st.result is not None and st.result.decided_by != "replay"
        # the winners, or the players tied waiting for their replay
        winners = [name_of[w] for w in st.result.winners] if st.finished and st.result else []
        places = {name_of[s.player]: s.place for s in st.result.standings} if st.result else {}
        ref = GameRef(game.id, game.family, game.created_at, game.view_token, link.deleted_at)
        summary = GameSummary(ref, names, len(st.hands), len(st.rules.hands), st.finished, counts, winners,
                              places, {name_of[n]: t for n, t in st.totals.items()}, bool(st.ended_early),
                              st.result.decided_by if st.finished and st.result else None)
        summaries.append(summary)
        buys = Counter(b.seat for b in game.buys)
        for seat, raw in enumerate(st.names):
            p = players[name_of[raw]]
            p.games += 1
            p.buys += buys.get(seat, 0)
            scores = [row.penalties[raw] for row in st.hands if raw in row.penalties]
            p.hands += len(scores)
            p.points += sum(scores)
            p.outs += sum(1 for row in st.hands if row.out == raw)
            if scores:
                p.best = min(scores) if p.best is None else min(p.best, min(scores))
                p.worst = max(scores) if p.worst is None else max(p.worst, max(scores))
            if counts:
                p.finished += 1
                p.wins += name_of[raw] in winners
            if scores:
                p.series.append({"game": summary, "average": sum(scores) / len(scores),
                                 "won": counts and name_of[raw] in winners})
        if counts:
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    met[(a, b) if a < b else (b, a)] += 1
                for b in names:
                    if a != b and places.get(a, 0) < places.get(b, 0):
                        ahead.setdefault(a, {})[b] = ahead.setdefault(a, {}).get(b, 0) + 1
    ordered = sorted(players.values(), key=lambda p: (-p.wins, -(p.win_rate or 0), p.average or 0, p.name.casefold()))
    return Stats(group.id, family, ordered, summaries, ahead, met)


def player_json(p: PlayerStats) -> dict[str, Any]:
    return {"name": p.name, "games": p.games, "finished": p.finished, "wins": p.wins,
            "win_rate": None if p.win_rate is None else round(p.win_rate, 4), "hands": p.hands,
            "average_per_hand": None if p.average is None else round(p.average, 2), "times_out": p.outs,
            "best_hand": p.best, "worst_hand": p.worst, "buys": p.buys}


def stats_json(group: Group, s: Stats, can_edit: bool) -> dict[str, Any]:
    return {
        "id": group.id,
        "name": group.name,
        "family": s.family,
        "roster": [m.name for m in group.members],
        "players": [player_json(p) for p in s.players],
        "games": [{"id": g.game.id, "ruleset": g.game.family, "players": g.names,
                   "created_at": g.game.created_at.isoformat() if g.game.created_at else None,
                   "hands": g.hands, "finished": g.finished, "counts": g.counts,
                   "winners": g.winners if g.counts else [], "tied": [] if g.counts else g.winners,
                   "ended_early": g.ended_early, "totals": g.totals, "deleted": g.deleted,
                   "view_token": None if g.deleted else g.game.view_token} for g in s.games],
        "head_to_head": [{"players": [a, b], "ahead": {a: x, b: y}} for a, b, x, y in s.pairs()],
        "can_edit": can_edit,
    }


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def stats_csv(s: Stats, header: list[str], number: Any) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([cell(h) for h in header])
    for p in s.players:
        w.writerow([cell(p.name), p.games, p.wins, "" if p.win_rate is None else number(p.win_rate * 100, 1),
                    p.hands, "" if p.average is None else number(p.average, 2), p.outs,
                    "" if p.best is None else p.best, "" if p.worst is None else p.worst, p.buys])
    return buf.getvalue()
