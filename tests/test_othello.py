"""Othello rules: perft, bitboard vs mailbox vs a pure-Python reference, flips and wrap-around,
passes and the two end rules, illegal-move reasons, the board view."""
import random

import numpy as np
import pytest

from engines.games import make_game
from engines.games import othello as O
from engines.errors import GameOver, IllegalMove, Reason
from engines.games.othello import Othello
from engines.knowledge.othello.registered import (STRONG_WEIGHTS, evaluate_disc_difference, evaluate_strong, stable_discs,
                                       value_strong)
from engines.games.perft import perft
from engines.rng import make_rng
from moves import square

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


# ---- an independent, slow reference ----------------------------------------------------------

def ref_flips(cells, n, colour, r, c):
    if cells[r][c] != 0:
        return []
    opp = 3 - colour
    out = []
    for dr, dc in DIRS:
        run = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and cells[rr][cc] == opp:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < n and 0 <= cc < n and cells[rr][cc] == colour:
            out += run
    return out


def ref_placements(cells, n, colour):
    return [r * n + c for r in range(n) for c in range(n) if ref_flips(cells, n, colour, r, c)]


def ref_legal(cells, n, player, variant):
    """The legal actions, [] when the game is over."""
    mine = ref_placements(cells, n, player + 1)
    if mine:
        return mine
    if variant == "manager" or not ref_placements(cells, n, 2 - player):
        return []
    return [n * n]


def ref_play(cells, n, player, action):
    cells = [list(row) for row in cells]
    if action != n * n:
        r, c = divmod(action, n)
        for rr, cc in ref_flips(cells, n, player + 1, r, c):
            cells[rr][cc] = player + 1
        cells[r][c] = player + 1
    return cells, 1 - player


def board(game, state) -> tuple:
    """The board view as a tuple of row tuples (comparable with ==)."""
    return tuple(tuple(int(v) for v in row) for row in game.cells(state))


def discs(game, state) -> tuple[int, int]:
    """(black discs, white discs), counted on the board view; score() must be their difference."""
    cells = game.cells(state)
    b, w = int((cells == 1).sum()), int((cells == 2).sum())
    assert game.score(state) == float(b - w)
    return b, w


def board_of(rows):
    """Cells from strings: '.' empty, 'X' black, 'O' white."""
    return [[".XO".index(ch) for ch in row.replace(" ", "")] for row in rows]


# ---- start position, perft ---------------------------------------------------------------------

def test_start_position_follows_the_manager_and_otp():
    g = Othello(8)
    s = g.initial_state()
    assert board(g, s)[3] == (0, 0, 0, 2, 1, 0, 0, 0)
    assert board(g, s)[4] == (0, 0, 0, 1, 2, 0, 0, 0)
    assert g.to_move(s) == 0 and discs(g, s) == (2, 2)
    assert [g.move_label(m) for m in g.legal_moves(s)] == ["d3", "c4", "f5", "e6"]
    for n in range(4, 17):
        for impl in (["bitboard", "mailbox"] if n <= 8 else ["mailbox"]):
            gg = Othello(n, impl=impl)
            b = np.array(board(gg, gg.initial_state()))
            i, j = n // 2 - 1, n // 2
            assert (b[i, i], b[j, j], b[i, j], b[j, i]) == (2, 2, 1, 1)
            assert b.sum() == 6
    assert make_game("othello", size=6).size == 6
    for bad in (3, 17, 8.0, True, "8"):
        with pytest.raises(ValueError, match="othello board size"):
            Othello(bad)
    with pytest.raises(ValueError, match="variant"):
        Othello(8, "japanese")
    with pytest.raises(ValueError, match="at most 8x8"):
        Othello(10, impl="bitboard")


