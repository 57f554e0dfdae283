"""Go5 move features and their weights (gamma), compiled over the Go state of engines/games/go.py.

Features are computed for the position's player to move X (never for another colour).  Every legal
point of X (L(X): empty, not the ko point, not suicide) gets an ordered list of distinct feature
indices, added in five phases:
  (a) capture / atari: the opponent blocks in board order (each found at its first stone in board
      order); a block with 1 liberty puts FE_CAPTURE on it, a block with exactly 2 liberties puts
      FE_ATARI_KO (a ko point exists, wherever it is) or FE_ATARI_OTHER on both; X's own blocks are
      not examined; a target that is not in L(X) is dropped;
  (b) FE_DIST_PREV_d for the distance d = dx + dy + max(dx, dy) to the last move, when it was a
      stone and 2 <= d <= 9;
  (c) FE_DIST_PREV_OWN_0 on the point of the second-last move (its stone has been captured), else
      FE_DIST_PREV_OWN_d for 2 <= d <= 9, when the second-last move was a stone;
  (d) FE_LINE_1 / 2 / 3 for line = min(row, col, n+1-row, n+1-col) (rows and columns from 1) = 1, 2, >= 3;
  (e) the class of the 3x3 neighbourhood, when the pattern table has one (engines/knowledge/go/go5_weights.py).
The pass gets FE_PASS_NEW (no move yet, or the last move was a stone) or FE_PASS_CONSECUTIVE (the
last move was a pass).  FE_SELF_ATARI is never set.  A feature added twice is kept once, at its
first place.  gamma(move) = 1.0 * w[f1] * w[f2] * ..., multiplied in that order.

Arrays.  ``compute_features(s, table, feats, nfeat)`` fills, for every action a in 0..n*n (the pass
is n*n): ``nfeat[a]`` = the number of features, or -1 when a is not a legal point of X, and
``feats[a, :nfeat[a]]`` the features in order; ``feats`` is int32 (n*n + 1, MAX_FEATURES).  The
pattern table is int32 (GoWeights.table) or the same numbers as float64 (the prior kernel's params).
Under the "go5" rules the candidates K(X) come in empty-list order, otherwise in board order.
"""
import numba as nb
import numpy as np
from numba import types

from engines.errors import IllegalMove
from engines import kernels as K
from engines.games.go import (A_HEAD, A_NEXT, BORDER, EMPTY_CELL, HEADER, KO, LAST, LAST2, NMOVES, OK, PSIZE,
                              SIZE, STRIDE, TO_MOVE, _check, candidates)
from engines.knowledge.go.go5_weights import (FE_ATARI_KO, FE_ATARI_OTHER, FE_CAPTURE, FE_DIST_PREV_2,
                                          FE_DIST_PREV_OWN_0, FE_DIST_PREV_OWN_2, FE_LINE_1, FE_PASS_CONSECUTIVE,
                                          FE_PASS_NEW, NUM_FEATURES, PATTERN_CODES, GoWeights)

MAX_FEATURES = 6  # capture, atari, distance, own distance, line, pattern
MAX_DISTANCE = 9  # larger distances give no distance feature

_FEATS = types.int32[:, ::1]
_COUNTS = types.int32[::1]
_CORE_SIGS = [types.int64(K.STATE, types.int32[::1], _FEATS, _COUNTS),
              types.int64(K.STATE, types.float64[::1], _FEATS, _COUNTS)]


@nb.njit(inline="always")
def _add(feats, nfeat, a, f):
    """Append feature f to action a's list unless a is not legal or already has f."""
    k = nfeat[a]
    if k < 0:
        return
    for i in range(k):
        if feats[a, i] == f:
            return
    feats[a, k] = f
    nfeat[a] = k + 1


