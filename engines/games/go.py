"""Go on an n x n board (2 <= n <= 19) with four rule presets: standard, go5, littlego, superko.

Points.  Action = row*n + col with row 0 the BOTTOM row and col 0 the left column, so actions run
in board order (bottom row left to right, then the next row up).  Pass = n*n.  The board view of
engines/games/base.py counts rows from the top: ``action(row, col)`` and ``cells`` turn it over.  Inside the state the
board is padded: stride W = n+1, point (row, col) lives at index (row+1)*W + col + 1, and the cells
around it (one shared border column, a border row below and above, one extra cell) hold BORDER.
Neighbours are p-1 (west), p+1 (east), p-W (south), p+W (north); diagonals p-W-1 (SW), p-W+1 (SE),
p+W-1 (NW), p+W+1 (NE).  Padded order is board order.  P = (n+2)*(n+1) + 1 cells.

State layout (np.int64), header fields:
  [0] size n          [1] player to move (0 Black, 1 White)    [2] rules (0 standard, 1 go5,
  2 littlego, 3 superko)   [3] komi (the float64's bits)   [4] Zobrist hash of board + side to move
  [5] ko point (padded index, -1 none)   [6] nmoves (moves played, passes included)   [7] npass
  (consecutive passes)   [8] last, [9] last2 (padded index of the last / second-last move, -1 for
  a pass or none)   [10] stones captured by Black, [11] by White   [12] game over (0/1)
  [13] number of empty points   [14] next stamp base   [15] superko history entries written
  [16] superko history capacity   [17] move limit (0 none)   [18] littlego: previous board ==
  current board (the littlego pass rule)   [19] stride W   [20] P
Then arrays of P cells each, at HEADER + k*P:
  k=0 board (0 empty, 1 black, 2 white, 3 border)
  k=1 next: circular linked list of the stones of a chain
  k=2 head: chain id (the representative stone) of each stone
  k=3..6 per chain, indexed by head: stones, pseudo-liberties (one per stone/empty adjacency),
       sum of pseudo-liberty indices, sum of their squares.  A chain is in atari exactly when all
       its pseudo-liberties are one point: libs * sumsq == sum**2 (then the point is sum / libs).
  k=7 stamp: when each empty point became empty.  Initial stamps are the indices (board order);
       a captured block gets base + index with a fresh base (header [14], step P) per block, so
       sorting the empty points by stamp gives the "go5" empty-list order: board order at the
       start, points freed by a capture appended at the end, block by block.
  k=8 position of each empty point in the empty list
then the empty list (n*n cells, unordered, swap-remove) and the superko history (capacity H): board
hashes (side to move excluded) of the positions after each stone move, starting with the empty
board.  H = 4*n*n in "superko" mode and 0 otherwise; it is a ring buffer, so past H entries the
oldest positions are forgotten and a repetition of a position more than H stone moves old is not
detected.

Chains are incremental (linked lists, pseudo-liberty counts), so legality, atari and capture tests
are O(1) apart from the stones actually removed; only scoring floods the empty regions.

The game-over flag is recomputed by every move: two consecutive passes (littlego: a pass while the
previous board equals the current one) or the move limit.  So under "go5" a stone played after two
passes (``go5_play``, out-of-turn play included) resumes the game.  The kernels serve every size and rule set:
they read both from the header.  Helpers for other kernels: point_of / action_of convert actions
and padded indices, candidates() lists K(c), playout_traced() is the playout with a move trace.
"""

import numba as nb
import numpy as np

from engines import kernels as K
from engines.errors import IllegalMove, Reason
from engines.games.base import CELL_DTYPE, Game, check_size
from engines.validate import check_choice, check_int, check_number, check_player
from engines.rng import below

HEADER = 24
(SIZE, TO_MOVE, RULES, KOMI, HASH, KO, NMOVES, NPASS, LAST, LAST2, CAPS, CAPS_W, OVER, NEMPTY, STAMP,
 HLEN, HCAP, MAXMOVES, PREV_EQ, STRIDE, PSIZE) = range(21)
A_NEXT, A_HEAD, A_CNT, A_LIBS, A_LSUM, A_LSQ, A_STAMP, A_EPOS = range(1, 9)  # array 0 is the board (at HEADER)
N_ARRAYS = 9
EMPTY_CELL, BLACK, WHITE, BORDER = 0, 1, 2, 3
STANDARD, GO5, LITTLEGO, SUPERKO = 0, 1, 2, 3
RULE_NAMES = ("standard", "go5", "littlego", "superko")
OK, OCCUPIED, KO_BAN, SUICIDE, SUPERKO_BAN = 0, 1, 2, 3, 4
MIN_SIZE, MAX_SIZE = 2, 19
MAX_P = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1
HISTORY_PER_POINT = 4      # superko history capacity = 4 * n*n positions (ring buffer)
PLAYOUT_CAP_PER_POINT = 3  # a random playout stops after 3 * n*n moves and scores what it has
COLUMNS = "abcdefghjklmnopqrstuvwxyz"  # column letters of the drawing (no 'i', as Go boards label them)

