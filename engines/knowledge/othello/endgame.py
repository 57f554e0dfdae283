"""Exact Othello endgame solver (8x8, the standard rules or the game manager's end-when-stuck variant) on
two uint64 bitboards, compiled with numba.

Representation: P = the discs of the side to move, O = the opponent's (bit r*8 + c, as in
engines/games/othello.py).  A score is the final disc difference for the side to move under perfect
play by both sides, by a plain disc count (rule 0, as the games and harnesses count) or with the
empty squares of a finished board going to the winner (rule 1, the world-championship count the FFO
problems are scored with).  Scores lie in [-64, 64].

Search: fail-soft negamax alpha-beta with a null window for every move after the first (PVS); the
exact solve searches aspiration windows around a guess (ASPIRATION wide, doubled after each miss,
until the score falls inside one or its bounds meet), the win/loss/draw solve (-1, 1) (only the
sign is exact).
Layers by number of empty squares n:
  n <= 4          _solve4 .. _solve1: the empty squares passed as square numbers, no move lists;
                  quadrant-parity order (squares alone in their quadrant first); the last square's
                  score from the flips of one placement.
  5 <= n < 7      moves in bit order, squares of odd quadrants first (parity); stability cut-off.
  n >= SORT_N     fastest-first: the moves sorted by the opponent's mobility after them (corners twice),
                  then its potential mobility, with the table's move first; transposition table.
  n >= ETC_N      enhanced transposition cut-off (a child's table bound may cut before any search).
  n >= DEEP_N     the sort key adds the pattern evaluation of the position after each move (the
                  shipped weights of engines/knowledge/othello/patterns.py) so that the likely best
                  move is tried first (a third fewer nodes than a shallow mobility search did).
Stability cut-off: when alpha >= STAB_THRESHOLD[n], the opponent's stable discs (edges from a table of
all 3^8 edge states, full lines, and discs held in all four directions by stable neighbours) bound
the mover's score from above by 64 - 2 * stable; a bound at or below alpha cuts.
Transposition table tt uint64[size, 3] (size a power of two, two-way buckets: the first slot keeps the
entry with more empties, the second is always replaced): P, O (the whole position: no false hits),
then (lower + 64) | (upper + 64) << 8 | (move + 1) << 16 | n << 24.  Bounds are exact-game bounds
that depend only on the position (and the rule), so entries stay true across searches and windows;
a store intersects the new bounds with the old.
ctrl int64[5]: nodes visited, node budget, aborted flag (1 once the budget ran out: every search
then unwinds at once and its value is meaningless), rule, stuck-ends (1: the game manager's variant of
engines/games/othello.py, where the game ends as soon as the mover has no placement instead of passing;
a solver's table then holds that variant's bounds only).  A node is every position a search visits
(the last-square scores included); the search stops on the first node past the budget.
The clock lives on the Python side (compiled code cannot read it): with a deadline the search runs
in slices of SLICE_NODES nodes, reading the clock between slices; each slice restarts from the root
with the table kept, so finished subtrees are not searched again.
"""
import functools
import time
from dataclasses import dataclass

import numba as nb
import numpy as np

