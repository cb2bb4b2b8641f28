"""A game's writes: record and correct hands, buys, who has gone down, ending early, deleting (a new game is
``create``'s, renames and seats ``seating``'s, undo and redo ``changes``', files ``transfer``'s). Every rule
fact comes from the engine (``referee``); every change is kept in the game's history.

Writes to one game are serialised: each starts by bumping the game's version (an UPDATE that takes the row's
write lock on PostgreSQL and the database's on SQLite), and only then checks what it read: the hand count, the
last change, the buys, and the version the page was drawn from. If another write came in between the read and
the lock (the version moved), the game is read again under the lock first. So two phones never both pass a
check that only one of them may pass (an undo and a save of the next hand, two corrections), and a refused
write rolls back with nothing changed; two phones recording the same hand also meet the (game, hand) unique
constraint.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from sqlalchemy import bindparam, insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ...budget import current as request_budget
from ...cards import CardError, Leftover
from ...families import Rules
from ...history import (
    BuyAdded,
    BuyRemoved,
    DownCleared,
    DownSet,
    EndedEarly,
    HandCorrected,
    HandRecorded,
    HandSnapshot,
    ResultSnapshot,
)
from ...scoring import Entry, score_hand
from ...table import buy_refused, buys_left, deal_order
from ..errors import Refusal
from ..models import (
    Buy,
    Change,
    Down,
    Game,
    GroupGame,
    Hand,
    Result,
    begin_write,
    db,
    now,
)
from .create import new_token
from .gamestate import joined, rules_at, rules_of, seating, state, totals
from .reads import GAMES, HANDS, RESULTS, token_hash


# ------------------------------------------------------------------------------------------- scoring
def entry(cards: Any = None, total: int | None = None) -> Entry:
    """One player's leftovers as card tokens in the notation (a list, or one string: an import, the API), and/or
    a total. (A form reads its cards in the reader's letters: ``forms.HandFormBase.entered``.)"""
    try:
        parsed = Leftover.parse_all(cards) if cards else ()
    except CardError as e:
        raise Refusal("bad_card", None, status=422, text=e.text[:20]) from None
    return Entry(parsed or None, total)


def score(game: Game, rules: Rules, number: int, out_seat: int | None, entries: dict[int, Entry],
          exact_cut: bool = False, buys: Counter[int] | None = None) -> list[Result]:
    """The engine scores the hand (refusing what no deal could produce); the rows to store what it returned.
    ``buys``: each seat's buys in the hand, where the caller knows them (an import), else read."""
    names = [p.name for p in game.players]
    if buys is None:
        buys = Counter(b.seat for b in (game.current_buys if number == game.hands_recorded + 1 else
                                        [b for b in game.buys if b.hand_number == number]))
    first, away = seating(game, number)
    cutter = names.index(deal_order(rules, names, number, game.first_dealer, first).cutter)
    if away:  # a hand played before a player sat down: its pack was the one for the players then
        rules = rules_at(game, number)
    scored = score_hand(rules, number, names, out_seat, entries, buys, cutter, exact_cut, away)
    if scored.violations:
        v = scored.violations[0]
        raise Refusal(v.code, v.field, **v.params)
    if request_budget().spent:  # a check cut short: the entry is neither refused nor taken on trust
        raise Refusal("too_much_work", None)
    return [Result(seat=s.seat, penalty=s.penalty, bonus=s.bonus,
                   cards=None if s.cards is None else [str(c) for c in s.cards]) for s in scored.seats]


# ------------------------------------------------------------------------------------------- writes
MAX_VERSION = 2**31 - 1  # a version no page holds: the column is a 32-bit integer


_BUMP = (update(GAMES).where(GAMES.c.id == bindparam("game"))
         .values(version=GAMES.c.version + 1, updated_at=bindparam("at")).returning(GAMES.c.version))


class Write:
    """One write to a game, as a ``with`` block. It takes the game's lock first (the version bump); if another
    write came in since the game was read, everything read is expired and read again under the lock, so every
    check the block makes is made on what the lock holds. The block sends its rows (what the tables refuse is
    refused here, inside the write), or rolls back if it raises or ``cancel``s; the request that asked for the
    write commits it, at its edge (a route, right after the call). The attributes named in ``changed`` are read
    again when next used (objects keep their state over a commit: ``models.db``). ``version`` is the game's
    version before this write."""

    def __init__(self, game: Game, *changed: str, request_id: str | None = None) -> None:
        self.game = game
        self.changed = changed
        self.cancelled = False
        self.version = 0
        self.request_id = request_id
        self.replayed: Any = None  # the change this request made already (a retry), found under the lock

    def __enter__(self) -> Write:
        begin_write()  # (SQLite: the file's write lock, from here to the commit)
        read = self.game.version
        at = now()
        # (a statement on the table: the session is told below what changed)
        bumped = db.session.execute(_BUMP, {"game": self.game.id, "at": at}).scalar()
        if bumped is None:  # deleted meanwhile
            db.session.rollback()
            raise Refusal("stale", None)
        self.version = bumped - 1
        if self.request_id is not None:
            self.replayed = db.session.execute(_APPLIED, {"game": self.game.id, "request": self.request_id}).first()
        if self.version != read:  # another phone wrote after this request read the game: read it again
            db.session.expire_all()
        set_committed_value(self.game, "version", bumped)
        set_committed_value(self.game, "updated_at", at)
        return self

    def expect(self, version: int | None) -> None:
        """Refuse the write if the page was drawn from another version of the game than the one locked."""
        if version is not None and version != self.version:
            raise Refusal("stale", None)

    def cancel(self) -> None:
        self.cancelled = True

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if kind is not None or self.cancelled:
            db.session.rollback()
            return
        try:
            db.session.flush()
        except BaseException:
            db.session.rollback()
            raise
        if self.changed:
            db.session.expire(self.game, list(self.changed))


# The change a request made, found by the id the phone sent with it: a request sent again (the connection dropped
# before the answer came, or the phone kept it while offline) is answered as the first was, and written once.
_APPLIED = (select(Change.__table__.c.kind, Change.__table__.c.hand_number, Change.__table__.c.seat)
            .where(Change.__table__.c.game_id == bindparam("game"),
                   Change.__table__.c.request_id == bindparam("request")))


def version_arg(version: Any) -> int | None:
    """A version as a page or a client sends it: a whole number, or None for "whatever it is now"."""
    if version is None:
        return None
    if not isinstance(version, int) or isinstance(version, bool) or not 0 < version <= MAX_VERSION:
        raise Refusal("stale", None)  # no game ever had this version
    return version


def current_hand(game: Game, rules: Rules) -> int | None:
    """The hand being played (None once the last is recorded), from the count read with the game row."""
    number: int = game.hands_recorded + 1
    return number if number <= len(rules.hands) and game.ended_at is None else None


class _HandLike(Protocol):  # a mapped ``Hand``, or a hand an import plays back (``transfer``)
    @property
    def out_seat(self) -> int | None: ...
    @property
    def cut_bonus(self) -> int: ...
    @property
    def results(self) -> Sequence[Result]: ...


def snapshot(hand: _HandLike) -> HandSnapshot:
    """What the history keeps of a hand (to undo or redo it, and to put an undone hand's entries back)."""
    return HandSnapshot(hand.out_seat, hand.cut_bonus, tuple(
        ResultSnapshot(r.seat, r.penalty, r.bonus, None if r.cards is None else tuple(r.cards))
        for r in hand.results))


RECORDED = ("last_undoable", "changes", "hands", "hands_recorded", "current_buys")


class Saved(NamedTuple):
    """A hand as a save wrote it, and, when asked for (``with_totals``), each player's total with it: read inside
    the save's transaction, so they are the totals this save left, and on PostgreSQL no further transaction is
    opened and rolled back to read them (two round trips, and psycopg drops its prepared statements after a
    rollback)."""

    hand: Hand  # (a retry of a save already made: the hand as read, nothing written)
    totals: dict[str, int] | None  # None for such a retry


def record_hand(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry],
                via: str = "edit link", exact_cut: bool = False, expected_version: Any = None,
                with_totals: bool = False, request_id: str | None = None) -> Saved:
    """Record the next hand. ``expected_version``, when given, is the version the page was drawn from: if
    the game changed since, nothing is saved (the hand already recorded by another phone is said first).
    ``request_id``, when given, makes a retry of the same save answer with the hand it recorded (nothing
    written) instead of recording the hand twice or calling it another phone's."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise Refusal("bad_hand", "hand")
    expected = version_arg(expected_version)
    read = game.version
    # scored before the turn to write is taken, and refused there: a refusal never holds the other saves up
    # (unless the page is older than the game: then the write says so first)
    early = _scored_early(game, number, out_seat, entries, exact_cut) if expected in (None, read) else None
    try:
        with Write(game, *RECORDED, request_id=request_id) as w:
            if w.replayed is not None and w.replayed.kind == "hand_recorded":
                w.cancel()
                hand = next((h for h in game.hands if h.number == w.replayed.hand_number), None)
                if hand is not None:  # (undone since: said as the hand already recorded, then undone)
                    return Saved(hand, None)
            if number <= game.hands_recorded:
                raise Refusal("already_recorded", "hand", hand=number)
            w.expect(expected)
            return _record(game, number, out_seat, entries, via, exact_cut,
                           scored=early if w.version == read else None, with_totals=with_totals,
                           request_id=request_id)
    except IntegrityError:
        raise Refusal("already_recorded", "hand", hand=number) from None


def _scored_early(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry],
                  exact_cut: bool) -> list[Result] | None:
    """The next hand scored from the game as read, before the turn to write is taken: the turn is then held for
    the writes only, while the other phones' saves wait. Used only if nothing was written meanwhile (the version
    the turn finds is the one read); anything but the plain next hand is left to the write. A refusal is raised
    here, once: what the entry says is refused whatever another phone writes meanwhile."""
    rules = rules_of(game)
    if number != game.hands_recorded + 1 or number > len(rules.hands) or game.ended_at is not None:
        return None
    return score(game, rules, number, out_seat, entries, exact_cut)


@dataclass
class PlayedBack:
    """What an import knows as it plays a game back hand after hand, so that a hand's checks need not read the
    game again: the hands recorded, whether the last is to be replayed, this hand's buys."""

    recorded: int
    replay_due: bool
    buys: Counter[int]


