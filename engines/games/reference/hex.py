"""Hex in pure Python (no numba, no engine import): the board an adapter keeps (the Hex engine always; the
stand-ins referee by it), and the rules of the cold start's shallow search (engines/players/coldstart.py).

The engine's conventions (engines/games/hex.py): cells row-major, 0 empty, 1 player 0 (joins row 0 to
row n-1), 2 player 1 (joins column 0 to column n-1); neighbours of (r, c): (r-1,c) (r-1,c+1) (r,c-1)
(r,c+1) (r+1,c-1) (r+1,c).  Any empty cell is a legal move while nobody has won.

``SearchRules`` is the small rules object of the cold start's shallow search (engines/players/coldstart.py
``fallback_search``).  Its position is ``(cells, to_move)``: cells a tuple of n*n ints row-major (0 empty,
1 player 0, 2 player 1), to_move 0 or 1.  Its evaluation is the shortest-path difference: for each
player the fewest empty cells that still join its two edges (own stones cost 0, the opponent's block),
the opponent's count minus ours, squashed into (-1, 1); moves are listed centre first, so that among
equal values the search prefers the centre.
"""
import heapq
import math
from collections import deque

MIN_SIZE, MAX_SIZE = 3, 19      # the engine's sizes (engines/games/hex.py)
NEIGHBOURS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


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


class SearchRules:
    """Hex for ``fallback_search``: moves / play / outcome / evaluate over ``(cells, to_move)`` (see the
    module's docstring); ``position(cells, to_move)`` makes one from a board-view grid."""

    SCALE = 2.0   # a difference of SCALE cells in the shortest paths evaluates to tanh(1) = 0.76

    def __init__(self, size: int):
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        self.size = n = size
        mid = (n - 1) / 2
        self.order = sorted(range(n * n), key=lambda a: (abs(a // n - mid) + abs(a % n - mid)
                                                          + abs(a // n + a % n - 2 * mid), a))
        self.neighbours = [[(r + dr) * n + c + dc for dr, dc in NEIGHBOURS if _inside(n, r + dr, c + dc)]
                           for r in range(n) for c in range(n)]

    def position(self, cells, to_move: int):
        return tuple(int(v) for row in cells for v in row), int(to_move)

    def point(self, move: int) -> tuple[int, int]:
        return divmod(move, self.size)

    def moves(self, position) -> list[int]:
        cells, _ = position
        if self.outcome(position) is not None:
            return []
        return [a for a in self.order if cells[a] == 0]

    def play(self, position, move: int):
        cells, to_move = position
        if cells[move] != 0:
            raise ValueError(f"cell {self.point(move)} is occupied")
        return cells[:move] + (to_move + 1,) + cells[move + 1:], 1 - to_move

    def outcome(self, position):
        """-1 when the player who just moved has joined its edges (Hex has no draw), else None."""
        cells, to_move = position
        return -1 if self.distance(cells, 1 - to_move) == 0 else None

    def evaluate(self, position) -> float:
        cells, to_move = position
        mine, theirs = self.distance(cells, to_move), self.distance(cells, 1 - to_move)
        return math.tanh((theirs - mine) / self.SCALE)

    def distance(self, cells, player: int) -> float:
        """The fewest empty cells player must still fill to join its edges (inf when blocked)."""
        n, stone = self.size, player + 1
        starts = range(n) if player == 0 else range(0, n * n, n)  # row 0, or column 0
        best = [math.inf] * (n * n)
        heap = []
        for a in starts:
            if cells[a] in (0, stone):
                best[a] = cost = 0 if cells[a] == stone else 1
                heap.append((cost, a))
        heapq.heapify(heap)
        while heap:
            cost, a = heapq.heappop(heap)
            if cost > best[a]:
                continue
            if (a // n if player == 0 else a % n) == n - 1:
                return cost
            for b in self.neighbours[a]:
                v = cells[b]
                if v == 0 or v == stone:
                    step = cost + (v == 0)
                    if step < best[b]:
                        best[b] = step
                        heapq.heappush(heap, (step, b))
        return math.inf
