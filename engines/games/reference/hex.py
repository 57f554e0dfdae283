"""Hex in pure Python (no numba, no engine import): the board an adapter keeps while its compiled
kernels are still being compiled (a cold cache, engines/players/coldstart.py), and a sensible quick move.

The engine's conventions (engines/games/hex.py): cells row-major, 0 empty, 1 player 0 (joins row 0 to
row n-1), 2 player 1 (joins column 0 to column n-1); neighbours of (r, c): (r-1,c) (r-1,c+1) (r,c-1)
(r,c+1) (r+1,c-1) (r+1,c).  Any empty cell is a legal move while nobody has won.

``fallback_move`` is a quick, legal, not silly move: the centre; else the reply that keeps one of our
bridges the opponent just intruded into; else the cell adjacent to (or a bridge from) our stones that
reaches furthest toward our edges; else the empty cell nearest the centre.
"""
from collections import deque

MIN_SIZE, MAX_SIZE = 3, 19      # the engine's sizes (engines/games/hex.py)
NEIGHBOURS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
BRIDGES = (  # (offset of the other stone, its two carrier cells)
    ((-2, 1), (-1, 0), (-1, 1)), ((-1, 2), (-1, 1), (0, 1)), ((1, 1), (0, 1), (1, 0)),
    ((2, -1), (1, -1), (1, 0)), ((1, -2), (0, -1), (1, -1)), ((-1, -1), (-1, 0), (0, -1)),
)


def empty_board(size: int) -> list[list[int]]:
    return [[0] * size for _ in range(size)]


def _inside(size, r, c) -> bool:
    return 0 <= r < size and 0 <= c < size


def winner(cells) -> int | None:
    """0 or 1 when that player joins its two edges, else None."""
    n = len(cells)
    for player in (0, 1):
        stone = player + 1
        starts = [(0, c) for c in range(n)] if player == 0 else [(r, 0) for r in range(n)]
        seen = {p for p in starts if cells[p[0]][p[1]] == stone}
        todo = deque(seen)
        while todo:
            r, c = todo.popleft()
            if (r if player == 0 else c) == n - 1:
                return player
            for dr, dc in NEIGHBOURS:
                q = (r + dr, c + dc)
                if _inside(n, *q) and q not in seen and cells[q[0]][q[1]] == stone:
                    seen.add(q)
                    todo.append(q)
    return None


def empty_cells(cells) -> list[tuple[int, int]]:
    """The empty cells, row by row (benzene's all_legal_moves order is column letters within a row)."""
    return [(r, c) for r, row in enumerate(cells) for c, v in enumerate(row) if v == 0]


def fallback_move(cells, player: int, last=None) -> tuple[int, int]:
    """A quick legal (row, col) for player (0 or 1) on cells (see the module's docstring); last: the
    opponent's last stone, if known.  ValueError on a full board."""
    n = len(cells)
    empty = empty_cells(cells)
    if not empty:
        raise ValueError("the board is full: there is no move to make")
    mid = (n - 1) / 2

    def central(p):  # nearest the centre, then the first in reading order
        return (abs(p[0] - mid) + abs(p[1] - mid) + abs(p[0] + p[1] - 2 * mid), p)
    centre = (n // 2, n // 2)
    if cells[centre[0]][centre[1]] == 0 and not any(v == player + 1 for row in cells for v in row):
        return centre
    mine = player + 1
    # a bridge of ours intruded into: take its other carrier
    if last is not None:
        for r in range(n):
            for c in range(n):
                if cells[r][c] != mine:
                    continue
                for (dr, dc), a, b in BRIDGES:
                    o = (r + dr, c + dc)
                    if not _inside(n, *o) or cells[o[0]][o[1]] != mine:
                        continue
                    pa, pb = (r + a[0], c + a[1]), (r + b[0], c + b[1])
                    if pa == tuple(last) and cells[pb[0]][pb[1]] == 0:
                        return pb
                    if pb == tuple(last) and cells[pa[0]][pa[1]] == 0:
                        return pa
    # extend toward our edges: rows for player 0, columns for player 1
    axis = 0 if player == 0 else 1
    stones = [(r, c) for r in range(n) for c in range(n) if cells[r][c] == mine]
    if stones:
        low = min(p[axis] for p in stones)
        high = max(p[axis] for p in stones)
        best, best_key = None, None
        for r, c in stones:
            for kind, steps in ((0, [((dr, dc), ()) for dr, dc in NEIGHBOURS]), (1, [(o, (a, b)) for o, a, b in BRIDGES])):
                for (dr, dc), carriers in steps:
                    q = (r + dr, c + dc)
                    if not _inside(n, *q) or cells[q[0]][q[1]] != 0:
                        continue
                    if carriers and any(cells[r + x][c + y] != 0 for x, y in carriers):
                        continue  # a bridge only over two empty carriers
                    reach = max(0, low - q[axis]) + max(0, q[axis] - high)
                    if reach == 0:
                        continue
                    near_edge = min(q[axis], n - 1 - q[axis])
                    key = (-reach, -kind, near_edge, central(q))  # further, a bridge, then toward the edge
                    if best_key is None or key < best_key:
                        best, best_key = q, key
        if best is not None:
            return best
    return min(empty, key=central)
