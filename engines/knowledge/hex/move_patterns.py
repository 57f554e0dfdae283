"""Learned local move patterns of Hex (MoHex 2.0 style), as the RAVE search's prior.

Pattern of an empty cell x for the player to move.  Twelve cells around x: its six neighbours in
ring order (offsets (-1,0) (-1,1) (0,1) (1,0) (1,-1) (0,-1)), then the six bridge cells in ring order
((-2,1) (-1,2) (1,1) (2,-1) (1,-2) (-1,-1): bridge cell k lies between neighbours k and k+1).  Each
cell is EMPTY 0, OWN 1 (a stone of the player to move, or off the board beyond one of its own edges),
OPP 2 (the opponent's stone or edge) or CORNER 3 (off the board beyond two edges at once).  The
board is seen from the player to move's side: for White the offsets are transposed (row and column
swapped), which turns White's left-right connection into Black's top-bottom one (the transpose keeps
Hex's adjacency), so one table serves both colours: the colour swap with the transpose is built in.
The key is sum value_k * 4**k (24 bits); the 180-degree rotation maps ring position k to k + 3 (in
both rings), and the canonical key is the smaller of the key and its rotation.  The 6-cell key is
the same over the six neighbours alone (12 bits).

Model (engines/learn/hex/patterns_mm.py fits it).  A cell's strength is gamma12[its 12-cell key]
(gamma of "any other 12-cell pattern" when the key is not in the table) times gamma6[its 6-cell key]
(1 when not in the table).

File (weights/hex/patterns<n>.txt, text): lines ``p12 KEY GAMMA``, ``p6 KEY GAMMA`` and one
``other12 - GAMMA``; '#' starts a comment.  ``pack(table)`` gives the float64 params of the
experience kernel: [visits, low, high, n12, n6, keys12 (sorted), log gamma12, log other12,
keys6 (sorted), log gamma6].

Prior.  ``pattern_experience`` (an experience kernel of engines/search/rave.py) gives each new child
``visits`` virtual visits won at a rate from ``low`` to ``high`` in proportion to its strength over the
strongest sibling's (as registered.network_experience does with a network's probabilities).
"""
import math
from pathlib import Path

import numba as nb
import numpy as np

import weights
from engines import kernels as K
from engines.games.hex import HEADER, SIZE, TO_MOVE

OFFSETS = np.array([[-1, 0], [-1, 1], [0, 1], [1, 0], [1, -1], [0, -1],
                    [-2, 1], [-1, 2], [1, 1], [2, -1], [1, -2], [-1, -1]], dtype=np.int64)
EMPTY, OWN, OPP, CORNER = 0, 1, 2, 3
# the prior's strength: as the network's (registered.NET_VISITS, NET_LOW, NET_HIGH)
VISITS, LOW, HIGH = 20.0, 0.3, 0.8
HEAD = 5  # params: visits, low, high, n12, n6


@nb.njit(cache=True, inline="always")
def cell_value(cells, n, r, c, mover):
    """The value (EMPTY/OWN/OPP/CORNER) of board cell (r, c) in the frame of the player to move
    (row and column already swapped for White)."""
    if mover == 1:
        r, c = c, r
    row_out = r < 0 or r >= n
    col_out = c < 0 or c >= n
    if row_out and col_out:
        return CORNER
    if row_out:  # beyond a top/bottom edge: Black's
        return OWN if mover == 0 else OPP
    if col_out:  # beyond a left/right edge: White's
        return OPP if mover == 0 else OWN
    v = cells[r * n + c]
    if v == 0:
        return EMPTY
    return OWN if v - 1 == mover else OPP


