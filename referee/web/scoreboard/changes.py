"""A game's history: undo takes back the last change that can be undone, redo does again what the last undo
took back, exactly as it was (while nothing new was done since). Each change keeps what it needs for both (a
hand's snapshot, ``services.snapshot``)."""

from __future__ import annotations

from typing import Any

from ..errors import Refusal
from ..models import UNDOABLE, Buy, Change, Down, Game, Hand, Result, db, now
from .gamestate import rules_of
from .services import Write, version_arg

# What an undo or a redo may change of a game, read again after it
MOVED = ("last_undoable", "changes", "hands", "hands_recorded", "buys", "current_buys", "downs")


def last_change(game: Game) -> Change | None:
    """The change undo would take back (read with the game row)."""
    change: Change | None = game.last_undoable
    return change


def undo(game: Game, expected_version: Any, via: str = "edit link") -> Change:
    expected = version_arg(expected_version)
    with Write(game, *MOVED) as w:
        change = last_change(game)
        if change is None:
            raise Refusal("nothing_to_undo", None)
        w.expect(expected)
        _undo(game, change)
        db.session.add(Change(game_id=game.id, via=via, kind="undo", hand_number=change.hand_number,
                              seat=change.seat, before={"undid": change.id, "kind": change.kind}))
    return change


def _undo(game: Game, change: Change) -> None:
    n, seat = change.hand_number, change.seat
    assert n is not None  # every change that can be undone belongs to a hand
    if change.kind == "hand_recorded":
        if any(h.number > n for h in game.hands):
            raise Refusal("undo_blocked", None)
        game.hands.remove(next(h for h in game.hands if h.number == n))
    elif change.kind == "hand_corrected":
        _put_back(next(h for h in game.hands if h.number == n), change.before)
    elif change.kind == "buy_added":
        _take_back_buy(game, n, seat)
    elif change.kind == "buy_removed":
        db.session.add(Buy(game_id=game.id, hand_number=n, seat=seat))
    elif change.kind in ("down_set", "down_cleared"):
        _set_down_row(game, n, seat, change.kind == "down_cleared")
    elif change.kind == "ended_early":
        game.ended_at = None
    change.undone = True


def _take_back_buy(game: Game, number: int, seat: int | None) -> None:
    """The player's latest buy in the hand, taken back (an undone buy, or a redone removal of one)."""
    last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                   Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
    if last is not None:
        db.session.delete(last)


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


def redo(game: Game, expected_version: Any, via: str = "edit link") -> Change:
    """Do again what the last undo took back, exactly as it was."""
    expected = version_arg(expected_version)
    with Write(game, *MOVED) as w:
        change = redoable(game)
        if change is None:
            raise Refusal("nothing_to_redo", None)
        n, seat = change.hand_number, change.seat
        assert n is not None  # every change that can be undone belongs to a hand
        if change.kind == "hand_recorded" and game.hands_recorded != n - 1:
            raise Refusal("nothing_to_redo", None)
        w.expect(expected)
        if change.kind == "hand_recorded":
            after = change.after
            game.hands.append(Hand(game_id=game.id, number=n, out_seat=after["out_seat"],
                                   cut_bonus=after.get("cut_bonus", 0), replay=n > len(rules_of(game).hands),
                                   results=[_restored(r) for r in after["results"]]))
        elif change.kind == "hand_corrected":
            _put_back(next(h for h in game.hands if h.number == n), change.after)
        elif change.kind == "buy_added":
            db.session.add(Buy(game_id=game.id, hand_number=n, seat=seat))
        elif change.kind == "buy_removed":
            _take_back_buy(game, n, seat)
        elif change.kind in ("down_set", "down_cleared"):
            _set_down_row(game, n, seat, change.kind == "down_set")
        elif change.kind == "ended_early":
            game.ended_at = now()
        change.undone = False
        db.session.add(Change(game_id=game.id, via=via, kind="redo", hand_number=n, seat=seat,
                              before={"redid": change.id, "kind": change.kind}))
    return change


def _put_back(hand: Hand, snap: dict[str, Any]) -> None:
    """A recorded hand made again as the history's snapshot of it holds it (an undone or redone correction)."""
    hand.out_seat = snap["out_seat"]
    hand.cut_bonus = snap.get("cut_bonus", 0)
    hand.results.clear()
    db.session.flush()
    hand.results.extend(_restored(r) for r in snap["results"])


def _restored(row: dict[str, Any]) -> Result:
    """A result as a snapshot kept it (snapshots from before the bonus was kept apart hold the score alone)."""
    return Result(seat=row["seat"], penalty=row["penalty"], bonus=row.get("bonus", 0), cards=row["cards"])
