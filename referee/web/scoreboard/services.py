"""The scoreboard's work on the database: create a game, record and correct hands, buys, who has gone down,
undo, export and import. Every rule fact comes from the engine (``referee``); every change is kept in the
game's history.

Writes to one game are serialised: each starts by bumping the game's version (an UPDATE that takes the row's
write lock on PostgreSQL and the database's on SQLite), so two phones never both pass a check that only one
of them may pass; and two phones recording the same hand meet the (game, hand) unique constraint.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import insert, literal, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ...cards import CardError
from ...errors import RefereeError
from ...families import FAMILIES, Rules, resolve
from ...scoring import Entry, Leftover, running_totals, score_hand, standings
from ...table import deal_order
from ..errors import Refusal
from ..models import UNDOABLE, Buy, Change, Down, Game, Hand, Player, Result, db, now

EXPORT_FORMAT = 1


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


# ------------------------------------------------------------------------------------------------ create
def clean_name(name: str, field: str = "players") -> str:
    """A player's name with its spaces tidied; refused when empty or too long."""
    out = " ".join(name.split())
    if not out:
        raise Refusal("empty_name", field)
    if len(out) > 40:
        raise Refusal("long_name", field, maximum=40)
    return out


def clean_names(names: Any, fam_id: str) -> list[str]:
    fam = FAMILIES[fam_id]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Refusal("bad_players", "players")
    out = [clean_name(n) for n in names]
    if len({n.casefold() for n in out}) != len(out):
        raise Refusal("duplicate_name", "players")
    if not fam.players[0] <= len(out) <= fam.players[1]:
        raise Refusal("players_out_of_range", "players", status=422, minimum=fam.players[0], maximum=fam.players[1])
    return out


def create_game(family: Any, variants: Any, options: Any, names: Any, first_dealer: int = 0,
                via: str = "edit link") -> tuple[Game, str]:
    """A new game; returns it with its edit token (only its hash is stored)."""
    if not isinstance(family, str) or family not in FAMILIES:
        raise Refusal("unknown_ruleset", "ruleset", ruleset=str(family)[:40])
    players = clean_names(names, family)
    rules = resolve(family, variants or [], options or {}, len(players))
    if not isinstance(first_dealer, int) or not 0 <= first_dealer < len(players):
        raise Refusal("bad_dealer", "first_dealer")
    edit = new_token()
    game = Game(id=secrets.token_hex(6), family=family, variants=list(rules.variants),
                options=dict(options or {}), first_dealer=first_dealer, edit_hash=token_hash(edit),
                view_token=new_token())
    game.players = [Player(seat=i, name=n) for i, n in enumerate(players)]
    db.session.add(game)
    db.session.add(Change(game_id=game.id, via=via, kind="created"))
    db.session.commit()
    return game, edit


def find(token: str) -> tuple[Game, bool] | None:
    """The game a link opens, and whether the link may change it."""
    if not token or len(token) > 64:
        return None
    digest = token_hash(token)
    game = db.session.execute(db.select(Game).where(
        or_(Game.edit_hash == digest, Game.view_token == token))).unique().scalar_one_or_none()
    if game is None:
        return None
    return game, game.edit_hash == digest


def rules_of(game: Game) -> Rules:
    """The rules a game is played by, resolved once for each set of settings (a game's never change)."""
    return _rules(game.family, tuple(game.variants), json.dumps(game.options, sort_keys=True), len(game.players))


@lru_cache(maxsize=256)
def _rules(family: str, variants: tuple[str, ...], options: str, players: int) -> Rules:
    return resolve(family, list(variants), json.loads(options), players)


# ------------------------------------------------------------------------------------------------ state
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

    @property
    def replay_due(self) -> bool:
        """The game is over but tied, and the family breaks that tie by replaying the last hand."""
        return self.finished and self.result is not None and self.result.decided_by == "replay"


