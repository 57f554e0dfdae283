"""A learned Othello evaluation (8x8): Logistello/Edax-style patterns with weights per game phase.

Features, all from the view of the side to move (a cell is 0 empty, 1 the mover's, 2 the opponent's):
  patterns  the ternary index of the cells of each pattern instance (first cell most significant):
              edge2x     the edge row and its two X-squares (10 cells)
              corner3x3  the 3x3 block at a corner (9)
              corner2x5  2 rows x 5 cells from a corner, both orientations (10)
              row2 row3 row4   the 2nd, 3rd and 4th lines from each edge (8 each)
              diag8 diag7 diag6 diag5 diag4   the diagonals of 8..4 cells
            Every pattern is placed in every distinct position the 8 board symmetries give it (46
            instances); all instances of a pattern share one table.  A pattern that a symmetry maps
            onto itself (e.g. an edge mirrored) has a table that is invariant under that reordering of
            its cells, so the evaluation is exactly the same on the 8 symmetric boards.
  scalars   bias, parity (+1 when the number of empties is odd, else -1), the mover's and the
            opponent's mobility (placements), the mover's and the opponent's potential mobility
            (empty squares next to an opposing disc).
Phases: by the number of empty squares e, phase = min(e, 59) // 2 (30 phases of 2 empties, the last 58-60).
A weights file of the first layout (15 phases of 4 empties, LAYOUT_V1) is read as this one with each of its
phases given to the two phases it spans (the same evaluation to the last bit): the earlier files go on working.

Parameter vector (``PARAMS_LEN`` float64, engines/kernels.PARAMS):
  [0] LAYOUT_CODE  [1] N_PHASES  [2] PHASE_STRIDE  [3] HEADER_LEN  [4:8] 0 (reserved)
  then phase by phase: the pattern tables in PATTERN_NAMES order (3**cells entries each, at
  TYPE_OFFSET), then the N_SCALARS scalar weights.
Weights are rounded to multiples of 1/QUANTUM when loaded, so that every sum the kernel makes is exact
in float64 (the kernel, the Python model and the 8 symmetric boards then agree to the last bit).
The score is the predicted final disc difference for the mover (discs), clamped to +-(WIN_SCORE - 1);
final positions score final_score(d) as every Othello evaluation does.  value_patterns (MCTS without
rollouts) is its logistic from black's view (VALUE_SCALE discs).  Other sizes and the mailbox
layout are valued by evaluate_strong (engines/knowledge/othello/evaluation.py) with its default weights.

Weights files (weights/othello/patterns.npz + patterns.json, written by engines/learn/othello/train.py):
the npz holds "weights" (float32, (N_PHASES, PHASE_STRIDE); V1_PHASES rows in a LAYOUT_V1 file) and "layout"
(the text LAYOUT_ID or LAYOUT_V1, as its sidecar says); the
JSON sidecar says how, from what and when the weights were made.  ``load_params`` refuses anything
else with a ValueError naming the file and the fault.
"""
import json
import pathlib

import numba as nb
import numpy as np

from engines import kernels as K
from engines.bits import lowest_bit_index, popcount
from engines.games.othello import (BITBOARD, BLACK_BB, LAYOUT, MOVES_BB, OVER, SIZE, STATUS, TO_MOVE, WHITE_BB,
                                   bb_moves, flips_at, result)
from engines.knowledge.othello.evaluation import evaluate_strong
from engines.knowledge.scores import WIN_SCORE, final_score

LAYOUT_ID = "othello-patterns-v2: edge2x corner3x3 corner2x5 row2 row3 row4 diag8..4; 6 scalars; 30 phases/2 empties"
LAYOUT_V1 = "othello-patterns-v1: edge2x corner3x3 corner2x5 row2 row3 row4 diag8..4; 6 scalars; 15 phases/4 empties"
LAYOUT_CODE = 19002.0
FORMAT = "plies-othello-patterns"
QUANTUM = 4096.0
N_PHASES = 30
PHASE_SHIFT = 1      # phase = min(empties, 59) >> PHASE_SHIFT
V1_PHASES = 15       # the phases of a LAYOUT_V1 file, 4 empties each
HEADER_LEN = 8
SIDECAR_KEYS = ("format", "layout", "phases", "how", "from", "when", "positions", "cpu_hours", "held_out")

