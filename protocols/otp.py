"""OTP, the Othello judge's protocol: move text.

A square is ``X Y`` with X the row (0 at the top) and Y the column, as two integers separated by
white space; ``8 0`` (``size 0``) is the pass.
"""
import re

from protocols.common import PASS, ProtocolError, check_point

SIZE = 8
_TWO_INTS = re.compile(r"\s*([+-]?[0-9]+)\s+([+-]?[0-9]+)\s*")


def parse_move(text: str, size: int = SIZE):
    """(row, col) or PASS from 'X Y'; ProtocolError for anything else or a square off the board."""
    m = _TWO_INTS.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise ProtocolError(f"bad move {text!r}: expected two integers 'X Y' (row, column)")
    row, col = int(m.group(1)), int(m.group(2))
    if (row, col) == (size, 0):
        return PASS
    if not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"move {text!r} is off the {size}x{size} board (the pass is '{size} 0')")
    return row, col


def format_move(point, size: int = SIZE) -> str:
    """'X Y' of (row, col), or the pass 'size 0'."""
    point = check_point(point, size)
    return f"{size} 0" if point is PASS else f"{point[0]} {point[1]}"
