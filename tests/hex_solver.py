"""A brute-force Hex solver for tests, independent of every search: does the side to move win?"""
import numba as nb
import numpy as np

from engines.games import hex as hexk
from engines.games.hex import SIZE, WINNER


@nb.njit(cache=True)
def _mover_wins(s, memo):
    key = s[4]  # the Zobrist key (side to move included)
    if key in memo:
        return memo[key]
    buf = np.empty(s[SIZE] * s[SIZE], dtype=np.int32)
    n = hexk.legal(s, buf)
    win = False
    for j in range(n):  # an immediate win first (cheap), then the deep look
        c = s.copy()
        hexk.apply(c, buf[j])
        if c[WINNER] >= 0:
            win = True
            break
    if not win:
        for j in range(n):
            c = s.copy()
            hexk.apply(c, buf[j])
            if not _mover_wins(c, memo):
                win = True
                break
    memo[key] = win
    return win


def hex_mover_wins(s):
    """Brute force with a memo, independent of the search: does the side to move win?"""
    return _mover_wins(s, nb.typed.Dict.empty(nb.types.int64, nb.types.boolean))
