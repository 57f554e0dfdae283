"""Generic perft: the number of legal move sequences of length d from a position, for any game.

Convention: every legal action counts as a move (Othello's pass included); a position with no legal
action (final) before depth d contributes nothing; perft(0) = 1.

One compiled kernel serves every game: it receives the game's ``legal`` and ``apply`` kernels as
numba function values (engines/kernels.py), so it has an explicit signature and is cached on disk.
It walks the tree with an explicit stack (one state copy and one action list per level, allocated
once) instead of recursion, and counts the last level in bulk (the number of legal actions at
depth d-1 nodes, without applying them).  The walk is resumable: the kernel goes on for a slice of
positions and returns, so the Python side between slices sees Ctrl-C (a compiled loop cannot) and
may report progress.  The walk's state is the stack arrays plus ``walk`` = [level, leaves counted]
(level -2: not started, -1: finished).

Depths above MAX_DEPTH are refused: no game's count that deep fits the years (nor an int64).
"""
import numba as nb
import numpy as np
from numba import types

from engines import kernels as K

MAX_DEPTH = 20
SLICE = 1 << 18   # positions per kernel call: a fraction of a second on any game
NOT_STARTED, FINISHED = -2, -1
SIG_PERFT_SLICE = types.boolean(types.int64[:, ::1], types.int32[:, ::1], types.int64[::1], types.int64[::1],
                                types.int64[::1], types.int64, K.ftype(K.SIG_LEGAL), K.ftype(K.SIG_APPLY))


@nb.njit(SIG_PERFT_SLICE, cache=True)
def perft_slice(states, actions, count, index, walk, nodes, legal, apply):
    """Go on with the walk of states[0]'s tree for up to ``nodes`` positions; True when it is
    finished (walk[1] is then the leaf count at depth states.shape[0])."""
    depth = states.shape[0]
    level, total = walk[0], walk[1]
    if level == NOT_STARTED:
        count[0] = legal(states[0], actions[0])
        index[0] = 0
        if depth == 1:
            total, level = count[0], FINISHED
        else:
            level = 0
    while level >= 0 and nodes > 0:
        if index[level] == count[level]:
            level -= 1
            continue
        a = actions[level, index[level]]
        index[level] += 1
        child = states[level + 1]
        child[:] = states[level]
        apply(child, a)
        nodes -= 1
        if level + 1 == depth - 1:
            total += legal(child, actions[level + 1])
        else:
            level += 1
            count[level] = legal(child, actions[level])
            index[level] = 0
    walk[0], walk[1] = level, total
    return level == FINISHED


def perft(game, state: np.ndarray, depth: int, progress=None) -> int:
    """Leaf count at ``depth`` plies below ``state`` (which is not mutated).  ValueError for a depth
    outside 0..MAX_DEPTH.  ``progress``: called once (no argument) when the count outlasts its first
    slice, e.g. to say that Ctrl-C stops it (KeyboardInterrupt comes between slices)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"perft depth must be an integer in 0..{MAX_DEPTH}, got {depth!r} (deeper counts "
                         f"would not finish)")
    if depth == 0:
        return 1
    root = np.ascontiguousarray(state, dtype=np.int64)
    states = np.empty((int(depth), root.shape[0]), dtype=np.int64)
    states[0, :] = root
    actions = np.empty((int(depth), int(game.num_actions)), dtype=np.int32)
    count, index = np.zeros(int(depth), dtype=np.int64), np.zeros(int(depth), dtype=np.int64)
    walk = np.array([NOT_STARTED, 0], dtype=np.int64)
    legal = K.function_value(game.kernels.legal, K.SIG_LEGAL, "legal")
    apply = K.function_value(game.kernels.apply, K.SIG_APPLY, "apply")
    while not perft_slice(states, actions, count, index, walk, SLICE, legal, apply):
        if progress is not None:
            progress()
            progress = None
    return int(walk[1])
