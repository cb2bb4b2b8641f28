"""A game's history on its tables: undo takes back the last move that can be undone, redo does again what the
last undo took back, exactly as it was (while nothing new was done since). The moves, their inverses and the
stack's rules are the engine's (``referee.history``); ``apply`` is the one place a move reaches the tables."""

from __future__ import annotations

from typing import Any

from ...history import (
    BuyAdded,
    BuyRemoved,
    DownCleared,
    DownSet,
    EndedEarly,
    HandCorrected,
    HandRecorded,
    HandRemoved,
    HandSnapshot,
    Line,
    Move,
    MoveStack,
    PlayerJoined,
    PlayerLeft,
    Resumed,
    move_of,
    redo_refusal,
    undo_refusal,
)
from ..errors import Refusal
from ..models import Buy, Change, Down, Game, Hand, Result, db, now
from .gamestate import rules_of
from .seating import seat_player, unseat_player
from .services import Write, version_arg

# What an undo or a redo may change of a game, read again after it
MOVED = ("last_undoable", "changes", "hands", "hands_recorded", "buys", "current_buys", "downs", "players")


def last_change(game: Game) -> Change | None:
    """The change undo would take back (read with the game row: the stack's ``undoable``, in SQL)."""
    change: Change | None = game.last_undoable
    return change


def move_in(change: Change) -> Move | None:
    """The move a line of the history keeps (None for a line that is none)."""
    return move_of(change.kind, change.hand_number, change.seat, change.before, change.after)


def stack_of(game: Game) -> MoveStack:
    """The game's history as the engine's move stack."""
    return MoveStack([Line(c.id, move_in(c), c.undone,
                           undid=int((c.before or {}).get("undid") or 0) if c.kind == "undo" else None)
                      for c in game.changes])


def undo(game: Game, expected_version: Any, via: str = "edit link") -> Change:
    expected = version_arg(expected_version)
    with Write(game, *MOVED) as w:
        change = last_change(game)
        move = None if change is None else move_in(change)
        if change is None or move is None:
            raise Refusal("nothing_to_undo", None)
        w.expect(expected)
        refused = undo_refusal(move, game.hands_recorded)
        if refused is not None:
            raise Refusal(refused, None)
        apply(game, move.inverse())
        change.undone = True
        db.session.add(Change(game_id=game.id, via=via, kind="undo", hand_number=change.hand_number,
                              seat=change.seat, before={"undid": change.id, "kind": change.kind} | _named(change)))
    return change


def redoable(game: Game) -> Change | None:
    """The change the last undo took back, while nothing new was done since (a new change ends redo)."""
    line = stack_of(game).redoable()
    return None if line is None else next(c for c in game.changes if c.id == line.id)


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
        move = None if change is None else move_in(change)
        refused = redo_refusal(move, game.hands_recorded)
        if change is None or move is None or refused is not None:
            raise Refusal(refused or "nothing_to_redo", None)
        w.expect(expected)
        apply(game, move)
        change.undone = False
        db.session.add(Change(game_id=game.id, via=via, kind="redo", hand_number=change.hand_number,
                              seat=change.seat, before={"redid": change.id, "kind": change.kind} | _named(change)))
    return change


def _named(change: Change) -> dict[str, Any]:
    """The name an undo or redo line keeps of a late player's sitting down (their seat may be empty again)."""
    return {"name": change.after["name"]} if change.kind == "player_joined" and change.after else {}


def apply(game: Game, move: Move) -> None:
    """A move made on the game's tables (inside a write): what a move, its undo (its inverse) and its redo do."""
    n = move.hand
    match move:
        case HandRecorded(hand_as=snap):
            game.hands.append(Hand(game_id=game.id, number=n, out_seat=snap.out_seat, cut_bonus=snap.cut_bonus,
                                   replay=n > len(rules_of(game).hands), results=_restored(snap)))
        case HandRemoved():
            game.hands.remove(next(h for h in game.hands if h.number == n))
        case HandCorrected(after=snap):
            hand = next(h for h in game.hands if h.number == n)
            hand.out_seat, hand.cut_bonus = snap.out_seat, snap.cut_bonus
            hand.results.clear()
            db.session.flush()
            hand.results.extend(_restored(snap))
        case BuyAdded(seat=seat):
            db.session.add(Buy(game_id=game.id, hand_number=n, seat=seat))
        case BuyRemoved(seat=seat):
            _take_back_buy(game, n, seat)
        case DownSet(seat=seat) | DownCleared(seat=seat):
            row = db.session.execute(db.select(Down).where(Down.game_id == game.id, Down.hand_number == n,
                                                           Down.seat == seat)).scalar_one_or_none()
            if isinstance(move, DownSet) and row is None:
                db.session.add(Down(game_id=game.id, hand_number=n, seat=seat))
            elif isinstance(move, DownCleared) and row is not None:
                db.session.delete(row)
        case EndedEarly():
            game.ended_at = now()
        case Resumed():
            game.ended_at = None
        case PlayerJoined():
            seat_player(game, move)
        case PlayerLeft():
            unseat_player(game, move)


def _take_back_buy(game: Game, number: int, seat: int | None) -> None:
    """The player's latest buy in the hand, taken back (an undone buy, or a redone removal of one)."""
    last = db.session.execute(db.select(Buy).where(Buy.game_id == game.id, Buy.hand_number == number,
                                                   Buy.seat == seat).order_by(Buy.id.desc())).scalars().first()
    if last is not None:
        db.session.delete(last)


def _restored(snap: HandSnapshot) -> list[Result]:
    """A hand's results as a snapshot kept them."""
    return [Result(seat=r.seat, penalty=r.penalty, bonus=r.bonus, cards=None if r.cards is None else list(r.cards))
            for r in snap.results]
