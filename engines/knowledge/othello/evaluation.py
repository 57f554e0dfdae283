"""Othello's hand-written evaluations: ``evaluate_strong`` (weighted features, STRONG_WEIGHTS) with its
value function ``value_strong`` for MCTS, and ``evaluate_disc_difference``.

The kernels read both Othello state layouts (bitboards up to 8x8, the mailbox above; see the header
of engines/games/othello.py) and dispatch on the layout field of the header.  Their parameters are
one float64 vector of weights (indices W_* below).  This module imports no other knowledge but the
scores of final positions: the learned patterns (othello/patterns.py) build on it, and the registry
of Othello's evaluations is engines/knowledge/othello/registered.py.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.bits import popcount
from engines.games.othello import (BITBOARD, BLACK_BB, HEADER, LAYOUT, MOVES_BB, OVER, SIZE, STATUS, TO_MOVE,
                                   U1, VALID_BB, WHITE_BB, _mb_count_moves, bb_moves, disc_counts, result)
from engines.knowledge.scores import WIN_SCORE, final_score

# STRONG_WEIGHTS: one weight per feature of evaluate_strong, all from the mover's view (0 = off),
# then the logistic scale of value_strong (ignored by evaluate_strong).  Hand-set, not tuned.
W_DISCS, W_MOBILITY, W_CORNERS, W_XSQUARES, W_STABILITY, W_PARITY, VALUE_SCALE = range(7)
STRONG_WEIGHTS = np.array([
    0.2,   # discs: own minus opponent's
    4.0,   # mobility: own placements minus opponent's
    30.0,  # corners: own minus opponent's
    12.0,  # x-squares: opponent's minus own discs diagonally next to an EMPTY corner
    8.0,   # stability: own minus opponent's edge-anchored stable discs (runs from corners, full edges)
    2.0,   # parity: +1 when the number of empty cells is odd (mover would get the last move), else -1
    40.0,  # value_strong: P(black wins) = 1 / (1 + exp(-score_for_black / scale))
], dtype=np.float64)
_DEFAULT_WEIGHTS = STRONG_WEIGHTS.copy()  # frozen into the kernels as a constant


@nb.njit(cache=True, inline="always")
def _cell(s, r, c):
    """0 empty, 1 black, 2 white, for either layout."""
    if s[LAYOUT] == BITBOARD:
        sh = np.uint64(r * 8 + c)
        if (np.uint64(s[BLACK_BB]) >> sh) & U1:
            return 1
        if (np.uint64(s[WHITE_BB]) >> sh) & U1:
            return 2
        return 0
    return s[HEADER + r * s[SIZE] + c]


@nb.njit(cache=True, inline="always")
def _mobilities(s):
    """(placements of the side to move, placements of the other side)."""
    n = s[SIZE]
    p = s[TO_MOVE]
    if s[LAYOUT] == BITBOARD:
        valid = np.uint64(s[VALID_BB])
        B = np.uint64(s[BLACK_BB])
        W = np.uint64(s[WHITE_BB])
        P, O = (B, W) if p == 0 else (W, B)
        return np.int64(popcount(np.uint64(s[MOVES_BB]))), np.int64(popcount(bb_moves(O, P, valid)))
    return _mb_count_moves(s, n, p + 1, False), _mb_count_moves(s, n, 2 - p, False)


@nb.njit(cache=True)
def _edge_stable(s, n, r0, c0, dr, dc):
    """(black, white) stable discs on one edge: every disc of a full edge, else the runs of the
    corner's colour starting at each occupied end.  Corners are counted (each edge counts them)."""
    b = 0
    w = 0
    full = True
    for i in range(n):
        if _cell(s, r0 + i * dr, c0 + i * dc) == 0:
            full = False
            break
    if full:
        for i in range(n):
            if _cell(s, r0 + i * dr, c0 + i * dc) == 1:
                b += 1
            else:
                w += 1
        return b, w
    first = _cell(s, r0, c0)
    if first != 0:
        i = 0
        while _cell(s, r0 + i * dr, c0 + i * dc) == first:
            i += 1
        if first == 1:
            b += i
        else:
            w += i
    last = _cell(s, r0 + (n - 1) * dr, c0 + (n - 1) * dc)
    if last != 0:
        i = n - 1
        while _cell(s, r0 + i * dr, c0 + i * dc) == last:
            i -= 1
        if last == 1:
            b += n - 1 - i
        else:
            w += n - 1 - i
    return b, w