def checked(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry], exact_cut: bool,
             scored: list[Result] | None = None, known: PlayedBack | None = None) -> tuple[list[Result], bool]:
    """Check that ``number`` is the next hand and score it (unless ``scored`` early from the same version): its
    results, and whether it is the last hand replayed. ``known``: what an import knows of the game (then the
    game is not read: nothing here touches the database)."""
    rules = rules_of(game)
    recorded = known.recorded if known is not None else game.hands_recorded
    if number <= recorded:
        raise Refusal("already_recorded", "hand", hand=number)
    if known is None and game.ended_at is not None:  # (an import ends a game only after its hands)
        raise Refusal("game_ended", "hand", hand=recorded)
    replay_due = known.replay_due if known is not None else None
    if number > len(rules.hands) and replay_due is None:
        replay_due = state(game).replay_due
    replay = number > len(rules.hands) and bool(replay_due)
    if number > len(rules.hands) and not replay:
        raise Refusal("past_last_hand", "hand", hand=number, hands=len(rules.hands))
    if number != recorded + 1:
        raise Refusal("not_next_hand", "hand", hand=number, next=recorded + 1)
    results = scored if scored is not None else score(game, rules, number, out_seat, entries, exact_cut,
                                                      None if known is None else known.buys)
    return results, replay


