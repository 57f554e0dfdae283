"""Othello (Reversi) on an n x n board, 4 <= n <= 16.

Player 0 is black/dark and moves first; player 1 is white/light.  Start position: with
i = n//2 - 1 and j = n//2, (i,i) and (j,j) white, (i,j) and (j,i) black; (row, col) from the
top-left (on 8x8 the usual d5/e4 black, d4/e5 white).  A placement must bracket at least one
opposing disc in a straight line and flips every bracketed disc in all 8 directions.

Variants:
  "standard": a side with no placement must pass (the pass action n*n is then its only legal
      move).  The state is final as soon as neither side can place (a harness that exchanges two
      closing passes after that has them answered by its adapter, not played here).
  "manager": the game ends as soon as the side to move has no placement; there is no passing.
Actions: r*n + c; pass = n*n; num_actions = n*n + 1 (the action n*n is never legal in "manager",
whose ``pass_action`` is None).

Two kernel sets, chosen by size (``Othello(impl=...)`` can force the mailbox for n <= 8):
  bitboard (n <= 8): one uint64 per colour in the 8x8 layout (bit r*8 + c), with a mask of the valid
      cells, so one kernel serves 4..8.  Mobility is a shift-and-mask fill over the 8 directions
      (Kogge-Stone, no wrap-around: horizontal and diagonal rays run through a mask without the a and
      h files); a placement's flips come from precomputed rays (``flips_at``, a bit scan a direction).
      This is what makes 8x8 playouts fast.
  mailbox (any n, used for 9..16 where a board no longer fits in 64 bits): a plain array of cells.
      It also runs on 4..8 so that tests can cross-check it against the bitboards.

State layout (np.int64), common header:
  [0] size n   [1] player to move   [2] variant (0 standard, 1 manager)
  [3] status (0 playing, 1 the side to move must pass, 2 game over)   [4] layout (0 bitboard, 1 mailbox)
  [5] mailbox: Zobrist hash (incremental)   [6] [7] mailbox: black / white disc counts
  (bitboard: [5..7] unused, 0; the hash is computed on demand from the boards, counts by popcount)
bitboard (length 12): [8] black bits  [9] white bits  [10] valid-cell mask
                      [11] placements of the side to move (bits; 0 when it must pass or the game is over)
mailbox (length 8 + n*n): [8 : 8+n*n] cells row-major, 0 empty, 1 black, 2 white.
The uint64 boards are stored bit for bit in the int64 slots.  Both layouts hash a position to the
same key (Zobrist over (colour, row, col), xor a side key when white is to move).

Evaluations of positions (heuristics for the searches) live in engines/knowledge/othello/registered.py.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.bits import highest_bit_index, lowest_bit_index, popcount
from engines.errors import Reason
from engines.games.base import CELL_DTYPE, Game, check_size
from engines.validate import check_choice
from engines.games.planes import write_planes
from engines.rng import below

HEADER = 8
SIZE, TO_MOVE, VARIANT, STATUS, LAYOUT, HASH, NBLACK, NWHITE = range(8)
BLACK_BB, WHITE_BB, VALID_BB, MOVES_BB = 8, 9, 10, 11
BITBOARD_LEN = 12
STANDARD, MANAGER = 0, 1
PLAYING, MUST_PASS, OVER = 0, 1, 2
BITBOARD, MAILBOX = 0, 1
MIN_SIZE, MAX_SIZE, MAX_BITBOARD_SIZE = 4, 16, 8
VARIANTS = ("standard", "manager")

_zrng = np.random.default_rng(0x07E110)
ZOBRIST = _zrng.integers(-(2**63), 2**63 - 1, size=(2, MAX_SIZE, MAX_SIZE), dtype=np.int64)
ZSIDE = np.int64(_zrng.integers(-(2**63), 2**63 - 1, dtype=np.int64))
# ZBYTE[p, r, byte]: xor of ZOBRIST[p, r, c] over the set bits c of one 8-bit row (bitboard hash)
ZBYTE = np.zeros((2, 8, 256), dtype=np.int64)
for _b in range(256):
    for _c in range(8):
        if _b >> _c & 1:
            ZBYTE[:, :, _b] ^= ZOBRIST[:, :8, _c]
del _b, _c

DR = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
DC = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)

ZERO = np.uint64(0)
U1, U2, U7, U8, U9 = np.uint64(1), np.uint64(2), np.uint64(7), np.uint64(8), np.uint64(9)
U14, U16, U18 = np.uint64(14), np.uint64(16), np.uint64(18)
U255 = np.uint64(255)
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)  # without the a and h files: horizontal/diagonal rays never wrap


_MASK64 = (1 << 64) - 1


def _as_int64(bits: int) -> int:
    """A 64-bit pattern as the signed value stored in an int64 slot."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def valid_mask(n: int) -> int:
    """The bits r*8 + c of the cells of an n x n board embedded in the 8x8 layout."""
    return sum(1 << (r * 8 + c) for r in range(n) for c in range(n))


