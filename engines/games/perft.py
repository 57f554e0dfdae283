"""Generic perft: the number of legal move sequences of length d from a position, for any game.

Convention: every legal action counts as a move (Othello's pass included); a position with no legal
action (final) before depth d contributes nothing; perft(0) = 1.

One compiled kernel serves every game: it receives the game's ``legal`` and ``apply`` kernels as
numba function values (engines/kernels.py), so it has an explicit signature and is cached on disk.
It walks the tree with an explicit stack (one state copy and one action list per level, allocated
once) instead of recursion, and counts the last level in bulk (the number of legal actions at
depth d-1 nodes, without applying them).
"""
import numba as nb
import numpy as np
from numba import types

from engines import kernels as K

SIG_PERFT = types.int64(K.STATE, types.int64, types.int64, K.ftype(K.SIG_LEGAL), K.ftype(K.SIG_APPLY))


@nb.njit(SIG_PERFT, cache=True)
def perft_kernel(root, depth, num_actions, legal, apply):
    if depth <= 0:
        return 1
    states = np.empty((depth, root.shape[0]), dtype=np.int64)
    actions = np.empty((depth, num_actions), dtype=np.int32)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    states[0, :] = root
    count[0] = legal(states[0], actions[0])
    if depth == 1:
        return count[0]
    total = 0
    level = 0
    while level >= 0:
        if index[level] == count[level]:
            level -= 1
            continue
        a = actions[level, index[level]]
        index[level] += 1
        child = states[level + 1]
        child[:] = states[level]
        apply(child, a)
        if level + 1 == depth - 1:
            total += legal(child, actions[level + 1])
        else:
            level += 1
            count[level] = legal(child, actions[level])
            index[level] = 0
    return total


def perft(game, state: np.ndarray, depth: int) -> int:
    """Leaf count at ``depth`` plies below ``state`` (which is not mutated)."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"perft depth must be a non-negative integer, got {depth!r}")
    root = np.ascontiguousarray(state, dtype=np.int64).copy()
    return int(perft_kernel(root, int(depth), int(game.num_actions),
                            K.function_value(game.kernels.legal, K.SIG_LEGAL, "legal"),
                            K.function_value(game.kernels.apply, K.SIG_APPLY, "apply")))