def state(game: Game) -> State:
    rules = rules_of(game)
    names = [p.name for p in game.players]
    rows: list[HandRow] = []
    replays: list[HandRow] = []
    for h in game.hands:
        pen = {names[r.seat]: r.score for r in h.results}
        (replays if h.replay else rows).append(HandRow(h.number, None if h.out_seat is None else names[h.out_seat],
                                                       pen, {names[r.seat]: r.cards for r in h.results}))
    running = running_totals(names, [r.penalties for r in rows])
    totals = {n: (running[n][-1] if rows else 0) for n in names}
    ended_early = game.ended_at is not None
    finished = len(rows) >= len(rules.hands) or ended_early
    current = None if finished else len(rows) + 1
    st = State(game, rules, names, rows, totals, running, current, finished, replays=replays,
               ended_early=ended_early)
    if current is not None:
        order = deal_order(rules, names, current, game.first_dealer)
        st.dealer, st.cutter, st.first = order.dealer, order.cutter, order.first
        st.buys = Counter(names[b.seat] for b in game.current_buys)
        st.down = {names[d.seat] for d in game.downs if d.hand_number == current}
    if rows:
        st.result = standings(rules, names, [r.penalties for r in rows], [r.penalties for r in replays],
                              ended_early=ended_early)
        best = min(totals.values())
        st.leaders = [n for n in names if totals[n] == best]
    return st


# ------------------------------------------------------------------------------------------- scoring
def entry(cards: Any = None, total: int | None = None) -> Entry:
    """One player's leftovers as typed or tapped: card tokens (a list, or one string), and/or a total."""
    try:
        parsed = Leftover.parse_all(cards) if cards else ()
    except CardError as e:
        raise Refusal("bad_card", None, status=422, text=e.text[:20]) from None
    return Entry(parsed or None, total)


def score(game: Game, rules: Rules, number: int, out_seat: int | None, entries: dict[int, Entry],
          exact_cut: bool = False) -> list[Result]:
    """The engine scores the hand (refusing what no deal could produce); the rows to store what it returned."""
    names = [p.name for p in game.players]
    buys = Counter(b.seat for b in (game.current_buys if number == game.hands_recorded + 1 else
                                    [b for b in game.buys if b.hand_number == number]))
    cutter = names.index(deal_order(rules, names, number, game.first_dealer).cutter)
    scored = score_hand(rules, number, names, out_seat, entries, buys, cutter, exact_cut)
    if scored.violations:
        v = scored.violations[0]
        raise Refusal(v.code, v.field, **v.params)
    return [Result(seat=s.seat, penalty=s.penalty, bonus=s.bonus,
                   cards=None if s.cards is None else [str(c) for c in s.cards]) for s in scored.seats]


# ------------------------------------------------------------------------------------------- writes
def _lock(game: Game, expected: int | None = None) -> None:
    """Start a write: bump the version (serialising writers to this game); refuse a stale page."""
    stmt = update(Game).where(Game.id == game.id)
    if expected is not None:
        stmt = stmt.where(Game.version == expected)
    version = db.session.execute(stmt.values(version=Game.version + 1, updated_at=now())
                                 .returning(Game.version)).scalar_one_or_none()
    if version is None:
        db.session.rollback()
        raise Refusal("stale", None)
    set_committed_value(game, "version", version)


def _commit(game: Game, *changed: str) -> None:
    """End a write. Objects keep their state over a commit (``models.db``); the game's attributes this write
    changed are read again when next used."""
    db.session.commit()
    db.session.expire(game, ["last_undoable", "changes", *changed])


def current_hand(game: Game, rules: Rules) -> int | None:
    """The hand being played (None once the last is recorded), from the count read with the game row."""
    number: int = game.hands_recorded + 1
    return number if number <= len(rules.hands) and game.ended_at is None else None


def _snapshot(hand: Hand) -> dict[str, Any]:
    return {"out_seat": hand.out_seat, "cut_bonus": hand.cut_bonus,
            "results": [{"seat": r.seat, "penalty": r.penalty, "bonus": r.bonus, "cards": r.cards}
                        for r in hand.results]}


def _add_results(hand: Hand, results: list[Result]) -> None:
    """Insert a hand's results in one statement (the unit of work would send one INSERT a row on SQLite)."""
    rows = db.session.scalars(insert(Result).returning(Result), [
        {"hand_id": hand.id, "seat": r.seat, "penalty": r.penalty, "bonus": r.bonus, "cards": r.cards}
        for r in results]).all()
    set_committed_value(hand, "results", sorted(rows, key=lambda r: r.seat))