# ==== bitboard kernels (n <= 8) ==================================================================

@nb.njit(cache=True, inline="always")
def _dir_moves(P, m, d, d2):
    """Empty-or-not squares reached by P -> run of m -> square, both ways along shift d."""
    fl = m & (P << d)
    fr = m & (P >> d)
    fl |= m & (fl << d)
    fr |= m & (fr >> d)
    ml = m & (m << d)
    mr = m & (m >> d)
    fl |= ml & (fl << d2)
    fr |= mr & (fr >> d2)
    fl |= ml & (fl << d2)
    fr |= mr & (fr >> d2)
    return (fl << d) | (fr >> d)


@nb.njit(cache=True, inline="always")
def bb_moves(P, O, valid):
    """Placements of the player owning P against O (uint64 boards in the 8x8 layout)."""
    inner = O & INNER
    mv = (_dir_moves(P, inner, U1, U2) | _dir_moves(P, O, U8, U16)
          | _dir_moves(P, inner, U7, U14) | _dir_moves(P, inner, U9, U18))
    return mv & ~(P | O) & valid


def _ray_tables():
    """RAYS[sq * 8 + k]: the squares beyond sq along direction k up to the 8x8 layout's edge (k 0-3 towards
    higher bit numbers: +1, +7, +8, +9; k 4-7 the opposite ways); NEIGHBOURS[sq]: the up to eight squares
    around sq.  Smaller boards need nothing more: their cells outside the valid mask are never occupied,
    so a ray running through them finds no closing disc."""
    steps = ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))
    rays = np.zeros(64 * 8, dtype=np.uint64)
    neighbours = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        for k, (dr, dc) in enumerate(steps):
            r, c, bits = r0 + dr, c0 + dc, 0
            if 0 <= r < 8 and 0 <= c < 8:
                neighbours[sq] |= np.uint64(1 << (r * 8 + c))
            while 0 <= r < 8 and 0 <= c < 8:
                bits |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            rays[sq * 8 + k] = bits
    return rays, neighbours


RAYS, NEIGHBOURS = _ray_tables()


@nb.njit(cache=True, inline="always")
def flips_at(sq, P, O):
    """Discs of O flipped by P placing on square sq (empty; bit number r*8 + c): along each ray, the
    squares before the first one not holding O, when that first one holds P.  Towards higher bits the
    first such square is the lowest set bit of the ray's non-O squares, the other way the highest (one
    instruction each), so a direction costs a handful of operations and no loop.  The one flip routine
    of the rules, the searches, the evaluation's trainer and the endgame solver."""
    sq = np.int64(sq)
    if O & NEIGHBOURS[sq] == ZERO:
        return ZERO
    base = sq * 8
    flips = ZERO
    for k in range(4):  # selects rather than branches: the outcome is unpredictable
        ray = RAYS[base + k]
        ends = ray & ~O
        t = ends & (ZERO - ends) & P
        flips |= ((t - U1) & ray) if t != ZERO else ZERO
    for k in range(4, 8):  # bit 0 keeps the highest bit defined; it is not a first square unless on the ray
        ray = RAYS[base + k]
        t = (U1 << highest_bit_index(ray & ~O | U1)) & P & ray
        flips |= (ray & (ZERO - (t << U1))) if t != ZERO else ZERO
    return flips


