"""Hex's connection distance, and the evaluation and value function built on it.

The distance of a player is the number of empty cells it still needs to join its two edges: the
shortest path over the board where its own stones cost 0, empty cells 1 and the opponent's stones
are walls (a 0-1 breadth-first search).  Player 0 joins row 0 to row n-1, player 1 column 0 to
column n-1 (layout and neighbours: engines/games/hex.py).  The parameters of evaluate_distance /
value_distance are one float64 vector (VALUE_SCALE below).  This module imports no other knowledge:
the solver (hex/solver.py) and Hex's registered knowledge (hex.py) build on it.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import HEADER, NEIGHBOURS, SIZE, TO_MOVE, WINNER

WIN_SCORE = 1e4   # final states: +-(WIN_SCORE + empty cells), beyond every distance difference
VALUE_SCALE = 0   # params[VALUE_SCALE]: cells of distance difference per unit of the logistic's argument
DEFAULT_WEIGHTS = np.array([1.5], dtype=np.float64)
_DEFAULT_SCALE = 1.5  # used when params is shorter (an exception cannot cross a compiled search)


@nb.njit(cache=True)
def distance(s, player):
    """Empty cells player still needs to connect its edges (n*n + 1 when the opponent cut it off)."""
    n = s[SIZE]
    nn = n * n
    own = player + 1
    unreachable = nn + 1
    dist = np.full(nn, unreachable, dtype=np.int64)
    # a deque in one array: the front grows down from the middle, the back up; every cell enters at
    # most once per improvement (at most 1 + 6 times), so 7 * nn slots suffice on each side
    queue = np.empty(14 * nn + 2, dtype=np.int64)
    head = 7 * nn + 1
    tail = head
    for k in range(n):  # the start edge: row 0 for player 0, column 0 for player 1
        cell = k if player == 0 else k * n
        v = s[HEADER + cell]
        if v == 0 or v == own:
            cost = 0 if v == own else 1
            if cost < dist[cell]:
                dist[cell] = cost
                if cost == 0:
                    head -= 1
                    queue[head] = cell
                else:
                    queue[tail] = cell
                    tail += 1
    while head < tail:
        cell = queue[head]
        head += 1
        r = cell // n
        c = cell - r * n
        for d in range(6):
            rr = r + NEIGHBOURS[d, 0]
            cc = c + NEIGHBOURS[d, 1]
            if rr < 0 or rr >= n or cc < 0 or cc >= n:
                continue
            nxt = rr * n + cc
            v = s[HEADER + nxt]
            if v != 0 and v != own:
                continue
            cost = 0 if v == own else 1
            if dist[cell] + cost < dist[nxt]:
                dist[nxt] = dist[cell] + cost
                if cost == 0:
                    head -= 1
                    queue[head] = nxt
                else:
                    queue[tail] = nxt
                    tail += 1
    best = unreachable
    for k in range(n):  # the far edge: row n-1 for player 0, column n-1 for player 1
        cell = (n - 1) * n + k if player == 0 else k * n + n - 1
        best = min(best, dist[cell])
    return best


@nb.njit(cache=True, inline="always")
def _empty_cells(s):
    nn = s[SIZE] * s[SIZE]
    empty = 0
    for i in range(nn):
        if s[HEADER + i] == 0:
            empty += 1
    return empty


@nb.njit(K.SIG_EVALUATE, cache=True)
def evaluate_distance(s, params):
    """For the side to move: the opponent's distance minus its own.  Final states score exactly
    +-(WIN_SCORE + empty cells) (+ for the winner: a faster win is worth more).  params is ignored."""
    p = s[TO_MOVE]
    if s[WINNER] >= 0:
        v = WIN_SCORE + _empty_cells(s)
        return v if s[WINNER] == p else -v
    return np.float64(distance(s, 1 - p) - distance(s, p))


@nb.njit(K.SIG_VALUE, cache=True)
def value_distance(s, params):
    """P(player 0 wins): exact 1 / 0 on final states, else the logistic of (player 1's distance -
    player 0's) with scale params[VALUE_SCALE] (1.5 cells if params is shorter)."""
    if s[WINNER] >= 0:
        return 1.0 if s[WINNER] == 0 else 0.0
    scale = params[VALUE_SCALE] if params.shape[0] > VALUE_SCALE else _DEFAULT_SCALE
    return 1.0 / (1.0 + np.exp(-(distance(s, 1) - distance(s, 0)) / scale))
