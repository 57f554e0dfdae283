"""The observation convention every game follows, for networks."""
import numba as nb
import numpy as np


@nb.njit(cache=True, inline="always")
def write_planes(cells, to_move, out):
    """Planes (3, n, n) flattened into out: player-0 pieces, player-1 pieces, and all ones when player
    1 is to move.  cells holds 0 (empty), 1 (player 0) or 2 (player 1) in action order."""
    nn = cells.shape[0]
    side = np.float32(to_move)
    for i in range(nn):
        v = cells[i]
        out[i] = 1.0 if v == 1 else 0.0
        out[nn + i] = 1.0 if v == 2 else 0.0
        out[2 * nn + i] = side