@nb.njit(cache=True, inline="always")
def _bb_store(s, p, P, O, moves, status):
    if p == 0:
        s[BLACK_BB] = np.int64(P)
        s[WHITE_BB] = np.int64(O)
    else:
        s[BLACK_BB] = np.int64(O)
        s[WHITE_BB] = np.int64(P)
    s[TO_MOVE] = p
    s[MOVES_BB] = np.int64(moves)
    s[STATUS] = status


@nb.njit(cache=True)
def bb_refresh(s):
    """Recomputes the mover's placements and the status from the boards (new or edited states)."""
    valid = np.uint64(s[VALID_BB])
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    p = s[TO_MOVE]
    P, O = (B, W) if p == 0 else (W, B)
    mv = bb_moves(P, O, valid)
    status = PLAYING
    if mv == ZERO:
        status = OVER if s[VARIANT] == MANAGER or bb_moves(O, P, valid) == ZERO else MUST_PASS
    _bb_store(s, p, P, O, mv, status)


@nb.njit(K.SIG_LEGAL, cache=True)
def bb_legal(s, out):
    st = s[STATUS]
    if st == OVER:
        return 0
    n = s[SIZE]
    if st == MUST_PASS:
        out[0] = n * n
        return 1
    m = np.uint64(s[MOVES_BB])
    k = 0
    while m != ZERO:
        i = np.int64(lowest_bit_index(m))
        m &= m - U1
        out[k] = (i >> 3) * n + (i & 7)
        k += 1
    return k


@nb.njit(K.SIG_APPLY, cache=True)
def bb_apply(s, a):
    n = s[SIZE]
    p = s[TO_MOVE]
    valid = np.uint64(s[VALID_BB])
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    P, O = (B, W) if p == 0 else (W, B)
    if a != n * n:
        r = a // n
        sq = r * 8 + a - r * n
        x = U1 << np.uint64(sq)
        f = flips_at(sq, P, O)
        P ^= f | x
        O ^= f
    mv = bb_moves(O, P, valid)  # the opponent moves next
    status = PLAYING
    if mv == ZERO:
        status = OVER if s[VARIANT] == MANAGER or bb_moves(P, O, valid) == ZERO else MUST_PASS
    _bb_store(s, 1 - p, O, P, mv, status)


@nb.njit(K.SIG_TERMINAL, cache=True)
def terminal(s):
    return s[STATUS] == OVER


@nb.njit(K.SIG_TO_MOVE, cache=True)
def to_move(s):
    return s[TO_MOVE]


@nb.njit(cache=True, inline="always")
def disc_counts(s):
    """(black discs, white discs) of a state of either layout."""
    if s[LAYOUT] == BITBOARD:
        return np.int64(popcount(np.uint64(s[BLACK_BB]))), np.int64(popcount(np.uint64(s[WHITE_BB])))
    return s[NBLACK], s[NWHITE]


@nb.njit(K.SIG_RESULT, cache=True)
def result(s):
    """By disc count (also the estimate for a non-final state)."""
    b, w = disc_counts(s)
    if b > w:
        return 1.0
    if b < w:
        return 0.0
    return 0.5


@nb.njit(K.SIG_PLAYOUT, cache=True)
def bb_playout(s, rng):
    if s[STATUS] != OVER:
        manager = s[VARIANT] == MANAGER
        valid = np.uint64(s[VALID_BB])
        p = s[TO_MOVE]
        B = np.uint64(s[BLACK_BB])
        W = np.uint64(s[WHITE_BB])
        P, O = (B, W) if p == 0 else (W, B)
        mv = np.uint64(s[MOVES_BB])
        while True:
            if mv == ZERO:
                omv = bb_moves(O, P, valid)
                if manager or omv == ZERO:
                    break
                P, O = O, P  # pass
                p = 1 - p
                mv = omv
                continue
            k = below(rng, popcount(mv))
            m = mv
            for _ in range(k):
                m &= m - U1
            x = m & (ZERO - m)
            f = flips_at(lowest_bit_index(x), P, O)
            P ^= f | x
            O ^= f
            P, O = O, P
            p = 1 - p
            mv = bb_moves(P, O, valid)
        _bb_store(s, p, P, O, ZERO, OVER)
    return result(s)