from engines import kernels as K
from engines.bits import lowest_bit_index, popcount
from engines.games.othello import (BITBOARD, BLACK_BB, LAYOUT, MANAGER, OVER, SIZE, STATUS, TO_MOVE, VARIANT, WHITE_BB,
                                   bb_moves, flips_at)

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
CORNERS = np.uint64(0x8100000000000081)
A_FILE = np.uint64(0x0101010101010101)
FILE_MAGIC = np.uint64(0x0102040810204080)
CENTRAL = np.uint64(0x007E7E7E7E7E7E00)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
HASH_K1 = np.uint64(0x9E3779B97F4A7C15)
HASH_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
QUADRANTS = np.array([0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
                     dtype=np.uint64)
# QUADRANT[sq]: the quadrant mask of a square
QUADRANT = np.array([QUADRANTS[(sq // 32) * 2 + (sq % 8) // 4] for sq in range(64)], dtype=np.uint64)

SORT_N = 7           # empties from which moves are sorted
TABLE_N = 7          # empties from which the table is probed and stored (8 or 9: fewer probes, more nodes, no faster)
ETC_N = 14           # empties from which the children's table entries are probed first (ETC; 12: -4 % nodes, no faster)
DEEP_N = 14          # empties from which the sort adds the evaluation of the position after each move
SCORE_KEY = 64       # sort-key units per disc of that evaluation (a move's mobility counts 256 a move)
MAX_MOVES = 40       # more than the most placements an Othello position has (33)
SLICE_NODES = 200_000  # nodes between two readings of the clock when there is a deadline
DEFAULT_TT_BITS = 21
ASPIRATION = 3       # half-width of an exact solve's first window around its guess (doubled after a miss)
# alpha from which the stability bound is computed, by empties (Edax's thresholds)
STAB_THRESHOLD = np.array([99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                           44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62]
                          + [64] * 25, dtype=np.int64)
_NODES, _BUDGET, _ABORTED, _RULE, _STUCK = 0, 1, 2, 3, 4
_KEYS, _SQS = 0, MAX_MOVES  # columns of a scratch row: sort keys, then squares


# ==== stability ==================================================================================

def _edge_table():
    """EDGE_STABLE[p * 256 + o]: the discs of p (one edge as a byte) that no sequence of placements
    on that edge (either colour, anywhere empty, flipping along the edge) can ever flip."""
    table = np.zeros(65536, dtype=np.uint8)
    states = [(p, o) for p in range(256) for o in range(256) if p & o == 0]
    states.sort(key=lambda t: -bin(t[0] | t[1]).count("1"))  # full edges first
    for p, o in states:
        stable = p
        empty = ~(p | o) & 255
        e = 0
        while stable and e < 8:
            if empty >> e & 1:
                for mover in (0, 1):
                    a, b = (p, o) if mover == 0 else (o, p)
                    a |= 1 << e
                    for d in (1, -1):
                        run, i = 0, e + d
                        while 0 <= i < 8 and b >> i & 1:
                            run |= 1 << i
                            i += d
                        if run and 0 <= i < 8 and a >> i & 1:
                            a |= run
                            b &= ~run
                    np_, no_ = (a, b) if mover == 0 else (b, a)
                    stable &= int(table[np_ * 256 + no_])
            e += 1
        table[p * 256 + o] = stable
    return table


EDGE_STABLE = _edge_table()
# FILE_SPREAD[b]: byte b spread down the a file (bit r of b -> square r*8)
FILE_SPREAD = np.array([sum(1 << (8 * r) for r in range(8) if b >> r & 1) for b in range(256)], dtype=np.uint64)
# the 15 diagonals of each direction, as masks
_D9 = [sum(1 << (8 * r + c) for r in range(8) for c in range(8) if c - r == k) for k in range(-7, 8)]
_D7 = [sum(1 << (8 * r + c) for r in range(8) for c in range(8) if c + r == k) for k in range(15)]
DIAGONALS = np.array(_D9 + _D7, dtype=np.uint64)
del _D9, _D7


@nb.njit(cache=True, inline="always")
def _file_a(x):
    return ((x & A_FILE) * FILE_MAGIC) >> np.uint64(56)


@nb.njit(cache=True)
def stable_bits(P, O):
    """The discs of P that can never be flipped (a subset of the truly stable ones)."""
    u56 = np.uint64(56)
    u7 = np.uint64(7)
    stable = np.uint64(EDGE_STABLE[np.int64(P & np.uint64(255)) * 256 + np.int64(O & np.uint64(255))])
    stable |= np.uint64(EDGE_STABLE[np.int64(P >> u56) * 256 + np.int64(O >> u56)]) << u56
    stable |= FILE_SPREAD[np.int64(EDGE_STABLE[np.int64(_file_a(P)) * 256 + np.int64(_file_a(O))])]
    stable |= FILE_SPREAD[np.int64(EDGE_STABLE[np.int64(_file_a(P >> u7)) * 256 + np.int64(_file_a(O >> u7))])] << u7
    filled = P | O
    t = filled & (filled >> np.uint64(4))
    t &= t >> np.uint64(2)
    t &= t >> U1
    full_h = (t & A_FILE) * np.uint64(255)
    t = filled & (filled >> np.uint64(32))
    t &= t >> np.uint64(16)
    t &= t >> np.uint64(8)
    full_v = (t & np.uint64(255)) * A_FILE
    full_d9 = U0
    full_d7 = U0
    for k in range(15):
        m = DIAGONALS[k]
        if filled & m == m:
            full_d9 |= m
        m = DIAGONALS[15 + k]
        if filled & m == m:
            full_d7 |= m
    central = P & CENTRAL
    stable |= full_h & full_v & full_d9 & full_d7 & central
    if stable == U0:
        return stable
    while True:
        old = stable
        sh = (stable >> U1) | (stable << U1) | full_h
        sv = (stable >> np.uint64(8)) | (stable << np.uint64(8)) | full_v
        s9 = (stable >> np.uint64(9)) | (stable << np.uint64(9)) | full_d9
        s7 = (stable >> u7) | (stable << u7) | full_d7
        stable |= sh & sv & s9 & s7 & central
        if stable == old:
            return stable


# ==== small kernels ==============================================================================

@nb.njit(cache=True, inline="always")
def _final(P, O, rule):
    """Score of a finished game for the owner of P."""
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    d = p - o
    if rule != 0 and d != 0:
        e = 64 - p - o
        d += e if d > 0 else -e
    return d


@nb.njit(cache=True, inline="always")
def _count(ctrl):
    """Counts a node; True when it is past the budget (the search must unwind)."""
    ctrl[_NODES] += 1
    if ctrl[_NODES] > ctrl[_BUDGET]:
        ctrl[_ABORTED] = 1
        return True
    return False


@nb.njit(cache=True, inline="always")
def _weighted_mobility(m):
    """The count of the placements m, corners twice."""
    return np.int64(popcount(m)) + np.int64(popcount(m & CORNERS))


@nb.njit(cache=True, inline="always")
def _potential_mobility(P, O):
    """Empty squares next to a disc of O (where P might one day place)."""
    e = ~(P | O)
    n = ((O << U1) & NOT_A) | ((O >> U1) & NOT_H)
    n |= (O << np.uint64(8)) | (O >> np.uint64(8))
    n |= ((O << np.uint64(9)) & NOT_A) | ((O >> np.uint64(9)) & NOT_H)
    n |= ((O << np.uint64(7)) & NOT_H) | ((O >> np.uint64(7)) & NOT_A)
    return np.int64(popcount(n & e))


@nb.njit(cache=True, inline="always")
def _odd_quadrants(empty):
    """The empty squares lying in quadrants with an odd number of empty squares."""
    odd = U0
    for q in range(4):
        m = QUADRANTS[q]
        if popcount(empty & m) & U1:
            odd |= m
    return odd & empty


# ==== last four empties ==========================================================================

_SIG1 = nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64[::1])
_SIG2 = nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64[::1])
_SIG3 = nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64[::1])
_SIG4 = nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64, nb.int64,
                 nb.int64[::1])


@nb.njit(_SIG1, cache=True, inline="always")
def _solve1(P, O, sq, ctrl):
    """Exact score with the one empty square sq: the mover takes it, else the opponent, else nobody."""
    if _count(ctrl):
        return 0
    p = np.int64(popcount(P))
    f = flips_at(sq, P, O)
    if f != U0:
        return 2 * (p + np.int64(popcount(f))) - 62
    if ctrl[_STUCK] != 0:  # the manager's variant: a mover without a placement ends the game
        return _final(P, O, ctrl[_RULE])
    f = flips_at(sq, O, P)
    if f != U0:
        return 2 * (p - np.int64(popcount(f))) - 64
    d = 2 * p - 63
    if ctrl[_RULE] != 0:
        d += 1 if d > 0 else -1
    return d


@nb.njit(_SIG2, cache=True)
def _solve2(P, O, alpha, beta, s1, s2, passed, ctrl):
    if _count(ctrl):
        return 0
    best = np.int64(-65)
    f = flips_at(s1, P, O)
    if f != U0:
        x = U1 << np.uint64(s1)
        best = -_solve1(O ^ f, P ^ f ^ x, s2, ctrl)
        if best >= beta or ctrl[_ABORTED]:
            return best
    f = flips_at(s2, P, O)
    if f != U0:
        x = U1 << np.uint64(s2)
        v = -_solve1(O ^ f, P ^ f ^ x, s1, ctrl)
        if v > best:
            best = v
    if best == -65:
        if passed != 0 or ctrl[_STUCK] != 0:
            return _final(P, O, ctrl[_RULE])
        return -_solve2(O, P, -beta, -alpha, s1, s2, passed + 1, ctrl)
    return best


@nb.njit(_SIG3, cache=True)
def _solve3(P, O, alpha, beta, s1, s2, s3, passed, ctrl):
    if _count(ctrl):
        return 0
    best = np.int64(-65)
    for k in range(3):
        if k == 0:
            sq, a, b = s1, s2, s3
        elif k == 1:
            sq, a, b = s2, s1, s3
        else:
            sq, a, b = s3, s1, s2
        f = flips_at(sq, P, O)
        if f != U0:
            x = U1 << np.uint64(sq)
            v = -_solve2(O ^ f, P ^ f ^ x, -beta, -max(alpha, best), a, b, np.int64(0), ctrl)
            if ctrl[_ABORTED]:
                return 0
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best == -65:
        if passed != 0 or ctrl[_STUCK] != 0:
            return _final(P, O, ctrl[_RULE])
        return -_solve3(O, P, -beta, -alpha, s1, s2, s3, passed + 1, ctrl)
    return best


@nb.njit(_SIG4, cache=True)
def _solve4(P, O, alpha, beta, s1, s2, s3, s4, passed, ctrl):
    if _count(ctrl):
        return 0
    best = np.int64(-65)
    for k in range(4):
        if k == 0:
            sq, a, b, c = s1, s2, s3, s4
        elif k == 1:
            sq, a, b, c = s2, s1, s3, s4
        elif k == 2:
            sq, a, b, c = s3, s1, s2, s4
        else:
            sq, a, b, c = s4, s1, s2, s3
        f = flips_at(sq, P, O)
        if f != U0:
            x = U1 << np.uint64(sq)
            v = -_solve3(O ^ f, P ^ f ^ x, -beta, -max(alpha, best), a, b, c, np.int64(0), ctrl)
            if ctrl[_ABORTED]:
                return 0
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best == -65:
        if passed != 0 or ctrl[_STUCK] != 0:
            return _final(P, O, ctrl[_RULE])
        return -_solve4(O, P, -beta, -alpha, s1, s2, s3, s4, passed + 1, ctrl)
    return best


@nb.njit(cache=True, inline="always")
def _small(P, O, alpha, beta, empty, n, ctrl):
    """Dispatch of 0..4 empty squares, in quadrant-parity order (squares of odd quadrants first)."""
    if n == 0:
        if _count(ctrl):
            return np.int64(0)
        return _final(P, O, ctrl[_RULE])
    odd = _odd_quadrants(empty)
    first = odd
    rest = empty & ~odd
    s1 = s2 = s3 = s4 = np.int64(0)
    k = 0
    for half in range(2):
        m = first if half == 0 else rest
        while m != U0:
            sq = np.int64(lowest_bit_index(m))
            m &= m - U1
            if k == 0:
                s1 = sq
            elif k == 1:
                s2 = sq
            elif k == 2:
                s3 = sq
            else:
                s4 = sq
            k += 1
    if n == 1:
        return _solve1(P, O, s1, ctrl)
    if n == 2:
        return _solve2(P, O, alpha, beta, s1, s2, np.int64(0), ctrl)
    if n == 3:
        return _solve3(P, O, alpha, beta, s1, s2, s3, np.int64(0), ctrl)
    return _solve4(P, O, alpha, beta, s1, s2, s3, s4, np.int64(0), ctrl)


# ==== transposition table ========================================================================

@nb.njit(cache=True, inline="always")
def _slot(tt, P, O):
    h = P * HASH_K1 + O * HASH_K2
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(tt.shape[0] - 2))  # even: the first slot of a two-way bucket