def test_perft_standard_8x8():
    g = Othello(8)
    s = g.initial_state()
    expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216]
    assert [perft(g, s, d) for d in range(1, 9)] == expected
    assert perft(g, s, 0) == 1
    gm = Othello(8, impl="mailbox")
    assert [perft(gm, gm.initial_state(), d) for d in range(1, 7)] == expected[:6]
    assert np.array_equal(s, g.initial_state())  # not mutated
    with pytest.raises(ValueError):
        perft(g, s, -1)


def test_4x4_perfect_play_second_player_wins():
    """Seed 004: with perfect play the second player wins on 4x4 (manager rules); standard: 3-11."""
    for variant, expected in (("manager", -6), ("standard", -8)):
        g = Othello(4, variant)
        memo = {}

        def solve(s):  # negamax, value for the side to move
            h = g.hash(s)
            if h not in memo:
                if g.is_terminal(s):
                    memo[h] = evaluate_disc_difference(s, STRONG_WEIGHTS)
                else:
                    memo[h] = max(-solve(g.play(s, m)) for m in g.legal_moves(s))
            return memo[h]

        assert solve(g.initial_state()) == expected


# ---- random games: bitboard vs mailbox vs reference -------------------------------------------

def compare_states(gb, sb, gm, sm):
    assert board(gb, sb) == board(gm, sm)
    assert gb.to_move(sb) == gm.to_move(sm)
    assert gb.is_terminal(sb) == gm.is_terminal(sm)
    assert gb.legal_moves(sb) == gm.legal_moves(sm)
    assert gb.hash(sb) == gm.hash(sm)
    assert discs(gb, sb) == discs(gm, sm) == (int(sm[O.NBLACK]), int(sm[O.NWHITE]))
    assert np.array_equal(gb.observation(sb), gm.observation(sm))
    assert stable_discs(sb) == stable_discs(sm)
    for f in (evaluate_disc_difference, evaluate_strong, value_strong):
        assert f(sb, STRONG_WEIGHTS) == pytest.approx(f(sm, STRONG_WEIGHTS), abs=1e-12)


@pytest.mark.parametrize("variant", ["standard", "manager"])
def test_bitboard_matches_mailbox_and_reference(variant):
    pyrng = random.Random(20240 + len(variant))
    games = 0
    for n in range(4, 9):
        gb, gm = Othello(n, variant), Othello(n, variant, impl="mailbox")
        for _ in range(30 if n < 8 else 20):
            sb, sm = gb.initial_state(), gm.initial_state()
            cells, player = [list(r) for r in board(gb, sb)], 0
            while True:
                compare_states(gb, sb, gm, sm)
                legal = ref_legal(cells, n, player, variant)
                assert gb.legal_moves(sb) == legal
                if not legal:
                    break
                a = pyrng.choice(legal)
                sb, sm = gb.play(sb, a), gm.play(sm, a)
                cells, player = ref_play(cells, n, player, a)
                assert [list(r) for r in board(gb, sb)] == cells
            b, w = discs(gb, sb)
            expected = (1.0, 0.0) if b > w else (0.0, 1.0) if w > b else (0.5, 0.5)
            assert gb.returns(sb) == gm.returns(sm) == expected
            games += 1
    assert games == 4 * 30 + 20


@pytest.mark.parametrize("variant", ["standard", "manager"])
def test_playout_kernels_agree_with_the_same_random_stream(variant):
    """Both kernel sets list moves in increasing order and draw with rng.below the same way, so one
    seed gives the very same game."""
    for n in range(4, 9):
        gb, gm = Othello(n, variant), Othello(n, variant, impl="mailbox")
        for seed in range(200):
            sb, sm = gb.initial_state(), gm.initial_state()
            r1, r2 = make_rng(seed), make_rng(seed)
            v1 = gb.kernels.playout(sb, r1)
            v2 = gm.kernels.playout(sm, r2)
            assert v1 == v2 and r1[0] == r2[0]
            assert board(gb, sb) == board(gm, sm) and gb.to_move(sb) == gm.to_move(sm)
            assert gb.is_terminal(sb) and gm.is_terminal(sm)
            assert gb.hash(sb) == gm.hash(sm)
            assert v1 == gb.returns(sb)[0]


