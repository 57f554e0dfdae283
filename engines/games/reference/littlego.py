"""The Little-Go host's rules in pure Python (specs/littlego.md): quick to import, no engine, no numba.

The player checks the host's position file and writes its fallback move with them before the engine loads
(adapters/littlego.py); the local host and its opponents (standins/) referee and play by them.  The
engine's own rules are Go(rules="littlego"); the tests hold the two to the same games.

A board is a list of SIZE lists of SIZE ints (0 empty, 1 black, 2 white), row 0 at the top, as
the host's file has it; a colour is 1 (black) or 2 (white), as on the wire.  A placement is judged as the
host judges it (``place``): off the board, then occupied, then: put the stone; if its group has a
liberty the move is valid; else remove the opponent groups without liberty; still none is suicide;
only such a move is checked for ko: a violation when the last move captured stones of the mover and
the resulting board equals the board before that move.  The outcome of a forbidden placement is
engines.errors.IllegalMove (a plain Python module) with its Reason.
"""
from engines.games.reference.go import group  # (stones, liberties) of the group at (i, j): the same flood fill
from engines.errors import IllegalMove, Reason

SIZE = 5
KOMI = 2.5
MAX_MOVES = SIZE * SIZE - 1  # the game ends after move 24 (passes count)


def empty_board() -> list[list[int]]:
    return [[0] * SIZE for _ in range(SIZE)]


def copy_board(board) -> list[list[int]]:
    return [list(row) for row in board]


def neighbours(i: int, j: int):
    for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
        if 0 <= a < SIZE and 0 <= b < SIZE:
            yield a, b


def has_liberty(board, i: int, j: int) -> bool:
    return bool(group(board, i, j)[1])


def dead_stones(board, colour: int) -> list[tuple[int, int]]:
    """The stones of colour in groups without liberty, in board order."""
    return [(i, j) for i in range(SIZE) for j in range(SIZE)
            if board[i][j] == colour and not has_liberty(board, i, j)]


def remove_dead(board, colour: int) -> list[tuple[int, int]]:
    """Remove every group of colour without liberty (in place); returns the stones removed."""
    dead = dead_stones(board, colour)
    for i, j in dead:
        board[i][j] = 0
    return dead


def place(board, previous, died: bool, colour: int, i: int, j: int) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """(new board, stones captured) after colour's stone at (i, j) on board.  ``previous`` is the
    board before the last move and ``died`` whether that move captured stones of colour (the ko
    test needs both).  IllegalMove with Reason OUT_OF_RANGE, OCCUPIED, SUICIDE or KO, checked in
    that order."""
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        raise IllegalMove(Reason.OUT_OF_RANGE, detail=f"{i},{j}")
    if board[i][j] != 0:
        raise IllegalMove(Reason.OCCUPIED, detail=f"{i},{j}")
    after = copy_board(board)
    after[i][j] = colour
    if has_liberty(after, i, j):
        return after, remove_dead(after, 3 - colour)
    captured = remove_dead(after, 3 - colour)
    if not has_liberty(after, i, j):
        raise IllegalMove(Reason.SUICIDE, detail=f"{i},{j}")
    if died and after == previous:
        raise IllegalMove(Reason.KO, detail=f"{i},{j}")
    return after, captured


def stones(board) -> tuple[int, int]:
    """(black stones, white stones)."""
    flat = [v for row in board for v in row]
    return flat.count(1), flat.count(2)


def black_wins(board, komi: float = KOMI) -> bool:
    """The host's score: stones on the board only; Black wins iff B > W + komi."""
    b, w = stones(board)
    return b > w + komi


class Position:
    """A position as the host judges it: the board, the board before the last move, whether that
    move captured stones of the player to move, and who is to move (1 or 2)."""

    def __init__(self, board, previous, died: bool, colour: int):
        self.board, self.previous, self.died, self.colour = board, previous, died, colour

    @classmethod
    def from_input(cls, colour: int, previous, current) -> "Position":
        """The position of the host's file (previous: the board after the mover's own last move)."""
        died = any(previous[i][j] == colour and current[i][j] == 0 for i in range(SIZE) for j in range(SIZE))
        return cls(current, previous, died, colour)

    def placements(self) -> list[tuple[tuple[int, int], "Position", int]]:
        """[(point, next position, stones captured)] of every valid placement, in board order."""
        out = []
        for i in range(SIZE):
            for j in range(SIZE):
                if self.board[i][j] == 0:
                    try:
                        after, captured = place(self.board, self.previous, self.died, self.colour, i, j)
                    except IllegalMove:
                        continue
                    out.append(((i, j), Position(after, self.board, bool(captured), 3 - self.colour),
                                len(captured)))
        return out

    def most_captures(self) -> list[tuple[int, int]]:
        """The valid placements capturing the most stones, in board order ([] when there is none)."""
        placements = self.placements()
        most = max((n for _, _, n in placements), default=0)
        return [p for p, _, n in placements if n == most]
