"""Hex playouts guided by the learned move patterns (MoHex 2.0 style; issue 33 item 6).

The policy of one playout move, for the player p to move after the last move x:
  1. the bridge answer first: when x intruded into a bridge (or bridge-to-edge) of p, p restores it
     (engines/knowledge/hex/patterns.py: bridge_response, as the bridge playout);
  2. else a local move against a global one: each empty cell of x's neighbourhood (its 6 neighbours and
     its 6 bridge cells, move_patterns.OFFSETS) weighs its pattern's gamma for p (gamma12 x gamma6, the
     table of engines/knowledge/hex/move_patterns.py), and the global draw weighs ``global`` x the number
     of empty cells; a draw over the sum picks a local cell in proportion to its gamma, or else a
     uniformly random empty cell (which may be a local one too).
The first move of a playout (no last move in it) is uniform.

Representation.  The playout's params (``pack_playout``): float64 [global weight of one empty cell, n12,
keys12 (sorted canonical 12-cell keys), gamma12 (the same order), gamma of any other 12-cell key, then
4096 gamma6 indexed by the RAW 6-cell key (both rotations filled, 1 where the table has none)], so a
lookup is one binary search and one index.  The empty cells live in ``empties`` (the unplayed ones
from position i on) with ``pos`` (a cell's index there, -1 when filled): a uniform draw and a removal
are O(1), as in patterns.py's fill.  The board's union-find is left stale (a playout reads cells only),
and the winner is found by a flood fill at the end.

Kernels (SIG_TRACED_PLAYOUT, for the RAVE search): ``traced_pattern`` and ``traced_pattern_vc`` (the
connection check first, as patterns.traced_bridge_vc).  ``playout_kernel(connections)`` picks one.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import HEADER, NSTONES, SIZE, TO_MOVE, WINNER, flood_winner
from engines.knowledge.hex.move_patterns import OFFSETS, cell_keys, rotate
from engines.knowledge.hex.patterns import bridge_response, vc_winner
from engines.rng import below, uniform

HEAD = 2            # params: global weight, n12
KEYS6 = 1 << 12     # the dense gamma6 table's length
LOCAL = 12          # cells of a last move's neighbourhood


def pack_playout(table, global_weight: float) -> np.ndarray:
    """The playout's params from a move_patterns.PatternTable; ``global_weight`` is the weight of one
    empty cell in the global draw, in units of the gamma of a cell with nothing around it (key 0)."""
    k12 = sorted(table.gamma12)
    dense6 = np.ones(KEYS6)
    for key, gamma in table.gamma6.items():
        dense6[key] = gamma
        dense6[int(rotate(key, 6))] = gamma
    empty = table.gamma12.get(0, table.other12) * table.gamma6.get(0, 1.0)
    return np.concatenate([[float(global_weight) * empty, len(k12)], np.array(k12, dtype=np.float64),
                           [table.gamma12[k] for k in k12], [table.other12], dense6]).astype(np.float64)


@nb.njit(cache=True)
def cell_gamma(params, cells, n, action, mover):
    """gamma12 x gamma6 of the empty cell ``action`` for ``mover`` (params: pack_playout's)."""
    n12 = int(params[1])
    key12, key6 = cell_keys(cells, n, action, mover)
    i = np.searchsorted(params[HEAD:HEAD + n12], np.float64(key12))
    gamma = params[HEAD + 2 * n12] if i >= n12 or params[HEAD + i] != key12 else params[HEAD + n12 + i]
    return gamma * params[HEAD + 2 * n12 + 1 + key6]


@nb.njit(cache=True)
def local_move(s, n, last, p, params, rng, left, cand, weight):
    """The pattern policy's move after ``last`` (step 2 of the module docstring): a local cell drawn in
    proportion to its gamma, or -1 for the global (uniform) draw; ``left`` empty cells remain."""
    cells = s[HEADER:HEADER + n * n]
    r = last // n
    c = last - r * n
    k = 0
    total = 0.0
    for t in range(LOCAL):
        rr = r + OFFSETS[t, 0]
        cc = c + OFFSETS[t, 1]
        if 0 <= rr < n and 0 <= cc < n and cells[rr * n + cc] == 0:
            a = rr * n + cc
            cand[k] = a
            total += cell_gamma(params, cells, n, a, p)
            weight[k] = total  # cumulative
            k += 1
    if k == 0:
        return -1
    u = uniform(rng) * (total + params[0] * left)
    if u >= total:
        return -1
    for t in range(k):
        if u < weight[t]:
            return cand[t]
    return cand[k - 1]


@nb.njit(cache=True)
def fill_patterns(s, rng, connections, params, trace, empties, pos):
    """The pattern playout's body: fill every empty cell by the policy, record the moves in trace,
    set the winner.  Returns the moves played (0 when a virtual connection decided at the start)."""
    if s[WINNER] >= 0:
        return 0
    if connections:
        v = vc_winner(s)
        if v >= 0:
            s[WINNER] = v
            return 0
    n = s[SIZE]
    nn = n * n
    k = 0
    for i in range(nn):
        pos[i] = -1
        if s[HEADER + i] == 0:
            empties[k] = i
            pos[i] = k
            k += 1
    cand = np.empty(LOCAL, dtype=np.int64)
    weight = np.empty(LOCAL)
    p = s[TO_MOVE]
    last = -1
    for i in range(k):
        j = -1
        if last >= 0:
            answer = bridge_response(s, n, last, p, rng)
            if answer < 0:
                answer = local_move(s, n, last, p, params, rng, k - i, cand, weight)
            if answer >= 0:
                j = pos[answer]
        if j < 0:
            j = i + below(rng, k - i)
        e = empties[j]
        moved = empties[i]
        empties[j] = moved
        pos[moved] = j
        empties[i] = e
        pos[e] = i
        s[HEADER + e] = p + 1
        trace[i] = e
        last = e
        p = 1 - p
    s[WINNER] = flood_winner(s[HEADER:HEADER + nn], n)
    s[TO_MOVE] = p
    s[NSTONES] += k
    return k


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_pattern(s, rng, trace, params):
    """The pattern playout, traced (trace: patterns.playout_scratch(n) entries: moves, then scratch)."""
    nn = s[SIZE] * s[SIZE]
    return fill_patterns(s, rng, False, params, trace[:nn], trace[nn:2 * nn], trace[2 * nn:3 * nn])


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_pattern_vc(s, rng, trace, params):
    """The pattern playout after the connection check, traced (no moves when a connection decides)."""
    nn = s[SIZE] * s[SIZE]
    return fill_patterns(s, rng, True, params, trace[:nn], trace[nn:2 * nn], trace[2 * nn:3 * nn])


def playout_kernel(connections: bool):
    """The traced pattern playout, with or without the connection check at its start."""
    return traced_pattern_vc if connections else traced_pattern


def warm_up(game):
    """Compile the kernels on a small position of game."""
    from engines.knowledge.hex.move_patterns import PatternTable
    from engines.rng import make_rng
    state = game.play(game.initial_state(), 0)
    params = pack_playout(PatternTable({1: 2.0}, {1: 2.0}), 1.0)
    trace = np.empty(3 * game.num_actions, dtype=np.int64)
    rng = make_rng(0)
    for kernel in (traced_pattern, traced_pattern_vc):
        kernel(state.copy(), rng, trace, params)