def record_hand(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry],
                via: str = "edit link", exact_cut: bool = False) -> Hand:
    rules = rules_of(game)
    if not isinstance(number, int) or isinstance(number, bool):
        raise Refusal("bad_hand", "hand")
    recorded = game.hands_recorded
    if number <= recorded:
        raise Refusal("already_recorded", "hand", hand=number)
    if game.ended_at is not None:
        raise Refusal("game_ended", "hand", hand=recorded)
    replay = number > len(rules.hands) and state(game).replay_due
    if number > len(rules.hands) and not replay:
        raise Refusal("past_last_hand", "hand", hand=number, hands=len(rules.hands))
    if number != recorded + 1:
        raise Refusal("not_next_hand", "hand", hand=number, next=recorded + 1)
    results = score(game, rules, number, out_seat, entries, exact_cut)
    bonus = max(r.bonus for r in results)
    try:
        _lock(game)
        hand = Hand(game_id=game.id, number=number, out_seat=out_seat, cut_bonus=bonus, replay=replay)
        db.session.add(hand)
        db.session.flush()
        _add_results(hand, results)
        db.session.add(Change(game_id=game.id, via=via, kind="hand_recorded", hand_number=number,
                              after=_snapshot(hand)))
        _commit(game, "hands", "hands_recorded", "current_buys")
    except IntegrityError:
        db.session.rollback()
        raise Refusal("already_recorded", "hand", hand=number) from None
    return hand


def correct_hand(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry],
                 expected_version: int | None, via: str = "edit link", exact_cut: bool = False) -> Hand:
    rules = rules_of(game)
    hand = next((h for h in game.hands if h.number == number), None)
    if hand is None:
        raise Refusal("no_such_hand", "hand", hand=number)
    results = score(game, rules, number, out_seat, entries, exact_cut)
    bonus = max(r.bonus for r in results)
    before = _snapshot(hand)
    _lock(game, expected_version)
    hand = next(h for h in game.hands if h.number == number)
    hand.out_seat = out_seat
    hand.cut_bonus = bonus
    hand.results.clear()
    db.session.flush()
    hand.results.extend(results)
    db.session.flush()
    db.session.add(Change(game_id=game.id, via=via, kind="hand_corrected", hand_number=number, before=before,
                          after=_snapshot(hand)))
    _commit(game)
    return hand


@dataclass
class BuyOutcome:
    added: bool
    reason: str  # a verdicts code
    params: dict[str, Any]
    left: int | None


def add_buy(game: Game, number: int, seat: int, via: str = "edit link") -> BuyOutcome:
    """One more buy for a player in the current hand, if the family's limit allows it.

    The limit is checked on what the game row brought, and again by the INSERT itself once the write holds the
    game (a buy from another phone in between cannot take a player past the limit)."""
    rules = rules_of(game)
    if number != current_hand(game, rules):
        raise Refusal("not_current_hand", "hand", hand=number)
    if not 0 <= seat < len(game.players):
        raise Refusal("unknown_player", "player", name=str(seat))
    limit = rules.buy_limit
    name = game.players[seat].name
    if limit == 0:
        return BuyOutcome(False, "no_buying", {}, 0)
    used = sum(1 for b in game.current_buys if b.seat == seat)
    if limit is not None and used >= limit:
        return BuyOutcome(False, "limit_reached", {"players": [name]}, 0)
    _lock(game)
    at = now()
    hands = select(db.func.count(Hand.id)).where(Hand.game_id == game.id).scalar_subquery()
    taken = select(db.func.count(Buy.id)).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                Buy.seat == seat).scalar_subquery()
    allowed = [hands == number - 1] + ([] if limit is None else [taken < limit])
    row = select(literal(game.id), literal(number), literal(seat), literal(at, Buy.created_at.type)).where(*allowed)
    new_id = db.session.execute(insert(Buy).from_select(["game_id", "hand_number", "seat", "created_at"], row)
                                .returning(Buy.id)).scalar_one_or_none()
    if new_id is None:  # another phone recorded the hand or used the last buy first
        db.session.rollback()
        if number != current_hand(game, rules):
            raise Refusal("not_current_hand", "hand", hand=number)
        return BuyOutcome(False, "limit_reached", {"players": [name]}, 0)
    change = Change(game_id=game.id, via=via, kind="buy_added", hand_number=number, seat=seat)
    db.session.add(change)
    db.session.commit()
    # what the board shows next, kept in step without reading it back
    set_committed_value(game, "current_buys", [*game.current_buys, Buy(id=new_id, game_id=game.id,
                                                                        hand_number=number, seat=seat, created_at=at)])
    set_committed_value(game, "last_undoable", change)
    db.session.expire(game, ["buys", "changes"])
    left = None if limit is None else limit - used - 1
    return BuyOutcome(True, "buy_recorded", {"player": name}, left)


