"""A group's work on the database: create a group, keep its roster, start its games (and rematches), and work
out its stats from the recorded hands of its games.

Links work as a game's do: a long random edit token (only its hash is stored) and a view token. A group's
game gets an edit token derived from the group's edit token (an HMAC of the game's id), so whoever holds the
group's edit link can open each of its games for editing while the database keeps no token it could leak.

Stats are never stored: every figure is worked out from the hands as they are recorded now (so a corrected or
undone hand changes them at once), in a fixed number of queries whatever the number of games; the winner of a
game, its standings and whether it is finished come from the scoreboard's ``state``, i.e. from the engine.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import hmac
import io
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Collection

from flask import current_app
from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ...errors import RefereeError
from ...families import FAMILIES
from ...table import deal_order
from ..errors import Refusal
from ..models import Game, Group, GroupGame, Member, begin_write, db
from ..scoreboard import create, gamestate, reads, transfer
from ..scoreboard import services as games

EXPORT_FORMAT = 1
NAME_MAX = 60
MAX_IMPORT_GAMES = 500
token_hash = reads.token_hash
new_token = create.new_token


# ------------------------------------------------------------------------------------------------ names
def clean(name: Any) -> str:
    """A group's or a roster's name as kept: spaces made one, and no control characters (a NUL) or halves of a
    character (a lone surrogate), which no database or page can hold (as players' names: ``games._printable``)."""
    return " ".join(create.printable(name).split()) if isinstance(name, str) else ""


def name_key(name: str) -> str:
    """One person whatever the case, as a game knows its players (``create.name_key``), of the cleaned name."""
    return create.name_key(clean(name))


# ------------------------------------------------------------------------------------------------ groups
def create_group(name: Any, edit: str | None = None) -> tuple[Group, str, bool]:
    """A new group; returns it with its edit token (only its hash is stored), and whether it was made now.
    ``edit``: the edit token a form's tap gives it (``routes.new``): a group that already has it and the same
    name is that tap's group, made by a tap before (a double tap, a form sent again), and is returned as it is."""
    text = clean(name)
    if not text:
        raise Refusal("group_name_missing", "name")
    if len(text) > NAME_MAX:
        raise Refusal("group_name_long", "name", maximum=NAME_MAX)
    if edit is not None:
        found = find(edit)
        if found is not None:
            if _made_by(found, text):
                return found[0], edit, False
            edit = None  # the same form sent again with another name: a group of its own
    token = edit or new_token()
    group = Group(id=secrets.token_hex(6), name=text, edit_hash=token_hash(token), view_token=new_token())
    db.session.add(group)
    try:
        db.session.commit()
    except IntegrityError:  # the other tap of a double tap made it a moment ago
        db.session.rollback()
        found = find(edit) if edit is not None else None
        if found is None or not _made_by(found, text):
            raise
        return found[0], token, False
    return group, token, True


def _made_by(found: tuple[Group, bool], name: str) -> bool:
    """Whether the group a form's tap token opens is that form's group: opened to edit, and of its name."""
    return found[1] and found[0].name == name


def find(token: str) -> tuple[Group, bool] | None:
    """The group a link opens, and whether the link may change it."""
    if not isinstance(token, str) or not reads.TOKEN.fullmatch(token):  # (a NUL, a slash: opens nothing)
        return None
    digest = token_hash(token)
    group = db.session.execute(select(Group).where(
        (Group.edit_hash == digest) | (Group.view_token == token))).scalar_one_or_none()
    if group is None:
        return None
    return group, group.edit_hash == digest


def find_many(tokens: list[str]) -> list[tuple[str, Group, bool]]:
    """The groups a list of remembered links opens, in one query."""
    tokens = [t for t in tokens if isinstance(t, str) and reads.TOKEN.fullmatch(t)]
    if not tokens:
        return []
    digests = {token_hash(t): t for t in tokens}
    rows = db.session.execute(select(Group).where(
        Group.edit_hash.in_(list(digests)) | Group.view_token.in_(tokens))).scalars().all()
    by_token: dict[str, tuple[Group, bool]] = {}
    for g in rows:
        if g.edit_hash in digests:
            by_token[digests[g.edit_hash]] = (g, True)
        if g.view_token in tokens:
            by_token[g.view_token] = (g, False)
    return [(t, *by_token[t]) for t in tokens if t in by_token]


def game_token(group_edit_token: str, game_id: str) -> str:
    """The edit token of a group's game: derived from the group's edit token, so it is never stored."""
    mac = hmac.new(group_edit_token.encode(), b"game:" + game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()  # 192 bits, like every other token


def tap_token(once: Any, who: str) -> str | None:
    """The edit token of the group a form's tap makes: derived from the form (``once``, drawn with it) and from
    whoever sent it (``who``: their session's own secret), so that a second tap on the same form finds the
    group the first made, and nobody else's form can. None for a form without it."""
    if not isinstance(once, str) or not reads.TOKEN.fullmatch(once):
        return None
    key = current_app.secret_key
    key = key if isinstance(key, bytes) else str(key).encode()
    mac = hmac.new(key, b"group:" + who.encode() + b"\0" + once.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def group_of_game(game: Game) -> Group | None:
    link = db.session.get(GroupGame, game.id)
    return link.group if link is not None else None


def can_edit_game(group_edit_token: str, link: GroupGame) -> bool:
    return link.deleted_at is None and token_hash(game_token(group_edit_token, link.game_id)) == link.game.edit_hash


# ------------------------------------------------------------------------------------------------ roster
def add_member(group: Group, name: Any) -> Member:
    """Add a name to the roster (a name already there, in any case, is that person)."""
    member = add_members(group, [name])[0]
    db.session.commit()
    return member


def roster_name(name: Any) -> str:
    """A name for the roster as kept (``clean``), or the refusal that says what is wrong with it."""
    text = clean(name)
    if not text:
        raise Refusal("empty_name", "name")
    if len(text) > 40:
        raise Refusal("long_name", "name", maximum=40)
    return text


def add_members(group: Group, names: list[Any]) -> list[Member]:
    """Add names to the roster in one pass (each name already there, in any case, is that person); the caller
    commits. A roster of thousands costs its size: one look-up a name, one commit for all."""
    known = {m.key: m for m in group.members}
    out = []
    for name in names:
        text = roster_name(name)
        key = name_key(text)
        member = known.get(key)
        if member is None:
            member = known[key] = Member(name=text, key=key)
            group.members.append(member)
        out.append(member)
    return out


def canonical(group: Group, names: list[str]) -> tuple[list[str], list[Member]]:
    """The names as the roster spells them, and the members to add for the names it does not know yet."""
    by_key = {m.key: m for m in group.members}
    out, new = [], []
    for n in names:
        key = name_key(n)
        if key in by_key:
            out.append(by_key[key].name)
        else:
            member = Member(name=clean(n), key=key)
            by_key[key] = member
            new.append(member)
            out.append(member.name)
    return out, new


# ------------------------------------------------------------------------------------------------ games
def start_game(group: Group, group_edit_token: str, family: Any, variants: Any, options: Any, names: Any,
               first_dealer: Any = 0, via: str = "edit link") -> tuple[Game, str]:
    """A new game of the group; the names join the roster (one person whatever the case). Returns the game
    and its edit token."""
    if not isinstance(family, str) or family not in FAMILIES:
        raise Refusal("unknown_ruleset", "ruleset", ruleset=str(family)[:40])
    cleaned = create.clean_names(names, family)
    # one start at a time in a group (its row locked on PostgreSQL; the file's write lock on SQLite), so that two
    # taps, or two phones starting the same game, make one game and never an orphan
    begin_write()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(select(Group.id).where(Group.id == group.id).with_for_update())
    db.session.expire(group, ["members"])
    spelled, new = canonical(group, cleaned)
    same = _just_started(group, family, variants, options, spelled, first_dealer)
    if same is not None:  # the same game started a moment ago, and not played yet: that one
        db.session.rollback()
        return same, game_token(group_edit_token, same.id)
    return _started(group, group_edit_token, family, variants, options, spelled, new, first_dealer, via)


DOUBLE_TAP_S = 60  # the same game started again within this long, before a hand is played: the same start


def _just_started(group: Group, family: str, variants: Any, options: Any, names: list[str],
                  first_dealer: Any) -> Game | None:
    """The group's newest game, if it is this very game (rules, players in their seats, first dealer), started
    within ``DOUBLE_TAP_S`` and with no hand recorded: a second tap on the same button."""
    newest = db.session.execute(
        select(Game).join(GroupGame, GroupGame.game_id == Game.id)
        .where(GroupGame.group_id == group.id, GroupGame.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc()).limit(1)).unique().scalar_one_or_none()
    if newest is None or newest.hands_recorded or newest.created_at is None:
        return None
    made = newest.created_at if newest.created_at.tzinfo else newest.created_at.replace(tzinfo=timezone.utc)
    if (datetime.now(timezone.utc) - made).total_seconds() > DOUBLE_TAP_S:
        return None
    same = (newest.family == family and list(newest.variants) == list(variants or [])
            and dict(newest.options) == dict(options or {}) and [p.name for p in newest.players] == names
            and newest.first_dealer == first_dealer)
    return newest if same else None


def _started(group: Group, group_edit_token: str, family: str, variants: Any, options: Any, spelled: list[str],
             new: list[Member], first_dealer: Any, via: str) -> tuple[Game, str]:
    game, _ = create.new_game(family, variants, options, spelled, first_dealer, via)  # (not committed alone)
    edit = game_token(group_edit_token, game.id)
    game.edit_hash = token_hash(edit)
    group.members.extend(new)
    db.session.add(GroupGame(game_id=game.id, group_id=group.id))
    db.session.commit()  # the game, its place in the group and its new names together, or none of them
    return game, edit


def last_game(group: Group, family: str | None = None) -> Game | None:
    """The group's latest game that is not deleted (of ``family``, if given)."""
    rows = db.session.execute(
        select(Game).join(GroupGame, GroupGame.game_id == Game.id)
        .where(GroupGame.group_id == group.id, GroupGame.deleted_at.is_(None),
               *([Game.family == family] if family else []))
        .order_by(Game.created_at.desc(), Game.id).limit(1)).scalars().first()
    return rows


def game_in_group(group: Group, game_id: str) -> GroupGame | None:
    link = db.session.get(GroupGame, game_id)
    return link if link is not None and link.group_id == group.id else None


def next_dealer(game: Game) -> int:
    """The seat of whoever deals after the game's first dealer, as the family passes the deal."""
    names = [p.name for p in game.players]
    after = deal_order(gamestate.rules_of(game), names, 2, game.first_dealer).dealer
    return names.index(after)


def rematch(group: Group, group_edit_token: str, game_id: str | None = None) -> tuple[Game, str]:
    """The next game with the same players in the same seats and the same rules, the first deal moved on."""
    if game_id:
        link = game_in_group(group, game_id)
        before = link.game if link is not None and link.deleted_at is None else None
    else:
        before = last_game(group)
    if before is None:
        raise Refusal("nothing_to_rematch", None)
    return start_game(group, group_edit_token, before.family, list(before.variants), dict(before.options),
                      [p.name for p in before.players], next_dealer(before))


def delete_game(link: GroupGame) -> None:
    """A group's game is deleted for everyone who has its links; its hands stay for the group's stats (the
    scoreboard's ``delete_game`` does this for any game of a group)."""
    games.delete_game(link.game)


# ------------------------------------------------------------------------------------------------ stats
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


def _links(group: Group, family: str | None) -> list[GroupGame]:
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
    short queries tell) and kept, so that the group's page costs the same however many games it has."""
    if family is not None and family not in FAMILIES:
        family = None
    as_of = (tuple(db.session.execute(_AS_OF, {"group": group.id}).one())
             + tuple(db.session.execute(_ROSTER_AS_OF, {"group": group.id}).one()))
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
    for link in _links(group, family):
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


# ------------------------------------------------------------------------------------------------ CSV
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


# ------------------------------------------------------------------------------------------------ export / import
def export_data(group: Group) -> dict[str, Any]:
    """The whole group: its name, roster and every game (deleted ones too: the stats count them)."""
    return {
        "format": EXPORT_FORMAT,
        "kind": "group",
        "name": group.name,
        "roster": [m.name for m in group.members],
        "games": [transfer.export_data(link.game) | {"deleted": link.deleted_at is not None}
                  for link in _links(group, None)],
    }


def _when(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def import_data(data: Any) -> tuple[Group, str]:
    """A new group that is the exported one: its roster and every game with its hands, each checked by the
    engine as it is recorded again. Nothing is kept of a file that fails."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT or data.get("kind") != "group":
        raise Refusal("bad_group_import", None)
    roster, exported = data.get("roster") or [], data.get("games") or []
    if not isinstance(roster, list) or not isinstance(exported, list) or len(exported) > MAX_IMPORT_GAMES:
        raise Refusal("bad_group_import", None)
    group, edit, _ = create_group(data.get("name"))
    made: list[str] = []
    try:
        if not all(isinstance(name, str) for name in roster):
            raise Refusal("bad_group_import", None)
        _import_roster(group, roster)
        for item in exported:
            if not isinstance(item, dict):
                raise Refusal("bad_group_import", None)
            game, _ = transfer.import_data(item)
            made.append(game.id)
            spelled, new = canonical(group, [p.name for p in game.players])
            for player, name in zip(game.players, spelled):
                player.name = name
            group.members.extend(new)
            when = _when(item.get("created_at"))
            if when is not None:
                game.created_at = when
            game.edit_hash = token_hash(game_token(edit, game.id))
            link = GroupGame(game_id=game.id, group_id=group.id)
            db.session.add(link)
            db.session.commit()
            if item.get("deleted"):
                delete_game(link)
    except RefereeError:
        _discard(group, made)
        raise
    except (KeyError, TypeError, ValueError, AttributeError):
        _discard(group, made)
        raise Refusal("bad_group_import", None) from None
    return group, edit


def _import_roster(group: Group, roster: list[str]) -> None:
    """A new group's roster in one statement and one commit (a name twice, in any case, is one person)."""
    rows: dict[str, dict[str, str]] = {}
    for name in roster:
        text = roster_name(name)
        rows.setdefault(name_key(text), {"group_id": group.id, "name": text, "key": name_key(text)})
    if rows:
        db.session.execute(insert(Member.__table__), list(rows.values()))
    db.session.commit()
    db.session.expire(group, ["members"])


def _discard(group: Group, game_ids: list[str]) -> None:
    db.session.rollback()
    for gid in game_ids:
        game = db.session.get(Game, gid)
        if game is not None:
            db.session.delete(game)
    db.session.delete(group)
    db.session.commit()
