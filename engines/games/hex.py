"""Hex on an n x n rhombus (3 <= n <= 19).

Player 0 ("player 1" of the harnesses) joins row 0 to row n-1; player 1 ("player 2") joins column 0
to column n-1.  Neighbours of (r, c): (r-1,c) (r-1,c+1) (r,c-1) (r,c+1) (r+1,c-1) (r+1,c).
There are no draws.

State layout (np.int64):
  [0] size n   [1] player to move   [2] winner (-1 none, 0, 1)   [3] stones played   [4] Zobrist hash
  [HEADER : HEADER+n*n]            cells row-major: 0 empty, 1 player 0, 2 player 1
  [HEADER+n*n : HEADER+2*n*n+4]    union-find parents over the cells plus four virtual edge nodes
                                   (n*n top, n*n+1 bottom, n*n+2 left, n*n+3 right)
Action = r*n + c.  The winner is found incrementally with union-find, not by a search per move.
A random playout fills the board in random order and decides the winner with one flood fill: on a
full board exactly one player is connected, and it is the one who connected first.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.base import CELL_DTYPE, Game, check_size
from engines.games.planes import write_planes
from engines.rng import below

HEADER = 8
SIZE, TO_MOVE, WINNER, NSTONES, HASH = 0, 1, 2, 3, 4
MIN_SIZE, MAX_SIZE = 3, 19
NEIGHBOURS = np.array([[-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0]], dtype=np.int64)
ZOBRIST = np.random.default_rng(0x4E58).integers(-(2**63), 2**63 - 1, size=(2, MAX_SIZE * MAX_SIZE + 1),
                                                 dtype=np.int64)


@nb.njit(cache=True, inline="always")
def _find(s, base, x):
    root = x
    while s[base + root] != root:
        root = s[base + root]
    while s[base + x] != root:  # path compression
        nxt = s[base + x]
        s[base + x] = root
        x = nxt
    return root


@nb.njit(cache=True, inline="always")
def _union(s, base, a, b):
    ra = _find(s, base, a)
    rb = _find(s, base, b)
    if ra != rb:
        s[base + ra] = rb


@nb.njit(K.SIG_LEGAL, cache=True)
def legal(s, out):
    if s[WINNER] >= 0:
        return 0
    nn = s[SIZE] * s[SIZE]
    k = 0
    for i in range(nn):
        if s[HEADER + i] == 0:
            out[k] = i
            k += 1
    return k


@nb.njit(K.SIG_APPLY, cache=True)
def apply(s, a):
    n = s[SIZE]
    nn = n * n
    base = HEADER + nn
    p = s[TO_MOVE]
    s[HEADER + a] = p + 1
    s[HASH] ^= ZOBRIST[p, a] ^ ZOBRIST[0, nn]  # last column of the table keys the side to move
    r = a // n
    c = a - r * n
    for d in range(6):
        rr = r + NEIGHBOURS[d, 0]
        cc = c + NEIGHBOURS[d, 1]
        if 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == p + 1:
            _union(s, base, a, rr * n + cc)
    if p == 0:
        if r == 0:
            _union(s, base, a, nn)
        if r == n - 1:
            _union(s, base, a, nn + 1)
        if _find(s, base, nn) == _find(s, base, nn + 1):
            s[WINNER] = 0
    else:
        if c == 0:
            _union(s, base, a, nn + 2)
        if c == n - 1:
            _union(s, base, a, nn + 3)
        if _find(s, base, nn + 2) == _find(s, base, nn + 3):
            s[WINNER] = 1
    s[TO_MOVE] = 1 - p
    s[NSTONES] += 1


@nb.njit(K.SIG_TERMINAL, cache=True)
def terminal(s):
    return s[WINNER] >= 0


@nb.njit(K.SIG_TO_MOVE, cache=True)
def to_move(s):
    return s[TO_MOVE]


@nb.njit(K.SIG_RESULT, cache=True)
def result(s):
    if s[WINNER] == 0:
        return 1.0
    if s[WINNER] == 1:
        return 0.0
    return 0.5  # not reached for final states: Hex has no draws


@nb.njit(cache=True)
def flood_winner(cells, n):
    """Winner of a completely filled board (cells: 1/2 row-major), by one flood fill from row 0."""
    seen = np.zeros(n * n, dtype=np.bool_)
    stack = np.empty(n * n, dtype=np.int64)
    top = 0
    for c in range(n):
        if cells[c] == 1:
            seen[c] = True
            stack[top] = c
            top += 1
    while top > 0:
        top -= 1
        x = stack[top]
        r = x // n
        c = x - r * n
        if r == n - 1:
            return 0
        for d in range(6):
            rr = r + NEIGHBOURS[d, 0]
            cc = c + NEIGHBOURS[d, 1]
            if 0 <= rr < n and 0 <= cc < n:
                y = rr * n + cc
                if cells[y] == 1 and not seen[y]:
                    seen[y] = True
                    stack[top] = y
                    top += 1
    return 1


@nb.njit(K.SIG_PLAYOUT, cache=True)
def playout(s, rng):
    if s[WINNER] >= 0:
        return result(s)
    n = s[SIZE]
    nn = n * n
    empties = np.empty(nn, dtype=np.int64)
    k = 0
    for i in range(nn):
        if s[HEADER + i] == 0:
            empties[k] = i
            k += 1
    p = s[TO_MOVE]
    for i in range(k):  # Fisher-Yates, placing stones alternately as we draw
        j = i + below(rng, k - i)
        e = empties[j]
        empties[j] = empties[i]
        s[HEADER + e] = p + 1
        p = 1 - p
    s[WINNER] = flood_winner(s[HEADER:HEADER + nn], n)
    s[TO_MOVE] = p
    s[NSTONES] += k
    return result(s)


@nb.njit(K.SIG_HASH, cache=True)
def zobrist(s):
    return s[HASH]


@nb.njit(K.SIG_OBSERVE, cache=True)
def observe(s, out):
    """Planes (3, n, n): player-0 stones, player-1 stones, all ones when player 1 is to move."""
    write_planes(s[HEADER:HEADER + s[SIZE] * s[SIZE]], s[TO_MOVE], out)


KERNELS = K.GameKernels(legal=legal, rollout_moves=legal, apply=apply, terminal=terminal, to_move=to_move,
                        result=result, playout=playout, hash=zobrist, observe=observe)


class Hex(Game):
    """Hex: player 0 joins the top row to the bottom row, player 1 the left column to the right one.
    No pass; the board view's (row, col) is the state's cell (row, col)."""

    name = "hex"
    kernels = KERNELS
    pass_action = None
    SYMBOLS = {0: ".", 1: "X", 2: "O"}

    def __init__(self, size: int = 5):
        self.size = check_size("hex", size, MIN_SIZE, MAX_SIZE)
        self.num_actions = self.size * self.size

    def __repr__(self):
        return f"Hex(size={self.size})"

    @property
    def observation_shape(self):
        return (3, self.size, self.size)

    def initial_state(self) -> np.ndarray:
        n = self.size
        nn = n * n
        s = np.zeros(HEADER + 2 * nn + 4, dtype=np.int64)
        s[SIZE] = n
        s[WINNER] = -1
        s[HEADER + nn:] = np.arange(nn + 4)
        return s

    def cells(self, state: np.ndarray) -> np.ndarray:
        n = self.size
        return state[HEADER:HEADER + n * n].reshape(n, n).astype(CELL_DTYPE)

    def state_from_cells(self, cells, to_move: int, *, previous=None, moves_played=None) -> np.ndarray:
        """A state from a board, replaying its stones (any counts: a harness board is taken as given)."""
        self._no_history(previous, moves_played)
        flat = self._check_grid(cells).reshape(-1).astype(np.int64)
        to_move = self._check_to_move(to_move)
        s = self.initial_state()
        for a in np.flatnonzero(flat):
            s[TO_MOVE] = flat[a] - 1
            if s[WINNER] < 0:
                apply(s, a)
            else:  # stones beyond a win (replay order is not game order): record them and their hash
                s[HEADER + a] = flat[a]
                s[HASH] ^= ZOBRIST[flat[a] - 1, a] ^ ZOBRIST[0, self.num_actions]
                s[NSTONES] += 1
        if (s[NSTONES] % 2) != to_move:  # each replayed stone toggled the side key: match to_move
            s[HASH] ^= ZOBRIST[0, self.num_actions]
        s[TO_MOVE] = to_move
        return s

    def score(self, state: np.ndarray) -> float:
        """+1 when player 0 has won, -1 when player 1 has, 0 while undecided."""
        return {-1: 0.0, 0: 1.0, 1: -1.0}[int(state[WINNER])]

    def render(self, state: np.ndarray) -> str:
        """The diamond: cell (0,0) alone at the top; row 0 runs down the north-east edge."""
        n = self.size
        cells = state[HEADER:HEADER + n * n].reshape(n, n)
        lines = []
        for k in range(2 * n - 1):
            cs = range(max(0, k - n + 1), min(k, n - 1) + 1)
            row = " ".join(self.SYMBOLS[int(cells[k - c, c])] for c in cs)
            lines.append(" " * abs(n - 1 - k) * 1 + row)
        mover = int(state[TO_MOVE])
        status = (f"winner: player {int(state[WINNER]) + 1}" if state[WINNER] >= 0
                  else f"to move: player {mover + 1} ({'XO'[mover]})")
        lines.append(f"X = player 1 (joins NE-SW: rows), O = player 2 (joins NW-SE: columns); {status}")
        return "\n".join(lines)
