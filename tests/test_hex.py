"""Hex rules: winners on hand-made positions, union-find against a plain flood fill, no draws,
the board view and illegal-move reasons."""
import random

import numpy as np
import pytest

from engines.errors import IllegalMove, Reason
from engines.games.hex import HEADER, Hex, flood_winner
from engines.rng import make_rng


def reference_winner(cells: np.ndarray, n: int):
    """Plain breadth-first flood fill for both players on any (not necessarily full) board."""
    def connected(colour, starts, is_goal):
        seen, frontier = set(starts), list(starts)
        while frontier:
            r, c = frontier.pop()
            if is_goal(r, c):
                return True
            for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen and cells[rr * n + cc] == colour:
                    seen.add((rr, cc))
                    frontier.append((rr, cc))
        return False
    p0 = connected(1, [(0, c) for c in range(n) if cells[c] == 1], lambda r, c: r == n - 1)
    p1 = connected(2, [(r, 0) for r in range(n) if cells[r * n] == 2], lambda r, c: c == n - 1)
    assert not (p0 and p1), "both players connected: impossible in Hex"
    return 0 if p0 else (1 if p1 else None)


def point(game, text):
    """The action of 'row,col'."""
    row, col = (int(v) for v in text.split(","))
    return game.action(row, col)


def play_cells(game, moves):
    state = game.initial_state()
    for text in moves:
        state = game.play(state, point(game, text))
    return state


@pytest.mark.parametrize("n", range(3, 12))
def test_straight_lines_win_for_their_owner(n):
    game = Hex(n)
    # player 1 (rows) builds column 0 top to bottom while player 2 wastes moves in the last column
    moves = []
    for r in range(n):
        moves.append(f"{r},0")
        if r < n - 1:
            moves.append(f"{r},{n - 1}")
    state = play_cells(game, moves)
    assert game.is_terminal(state) and game.winner(state) == 0
    # one move before the end nobody has won
    assert not game.is_terminal(play_cells(game, moves[:-1]))


@pytest.mark.parametrize("n", range(3, 12))
def test_zigzag_column_win_for_player_two(n):
    game = Hex(n)
    # player 2 (columns) uses the (r, c) -> (r-1, c+1) diagonal link: a path along an anti-diagonal
    path = [(n - 1 - c, c) for c in range(n)]
    filler = [(r, c) for r in range(n) for c in range(n) if (r, c) not in path and r + c != n - 2][:n]
    moves = []
    for i in range(n):
        moves.append("%d,%d" % filler[i])
        moves.append("%d,%d" % path[i])
    state = play_cells(game, moves)
    assert game.winner(state) == 1


def test_blocked_line_is_not_a_win():
    game = Hex(4)
    # player 1 holds (0,1) (1,1) (3,1); player 2's (2,1) cuts them apart
    state = play_cells(game, ["0,1", "2,1", "1,1", "3,3", "3,1"])
    assert not game.is_terminal(state)
    # (2,0) extends the top group to row 2 (it touches (1,1) but not (3,1)): still no connection
    state = play_cells(game, ["0,1", "2,1", "1,1", "3,3", "3,1", "0,3", "2,0"])
    assert not game.is_terminal(state)
    # (3,0) is next to (2,0) and on the last row: player 1 wins
    state = game.play(game.play(state, game.action(1, 3)), game.action(3, 0))
    assert game.winner(state) == 0


@pytest.mark.parametrize("n", [3, 4, 5, 7, 8, 11])
def test_union_find_agrees_with_flood_fill(n):
    game = Hex(n)
    rng = np.random.default_rng(n)
    for _ in range(300):
        state = game.initial_state()
        order = rng.permutation(n * n)
        for k, a in enumerate(order):
            if game.is_terminal(state):
                break
            before = state.copy()
            state = game.play(state, int(a))
            assert not np.array_equal(before, state)
            cells = state[HEADER:HEADER + n * n]
            expected = reference_winner(cells, n)
            assert (game.winner(state) if game.is_terminal(state) else None) == expected
        # the full board: exactly one winner, the same from the compiled flood fill
        full = np.where(np.arange(n * n) % 2 == 0, 1, 2)[rng.permutation(n * n)]
        assert flood_winner(full, n) == reference_winner(full, n)


def test_random_playouts_never_draw():
    game = Hex(6)
    rng = make_rng(3)
    values = {game.random_playout(game.initial_state(), rng) for _ in range(2000)}
    assert values == {0.0, 1.0}


def test_render_is_a_diamond_with_a_single_top_cell():
    game = Hex(4)
    state = play_cells(game, ["0,0", "3,3"])
    lines = game.render(state).splitlines()
    assert lines[0].strip() == "X"           # (0,0) alone at the top
    assert lines[6].strip() == "O"           # (3,3) alone at the bottom
    assert [len(line.split()) for line in lines[:7]] == [1, 2, 3, 4, 3, 2, 1]
    assert lines[0].index("X") == lines[3].index(".") + 3  # centred on the widest row


def test_points_and_errors():
    game = Hex(5)
    assert game.action(2, 3) == 13 and game.coords(13) == (2, 3) and game.point_of(13) == (2, 3)
    assert game.pass_action is None and game.move_label(13) == "2,3"
    for bad in [(5, 0), (-1, 2), (0, 5)]:
        with pytest.raises(IllegalMove) as err:
            game.action(*bad)
        assert err.value.reason is Reason.OUT_OF_RANGE
    with pytest.raises(IllegalMove) as err:
        game.action_at(None)
    assert err.value.reason is Reason.PASS_NOT_ALLOWED
    state = game.play(game.initial_state(), 13)
    with pytest.raises(IllegalMove) as err:
        game.play(state, 13)
    assert err.value.reason is Reason.OCCUPIED and game.illegal_reason(state, 13) is Reason.OCCUPIED
    assert game.illegal_reason(state, 12) is None
    for size in [2, 20, "5", 5.0, True]:
        with pytest.raises(ValueError, match="hex board size"):
            Hex(size)


def test_board_view_round_trips_and_score():
    pyrng = random.Random(5)
    for n in (3, 5, 8):
        game = Hex(n)
        for _ in range(20):
            state = game.initial_state()
            while True:
                cells = game.cells(state)
                assert cells.dtype == np.int8 and cells.shape == (n, n)
                again = game.state_from_cells(cells, game.to_move(state))
                assert np.array_equal(game.cells(again), cells) and game.to_move(again) == game.to_move(state)
                assert game.is_terminal(again) == game.is_terminal(state)
                if game.is_terminal(state):
                    break
                assert game.score(state) == 0.0
                state = game.play(state, pyrng.choice(game.legal_moves(state)))
            assert game.score(state) == (1.0 if game.winner(state) == 0 else -1.0)
            assert game.score(again) == game.score(state)
        for a in range(game.num_actions):
            assert game.action(*game.coords(a)) == a and game.action_at(game.point_of(a)) == a


def test_state_from_cells_matches_played_state():
    game = Hex(5)
    state = play_cells(game, ["2,2", "1,3", "3,1"])
    cells = state[HEADER:HEADER + 25]
    rebuilt = game.state_from_cells(cells.tolist(), game.to_move(state))
    assert np.array_equal(rebuilt[HEADER:HEADER + 25], cells)
    assert game.legal_moves(rebuilt) == game.legal_moves(state)
    with pytest.raises(ValueError):
        game.state_from_cells([0] * 24, 0)
    with pytest.raises(ValueError):
        game.state_from_cells([3] * 25, 0)
