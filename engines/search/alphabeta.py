"""Alpha-beta (or plain minimax) negamax over any game's compiled kernels: principal-variation
search, depth limit, iterative deepening on a clock, transposition table, move ordering, optional
ProbCut.  Every feature is switchable (AlphaBetaConfig): the Othello game manager turns them on and
off per game.

Data representation
-------------------
One compiled kernel, ``_negamax``, holds the whole tree descent as an EXPLICIT STACK of per-ply rows
(ply 0 is the root; ``P = max_ply + 1`` rows):
  positions    int64[P, state_len]    the position at each ply (a child is a copy of its parent, then apply)
  moves        int32[P, num_actions]  the moves of the node at each ply, in search order
  ply_ints     int64[P, 8]            per ply: NEXT_CHILD (index of the next move to step into),
                                      CHILD_COUNT, BEST_MOVE, KEY (Zobrist), CUT_BELOW (a depth
                                      cut-off happened below), PV_LENGTH, NULL_WINDOW (the node is
                                      a PVS null-window test), ORDER_PENDING (the table's move is
                                      first and the other moves are not ordered yet)
  ply_floats   float64[P, 4]          per ply: ALPHA, BETA, ALPHA_AT_ENTRY, BEST_SCORE
  pv_table     int32[P, P]            triangular principal-variation table (row p holds moves from ply p)
  order_scores float64[num_actions]   scratch: static scores of the children being ordered
  root_scores  float64[num_actions]   score of each root move (index = position in moves[0]) this iteration
  features     int64[P, F]            the incremental evaluation's features of the position at each ply
                                      (F = the bundle's features_len; one unused column without one)
  probcut      float64[E, P, 7]       per (empty cells, depth left): SHALLOW (the shallow search's plies
                                      d', -1: no ProbCut there; 0: the static value, 1: the best
                                      child's static score), A, B, MARGIN (probcut_t * sigma), and
                                      counters TRIES, CUTS, NODES (of the shallow searches); E =
                                      num_actions + 1 (1 x 1 rows when ProbCut is off)
  control      int64[10]              the resumable registers: TOP_PLY, ITERATION_DEPTH, NODES,
                                      NODE_LIMIT of this call, STATUS (start / running / done),
                                      FEATURES (bit flags), TT_HITS, GENERATION of the table,
                                      ROOT_EMPTIES (the root's empty cells, ProbCut's phase),
                                      REPLY_ORDER_BELOW (config.reply_order_below)
The kernel takes them in records (engines.kernels): ``Stack`` (positions .. features), ``Table``
(the transposition table below) and ``AlphaBetaKernels`` (legal, apply, terminal, hash, evaluate, and
the incremental evaluation's features_init, features_play, evaluate_features).
Scores are negamax scores: the evaluate kernel's value for the side to move, negated on the way
up.  Terminal states and depth cut-offs are valued by the evaluate kernel (the registered
evaluators give exact outcomes on final states).  A pass is just another action the game's legal
kernel returns.

The kernel is RESUMABLE: a call expands at most ``control[NODE_LIMIT] - control[NODES]`` nodes and
returns, leaving the stack in the arrays; the Python driver checks the clock between calls (chunks
of about CHUNK_SECONDS and at most half the time left, sized from the measured rate) and abandons
an iteration once the deadline passes, keeping the last completed iteration's answer.

Transposition table (``tt_size`` slots, always-replace, index = key & (tt_size - 1)):
  table_keys   int64    the full Zobrist key of the position (side to move included by the game)
  table_data   int64    bits 48..62 table generation (one per search() call; other generations are
                        empty), bit 47 "a depth cut-off happened below", bits 44..45 bound (0 exact,
                        1 lower, 2 upper), bits 32..43 remaining depth searched, bits 0..31 best move+1
  table_scores float64  the score
An entry settles a node when its depth >= the remaining depth and its bound settles the window; its
best move is tried first when ordering is on.  Plain minimax stores only exact values.

Incremental evaluation (use_incremental, when the knowledge bundle has one): the root's features are
computed from scratch, every child's row (a step into it, or its static score for the ordering) is
its parent's row updated by features_play, and static values come from evaluate_features, which
gives exactly evaluate's value (the bundle's contract), so the search visits the same nodes.

Move ordering: each child is evaluated statically (score from the mover's view = minus the child's
evaluation), the moves are sorted by it descending (stable: ties keep the game's move order), and
the table's best move goes first.  When the table has a move for the node, that move is searched
BEFORE the others are evaluated (ORDER_PENDING): they are ordered only when it does not cut, in the
same order as before, so a cut-off on the table's move costs no static evaluation.  With
reply_order_below = r > 0, a node with fewer than r plies left orders its children by their
number of replies instead (the legal count after the move, fewest first: no evaluation; Othello's
mobility ordering near the leaves), except where a ProbCut row of shallow depth 1 needs the
static scores.  With ordering on, a node whose children are all leaves (one ply left) values them
statically, the table's move first and then in the game's order, and stops at the first that
reaches beta (fail-soft: its score is the node's lower bound); without a cut its value is exact.
Nothing of this changes the root's value at a fixed depth (tests/test_alphabeta_pvs.py).

Principal-variation search (use_pvs, with alpha-beta): the first move of a node is searched with
the node's window, every later one with a null window (beta' - tiny, beta') that only decides
whether it beats alpha; one that does (a bound strictly inside the node's window) is searched again
with the full window, in place: the finished child is reopened instead of handed to its parent.  A
table entry that settles a null window with such a bound is re-searched the same way.  Values are
exactly those of plain alpha-beta (tests/test_alphabeta_pvs.py); non-best root moves get bounds.

Multi-ProbCut (config.probcut rows, off by default): at a non-root node with d plies left and e empty
cells (the root's less the node's ply: a pass is counted as a ply) whose row (e, d) is set, the deep
value is predicted as a * v + b from a shallow value v of d' plies: the static value (d' 0), the best
child's static score (d' 1, which the ordering computes anyway) or ``_shallow_search``, a fail-soft
alpha-beta of d' plies without a table in the stack rows above the node (the node's table move first,
killers below it, static ordering only from SHALLOW_ORDER_LEFT plies left), run with a null window at
the v that puts the prediction exactly at the bound (so it only has to show v is beyond it; the side
the static value points to first, and a first search's fail-soft bound settles the other test when
it can).  When the prediction lies beyond beta (below alpha) by more than probcut_t * sigma the node
returns beta (alpha) as its bound, and the result is not exact.  With probcut_null_only (the default) only
null-window nodes are tested, and a cut that would show a PVS null-window move beats the parent's
alpha sends it to the full-window search instead (a cut never makes a move the best on its own).
The shallow searches' nodes are counted in the nodes.  The rows are fitted per band of empties and
(d, d') by regression of deep on shallow values (engines/learn/othello/probcut_fit.py).

A node is a position the search visits: the root, every child it steps into, and the leaves valued
from static scores (up to the cut-off); the static evaluations made for ordering at deeper nodes
and the reply counts are not counted.
"""
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.search.base import checked_position, config_from, knowledge_from
from engines.search.result import SCORE, Limits, SearchResult
from engines.validate import check_bool, check_int, check_number

# ---- tunables ------------------------------------------------------------------------------------
CHUNK_SECONDS = 0.002     # target duration of one kernel call between two clock checks
FIRST_CHUNK = 4           # nodes in the first call of a search, before the rate is known (grows 4x per call)
MAX_CHUNK = 1 << 24       # nodes in one call when no clock is running
MAX_PLY_LIMIT = 4095      # deepest stack the table's 12-bit depth field can describe
MAX_TT_SIZE = 1 << 28     # largest transposition table (slots; 24 bytes each)
NULL_WINDOW_WIDTH = 1e-12  # a PVS null window is (beta - max(|beta|, 1) * this, beta)
STOP_MIN_SECONDS = 0.01   # stop_share: iterations shorter than this predict nothing (their times are noise)
SHALLOW_ORDER_LEFT = 3    # ProbCut's shallow search orders a node's children statically from this many plies left
STOP_MAX_GROWTH = 8.0     # stop_share: the predicted growth of an iteration's time is at most this