@nb.njit(cache=True, inline="always")
def _probe(tt, P, O):
    """The packed entry of (P, O), or 0 when the table holds none."""
    i = _slot(tt, P, O)
    if tt[i, 0] == P and tt[i, 1] == O:
        return tt[i, 2]
    if tt[i + 1, 0] == P and tt[i + 1, 1] == O:
        return tt[i + 1, 2]
    return U0


@nb.njit(cache=True, inline="always")
def _lower(e):
    return np.int64(e & np.uint64(255)) - 64


@nb.njit(cache=True, inline="always")
def _upper(e):
    return np.int64((e >> np.uint64(8)) & np.uint64(255)) - 64


@nb.njit(cache=True, inline="always")
def _entry_move(e):
    return np.int64((e >> np.uint64(16)) & np.uint64(255)) - 1


@nb.njit(cache=True)
def _store(tt, P, O, n, lower, upper, move):
    i = _slot(tt, P, O)
    j = -1
    if tt[i, 0] == P and tt[i, 1] == O:
        j = i
    elif tt[i + 1, 0] == P and tt[i + 1, 1] == O:
        j = i + 1
    if j >= 0:  # the same position: both entries are true bounds, keep their intersection
        e = tt[j, 2]
        lower = max(lower, _lower(e))
        upper = min(upper, _upper(e))
        if move < 0:
            move = _entry_move(e)
    elif np.int64(tt[i, 2] >> np.uint64(24)) <= n:
        j = i
        if tt[i, 2] != U0:  # the displaced entry moves to the always-replace slot
            tt[i + 1, 0] = tt[i, 0]
            tt[i + 1, 1] = tt[i, 1]
            tt[i + 1, 2] = tt[i, 2]
    else:
        j = i + 1
    tt[j, 0] = P
    tt[j, 1] = O
    tt[j, 2] = (np.uint64(lower + 64) | (np.uint64(upper + 64) << np.uint64(8)) | (np.uint64(move + 1) << np.uint64(16))
                | (np.uint64(n) << np.uint64(24)))