@pytest.mark.parametrize("variant", ["standard", "manager"])
def test_large_boards_terminate_consistently(variant):
    pyrng = random.Random(7)
    for n in range(10, 17):
        g = Othello(n, variant)
        assert g.impl == "mailbox" and g.num_actions == n * n + 1
        # kernel playouts
        for seed in range(3):
            s = g.initial_state()
            v = g.kernels.playout(s, make_rng(seed))
            b, w = discs(g, s)
            assert g.is_terminal(s) and (int(s[O.NBLACK]), int(s[O.NWHITE])) == (b, w)
            assert b + w <= n * n and v == g.returns(s)[0]
            assert not ref_placements(board(g, s), n, g.to_move(s) + 1)
            if variant == "standard":
                assert not ref_placements(board(g, s), n, 2 - g.to_move(s))
            fresh = g.state_from_cells(board(g, s), g.to_move(s))
            assert g.hash(fresh) == g.hash(s) and np.array_equal(fresh, s)
        # one game through the Python API, checked against the reference
        s = g.initial_state()
        cells, player, plies = [list(r) for r in board(g, s)], 0, 0
        while not g.is_terminal(s):
            legal = g.legal_moves(s)
            assert legal == ref_legal(cells, n, player, variant)
            a = pyrng.choice(legal)
            s = g.play(s, a)
            cells, player = ref_play(cells, n, player, a)
            plies += 1
            b, w = discs(g, s)
            assert (int(s[O.NBLACK]), int(s[O.NWHITE])) == (b, w)
        assert ref_legal(cells, n, player, variant) == [] and plies <= n * n
        assert g.hash(s) == g.hash(g.state_from_cells(board(g, s), g.to_move(s)))


# ---- hand-made positions -------------------------------------------------------------------------

def test_multi_direction_flips():
    rows = ["........",
            ".X.X.X..",
            "..OOO...",
            ".XO.OX..",
            "..OOO...",
            ".X.X.X..",
            "........",
            "........"]
    for impl in ("bitboard", "mailbox"):
        g = Othello(8, impl=impl)
        s = g.state_from_cells(board_of(rows), 0)
        after = board(g, g.play(s, square(g, "d4")))
        assert sum(v == 2 for row in after for v in row) == 0  # all 8 directions flipped
        assert discs(g, g.play(s, 3 * 8 + 3)) == (17, 0)


@pytest.mark.parametrize("impl", ["bitboard", "mailbox"])
def test_no_wrap_around_between_rows(impl):
    g = Othello(8, impl=impl)
    b = [[0] * 8 for _ in range(8)]
    # east from h3 would wrap to a4 (white) then b4 (black): no bracket
    b[3][0], b[3][1] = 2, 1
    # west from a6 would wrap to h5 (white) then g5 (black)
    b[4][7], b[4][6] = 2, 1
    # south-east from h1 would wrap to a3 (white), b4 (black)
    b[2][0] = 2
    b[5][3], b[6][3] = 2, 1  # so that black has a real placement (d5) and does not have to pass
    s = g.state_from_cells(b, 0)
    legal = g.legal_moves(s)
    assert legal == ref_legal(b, 8, 0, "standard")
    assert square(g, "h3") not in legal and square(g, "a6") not in legal
    assert square(g, "h1") not in legal and legal == [square(g, "d5")]
    assert g.illegal_reason(s, square(g, "h3")) is Reason.NO_BRACKET
    # a legal move on the h file still must not flip anything across the edge
    b = [[0] * 8 for _ in range(8)]
    b[3][7], b[4][7] = 2, 1          # h4 white, h5 black: h3 brackets vertically
    b[3][0], b[3][1] = 2, 1          # a4 white, b4 black: would be flipped by a wrapping east ray
    s = g.play(g.state_from_cells(b, 0), square(g, "h3"))
    assert board(g, s)[3][7] == 1 and board(g, s)[3][0] == 2


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_small_boards_have_no_cells_beyond_the_edge(n):
    """In the embedded 8x8 layout the cells at column/row n.. exist as bits: moves must stay inside."""
    g = Othello(n)
    b = [[0] * n for _ in range(n)]
    b[0][0] = 1
    for c in range(1, n):
        b[0][c] = 2      # top row: X O O ... O up to the edge: no placement at column n
    for r in range(1, n):
        b[r][0] = 2      # left column: X then O down to the bottom edge
    for k in range(1, n):
        b[k][k] = 2      # main diagonal to the corner
    s = g.state_from_cells(b, 0)
    assert g.legal_moves(s) == [] and g.is_terminal(s)  # black has no placement, white none either
    # white can't play either: standard -> game over; rows beyond n never appear
    legal = g.legal_moves(g.state_from_cells(b, 1))
    assert legal == ref_legal(b, n, 1, "standard") == []
    assert g.observation(s).shape == (3, n, n)


