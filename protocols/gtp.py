"""GTP (Go Text Protocol) wire formats: colours, vertices and the score text.

A vertex is a column letter (``a``..``z`` without ``i``) and a row number counted from 1 at the
BOTTOM, for example ``d4``; ``pass`` is the pass.  In the board view (protocols/common.py) row 0 is
the top, so vertex row r is view row size - r.
"""
from protocols.common import PASS, ProtocolError, check_point

COLUMNS = "abcdefghjklmnopqrstuvwxyz"  # GTP column letters: no 'i'
COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}


class InvalidPoint(ProtocolError):
    """Vertex text that names no point (bad syntax, the column 'i')."""


class OffBoard(ProtocolError):
    """A well-formed vertex beyond the board's size."""


def parse_colour(text: str) -> int:
    """'b'/'black' -> 0, 'w'/'white' -> 1, in any case."""
    player = COLOURS.get(text.lower()) if isinstance(text, str) else None
    if player is None:
        raise ProtocolError(f"invalid colour: {text!r} (use b or w)")
    return player


def parse_vertex(text: str, size: int):
    """(row, col) of a vertex in any case, or PASS.  The row number is any integer text >= 1
    ('a01' is a1).  InvalidPoint for bad syntax, OffBoard beyond size."""
    t = text.lower() if isinstance(text, str) else ""
    if t == "pass":
        return PASS
    if len(t) < 2 or t[0] not in COLUMNS:
        raise InvalidPoint(f"invalid point: '{t}'")
    digits = t[1:]
    if not digits.isascii() or not digits.isdigit() or int(digits) < 1:
        raise InvalidPoint(f"invalid point: '{t}'")
    col, row = COLUMNS.index(t[0]), int(digits)
    if col >= size or row > size:
        raise OffBoard(f"point is off board: '{t}'")
    return size - row, col


def format_vertex(point, size: int) -> str:
    """The lowercase vertex of (row, col), or 'pass'."""
    point = check_point(point, size)
    if point is PASS:
        return "pass"
    row, col = point
    return f"{COLUMNS[col]}{size - row}"


def format_score(score: float) -> str:
    """The score text of a Black-minus-White margin: 'B+2.0', 'W+0.5' or '0' (Python's float text)."""
    score = float(score)
    if score > 0:
        return f"B+{score}"
    if score < 0:
        return f"W+{-score}"
    return "0"