# ---- layout constants (see the header) -----------------------------------------------------------
NEXT_CHILD, CHILD_COUNT, BEST_MOVE, KEY, CUT_BELOW, PV_LENGTH, NULL_WINDOW, ORDER_PENDING = range(8)  # ply_ints
N_PLY_INTS = 8
ALPHA, BETA, ALPHA_AT_ENTRY, BEST_SCORE = range(4)                          # ply_floats columns
N_PLY_FLOATS = 4
(TOP_PLY, ITERATION_DEPTH, NODES, NODE_LIMIT, STATUS, FEATURES, TT_HITS, GENERATION, ROOT_EMPTIES,
 REPLY_ORDER_BELOW) = range(10)  # control
N_CONTROL = 10
STATUS_START, STATUS_RUNNING, STATUS_DONE = 0, 1, 2
USE_ALPHABETA, USE_TABLE, USE_ORDERING, USE_PVS, USE_PROBCUT, USE_INCREMENTAL = 1, 2, 4, 8, 16, 32  # control[FEATURES]
USE_PROBCUT_NULL_ONLY = 64  # control[FEATURES]: ProbCut only at null-window nodes, never making a move best
PC_SHALLOW, PC_A, PC_B, PC_MARGIN, PC_TRIES, PC_CUTS, PC_NODES = range(7)  # probcut columns ([empties, depth left])
N_PROBCUT = 7
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
GENERATION_SHIFT, CUT_SHIFT, BOUND_SHIFT, DEPTH_SHIFT = 48, 47, 44, 32      # fields of table_data
GENERATION_MASK, BOUND_MASK, DEPTH_MASK, MOVE_MASK = 0x7FFF, 3, 0xFFF, 0xFFFFFFFF



class Stack(NamedTuple):
    """The explicit stack and the root's scores (the header's layout)."""
    positions: np.ndarray     # int64[P, state_len]
    moves: np.ndarray         # int32[P, num_actions]
    ply_ints: np.ndarray      # int64[P, N_PLY_INTS]
    ply_floats: np.ndarray    # float64[P, N_PLY_FLOATS]
    pv_table: np.ndarray      # int32[P, P]
    order_scores: np.ndarray  # float64[num_actions]
    root_scores: np.ndarray   # float64[num_actions]
    features: np.ndarray      # int64[P, F]


class Table(NamedTuple):
    """The transposition table (the header's layout)."""
    keys: np.ndarray    # int64[tt_size]
    data: np.ndarray    # int64[tt_size]
    scores: np.ndarray  # float64[tt_size]


class AlphaBetaKernels(NamedTuple):
    """The function values the descent calls: the game's rules and the evaluation."""
    legal: object     # SIG_LEGAL
    apply: object     # SIG_APPLY
    terminal: object  # SIG_TERMINAL
    zobrist: object   # SIG_HASH
    evaluate: object  # SIG_EVALUATE
    features_init: object      # SIG_FEATURES_INIT (no-ops below when the bundle has no incremental evaluation)
    features_play: object      # SIG_FEATURES_PLAY
    evaluate_features: object  # SIG_EVALUATE_FEATURES


STACK = K.record_type(Stack, (types.int64[:, ::1], types.int32[:, ::1], types.int64[:, ::1], types.float64[:, ::1],
                              types.int32[:, ::1], types.float64[::1], types.float64[::1], types.int64[:, ::1]))
TABLE = K.record_type(Table, (types.int64[::1], types.int64[::1], types.float64[::1]))
KERNELS = K.kernel_record(AlphaBetaKernels, (K.SIG_LEGAL, K.SIG_APPLY, K.SIG_TERMINAL, K.SIG_HASH, K.SIG_EVALUATE,
                                             K.SIG_FEATURES_INIT, K.SIG_FEATURES_PLAY, K.SIG_EVALUATE_FEATURES))
_SIG = types.void(KERNELS, K.PARAMS, STACK, TABLE, types.float64[:, :, ::1], types.int64[::1])


# the incremental evaluation's places when the bundle has none (never called: USE_INCREMENTAL is off)
@nb.njit(K.SIG_FEATURES_INIT, cache=True)
def _no_features_init(state, features):
    pass


@nb.njit(K.SIG_FEATURES_PLAY, cache=True)
def _no_features_play(parent, child, parent_features, child_features):
    pass


@nb.njit(K.SIG_EVALUATE_FEATURES, cache=True)
def _no_evaluate_features(state, features, params):
    return 0.0


# ---- the steps of the descent (inlined into _negamax) ------------------------------------------
@nb.njit(cache=True, inline="always")
def _static_value(ply, positions, features, params, evaluate, evaluate_features, incremental):
    """The evaluation of the position at ply for its mover (from its features when incremental)."""
    if incremental:
        return evaluate_features(positions[ply], features[ply], params)
    return evaluate(positions[ply], params)


@nb.njit(cache=True, inline="always")
def _play_into(parent, child, move, positions, features, apply, features_play, incremental):
    """The row at child becomes the position at parent after move (and its features)."""
    for k in range(positions.shape[1]):
        positions[child, k] = positions[parent, k]
    apply(positions[child], move)
    if incremental:
        features_play(positions[parent], positions[child], features[parent], features[child])


@nb.njit(cache=True, inline="always")
def _record_child(ply, index, move, score, ply_ints, ply_floats, pv_table, root_scores, use_alphabeta):
    """The child at position index (move) of the node at ply scored score, from the view of ply's
    mover: keep the best score, move and principal variation (and a root move's own score), raise
    alpha, and on a beta cut-off skip the remaining children."""
    if ply == 0:
        root_scores[index] = score
    if score > ply_floats[ply, BEST_SCORE] or ply_ints[ply, BEST_MOVE] < 0:
        ply_floats[ply, BEST_SCORE] = score
        ply_ints[ply, BEST_MOVE] = move
        pv_table[ply, ply] = move
        length = ply_ints[ply + 1, PV_LENGTH]
        for k in range(ply + 1, ply + 1 + length):
            pv_table[ply, k] = pv_table[ply + 1, k]
        ply_ints[ply, PV_LENGTH] = length + 1
        if use_alphabeta and score > ply_floats[ply, ALPHA]:
            ply_floats[ply, ALPHA] = score
            if score >= ply_floats[ply, BETA]:
                ply_ints[ply, NEXT_CHILD] = ply_ints[ply, CHILD_COUNT]  # beta cut-off: no more children


@nb.njit(cache=True, inline="always")
def _record_last_child(ply, score, moves, ply_ints, ply_floats, pv_table, root_scores, use_alphabeta):
    """_record_child for the child of ply stepped into last."""
    index = ply_ints[ply, NEXT_CHILD] - 1
    _record_child(ply, index, moves[ply, index], score, ply_ints, ply_floats, pv_table, root_scores, use_alphabeta)


@nb.njit(cache=True, inline="always")
def _step_into_next_child(parent, positions, features, moves, ply_ints, apply, features_play, incremental):
    """Copy the node at parent one ply down and play its next move there; returns (the child's ply,
    the move's index among the parent's moves, the move)."""
    index = ply_ints[parent, NEXT_CHILD]
    move = moves[parent, index]
    ply_ints[parent, NEXT_CHILD] = index + 1
    child = parent + 1
    _play_into(parent, child, move, positions, features, apply, features_play, incremental)
    ply_ints[child, PV_LENGTH] = 0
    return child, index, move


@nb.njit(cache=True, inline="always")
def _store_node(ply, depth, generation, ply_ints, ply_floats, table_keys, table_data, table_scores, use_alphabeta):
    """Record the finished node at ply in the transposition table (always replace)."""
    score = ply_floats[ply, BEST_SCORE]
    bound = TT_EXACT
    if use_alphabeta:
        if score <= ply_floats[ply, ALPHA_AT_ENTRY]:
            bound = TT_UPPER
        elif score >= ply_floats[ply, BETA]:
            bound = TT_LOWER
    key = ply_ints[ply, KEY]
    slot = key & (table_keys.shape[0] - 1)
    table_keys[slot] = key
    table_scores[slot] = score
    table_data[slot] = ((generation << GENERATION_SHIFT) | (ply_ints[ply, CUT_BELOW] << CUT_SHIFT)
                        | (bound << BOUND_SHIFT) | ((depth - ply) << DEPTH_SHIFT) | (ply_ints[ply, BEST_MOVE] + 1))


