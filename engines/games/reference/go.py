"""Go rules in pure Python for the Go engine's cold start (no engine, no numba): quick to import.

While the compiled-kernel cache is cold, the Go adapter keeps the game on this board and answers a
timed genmove with a quick legal move from it (adapters/go_gtp.py ``ColdStart``); once the engine
can load, the game is replayed into the engine.  Only what that needs: any size, captures, suicide
illegal, simple ko, positional superko as an option, and a fallback move that never fills an own
eye (engines/games/reference/littlego.py is the Little-Go host's 5x5 rules with its own ko and end rules,
so it cannot serve here).

A board is a list of n lists of n ints (0 empty, 1 black, 2 white), row 0 at the top; a point is
(row, col); a colour is 1 or 2.  Illegal moves raise engines.errors.IllegalMove (a plain module).
"""
import random

from engines.errors import IllegalMove, Reason


def empty_board(size: int) -> list[list[int]]:
    return [[0] * size for _ in range(size)]


def neighbours(size: int, i: int, j: int):
    for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
        if 0 <= a < size and 0 <= b < size:
            yield a, b


def group(board, i: int, j: int):
    """(stones, liberties) of the chain at (i, j)."""
    n = len(board)
    colour = board[i][j]
    stones, libs, todo, seen = [], set(), [(i, j)], {(i, j)}
    while todo:
        p = todo.pop()
        stones.append(p)
        for q in neighbours(n, *p):
            v = board[q[0]][q[1]]
            if v == 0:
                libs.add(q)
            elif v == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return stones, libs


class Position:
    """A board, the ko point and the history of boards (for superko)."""

    def __init__(self, size: int, superko: bool = False):
        self.size, self.superko = size, superko
        self.board = empty_board(size)
        self.ko = None
        self.captures = [0, 0]   # stones captured by black, by white
        self.seen = {self.key()}

    def key(self):
        return tuple(tuple(row) for row in self.board)

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.size, other.superko, other.ko = self.size, self.superko, self.ko
        other.captures = list(self.captures)
        other.board = [list(row) for row in self.board]
        other.seen = set(self.seen)
        return other

    def play(self, colour: int, point, tolerate_superko: bool = False) -> None:
        """Play colour's stone on point, or pass (None); IllegalMove otherwise (nothing changes).
        ``tolerate_superko``: a repetition is played all the same (a move a referee passed on, whose
        rules may know no superko; engines/games/go.py ``play_tolerant``)."""
        if point is None:
            self.ko = None
            return
        i, j = point
        if self.board[i][j] != 0:
            raise IllegalMove(Reason.OCCUPIED)
        if point == self.ko:
            raise IllegalMove(Reason.KO)
        board = [list(row) for row in self.board]
        board[i][j] = colour
        captured = []
        for q in neighbours(self.size, i, j):
            if board[q[0]][q[1]] == 3 - colour:
                stones, libs = group(board, *q)
                if not libs:
                    for a, b in stones:
                        board[a][b] = 0
                    captured += stones
        stones, libs = group(board, i, j)
        if not libs:
            raise IllegalMove(Reason.SUICIDE)
        key = tuple(tuple(row) for row in board)
        if self.superko and key in self.seen and not tolerate_superko:
            raise IllegalMove(Reason.SUPERKO)
        self.board = board
        self.captures[colour - 1] += len(captured)
        self.ko = captured[0] if len(captured) == 1 and len(stones) == 1 and len(libs) == 1 else None
        self.seen.add(key)

    def is_eye(self, colour: int, point) -> bool:
        """An empty point whose neighbours are all colour and whose diagonals hold at most one
        opponent stone (none on the edge)."""
        i, j = point
        n = self.size
        if any(self.board[a][b] != colour for a, b in neighbours(n, i, j)):
            return False
        diagonals = [(i + a, j + b) for a in (-1, 1) for b in (-1, 1)]
        off = any(not (0 <= a < n and 0 <= b < n) for a, b in diagonals)
        bad = sum(1 for a, b in diagonals if 0 <= a < n and 0 <= b < n and self.board[a][b] == 3 - colour)
        return bad + off < 2

    def fallback_move(self, colour: int, rng: random.Random):
        """A random legal point that is not colour's own eye, or None (pass) when there is none."""
        points = [(i, j) for i in range(self.size) for j in range(self.size) if self.board[i][j] == 0]
        rng.shuffle(points)
        for point in points:
            if self.is_eye(colour, point):
                continue
            try:
                self.copy().play(colour, point)
            except IllegalMove:
                continue
            return point
        return None