def test_forced_pass_in_standard_and_immediate_end_in_manager():
    rows = ["OOX.....", "........", "........", "........",
            "........", "........", "........", "........"]
    std, man = Othello(8), Othello(8, "manager")
    s = std.state_from_cells(board_of(rows), 0)
    assert std.legal_moves(s) == [64] and std.must_pass(s) and not std.is_terminal(s)
    assert std.pass_action == 64 and std.point_of(64) is None and std.move_label(64) == "pass"
    with pytest.raises(IllegalMove) as err:
        std.play(s, square(std, "d1"))
    assert err.value.reason is Reason.MUST_PASS
    s2 = std.play(s, 64)
    assert std.to_move(s2) == 1 and std.legal_moves(s2) == [3] and board(std, s2) == board(std, s)
    assert std.hash(s2) != std.hash(s)
    s3 = std.play(s2, 3)
    assert std.is_terminal(s3) and std.winner(s3) == 1 and std.legal_moves(s3) == []
    with pytest.raises(GameOver):
        std.play(s3, 64)
    # white to move with a placement: pass is illegal
    with pytest.raises(IllegalMove) as err:
        std.play(s2, 64)
    assert err.value.reason is Reason.PASS_NOT_ALLOWED
    # manager: the side to move has no placement -> the game is over at once (white leads 2 to 1)
    m = man.state_from_cells(board_of(rows), 0)
    assert man.is_terminal(m) and man.legal_moves(m) == [] and man.winner(m) == 1
    assert evaluate_disc_difference(m, STRONG_WEIGHTS) == -1.0
    m = man.state_from_cells(board_of(rows), 1)
    with pytest.raises(IllegalMove) as err:
        man.play(m, 64)
    assert err.value.reason is Reason.PASS_NOT_ALLOWED
    m = man.play(m, 3)
    assert man.is_terminal(m)
    assert man.pass_action is None
    with pytest.raises(IllegalMove) as err:
        man.action_at(None)
    assert err.value.reason is Reason.PASS_NOT_ALLOWED


def test_play_never_mutates_and_explains():
    g = Othello(8)
    s = g.initial_state()
    keep = s.copy()
    s2 = g.play(s, square(g, "d3"))
    assert np.array_equal(s, keep) and not np.array_equal(s2, s)
    g.random_playout(s, make_rng(3))
    assert np.array_equal(s, keep)
    for text, reason in (("d4", Reason.OCCUPIED), ("a1", Reason.NO_BRACKET), ("pass", Reason.PASS_NOT_ALLOWED)):
        with pytest.raises(IllegalMove) as err:
            g.play(s, square(g, text))
        assert err.value.reason is reason and err.value.action == square(g, text)
        assert str(err.value) == f"illegal move {square(g, text)}: {reason.sentence} ({text})"
    with pytest.raises(IllegalMove) as err:
        g.play(s, 65)
    assert err.value.reason is Reason.OUT_OF_RANGE
    with pytest.raises(ValueError):
        g.play(s, "d3")
    assert "X (black) 2, O (white) 2; to move: X (black)" in g.render(s)
    assert g.render(s).splitlines()[0].split() == list("abcdefgh")
    assert g.render(s).splitlines()[4].split() == ["4", ".", ".", ".", "O", "X", ".", ".", "."]