@nb.njit(K.SIG_HASH, cache=True)
def bb_hash(s):
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    h = ZSIDE if s[TO_MOVE] == 1 else np.int64(0)
    for r in range(8):
        sh = np.uint64(8 * r)
        h ^= ZBYTE[0, r, np.int64((B >> sh) & U255)] ^ ZBYTE[1, r, np.int64((W >> sh) & U255)]
    return h


@nb.njit(K.SIG_OBSERVE, cache=True)
def bb_observe(s, out):
    """Planes (3, n, n): black discs, white discs, all ones when white is to move."""
    n = s[SIZE]
    nn = n * n
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    side = np.float32(s[TO_MOVE])
    for r in range(n):
        for c in range(n):
            i = r * n + c
            sh = np.uint64(r * 8 + c)
            out[i] = np.float32((B >> sh) & U1)
            out[nn + i] = np.float32((W >> sh) & U1)
            out[2 * nn + i] = side


# ==== mailbox kernels (any n; used for 9..16) ====================================================

@nb.njit(cache=True, inline="always")
def _mb_is_move(s, n, me, r, c):
    """Whether colour me (1/2) placing on the empty cell (r, c) brackets a line."""
    opp = 3 - me
    for d in range(8):
        dr = DR[d]
        dc = DC[d]
        rr = r + dr
        cc = c + dc
        seen = False
        while 0 <= rr < n and 0 <= cc < n:
            v = s[HEADER + rr * n + cc]
            if v != opp:
                if v == me and seen:
                    return True
                break
            seen = True
            rr += dr
            cc += dc
    return False


@nb.njit(cache=True)
def _mb_count_moves(s, n, me, stop_at_one):
    k = 0
    for r in range(n):
        for c in range(n):
            if s[HEADER + r * n + c] == 0 and _mb_is_move(s, n, me, r, c):
                k += 1
                if stop_at_one:
                    return k
    return k


@nb.njit(cache=True)
def mb_refresh(s):
    """Recomputes counts, hash and status from the cells (new or edited states)."""
    n = s[SIZE]
    b = 0
    w = 0
    h = ZSIDE if s[TO_MOVE] == 1 else np.int64(0)
    for r in range(n):
        for c in range(n):
            v = s[HEADER + r * n + c]
            if v == 1:
                b += 1
                h ^= ZOBRIST[0, r, c]
            elif v == 2:
                w += 1
                h ^= ZOBRIST[1, r, c]
    s[NBLACK] = b
    s[NWHITE] = w
    s[HASH] = h
    p = s[TO_MOVE]
    if _mb_count_moves(s, n, p + 1, True) > 0:
        s[STATUS] = PLAYING
    elif s[VARIANT] == MANAGER or _mb_count_moves(s, n, 2 - p, True) == 0:
        s[STATUS] = OVER
    else:
        s[STATUS] = MUST_PASS


@nb.njit(K.SIG_LEGAL, cache=True)
def mb_legal(s, out):
    st = s[STATUS]
    if st == OVER:
        return 0
    n = s[SIZE]
    if st == MUST_PASS:
        out[0] = n * n
        return 1
    me = s[TO_MOVE] + 1
    k = 0
    for r in range(n):
        for c in range(n):
            if s[HEADER + r * n + c] == 0 and _mb_is_move(s, n, me, r, c):
                out[k] = r * n + c
                k += 1
    return k