_BASES = {
    "edge2x": [(0, c) for c in range(8)] + [(1, 1), (1, 6)],
    "corner3x3": [(r, c) for r in range(3) for c in range(3)],
    "corner2x5": [(0, c) for c in range(5)] + [(1, c) for c in range(5)],
    "row2": [(1, c) for c in range(8)],
    "row3": [(2, c) for c in range(8)],
    "row4": [(3, c) for c in range(8)],
    "diag8": [(i, i) for i in range(8)],
    "diag7": [(i, i + 1) for i in range(7)],
    "diag6": [(i, i + 2) for i in range(6)],
    "diag5": [(i, i + 3) for i in range(5)],
    "diag4": [(i, i + 4) for i in range(4)],
}
PATTERN_NAMES = tuple(_BASES)
SCALAR_NAMES = ("bias", "parity", "mobility", "opponent_mobility", "potential_mobility",
                "opponent_potential_mobility")
N_SCALARS = len(SCALAR_NAMES)

SYMMETRIES = (lambda r, c: (r, c), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c),
              lambda r, c: (7 - r, 7 - c), lambda r, c: (c, r), lambda r, c: (c, 7 - r),
              lambda r, c: (7 - c, r), lambda r, c: (7 - c, 7 - r))


def _layout():
    """Instances (ordered squares r*8+c), their pattern type, and each type's stabiliser permutations."""
    instances, types_, perms = [], [], []
    for t, name in enumerate(PATTERN_NAMES):
        base = _BASES[name]
        seen = set()
        stab = []
        for g in SYMMETRIES:
            image = tuple(r * 8 + c for r, c in (g(r, c) for r, c in base))
            if frozenset(image) == frozenset(r * 8 + c for r, c in base):
                where = {sq: j for j, sq in enumerate(r * 8 + c for r, c in base)}
                perm = tuple(where[sq] for sq in image)
                if perm not in stab:
                    stab.append(perm)
            if frozenset(image) not in seen:
                seen.add(frozenset(image))
                instances.append(image)
                types_.append(t)
        perms.append(stab)
    return instances, types_, perms


INSTANCES, INSTANCE_TYPES, STABILISERS = _layout()
N_INSTANCES = len(INSTANCES)
TYPE_CELLS = np.array([len(_BASES[n]) for n in PATTERN_NAMES], dtype=np.int64)
TYPE_SIZE = 3 ** TYPE_CELLS
TYPE_OFFSET = np.concatenate([[0], np.cumsum(TYPE_SIZE)[:-1]]).astype(np.int64)
N_PATTERN_WEIGHTS = int(TYPE_SIZE.sum())
PHASE_STRIDE = N_PATTERN_WEIGHTS + N_SCALARS
PARAMS_LEN = HEADER_LEN + N_PHASES * PHASE_STRIDE
INST_CELLS = np.array([sq for inst in INSTANCES for sq in inst], dtype=np.int64)
INST_START = np.concatenate([[0], np.cumsum([len(i) for i in INSTANCES])]).astype(np.int64)
INST_OFFSET = np.array([TYPE_OFFSET[t] for t in INSTANCE_TYPES], dtype=np.int64)
N_FEATURES = N_INSTANCES + N_SCALARS  # per position: one table entry per instance, then the scalars


def phase_of(empties: int) -> int:
    return min(int(empties), 59) >> PHASE_SHIFT


def phase_empties(k: int) -> tuple:
    """(fewest, most) empty squares of phase k."""
    return k << PHASE_SHIFT, ((k + 1) << PHASE_SHIFT) - 1 if k < N_PHASES - 1 else 60