def remove_buy(game: Game, number: int, seat: int, via: str = "edit link") -> bool:
    _lock(game)
    last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                   Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
    if last is None:
        db.session.rollback()
        return False
    db.session.delete(last)
    db.session.add(Change(game_id=game.id, via=via, kind="buy_removed", hand_number=number, seat=seat))
    _commit(game, "buys", "current_buys")
    return True


def set_down(game: Game, number: int, seat: int, down: bool, via: str = "edit link") -> None:
    _lock(game)
    row = db.session.execute(db.select(Down).where(Down.game_id == game.id, Down.hand_number == number,
                                                   Down.seat == seat)).scalar_one_or_none()
    if down and row is None:
        db.session.add(Down(game_id=game.id, hand_number=number, seat=seat))
    elif not down and row is not None:
        db.session.delete(row)
    else:
        db.session.rollback()
        return
    db.session.add(Change(game_id=game.id, via=via, kind="down_set" if down else "down_cleared",
                          hand_number=number, seat=seat))
    _commit(game, "downs")


def last_change(game: Game) -> Change | None:
    """The change undo would take back (read with the game row)."""
    change: Change | None = game.last_undoable
    return change


def undo(game: Game, expected_version: int | None, via: str = "edit link") -> Change:
    change = last_change(game)
    if change is None:
        raise Refusal("nothing_to_undo", None)
    _lock(game, expected_version)
    n, seat = change.hand_number, change.seat
    assert n is not None  # every change that can be undone belongs to a hand
    if change.kind == "hand_recorded":
        hand = next(h for h in game.hands if h.number == n)
        if any(h.number > n for h in game.hands):
            db.session.rollback()
            raise Refusal("undo_blocked", None)
        game.hands.remove(hand)
    elif change.kind == "hand_corrected":
        hand = next(h for h in game.hands if h.number == n)
        hand.out_seat = change.before["out_seat"]
        hand.cut_bonus = change.before.get("cut_bonus", 0)
        hand.results.clear()
        db.session.flush()
        hand.results.extend(_restored(r) for r in change.before["results"])
    elif change.kind == "buy_added":
        last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == n,
                                                       Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
        if last is not None:
            db.session.delete(last)
    elif change.kind == "buy_removed":
        db.session.add(Buy(game_id=game.id, hand_number=n, seat=seat))
    elif change.kind in ("down_set", "down_cleared"):
        _set_down_row(game, n, seat, change.kind == "down_cleared")
    elif change.kind == "ended_early":
        game.ended_at = None
    change.undone = True
    db.session.add(Change(game_id=game.id, via=via, kind="undo", hand_number=n, seat=seat,
                          before={"undid": change.id, "kind": change.kind}))
    _commit(game, "hands", "hands_recorded", "buys", "current_buys", "downs")
    return change


def _set_down_row(game: Game, number: int, seat: int | None, down: bool) -> None:
    row = db.session.execute(db.select(Down).where(Down.game_id == game.id, Down.hand_number == number,
                                                   Down.seat == seat)).scalar_one_or_none()
    if down and row is None and seat is not None:
        db.session.add(Down(game_id=game.id, hand_number=number, seat=seat))
    elif not down and row is not None:
        db.session.delete(row)


def redoable(game: Game) -> Change | None:
    """The change the last undo took back, while nothing new was done since (a new change ends redo)."""
    by_id = {c.id: c for c in game.changes}
    for c in reversed(game.changes):
        if c.kind == "undo":
            target = by_id.get(int((c.before or {}).get("undid") or 0))
            if target is not None and target.undone:
                return target
        elif c.kind in UNDOABLE:
            return None
    return None


def undone_hand(game: Game, number: int | None) -> dict[str, Any] | None:
    """The entries of hand ``number`` as they were recorded, when that recording was just undone."""
    change = redoable(game)
    if change is None or change.kind != "hand_recorded" or change.hand_number != number:
        return None
    return change.after  # type: ignore[no-any-return]


