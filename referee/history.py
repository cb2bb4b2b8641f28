"""A game's history as typed moves, and undo and redo as a move stack (python-chess's ``move_stack``, with its
``push`` and ``pop``).

Every change that undo can take back is a ``Move`` of one hand: a hand recorded or corrected, a buy added or
taken back, a player down or not, the game ended early, a player who sat down late. Each move has an
``inverse``, the move that does the opposite, so one function that applies a move (the web layer's, on its
tables) applies the move, its undo (the inverse) and its redo (the move again). A move is stored as a kind, a
hand, a seat and what was before and after (``stored`` and ``move_of``: JSON-ready, round trip).

``MoveStack`` reads the stored history (its moves, which of them are undone, and the undo and redo lines): the
move undo would take back (the newest not undone) and the one redo would do again (what the last undo took
back, while nothing new was done since); ``undo_refusal`` and ``redo_refusal`` say whether each may be done
now (a refusal's code, or None).

>>> stack = MoveStack([Line(1, BuyAdded(1, 2)), Line(2, DownSet(1, 0))])
>>> stack.undoable().move
DownSet(hand=1, seat=0)
>>> stack.undoable().move.inverse()
DownCleared(hand=1, seat=0)
>>> MoveStack([Line(1, BuyAdded(1, 2)), Line(2, DownSet(1, 0), undone=True), Line(3, None, undid=2)]).redoable().id
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class ResultSnapshot:
    seat: int
    penalty: int  # what the cards left cost
    bonus: int  # taken off for an exact cut
    cards: tuple[str, ...] | None  # None: a typed total


@dataclass(frozen=True)
class HandSnapshot:
    """A recorded hand as the history keeps it: enough to put it back exactly."""

    out_seat: int | None  # None: the stock ran out
    cut_bonus: int
    results: tuple[ResultSnapshot, ...]

    def to_json(self) -> dict[str, Any]:
        return {"out_seat": self.out_seat, "cut_bonus": self.cut_bonus,
                "results": [{"seat": r.seat, "penalty": r.penalty, "bonus": r.bonus,
                             "cards": None if r.cards is None else list(r.cards)} for r in self.results]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandSnapshot:
        """As ``to_json`` wrote it (snapshots from before the bonus was kept apart hold the score alone)."""
        return cls(data["out_seat"], data.get("cut_bonus", 0),
                   tuple(ResultSnapshot(r["seat"], r["penalty"], r.get("bonus", 0),
                                        None if r["cards"] is None else tuple(r["cards"]))
                         for r in data["results"]))


@dataclass(frozen=True)
class Move:
    """A change of one hand that undo can take back."""

    kind: ClassVar[str]
    hand: int

    def inverse(self) -> Move:
        raise NotImplementedError

    def stored(self) -> dict[str, Any]:
        """The fields of the history's line that keep this move: its kind, hand, seat, before and after."""
        return {"kind": self.kind, "hand_number": self.hand, "seat": getattr(self, "seat", None),
                "before": None, "after": None}


@dataclass(frozen=True)
class HandRecorded(Move):
    kind: ClassVar[str] = "hand_recorded"
    hand_as: HandSnapshot

    def inverse(self) -> Move:
        return HandRemoved(self.hand, self.hand_as)

    def stored(self) -> dict[str, Any]:
        return super().stored() | {"after": self.hand_as.to_json()}


@dataclass(frozen=True)
class HandRemoved(Move):
    """A recorded hand taken back (the inverse of recording it; never stored as such: it is an undo)."""

    kind: ClassVar[str] = "hand_removed"
    hand_as: HandSnapshot

    def inverse(self) -> Move:
        return HandRecorded(self.hand, self.hand_as)


@dataclass(frozen=True)
class HandCorrected(Move):
    kind: ClassVar[str] = "hand_corrected"
    before: HandSnapshot
    after: HandSnapshot

    def inverse(self) -> Move:
        return HandCorrected(self.hand, self.after, self.before)

    def stored(self) -> dict[str, Any]:
        return super().stored() | {"before": self.before.to_json(), "after": self.after.to_json()}


@dataclass(frozen=True)
class BuyAdded(Move):
    kind: ClassVar[str] = "buy_added"
    seat: int

    def inverse(self) -> Move:
        return BuyRemoved(self.hand, self.seat)


@dataclass(frozen=True)
class BuyRemoved(Move):
    """The player's latest buy in the hand, taken back."""

    kind: ClassVar[str] = "buy_removed"
    seat: int

    def inverse(self) -> Move:
        return BuyAdded(self.hand, self.seat)


@dataclass(frozen=True)
class DownSet(Move):
    kind: ClassVar[str] = "down_set"
    seat: int

    def inverse(self) -> Move:
        return DownCleared(self.hand, self.seat)


