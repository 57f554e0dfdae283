"""Go rules in pure Python for a Go adapter's cold start (no engine, no numba): quick to import.

While the compiled-kernel cache is cold, the Go engine keeps the game on this board and answers a
timed genmove from a shallow search over it (``SearchRules`` for engines/players/coldstart.py's
``fallback_search``); once the engine can load, the game is replayed into the engine.  Only what
that needs: any size, captures, suicide illegal, simple ko, positional superko as an option, area
scoring, and moves that never fill an own eye (engines/games/reference/littlego.py is the Little-Go
host's 5x5 rules with its own ko and end rules, so it cannot serve here).  tests/test_reference_go.py
checks these rules against the compiled game in random games on every size 5x5 to 19x19.

A board is a list of n lists of n ints (0 empty, 1 black, 2 white), row 0 at the top; a point is
(row, col), a pass None; a colour is 1 or 2.  Illegal moves raise engines.errors.IllegalMove (a
plain module).  A search node (SearchRules) is a tuple (Position, colour to move, passes in a row).
"""
import math

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

    def is_legal(self, colour: int, point) -> bool:
        """Whether colour may play point (a pass always may); without superko no copy is made."""
        if point is None:
            return True
        i, j = point
        if self.board[i][j] != 0 or point == self.ko:
            return False
        if self.superko:
            try:
                self.copy().play(colour, point)
            except IllegalMove:
                return False
            return True
        for a, b in neighbours(self.size, i, j):
            v = self.board[a][b]
            if v == 0:
                return True
            libs = len(group(self.board, a, b)[1])
            if (v == colour) == (libs > 1):  # an own chain keeps a liberty, or an opponent's is captured
                return True
        return False

    def area(self) -> tuple[int, int]:
        """(black, white) by area: stones plus the empty regions that touch one colour only."""
        n = self.size
        counts = [0, 0, 0]
        seen = set()
        for i in range(n):
            for j in range(n):
                v = self.board[i][j]
                if v:
                    counts[v] += 1
                elif (i, j) not in seen:
                    region, borders, todo = 0, set(), [(i, j)]
                    seen.add((i, j))
                    while todo:
                        p = todo.pop()
                        region += 1
                        for q in neighbours(n, *p):
                            w = self.board[q[0]][q[1]]
                            if w:
                                borders.add(w)
                            elif q not in seen:
                                seen.add(q)
                                todo.append(q)
                    if len(borders) == 1:
                        counts[borders.pop()] += region
        return counts[1], counts[2]

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


class SearchRules:
    """The reference rules as engines/players/coldstart.py's ``fallback_search`` reads them; a node is
    (Position, colour to move, passes in a row).  Pass rules kept safe: a pass is a move only when no
    point but an own eye is legal (a shallow search would pass away a won game on a naive count), and
    two passes in a row end the game, counted by area with komi."""

    def __init__(self, komi: float):
        self.komi = komi

    @staticmethod
    def node(position: Position, colour: int, passes: int = 0):
        return position, colour, passes

    def moves(self, node) -> list:
        position, colour, passes = node
        if passes >= 2:
            return []
        n = position.size
        points = [(i, j) for i in range(n) for j in range(n)
                  if position.board[i][j] == 0 and not position.is_eye(colour, (i, j))
                  and position.is_legal(colour, (i, j))]
        return points or [None]

    def play(self, node, move):
        position, colour, passes = node
        after = position.copy()
        after.play(colour, move)
        return after, 3 - colour, passes + 1 if move is None else 0

    def margin(self, node, black: float, white: float) -> float:
        """Black minus White with komi, from the side to move's view."""
        score = black - white - self.komi
        return score if node[1] == 1 else -score

    def outcome(self, node):
        position, colour, passes = node
        if passes < 2:
            return None
        score = self.margin(node, *position.area())
        return (score > 0) - (score < 0)

    def evaluate(self, node) -> float:
        """A cheap estimate in (-1, 1): stones, and each empty point to the colour with more stones
        next to it (a liberty count), as a margin squashed by the board's size."""
        position = node[0]
        n = position.size
        board = position.board
        count = [0.0, 0.0, 0.0]
        for i in range(n):
            row = board[i]
            for j in range(n):
                v = row[j]
                if v:
                    count[v] += 1
                    continue
                near = [0, 0, 0]
                for a, b in neighbours(n, i, j):
                    near[board[a][b]] += 1
                if near[1] != near[2]:
                    count[1 if near[1] > near[2] else 2] += 1
        return math.tanh(self.margin(node, count[1], count[2]) / max(4.0, n * n / 8))


class RecordBoards:
    """Reference positions for a game record (engines/players/go_record.py: GoRecord) while the
    kernels compile: a move only superko forbids is played, as the engine's record plays it."""

    def __init__(self, superko: bool):
        self.superko = superko

    def initial(self, size: int, komi: float) -> Position:
        return Position(size, superko=self.superko)

    def with_komi(self, positions: list, komi: float) -> list:
        return positions  # the komi counts at the end only (SearchRules)

    def play(self, position: Position, colour: int, point) -> Position:
        after = position.copy()
        after.play(colour + 1, point, tolerate_superko=True)
        return after

    def board(self, position: Position):
        return position.board, position.captures

    def stones(self, position: Position) -> bool:
        return any(any(row) for row in position.board)

    def forget(self) -> None:
        pass