@nb.njit(cache=True)
def stable_discs(s):
    """(black, white) edge-anchored stable discs: corners, same-colour runs along the edges from an
    occupied corner, and whole edges once full (an edge disc can only be flipped along its edge)."""
    n = s[SIZE]
    m = n - 1
    b = 0
    w = 0
    for e in range(4):
        if e == 0:
            eb, ew = _edge_stable(s, n, 0, 0, 0, 1)
        elif e == 1:
            eb, ew = _edge_stable(s, n, m, 0, 0, 1)
        elif e == 2:
            eb, ew = _edge_stable(s, n, 0, 0, 1, 0)
        else:
            eb, ew = _edge_stable(s, n, 0, m, 1, 0)
        b += eb
        w += ew
    for k in range(4):  # each occupied corner was counted by both of its edges
        v = _cell(s, m if k >= 2 else 0, m if k % 2 == 1 else 0)
        if v == 1:
            b -= 1
        elif v == 2:
            w -= 1
    return b, w


@nb.njit(K.SIG_EVALUATE, cache=True)
def evaluate_disc_difference(s, params):
    """Mover's discs minus the opponent's; on a final state this is the exact outcome in discs (the
    game manager's utility).  params is ignored."""
    b, w = disc_counts(s)
    return np.float64(b - w) if s[TO_MOVE] == 0 else np.float64(w - b)


@nb.njit(cache=True)
def _evaluate_strong(s, w):
    n = s[SIZE]
    p = s[TO_MOVE]
    nblack, nwhite = disc_counts(s)
    mine, theirs = (nblack, nwhite) if p == 0 else (nwhite, nblack)
    if s[STATUS] == OVER:
        return final_score(np.float64(mine - theirs))
    me = p + 1
    score = 0.0
    if w[W_DISCS] != 0.0:
        score += w[W_DISCS] * (mine - theirs)
    if w[W_MOBILITY] != 0.0:
        mm, om = _mobilities(s)
        score += w[W_MOBILITY] * (mm - om)
    if w[W_CORNERS] != 0.0 or w[W_XSQUARES] != 0.0:
        m = n - 1
        corners = 0
        xsq = 0
        for k in range(4):
            r = m if k >= 2 else 0
            c = m if k % 2 == 1 else 0
            v = _cell(s, r, c)
            if v != 0:
                corners += 1 if v == me else -1
            else:
                x = _cell(s, 1 if r == 0 else m - 1, 1 if c == 0 else m - 1)
                if x != 0:
                    xsq += -1 if x == me else 1
        score += w[W_CORNERS] * corners + w[W_XSQUARES] * xsq
    if w[W_STABILITY] != 0.0:
        sb, sw = stable_discs(s)
        score += w[W_STABILITY] * (sb - sw if p == 0 else sw - sb)
    if w[W_PARITY] != 0.0:
        score += w[W_PARITY] * (1.0 if (n * n - nblack - nwhite) % 2 == 1 else -1.0)
    limit = WIN_SCORE - 1.0
    return min(max(score, -limit), limit)


@nb.njit(K.SIG_EVALUATE, cache=True)
def evaluate_strong(s, w):
    """Weighted features for the side to move (weights: see STRONG_WEIGHTS; a shorter params vector
    means the defaults, since an exception cannot cross a compiled search).  Final states score
    exactly WIN_SCORE * sign(d) + d (d = disc difference), beyond every heuristic score."""
    if w.shape[0] < VALUE_SCALE:
        return _evaluate_strong(s, _DEFAULT_WEIGHTS)
    return _evaluate_strong(s, w)


@nb.njit(K.SIG_VALUE, cache=True)
def value_strong(s, params):
    """P(black wins) for MCTS without rollouts: exact 1 / 0.5 / 0 on final states, else the logistic
    of evaluate_strong from black's view with scale params[VALUE_SCALE] (40 if params is shorter)."""
    if s[STATUS] == OVER:
        return result(s)
    e = evaluate_strong(s, params)
    if s[TO_MOVE] == 1:
        e = -e
    scale = params[VALUE_SCALE] if params.shape[0] > VALUE_SCALE else _DEFAULT_WEIGHTS[VALUE_SCALE]
    return 1.0 / (1.0 + np.exp(-e / scale))