@nb.njit(cache=True, inline="always")
def _probe_table(ply, remaining, alpha, beta, key, generation, table_keys, table_data, table_scores):
    """Look the position up: (settled, score, cut below, table move, exact).  settled when an entry of
    this search, searched at least remaining plies deep, decides the window (never at the root);
    exact when that entry is an exact value rather than a bound."""
    slot = key & (table_keys.shape[0] - 1)
    entry = table_data[slot]
    if table_keys[slot] != key or (entry >> GENERATION_SHIFT) != generation:
        return False, 0.0, False, -1, False
    table_move = (entry & MOVE_MASK) - 1
    if ply > 0 and ((entry >> DEPTH_SHIFT) & DEPTH_MASK) >= remaining:
        bound = (entry >> BOUND_SHIFT) & BOUND_MASK
        score = table_scores[slot]
        if bound == TT_EXACT or (bound == TT_LOWER and score >= beta) or (bound == TT_UPPER and score <= alpha):
            return True, score, ((entry >> CUT_SHIFT) & 1) != 0, table_move, bound == TT_EXACT
    return False, 0.0, False, table_move, False


@nb.njit(cache=True, inline="always")
def _open_node(ply, count, key, alpha, beta, ply_ints, ply_floats):
    """Start the node at ply with count moves and the window (alpha, beta)."""
    ply_ints[ply, NEXT_CHILD] = 0
    ply_ints[ply, CHILD_COUNT] = count
    ply_ints[ply, BEST_MOVE] = -1
    ply_ints[ply, KEY] = key
    ply_ints[ply, CUT_BELOW] = 0
    ply_ints[ply, ORDER_PENDING] = 0
    ply_floats[ply, ALPHA] = alpha
    ply_floats[ply, BETA] = beta
    ply_floats[ply, ALPHA_AT_ENTRY] = alpha
    ply_floats[ply, BEST_SCORE] = -np.inf


@nb.njit(cache=True, inline="always")
def _sort_by_score(ply, start, count, moves, order_scores):
    """Sort the moves start .. count - 1 of the node at ply by order_scores, best first (stable:
    an insertion sort, the lists being short)."""
    for j in range(start + 1, count):
        move = moves[ply, j]
        score = order_scores[j]
        k = j - 1
        while k >= start and order_scores[k] < score:
            order_scores[k + 1] = order_scores[k]
            moves[ply, k + 1] = moves[ply, k]
            k -= 1
        order_scores[k + 1] = score
        moves[ply, k + 1] = move


@nb.njit(cache=True, inline="always")
def _order_moves(ply, start, count, positions, features, moves, order_scores, params, kernels, incremental):
    """Score the children start .. count - 1 statically (from the mover's view) and sort those moves
    best first (stable)."""
    _, apply, _, _, evaluate, _, features_play, evaluate_features = kernels
    child = ply + 1
    for j in range(start, count):
        _play_into(ply, child, moves[ply, j], positions, features, apply, features_play, incremental)
        order_scores[j] = -_static_value(child, positions, features, params, evaluate, evaluate_features,
                                         incremental)
    _sort_by_score(ply, start, count, moves, order_scores)


@nb.njit(cache=True, inline="always")
def _order_moves_by_replies(ply, start, count, positions, moves, order_scores, kernels):
    """The cheap ordering near the horizon: the children start .. count - 1 with the fewest replies
    (the opponent's legal moves) first (stable), without evaluating them."""
    legal, apply, _, _, _, _, _, _ = kernels
    child = ply + 1
    for j in range(start, count):
        for k in range(positions.shape[1]):
            positions[child, k] = positions[ply, k]
        apply(positions[child], moves[ply, j])
        order_scores[j] = -np.float64(legal(positions[child], moves[child]))
    _sort_by_score(ply, start, count, moves, order_scores)


@nb.njit(cache=True, inline="always")
def _value_leaf_children(ply, count, table_move, positions, features, moves, ply_ints, ply_floats, pv_table,
                         root_scores, params, kernels, incremental, use_alphabeta):
    """The children of the node at ply are leaves (one ply left): value them statically, the table's
    move first and then in the game's order, and stop at the first one that reaches beta (its score
    is then a lower bound: the node is a cut-off, as alpha-beta would make it).  Without a cut the
    node's value is exact (made so for the table's store).  Neither sorts nor values the children
    past a cut; returns the children valued (the nodes)."""
    _, apply, terminal, _, evaluate, _, features_play, evaluate_features = kernels
    if table_move >= 0:
        for j in range(count):
            if moves[ply, j] == table_move:
                for k in range(j, 0, -1):
                    moves[ply, k] = moves[ply, k - 1]
                moves[ply, 0] = table_move
                break
    beta = ply_floats[ply, BETA]
    child = ply + 1
    best = -np.inf
    best_move = moves[ply, 0]
    valued = 0
    for j in range(count):
        move = moves[ply, j]
        _play_into(ply, child, move, positions, features, apply, features_play, incremental)
        score = -_static_value(child, positions, features, params, evaluate, evaluate_features, incremental)
        valued += 1
        if not terminal(positions[child]):
            ply_ints[ply, CUT_BELOW] = 1
        if ply == 0:
            root_scores[j] = score
        if score > best:
            best = score
            best_move = move
            if use_alphabeta and score >= beta:
                break
    ply_floats[ply, BEST_SCORE] = best
    ply_ints[ply, BEST_MOVE] = best_move
    ply_ints[ply, NEXT_CHILD] = count
    pv_table[ply, ply] = best_move
    ply_ints[ply, PV_LENGTH] = 1
    if valued == count:
        ply_floats[ply, ALPHA_AT_ENTRY] = -np.inf  # every child valued: the value is exact, the store records it so
        ply_floats[ply, BETA] = np.inf
    return valued


@nb.njit(cache=True, inline="always")
def _table_move_first(ply, count, table_move, moves, order_scores):
    """Move the table's best move to the front, keeping the order of the others."""
    for j in range(count):
        if moves[ply, j] == table_move:
            score = order_scores[j]
            for k in range(j, 0, -1):
                moves[ply, k] = moves[ply, k - 1]
                order_scores[k] = order_scores[k - 1]
            moves[ply, 0] = table_move
            order_scores[0] = score
            break


@nb.njit(cache=True, inline="always")
def _just_below(x):
    """A float a little below the finite x (x itself for an infinite x): the lower end of a null window."""
    if not np.isfinite(x):
        return x
    return x - max(abs(x), 1.0) * NULL_WINDOW_WIDTH


@nb.njit(cache=True, inline="always")
def _just_above(x):
    """A float a little above the finite x (x itself for an infinite x): the upper end of a null window."""
    if not np.isfinite(x):
        return x
    return x + max(abs(x), 1.0) * NULL_WINDOW_WIDTH