@nb.njit(K.SIG_APPLY, cache=True)
def mb_apply(s, a):
    n = s[SIZE]
    p = s[TO_MOVE]
    h = s[HASH] ^ ZSIDE
    if a != n * n:
        me = p + 1
        opp = 2 - p
        r = a // n
        c = a - r * n
        s[HEADER + a] = me
        h ^= ZOBRIST[p, r, c]
        flipped = 0
        for d in range(8):
            dr = DR[d]
            dc = DC[d]
            rr = r + dr
            cc = c + dc
            run = 0
            while 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == opp:
                rr += dr
                cc += dc
                run += 1
            if run > 0 and 0 <= rr < n and 0 <= cc < n and s[HEADER + rr * n + cc] == me:
                for _ in range(run):
                    rr -= dr
                    cc -= dc
                    s[HEADER + rr * n + cc] = me
                    h ^= ZOBRIST[0, rr, cc] ^ ZOBRIST[1, rr, cc]
                flipped += run
        s[NBLACK + p] += 1 + flipped
        s[NBLACK + 1 - p] -= flipped
    s[HASH] = h
    s[TO_MOVE] = 1 - p
    if _mb_count_moves(s, n, 2 - p, True) > 0:
        s[STATUS] = PLAYING
    elif s[VARIANT] == MANAGER or _mb_count_moves(s, n, p + 1, True) == 0:
        s[STATUS] = OVER
    else:
        s[STATUS] = MUST_PASS


@nb.njit(K.SIG_PLAYOUT, cache=True)
def mb_playout(s, rng):
    n = s[SIZE]
    buf = np.empty(n * n + 1, dtype=np.int32)
    while s[STATUS] != OVER:
        if s[STATUS] == MUST_PASS:  # like the bitboard playout: a pass draws no random number
            mb_apply(s, n * n)
        else:
            mb_apply(s, buf[below(rng, mb_legal(s, buf))])
    return result(s)


@nb.njit(K.SIG_HASH, cache=True)
def mb_hash(s):
    return s[HASH]


@nb.njit(K.SIG_OBSERVE, cache=True)
def mb_observe(s, out):
    """Planes (3, n, n): black discs, white discs, all ones when white is to move."""
    write_planes(s[HEADER:HEADER + s[SIZE] * s[SIZE]], s[TO_MOVE], out)


BITBOARD_KERNELS = K.GameKernels(legal=bb_legal, rollout_moves=bb_legal, apply=bb_apply, terminal=terminal,
                                 to_move=to_move, result=result, playout=bb_playout, hash=bb_hash,
                                 observe=bb_observe)
MAILBOX_KERNELS = K.GameKernels(legal=mb_legal, rollout_moves=mb_legal, apply=mb_apply, terminal=terminal,
                                to_move=to_move, result=result, playout=mb_playout, hash=mb_hash,
                                observe=mb_observe)


# ==== Python side ================================================================================