# ==== the search =================================================================================

# score(P, O, P's placements, w): an evaluation of a position in discs for its mover (the pattern
# evaluation's score_bits), passed as a function value so that this module need not import it
SCORE_SIG = nb.float64(nb.uint64, nb.uint64, nb.uint64, nb.float64[::1])
_SOLVE_SIG = nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64, nb.int64, nb.int64[::1], nb.uint64[:, ::1],
                      nb.int64[:, ::1], K.ftype(SCORE_SIG), nb.float64[::1])


@nb.njit(cache=True)
def _order(P, O, moves, n, hash_move, row, ctrl, tt, beta, score, w):
    """Fills row with the moves sorted best first; returns (count, cut) where cut > -65 is an ETC
    value >= beta (a child's table bound proving the fail high without a search)."""
    count = 0
    deep = n >= DEEP_N
    while moves != U0:
        x = moves & (U0 - moves)
        moves ^= x
        sq = np.int64(lowest_bit_index(x))
        f = flips_at(sq, P, O)
        cP = O ^ f
        cO = P ^ f ^ x
        if n >= ETC_N:
            e = _probe(tt, cP, cO)
            if e != U0 and -_upper(e) >= beta:
                return count, -_upper(e)
        if sq == hash_move:
            key = np.int64(-(1 << 30))
        else:
            replies = bb_moves(cP, cO, ALL)
            key = _weighted_mobility(replies) * 256 + _potential_mobility(cP, cO) * 4
            if x & CORNERS:
                key -= 128
            if deep:  # the opponent's evaluation after the move: lower first
                key += np.int64(SCORE_KEY * score(cP, cO, replies, w))
        k = count
        while k > 0 and row[_KEYS + k - 1] > key:
            row[_KEYS + k] = row[_KEYS + k - 1]
            row[_SQS + k] = row[_SQS + k - 1]
            k -= 1
        row[_KEYS + k] = key
        row[_SQS + k] = sq
        count += 1
    return count, np.int64(-65)