def canonical_maps() -> list[np.ndarray]:
    """Per pattern type: index -> the smallest index of its reorderings under the type's stabiliser
    (a table is symmetric when w[i] == w[canonical[i]] for every i)."""
    maps = []
    for t, name in enumerate(PATTERN_NAMES):
        k = int(TYPE_CELLS[t])
        idx = np.arange(3 ** k, dtype=np.int64)
        digits = (idx[:, None] // 3 ** np.arange(k - 1, -1, -1)) % 3  # digits[:, j]: cell j, most significant first
        powers = 3 ** np.arange(k - 1, -1, -1)
        best = idx.copy()
        for perm in STABILISERS[t]:
            best = np.minimum(best, digits[:, list(perm)] @ powers)
        maps.append(best)
    return maps


def symmetrize(weights: np.ndarray) -> np.ndarray:
    """(N_PHASES, PHASE_STRIDE) weights with each table made symmetric (every index takes its
    canonical index's weight)."""
    out = np.array(weights, dtype=np.float64, copy=True)
    for t, cmap in enumerate(canonical_maps()):
        o = int(TYPE_OFFSET[t])
        out[:, o:o + cmap.size] = out[:, o + cmap]
    return out


def quantize(weights) -> np.ndarray:
    return np.round(np.asarray(weights, dtype=np.float64) * QUANTUM) / QUANTUM


def params_from_weights(weights) -> np.ndarray:
    """The kernel's parameter vector from a (N_PHASES, PHASE_STRIDE) weight table (quantised)."""
    weights = np.asarray(weights)
    if weights.shape != (N_PHASES, PHASE_STRIDE):
        raise ValueError(f"pattern weights must have shape {(N_PHASES, PHASE_STRIDE)}, got {weights.shape}")
    params = np.zeros(PARAMS_LEN, dtype=np.float64)
    params[:4] = (LAYOUT_CODE, N_PHASES, PHASE_STRIDE, HEADER_LEN)
    params[HEADER_LEN:] = quantize(weights).reshape(-1)
    return params


# ==== the compiled kernel ========================================================================

U0 = np.uint64(0)
U1 = np.uint64(1)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # without the a file (bit c = 0)
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # without the h file


@nb.njit(cache=True, inline="always")
def neighbours(x):
    """Squares next to a disc of x (8 directions)."""
    e = (x << U1) & NOT_A
    w = (x >> U1) & NOT_H
    h = x | e | w
    return e | w | (h << np.uint64(8)) | (h >> np.uint64(8))


@nb.njit(cache=True, inline="always")
def _cells(P, O):
    """cell[sq] = 0 empty, 1 the mover's (P), 2 the opponent's (O), for the 64 squares."""
    cell = np.empty(64, np.int64)
    for sq in range(64):
        u = np.uint64(sq)
        cell[sq] = np.int64((P >> u) & U1) + 2 * np.int64((O >> u) & U1)
    return cell


@nb.njit(cache=True)
def pattern_features(P, O, idx, scalars):
    """Fills idx[i] (the table position of instance i within its phase: type offset + ternary index)
    and the scalars of the position (P the mover's discs, O the opponent's); returns the phase."""
    empty = ~(P | O)
    e = np.int64(popcount(empty))
    cell = _cells(P, O)
    for i in range(N_INSTANCES):
        v = np.int64(0)
        for k in range(INST_START[i], INST_START[i + 1]):
            v = v * 3 + cell[INST_CELLS[k]]
        idx[i] = INST_OFFSET[i] + v
    scalars[0] = 1.0
    scalars[1] = 1.0 if e % 2 == 1 else -1.0
    scalars[2] = np.float64(popcount(bb_moves(P, O, FULL)))
    scalars[3] = np.float64(popcount(bb_moves(O, P, FULL)))
    scalars[4] = np.float64(popcount(neighbours(O) & empty))
    scalars[5] = np.float64(popcount(neighbours(P) & empty))
    return min(e, 59) >> PHASE_SHIFT


@nb.njit(cache=True)
def score_bits(P, O, moves, w):
    """The pattern score (discs, unclamped) of a non-final position: P the mover's discs, O the
    opponent's, moves the mover's placements; w the full parameter vector."""
    empty = ~(P | O)
    e = np.int64(popcount(empty))
    base = HEADER_LEN + (min(e, 59) >> PHASE_SHIFT) * PHASE_STRIDE
    score = 0.0
    cell = _cells(P, O)
    for i in range(N_INSTANCES):
        v = np.int64(0)
        for k in range(INST_START[i], INST_START[i + 1]):
            v = v * 3 + cell[INST_CELLS[k]]
        score += w[base + INST_OFFSET[i] + v]
    s = base + N_PATTERN_WEIGHTS
    score += w[s]
    score += w[s + 1] * (1.0 if e % 2 == 1 else -1.0)
    score += w[s + 2] * np.float64(popcount(moves))
    score += w[s + 3] * np.float64(popcount(bb_moves(O, P, FULL)))
    score += w[s + 4] * np.float64(popcount(neighbours(O) & empty))
    score += w[s + 5] * np.float64(popcount(neighbours(P) & empty))
    return score


@nb.njit(cache=True, inline="always")
def clamp(score):
    limit = WIN_SCORE - 1.0
    return min(max(score, -limit), limit)


@nb.njit(cache=True)
def _evaluate_strong_default(s):
    return evaluate_strong(s, np.zeros(0))


@nb.njit(K.SIG_EVALUATE, cache=True)
def evaluate_patterns(s, w):
    """The learned pattern score for the side to move (discs); final states score final_score(d);
    a state that is not an 8x8 bitboard, or a params vector of another length, is valued by
    evaluate_strong's defaults (an exception cannot cross a compiled search)."""
    if s[SIZE] != 8 or s[LAYOUT] != BITBOARD or w.shape[0] != PARAMS_LEN:
        return _evaluate_strong_default(s)
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    P, O = (B, W) if s[TO_MOVE] == 0 else (W, B)
    if s[STATUS] == OVER:
        return final_score(np.float64(np.int64(popcount(P)) - np.int64(popcount(O))))
    return clamp(score_bits(P, O, np.uint64(s[MOVES_BB]), w))


# ==== the incremental evaluation (alpha-beta keeps the pattern indices along its path) =============
# A position's features: N_INSTANCES int64, instance i's table position (type offset + ternary index,
# as pattern_features' idx) seen by each colour, packed: bits 0..31 black's view (a cell is 0 empty,
# 1 black, 2 white), bits 32..63 white's view (1 white, 2 black), so the side to move reads its own
# view and the tables stay as they are.  Packed, one add updates both views (each half stays a
# non-negative index, so a negative change borrows exactly) and a row is half as long to copy.
# A move changes only the squares it touches (Edax's way): square sq is in SQUARE_COUNT[sq]
# instances, SQUARE_SLOT[sq * SQUARE_WIDTH + k] for k < count; SQUARE_DELTA[(change * 64 + sq) *
# SQUARE_WIDTH + k] is what the square adds to each (both views packed, its power of 3 folded in) for
# each change: a disc placed by black / by white (0 -> its colour's digit), a white disc turned black /
# a black disc turned white.  (Flat arrays: numba's indexing of 2-d and 3-d constant arrays made the
# update twice as slow.)
PLACED_BLACK, PLACED_WHITE, TURNED_BLACK, TURNED_WHITE = range(4)
FEATURES_LEN = N_INSTANCES
VIEW_SHIFT = np.uint64(32)
VIEW_MASK = np.int64(0xFFFFFFFF)


def _square_tables():
    per_square = [[] for _ in range(64)]
    for i, inst in enumerate(INSTANCES):
        for j, sq in enumerate(inst):
            per_square[sq].append((i, 3 ** (len(inst) - 1 - j)))
    width = max(len(x) for x in per_square)
    count = np.array([len(x) for x in per_square], dtype=np.int64)
    slot = np.zeros((64, width), dtype=np.int64)
    delta = np.zeros((4, 64, width), dtype=np.int64)
    # the digit's change in (black's view, white's view)
    changes = {PLACED_BLACK: (1, 2), PLACED_WHITE: (2, 1), TURNED_BLACK: (-1, 1), TURNED_WHITE: (1, -1)}
    for sq, pairs in enumerate(per_square):
        for k, (i, power) in enumerate(pairs):
            slot[sq, k] = i
            for change, (black, white) in changes.items():
                delta[change, sq, k] = black * power + (white * power << 32)
    return count, slot.reshape(-1), delta.reshape(-1), width


SQUARE_COUNT, SQUARE_SLOT, SQUARE_DELTA, SQUARE_WIDTH = _square_tables()


@nb.njit(cache=True, inline="always")
def _is_patterns_board(s):
    return s[SIZE] == 8 and s[LAYOUT] == BITBOARD


@nb.njit(K.SIG_FEATURES_INIT, cache=True)
def features_init(s, features):
    """Both views' table positions of every instance, from the boards (a state of another size or
    layout has no features: evaluate_features values it without them)."""
    if not _is_patterns_board(s):
        return
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    for i in range(N_INSTANCES):
        vb = np.int64(0)
        vw = np.int64(0)
        for k in range(INST_START[i], INST_START[i + 1]):
            u = np.uint64(INST_CELLS[k])
            b = np.int64((B >> u) & U1)
            w = np.int64((W >> u) & U1)
            vb = vb * 3 + b + 2 * w
            vw = vw * 3 + w + 2 * b
        features[i] = (INST_OFFSET[i] + vb) | ((INST_OFFSET[i] + vw) << 32)


@nb.njit(cache=True, inline="always")
def _add_squares(squares, change, features):
    """Every instance through the squares (a bitboard) changes as SQUARE_DELTA[change] says."""
    while squares != U0:
        sq = np.int64(lowest_bit_index(squares))
        squares &= squares - U1
        slots = sq * SQUARE_WIDTH
        deltas = (change * 64 + sq) * SQUARE_WIDTH
        for k in range(SQUARE_COUNT[sq]):
            features[SQUARE_SLOT[slots + k]] += SQUARE_DELTA[deltas + k]


@nb.njit(K.SIG_FEATURES_PLAY, cache=True)
def features_play(parent, child, parent_features, child_features):
    """The child's features from the parent's: placed discs and flipped discs (a pass changes none)."""
    for i in range(FEATURES_LEN):
        child_features[i] = parent_features[i]
    Bp = np.uint64(parent[BLACK_BB])
    Wp = np.uint64(parent[WHITE_BB])
    Bc = np.uint64(child[BLACK_BB])
    Wc = np.uint64(child[WHITE_BB])
    placed = (Bc | Wc) & ~(Bp | Wp)  # none after a pass
    if not _is_patterns_board(child):  # (tested here, not first: that made numba's copy above twice as slow)
        return
    if placed & Bc:
        _add_squares(placed, PLACED_BLACK, child_features)
        _add_squares(Bc & Wp, TURNED_BLACK, child_features)
    elif placed:
        _add_squares(placed, PLACED_WHITE, child_features)
        _add_squares(Wc & Bp, TURNED_WHITE, child_features)


@nb.njit(K.SIG_EVALUATE_FEATURES, cache=True)
def evaluate_features(s, features, w):
    """evaluate_patterns(s, w) from the position's features (the same value to the last bit: every
    weight is a multiple of 1/QUANTUM, so the sums are exact in any order)."""
    if not _is_patterns_board(s) or w.shape[0] != PARAMS_LEN:
        return _evaluate_strong_default(s)
    p = s[TO_MOVE]
    B = np.uint64(s[BLACK_BB])
    W = np.uint64(s[WHITE_BB])
    P, O = (B, W) if p == 0 else (W, B)
    if s[STATUS] == OVER:
        return final_score(np.float64(np.int64(popcount(P)) - np.int64(popcount(O))))
    empty = ~(P | O)
    e = np.int64(popcount(empty))
    base = HEADER_LEN + (min(e, 59) >> PHASE_SHIFT) * PHASE_STRIDE
    # four running sums, and the scalars as a tree: one chain of 53 dependent float additions costs
    # more than the table reads (every sum is exact, so the order changes nothing)
    shift = VIEW_SHIFT if p == 1 else np.uint64(0)
    a0 = a1 = a2 = a3 = 0.0
    for i in range(0, N_INSTANCES - 3, 4):
        a0 += w[base + ((features[i] >> shift) & VIEW_MASK)]
        a1 += w[base + ((features[i + 1] >> shift) & VIEW_MASK)]
        a2 += w[base + ((features[i + 2] >> shift) & VIEW_MASK)]
        a3 += w[base + ((features[i + 3] >> shift) & VIEW_MASK)]
    for i in range(N_INSTANCES - N_INSTANCES % 4, N_INSTANCES):
        a0 += w[base + ((features[i] >> shift) & VIEW_MASK)]
    s0 = base + N_PATTERN_WEIGHTS
    b0 = w[s0] + w[s0 + 1] * (1.0 if e % 2 == 1 else -1.0)
    b1 = (w[s0 + 2] * np.float64(popcount(np.uint64(s[MOVES_BB])))
          + w[s0 + 3] * np.float64(popcount(bb_moves(O, P, FULL))))
    b2 = (w[s0 + 4] * np.float64(popcount(neighbours(O) & empty))
          + w[s0 + 5] * np.float64(popcount(neighbours(P) & empty)))
    return clamp(((a0 + a1) + (a2 + a3)) + (b0 + (b1 + b2)))


VALUE_SCALE = 8.0  # value_patterns: P(black wins) = 1 / (1 + exp(-score_for_black / VALUE_SCALE)), in discs (set, not fitted)


@nb.njit(K.SIG_VALUE, cache=True)
def value_patterns(s, w):
    """P(black wins) for MCTS without rollouts: exact 1 / 0.5 / 0 on final states, else the logistic of
    evaluate_patterns from black's view with scale VALUE_SCALE discs."""
    if s[STATUS] == OVER:
        return result(s)
    e = evaluate_patterns(s, w)
    if s[TO_MOVE] == 1:
        e = -e
    return 1.0 / (1.0 + np.exp(-e / VALUE_SCALE))


# ==== the plain Python model (tests) =============================================================

_DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def _placements(grid, me):
    """The number of placements of colour me (1/2) on an 8x8 grid (list of lists)."""
    opp = 3 - me
    count = 0
    for r in range(8):
        for c in range(8):
            if grid[r][c] != 0:
                continue
            for dr, dc in _DIRS:
                rr, cc, seen = r + dr, c + dc, False
                while 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == opp:
                    rr, cc, seen = rr + dr, cc + dc, True
                if seen and 0 <= rr < 8 and 0 <= cc < 8 and grid[rr][cc] == me:
                    count += 1
                    break
    return count


def python_evaluate(cells, to_move: int, params) -> float:
    """The same evaluation as evaluate_patterns, in plain Python, from an 8x8 grid (0 empty, 1
    black, 2 white) and the player to move (0 black, 1 white); standard rules (a side without a
    placement passes; the game is over when neither side has one)."""
    grid = [[int(v) for v in row] for row in cells]
    me, opp = to_move + 1, 2 - to_move
    view = [[0 if v == 0 else (1 if v == me else 2) for v in row] for row in grid]
    mine = sum(row.count(1) for row in view)
    theirs = sum(row.count(2) for row in view)
    mob, omob = _placements(grid, me), _placements(grid, opp)
    if mob == 0 and omob == 0:
        d = float(mine - theirs)
        return WIN_SCORE + d if d > 0 else (-WIN_SCORE + d if d < 0 else 0.0)
    e = 64 - mine - theirs
    base = HEADER_LEN + phase_of(e) * PHASE_STRIDE
    score = 0.0
    for inst, t in zip(INSTANCES, INSTANCE_TYPES):
        v = 0
        for sq in inst:
            v = v * 3 + view[sq // 8][sq % 8]
        score += float(params[base + int(TYPE_OFFSET[t]) + v])

    def next_to(colour):
        n = 0
        for r in range(8):
            for c in range(8):
                if view[r][c] == 0 and any(0 <= r + dr < 8 and 0 <= c + dc < 8 and view[r + dr][c + dc] == colour
                                           for dr, dc in _DIRS):
                    n += 1
        return n

    s = base + N_PATTERN_WEIGHTS
    feats = [1.0, 1.0 if e % 2 == 1 else -1.0, float(mob), float(omob), float(next_to(2)), float(next_to(1))]
    for k, f in enumerate(feats):
        score += float(params[s + k]) * f
    limit = WIN_SCORE - 1.0
    return min(max(score, -limit), limit)


# ==== a quick estimate on bitboards (the endgame solver's first guess) ============================

# an explicit signature: numba's cache reloads a self-recursive function compiled without one wrongly
@nb.njit(nb.float64(nb.uint64, nb.uint64, nb.int64, nb.float64, nb.float64, nb.int64, nb.float64[::1]),
         cache=True)
def _negamax_bits(P, O, depth, alpha, beta, passed, w):
    """Depth-limited alpha-beta (fail-soft) of the pattern score; final positions by their disc count."""
    moves = bb_moves(P, O, FULL)
    if moves == U0:
        if passed != 0 or bb_moves(O, P, FULL) == U0:
            return np.float64(np.int64(popcount(P)) - np.int64(popcount(O)))
        return -_negamax_bits(O, P, depth, -beta, -alpha, passed + 1, w)
    if depth == 0:
        return score_bits(P, O, moves, w)
    best = -np.inf
    zero = passed - passed
    while moves != U0:
        x = moves & (U0 - moves)
        moves ^= x
        f = flips_at(lowest_bit_index(x), P, O)
        v = -_negamax_bits(O ^ f, P ^ f ^ x, depth - 1, -beta, -max(alpha, best), zero, w)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


def estimate_bits(P: int, O: int, depth: int = 4, path=None) -> int:
    """The final disc difference for the mover of (P, O) (bitboards) that a depth-ply search of the
    pattern evaluation predicts, rounded to an even number in [-64, 64]: the exact endgame solve's
    first aspiration window is centred on it."""
    w = load_params(path)
    v = _negamax_bits(np.uint64(P), np.uint64(O), depth, -np.inf, np.inf, 0, w)
    return int(max(-64, min(64, 2 * round(v / 2))))


# ==== the weights files ==========================================================================

SHIPPED = pathlib.Path(__file__).resolve().parent.parent.parent / "weights" / "othello" / "patterns.npz"


def shipped_path() -> pathlib.Path:
    """weights/othello/patterns.npz of the source tree, else of the installed weights package."""
    if SHIPPED.is_file():
        return SHIPPED
    try:
        import weights
        return pathlib.Path(weights.__file__).resolve().parent / "othello" / "patterns.npz"
    except ImportError:  # pragma: no cover
        return SHIPPED


def read_sidecar(path) -> dict:
    """The JSON sidecar beside a weights file (patterns.json for patterns.npz), checked."""
    path = pathlib.Path(path)
    side = path.with_suffix(".json")
    try:
        data = json.loads(side.read_text())
    except FileNotFoundError:
        raise ValueError(f"{side}: the sidecar of {path.name} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{side}: not a readable JSON sidecar ({err})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{side}: the sidecar must be a JSON object")
    missing = [k for k in SIDECAR_KEYS if k not in data]
    if missing:
        raise ValueError(f"{side}: missing keys {', '.join(missing)}")
    if data["format"] != FORMAT:
        raise ValueError(f"{side}: format {data['format']!r}, expected {FORMAT!r}")
    if data["layout"] not in _PHASES_OF_LAYOUT:
        raise ValueError(f"{side}: feature layout {data['layout']!r} does not match this evaluation's {LAYOUT_ID!r}")
    if data["phases"] != _PHASES_OF_LAYOUT[data["layout"]]:
        raise ValueError(f"{side}: {data['phases']!r} phases, its layout has {_PHASES_OF_LAYOUT[data['layout']]}")
    return data


_PHASES_OF_LAYOUT = {LAYOUT_ID: N_PHASES, LAYOUT_V1: V1_PHASES}


def sidecar_phase(sidecar: dict, k: int) -> str:
    """The key of a sidecar's per-phase entries (its "held_out") that covers this layout's phase k."""
    return str(k * sidecar["phases"] // N_PHASES)


def from_v1(weights: np.ndarray) -> np.ndarray:
    """(N_PHASES, PHASE_STRIDE) weights from a LAYOUT_V1 table (V1_PHASES rows): v1's phase k (empties
    4k..4k+3) is this layout's phases 2k and 2k+1."""
    return np.repeat(weights, N_PHASES // V1_PHASES, axis=0)


def load_weights(path) -> np.ndarray:
    """The (N_PHASES, PHASE_STRIDE) float64 weight table of a patterns .npz (+ its JSON sidecar);
    ValueError naming the file and the fault for anything malformed or mismatched."""
    path = pathlib.Path(path)
    sidecar = read_sidecar(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise ValueError(f"{path}: no such weights file") from None
    except (OSError, ValueError, EOFError) as err:
        raise ValueError(f"{path}: not a readable .npz weights file ({err})") from None
    if not isinstance(arrays, dict):  # pragma: no cover - np.load of a plain .npy
        raise ValueError(f"{path}: not an .npz archive")
    missing = [k for k in ("weights", "layout") if k not in arrays]
    if missing:
        raise ValueError(f"{path}: missing arrays {', '.join(missing)}")
    layout = arrays["layout"]
    if layout.dtype.kind != "U" or layout.shape != () or str(layout) not in _PHASES_OF_LAYOUT:
        raise ValueError(f"{path}: feature layout {layout!r} does not match this evaluation's {LAYOUT_ID!r}")
    if str(layout) != sidecar["layout"]:
        raise ValueError(f"{path}: feature layout {str(layout)!r}, its sidecar says {sidecar['layout']!r}")
    w = arrays["weights"]
    if w.dtype != np.float32:
        raise ValueError(f"{path}: weights have dtype {w.dtype}, expected float32")
    phases = _PHASES_OF_LAYOUT[str(layout)]
    if w.shape != (phases, PHASE_STRIDE):
        raise ValueError(f"{path}: weights have shape {w.shape}, expected {(phases, PHASE_STRIDE)}")
    if not np.isfinite(w).all():
        raise ValueError(f"{path}: weights hold non-finite numbers")
    w = quantize(w)
    if not np.array_equal(symmetrize(w), w):
        raise ValueError(f"{path}: the pattern tables are not symmetric under the board symmetries")
    return w if phases == N_PHASES else from_v1(w)


_CACHE = {}


def load_params(path=None) -> np.ndarray:
    """The kernel's parameter vector from a weights file (default: the shipped one); cached by path."""
    path = pathlib.Path(path) if path is not None else shipped_path()
    key = str(path.resolve())
    if key not in _CACHE:
        _CACHE[key] = params_from_weights(load_weights(path))
    return _CACHE[key]


def save_weights(path, weights, sidecar: dict) -> None:
    """Writes weights (N_PHASES, PHASE_STRIDE; made symmetric and quantised) and the sidecar."""
    path = pathlib.Path(path)
    w = quantize(symmetrize(weights)).astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, weights=w, layout=np.array(LAYOUT_ID))
    meta = {"format": FORMAT, "layout": LAYOUT_ID, "phases": N_PHASES}
    meta.update({k: v for k, v in sidecar.items() if k not in meta})
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


def knowledge(path=None):
    """The Knowledge bundle of the pattern evaluation (8x8) with the weights at path (default shipped)."""
    return knowledge_of_params(load_params(path))


def knowledge_of_params(params: np.ndarray):
    """The Knowledge bundle of the pattern evaluation with a parameter vector (params_from_weights'),
    e.g. weights being fitted that have no file yet."""
    from engines.knowledge.bundle import Knowledge
    if params.shape != (PARAMS_LEN,):
        raise ValueError(f"pattern parameters must have length {PARAMS_LEN}, got shape {params.shape}")
    return Knowledge(evaluate=evaluate_patterns, eval_params=params, value=value_patterns, value_params=params,
                     features_init=features_init, features_play=features_play, evaluate_features=evaluate_features,
                     features_len=FEATURES_LEN)


def warm_up() -> None:
    """Compile the kernels (with zero weights: no file needed)."""
    from engines.games.othello import Othello
    game = Othello(8)
    state = game.initial_state()
    params = params_from_weights(np.zeros((N_PHASES, PHASE_STRIDE)))
    evaluate_patterns(state, params)
    evaluate_patterns(state, params[:3])
    value_patterns(state, params)
    pattern_features(np.uint64(1), np.uint64(2), np.zeros(N_INSTANCES, np.int64), np.zeros(N_SCALARS))
    features = np.zeros(FEATURES_LEN, np.int64)
    child = game.play(state, game.legal_moves(state)[0])
    features_init(state, features)
    features_play(state, child, features, features.copy())
    evaluate_features(child, features, params)