@nb.njit(inline="always")
def _distance(p, q, w):
    dy = abs(p // w - q // w)
    dx = abs(p % w - q % w)
    return dx + dy + max(dx, dy)


@nb.njit(inline="always")
def _cell_digit(v, c):
    """Pattern digit of a board cell seen by colour c: '#' 0, '.' 1, 'O' 2, 'X' 3."""
    if v == EMPTY_CELL:
        return 1
    if v == BORDER:
        return 0
    if v == c:
        return 3
    return 2


@nb.njit(_CORE_SIGS, cache=True)
def compute_features(s, table, feats, nfeat):
    """Fill feats / nfeat for every action of the player to move (see the module docstring);
    returns n*n + 1, the number of actions."""
    n = s[SIZE]
    nn = n * n
    w = s[STRIDE]
    P = s[PSIZE]
    bd = HEADER
    nx = HEADER + A_NEXT * P
    hd = HEADER + A_HEAD * P
    c = s[TO_MOVE] + 1
    o = 3 - c
    # L(X)
    for a in range(nn):
        r = a // n
        p = (r + 1) * w + a - r * n + 1
        nfeat[a] = 0 if (s[bd + p] == EMPTY_CELL and _check(s, p, c, True) == OK) else -1
    # the pass
    nfeat[nn] = 1
    feats[nn, 0] = FE_PASS_CONSECUTIVE if (s[NMOVES] > 0 and s[LAST] < 0) else FE_PASS_NEW
    # (a) capture and atari: opponent blocks in board order
    atari = FE_ATARI_KO if s[KO] >= 0 else FE_ATARI_OTHER
    seen = np.zeros(P, dtype=np.bool_)
    for r in range(n):
        for col in range(n):
            p = (r + 1) * w + col + 1
            if s[bd + p] != o:
                continue
            h = s[hd + p]
            if seen[h]:
                continue
            seen[h] = True
            l0 = -1
            l1 = -1
            nlibs = 0
            q = h
            while nlibs < 3:
                for t in (q - 1, q + 1, q - w, q + w):
                    if s[bd + t] == EMPTY_CELL and t != l0 and t != l1:
                        if nlibs == 0:
                            l0 = t
                        elif nlibs == 1:
                            l1 = t
                        nlibs += 1
                        if nlibs == 3:
                            break
                q = s[nx + q]
                if q == h:
                    break
            if nlibs == 1:
                _add(feats, nfeat, (l0 // w - 1) * n + l0 % w - 1, FE_CAPTURE)
            elif nlibs == 2:
                _add(feats, nfeat, (l0 // w - 1) * n + l0 % w - 1, atari)
                _add(feats, nfeat, (l1 // w - 1) * n + l1 % w - 1, atari)
    last = s[LAST]
    last2 = s[LAST2]
    for a in range(nn):
        if nfeat[a] < 0:
            continue
        r = a // n
        col = a - r * n
        p = (r + 1) * w + col + 1
        # (b) distance to the last move
        if last >= 0:
            d = _distance(p, last, w)
            if 2 <= d <= MAX_DISTANCE:
                _add(feats, nfeat, a, FE_DIST_PREV_2 + d - 2)
        # (c) distance to the second-last move
        if last2 >= 0:
            d = _distance(p, last2, w)
            if d == 0:
                _add(feats, nfeat, a, FE_DIST_PREV_OWN_0)
            elif 2 <= d <= MAX_DISTANCE:
                _add(feats, nfeat, a, FE_DIST_PREV_OWN_2 + d - 2)
        # (d) line
        line = min(min(r, col), min(n - 1 - r, n - 1 - col)) + 1
        _add(feats, nfeat, a, FE_LINE_1 + min(line, 3) - 1)
        # (e) the 3x3 pattern: the 8 cells around p, south row first, each row west to east
        code = 0
        for t in (p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1):
            code = code * 4 + _cell_digit(s[bd + t], c)
        f = int(table[code])
        if f >= 0:
            _add(feats, nfeat, a, f)
    return nn + 1


@nb.njit(inline="always")
def gamma_of(feats, nfeat, a, weights):
    """1.0 * w[f1] * w[f2] * ... in feature order (0.0 when a is not a legal point)."""
    k = nfeat[a]
    if k < 0:
        return 0.0
    g = 1.0
    for i in range(k):
        g *= weights[feats[a, i]]
    return g


@nb.njit(types.int64(K.STATE, types.float64[::1], types.int32[::1], types.int32[::1], types.float64[::1]),
         cache=True)
def candidate_gammas(s, weights, table, actions, gammas):
    """The candidates K(X) of the player to move, then the pass, into actions; their gammas into
    gammas; returns the count (both arrays need room for n*n + 1)."""
    n = s[SIZE]
    nn = n * n
    feats = np.empty((nn + 1, MAX_FEATURES), dtype=np.int32)
    nfeat = np.empty(nn + 1, dtype=np.int32)
    compute_features(s, table, feats, nfeat)
    k = candidates(s, s[TO_MOVE] + 1, actions)
    actions[k] = nn
    k += 1
    for i in range(k):
        gammas[i] = gamma_of(feats, nfeat, actions[i], weights)
    return k


# ---- Python side ---------------------------------------------------------------------------------
def _check_args(game, state, weights=None):
    if not callable(getattr(game, "go5_candidates", None)):
        raise ValueError(f"game must be a Go game (engines.games.go.Go), got {game!r}")
    state = np.asarray(state)
    expected = game.initial_state().shape
    if state.dtype != np.int64 or state.shape != expected or int(state[SIZE]) != game.size:
        raise ValueError(f"state must be an int64 array of shape {expected} of {game!r}")
    if weights is not None and not isinstance(weights, GoWeights):
        raise ValueError(f"weights must be a GoWeights (engines.knowledge.go.go5_weights.load_weights), got {weights!r}")
    return np.ascontiguousarray(state)


def move_features(game, state, weights: GoWeights) -> dict[int, list[int]]:
    """Features of every legal point of the player to move, and of the pass (action n*n), in the
    order they were added.  ``weights`` supplies the pattern classes."""
    state = _check_args(game, state, weights)
    nn = game.size * game.size
    feats = np.empty((nn + 1, MAX_FEATURES), dtype=np.int32)
    nfeat = np.empty(nn + 1, dtype=np.int32)
    compute_features(state, weights.table, feats, nfeat)
    return {a: feats[a, :nfeat[a]].tolist() for a in range(nn + 1) if nfeat[a] >= 0}


def gammas(game, state, weights: GoWeights) -> tuple[list[int], np.ndarray]:
    """(actions, gammas): the candidates K(X) of the player to move (legal, not an own eye; under
    the "go5" rules in empty-list order), then the pass, with the gamma of each (float64)."""
    state = _check_args(game, state, weights)
    nn = game.size * game.size
    actions = np.empty(nn + 1, dtype=np.int32)
    out = np.empty(nn + 1, dtype=np.float64)
    k = candidate_gammas(state, weights.weights, weights.table, actions, out)
    return actions[:k].tolist(), out[:k].copy()


assert PATTERN_CODES == 4 ** 8 and NUM_FEATURES == 1080


def _liberties(cells, n, r, c):
    """(stones, liberties) of the block at (r, c) of a top-first grid."""
    colour = cells[r][c]
    block, libs, stack = {(r, c)}, set(), [(r, c)]
    while stack:
        i, j = stack.pop()
        for ii, jj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
            if 0 <= ii < n and 0 <= jj < n:
                v = cells[ii][jj]
                if v == 0:
                    libs.add((ii, jj))
                elif v == colour and (ii, jj) not in block:
                    block.add((ii, jj))
                    stack.append((ii, jj))
    return block, libs


def is_self_atari(game, state, action: int) -> bool:
    """For the player to move: no orthogonally adjacent own block has more than 2 liberties, and
    after the move (captures included) its block has exactly 1 liberty.  An illegal move is not one."""
    n = game.size
    colour = game.to_move(state)
    try:
        after = game.go5_play(state, action, colour)
    except IllegalMove:
        return False
    cells = game.cells(state)
    r, c = game.coords(action)
    for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= i < n and 0 <= j < n and cells[i][j] == colour + 1 and len(_liberties(cells, n, i, j)[1]) > 2:
            return False
    return len(_liberties(game.cells(after), n, r, c)[1]) == 1


def pattern_moves(game, state, weights: GoWeights, filter_self_atari: bool) -> list[int]:
    """The rule-based policy's pattern moves for the player to move: the empty points among the 8
    neighbours of the last and second-last moves whose 3x3 neighbourhood has a pattern feature,
    kept when legal, not an own eye, and (with the filter) not a self-atari."""
    state = _check_args(game, state, weights)
    n = game.size
    colour = game.to_move(state)
    cells = game.cells(state)
    digit = {0: 1, colour + 1: 3, 2 - colour: 2}  # '.', 'X' (to move), 'O'; off the board is '#' 0
    legal = set(game.go5_candidates(state))  # legal and not an own eye
    found = []
    for last in (game.last(state), game.last2(state)):
        if last is None:
            continue
        r0, c0 = game.coords(last)
        for r in (r0 + 1, r0, r0 - 1):  # south (lower on the board, so larger grid row) first
            for c in (c0 - 1, c0, c0 + 1):
                if not (0 <= r < n and 0 <= c < n) or cells[r][c] != 0 or (r, c) == (r0, c0):
                    continue
                code = 0
                for i in (r + 1, r, r - 1):
                    for j in (c - 1, c, c + 1):
                        if (i, j) != (r, c):
                            code = code * 4 + (digit[int(cells[i][j])] if 0 <= i < n and 0 <= j < n else 0)
                a = game.action(r, c)
                if weights.table[code] >= 0 and a in legal and a not in found \
                        and not (filter_self_atari and is_self_atari(game, state, a)):
                    found.append(a)
    return found