@nb.njit(_SOLVE_SIG, cache=True)
def _solve(P, O, alpha, beta, passed, ctrl, tt, scratch, score, w):
    """Fail-soft score of the mover in the window (alpha, beta)."""
    empty = ~(P | O)
    n = np.int64(popcount(empty))
    if n <= 4:
        return _small(P, O, alpha, beta, empty, n, ctrl)
    if _count(ctrl):
        return 0
    zero = passed - passed
    best = np.int64(-65)
    if n < SORT_N:
        # no move list: the empty squares in parity order, each tried by its flips (the neighbour pre-test
        # of flips_at rejects most non-moves at once); a bound from stable discs first (it bounds the final
        # score whether or not the mover must pass)
        if alpha >= STAB_THRESHOLD[n]:
            bound = 64 - 2 * np.int64(popcount(stable_bits(O, P)))
            if bound <= alpha:
                return bound
        odd = _odd_quadrants(empty)
        for half in range(2):
            m = odd if half == 0 else empty & ~odd
            while m != U0:
                x = m & (U0 - m)
                m ^= x
                f = flips_at(np.int64(lowest_bit_index(x)), P, O)
                if f == U0:
                    continue
                if n == 5:
                    v = -_small(O ^ f, P ^ f ^ x, -beta, -max(alpha, best), empty ^ x, np.int64(4), ctrl)
                else:
                    v = -_solve(O ^ f, P ^ f ^ x, -beta, -max(alpha, best), zero, ctrl, tt, scratch, score, w)
                if ctrl[_ABORTED]:
                    return 0
                if v > best:
                    best = v
                    if v >= beta:
                        return best
        if best == -65:  # no placement
            if passed != 0 or ctrl[_STUCK] != 0 or bb_moves(O, P, ALL) == U0:
                return _final(P, O, ctrl[_RULE])
            return -_solve(O, P, -beta, -alpha, passed + 1, ctrl, tt, scratch, score, w)
        return best
    moves = bb_moves(P, O, ALL)
    if moves == U0:
        if passed != 0 or ctrl[_STUCK] != 0 or bb_moves(O, P, ALL) == U0:
            return _final(P, O, ctrl[_RULE])
        return -_solve(O, P, -beta, -alpha, passed + 1, ctrl, tt, scratch, score, w)
    if alpha >= STAB_THRESHOLD[n]:
        bound = 64 - 2 * np.int64(popcount(stable_bits(O, P)))
        if bound <= alpha:
            return bound
    # sorted moves, transposition table
    hash_move = np.int64(-1)
    e = _probe(tt, P, O) if n >= TABLE_N else U0
    if e != U0:
        lo = _lower(e)
        hi = _upper(e)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        hash_move = _entry_move(e)
    row = scratch[n]
    count, cut = _order(P, O, moves, n, hash_move, row, ctrl, tt, beta, score, w)
    if cut > -65:
        return cut
    a = alpha
    best_sq = np.int64(-1)
    for j in range(count):
        sq = row[_SQS + j]
        x = U1 << np.uint64(sq)
        f = flips_at(sq, P, O)
        if j == 0:
            v = -_solve(O ^ f, P ^ f ^ x, -beta, -a, zero, ctrl, tt, scratch, score, w)
        else:
            v = -_solve(O ^ f, P ^ f ^ x, -a - 1, -a, zero, ctrl, tt, scratch, score, w)
            if a < v < beta and not ctrl[_ABORTED]:
                v = -_solve(O ^ f, P ^ f ^ x, -beta, -v, zero, ctrl, tt, scratch, score, w)
        if ctrl[_ABORTED]:
            return 0
        if v > best:
            best = v
            best_sq = sq
            if v > a:
                a = v
                if v >= beta:
                    break
    if n < TABLE_N:
        return best
    if best <= alpha:
        _store(tt, P, O, n, np.int64(-64), best, best_sq)
    elif best >= beta:
        _store(tt, P, O, n, best, np.int64(64), best_sq)
    else:
        _store(tt, P, O, n, best, best, best_sq)
    return best