@nb.njit(cache=True, _nrt=False)
def _shallow_search(kernels, params, stack, top, plies, alpha, beta, incremental, first_move):
    """A fail-soft alpha-beta search of ``plies`` (>= 1) plies from the node at row top, with the
    window (alpha, beta): ProbCut's shallow search.  Its value v against the plain negamax value x of
    that depth: x <= alpha gives x <= v <= alpha, x >= beta gives beta <= v <= x, else v == x (what
    the verdict reads, whatever the order of the moves).  No table, no principal variation; the
    node's first_move (the main table's move, -1: none) is searched first at the base, and below it a
    row's killer (the last move that cut at that row in this search: a ply's refutations repeat among
    siblings; kept in the rows' BEST_MOVE column, unused there otherwise) first; nodes with
    SHALLOW_ORDER_LEFT plies left or more order their children by static score, nearer the horizon
    they keep the game's order (a static ordering there costs more than the cut-offs it brings), and
    the nodes one ply above the horizon value their children statically up to the first that reaches
    beta (as the main descent does).  It works in rows top + 1 ..
    top + 1 + plies of the stack (a copy of the node goes to row top + 1): those rows are free while
    the node at top is being expanded, and top + 1 + plies <= the iteration's depth when plies is
    less than the plies left.  Returns (value for the mover at top, nodes visited: every child
    stepped into or valued, as the main descent counts them)."""
    legal, apply, terminal, _, evaluate, _, features_play, evaluate_features = kernels
    positions, moves, ply_ints, ply_floats, _, order_scores, _, features = stack
    base = top + 1
    for k in range(positions.shape[1]):
        positions[base, k] = positions[top, k]
    if incremental:
        for k in range(features.shape[1]):
            features[base, k] = features[top, k]
    ply_floats[base, ALPHA] = alpha
    ply_floats[base, BETA] = beta
    for r in range(base, base + plies + 1):
        ply_ints[r, BEST_MOVE] = -1  # the killer of each row: the last move that cut there
    nodes = 0
    row = base
    value = 0.0
    mode = 0  # 0: the node at row was just entered; 1: it finished with value; 2: its next child
    while True:
        if mode == 0:
            left = plies - (row - base)
            if left == 0 or terminal(positions[row]):
                value = _static_value(row, positions, features, params, evaluate, evaluate_features, incremental)
                mode = 1
                continue
            count = legal(positions[row], moves[row])
            if count == 0:
                value = _static_value(row, positions, features, params, evaluate, evaluate_features, incremental)
                mode = 1
                continue
            if row == base and first_move >= 0:
                _table_move_first(row, count, first_move, moves, order_scores)  # the table's move first
            elif ply_ints[row, BEST_MOVE] >= 0:
                _table_move_first(row, count, ply_ints[row, BEST_MOVE], moves, order_scores)  # the killer first
            if left == 1:  # the children are leaves: the best static score, stopping at a cut-off
                best = -np.inf
                for j in range(count):
                    _play_into(row, row + 1, moves[row, j], positions, features, apply, features_play, incremental)
                    nodes += 1
                    score = -_static_value(row + 1, positions, features, params, evaluate, evaluate_features,
                                           incremental)
                    if score > best:
                        best = score
                        if best >= ply_floats[row, BETA]:
                            ply_ints[row, BEST_MOVE] = moves[row, j]
                            break
                value = best
                mode = 1
                continue
            if left >= SHALLOW_ORDER_LEFT:
                # the children by static score, best first (after the table's move at the base)
                start = 1 if row == base and first_move >= 0 else 0
                _order_moves(row, start, count, positions, features, moves, order_scores, params, kernels,
                             incremental)
            # (nearer the horizon: the game's order; the children's children stop at their first cut-off)
            ply_ints[row, NEXT_CHILD] = 0
            ply_ints[row, CHILD_COUNT] = count
            ply_floats[row, BEST_SCORE] = -np.inf
            mode = 2
        elif mode == 1:
            if row == base:
                return value, nodes
            row -= 1
            score = -value
            if score > ply_floats[row, BEST_SCORE]:
                ply_floats[row, BEST_SCORE] = score
                if score > ply_floats[row, ALPHA]:
                    ply_floats[row, ALPHA] = score
                if score >= ply_floats[row, BETA]:
                    ply_ints[row, BEST_MOVE] = moves[row, ply_ints[row, NEXT_CHILD] - 1]
                    value = score
                    continue  # a cut-off: this node is done too
            mode = 2
        else:
            index = ply_ints[row, NEXT_CHILD]
            if index >= ply_ints[row, CHILD_COUNT]:
                value = ply_floats[row, BEST_SCORE]
                mode = 1
                continue
            ply_ints[row, NEXT_CHILD] = index + 1
            _play_into(row, row + 1, moves[row, index], positions, features, apply, features_play, incremental)
            nodes += 1
            ply_floats[row + 1, ALPHA] = -ply_floats[row, BETA]
            ply_floats[row + 1, BETA] = -ply_floats[row, ALPHA]
            row += 1
            mode = 0


@nb.njit(cache=True, inline="always")
def _probcut_verdict(kernels, params, stack, ply, row, alpha, beta, incremental, known, shallow, table_move):
    """Multi-ProbCut's test at the node at ply (already opened) with its row of parameters (shallow
    depth d', a, b, margin = t * sigma): the deep value is predicted as a * v + b from the shallow value
    v; a prediction beyond beta (below alpha) by more than the margin cuts.  With ``known`` v is
    ``shallow`` (the static value, or the best child's static score the ordering computed); else v is
    decided by a null-window shallow search of d' plies around the value of v that puts the
    prediction exactly at the bound (cheap: it only has to show v is beyond it).  With both bounds
    finite, the side the node's static value points to is tested first, and the first search's
    fail-soft value (a bound on v) settles the second test when it can, without a search: the verdict
    is the one of both searches in either order.  Returns (+1: fail high, -1: fail low, 0: no cut;
    the nodes the shallow searches visited)."""
    depth = int(row[PC_SHALLOW])
    a = row[PC_A]
    b = row[PC_B]
    margin = row[PC_MARGIN]
    nodes = 0
    row[PC_TRIES] += 1.0
    if known or a <= 0.0:
        if beta < np.inf and a * shallow + b - margin >= beta:
            row[PC_CUTS] += 1.0
            return 1, nodes
        if alpha > -np.inf and a * shallow + b + margin <= alpha:
            row[PC_CUTS] += 1.0
            return -1, nodes
        return 0, nodes
    high = (beta + margin - b) / a   # v >= high: fail high
    low = (alpha - margin - b) / a   # v <= low: fail low (low < high: at most one holds)
    # the side the static value points to is tested first: when it cuts, the other search is saved; the
    # verdict is the same in either order (it depends on v only)
    high_first = True
    if beta < np.inf and alpha > -np.inf:
        positions, _, _, _, _, _, _, features = stack
        _, _, _, _, evaluate, _, _, evaluate_features = kernels
        static = _static_value(ply, positions, features, params, evaluate, evaluate_features, incremental)
        high_first = static >= 0.5 * (high + low)
    lower = -np.inf  # bounds on v that a first search's fail-soft value gave
    upper = np.inf
    for test in range(2):
        if (test == 0) == high_first:
            if beta == np.inf:
                continue
            if lower < high:  # else the first search's bound already shows v >= high: no search
                value, used = _shallow_search(kernels, params, stack, ply, depth, _just_below(high), high,
                                              incremental, table_move)
                nodes += used
                row[PC_NODES] += used
                lower = value
                if value < high:
                    upper = value  # failed low: an upper bound on v
                    continue
            row[PC_CUTS] += 1.0
            return 1, nodes
        else:
            if alpha == -np.inf:
                continue
            if upper > low:
                value, used = _shallow_search(kernels, params, stack, ply, depth, low, _just_above(low),
                                              incremental, table_move)
                nodes += used
                row[PC_NODES] += used
                upper = value
                if value > low:
                    lower = value  # failed high: a lower bound on v
                    continue
            row[PC_CUTS] += 1.0
            return -1, nodes
    return 0, nodes


@nb.njit(cache=True, inline="always")
def _probcut_cut(ply, verdict, alpha, beta, moves, ply_ints, ply_floats, pv_table, root_scores, null_only):
    """A ProbCut verdict at the node at ply: hand beta (fail high) or alpha (fail low) to the parent
    as the node's bound, marking the result as not exact; True.  With null_only, a PVS null-window
    node whose bound would show its move beats the parent's alpha (inside the parent's window) is
    not cut: False, and the caller searches it again with the parent's full window (as PVS does with
    a null window that fails so), where ProbCut does not apply: a cut never makes a move the best
    one on its own."""
    value = beta if verdict > 0 else alpha
    if (null_only and ply_ints[ply, NULL_WINDOW] != 0
            and ply_floats[ply - 1, ALPHA] < -value < ply_floats[ply - 1, BETA]):
        ply_ints[ply, NULL_WINDOW] = 0
        return False
    ply_ints[ply - 1, CUT_BELOW] = 1
    _record_last_child(ply - 1, -value, moves, ply_ints, ply_floats, pv_table, root_scores, True)
    return True