class Othello(Game):
    """Othello with the "standard" end rule (a side with no placement passes; the game ends when
    neither side can place) or the "manager" end rule (the game ends as soon as the side to move
    has no placement).  ``impl`` picks the kernel set: None (bitboards up to 8x8, mailbox above),
    "bitboard" or "mailbox"."""

    name = "othello"
    SYMBOLS = {0: ".", 1: "X", 2: "O"}
    rules_option = "variant"  # the constructor keyword naming the rule variant

    def __init__(self, size: int = 8, variant: str = "standard", impl: str | None = None):
        self.size = check_size("othello", size, MIN_SIZE, MAX_SIZE)
        self.variant = check_choice("othello variant", variant, VARIANTS)
        if impl is None:
            impl = "bitboard" if self.size <= MAX_BITBOARD_SIZE else "mailbox"
        self.impl = check_choice("othello impl", impl, ("bitboard", "mailbox"))
        if impl == "bitboard" and self.size > MAX_BITBOARD_SIZE:
            raise ValueError(f"othello bitboards hold at most {MAX_BITBOARD_SIZE}x{MAX_BITBOARD_SIZE}, "
                             f"got size {self.size}")
        self.kernels = BITBOARD_KERNELS if impl == "bitboard" else MAILBOX_KERNELS
        self.pass_action = self.size * self.size if variant == "standard" else None
        self.num_actions = self.size * self.size + 1

    def __repr__(self):
        return f"Othello(size={self.size}, variant={self.variant!r}, impl={self.impl!r})"

    @property
    def observation_shape(self):
        return (3, self.size, self.size)

    # ---- states ----------------------------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        n = self.size
        cells = np.zeros((n, n), dtype=np.int64)
        i, j = n // 2 - 1, n // 2
        cells[i, i] = cells[j, j] = 2
        cells[i, j] = cells[j, i] = 1
        return self._make_state(cells, 0)

    def _make_state(self, cells: np.ndarray, to_move: int) -> np.ndarray:
        n = self.size
        if self.impl == "bitboard":
            s = np.zeros(BITBOARD_LEN, dtype=np.int64)
            rows, cols = np.nonzero(cells)
            bits = [(1 << (8 * int(r) + int(c)), int(cells[r, c])) for r, c in zip(rows, cols)]
            black = sum(b for b, v in bits if v == 1)
            white = sum(b for b, v in bits if v == 2)
            s[BLACK_BB] = _as_int64(black)
            s[WHITE_BB] = _as_int64(white)
            s[VALID_BB] = _as_int64(valid_mask(n))
        else:
            s = np.zeros(HEADER + n * n, dtype=np.int64)
            s[HEADER:] = cells.reshape(-1)
        s[SIZE] = n
        s[TO_MOVE] = to_move
        s[VARIANT] = VARIANTS.index(self.variant)
        s[LAYOUT] = BITBOARD if self.impl == "bitboard" else MAILBOX
        (bb_refresh if self.impl == "bitboard" else mb_refresh)(s)
        return s

    def state_from_cells(self, cells, to_move: int, *, previous=None, moves_played=None) -> np.ndarray:
        """A state from any board (0 empty, 1 black, 2 white) with the given player to move; whether
        that side must pass or the game is over follows from the board."""
        self._no_history(previous, moves_played)
        grid = self._check_grid(cells).astype(np.int64)
        return self._make_state(grid, self._check_to_move(to_move))

    def cells(self, state: np.ndarray) -> np.ndarray:
        n = self.size
        if state[LAYOUT] == MAILBOX:
            return state[HEADER:HEADER + n * n].reshape(n, n).astype(CELL_DTYPE)
        out = np.zeros((n, n), dtype=CELL_DTYPE)
        black = int(state[BLACK_BB]) & _MASK64
        white = int(state[WHITE_BB]) & _MASK64
        for r in range(n):
            for c in range(n):
                bit = 1 << (8 * r + c)
                out[r, c] = 1 if black & bit else (2 if white & bit else 0)
        return out

    def score(self, state: np.ndarray) -> float:
        """Black discs minus white discs."""
        b, w = disc_counts(state)
        return float(b - w)

    def must_pass(self, state: np.ndarray) -> bool:
        """True when the side to move has no placement and must pass (standard variant only)."""
        return int(state[STATUS]) == MUST_PASS

    def illegal_reason(self, state, move):
        move = self._check_action(move)
        status = int(state[STATUS])
        if status == OVER:
            return Reason.GAME_OVER
        if move == self.size * self.size:
            return None if status == MUST_PASS else Reason.PASS_NOT_ALLOWED
        if status == MUST_PASS:
            return Reason.MUST_PASS
        if move in self.legal_moves(state):
            return None
        r, c = divmod(move, self.size)
        return Reason.OCCUPIED if self.cells(state)[r, c] != 0 else Reason.NO_BRACKET

    # ---- drawing ---------------------------------------------------------------------------
    def move_label(self, action: int) -> str:
        """'d3' (column letter, row number counted from 1 at the top), as drawn; 'pass'."""
        if self._check_action(action) >= self.size * self.size:
            return "pass"
        r, c = self.coords(action)
        return f"{chr(ord('a') + c)}{r + 1}"

    def render(self, state: np.ndarray) -> str:
        n = self.size
        cells = self.cells(state)
        letters = " ".join(chr(ord("a") + c) for c in range(n))
        lines = [f"   {letters}"]
        for r in range(n):
            lines.append(f"{r + 1:>2} " + " ".join(self.SYMBOLS[int(v)] for v in cells[r]))
        b, w = int((cells == 1).sum()), int((cells == 2).sum())
        status = int(state[STATUS])
        if status == OVER:
            verdict = "black wins" if b > w else ("white wins" if w > b else "draw")
            tail = f"game over: {verdict}"
        else:
            mover = int(state[TO_MOVE])
            tail = f"to move: {'X (black)' if mover == 0 else 'O (white)'}"
            if status == MUST_PASS:
                tail += " - must pass"
        lines.append(f"X (black) {b}, O (white) {w}; {tail}")
        return "\n".join(lines)
