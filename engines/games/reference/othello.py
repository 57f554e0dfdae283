"""Othello's rules in pure Python: quick to import, no engine, no numba (any size from 1 up; the
harnesses use 4..16).

An adapter on a harness's clock keeps its board and answers with these while the engine's kernels
compile in the background (engines/players/coldstart.py), and plays the board a harness gives even where the
engine would not take it (a size it does not play); the local stand-ins referee with them.  The engine's
own rules are engines/games/othello.py; the tests hold the two to the same games.

A board is a list (or tuple) of n rows of n ints, 0 empty, 1 dark/black (moves first), 2 light/white,
``board[row][col]`` with row 0 at the top; a point is (row, col); a colour is 1 or 2.  A placement must
bracket at least one opposing disc in a straight line and flips every bracketed disc in all 8
directions.  Variants, as the engine's: "standard" (a side with no placement passes; the game ends
when neither side can place) and "manager" (the game manager's: the game ends as soon as the side to
move has no placement; no passing).  A forbidden placement raises engines.errors.IllegalMove (a plain
Python module) with the engine's Reason and message.  ``SearchRules`` is the small rules object of the
cold-start search (engines/players/coldstart.py: fallback_search), with its evaluation.
"""
import math
from dataclasses import dataclass

from engines.errors import GameOver, IllegalMove, Reason

DARK, LIGHT = 1, 2
STANDARD, MANAGER = "standard", "manager"
VARIANTS = (STANDARD, MANAGER)
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
SYMBOLS = {0: ".", 1: "X", 2: "O"}


def other(colour: int) -> int:
    return 3 - colour


def initial_board(size: int) -> list[list[int]]:
    """The start: with i = size//2 - 1 and j = size//2, (i,i) and (j,j) light, (i,j) and (j,i) dark."""
    board = [[0] * size for _ in range(size)]
    i, j = size // 2 - 1, size // 2
    board[i][i] = board[j][j] = LIGHT
    board[i][j] = board[j][i] = DARK
    return board


def copy_board(board) -> list[list[int]]:
    return [list(row) for row in board]


def flips(board, colour: int, point) -> list[tuple[int, int]]:
    """The discs a placement of colour at point would flip (empty when none, or the point is taken
    or off the board)."""
    n = len(board)
    r, c = point
    if not (0 <= r < n and 0 <= c < n) or board[r][c] != 0:
        return []
    theirs = other(colour)
    out = []
    for dr, dc in DIRECTIONS:
        run = []
        u, v = r + dr, c + dc
        while 0 <= u < n and 0 <= v < n and board[u][v] == theirs:
            run.append((u, v))
            u, v = u + dr, v + dc
        if run and 0 <= u < n and 0 <= v < n and board[u][v] == colour:
            out.extend(run)
    return out


def legal_moves(board, colour: int) -> list[tuple[int, int]]:
    """The placements of colour, in row-major order."""
    n = len(board)
    return [(r, c) for r in range(n) for c in range(n) if board[r][c] == 0 and flips(board, colour, (r, c))]


def has_move(board, colour: int) -> bool:
    n = len(board)
    return any(board[r][c] == 0 and flips(board, colour, (r, c)) for r in range(n) for c in range(n))


def counts(board) -> tuple[int, int]:
    """(dark, light) discs."""
    return sum(list(row).count(DARK) for row in board), sum(list(row).count(LIGHT) for row in board)


def label(point) -> str:
    """'d3' (column letter, row number from 1 at the top), as the engine draws a move."""
    return f"{chr(ord('a') + point[1])}{point[0] + 1}"


def place(board, colour: int, point) -> list[list[int]]:
    """The board after colour places at point; IllegalMove (the engine's reason and text) when it may not."""
    n = len(board)
    r, c = point
    if not (0 <= r < n and 0 <= c < n):
        raise IllegalMove(Reason.OUT_OF_RANGE, None, f"{r} {c}")
    if board[r][c] != 0:
        raise IllegalMove(Reason.OCCUPIED, r * n + c, label(point))
    turned = flips(board, colour, point)
    if not turned:
        raise IllegalMove(Reason.NO_BRACKET, r * n + c, label(point))
    return _put(board, colour, point, turned)


