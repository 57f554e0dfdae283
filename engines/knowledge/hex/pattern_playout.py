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

Representation.  The playout's params (``pack_playout``): float64 [global weight of one empty cell, the
number of hash slots S (a power of two), S slot keys (raw 12-cell keys, both rotations of each table key;
-1 an empty slot), S slot gammas, the gamma of any other 12-cell key, 4096 gamma6 indexed by the raw
6-cell key (both rotations filled, 1 where the table has none), the board size n the params were packed
for (0: none), then the 2 n*n keys of n's empty board (mover 0's, then mover 1's)]: a lookup reads the 12 cells once and
probes an open-addressing hash (no rotation, no binary search).  The raw keys of every cell for both
movers are made once a playout (``start_keys``: the empty board's, then its stones placed) and kept up to date as stones fall (``place_keys``:
a stone shows in the keys of the 12 cells around it), so a move's local draw reads 12 keys.  The empty cells live in ``empties``
(the unplayed ones from position i on) with ``pos`` (a cell's index there, -1 when filled): a uniform
draw and a removal are O(1), as in patterns.py's fill.  The board's union-find is left stale (a playout reads cells only),
and the winner is found by a flood fill at the end.

Kernels (SIG_TRACED_PLAYOUT, for the RAVE search): ``traced_pattern`` and ``traced_pattern_vc`` (the
connection check first, as patterns.traced_bridge_vc).  ``playout_kernel(connections)`` picks one.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import HEADER, NSTONES, SIZE, TO_MOVE, WINNER, flood_winner
from engines.knowledge.hex.move_patterns import OFFSETS, cell_value, rotate
from engines.knowledge.hex.patterns import bridge_response, fill_start
from engines.rng import below, uniform

HEAD = 2            # params: global weight, slots
KEYS6 = 1 << 12     # the dense gamma6 table's length
LOCAL = 12          # cells of a last move's neighbourhood
HASH_MULT = 0x9E3779B1


def _slot(key: int, slots: int) -> int:
    return ((key * HASH_MULT) >> 7) & (slots - 1)


def pack_playout(table, global_weight: float, size: int = 0) -> np.ndarray:
    """The playout's params from a move_patterns.PatternTable; ``global_weight`` is the weight of one
    empty cell in the global draw, in units of the gamma of a cell with nothing around it (key 0);
    ``size``: the board size whose empty-board keys to carry (0: none; the keys are then read afresh)."""
    raw = {}
    for key, gamma in table.gamma12.items():
        raw[key] = gamma
        raw[int(rotate(key, 12))] = gamma
    slots = 16
    while slots < 2 * len(raw):
        slots *= 2
    keys, gammas = np.full(slots, -1.0), np.zeros(slots)
    for key, gamma in raw.items():
        i = _slot(key, slots)
        while keys[i] >= 0:
            i = (i + 1) & (slots - 1)
        keys[i], gammas[i] = key, gamma
    dense6 = np.ones(KEYS6)
    for key, gamma in table.gamma6.items():
        dense6[key] = gamma
        dense6[int(rotate(key, 6))] = gamma
    empty = table.gamma12.get(0, table.other12) * table.gamma6.get(0, 1.0)
    empty_keys = np.zeros(2 * size * size, dtype=np.int64)
    if size:
        board_raw_keys(np.zeros(size * size, dtype=np.int64), size, empty_keys)
    return np.concatenate([[float(global_weight) * empty, slots], keys, gammas, [table.other12],
                           dense6, [size], empty_keys]).astype(np.float64)


@nb.njit(cache=True)
def raw_key(cells, n, action, mover):
    """The raw (not canonical) 12-cell key of the empty cell ``action`` for ``mover``."""
    r0, c0 = action // n, action % n
    if mover == 1:  # the frame of the player to move: offsets transposed for White
        r0, c0 = c0, r0
    key = 0
    for k in range(12):
        key |= cell_value(cells, n, r0 + OFFSETS[k, 0], c0 + OFFSETS[k, 1], mover) << (2 * k)
    return key


@nb.njit(cache=True)
def cell_gamma(params, cells, n, action, mover):
    """gamma12 x gamma6 of the empty cell ``action`` for ``mover`` (params: pack_playout's)."""
    return key_gamma(params, raw_key(cells, n, action, mover))


@nb.njit(cache=True)
def board_raw_keys(cells, n, keys):
    """keys[m * n * n + a]: the raw key of each empty cell a for mover m (0 for occupied cells)."""
    nn = n * n
    for a in range(nn):
        for m in range(2):
            keys[m * nn + a] = raw_key(cells, n, a, m) if cells[a] == 0 else 0


@nb.njit(cache=True)
def place_keys(keys, n, e, colour):
    """A stone of colour on cell e: the raw keys of the cells around it, in both movers' frames, see it
    (a key's empty position only ever becomes a stone, so OR-ing the value in is enough)."""
    nn = n * n
    r = e // n
    c = e - r * n
    own0 = 1 if colour == 0 else 2   # the stone's value for mover 0 (OWN 1, OPP 2) ...
    own1 = 3 - own0                  # ... and for mover 1
    for k in range(LOCAL):
        dr = OFFSETS[k, 0]
        dc = OFFSETS[k, 1]
        rr = r - dr  # mover 0's frame: e at offset k of (r - dr, c - dc)
        cc = c - dc
        if 0 <= rr < n and 0 <= cc < n:
            keys[rr * n + cc] |= own0 << (2 * k)
        rr = r - dc  # mover 1's frame (offsets transposed): e at offset k of (r - dc, c - dr)
        cc = c - dr
        if 0 <= rr < n and 0 <= cc < n:
            keys[nn + rr * n + cc] |= own1 << (2 * k)


@nb.njit(cache=True)
def start_keys(params, cells, n, keys):
    """board_raw_keys' keys of the board: the params' empty-board keys with every stone placed on
    them when the params carry this size's, else read afresh."""
    base = HEAD + 2 * int(params[1]) + 1 + KEYS6
    nn = n * n
    if int(params[base]) != n:
        board_raw_keys(cells, n, keys)
        return
    for i in range(2 * nn):
        keys[i] = np.int64(params[base + 1 + i])
    for a in range(nn):
        if cells[a] != 0:
            place_keys(keys, n, a, cells[a] - 1)


@nb.njit(cache=True)
def key_gamma(params, key):
    """gamma12 x gamma6 of a raw 12-cell key (params: pack_playout's)."""
    slots = int(params[1])
    i = ((key * HASH_MULT) >> 7) & (slots - 1)
    gamma = params[HEAD + 2 * slots]
    while params[HEAD + i] >= 0.0:
        if params[HEAD + i] == key:
            gamma = params[HEAD + slots + i]
            break
        i = (i + 1) & (slots - 1)
    return gamma * params[HEAD + 2 * slots + 1 + (key & 0xFFF)]


@nb.njit(cache=True)
def local_move(s, n, last, p, params, rng, left, cand, weight, keys):
    """The pattern policy's move after ``last`` (step 2 of the module docstring): a local cell drawn in
    proportion to its gamma, or -1 for the global (uniform) draw; ``left`` empty cells remain; keys:
    board_raw_keys' (kept by place_keys)."""
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
            total += key_gamma(params, keys[p * n * n + a])
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
def fill_patterns(s, rng, connections, params, trace, empties, pos, keys, limit):
    """The pattern playout's body: fill every empty cell by the policy (keys: scratch of 2 n*n), record
    the moves in trace, set the winner.  Returns the moves played (0 when a virtual connection decided
    at the start).  With 0 <= limit < the empty cells: only ``limit`` moves, no winner (for tests)."""
    k = fill_start(s, connections, empties, pos)
    if k < 0:
        return 0
    n = s[SIZE]
    nn = n * n
    cand = np.empty(LOCAL, dtype=np.int64)
    weight = np.empty(LOCAL)
    start_keys(params, s[HEADER:HEADER + nn], n, keys)
    p = s[TO_MOVE]
    last = -1
    stop = k if limit < 0 or limit >= k else limit
    for i in range(stop):
        j = -1
        if last >= 0:
            answer = bridge_response(s, n, last, p, rng)
            if answer < 0:
                answer = local_move(s, n, last, p, params, rng, k - i, cand, weight, keys)
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
        place_keys(keys, n, e, p)
        trace[i] = e
        last = e
        p = 1 - p
    if stop < k:
        s[TO_MOVE] = p
        return stop
    s[WINNER] = flood_winner(s[HEADER:HEADER + nn], n)
    s[TO_MOVE] = p
    s[NSTONES] += k
    return k


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_pattern(s, rng, trace, params):
    """The pattern playout, traced (trace: patterns.playout_scratch(n) entries: moves, then scratch)."""
    nn = s[SIZE] * s[SIZE]
    return fill_patterns(s, rng, False, params, trace[:nn], trace[nn:2 * nn], trace[2 * nn:3 * nn],
                         np.empty(2 * nn, dtype=np.int64), -1)


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def traced_pattern_vc(s, rng, trace, params):
    """The pattern playout after the connection check, traced (no moves when a connection decides)."""
    nn = s[SIZE] * s[SIZE]
    return fill_patterns(s, rng, True, params, trace[:nn], trace[nn:2 * nn], trace[2 * nn:3 * nn],
                         np.empty(2 * nn, dtype=np.int64), -1)


def playout_kernel(connections: bool):
    """The traced pattern playout, with or without the connection check at its start."""
    return traced_pattern_vc if connections else traced_pattern


def warm_up(game):
    """Compile the kernels on a small position of game."""
    from engines.knowledge.hex.move_patterns import PatternTable
    from engines.rng import make_rng
    state = game.play(game.initial_state(), 0)
    params = pack_playout(PatternTable({1: 2.0}, {1: 2.0}), 1.0, game.size)
    trace = np.empty(3 * game.num_actions, dtype=np.int64)
    rng = make_rng(0)
    for kernel in (traced_pattern, traced_pattern_vc):
        kernel(state.copy(), rng, trace, params)