_ROOT_SIG = nb.types.UniTuple(nb.int64, 2)(nb.uint64, nb.uint64, nb.int64, nb.int64, nb.int64[::1],
                                           nb.uint64[:, ::1], nb.int64[:, ::1], K.ftype(SCORE_SIG), nb.float64[::1])


@nb.njit(_ROOT_SIG, cache=True)
def _solve_root(P, O, alpha, beta, ctrl, tt, scratch, score, w):
    """(best square, its fail-soft score in (alpha, beta)) for a mover with at least one placement;
    square -1 when the budget ran out."""
    empty = ~(P | O)
    n = np.int64(popcount(empty))
    moves = bb_moves(P, O, ALL)
    zero = ctrl[_ABORTED] * 0
    hash_move = np.int64(-1)
    e = _probe(tt, P, O)
    if e != U0:
        hash_move = _entry_move(e)
    row = scratch[64]
    # sorted as an interior node of at least SORT_N empties, without the ETC cut
    count, cut = _order(P, O, moves, max(n, np.int64(SORT_N)), hash_move, row, ctrl, tt, np.int64(65), score, w)
    best = np.int64(-65)
    best_sq = row[_SQS]
    a = alpha
    for j in range(count):
        sq = row[_SQS + j]
        x = U1 << np.uint64(sq)
        f = flips_at(sq, P, O)
        if j == 0:
            v = -_solve(O ^ f, P ^ f ^ x, -beta, -a, zero, ctrl, tt, scratch, score, w)
        else:
            v = -_solve(O ^ f, P ^ f ^ x, -a - 1, -a, zero, ctrl, tt, scratch, score, w)
            if a < v < beta and not ctrl[_ABORTED]:
                v = -_solve(O ^ f, P ^ f ^ x, -beta, -v, zero, ctrl, tt, scratch, score, w)
        if ctrl[_ABORTED]:
            return np.int64(-1), np.int64(0)
        if v > best:
            best = v
            best_sq = sq
            if v > a:
                a = v
                if v >= beta:
                    break
    if n >= SORT_N:
        if best <= alpha:
            _store(tt, P, O, n, np.int64(-64), best, best_sq)
        elif best >= beta:
            _store(tt, P, O, n, best, np.int64(64), best_sq)
        else:
            _store(tt, P, O, n, best, best, best_sq)
    return best_sq, best


# ==== Python side ================================================================================

PASS = 64  # Solve.move of a mover who must pass (the 8x8 game's pass action, n*n)


@dataclass(frozen=True)
class Solve:
    """An exact endgame solve: the best move (action r*8 + c, or PASS), the final disc difference for
    the mover with best play, and the nodes visited."""
    move: int
    score: int
    nodes: int


class SolveBudgetExceeded(Exception):
    """The node budget ran out before the solve ended; ``nodes`` is what was spent."""

    def __init__(self, nodes: int):
        super().__init__(f"the endgame solve ran out of its node budget after {nodes} nodes")
        self.nodes = nodes


class SolveDeadlineExceeded(SolveBudgetExceeded):
    """The deadline passed before the solve ended (a SolveBudgetExceeded, so one handler takes both)."""

    def __init__(self, nodes: int):
        Exception.__init__(self, f"the endgame solve passed its deadline after {nodes} nodes")
        self.nodes = nodes


@functools.cache
def _ordering_evaluation() -> tuple:
    """(score_bits as a function value, the shipped pattern weights): the evaluation the move sort
    uses, loaded once (imported when first asked for: a solve that never sorts by patterns loads none)."""
    from engines.knowledge.othello import patterns as othello_patterns
    return (K.function_value(othello_patterns.score_bits, SCORE_SIG, "the pattern score kernel"),
            othello_patterns.load_params())


def _check_bits(P: int, O: int) -> tuple:
    P, O = int(P) & ALL_INT, int(O) & ALL_INT
    if P & O:
        raise ValueError("the two bitboards of an endgame solve overlap")
    return np.uint64(P), np.uint64(O)