@nb.njit(cache=True)
def rotate(key, ring_cells):
    """The key of the pattern turned by 180 degrees (ring position k -> k + 3 in each 6-cell ring)."""
    out = 0
    for ring in range(ring_cells // 6):
        for k in range(6):
            v = (key >> (2 * (6 * ring + k))) & 3
            out |= v << (2 * (6 * ring + (k + 3) % 6))
    return out


@nb.njit(cache=True)
def cell_keys(cells, n, action, mover):
    """(canonical 12-cell key, canonical 6-cell key) of empty cell ``action`` for ``mover`` (cells: the
    flat board, 0 empty, 1 Black, 2 White)."""
    r0, c0 = action // n, action % n
    if mover == 1:  # the frame of the player to move: offsets transposed for White
        r0, c0 = c0, r0
    key = 0
    for k in range(12):
        v = cell_value(cells, n, r0 + OFFSETS[k, 0], c0 + OFFSETS[k, 1], mover)
        key |= v << (2 * k)
    key6 = key & 0xFFF
    return min(key, rotate(key, 12)), min(key6, rotate(key6, 6))


@nb.njit(cache=True)
def board_keys(cells, n, mover, keys12, keys6):
    """Both keys of every cell (-1 for the occupied ones)."""
    for a in range(n * n):
        if cells[a] != 0:
            keys12[a] = -1
            keys6[a] = -1
        else:
            keys12[a], keys6[a] = cell_keys(cells, n, a, mover)


@nb.njit(cache=True)
def _lookup(table, lo, count, key):
    """Index of key in the sorted table[lo : lo + count], or -1."""
    i = np.searchsorted(table[lo:lo + count], np.float64(key))
    if i < count and table[lo + i] == key:
        return i
    return -1


@nb.njit(cache=True)
def log_strength(params, cells, n, action, mover):
    """log gamma12 + log gamma6 of an empty cell (see the module docstring)."""
    n12, n6 = int(params[3]), int(params[4])
    k12, k6 = cell_keys(cells, n, action, mover)
    i = _lookup(params, HEAD, n12, k12)
    out = params[HEAD + n12 + i] if i >= 0 else params[HEAD + 2 * n12]
    base6 = HEAD + 2 * n12 + 1
    j = _lookup(params, base6, n6, k6)
    if j >= 0:
        out += params[base6 + n6 + j]
    return out


@nb.njit(K.SIG_EXPERIENCE, cache=True)
def pattern_experience(s, actions, n, visits, wins, params):
    """Virtual experience of the n children from their patterns' strengths."""
    size = s[SIZE]
    mover = s[TO_MOVE]
    cells = s[HEADER:HEADER + size * size]
    logs = np.empty(n)
    top = -np.inf
    for i in range(n):
        logs[i] = log_strength(params, cells, size, actions[i], mover)
        top = max(top, logs[i])
    for i in range(n):
        rate = params[1] + (params[2] - params[1]) * np.exp(logs[i] - top)
        visits[i] = params[0]
        wins[i] = params[0] * rate


# ---- the table --------------------------------------------------------------------------------------
class PatternTable:
    """gamma12, gamma6 (dicts key -> gamma) and other12 (see the module docstring); ``path`` its file."""

    def __init__(self, gamma12: dict, gamma6: dict, other12: float = 1.0, path=None):
        self.gamma12, self.gamma6, self.other12, self.path = dict(gamma12), dict(gamma6), float(other12), path

    def text(self) -> str:
        lines = ["# Hex move patterns (engines/knowledge/hex/move_patterns.py): kind key gamma"]
        lines += [f"p12 {k} {g!r}" for k, g in sorted(self.gamma12.items())]
        lines += [f"p6 {k} {g!r}" for k, g in sorted(self.gamma6.items())]
        lines.append(f"other12 - {self.other12!r}")
        return "\n".join(lines) + "\n"

    def pack(self, visits: float = VISITS, low: float = LOW, high: float = HIGH) -> np.ndarray:
        k12 = sorted(self.gamma12)
        k6 = sorted(self.gamma6)
        return np.array([visits, low, high, len(k12), len(k6), *k12, *(math.log(self.gamma12[k]) for k in k12),
                         math.log(self.other12), *k6, *(math.log(self.gamma6[k]) for k in k6)], dtype=np.float64)


def parse_table(text: str, name="<text>") -> PatternTable:
    """A PatternTable from a file's text; ValueError naming the line for anything else."""
    gamma12, gamma6, other12 = {}, {}, None
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            kind, key, gamma = words
            gamma = float(gamma)
            if not (math.isfinite(gamma) and gamma > 0):
                raise ValueError
            if kind == "other12" and key == "-":
                other12 = gamma
            elif kind in ("p12", "p6"):
                key = int(key)
                if not 0 <= key < (1 << (24 if kind == "p12" else 12)):
                    raise ValueError
                (gamma12 if kind == "p12" else gamma6)[key] = gamma
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"{name}:{number}: expected 'p12 KEY GAMMA', 'p6 KEY GAMMA' or 'other12 - GAMMA' "
                             f"(a gamma > 0), got {line.strip()!r}") from None
    return PatternTable(gamma12, gamma6, 1.0 if other12 is None else other12, name)


def load_table(path) -> PatternTable:
    return parse_table(Path(path).read_text(encoding="ascii"), str(path))


def shipped_path(size: int) -> Path | None:
    path = weights.HEX_DIR / f"patterns{int(size)}.txt"
    return path if path.is_file() else None


def table_for_size(choice: str, size: int) -> PatternTable | None:
    """The table a setting names: 'none' -> None, 'shipped' -> weights/hex/patterns<size>.txt (None when
    the size has none), else a file (its patterns are local: any size)."""
    if choice == "none":
        return None
    if choice == "shipped":
        path = shipped_path(size)
        return None if path is None else load_table(path)
    return load_table(choice)


def warm_up(game):
    """Compile the kernels on a small position of game."""
    state = game.play(game.initial_state(), 0)
    n = game.size
    actions = np.empty(game.num_actions, dtype=np.int32)
    count = game.kernels.legal(state, actions)
    visits, wins = np.empty(game.num_actions), np.empty(game.num_actions)
    params = PatternTable({1: 2.0}, {1: 2.0}).pack()
    pattern_experience(state, actions, count, visits, wins, params)
    keys12 = np.empty(n * n, dtype=np.int64)
    keys6 = np.empty(n * n, dtype=np.int64)
    board_keys(state[HEADER:HEADER + n * n], n, 1, keys12, keys6)