def redo(game: Game, expected_version: int | None, via: str = "edit link") -> Change:
    """Do again what the last undo took back, exactly as it was."""
    change = redoable(game)
    if change is None:
        raise Refusal("nothing_to_redo", None)
    n, seat = change.hand_number, change.seat
    assert n is not None  # every change that can be undone belongs to a hand
    if change.kind == "hand_recorded" and game.hands_recorded != n - 1:
        raise Refusal("nothing_to_redo", None)
    _lock(game, expected_version)
    if change.kind == "hand_recorded":
        after = change.after
        game.hands.append(Hand(game_id=game.id, number=n, out_seat=after["out_seat"],
                               cut_bonus=after.get("cut_bonus", 0), replay=n > len(rules_of(game).hands),
                               results=[_restored(r) for r in after["results"]]))
    elif change.kind == "hand_corrected":
        hand = next(h for h in game.hands if h.number == n)
        hand.out_seat = change.after["out_seat"]
        hand.cut_bonus = change.after.get("cut_bonus", 0)
        hand.results.clear()
        db.session.flush()
        hand.results.extend(_restored(r) for r in change.after["results"])
    elif change.kind == "buy_added":
        db.session.add(Buy(game_id=game.id, hand_number=n, seat=seat))
    elif change.kind == "buy_removed":
        last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == n,
                                                       Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
        if last is not None:
            db.session.delete(last)
    elif change.kind in ("down_set", "down_cleared"):
        _set_down_row(game, n, seat, change.kind == "down_set")
    elif change.kind == "ended_early":
        game.ended_at = now()
    change.undone = False
    db.session.add(Change(game_id=game.id, via=via, kind="redo", hand_number=n, seat=seat,
                          before={"redid": change.id, "kind": change.kind}))
    _commit(game, "hands", "hands_recorded", "buys", "current_buys", "downs")
    return change


# ------------------------------------------------------------------------------------------ ending, players
def end_early(game: Game, expected_version: int | None, via: str = "edit link") -> None:
    """The table stops before the last hand: the game is over with the standings of the hands played."""
    st = state(game)
    if st.finished:
        raise Refusal("game_over", None)
    if not st.hands:
        raise Refusal("nothing_to_end", None)
    _lock(game, expected_version)
    game.ended_at = now()
    db.session.add(Change(game_id=game.id, via=via, kind="ended_early", hand_number=len(st.hands),
                          after={"hands": len(st.hands)}))
    _commit(game)


def rename_player(game: Game, seat: int, name: Any, via: str = "edit link") -> bool:
    """A player's new name, at any point of the game (kept in the history); False when it is the same."""
    if not isinstance(seat, int) or not 0 <= seat < len(game.players):
        raise Refusal("unknown_player", "player", name=str(seat)[:40])
    if not isinstance(name, str):
        raise Refusal("bad_players", f"name_{seat}")
    new = clean_name(name, f"name_{seat}")
    player = game.players[seat]
    if new == player.name:
        return False
    if any(p.name.casefold() == new.casefold() for p in game.players if p.seat != seat):
        raise Refusal("duplicate_name", f"name_{seat}")
    _lock(game)
    old = player.name
    player.name = new
    db.session.add(Change(game_id=game.id, via=via, kind="renamed", seat=seat, before={"name": old},
                          after={"name": new}))
    _commit(game)
    return True


def reorder_seats(game: Game, order: Any, via: str = "edit link") -> None:
    """The players in a new seat order (``order``: the old seats, in their new order), before the first hand is
    recorded. Buys and who has gone down follow their players; so does the first deal."""
    n = len(game.players)
    if not isinstance(order, list) or sorted(order) != list(range(n)):
        raise Refusal("bad_players", "players")
    if game.hands_recorded:
        raise Refusal("seats_fixed", "players")
    if order == list(range(n)):
        return
    _lock(game)
    new_seat = {old: new for new, old in enumerate(order)}
    before = [p.name for p in game.players]
    players = list(game.players)
    for p in players:  # out of the way first: (game, seat) is unique
        p.seat += n
    db.session.flush()
    for p in players:
        p.seat = new_seat[p.seat - n]
    rows: list[Buy | Down | Change] = [*game.buys, *game.downs, *game.changes]
    for row in rows:
        if row.seat is not None:
            row.seat = new_seat.get(row.seat, row.seat)
    game.first_dealer = new_seat[game.first_dealer]
    db.session.flush()
    db.session.add(Change(game_id=game.id, via=via, kind="seats_reordered", before={"names": before},
                          after={"names": [before[i] for i in order]}))
    _commit(game, "players", "buys", "current_buys", "downs")