ALL_INT = (1 << 64) - 1


class EndgameSolver:
    """Exact (or win/loss/draw) solves of 8x8 positions given as two bitboards (mover's, opponent's).

    tt_bits: log2 of the table's entries (24 bytes each); the table persists across solves of this
    solver (its entries are exact-game bounds, true in any later search) until ``clear()``.
    rule: 0 plain disc count (the games' count), 1 empty squares to the winner (FFO, WOF).
    stuck_ends: the game manager's variant (the game ends when the mover cannot place; no passes).
    clock: a callable returning seconds, read between slices of slice_nodes nodes when a solve has a
    deadline (on that clock)."""

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS, rule: int = 0, clock=time.perf_counter,
                 slice_nodes: int = SLICE_NODES, stuck_ends: bool = False):
        if not 4 <= tt_bits <= 30:
            raise ValueError(f"tt_bits must be in 4..30, got {tt_bits}")
        if rule not in (0, 1):
            raise ValueError(f"rule must be 0 (disc count) or 1 (empties to the winner), got {rule}")
        if slice_nodes < 1:
            raise ValueError(f"slice_nodes must be positive, got {slice_nodes}")
        self.tt = np.zeros((1 << tt_bits, 3), dtype=np.uint64)
        self.rule = rule
        self.stuck_ends = bool(stuck_ends)
        self.clock = clock
        self.slice_nodes = slice_nodes
        self.scratch = np.zeros((65, 2 * MAX_MOVES), dtype=np.int64)
        self.score, self.w = _ordering_evaluation()

    def clear(self) -> None:
        self.tt[:] = 0

    def solve(self, P: int, O: int, node_budget: int = 1 << 62, deadline: float | None = None,
              wld: bool = False, guess: int = 0) -> Solve:
        """Best move and score of the mover of (P, O), who must have a placement or pass to an opponent
        who has one (the move is then PASS, the score the mover's after the opponent's best).  wld: only the sign
        of the score is exact (-1 loss, 0 draw, 1 win, or any score of the right sign).
        guess: the expected score; an exact solve searches aspiration windows around it (ASPIRATION
        wide, doubled after each miss): narrow windows cut far more than (-64, 64), and a miss still
        bounds the score and keeps the table's entries.  The node budget and the deadline count
        every window's search.  SolveBudgetExceeded past node_budget nodes; SolveDeadlineExceeded
        once the clock reads deadline or later between two slices."""
        P, O = _check_bits(P, O)
        if bb_moves(P, O, ALL) == U0:
            if self.stuck_ends or bb_moves(O, P, ALL) == U0:
                raise ValueError("the endgame solver needs a position that is not final (a side to move that "
                                 "can place a disc, or that must pass to an opponent who can)")
            after = self.solve(O, P, node_budget, deadline, wld, -guess)  # the forced pass, solved from the opponent
            return Solve(PASS, -after.score, after.nodes)
        ctrl = np.array([0, node_budget, 0, self.rule, int(self.stuck_ends)], dtype=np.int64)
        if wld:
            square, score = self._search(P, O, -1, 1, ctrl, node_budget, deadline)
            return Solve(square, score, int(ctrl[_NODES]))
        lo, hi = -64, 64  # the score is known to lie in [lo, hi]
        width = ASPIRATION
        guess = max(-64, min(64, int(guess)))
        alpha, beta = max(-64, guess - width), min(64, guess + width)
        while True:
            square, score = self._search(P, O, alpha, beta, ctrl, node_budget, deadline)
            if alpha < score < beta:
                return Solve(square, score, int(ctrl[_NODES]))
            if score >= beta:
                lo = score
            else:
                hi = score
            if lo >= hi:  # a miss at an end of the range: +64 reached (by square), or every move -64
                return Solve(square, lo, int(ctrl[_NODES]))
            width *= 2
            if score >= beta:
                alpha, beta = lo - 1, min(hi + 1, lo + width, 64)
            else:
                alpha, beta = max(lo - 1, hi - width, -64), hi + 1

    def _search(self, P, O, alpha: int, beta: int, ctrl, node_budget: int, deadline: float | None) -> tuple:
        """(best square, fail-soft score) of one root search in the window (alpha, beta), on the
        shared counters ctrl; in slices of slice_nodes between clock readings when there is a deadline."""
        if deadline is None:
            ctrl[_BUDGET] = node_budget
            ctrl[_ABORTED] = 0
            square, score = _solve_root(P, O, alpha, beta, ctrl, self.tt, self.scratch, self.score, self.w)
            if square < 0:
                raise SolveBudgetExceeded(int(ctrl[_NODES]))
            return int(square), int(score)
        while True:
            if self.clock() >= deadline:
                raise SolveDeadlineExceeded(int(ctrl[_NODES]))
            ctrl[_BUDGET] = min(int(ctrl[_NODES]) + self.slice_nodes, node_budget)
            ctrl[_ABORTED] = 0
            square, score = _solve_root(P, O, alpha, beta, ctrl, self.tt, self.scratch, self.score, self.w)
            if square >= 0:
                return int(square), int(score)
            if ctrl[_NODES] > node_budget:
                raise SolveBudgetExceeded(int(ctrl[_NODES]))
            ctrl[_NODES] -= 1  # the node that stopped the slice was not searched


