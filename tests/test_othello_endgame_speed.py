"""The flip routine and the endgame solver's fast parts against plain references: the game's ray flips
(engines.games.othello.flips_at, which every Othello kernel uses) against the slow solver's square-by-square
walk (tests/othello_slow_solver.py, nothing from engines/), and the solver's search kernel under arbitrary
windows against a plain minimax (fail-soft bounds hold on both sides), on many positions with few empties,
where the last-squares code and the low-empties ordering run."""
import numba as nb
import numpy as np
import pytest

from othello_slow_solver import flips as slow_flips
from test_othello_endgame import brute, lopsided, played, scattered
from engines.bits import highest_bit_index
from engines.games.othello import flips_at
from engines.knowledge.othello import endgame as E

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@nb.njit(cache=True)
def _highest(x):
    return highest_bit_index(x)


def test_highest_bit_index_is_the_top_set_bit():
    rng = np.random.default_rng(1)
    for _ in range(2000):
        x = int(rng.integers(1, 1 << 62)) << int(rng.integers(0, 3)) | 1 << int(rng.integers(0, 64))
        assert int(_highest(np.uint64(x))) == x.bit_length() - 1


def test_flips_at_matches_a_square_by_square_walk():
    """Catches a ray that runs past the board's edge, a flip counted without the closing disc, a run
    stopped early, a direction missing (boards with many empties and with none near the square)."""
    rng = np.random.default_rng(2)
    checked = flipping = 0
    for _ in range(1500):
        fill = rng.uniform(0.3, 1.0)
        cells = np.where(rng.random(64) < fill, rng.integers(1, 3, 64), 0)
        P = sum(1 << i for i in range(64) if cells[i] == 1)
        O = sum(1 << i for i in range(64) if cells[i] == 2)
        for sq in np.flatnonzero(cells == 0):
            got = int(flips_at(np.int64(sq), np.uint64(P), np.uint64(O)))
            want = slow_flips(int(sq), P, O)
            assert got == want, (hex(P), hex(O), int(sq))
            checked += 1
            flipping += want != 0
    assert checked > 10000 and flipping > 2500  # the sample flips often, in every shape


# up to 11 empties: every code path of the kernel runs from 7 (sorted moves, the table); the plain minimax
# takes 15 s on the six 12-empties positions, 3 s on the six with 11
POSITIONS = ([played(e, 500 + e * 13 + k) for e in range(1, 12) for k in range(6)]
             + [scattered(e, 600 + e * 13 + k) for e in range(1, 11) for k in range(8)]
             + [lopsided(e, 700 + e * 13 + k) for e in range(2, 11) for k in range(6)])


@pytest.mark.parametrize("rule", [0, 1])
def test_the_search_kernel_keeps_fail_soft_bounds_in_any_window(rule):
    """_solve with windows around, above, below and at the true score (null windows too), a fresh table
    each time and one shared across windows: a score inside the window is exact, one at or below alpha
    an upper bound, one at or above beta a lower bound.  Catches a last-squares solver returning a
    bound on the wrong side, a cut-off taken against the wrong bound, a stale table bound."""
    solver = E.EndgameSolver(tt_bits=12, rule=rule)
    rng = np.random.default_rng(3 + rule)
    for P, O in POSITIONS:
        P, O = np.uint64(P), np.uint64(O)
        true = int(brute(P, O, 0, rule))
        windows = [(-65, 65), (true - 1, true + 1), (true, true + 1), (true - 1, true), (true + 3, true + 9),
                   (true - 9, true - 3)]
        windows += [tuple(sorted(rng.integers(-66, 66, 2))) for _ in range(4)]
        for alpha, beta in windows:
            if beta <= alpha:
                continue
            for fresh in (True, False):
                if fresh:
                    solver.clear()
                ctrl = np.array([0, 1 << 62, 0, rule, 0], dtype=np.int64)
                v = int(E._solve(P, O, np.int64(alpha), np.int64(beta), np.int64(0), ctrl, solver.tt,
                                 solver.scratch, solver.score, solver.w))
                if v <= alpha:
                    assert true <= v, (hex(P), hex(O), rule, alpha, beta, v, true)
                elif v >= beta:
                    assert true >= v, (hex(P), hex(O), rule, alpha, beta, v, true)
                else:
                    assert v == true, (hex(P), hex(O), rule, alpha, beta, v, true)