def _record(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry], via: str,
            exact_cut: bool, scored: list[Result] | None = None, with_totals: bool = False,
            request_id: str | None = None) -> Saved:
    """Inside a write: check that ``number`` is the next hand, score it (unless ``scored`` early from the same
    version) and add it; with the totals it leaves if asked for."""
    results, replay = checked(game, number, out_seat, entries, exact_cut, scored)
    # Written with statements on the tables (SQLAlchemy Core, in the session's transaction), not through the
    # session's unit of work: this runs while every other save on the game waits its turn. The hand returned is
    # what was written (not in the session); ``Write`` expires an ORM game's hands after, so what reads them next
    # reads them again.
    hand = Hand(game_id=game.id, number=number, out_seat=out_seat, cut_bonus=max(r.bonus for r in results),
                replay=replay, results=results)
    hand.id = db.session.execute(insert(HANDS).returning(HANDS.c.id), {
        "game_id": game.id, "number": number, "out_seat": out_seat, "cut_bonus": hand.cut_bonus,
        "replay": replay}).scalar_one()
    db.session.execute(insert(RESULTS), [{"hand_id": hand.id, "seat": r.seat, "penalty": r.penalty,
                                          "bonus": r.bonus, "cards": r.cards} for r in results])
    db.session.execute(insert(Change.__table__), {
        "game_id": game.id, "via": via, **HandRecorded(number, snapshot(hand)).stored(), "request_id": request_id})
    return Saved(hand, totals(game) if with_totals else None)


