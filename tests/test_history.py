"""A game's history as the engine keeps it (``referee.history``): typed moves, their inverses, how they are
stored, and undo and redo as a move stack."""

from __future__ import annotations

import pytest

from referee.history import (
    STORED,
    BuyAdded,
    BuyRemoved,
    DownCleared,
    DownSet,
    EndedEarly,
    HandCorrected,
    HandRecorded,
    HandSnapshot,
    Line,
    MoveStack,
    PlayerJoined,
    ResultSnapshot,
    move_of,
    redo_refusal,
    undo_refusal,
)

SNAP = HandSnapshot(0, 0, (ResultSnapshot(0, 0, 0, None), ResultSnapshot(1, 25, 0, ("KH", "JK"))))
FIXED = HandSnapshot(1, 0, (ResultSnapshot(0, 10, 0, ("TC",)), ResultSnapshot(1, 0, 0, None)))
MOVES = [HandRecorded(1, SNAP), HandCorrected(1, SNAP, FIXED), BuyAdded(2, 1), BuyRemoved(2, 1), DownSet(2, 0),
         DownCleared(2, 0), EndedEarly(3), PlayerJoined(3, 1, "Dee", 40)]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: m.kind)
def test_each_move_undone_twice_is_itself(move):
    assert move.inverse() != move
    assert move.inverse().inverse() == move


@pytest.mark.parametrize("move", MOVES, ids=lambda m: m.kind)
def test_each_move_is_stored_and_read_back(move):
    stored = move.stored()
    assert stored["kind"] == move.kind and stored["hand_number"] == move.hand
    assert move_of(stored["kind"], stored["hand_number"], stored["seat"], stored["before"], stored["after"]) == move


def test_every_stored_kind_is_a_move_and_the_inverses_of_undo_only_are_not_stored():
    assert set(STORED) == {m.kind for m in MOVES}
    assert HandRecorded(1, SNAP).inverse().kind not in STORED and EndedEarly(2).inverse().kind not in STORED
    assert PlayerJoined(3, 1, "Dee", 40).inverse().kind not in STORED


def test_a_late_player_is_taken_out_again_only_before_the_hand_they_joined_for():
    joined = PlayerJoined(3, 1, "Dee", 40)
    assert undo_refusal(joined, 2) is None and undo_refusal(joined, 3) == "undo_blocked"
    assert redo_refusal(joined, 2) is None and redo_refusal(joined, 3) == "nothing_to_redo"


def test_lines_that_are_no_moves_read_as_none():
    for kind in ("created", "renamed", "seats_reordered", "undo", "redo"):
        assert move_of(kind, 1, 0, {"undid": 3}, None) is None


def test_an_old_snapshot_without_bonuses_reads_as_none_given():
    old = {"out_seat": None, "results": [{"seat": 0, "penalty": 15, "cards": ["A"]}]}
    assert HandSnapshot.from_json(old) == HandSnapshot(None, 0, (ResultSnapshot(0, 15, 0, ("A",)),))


def test_undo_takes_the_newest_move_not_undone_and_redo_gives_back_the_last_undone():
    a, b, c = Line(1, BuyAdded(1, 0)), Line(2, None), Line(3, DownSet(1, 2))  # (2: a player renamed)
    stack = MoveStack([a, b, c])
    assert stack.undoable() == c and stack.redoable() is None
    # c undone, then a: redo gives back a, then c (a stack)
    lines = [Line(1, a.move, undone=True), b, Line(3, c.move, undone=True), Line(4, None, undid=3),
             Line(5, None, undid=1)]
    stack = MoveStack(lines)
    assert stack.undoable() is None and stack.redoable().id == 1
    lines[0] = Line(1, a.move)  # a redone
    stack = MoveStack([*lines, Line(6, None)])
    assert stack.undoable().id == 1 and stack.redoable().id == 3


def test_a_new_move_after_an_undo_ends_redo():
    stack = MoveStack([Line(1, BuyAdded(1, 0), undone=True), Line(2, None, undid=1), Line(3, DownSet(1, 1))])
    assert stack.redoable() is None and stack.undoable().id == 3


def test_a_recorded_hand_is_undone_last_hand_first_and_redone_only_as_the_next():
    assert undo_refusal(None, 3) == "nothing_to_undo"
    assert undo_refusal(HandRecorded(2, SNAP), 3) == "undo_blocked"
    assert undo_refusal(HandRecorded(3, SNAP), 3) is None
    assert undo_refusal(BuyAdded(1, 0), 3) is None
    assert redo_refusal(None, 2) == "nothing_to_redo"
    assert redo_refusal(HandRecorded(3, SNAP), 2) is None
    assert redo_refusal(HandRecorded(3, SNAP), 1) == "nothing_to_redo"
    assert redo_refusal(EndedEarly(2), 2) is None
