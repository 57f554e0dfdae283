"""The reference Hex rules (engines/games/reference/hex.py, pure Python: the cold start's board and the
stand-ins' judge) run through the same checks as the compiled game (engines/games/hex.py) in random
games on every size Hex has, 3x3 to 19x19: the legal moves, the board after each move, the winner
after each move; and the fallback search's rules object (SearchRules) agrees with both."""
import random

import pytest

from engines.games import make_game
from engines.games.reference import hex as ref
from engines.players.clock import Deadline
from engines.players.coldstart import fallback_search

SIZES = range(ref.MIN_SIZE, ref.MAX_SIZE + 1)


def test_the_reference_sizes_are_the_games():
    from engines.games.hex import MAX_SIZE, MIN_SIZE
    assert (ref.MIN_SIZE, ref.MAX_SIZE) == (MIN_SIZE, MAX_SIZE)


@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_move_by_move(size):
    game = make_game("hex", size=size)
    rules = ref.SearchRules(size)
    rng = random.Random(size)
    for _ in range(3 if size > 11 else 6):
        state = game.initial_state()
        cells = ref.empty_board(size)
        position = rules.position(cells, 0)
        while True:
            compiled_winner = game.winner(state) if game.is_terminal(state) else None
            assert ref.winner(cells) == compiled_winner
            assert game.cells(state).tolist() == cells
            outcome = rules.outcome(position)
            assert (outcome is None) == (compiled_winner is None)
            if compiled_winner is not None:
                assert outcome == -1 and compiled_winner == 1 - position[1]   # the last mover won
                assert rules.moves(position) == []
                break
            legal = sorted(game.coords(a) for a in game.legal_moves(state))
            assert sorted(ref.empty_cells(cells)) == legal
            assert sorted(rules.point(m) for m in rules.moves(position)) == legal
            point = rng.choice(legal)
            player = game.to_move(state)
            assert player == position[1]
            state = game.play(state, game.action(*point))
            cells[point[0]][point[1]] = player + 1
            position = rules.play(position, point[0] * size + point[1])
            assert rules.position(cells, 1 - player) == position


def test_an_occupied_cell_is_refused_and_nothing_changes():
    rules = ref.SearchRules(5)
    position = rules.play(rules.position(ref.empty_board(5), 0), 12)
    with pytest.raises(ValueError, match="occupied"):
        rules.play(position, 12)
    assert position == rules.play(rules.position(ref.empty_board(5), 0), 12)
    with pytest.raises(ValueError, match="3..19"):
        ref.SearchRules(2)


def test_the_evaluation_and_the_fallback_search():
    rules = ref.SearchRules(5)
    empty = rules.position(ref.empty_board(5), 0)
    assert rules.evaluate(empty) == 0.0                                  # nobody ahead on an empty board
    assert fallback_search(rules, empty, Deadline.after(0.2)) == 12      # the centre first
    # X (player 0, rows) needs one cell to join: the search takes it; for O the position is lost
    cells = [[0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0]]
    assert rules.distance(rules.position(cells, 0)[0], 0) == 1
    assert rules.point(fallback_search(rules, rules.position(cells, 0), Deadline.after(0.5))) == (2, 2)
    assert rules.evaluate(rules.position(cells, 1)) < 0
