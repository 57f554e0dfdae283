"""The Little-Go host's files: input.txt (read strictly) and the move line of output.txt.

input.txt is 11 lines: the colour we play (1 black, 2 white), then the previous board (5 lines of
5 digits), then the current board (5 lines), 0 empty, 1 black, 2 white, row 0 at the top.  A move is
``i,j`` (row, column) or ``PASS``.
"""
from protocols.common import PASS, ProtocolError, check_point

SIZE = 5


def read_input(text: str, size: int = SIZE) -> tuple[int, list[list[int]], list[list[int]]]:
    """(colour 1 or 2, previous board, current board) from input.txt's text; ProtocolError naming
    the line for anything else (blank lines at the end and CR LF endings are tolerated)."""
    if not isinstance(text, str):
        raise ProtocolError("input.txt must be text")
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != 1 + 2 * size:
        raise ProtocolError(f"input.txt must have {1 + 2 * size} lines (colour, previous board, current "
                            f"board), got {len(lines)}")
    colour = lines[0].strip()
    if colour not in ("1", "2"):
        raise ProtocolError(f"line 1: the colour must be 1 (black) or 2 (white), got {lines[0]!r}")
    boards = []
    for first in (1, 1 + size):
        rows = []
        for k in range(first, first + size):
            row = lines[k].strip()
            if len(row) != size or any(ch not in "012" for ch in row):
                raise ProtocolError(f"line {k + 1}: a board row must be {size} digits 0, 1 or 2, got {lines[k]!r}")
            rows.append([int(ch) for ch in row])
        boards.append(rows)
    return int(colour), boards[0], boards[1]


def parse_move(text: str, size: int = SIZE):
    """(row, col) or PASS from the first line of output.txt; ProtocolError otherwise."""
    line = text.split("\n", 1)[0].strip() if isinstance(text, str) else ""
    if line == "PASS":
        return PASS
    parts = line.split(",")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ProtocolError(f"bad move {line!r}: expected 'i,j' or 'PASS'")
    row, col = int(parts[0]), int(parts[1])
    if not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"move {line!r} is off the {size}x{size} board")
    return row, col


def format_move(point, size: int = SIZE) -> str:
    """'i,j' of (row, col), or 'PASS' (no newline)."""
    point = check_point(point, size)
    return "PASS" if point is PASS else f"{point[0]},{point[1]}"


def write_input(colour: int, previous, current, size: int = SIZE) -> str:
    """The text of input.txt as the host writes it (11 lines, LF endings): the inverse of read_input."""
    if colour not in (1, 2) or isinstance(colour, bool):
        raise ProtocolError(f"the colour must be 1 (black) or 2 (white), got {colour!r}")
    lines = [str(colour)]
    for name, board in (("previous", previous), ("current", current)):
        rows = list(board)
        if len(rows) != size or any(len(row) != size or any(v not in (0, 1, 2) or isinstance(v, bool)
                                                            for v in row) for row in rows):
            raise ProtocolError(f"the {name} board must be {size} rows of {size} cells 0, 1 or 2")
        lines.extend("".join(str(int(v)) for v in row) for row in rows)
    return "\n".join(lines) + "\n"


def write_output(point, size: int = SIZE) -> str:
    """The text of output.txt: the move line ('i,j' or 'PASS') and an LF."""
    return format_move(point, size) + "\n"