# _nrt=False: no reference counting inside the kernel.  It allocates nothing and only borrows its
# arguments, and without it numba counts references to the arrays handed to each inlined step
# above (~4% of the search's time); numba uses the same switch for its own allocation-free helpers.
@nb.njit(_SIG, cache=True, _nrt=False)
def _negamax(kernels, params, stack, table, probcut, control):
    """Run the negamax held in the arrays until it finishes or control[NODE_LIMIT] nodes were counted."""
    legal, apply, terminal, zobrist, evaluate, features_init, features_play, evaluate_features = kernels
    positions, moves, ply_ints, ply_floats, pv_table, order_scores, root_scores, features_rows = stack
    table_keys, table_data, table_scores = table
    features = control[FEATURES]
    use_alphabeta = (features & USE_ALPHABETA) != 0
    use_table = (features & USE_TABLE) != 0
    use_ordering = (features & USE_ORDERING) != 0
    use_pvs = use_alphabeta and (features & USE_PVS) != 0
    use_probcut = use_alphabeta and (features & USE_PROBCUT) != 0
    incremental = (features & USE_INCREMENTAL) != 0
    depth = control[ITERATION_DEPTH]
    generation = control[GENERATION]
    nodes = control[NODES]
    node_limit = control[NODE_LIMIT]
    hits = control[TT_HITS]
    top = control[TOP_PLY]
    status = control[STATUS]
    root_empties = control[ROOT_EMPTIES]
    null_only = (features & USE_PROBCUT_NULL_ONLY) != 0
    pc_row = probcut[0, 0]
    reply_order_below = control[REPLY_ORDER_BELOW]
    while True:
        # ---- one step: start at the root, step into the next child, or finish the top node ------
        if status == STATUS_START:
            if nodes >= node_limit:
                break
            status = STATUS_RUNNING
            nodes += 1
            ply = 0
            alpha = -np.inf
            beta = np.inf
            ply_ints[0, PV_LENGTH] = 0
            ply_ints[0, NULL_WINDOW] = 0
            if incremental:
                features_init(positions[0], features_rows[0])
        elif ply_ints[top, NEXT_CHILD] < ply_ints[top, CHILD_COUNT]:
            if nodes >= node_limit:
                break
            nodes += 1
            if ply_ints[top, ORDER_PENDING] != 0:
                # the table's move (first) did not cut: order the others now
                ply_ints[top, ORDER_PENDING] = 0
                if depth - top >= reply_order_below:
                    _order_moves(top, 1, ply_ints[top, CHILD_COUNT], positions, features_rows, moves, order_scores,
                                 params, kernels, incremental)
                else:
                    _order_moves_by_replies(top, 1, ply_ints[top, CHILD_COUNT], positions, moves, order_scores,
                                            kernels)
            ply, index, move = _step_into_next_child(top, positions, features_rows, moves, ply_ints, apply,
                                                     features_play, incremental)
            if terminal(positions[ply]):  # a final position: valued exactly by the evaluator
                _record_child(top, index, move,
                              -_static_value(ply, positions, features_rows, params, evaluate, evaluate_features,
                                             incremental),
                              ply_ints, ply_floats, pv_table, root_scores, use_alphabeta)
                continue
            if depth - ply <= 0:  # the depth cut-off: valued statically
                ply_ints[top, CUT_BELOW] = 1
                _record_child(top, index, move,
                              -_static_value(ply, positions, features_rows, params, evaluate, evaluate_features,
                                             incremental),
                              ply_ints, ply_floats, pv_table, root_scores, use_alphabeta)
                continue
            alpha = -ply_floats[top, BETA]
            beta = -ply_floats[top, ALPHA]
            ply_ints[ply, NULL_WINDOW] = 0
            if use_pvs and index > 0:
                # principal-variation search: a later move only has to show that it beats alpha, which
                # a null window (the next float below beta, beta) decides: every score <= it is < beta
                below = _just_below(beta)
                if below > alpha:
                    alpha = below
                    ply_ints[ply, NULL_WINDOW] = 1
        else:  # every child of the top node is done: store it, hand its score to the parent
            if use_table:
                _store_node(top, depth, generation, ply_ints, ply_floats, table_keys, table_data, table_scores,
                            use_alphabeta)
            if top == 0:
                status = STATUS_DONE
                break
            parent = top - 1
            score = -ply_floats[top, BEST_SCORE]
            if (ply_ints[top, NULL_WINDOW] != 0 and ply_floats[parent, ALPHA] < score < ply_floats[parent, BETA]
                    and not ply_floats[top, ALPHA_AT_ENTRY] < ply_floats[top, BEST_SCORE] < ply_floats[top, BETA]):
                # the null window showed the move beats alpha: search it again with the full window
                ply = top
                top = parent
                ply_ints[ply, NULL_WINDOW] = 0
                alpha = -ply_floats[parent, BETA]
                beta = -ply_floats[parent, ALPHA]
            else:
                if ply_ints[top, CUT_BELOW] != 0:
                    ply_ints[parent, CUT_BELOW] = 1
                top = parent
                _record_last_child(top, score, moves, ply_ints, ply_floats, pv_table, root_scores, use_alphabeta)
                continue

        # ---- expand the node at ply (not terminal, at least one ply left) ---------------------------
        remaining = depth - ply
        key = 0
        table_move = -1
        if use_table:
            key = zobrist(positions[ply])
            settled, score, cut_below, table_move, exact = _probe_table(ply, remaining, alpha, beta, key, generation,
                                                                        table_keys, table_data, table_scores)
            if (settled and not exact and ply_ints[ply, NULL_WINDOW] != 0
                    and ply_floats[ply - 1, ALPHA] < -score < ply_floats[ply - 1, BETA]):
                # a bound from the table shows the move beats alpha: search it with the full window
                settled = False
                ply_ints[ply, NULL_WINDOW] = 0
                alpha = -ply_floats[ply - 1, BETA]
                beta = -ply_floats[ply - 1, ALPHA]
            if settled:
                hits += 1
                if cut_below:
                    ply_ints[ply - 1, CUT_BELOW] = 1
                _record_last_child(ply - 1, -score, moves, ply_ints, ply_floats, pv_table, root_scores,
                                   use_alphabeta)
                continue
        count = legal(positions[ply], moves[ply])
        if count == 0:  # not reached with the house's games (a final state has no moves, passes are moves)
            if ply == 0:
                status = STATUS_DONE
                break
            _record_last_child(ply - 1, -_static_value(ply, positions, features_rows, params, evaluate,
                                                       evaluate_features, incremental),
                               moves, ply_ints, ply_floats, pv_table, root_scores, use_alphabeta)
            continue
        _open_node(ply, count, key, alpha, beta, ply_ints, ply_floats)
        shallow_depth = -1.0
        if use_probcut and ply > 0 and (alpha >= _just_below(beta) or not null_only):
            # Multi-ProbCut: the parameters of this node's empties (the root's less the plies above it)
            # and plies left; a shallow value far outside the window predicts a deep one outside it
            pc_row = probcut[min(max(root_empties - ply, 0), probcut.shape[0] - 1), min(remaining, probcut.shape[1] - 1)]
            shallow_depth = pc_row[PC_SHALLOW]
            if shallow_depth >= 0.0 and not (shallow_depth == 1.0 and use_ordering):
                shallow = 0.0
                if shallow_depth == 0.0:
                    shallow = _static_value(ply, positions, features_rows, params, evaluate, evaluate_features,
                                            incremental)
                verdict, used = _probcut_verdict(kernels, params, stack, ply, pc_row, alpha, beta, incremental,
                                                 shallow_depth == 0.0, shallow, table_move)
                nodes += used
                if verdict != 0:
                    if _probcut_cut(ply, verdict, alpha, beta, moves, ply_ints, ply_floats, pv_table, root_scores,
                                    null_only):
                        continue
                    # the cut says the move beats the parent's alpha: search it with the full window instead
                    alpha = -ply_floats[ply - 1, BETA]
                    beta = -ply_floats[ply - 1, ALPHA]
                    _open_node(ply, count, key, alpha, beta, ply_ints, ply_floats)
                    shallow_depth = -1.0
        if use_ordering:
            if remaining == 1:  # the children are leaves: their static values, up to a cut-off
                nodes += _value_leaf_children(ply, count, table_move, positions, features_rows, moves, ply_ints,
                                              ply_floats, pv_table, root_scores, params, kernels, incremental,
                                              use_alphabeta)
            elif table_move >= 0 and shallow_depth != 1.0:
                # the table's move first, the others ordered only if it does not cut (a cut on it, the
                # common case, saves the static values of every other child)
                _table_move_first(ply, count, table_move, moves, order_scores)
                ply_ints[ply, ORDER_PENDING] = 1
            elif remaining < reply_order_below and shallow_depth != 1.0:
                _order_moves_by_replies(ply, 0, count, positions, moves, order_scores, kernels)
            else:
                _order_moves(ply, 0, count, positions, features_rows, moves, order_scores, params, kernels,
                             incremental)
                if shallow_depth == 1.0:
                    # ProbCut on the one-ply value the ordering has just computed (the best child's score)
                    verdict, used = _probcut_verdict(kernels, params, stack, ply, pc_row, alpha, beta, incremental,
                                                     True, order_scores[0], table_move)
                    if verdict != 0:
                        if _probcut_cut(ply, verdict, alpha, beta, moves, ply_ints, ply_floats, pv_table,
                                        root_scores, null_only):
                            continue
                        alpha = -ply_floats[ply - 1, BETA]  # a full-window search instead (as above)
                        beta = -ply_floats[ply - 1, ALPHA]
                        _open_node(ply, count, key, alpha, beta, ply_ints, ply_floats)
                if table_move >= 0:
                    _table_move_first(ply, count, table_move, moves, order_scores)
        top = ply
    control[TOP_PLY] = top
    control[NODES] = nodes
    control[TT_HITS] = hits
    control[STATUS] = status