def correct_hand(game: Game, number: int, out_seat: int | None, entries: dict[int, Entry],
                 expected_version: Any, via: str = "edit link", exact_cut: bool = False,
                 with_totals: bool = False, request_id: str | None = None) -> Saved:
    if not any(h.number == number for h in game.hands):
        raise Refusal("no_such_hand", "hand", hand=number)
    expected = version_arg(expected_version)
    with Write(game, "last_undoable", "changes", request_id=request_id) as w:
        hand = next((h for h in game.hands if h.number == number), None)
        if w.replayed is not None and hand is not None:  # the same correction sent again: made once
            w.cancel()
            return Saved(hand, None)
        w.expect(expected)
        if hand is None:  # undone since the page was drawn
            raise Refusal("stale", None)
        results = score(game, rules_of(game), number, out_seat, entries, exact_cut)
        before = snapshot(hand)
        hand.out_seat = out_seat
        hand.cut_bonus = max(r.bonus for r in results)
        hand.results.clear()
        db.session.flush()
        hand.results.extend(results)
        db.session.flush()
        db.session.add(Change(game_id=game.id, via=via, **HandCorrected(number, before, snapshot(hand)).stored(),
                              request_id=request_id))
        summed = totals(game) if with_totals else None
    return Saved(hand, summed)


@dataclass
class BuyOutcome:
    added: bool
    reason: str  # a verdicts code
    params: dict[str, Any]
    left: int | None


def add_buy(game: Game, number: int, seat: int, via: str = "edit link",
            request_id: str | None = None) -> BuyOutcome:
    """One more buy for a player in the current hand, if the family's limit allows it.

    The limit is checked under the game's lock, and again by the INSERT itself (which adds the row only while
    the hand is the one being played and the player is under the limit). A request sent again with the same
    ``request_id`` (a retry) adds nothing."""
    rules = rules_of(game)
    with Write(game, "buys", "current_buys", "changes", "last_undoable", request_id=request_id) as w:
        if w.replayed is not None:  # answered as the first send was: the buy it added, the buys left now
            w.cancel()
            hand_of, seat_of = w.replayed.hand_number, w.replayed.seat
            used: int = db.session.execute(select(db.func.count(Buy.id)).where(
                Buy.game_id == game.id, Buy.hand_number == hand_of, Buy.seat == seat_of)).scalar_one()
            return BuyOutcome(True, "buy_recorded", {"player": game.players[seat_of].name}, buys_left(rules, used))
        if number != current_hand(game, rules):
            raise Refusal("not_current_hand", "hand", hand=number)
        if not 0 <= seat < len(game.players):
            raise Refusal("unknown_player", "player", name=str(seat))
        name = game.players[seat].name
        used = sum(1 for b in game.current_buys if b.seat == seat)
        refused = buy_refused(rules, used)
        if refused is not None:
            w.cancel()
            return BuyOutcome(False, refused, {"players": [name]} if refused == "limit_reached" else {}, 0)
        at = now()
        hands = select(db.func.count(Hand.id)).where(Hand.game_id == game.id).scalar_subquery()
        taken = select(db.func.count(Buy.id)).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                    Buy.seat == seat).scalar_subquery()
        limit = rules.buy_limit  # the INSERT's own guard, for a buy from another phone
        allowed = [hands == number - 1] + ([] if limit is None else [taken < limit])
        row = select(literal(game.id), literal(number), literal(seat), literal(at, Buy.created_at.type)).where(*allowed)
        new_id = db.session.execute(insert(Buy).from_select(["game_id", "hand_number", "seat", "created_at"], row)
                                    .returning(Buy.id)).scalar_one_or_none()
        if new_id is None:  # (cannot happen under the lock; said as the limit if it ever does)
            w.cancel()
            return BuyOutcome(False, "limit_reached", {"players": [name]}, 0)
        db.session.add(Change(game_id=game.id, via=via, **BuyAdded(number, seat).stored(), request_id=request_id))
    return BuyOutcome(True, "buy_recorded", {"player": name}, buys_left(rules, used + 1))