def force(board, colour: int, point) -> list[list[int]]:
    """The board after colour's disc is put at point whatever the rules say (a harness that is the
    authority played it): it flips what it brackets, and overwrites a disc already there."""
    r, c = point
    rows = copy_board(board)
    rows[r][c] = 0
    return _put(board, colour, point, flips(rows, colour, point))


def _put(board, colour, point, turned):
    rows = copy_board(board)
    for u, v in [*turned, point]:
        rows[u][v] = colour
    return rows


def follows(before, after, colour: int) -> bool:
    """True when after is before with one legal placement of colour played."""
    if len(before) != len(after):
        return False
    after = [list(row) for row in after]
    return any(place(before, colour, p) == after for p in legal_moves(before, colour))


# ==== the fallback move: quick, sensible, legal by construction ==================================
def _corners(n):
    return {(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)}


def _x_square_of(point, n):
    """The corner a point is diagonally next to (an X-square), or None."""
    r, c = point
    for cr, cc in _corners(n):
        if abs(r - cr) == 1 and abs(c - cc) == 1 and (r, c) not in _corners(n):
            return cr, cc
    return None


def _c_square_of(point, n):
    """The corner a point is orthogonally next to on the edge (a C-square), or None."""
    r, c = point
    for cr, cc in _corners(n):
        if (r == cr and abs(c - cc) == 1) or (c == cc and abs(r - cr) == 1):
            return cr, cc
    return None


def fallback_move(board, colour: int):
    """A sensible legal placement for colour in a few milliseconds (None when it has none): a corner
    first; never next to an empty corner when something else exists (X-squares, then C-squares);
    an edge before the inside; then the most flips; ties to the first in row-major order."""
    moves = legal_moves(board, colour)
    if not moves:
        return None
    n = len(board)

    def rank(point):
        r, c = point
        x, cs = _x_square_of(point, n), _c_square_of(point, n)
        danger = 2 if x is not None and board[x[0]][x[1]] == 0 else (1 if cs is not None and board[cs[0]][cs[1]] == 0
                                                                    else 0)
        corner = point in _corners(n)
        edge = r in (0, n - 1) or c in (0, n - 1)
        return (not corner, danger, not edge, -len(flips(board, colour, point)))
    return min(moves, key=rank)


# ==== a position: the board, the side to move, the variant =======================================
PLAYING, MUST_PASS, OVER = "playing", "must pass", "over"