@dataclass(frozen=True)
class AlphaBetaConfig:
    """Which features the search uses (each can be switched off: the Othello manager toggles them)."""
    use_alphabeta: bool = True        # False: plain minimax (every node searches all its children)
    use_cache: bool = True            # transposition table keyed by the game's Zobrist hash
    use_ordering: bool = True         # children searched best-first by the static evaluation (+ table move)
    iterative_deepening: bool = True  # search depth 1, 2, ... until a limit; False: one search at full depth
    tt_size: int = 1 << 20            # transposition-table slots, a power of two (24 bytes each)
    max_ply: int | None = None        # stack depth; None: 2 * num_actions + 4 (longest game with passes)
    use_pvs: bool = True              # principal-variation search: null windows after the first move (alpha-beta)
    use_incremental: bool = True      # the bundle's incremental evaluation when it has one (same values, faster)
    # (Multi-)ProbCut (alpha-beta only): rows (min_empties, max_empties, depth, shallow, a, b, sigma): at
    # a non-root node with `depth` plies left and min_empties..max_empties empty cells (the root's less
    # the plies above it) whose predicted deep value a * v + b is beyond the window by probcut_t * sigma,
    # the node returns the window's bound.  v: the value of a `shallow`-ply search (0: the static value;
    # 1: the best child's static score, which the ordering computes anyway; more: a null-window search
    # around the bound).  A row (depth, shallow, a, b, sigma) holds at every number of empties.  Empty:
    # off.  Fitted by engines/learn/othello/probcut_fit.py.
    probcut: tuple = ()
    probcut_t: float = 1.5            # ProbCut's margin in standard deviations
    probcut_null_only: bool = True    # ProbCut only at null-window nodes (PVS's tests), and a cut that would show
                                      # a move beats alpha sends it to PVS's full-window search instead of
                                      # making it the best (Edax's use); False: at every node, cuts final
    reply_order_below: int = 0        # with ordering: a node with fewer plies left than this (and more than one)
                                      # orders its children by their replies, fewest first (the game's legal
                                      # count: cheap, no evaluation) instead of by their static values; 0: off
    stop_share: float = 0.0           # on a clock: skip an iteration whose predicted time (the last one's
                                      # times its growth over the one before, at most STOP_MAX_GROWTH;
                                      # after one of STOP_MIN_SECONDS at least) times stop_share exceeds
                                      # the time left; 0: off

    def __post_init__(self):
        for name in ("use_alphabeta", "use_cache", "use_ordering", "iterative_deepening", "use_pvs", "use_incremental",
                     "probcut_null_only"):
            check_bool(f"AlphaBetaConfig.{name}", getattr(self, name))
        check_int("AlphaBetaConfig.tt_size", self.tt_size, 1, MAX_TT_SIZE)
        if self.tt_size & (self.tt_size - 1):
            raise ValueError(f"AlphaBetaConfig.tt_size must be a power of two, got {self.tt_size!r}")
        if self.max_ply is not None:
            check_int("AlphaBetaConfig.max_ply", self.max_ply, 1, MAX_PLY_LIMIT)
        check_number("AlphaBetaConfig.probcut_t", self.probcut_t, 0.0)
        check_number("AlphaBetaConfig.stop_share", self.stop_share, 0.0)
        check_int("AlphaBetaConfig.reply_order_below", self.reply_order_below, 0, MAX_PLY_LIMIT)
        rows = self.probcut
        if isinstance(rows, list):
            rows = tuple(rows)
        if not isinstance(rows, tuple):
            raise ValueError(f"AlphaBetaConfig.probcut must be a tuple of (depth, shallow, a, b, sigma) rows, "
                             f"got {rows!r}")
        checked, seen = [], set()
        for row in rows:
            if not isinstance(row, (tuple, list)) or len(row) not in (5, 7):
                raise ValueError(f"AlphaBetaConfig.probcut: each row is (min_empties, max_empties, depth, shallow, "
                                 f"a, b, sigma) or (depth, shallow, a, b, sigma), got {row!r}")
            if len(row) == 5:
                row = (0, MAX_PLY_LIMIT, *row)
            low = check_int("AlphaBetaConfig.probcut min_empties", row[0], 0, MAX_PLY_LIMIT)
            high = check_int("AlphaBetaConfig.probcut max_empties", row[1], low, MAX_PLY_LIMIT)
            depth = check_int("AlphaBetaConfig.probcut depth", row[2], 2, MAX_PLY_LIMIT)
            shallow = check_int("AlphaBetaConfig.probcut shallow", row[3], 0, depth - 1)
            a = check_number("AlphaBetaConfig.probcut a", row[4], 0.0)
            b = check_number("AlphaBetaConfig.probcut b", row[5])
            sigma = check_number("AlphaBetaConfig.probcut sigma", row[6], 0.0)
            for empties in range(low, min(high, MAX_PLY_LIMIT) + 1) if high - low < 4096 else ():
                if (empties, depth) in seen:
                    raise ValueError(f"AlphaBetaConfig.probcut: two rows for depth {depth} at {empties} empties")
                seen.add((empties, depth))
            checked.append((low, high, depth, shallow, float(a), float(b), float(sigma)))
        object.__setattr__(self, "probcut", tuple(sorted(checked)))