def _restored(row: dict[str, Any]) -> Result:
    """A result as a snapshot kept it (snapshots from before the bonus was kept apart hold the score alone)."""
    return Result(seat=row["seat"], penalty=row["penalty"], bonus=row.get("bonus", 0), cards=row["cards"])


def delete_game(game: Game) -> None:
    db.session.delete(game)
    db.session.commit()


# ------------------------------------------------------------------------------------------ export / import
def export_data(game: Game) -> dict[str, Any]:
    st = state(game)
    return {
        "format": EXPORT_FORMAT,
        "ruleset": game.family,
        "variants": list(game.variants),
        "options": dict(game.options),
        "players": st.names,
        "first_dealer": game.first_dealer,
        "created_at": game.created_at.isoformat() if game.created_at else None,
        "hands": [{"hand": h.number, "out": None if h.out_seat is None else st.names[h.out_seat],
                   "exact_cut": bool(h.cut_bonus), "replay": bool(h.replay),
                   "leftovers": {st.names[r.seat]: r.cards for r in h.results if r.seat != h.out_seat},
                   "penalties": {st.names[r.seat]: r.score for r in h.results}} for h in game.hands],
        "buys": [{"hand": b.hand_number, "player": st.names[b.seat]} for b in sorted(game.buys, key=lambda b: b.id)],
        "down": [{"hand": d.hand_number, "player": st.names[d.seat]} for d in game.downs],
        "totals": st.totals,
        "ended_early": st.ended_early,
        "winners": list(st.result.winners) if st.finished and st.result else None,
    }


def import_data(data: Any) -> tuple[Game, str]:
    """A new game that is exactly the exported one (its hands, typed totals, buys and who went down)."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise Refusal("bad_import", None)
    names = data.get("players")
    game, edit = create_game(data.get("ruleset"), data.get("variants"), data.get("options"), names,
                             data.get("first_dealer", 0), via="import")
    seat = {n: i for i, n in enumerate(game.players[i].name for i in range(len(game.players)))}
    try:
        for b in data.get("buys") or []:
            db.session.add(Buy(game_id=game.id, hand_number=int(b["hand"]), seat=seat[b["player"]]))
        for d in data.get("down") or []:
            db.session.add(Down(game_id=game.id, hand_number=int(d["hand"]), seat=seat[d["player"]]))
        _commit(game, "buys", "current_buys", "downs")
        for h in data.get("hands") or []:
            out = h.get("out")
            entries = {}
            exact_cut = bool(h.get("exact_cut"))
            for name, cards in (h.get("leftovers") or {}).items():
                if cards is None:  # a typed total (the bonus, if any, was taken off it when it was recorded)
                    total = int(h["penalties"][name])
                    if exact_cut and name == cutter_of(game, int(h["hand"])):
                        total += rules_of(game).exact_cut_bonus
                    entries[seat[name]] = entry(total=total)
                else:
                    entries[seat[name]] = entry(list(cards))
            record_hand(game, int(h["hand"]), None if out is None else seat[out], entries, via="import",
                        exact_cut=exact_cut)
        if data.get("ended_early") is True:
            end_early(game, None, via="import")
    except (KeyError, TypeError, ValueError) as e:
        db.session.rollback()
        delete_game(game)
        if isinstance(e, RefereeError):
            raise
        raise Refusal("bad_import", None) from None
    except RefereeError:
        delete_game(game)
        raise
    return game, edit


def cutter_of(game: Game, number: int) -> str:
    rules = rules_of(game)
    return deal_order(rules, [p.name for p in game.players], number, game.first_dealer).cutter


def export_csv(game: Game) -> str:
    st = state(game)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["hand", "out", *st.names])
    for row in st.hands:
        w.writerow([row.number, row.out or "", *[row.penalties.get(n, 0) for n in st.names]])
    w.writerow(["total", "", *[st.totals[n] for n in st.names]])
    return buf.getvalue()