@dataclass(frozen=True)
class Position:
    """A board (a tuple of row tuples) with the colour to move, under a variant.  ``status`` follows
    from them: PLAYING (the side to move can place), MUST_PASS (standard: it cannot but the other
    can) or OVER."""
    board: tuple
    to_move: int = DARK
    variant: str = STANDARD

    def __post_init__(self):
        object.__setattr__(self, "board", tuple(tuple(int(v) for v in row) for row in self.board))
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {self.variant!r}")
        if self.to_move not in (DARK, LIGHT):
            raise ValueError(f"to_move must be 1 (dark) or 2 (light), got {self.to_move!r}")
        if has_move(self.board, self.to_move):
            status = PLAYING
        elif self.variant == STANDARD and has_move(self.board, other(self.to_move)):
            status = MUST_PASS
        else:
            status = OVER
        object.__setattr__(self, "status", status)

    @classmethod
    def start(cls, size: int = 8, variant: str = STANDARD) -> "Position":
        return cls(initial_board(size), DARK, variant)

    @property
    def size(self) -> int:
        return len(self.board)

    def is_over(self) -> bool:
        return self.status == OVER

    def legal(self) -> list:
        """The placements of the side to move, or [None] (the pass) when it must pass, [] at the end."""
        if self.status == MUST_PASS:
            return [None]
        return legal_moves(self.board, self.to_move) if self.status == PLAYING else []

    def play(self, point) -> "Position":
        """The position after the side to move plays point (None: the pass); IllegalMove / GameOver."""
        n = self.size
        if self.status == OVER:
            raise GameOver(None if point is None else point[0] * n + point[1])
        if point is None:
            if self.status != MUST_PASS:
                raise IllegalMove(Reason.PASS_NOT_ALLOWED, n * n, "pass")
            return Position(self.board, other(self.to_move), self.variant)
        if self.status == MUST_PASS:
            raise IllegalMove(Reason.MUST_PASS, point[0] * n + point[1], label(point))
        return Position(place(self.board, self.to_move, point), other(self.to_move), self.variant)

    def force(self, point, colour: int | None = None) -> "Position":
        """The position after colour (default: the side to move) played point (None: a pass) because
        a harness that is the authority says so, legal here or not; the other side moves next."""
        colour = self.to_move if colour is None else colour
        board = self.board if point is None else force(self.board, colour, point)
        return Position(board, other(colour), self.variant)

    def fallback(self):
        """fallback_move for the side to move: a point, or None (the pass, or nothing at the end)."""
        return fallback_move(self.board, self.to_move) if self.status == PLAYING else None

    def score(self) -> int:
        """Dark's discs minus light's."""
        dark, light = counts(self.board)
        return dark - light

    def render(self) -> str:
        """The engine's drawing (engines/games/othello.py: Othello.render)."""
        n = self.size
        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(n))]
        lines += [f"{r + 1:>2} " + " ".join(SYMBOLS[v] for v in row) for r, row in enumerate(self.board)]
        dark, light = counts(self.board)
        if self.status == OVER:
            tail = "game over: " + ("black wins" if dark > light else ("white wins" if light > dark else "draw"))
        else:
            tail = f"to move: {'X (black)' if self.to_move == DARK else 'O (white)'}"
            if self.status == MUST_PASS:
                tail += " - must pass"
        lines.append(f"X (black) {dark}, O (white) {light}; {tail}")
        return "\n".join(lines)


# ==== the rules object of the cold-start search (engines/players/coldstart.py: fallback_search) =====
class SearchRules:
    """Positions as the shallow fallback search wants them: ``moves`` (the placements, or [None], the
    pass), ``play``, ``outcome`` (None while the game goes on, else +1/0/-1 for the side to move by the
    discs) and ``evaluate`` (in (-1, 1) for the side to move): corners, mobility, discs diagonally next
    to an empty corner (X-squares), and the disc difference once the board is three-quarters full."""

    def moves(self, position: Position) -> list:
        return position.legal()

    def play(self, position: Position, move) -> Position:
        return position.play(move)

    def outcome(self, position: Position) -> int | None:
        if not position.is_over():
            return None
        difference = position.score() if position.to_move == DARK else -position.score()
        return (difference > 0) - (difference < 0)

    def evaluate(self, position: Position) -> float:
        board, me = position.board, position.to_move
        you = other(me)
        n = len(board)
        corners = xs = 0
        for cr, cc in _corners(n):
            corner = board[cr][cc]
            corners += (corner == me) - (corner == you)
            if corner == 0 and n > 2:  # the X-square next to an empty corner gives it away
                x = board[cr + (1 if cr == 0 else -1)][cc + (1 if cc == 0 else -1)]
                xs += (x == you) - (x == me)
        mine, yours = len(legal_moves(board, me)), len(legal_moves(board, you))
        mobility = (mine - yours) / (mine + yours + 2)
        dark, light = counts(board)
        discs = (dark - light if me == DARK else light - dark) / max(dark + light, 1)
        late = max(0.0, (dark + light) / (n * n) - 0.75) * 4  # 0 until three-quarters full, then up to 1
        score = 1.5 * corners / 4 + 0.4 * xs / 4 + mobility + 2.0 * late * discs
        return 0.99 * math.tanh(score)