class AlphaBeta:
    """Negamax search for one game and one evaluation (the Searcher interface of engines/search/base.py).

    The evaluation is ``knowledge.evaluate`` with ``knowledge.eval_params`` (a K.SIG_EVALUATE kernel;
    knowledge None: the game's registered default; ValueError when the bundle has none).  ``seed``
    is accepted for the common constructor shape and unused: the search is deterministic.  ``clock``
    is the time source of Limits.time (seconds).

    ``search(state, limits)`` returns a SearchResult on the SCORE scale (the evaluator's units), from
    the view of the side to move at the root:
      move, value  best root move and its score (deepest completed iteration, or the iteration after
                   it when a limit cut that one short after it searched the completed one's move
                   first: its best among the moves it finished, stats["partial_depth"]; before any
                   iteration completes: the best move by static evaluation when ordering is on, else
                   the first legal move, with its static score)
      moves, values  every root move (in the game's move order) and its score in the deepest
                   completed iteration.  With alpha-beta these are BOUNDS except for the best move:
                   a move that cannot beat the best gets an upper bound on its true score.  Plain
                   minimax gives exact scores.  Empty when no iteration completed.
      pv           principal variation (triangular table, extended from the transposition table)
      stats        nodes, depth, time, tt_hits, complete, iterations (meanings: result.STATS_KEYS)
    Limits: depth (plies; None = up to terminal states / max_ply, a full solve), time (with start and
    margin: a deadline), nodes (a budget over the whole search), pacer (a time manager asked after each
    completed iteration whether to start the next; it replaces the config's stop_share rule).  At least one must be set;
    simulations (an MCTS budget) is refused.

    The transposition table lives for one search() call, so ``advance`` and ``reset`` have nothing
    to keep or forget (a table kept across moves was measured, bench/results/othello_ordering.md:
    it saved 0.5 % of the nodes).  A table entry is used when it was searched at least as deep as needed; in
    games where a position always recurs at the same ply (Hex, Othello without passes) the root
    value is then exactly the value without the table.
    """

    def __init__(self, game, config: AlphaBetaConfig | None = None, knowledge=None, seed: int = 0,
                 clock=time.perf_counter):
        kernels = getattr(game, "kernels", None)
        if not isinstance(kernels, K.GameKernels):
            raise ValueError(f"game must be an engines.games Game with compiled kernels, got {game!r}")
        self.game = game
        self.config = config = config_from(AlphaBetaConfig, config)
        self.knowledge = knowledge = knowledge_from(game, knowledge)
        if knowledge.evaluate is None:
            raise ValueError(f"alpha-beta needs an evaluation: the knowledge bundle for {game!r} has no evaluate kernel")
        self.seed = check_int("seed", seed)
        if not callable(clock):
            raise ValueError("clock must be a callable returning seconds")
        self.clock = clock
        self.params = knowledge.eval_params.copy()
        self._evaluate = knowledge.evaluate
        # a kernel record holds function values only (engines.kernels.kernel_record)
        self._kernels = AlphaBetaKernels(K.function_value(kernels.legal, K.SIG_LEGAL, "the game's legal kernel"),
                                         K.function_value(kernels.apply, K.SIG_APPLY, "the game's apply kernel"),
                                         K.function_value(kernels.terminal, K.SIG_TERMINAL,
                                                          "the game's terminal kernel"),
                                         K.function_value(kernels.hash, K.SIG_HASH, "the game's hash kernel"),
                                         K.function_value(knowledge.evaluate, K.SIG_EVALUATE, "the evaluate kernel"),
                                         *self._incremental_kernels(config, knowledge))
        self.num_actions = int(game.num_actions)
        self.state_len = int(game.initial_state().shape[0])
        self.max_ply = config.max_ply or min(MAX_PLY_LIMIT, 2 * self.num_actions + 4)
        plies = self.max_ply + 1
        self._positions = np.zeros((plies, self.state_len), dtype=np.int64)
        self._moves = np.zeros((plies, self.num_actions), dtype=np.int32)
        self._ply_ints = np.zeros((plies, N_PLY_INTS), dtype=np.int64)
        self._ply_floats = np.zeros((plies, N_PLY_FLOATS), dtype=np.float64)
        self._pv_table = np.zeros((plies, plies), dtype=np.int32)
        self._order_scores = np.zeros(self.num_actions, dtype=np.float64)
        self._root_scores = np.zeros(self.num_actions, dtype=np.float64)
        self._features_rows = np.zeros((plies, max(1, knowledge.features_len if self.incremental else 0)),
                                       dtype=np.int64)
        slots = config.tt_size if config.use_cache else 1
        self._table_keys = np.zeros(slots, dtype=np.int64)
        self._table_data = np.zeros(slots, dtype=np.int64)
        self._table_scores = np.zeros(slots, dtype=np.float64)
        self._control = np.zeros(N_CONTROL, dtype=np.int64)
        self._generation = 0
        # [empties, plies left]: shallow depth (-1: off), a, b, margin, and the tries and cuts counted
        cells = self.num_actions + 1 if config.probcut else 1
        self._probcut = np.full((cells, plies if config.probcut else 1, N_PROBCUT), -1.0)
        self._probcut[:, :, PC_TRIES:] = 0.0
        for low, high, depth, shallow, a, b, sigma in config.probcut:
            if depth < plies and low < cells:
                self._probcut[low:min(high, cells - 1) + 1, depth, :PC_TRIES] = (shallow, a, b,
                                                                                config.probcut_t * sigma)
        self._features = ((USE_ALPHABETA if config.use_alphabeta else 0) | (USE_TABLE if config.use_cache else 0)
                          | (USE_ORDERING if config.use_ordering else 0) | (USE_PVS if config.use_pvs else 0)
                          | (USE_PROBCUT if config.probcut else 0) | (USE_INCREMENTAL if self.incremental else 0)
                          | (USE_PROBCUT_NULL_ONLY if config.probcut_null_only else 0))

    def _incremental_kernels(self, config, knowledge):
        """(features_init, features_play, evaluate_features) as function values: the bundle's when it
        has an incremental evaluation and the config uses it, else no-ops; sets self.incremental."""
        self.incremental = bool(config.use_incremental and knowledge.features_init is not None)
        if not self.incremental:
            return (K.function_value(_no_features_init, K.SIG_FEATURES_INIT),
                    K.function_value(_no_features_play, K.SIG_FEATURES_PLAY),
                    K.function_value(_no_evaluate_features, K.SIG_EVALUATE_FEATURES))
        return (K.function_value(knowledge.features_init, K.SIG_FEATURES_INIT, "the features_init kernel"),
                K.function_value(knowledge.features_play, K.SIG_FEATURES_PLAY, "the features_play kernel"),
                K.function_value(knowledge.evaluate_features, K.SIG_EVALUATE_FEATURES,
                                 "the evaluate_features kernel"))

    def advance(self, move: int) -> None:
        """Nothing to keep: the transposition table lives for one search."""

    def reset(self) -> None:
        """Nothing to forget: every search starts afresh."""

    # ---- the search ---------------------------------------------------------------------------
    def _check(self, state, limits):
        state = checked_position(self.game, state, limits, self.state_len)
        if limits.simulations is not None:
            raise ValueError("alpha-beta counts depth, nodes and time: Limits.simulations is an MCTS budget "
                             "it cannot honour")
        if limits.time is None and limits.depth is None and limits.nodes is None:
            raise ValueError("alpha-beta needs a time, depth or nodes limit")
        return state

    def _static_choice(self, state, legal):
        """(move, score) before any iteration completes: the best static score with ordering on,
        else the first legal move."""
        apply = self.game.kernels.apply
        candidates = legal if self.config.use_ordering else legal[:1]
        move, value = int(candidates[0]), -np.inf
        for action in candidates:
            child = state.copy()
            apply(child, action)
            score = -float(self._evaluate(child, self.params))
            if score > value:
                move, value = int(action), score
        return move, value

    def _new_generation(self):
        """A new table generation empties the table; it is wiped for real when the counter wraps."""
        if self._generation == GENERATION_MASK:
            self._table_keys[:] = 0
            self._table_data[:] = 0
            self._generation = 0
        self._generation += 1

    def _run_iteration(self, state, depth, deadline, budget, chunk):
        """Search state to depth in kernel calls of about CHUNK_SECONDS; returns (finished, chunk)."""
        control = self._control
        self._positions[0] = state
        self._root_scores[:] = -np.inf
        stack = Stack(self._positions, self._moves, self._ply_ints, self._ply_floats, self._pv_table,
                      self._order_scores, self._root_scores, self._features_rows)
        table = Table(self._table_keys, self._table_data, self._table_scores)
        control[TOP_PLY] = 0
        control[ITERATION_DEPTH] = depth
        control[STATUS] = STATUS_START
        while True:
            step = chunk if deadline is not None else MAX_CHUNK
            if budget is not None:
                step = min(step, budget - control[NODES])
            before = control[NODES]
            started = self.clock()
            control[NODE_LIMIT] = before + step
            _negamax(self._kernels, self.params, stack, table, self._probcut, control)
            if control[STATUS] == STATUS_DONE:
                return True, chunk
            now = self.clock()
            if (deadline is not None and now >= deadline) or (budget is not None and control[NODES] >= budget):
                return False, chunk
            done = control[NODES] - before
            if now > started and done > 0:
                # aim the next call at CHUNK_SECONDS and at most half the time left, growing at most 4x
                rate = done / (now - started)
                seconds = CHUNK_SECONDS if deadline is None else min(CHUNK_SECONDS, 0.5 * (deadline - now))
                chunk = int(min(max(1, rate * seconds), 4 * chunk + 4, MAX_CHUNK))

    def search(self, state: np.ndarray, limits: Limits) -> SearchResult:
        started = self.clock()
        state = self._check(state, limits)
        kernels = self.game.kernels
        buf = np.empty(self.num_actions, dtype=np.int32)
        legal = buf[:kernels.legal(state, buf)].copy()
        if legal.shape[0] == 0:
            raise ValueError("no legal move in this position")
        deadline = limits.deadline(started)
        config = self.config

        move, value = self._static_choice(state, legal)
        moves, values, pv = [], [], [move]
        done_depth, complete, iterations, partial_depth = 0, False, 0, 0
        max_depth = self.max_ply if limits.depth is None else max(1, min(limits.depth, self.max_ply))
        depths = range(1, max_depth + 1) if config.iterative_deepening else (max_depth,)
        if config.use_cache:
            self._new_generation()
        control = self._control
        control[:] = 0
        control[FEATURES] = self._features
        control[GENERATION] = self._generation
        control[REPLY_ORDER_BELOW] = config.reply_order_below
        if config.probcut:
            control[ROOT_EMPTIES] = self._empties(state)
        budget = limits.nodes
        chunk = FIRST_CHUNK
        times = []  # the clock time of each completed iteration
        for depth in depths:
            if budget is not None and control[NODES] >= budget:
                break
            if deadline is not None:
                began = self.clock()
                if began >= deadline:
                    break
                if (limits.pacer is None and config.stop_share > 0 and len(times) >= 2 and times[-2] > 0
                        and times[-1] >= STOP_MIN_SECONDS):
                    growth = min(max(1.0, times[-1] / times[-2]), STOP_MAX_GROWTH)
                    if times[-1] * growth * config.stop_share > deadline - began:
                        break  # this iteration is not expected to finish in the time left
            finished, chunk = self._run_iteration(state, depth, deadline, budget, chunk)
            if deadline is not None and config.stop_share > 0:
                times.append(self.clock() - began)
            if not finished:
                # a cut-short iteration still answers when it searched the last answer's move first
                # and completed it: its best over the moves it completed is then at least as informed
                if (done_depth > 0 and self._moves[0, 0] == move and self._root_scores[0] > -np.inf
                        and self._ply_ints[0, BEST_MOVE] >= 0):
                    move = int(self._ply_ints[0, BEST_MOVE])
                    value = float(self._ply_floats[0, BEST_SCORE])
                    partial_depth = depth
                break
            # the iteration completed: it becomes the answer
            iterations += 1
            done_depth = depth
            count = int(self._ply_ints[0, CHILD_COUNT])
            score = dict(zip(self._moves[0, :count].tolist(), self._root_scores[:count].tolist()))
            moves = legal.tolist()
            values = [score[a] for a in moves]
            move = int(self._ply_ints[0, BEST_MOVE])
            value = float(self._ply_floats[0, BEST_SCORE])
            pv = self._pv_table[0, :self._ply_ints[0, PV_LENGTH]].tolist()
            complete = bool(self._ply_ints[0, CUT_BELOW] == 0)
            if complete:
                break
            if limits.pacer is not None and depth < max_depth and not limits.pacer.deepen(depth, move, value,
                                                                                       self.clock()):
                break  # the time manager's verdict: the next depth is not worth starting
        if config.use_cache and done_depth > 0:
            pv = self._extend_pv(state, pv, done_depth)
        stats = {"nodes": int(control[NODES]), "depth": done_depth, "time": self.clock() - started,
                 "tt_hits": int(control[TT_HITS]), "complete": bool(complete), "iterations": iterations,
                 "partial_depth": partial_depth}
        return SearchResult(move=move, value=value, scale=SCORE, moves=moves, values=values, pv=pv, stats=stats)

    def _empties(self, state) -> int:
        """The empty cells of the root (ProbCut's phase; a node below has this many less its ply)."""
        cells = getattr(self.game, "cells", None)
        if cells is None:
            raise ValueError(f"ProbCut's rows are per number of empty cells: {self.game!r} has no cells() view")
        return int((np.asarray(cells(state)) == 0).sum())

    def probcut_counts(self) -> dict:
        """ProbCut's tests, cuts and the nodes its shallow searches visited (counted in the stats' nodes
        too) since this searcher was made or the counts were cleared, by (empties, plies left):
        {(empties, depth): (tries, cuts, nodes)}, the pairs where a test was made."""
        tries, cuts, nodes = (self._probcut[:, :, c] for c in (PC_TRIES, PC_CUTS, PC_NODES))
        return {(int(e), int(d)): (int(tries[e, d]), int(cuts[e, d]), int(nodes[e, d]))
                for e, d in zip(*np.nonzero(tries))}

    def shallow_value(self, state, plies: int, alpha: float = -np.inf, beta: float = np.inf,
                      first_move: int = -1) -> tuple:
        """(value, nodes) of ProbCut's shallow search (fail-soft alpha-beta of plies >= 1 plies, no table)
        from state with the window (alpha, beta), first_move (a legal move, or -1) searched first: what a
        ProbCut test computes, for tests and diagnostics."""
        state = checked_position(self.game, state, Limits(depth=1), self.state_len)
        plies = check_int("plies", plies, 1, self.max_ply - 1)
        self._positions[0] = state
        stack = Stack(self._positions, self._moves, self._ply_ints, self._ply_floats, self._pv_table,
                      self._order_scores, self._root_scores, self._features_rows)
        if self.incremental:
            self.knowledge.features_init(self._positions[0], self._features_rows[0])
        value, nodes = _shallow_search(self._kernels, self.params, stack, 0, plies, float(alpha), float(beta),
                                       self.incremental, int(first_move))
        return float(value), int(nodes)

    def clear_probcut_counts(self) -> None:
        self._probcut[:, :, PC_TRIES:] = 0.0

    def _extend_pv(self, state, pv, depth):
        """Continue a principal variation cut short by a table hit with the table's best moves."""
        kernels = self.game.kernels
        buf = np.empty(self.num_actions, dtype=np.int32)
        s = state.copy()
        for a in pv:
            kernels.apply(s, a)
        mask = self._table_keys.shape[0] - 1
        while len(pv) < depth and not kernels.terminal(s):
            key = int(kernels.hash(s))
            slot = key & mask
            entry = int(self._table_data[slot])
            if self._table_keys[slot] != key or (entry >> GENERATION_SHIFT) != self._generation:
                break
            a = (entry & MOVE_MASK) - 1
            if a < 0 or a not in buf[:kernels.legal(s, buf)]:
                break
            pv.append(a)
            kernels.apply(s, a)
        return pv


def load_probcut(path) -> tuple:
    """The ProbCut rows (AlphaBetaConfig.probcut) of a JSON file ``{"rows": [[min_empties, max_empties,
    depth, shallow, a, b, sigma] or [depth, shallow, a, b, sigma], ...], ...}`` as
    engines/learn/othello/probcut_fit.py writes it; ValueError naming the file and the fault."""
    import json
    from pathlib import Path
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ValueError(f"{path}: cannot read the ProbCut parameters: {err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: the ProbCut parameters are not JSON: {err}") from None
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise ValueError(f"{path}: no \"rows\" list of [min_empties, max_empties, depth, shallow, a, b, sigma]")
    try:
        return AlphaBetaConfig(probcut=tuple(tuple(row) if isinstance(row, list) else row for row in rows)).probcut
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
