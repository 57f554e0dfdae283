"""The Othello game manager's pipe protocol: moves and the board literal.

A move is ``i j`` with i the COLUMN and j the row (0 at the top); the manager's game never passes.
The board comes as a Python literal of rows (a list of lists or a tuple of tuples) of 0 empty,
1 dark, 2 light; it is parsed with ``ast.literal_eval``, never ``eval``.
"""
import ast
import warnings
import re

from protocols.common import ProtocolError, check_point

_TWO_INTS = re.compile(r"\s*([+-]?[0-9]+)\s+([+-]?[0-9]+)\s*")


def parse_move(text: str, size: int):
    """(row, col) from 'i j' (column first); ProtocolError otherwise."""
    m = _TWO_INTS.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise ProtocolError(f"bad move {text!r}: expected two integers 'i j' (column, row)")
    col, row = int(m.group(1)), int(m.group(2))
    if not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"move {text!r} is off the {size}x{size} board")
    return row, col


def format_move(point, size: int) -> str:
    """'i j' (column, row) of (row, col)."""
    point = check_point(point, size)
    if point is None:
        raise ProtocolError("the game manager's protocol has no pass move")
    return f"{point[1]} {point[0]}"


def parse_board(text: str) -> list[list[int]]:
    """The rows of a board literal: a square list/tuple of rows of 0, 1 or 2."""
    try:
        with warnings.catch_warnings():  # odd text makes the compiler warn on stderr
            warnings.simplefilter("ignore")
            board = ast.literal_eval(text.strip()) if isinstance(text, str) else None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ProtocolError(f"the board is not a Python literal: {str(text)[:80]!r}") from None
    if not isinstance(board, (list, tuple)) or not board:
        raise ProtocolError("the board must be a list of rows")
    size = len(board)
    rows = []
    for r, row in enumerate(board):
        if not isinstance(row, (list, tuple)) or len(row) != size:
            raise ProtocolError(f"row {r} of the board must have {size} cells")
        if any(isinstance(v, bool) or v not in (0, 1, 2) or not isinstance(v, int) for v in row):
            raise ProtocolError(f"row {r} of the board must hold only 0, 1 or 2")
        rows.append([int(v) for v in row])
    return rows


def format_board(cells) -> str:
    """The manager's literal: a tuple of row tuples (what it sends after the first turn)."""
    return str(tuple(tuple(int(v) for v in row) for row in cells))