# ---- board import ------------------------------------------------------------------------

def test_state_from_cells_and_validation():
    g = Othello(6, "manager")
    s = g.initial_state()
    rows = board(g, s)
    assert isinstance(rows, tuple) and all(isinstance(r, tuple) for r in rows)
    assert np.array_equal(g.state_from_cells(rows, 0), s)
    assert np.array_equal(g.state_from_cells([list(r) for r in rows], 0), s)
    assert g.to_move(g.state_from_cells(rows, 1)) == 1
    bad_boards = [rows[:5], [list(r) for r in rows[:5]] + [[0] * 7], "......",
                  [[0] * 6] * 5 + [[0, 0, 0, 0, 0, 3]], [[0] * 6] * 5 + [[0, 0, 0, 0, 0, True]],
                  [[0] * 6] * 5 + [[0, 0, 0, 0, 0, "1"]], [[0] * 6] * 5 + ["012012"], 5]
    for bad in bad_boards:
        with pytest.raises(ValueError):
            g.state_from_cells(bad, 0)
    for bad in (2, -1, True, "0", None):
        with pytest.raises(ValueError, match="player to move"):
            g.state_from_cells(rows, bad)


def test_board_view_round_trips_on_every_size_and_layout():
    pyrng = random.Random(11)
    for n in (4, 6, 8, 10):
        for impl in (["bitboard", "mailbox"] if n <= 8 else ["mailbox"]):
            for variant in ("standard", "manager"):
                g = Othello(n, variant, impl=impl)
                assert (g.pass_action == n * n) == (variant == "standard")
                s = g.initial_state()
                while not g.is_terminal(s):
                    cells = g.cells(s)
                    assert cells.dtype == np.int8 and cells.shape == (n, n)
                    again = g.state_from_cells(cells, g.to_move(s))
                    assert np.array_equal(again, s)
                    for a in g.legal_moves(s):
                        assert g.action_at(g.point_of(a)) == a
                        if a != n * n:
                            r, c = g.coords(a)
                            assert g.action(r, c) == a == r * n + c
                    s = g.play(s, pyrng.choice(g.legal_moves(s)))
                assert g.cells(g.state_from_cells(g.cells(s), g.to_move(s))).tolist() == g.cells(s).tolist()
    g = Othello(8)
    for bad in ((8, 0), (-1, 0), (0, 8)):
        with pytest.raises(IllegalMove) as err:
            g.action(*bad)
        assert err.value.reason is Reason.OUT_OF_RANGE
    with pytest.raises(ValueError):
        g.coords(64)
    with pytest.raises(ValueError):
        g.state_from_cells(g.cells(g.initial_state()), 0, previous=g.cells(g.initial_state()))


# ---- hashing, observation ------------------------------------------------------------------------

def test_hash_and_observation():
    for impl in ("bitboard", "mailbox"):
        g = Othello(8, impl=impl)
        s = g.initial_state()
        assert g.hash(s) != g.hash(g.state_from_cells(board(g, s), 1))
        s = g.play(s, square(g, "d3"))
        obs = g.observation(s)
        assert obs.shape == (3, 8, 8) and obs.dtype == np.float32
        assert obs[0].sum() == 4 and obs[1].sum() == 1 and obs[2].min() == 1.0
        assert obs[0, 2, 3] == 1 and obs[1, 4, 4] == 1
    # transposition: same position by two move orders
    g = Othello(8)
    s = g.initial_state()
    a = g.play(g.play(g.play(s, 19), 18), 26)
    b = g.play(g.play(g.play(s, 26), 18), 19)
    assert board(g, a) == board(g, b) and g.hash(a) == g.hash(b)