@dataclass(frozen=True)
class DownCleared(Move):
    kind: ClassVar[str] = "down_cleared"
    seat: int

    def inverse(self) -> Move:
        return DownSet(self.hand, self.seat)


@dataclass(frozen=True)
class EndedEarly(Move):
    """The table stopped after ``hand``: the standings are those of the hands played."""

    kind: ClassVar[str] = "ended_early"

    def inverse(self) -> Move:
        return Resumed(self.hand)

    def stored(self) -> dict[str, Any]:
        return super().stored() | {"after": {"hands": self.hand}}


@dataclass(frozen=True)
class Resumed(Move):
    """A game ended early, going on again (the inverse of ending it; never stored as such: it is an undo)."""

    kind: ClassVar[str] = "resumed"

    def inverse(self) -> Move:
        return EndedEarly(self.hand)


@dataclass(frozen=True)
class PlayerJoined(Move):
    """A player sat down before ``hand`` at ``seat`` (the players from that seat on move one seat along), with
    the starting score the table gave them. Undone only while nothing was recorded since (the later moves are
    undone first, so every seat in the history is where the tables have it)."""

    kind: ClassVar[str] = "player_joined"
    seat: int
    name: str
    start: int

    def inverse(self) -> Move:
        return PlayerLeft(self.hand, self.seat, self.name, self.start)

    def stored(self) -> dict[str, Any]:
        return super().stored() | {"after": {"name": self.name, "start": self.start}}


@dataclass(frozen=True)
class PlayerLeft(Move):
    """A player who sat down late, taken out again (the inverse of joining; never stored as such: an undo)."""

    kind: ClassVar[str] = "player_left"
    seat: int
    name: str
    start: int

    def inverse(self) -> Move:
        return PlayerJoined(self.hand, self.seat, self.name, self.start)


# The moves a history stores, by the kind it stores them under: the changes undo can take back.
STORED: dict[str, type[Move]] = {m.kind: m for m in (HandRecorded, HandCorrected, BuyAdded, BuyRemoved, DownSet,
                                                     DownCleared, EndedEarly, PlayerJoined)}
UNDOABLE = tuple(STORED)


def move_of(kind: str, hand: int | None, seat: int | None, before: Any, after: Any) -> Move | None:
    """The move a stored line of the history keeps (``Move.stored``), or None for a line that is no move (the
    game started, a player renamed, an undo, a redo)."""
    cls = STORED.get(kind)
    if cls is None or hand is None:
        return None
    if cls is HandRecorded:
        return HandRecorded(hand, HandSnapshot.from_json(after))
    if cls is HandCorrected:
        return HandCorrected(hand, HandSnapshot.from_json(before), HandSnapshot.from_json(after))
    if cls is EndedEarly:
        return EndedEarly(hand)
    if seat is None:
        return None
    if cls is PlayerJoined:
        return PlayerJoined(hand, seat, after["name"], after["start"])
    return cls(hand, seat)  # type: ignore[call-arg]


@dataclass(frozen=True)
class Line:
    """One line of a game's history as the stack reads it: its id (lines are in the order they were made), its
    move (None for a line that is none), whether that move is undone, and for an undo line the line it undid."""

    id: int
    move: Move | None
    undone: bool = False
    undid: int | None = None


class MoveStack:
    """A game's history, oldest line first, as a stack of moves."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.lines = list(lines)

    def undoable(self) -> Line | None:
        """The move undo would take back: the newest not undone."""
        return next((line for line in reversed(self.lines) if line.move is not None and not line.undone), None)

    def redoable(self) -> Line | None:
        """What the last undo took back, while nothing new was done since (a new move ends redo)."""
        by_id = {line.id: line for line in self.lines}
        for line in reversed(self.lines):
            if line.undid is not None:  # (an undo whose move was redone since: the undo before it, if any)
                target = by_id.get(line.undid)
                if target is not None and target.undone:
                    return target
            elif line.move is not None:
                return None
        return None


def undo_refusal(move: Move | None, hands_recorded: int) -> str | None:
    """Why ``move`` (the stack's ``undoable``) cannot be taken back now (a refusal's code), or None: there is
    nothing to undo, or the hand to take back is not the last recorded (the later hands first)."""
    if move is None:
        return "nothing_to_undo"
    if isinstance(move, HandRecorded) and move.hand < hands_recorded:
        return "undo_blocked"
    if isinstance(move, PlayerJoined) and hands_recorded >= move.hand:
        return "undo_blocked"
    return None


def redo_refusal(move: Move | None, hands_recorded: int) -> str | None:
    """Why ``move`` (the stack's ``redoable``) cannot be done again now, or None: there is nothing to redo, or
    it records a hand that is no longer the next one."""
    if move is None:
        return "nothing_to_redo"
    if isinstance(move, (HandRecorded, PlayerJoined)) and move.hand != hands_recorded + 1:
        return "nothing_to_redo"
    return None
