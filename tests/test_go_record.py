"""The Go player's game record (engines/players/go_record.py) over the reference positions (no kernels):
moves and undo, the record as plain values and back, and a failed load that leaves the game as it was."""
from types import SimpleNamespace

import pytest

from engines.errors import IllegalMove
from engines.games.reference.go import RecordBoards
from engines.players.go_record import GoRecord


def record_of(**fields) -> SimpleNamespace:
    values = dict(size=9, komi=7.5, handicap=0, black_setup=[], white_setup=[], moves=[], to_move=None)
    values.update(fields)
    return SimpleNamespace(**values)


def test_moves_and_undo_keep_the_positions_in_step():
    record = GoRecord(RecordBoards(superko=True), 9, 7.5)
    record.play(0, (2, 2))
    record.play(1, None)
    assert record.moves == [(0, (2, 2)), (1, None)] and len(record.positions) == 3
    assert record.position.board[2][2] == 1 and not record.is_empty()
    assert record.undo() and record.undo() and not record.undo()  # nothing left to take back
    assert record.is_empty() and len(record.positions) == 1


def test_an_illegal_move_changes_nothing():
    record = GoRecord(RecordBoards(superko=False), 5, 0.5)
    record.play(0, (2, 2))
    with pytest.raises(IllegalMove):
        record.play(1, (2, 2))
    assert record.moves == [(0, (2, 2))] and len(record.positions) == 2


def test_fields_replay_into_another_record():
    record = GoRecord(RecordBoards(superko=True), 9, 6.5)
    for colour, point in ((0, (2, 2)), (1, (6, 6)), (0, None)):
        record.play(colour, point)
    other = GoRecord(RecordBoards(superko=True), 19, 7.0)
    other.replay(SimpleNamespace(**record.fields()))
    assert other.fields() == record.fields() and other.position.board == record.position.board


def test_a_failed_load_leaves_the_game_exactly_as_it_was():
    record = GoRecord(RecordBoards(superko=True), 9, 7.5)
    record.play(0, (2, 2))
    record.play(1, (4, 4))
    before = (record.fields(), [p.board for p in record.positions])
    with pytest.raises(IllegalMove):
        record.load(record_of(size=5, komi=0.5, moves=[(0, (1, 1)), (1, (1, 1))]))  # the second is occupied
    assert (record.fields(), [p.board for p in record.positions]) == before
    record.load(record_of(size=5, komi=0.5, moves=[(0, (1, 1))]))
    assert record.size == 5 and record.komi == 0.5 and record.moves == [(0, (1, 1))]