def remove_buy(game: Game, number: int, seat: int, via: str = "edit link",
               request_id: str | None = None) -> bool:
    with Write(game, "last_undoable", "changes", "buys", "current_buys", request_id=request_id) as w:
        if w.replayed is not None:
            w.cancel()
            return True
        last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                       Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
        if last is None:
            w.cancel()
            return False
        db.session.delete(last)
        db.session.add(Change(game_id=game.id, via=via, **BuyRemoved(number, seat).stored(), request_id=request_id))
    return True


def set_down(game: Game, number: int, seat: int, down: bool, via: str = "edit link",
             request_id: str | None = None) -> None:
    """Mark (or clear) that a player has gone down in the hand being played; other hands are left alone (a tap
    that waited on a phone while the hand was recorded is refused, so that the phone says so)."""
    with Write(game, "last_undoable", "changes", "downs", request_id=request_id) as w:
        if w.replayed is not None or not 0 <= seat < len(game.players):
            w.cancel()
            return
        if number != current_hand(game, rules_of(game)):
            raise Refusal("not_current_hand", "hand", hand=number)
        row = db.session.execute(db.select(Down).where(Down.game_id == game.id, Down.hand_number == number,
                                                       Down.seat == seat)).scalar_one_or_none()
        if down and row is None:
            db.session.add(Down(game_id=game.id, hand_number=number, seat=seat))
        elif not down and row is not None:
            db.session.delete(row)
        else:
            w.cancel()
            return
        move = DownSet(number, seat) if down else DownCleared(number, seat)
        db.session.add(Change(game_id=game.id, via=via, **move.stored(), request_id=request_id))


# ------------------------------------------------------------------------------------------ ending, players
def end_early(game: Game, expected_version: Any, via: str = "edit link") -> None:
    """The table stops before the last hand: the game is over with the standings of the hands played."""
    expected = version_arg(expected_version)
    with Write(game, "last_undoable", "changes") as w:
        st = state(game)
        if st.finished:
            raise Refusal("game_over", None)
        if not st.hands:
            raise Refusal("nothing_to_end", None)
        w.expect(expected)
        game.ended_at = now()
        db.session.add(Change(game_id=game.id, via=via, **EndedEarly(len(st.hands)).stored()))


def delete_game(game: Game) -> None:
    """The game's links stop working (the caller commits). A group's game keeps its hands for the group's
    stats; any other game goes with everything it holds."""
    link = db.session.get(GroupGame, game.id)
    if link is not None:
        game.edit_hash = token_hash(new_token())
        game.view_token = new_token()
        link.deleted_at = now()
    else:
        db.session.delete(game)


def cutter_of(game: Game, number: int) -> str:
    rules = rules_of(game)
    return deal_order(rules, [p.name for p in game.players], number, game.first_dealer, joined(game)).cutter