_ZRNG = np.random.default_rng(0x60B0A4D)
ZOBRIST = _ZRNG.integers(-(2**63), 2**63 - 1, size=(3, MAX_P), dtype=np.int64)  # [colour, index]
ZOBRIST[0, :] = 0
ZSIDE = np.int64(_ZRNG.integers(-(2**63), 2**63 - 1, dtype=np.int64))  # xored in when White is to move


# ---- small helpers -------------------------------------------------------------------------------
@nb.njit(cache=True)
def point_of(n, action):
    """Padded index of an action (a board point)."""
    r = action // n
    return (r + 1) * (n + 1) + action - r * n + 1


@nb.njit(cache=True)
def action_of(n, p):
    """Action of a padded index."""
    w = n + 1
    return (p // w - 1) * n + p % w - 1


@nb.njit(cache=True)
def get_komi(s):
    return s[KOMI:KOMI + 1].view(np.float64)[0]


@nb.njit(cache=True)
def board_hash(s):
    """Zobrist key of the stones only (the side-to-move key removed)."""
    return s[HASH] ^ ZSIDE if s[TO_MOVE] == 1 else s[HASH]


@nb.njit(cache=True)
def _in_atari(s, h):
    P = s[PSIZE]
    libs = s[HEADER + A_LIBS * P + h]
    lsum = s[HEADER + A_LSUM * P + h]
    return libs > 0 and libs * s[HEADER + A_LSQ * P + h] == lsum * lsum


@nb.njit(cache=True)
def _empty_add(s, p):
    P = s[PSIZE]
    k = s[NEMPTY]
    s[HEADER + N_ARRAYS * P + k] = p
    s[HEADER + A_EPOS * P + p] = k
    s[NEMPTY] = k + 1


@nb.njit(cache=True, inline="always")
def set_aside_empty(s, em, ep, i, k):
    """A playout's draw among the first k + 1 empty points rejected the one at list index i: it swaps places
    with the one at index k, so the next draw (among the first k) cannot pick it again this move."""
    p = s[em + i]
    q = s[em + k]
    s[em + i] = q
    s[ep + q] = i
    s[em + k] = p
    s[ep + p] = k


@nb.njit(cache=True)
def _empty_remove(s, p):
    P = s[PSIZE]
    em = HEADER + N_ARRAYS * P
    ep = HEADER + A_EPOS * P
    i = s[ep + p]
    k = s[NEMPTY] - 1
    last = s[em + k]
    s[em + i] = last
    s[ep + last] = i
    s[NEMPTY] = k


@nb.njit(cache=True)
def _merge(s, a, b):
    """Merge the chains with heads a and b (the smaller into the larger)."""
    P = s[PSIZE]
    nx = HEADER + A_NEXT * P
    hd = HEADER + A_HEAD * P
    cn = HEADER + A_CNT * P
    if s[cn + a] < s[cn + b]:
        a, b = b, a
    q = b
    while True:
        s[hd + q] = a
        q = s[nx + q]
        if q == b:
            break
    t = s[nx + a]
    s[nx + a] = s[nx + b]
    s[nx + b] = t
    s[cn + a] += s[cn + b]
    for k in (A_LIBS, A_LSUM, A_LSQ):
        s[HEADER + k * P + a] += s[HEADER + k * P + b]


@nb.njit(cache=True)
def _put_stone(s, p, c):
    """Put a stone of colour c (1/2) on the empty point p: chain bookkeeping only, no captures."""
    P = s[PSIZE]
    W = s[STRIDE]
    bd = HEADER
    hd = HEADER + A_HEAD * P
    lb = HEADER + A_LIBS * P
    ls = HEADER + A_LSUM * P
    lq = HEADER + A_LSQ * P
    s[bd + p] = c
    _empty_remove(s, p)
    s[HASH] ^= ZOBRIST[c, p]
    s[hd + p] = p
    s[HEADER + A_NEXT * P + p] = p
    s[HEADER + A_CNT * P + p] = 1
    libs = 0
    lsum = 0
    lsq = 0
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[bd + q]
        if v == EMPTY_CELL:
            libs += 1
            lsum += q
            lsq += q * q
        elif v != BORDER:
            h = s[hd + q]
            s[lb + h] -= 1
            s[ls + h] -= p
            s[lq + h] -= p * p
    s[lb + p] = libs
    s[ls + p] = lsum
    s[lq + p] = lsq
    for q in (p - 1, p + 1, p - W, p + W):
        if s[bd + q] == c:
            h = s[hd + q]
            hp = s[hd + p]
            if h != hp:
                _merge(s, hp, h)


@nb.njit(cache=True)
def _capture(s, h, o):
    """Remove the chain with head h (colour o); returns the number of stones removed."""
    P = s[PSIZE]
    W = s[STRIDE]
    bd = HEADER
    nx = HEADER + A_NEXT * P
    hd = HEADER + A_HEAD * P
    lb = HEADER + A_LIBS * P
    ls = HEADER + A_LSUM * P
    lq = HEADER + A_LSQ * P
    st = HEADER + A_STAMP * P
    base = s[STAMP]
    s[STAMP] = base + P
    cnt = 0
    q = h
    while True:
        s[bd + q] = EMPTY_CELL
        s[HASH] ^= ZOBRIST[o, q]
        _empty_add(s, q)
        s[st + q] = base + q
        cnt += 1
        q = s[nx + q]
        if q == h:
            break
    q = h
    while True:
        for t in (q - 1, q + 1, q - W, q + W):
            v = s[bd + t]
            if v == BLACK or v == WHITE:
                hh = s[hd + t]
                s[lb + hh] += 1
                s[ls + hh] += q
                s[lq + hh] += q * q
        q = s[nx + q]
        if q == h:
            break
    return cnt


@nb.njit(cache=True)
def _set_side(s, player):
    if s[TO_MOVE] != player:
        s[HASH] ^= ZSIDE
        s[TO_MOVE] = player


@nb.njit(cache=True)
def _record_history(s):
    cap = s[HCAP]
    if cap > 0:
        P = s[PSIZE]
        base = HEADER + N_ARRAYS * P + s[SIZE] * s[SIZE]
        s[base + s[HLEN] % cap] = board_hash(s)
        s[HLEN] += 1


@nb.njit(cache=True)
def _place(s, p, c):
    """Play a stone of colour c (1/2) at p, assumed legal: captures, ko, counters, side to move."""
    P = s[PSIZE]
    W = s[STRIDE]
    bd = HEADER
    hd = HEADER + A_HEAD * P
    o = 3 - c
    go5 = s[RULES] == GO5
    eyeish = go5  # "go5" ko: set only for a stone played where every on-board neighbour is an opponent stone
    if go5:
        for q in (p - 1, p + 1, p - W, p + W):
            v = s[bd + q]
            if v != BORDER and v != o:
                eyeish = False
    _put_stone(s, p, c)
    captured = 0
    singles = 0
    single_pt = -1
    for q in (p - 1, p + 1, p - W, p + W):  # W, E, S, N
        if s[bd + q] == o:
            h = s[hd + q]
            if s[HEADER + A_LIBS * P + h] == 0:
                k = _capture(s, h, o)
                captured += k
                if k == 1:
                    singles += 1
                    single_pt = q
    if captured > 0:
        s[CAPS + c - 1] += captured
    if go5:
        ko = single_pt if (eyeish and singles == 1) else -1
    else:
        hp = s[hd + p]
        ko = single_pt if (captured == 1 and s[HEADER + A_CNT * P + hp] == 1
                           and s[HEADER + A_LIBS * P + hp] == 1) else -1
    s[KO] = ko
    s[NPASS] = 0
    s[LAST2] = s[LAST]
    s[LAST] = p
    s[NMOVES] += 1
    s[PREV_EQ] = 0
    _set_side(s, 2 - c)
    _record_history(s)
    s[OVER] = 1 if (s[MAXMOVES] > 0 and s[NMOVES] >= s[MAXMOVES]) else 0


@nb.njit(cache=True)
def _pass(s):
    rules = s[RULES]
    if rules != GO5:  # under "go5" a pass keeps the ko ban
        s[KO] = -1
    s[NPASS] += 1
    s[LAST2] = s[LAST]
    s[LAST] = -1
    s[NMOVES] += 1
    if rules == LITTLEGO:
        over = s[PREV_EQ] == 1  # littlego: a pass while the previous board equals the current one ends it
    else:
        over = s[NPASS] >= 2
    if s[MAXMOVES] > 0 and s[NMOVES] >= s[MAXMOVES]:
        over = True
    s[PREV_EQ] = 1
    s[OVER] = 1 if over else 0
    _set_side(s, 1 - s[TO_MOVE])


@nb.njit(cache=True)
def _superko_repeat(s, p, c):
    """True when a stone of colour c at p (legal otherwise) recreates a position in the history."""
    P = s[PSIZE]
    W = s[STRIDE]
    bd = HEADER
    hd = HEADER + A_HEAD * P
    nx = HEADER + A_NEXT * P
    o = 3 - c
    h = board_hash(s) ^ ZOBRIST[c, p]
    seen = np.full(4, -1, dtype=np.int64)
    k = 0
    for q in (p - 1, p + 1, p - W, p + W):
        if s[bd + q] == o:
            head = s[hd + q]
            if _in_atari(s, head) and head != seen[0] and head != seen[1] and head != seen[2]:
                seen[k] = head
                k += 1
                x = head
                while True:
                    h ^= ZOBRIST[o, x]
                    x = s[nx + x]
                    if x == head:
                        break
    cap = s[HCAP]
    base = HEADER + N_ARRAYS * P + s[SIZE] * s[SIZE]
    m = min(s[HLEN], cap)
    for i in range(m):
        if s[base + i] == h:
            return True
    return False


@nb.njit(cache=True)
def _check(s, p, c, superko):
    """Legality of a stone of colour c at the point p: OK, OCCUPIED, KO_BAN, SUICIDE or SUPERKO_BAN.
    The history is consulted only when superko is True (and the rules are "superko")."""
    W = s[STRIDE]
    bd = HEADER
    if s[bd + p] != EMPTY_CELL:
        return OCCUPIED
    if p == s[KO]:
        return KO_BAN
    hd = HEADER + A_HEAD * s[PSIZE]
    ok = False
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[bd + q]
        if v == EMPTY_CELL:
            ok = True
            break
        if v != BORDER:
            at = _in_atari(s, s[hd + q])
            if (v == c) != at:  # an own chain with another liberty, or an opponent chain captured
                ok = True
                break
    if not ok:
        return SUICIDE
    if superko and s[RULES] == SUPERKO and _superko_repeat(s, p, c):
        return SUPERKO_BAN
    return OK


@nb.njit(cache=True)
def _is_eye(s, p, c):
    """The eye test: all on-board orthogonal neighbours are c; opponent diagonals, plus one if any
    diagonal is off the board, number fewer than 2."""
    W = s[STRIDE]
    bd = HEADER
    nb_count = 0
    for q in (p - 1, p + 1, p - W, p + W):
        v = s[bd + q]
        if v == BORDER:
            continue
        if v != c:
            return False
        nb_count += 1
    if nb_count == 0:
        return False
    o = 3 - c
    false = 0
    off = 0
    for q in (p - W - 1, p - W + 1, p + W - 1, p + W + 1):
        v = s[bd + q]
        if v == BORDER:
            off = 1
        elif v == o:
            false += 1
    return false + off < 2


@nb.njit(cache=True)
def _area(s):
    """(black, white) area: stones plus empty regions bordered by that colour only."""
    n = s[SIZE]
    W = s[STRIDE]
    P = s[PSIZE]
    bd = HEADER
    seen = np.zeros(P, dtype=np.bool_)
    stack = np.empty(n * n, dtype=np.int64)
    b = 0
    w = 0
    for r in range(n):
        for col in range(n):
            p = (r + 1) * W + col + 1
            v = s[bd + p]
            if v == BLACK:
                b += 1
            elif v == WHITE:
                w += 1
            elif not seen[p]:
                seen[p] = True
                stack[0] = p
                top = 1
                size = 0
                border = 0
                while top > 0:
                    top -= 1
                    x = stack[top]
                    size += 1
                    for y in (x - 1, x + 1, x - W, x + W):
                        u = s[bd + y]
                        if u == EMPTY_CELL:
                            if not seen[y]:
                                seen[y] = True
                                stack[top] = y
                                top += 1
                        elif u != BORDER:
                            border |= u
                if border == BLACK:
                    b += size
                elif border == WHITE:
                    w += size
    return b, w


@nb.njit(cache=True)
def _stones(s):
    n = s[SIZE]
    W = s[STRIDE]
    b = 0
    w = 0
    for r in range(n):
        for col in range(n):
            v = s[HEADER + (r + 1) * W + col + 1]
            if v == BLACK:
                b += 1
            elif v == WHITE:
                w += 1
    return b, w


@nb.njit(cache=True)
def score(s):
    """Black minus White including komi: area scoring, or stones only under "littlego"."""
    if s[RULES] == LITTLEGO:
        b, w = _stones(s)
    else:
        b, w = _area(s)
    return float(b) - (get_komi(s) + float(w))


# ---- the kernels ---------------------------------------------------------------------------------
@nb.njit(K.SIG_LEGAL, cache=True)
def legal(s, out):
    if s[OVER] != 0:
        return 0
    n = s[SIZE]
    W = s[STRIDE]
    c = s[TO_MOVE] + 1
    k = 0
    for r in range(n):
        for col in range(n):
            p = (r + 1) * W + col + 1
            if s[HEADER + p] == EMPTY_CELL and _check(s, p, c, True) == OK:
                out[k] = r * n + col
                k += 1
    out[k] = n * n
    return k + 1


@nb.njit(cache=True)
def _empties_in_order(s):
    """Empty points (padded) in empty-list order (by stamp)."""
    P = s[PSIZE]
    k = s[NEMPTY]
    em = HEADER + N_ARRAYS * P
    pts = s[em:em + k].copy()
    stamps = np.empty(k, dtype=np.int64)
    for i in range(k):
        stamps[i] = s[HEADER + A_STAMP * P + pts[i]]
    return pts[np.argsort(stamps)]


@nb.njit(cache=True)
def candidates(s, c, out):
    """Legal non-eye points of colour c (1/2) as actions, in board order or, under "go5", in
    empty-list order.  The game-over flag is ignored.  Returns the count."""
    n = s[SIZE]
    W = s[STRIDE]
    k = 0
    if s[RULES] == GO5:
        pts = _empties_in_order(s)
        for p in pts:
            if _check(s, p, c, True) == OK and not _is_eye(s, p, c):
                out[k] = action_of(n, p)
                k += 1
    else:
        for r in range(n):
            for col in range(n):
                p = (r + 1) * W + col + 1
                if s[HEADER + p] == EMPTY_CELL and _check(s, p, c, True) == OK and not _is_eye(s, p, c):
                    out[k] = r * n + col
                    k += 1
    return k


@nb.njit(K.SIG_LEGAL, cache=True)
def rollout_moves(s, out):
    """Legal moves that do not fill an own eye (in empty-list order under "go5"); pass only when
    there are none."""
    if s[OVER] != 0:
        return 0
    k = candidates(s, s[TO_MOVE] + 1, out)
    if k == 0:
        out[0] = s[SIZE] * s[SIZE]
        k = 1
    return k


@nb.njit(K.SIG_APPLY, cache=True)
def apply(s, a):
    n = s[SIZE]
    if a == n * n:
        _pass(s)
    else:
        _place(s, point_of(n, a), s[TO_MOVE] + 1)


@nb.njit(K.SIG_TERMINAL, cache=True)
def terminal(s):
    return s[OVER] != 0


@nb.njit(K.SIG_TO_MOVE, cache=True)
def to_move(s):
    return s[TO_MOVE]


@nb.njit(K.SIG_RESULT, cache=True)
def result(s):
    d = score(s)
    if d > 0.0:
        return 1.0
    if d < 0.0:
        return 0.0
    return 0.5


@nb.njit(cache=True)
def playout_traced(s, rng, trace):
    """The playout kernel's body; when trace (np.int64) is not empty, the moves played (actions,
    pass = n*n) are written to it (it needs room for 3*n*n moves).  Returns the value for Black."""
    n = s[SIZE]
    P = s[PSIZE]
    em = HEADER + N_ARRAYS * P
    ep = HEADER + A_EPOS * P
    cap = PLAYOUT_CAP_PER_POINT * n * n
    tracing = trace.shape[0] > 0
    steps = 0
    while s[OVER] == 0 and steps < cap:
        c = s[TO_MOVE] + 1
        k = s[NEMPTY]
        chosen = -1
        while k > 0:
            i = below(rng, k)
            p = s[em + i]
            if _check(s, p, c, False) == OK and not _is_eye(s, p, c):
                chosen = p
                break
            k -= 1
            set_aside_empty(s, em, ep, i, k)
        if chosen >= 0:
            _place(s, chosen, c)
            if tracing:
                trace[steps] = action_of(n, chosen)
        else:
            _pass(s)
            if tracing:
                trace[steps] = n * n
        steps += 1
    return result(s)


@nb.njit(K.SIG_PLAYOUT, cache=True)
def playout(s, rng):
    """Uniformly random moves among the legal non-eye points (simple ko only, also under "superko"),
    pass when there are none, until the game ends or 3*n*n moves have been played; then score.
    libEGO style: draw a random slot of the empty list, swap rejected points to the end, retry."""
    return playout_traced(s, rng, s[:0])  # an empty slice: no trace, no allocation


@nb.njit(K.SIG_HASH, cache=True)
def zobrist(s):
    return s[HASH]


@nb.njit(K.SIG_OBSERVE, cache=True)
def observe(s, out):
    """Planes (3, n, n): black stones, white stones, all ones when White is to move (action order)."""
    n = s[SIZE]
    W = s[STRIDE]
    nn = n * n
    side = np.float32(s[TO_MOVE])
    for r in range(n):
        for col in range(n):
            v = s[HEADER + (r + 1) * W + col + 1]
            i = r * n + col
            out[i] = 1.0 if v == BLACK else 0.0
            out[nn + i] = 1.0 if v == WHITE else 0.0
            out[2 * nn + i] = side


KERNELS = K.GameKernels(legal=legal, rollout_moves=rollout_moves, apply=apply, terminal=terminal,
                        to_move=to_move, result=result, playout=playout, hash=zobrist, observe=observe)


@nb.njit(cache=True)
def _go5_attempt(s, p, c):
    """A "go5" play attempt of colour c (1/2) at p, in place: npass is cleared even when the move
    is illegal; occupied / ko change nothing else; a suicide attempt clears the ko ban.  Returns the
    _check code."""
    s[NPASS] = 0
    s[OVER] = 1 if (s[MAXMOVES] > 0 and s[NMOVES] >= s[MAXMOVES]) else 0
    code = _check(s, p, c, True)
    if code == SUICIDE:
        s[KO] = -1
    elif code == OK:
        _set_side(s, c - 1)
        _place(s, p, c)
    return code


@nb.njit(cache=True)
def _rebuild(s, cells):
    """Set the stones of s (a fresh initial state) from cells (n*n, action order, 0/1/2) without
    captures; returns False when some chain has no liberty."""
    n = s[SIZE]
    for a in range(n * n):
        if cells[a] != 0:
            _put_stone(s, point_of(n, a), cells[a])
    P = s[PSIZE]
    for a in range(n * n):
        p = point_of(n, a)
        if cells[a] != 0 and s[HEADER + A_LIBS * P + s[HEADER + A_HEAD * P + p]] == 0:
            return False
    return True


# ---- Python side ---------------------------------------------------------------------------------
DEFAULT_KOMI = {"standard": 7.5, "go5": 0.5, "superko": 7.5}  # littlego: size / 2 (2.5 on 5x5)
REASONS = {OCCUPIED: Reason.OCCUPIED, KO_BAN: Reason.KO, SUICIDE: Reason.SUICIDE, SUPERKO_BAN: Reason.SUPERKO}


class Go(Game):
    """Go, 2x2 .. 19x19.  Player 0 = Black (moves first), player 1 = White.  A game ends after two
    consecutive passes (littlego: see below) or, if ``max_moves`` is given, after that many moves.

    Rule presets (``rules=``):
      * "standard": captures, suicide illegal, simple ko (a single-stone capture by a single stone
        left with one liberty may not be retaken at once; any move or pass clears the ban), area
        scoring (stones + empty regions bordered by one colour only), komi 7.5.
      * "go5": the ko point is set when the stone was played on a point whose on-board neighbours
        are all opponent stones and exactly one removed block was a single stone (even if a larger
        block died too); the ban forbids BOTH colours and survives passes until the next stone; a
        suicide attempt (``go5_play``) erases it; children and rollouts follow the empty-list order
        (``go5_candidates``); area scoring with komi 0.5.
      * "littlego": 5x5 by default; suicide illegal; a capture that recreates the board before the
        opponent's last move is a ko violation (exactly a simple-ko ban; a pass clears it); the
        game ends after move n*n-1 (24 on 5x5, passes count) or on a pass made while the previous
        board equals the current one (two consecutive passes; a Black pass on move 1); stones-only
        scoring with komi size/2 (2.5): Black wins iff B > W + 2.5.
      * "superko": positional superko (a stone may not recreate any earlier board position; the
        history is a ring buffer of 4*n*n positions, older ones are forgotten), area scoring, komi
        7.5.  Random playouts check only simple ko.
    Random playouts never fill an own eye (``is_eye``) and stop after 3*n*n moves.
    """

    name = "go"
    kernels = KERNELS
    SYMBOLS = {0: ".", 1: "X", 2: "O"}
    rules_option = "rules"  # the constructor keyword naming the rule variant

    def __init__(self, size: int | None = None, komi: float | None = None, rules: str = "standard",
                 max_moves: int | None = None):
        self.rules = check_choice("go rules", rules, RULE_NAMES)
        if size is None:
            size = 5 if rules == "littlego" else 9
        self.size = check_size("go", size, MIN_SIZE, MAX_SIZE)
        n = self.size
        if komi is None:
            komi = n / 2 if rules == "littlego" else DEFAULT_KOMI[rules]
        self.komi = check_number("komi", komi)
        if max_moves is None:
            max_moves = n * n - 1 if rules == "littlego" else 0
        self.max_moves = check_int("max_moves (0 = no limit)", max_moves, 0)
        self.num_actions = n * n + 1
        self.pass_action = n * n
        self._template = self._make_initial()

    def __repr__(self):
        return f"Go(size={self.size}, komi={self.komi:g}, rules={self.rules!r}, max_moves={self.max_moves})"

    @property
    def observation_shape(self):
        return (3, self.size, self.size)

    # ---- the board view: rows counted from the top ----------------------------------------------
    def action(self, row: int, col: int) -> int:
        a = super().action(row, col)
        r, c = divmod(a, self.size)
        return (self.size - 1 - r) * self.size + c

    def coords(self, action: int) -> tuple[int, int]:
        r, c = super().coords(action)
        return self.size - 1 - r, c

    def cells(self, state: np.ndarray) -> np.ndarray:
        n = self.size
        return state[HEADER + self._points()].reshape(n, n)[::-1].astype(CELL_DTYPE)

    def move_label(self, action: int) -> str:
        """'d4' (column letter without 'i', row number from 1 at the bottom), as drawn; 'pass'."""
        if self._check_action(action) == self.pass_action:
            return "pass"
        r, c = divmod(action, self.size)
        return f"{COLUMNS[c]}{r + 1}"

    # ---- states ------------------------------------------------------------------------------
    def _make_initial(self) -> np.ndarray:
        n = self.size
        nn = n * n
        w = n + 1
        p_size = (n + 2) * w + 1
        hcap = HISTORY_PER_POINT * nn if self.rules == "superko" else 0
        s = np.zeros(HEADER + N_ARRAYS * p_size + nn + hcap, dtype=np.int64)
        s[SIZE] = n
        s[RULES] = RULE_NAMES.index(self.rules)
        s[KOMI] = np.array([self.komi], dtype=np.float64).view(np.int64)[0]
        s[KO] = s[LAST] = s[LAST2] = -1
        s[HCAP] = hcap
        s[MAXMOVES] = self.max_moves
        s[PREV_EQ] = 1
        s[STRIDE] = w
        s[PSIZE] = p_size
        s[STAMP] = p_size
        s[HEADER:HEADER + p_size] = BORDER
        pts = self._points()
        s[HEADER + pts] = EMPTY_CELL
        s[HEADER + A_STAMP * p_size + pts] = pts
        s[HEADER + A_EPOS * p_size + pts] = np.arange(nn)
        s[HEADER + N_ARRAYS * p_size:HEADER + N_ARRAYS * p_size + nn] = pts
        s[NEMPTY] = nn
        if hcap:
            s[HEADER + N_ARRAYS * p_size + nn] = 0  # the empty board's hash
            s[HLEN] = 1
        return s

    def _points(self) -> np.ndarray:
        """Padded index of every action's point, in action order."""
        n = self.size
        a = np.arange(n * n)
        return (a // n + 1) * (n + 1) + a % n + 1

    def initial_state(self) -> np.ndarray:
        return self._template.copy()

    def state_from_cells(self, cells, to_move: int, *, previous=None, moves_played: int | None = None) -> np.ndarray:
        """A state with the given stones and player to move; ValueError for a chain without liberty.

        ``previous`` (the board before the opponent's last move, same grid convention) gives the
        history the rules need: whether the last move was a pass onto an unchanged board, and the
        ko ban, found as a retake test (a point where a stone of the mover vanished whose recapture
        would recreate ``previous``).  ``moves_played`` (passes included) defaults to the smallest
        number consistent with the stones and the player to move (even when Black is to move)."""
        n = self.size
        grid = self._check_grid(cells)
        to_move = self._check_to_move(to_move)
        if moves_played is None:
            moves_played = int(np.count_nonzero(grid))
            moves_played += (moves_played - to_move) % 2
        elif check_int("moves_played", moves_played, 0) % 2 != to_move:
            raise ValueError(f"moves_played must be even when black is to move and odd when white is, "
                             f"got {moves_played!r}")
        s = self.initial_state()
        if not _rebuild(s, np.ascontiguousarray(grid[::-1].reshape(-1).astype(np.int64))):
            raise ValueError("the board has a chain without liberties")
        _set_side(s, to_move)
        if s[HCAP]:
            s[HEADER + N_ARRAYS * s[PSIZE] + n * n] = board_hash(s)
        s[NMOVES] = int(moves_played)
        if self.max_moves and moves_played >= self.max_moves:
            s[OVER] = 1
        if previous is None:
            return s
        prev = self._check_grid(previous)
        same = bool((prev == grid).all())
        s[PREV_EQ] = 1 if same else 0
        s[NPASS] = 1 if (same and moves_played > 0) else 0
        colour = to_move + 1
        for i, j in zip(*np.nonzero((prev == colour) & (grid == EMPTY_CELL))):
            p = point_of(n, self.action(int(i), int(j)))
            if _check(s, p, colour, False) == OK:
                t = s.copy()
                _place(t, p, colour)
                if (self.cells(t) == prev).all():
                    s[KO] = p
        return s

    def komi_of(self, state: np.ndarray) -> float:
        """The komi state is scored with."""
        return float(get_komi(state))

    def with_komi(self, state: np.ndarray, komi: float) -> np.ndarray:
        """A copy of state scored with another komi (the Go instance keeps its own)."""
        s = state.copy()
        s[KOMI] = np.array([check_number("komi", komi)], dtype=np.float64).view(np.int64)[0]
        return s

    def set_to_move(self, state: np.ndarray, player: int) -> np.ndarray:
        """A copy of state with the given player (0/1) to move (play out of turn)."""
        s = state.copy()
        _set_side(s, check_player(player))
        return s

    # ---- rules queries ---------------------------------------------------------------------------
    def is_legal(self, state, move) -> bool:
        move = self._check_action(move)
        if self.is_terminal(state):
            return False
        if move == self.pass_action:
            return True
        return _check(state, point_of(self.size, move), int(state[TO_MOVE]) + 1, True) == OK

    def illegal_reason(self, state, move):
        move = self._check_action(move)
        if self.is_terminal(state):
            return Reason.GAME_OVER
        if move == self.pass_action:
            return None
        return REASONS.get(int(_check(state, point_of(self.size, move), int(state[TO_MOVE]) + 1, True)))

    def play_tolerant(self, state: np.ndarray, move: int) -> np.ndarray:
        """The state after ``move`` when only superko forbids it (as ``play`` otherwise): a move
        someone else's rules allowed (an opponent's move that a referee passed on: KataGo's tolerance) is
        recorded, and its board enters the superko history, so our own moves still never repeat it."""
        if self.illegal_reason(state, move) is Reason.SUPERKO:
            new = state.copy()
            self.kernels.apply(new, move)
            return new
        return self.play(state, move)

    def is_eye(self, state, point: int, colour: int) -> bool:
        """The eye test of the empty point (an action) for colour 0 (black) or 1 (white): all
        on-board orthogonal neighbours are that colour, and opponent diagonals (plus one if a
        diagonal is off the board) number fewer than 2."""
        point = self._check_point(point)
        p = point_of(self.size, point)
        if state[HEADER + p] != EMPTY_CELL:
            return False
        return bool(_is_eye(state, p, check_player(colour, "colour") + 1))

    def go5_candidates(self, state, colour: int | None = None) -> list[int]:
        """The rollout candidates of a colour (default: the player to move): legal points that are
        not its own eyes, in empty-list order under "go5", board order otherwise.  Ignores the
        game-over flag."""
        c = int(state[TO_MOVE]) if colour is None else check_player(colour, "colour")
        out = np.empty(self.num_actions, dtype=np.int32)
        k = candidates(state, c + 1, out)
        return out[:k].tolist()

    def go5_legal_points(self, state, colour: int) -> list[int]:
        """The points where colour (0/1) may place a stone now, own eyes included, in board order;
        ignores the game-over flag."""
        c = check_player(colour, "colour") + 1
        n = self.size
        return [a for a in range(n * n) if _check(state, point_of(n, a), c, True) == OK]

    def resumed(self, state) -> np.ndarray:
        """A copy of state with the game-over flag cleared (play goes on after two passes, as the
        "go5" engine allows); the pass counter is kept, so one more pass ends it again."""
        s = state.copy()
        s[OVER] = 0
        return s

    def empty_list(self, state) -> list[int]:
        """The empty points (actions) in empty-list order: board order at the start, points freed by
        a capture appended at the end."""
        return [int(action_of(self.size, p)) for p in _empties_in_order(state)]

    def go5_play(self, state, move: int, colour: int | None = None) -> np.ndarray:
        """A "go5" play attempt: the new state, or IllegalMove for an illegal move, whose ``after``
        is then the state carrying the side effects of the attempt (npass = 0; a suicide attempt
        erases the ko ban).  The colour (0/1, default the player to move) need not be the one to
        move; the opponent of it moves next.  Ignores the game-over flag."""
        move = self._check_action(move)
        c = int(state[TO_MOVE]) if colour is None else check_player(colour, "colour")
        s = state.copy()
        if move == self.pass_action:
            _set_side(s, c)
            _pass(s)
            return s
        reason = REASONS.get(int(_go5_attempt(s, point_of(self.size, move), c + 1)))
        if reason is not None:
            raise IllegalMove(reason, move, after=s)
        return s

    def warm_up(self):
        super().warm_up()
        state = self.play(self.initial_state(), self.action(self.size // 2, self.size // 2))
        self.is_eye(state, 0, 0), self.go5_candidates(state), self.empty_list(state)
        try:
            self.go5_play(state, self.action(self.size // 2, self.size // 2))  # occupied
        except IllegalMove:
            pass
        self.go5_play(state, self.action(0, 0))
        self.state_from_cells(self.cells(state), 1, previous=self.cells(self.initial_state()))
        self.with_komi(state, 0.5), self.set_to_move(state, 0)

    def _check_point(self, point) -> int:
        point = self._check_action(point)
        if point == self.pass_action:
            raise ValueError("a point is needed, not a pass")
        return point

    def _action_or_none(self, state, field):
        p = int(state[field])
        return None if p < 0 else int(action_of(self.size, p))

    def nmoves(self, state) -> int:
        """Moves played (passes included)."""
        return int(state[NMOVES])

    def npass(self, state) -> int:
        """Consecutive passes just played."""
        return int(state[NPASS])

    def last(self, state) -> int | None:
        """The last move as an action, None when it was a pass or there was none."""
        return self._action_or_none(state, LAST)

    def last2(self, state) -> int | None:
        """The second-last move as an action, None when it was a pass or there was none."""
        return self._action_or_none(state, LAST2)

    def ko(self, state) -> int | None:
        """The ko-banned point as an action, or None."""
        return self._action_or_none(state, KO)

    def captures(self, state) -> tuple[int, int]:
        """Stones captured by (Black, White)."""
        return int(state[CAPS]), int(state[CAPS_W])

    def score(self, state) -> float:
        """Black minus (komi + White): area scoring, stones only under "littlego"."""
        return float(score(state))

    def render(self, state: np.ndarray) -> str:
        n = self.size
        cells = self.cells(state)
        letters = "   " + " ".join(COLUMNS[:n])
        lines = [letters]
        for i in range(n):
            row = " ".join(self.SYMBOLS[int(v)] for v in cells[i])
            lines.append(f"{n - i:2d} {row} {n - i}")
        lines.append(letters)
        mover = int(state[TO_MOVE])
        status = "game over" if self.is_terminal(state) else f"{('Black', 'White')[mover]} ({'XO'[mover]}) to move"
        ko = self.ko(state)
        kb, kw = self.captures(state)
        lines.append(f"{status}; captures X {kb} O {kw}; ko {self.move_label(ko) if ko is not None else '-'}; "
                     f"moves {self.nmoves(state)}; rules {self.rules}, komi {self.komi:g}")
        return "\n".join(lines)
