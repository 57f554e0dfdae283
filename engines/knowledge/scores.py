"""The score scale shared by the evaluations: final positions lie beyond every heuristic score."""
import numba as nb

WIN_SCORE = 1e4  # final states: WIN_SCORE * sign(d) + d; heuristic scores are clamped to +-(WIN_SCORE - 1)


@nb.njit(cache=True, inline="always")
def final_score(d):
    """The evaluation of a final position whose margin for the side to move is d (0: a draw)."""
    if d > 0:
        return WIN_SCORE + d
    if d < 0:
        return -WIN_SCORE + d
    return 0.0