# The solver's cost by empties, for a player deciding whether a solve fits its time
# (bench/othello_solve_cost.py, bench/results/othello_solve_cost.md: positions of self-played games,
# 15-23 empties, six each): an exact solve grows about 2.4x a square, its median 5.8 M nodes at 20 empties
# (the largest of six 25 M); the estimate below is about that median (a solve that does not finish
# leaves the player's reserve to a search).  A win/loss/draw solve's median is a tenth of the exact one
# or less; the estimate takes half (its largest cases are of that order).
PREDICT_NODES_AT_20 = 7.0e6
PREDICT_GROWTH = 2.4
PREDICT_WLD_SHARE = 0.5


def predicted_nodes(empties: int, wld: bool = False) -> float:
    """An estimate of the nodes an exact (wld: win/loss/draw) solve of a position of a game with that many
    empty squares visits, its table empty (about the median exact solve; see above)."""
    nodes = PREDICT_NODES_AT_20 * PREDICT_GROWTH ** (empties - 20)
    return nodes * (PREDICT_WLD_SHARE if wld else 1.0)


def state_bits(state) -> tuple:
    """(mover's bits, opponent's bits) of an 8x8 bitboard Othello state that is not final (the mover
    can place, or must pass to an opponent who can)."""
    if state[LAYOUT] != BITBOARD or state[SIZE] != 8:
        raise ValueError("the endgame solver takes 8x8 bitboard states")
    if state[STATUS] == OVER:
        raise ValueError("the endgame solver needs a position that is not final")
    B, W = np.uint64(state[BLACK_BB]), np.uint64(state[WHITE_BB])
    return (B, W) if state[TO_MOVE] == 0 else (W, B)


def solve_state(state, node_budget: int = 1 << 62, deadline: float | None = None, clock=time.perf_counter,
                wld: bool = False, tt_bits: int = DEFAULT_TT_BITS, guess: int = 0) -> Solve:
    """One solve of a state with a fresh table (so the same call always visits the same nodes), under
    the state's own variant (the manager's: the game ends when the mover cannot place)."""
    P, O = state_bits(state)
    return EndgameSolver(tt_bits=tt_bits, clock=clock, stuck_ends=stuck_ends(state)).solve(
        P, O, node_budget, deadline, wld, guess)


def stuck_ends(state) -> bool:
    """True for a state of the game manager's variant (no passes: a stuck mover ends the game)."""
    return int(state[VARIANT]) == MANAGER


@dataclass(frozen=True)
class ObfPosition:
    """One line of an .obf file (Edax's position format): the mover's and the opponent's bits, and
    the listed moves with their exact scores (squares r*8 + c), best first."""
    P: int
    O: int
    black_to_move: bool
    scores: dict

    @property
    def best_score(self) -> int:
        return max(self.scores.values())

    @property
    def empties(self) -> int:
        return 64 - bin(self.P | self.O).count("1")


def parse_obf(line: str) -> ObfPosition:
    """'<64 squares a1..h8 of X/O/-> <X|O>; <MOVE>:<score>; ...' (ValueError when malformed)."""
    fields = line.strip().split(";")
    head = fields[0].split()
    if len(head) != 2 or len(head[0]) != 64 or head[1] not in ("X", "O") or set(head[0]) - set("XO-"):
        raise ValueError(f"not an obf position: {line.strip()!r}")
    black = sum(1 << i for i, ch in enumerate(head[0]) if ch == "X")
    white = sum(1 << i for i, ch in enumerate(head[0]) if ch == "O")
    scores = {}
    for field in fields[1:]:
        if field.strip():
            move, _, score = field.strip().partition(":")
            if len(move) != 2 or move[0].upper() not in "ABCDEFGH" or move[1] not in "12345678":
                raise ValueError(f"not an obf move: {field.strip()!r}")
            scores[(int(move[1]) - 1) * 8 + "ABCDEFGH".index(move[0].upper())] = int(score)
    P, O = (black, white) if head[1] == "X" else (white, black)
    return ObfPosition(P, O, head[1] == "X", scores)


def square_name(square: int) -> str:
    """'A1'..'H8' of a square r*8 + c (the obf files' spelling)."""
    return "ABCDEFGH"[square % 8] + str(square // 8 + 1)
