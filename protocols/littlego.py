"""The Little-Go host's file exchange: input.txt (read strictly), the move line of output.txt, and the
player's side as a pure session (``PlayerSession.handle(input.txt text) -> output.txt text``).

input.txt is 11 lines: the colour we play (1 black, 2 white), then the previous board (5 lines of
5 digits), then the current board (5 lines), 0 empty, 1 black, 2 white, row 0 at the top.  A move is
``i,j`` (row, column) or ``PASS``.  The wire's colours meet the engine's players (0 black, 1 white)
in ``player_of`` only; the cells of a board already are the board view's (1 the first player).
"""
from typing import Callable, NamedTuple

from protocols.common import PASS, ProtocolError, Request, check_point

SIZE = 5
POSITION = "position"  # the exchange's one message kind: input.txt, a position to answer


class Turn(NamedTuple):
    """What input.txt says: the colour to play (1 black, 2 white), the board after that colour's
    last move (previous) and the board after the opponent's (current), as lists of rows."""
    colour: int
    previous: list
    current: list


def player_of(colour: int) -> int:
    """The engine's player (0 black, 1 white) of a wire colour (1 black, 2 white)."""
    if colour not in (1, 2) or isinstance(colour, bool):
        raise ProtocolError(f"the colour must be 1 (black) or 2 (white), got {colour!r}")
    return colour - 1


def read_input(text: str, size: int = SIZE) -> Turn:
    """The Turn of input.txt's text; ProtocolError naming the line for anything else (blank lines
    at the end and CR LF endings are tolerated)."""
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
    return Turn(int(colour), boards[0], boards[1])


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
    player_of(colour)  # checks the colour
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


class PlayerSession:
    """The player's side of the exchange as a pure session: ``handle(input.txt's text)`` returns
    output.txt's text.

    ``handlers`` maps each message kind to its handler; the exchange has one kind, POSITION, whose
    handler gets the Turn and returns the move, (row, col) or PASS.  Outcomes are exceptions:
    ProtocolError for an input.txt that cannot be played from (text that does not parse, raised
    here; boards that cannot be, raised by the handler); whatever else a handler raises goes to the
    transport as it is.  There is no error reply: the host reads a move or nothing."""

    def __init__(self, handlers: dict[str, Callable[[Turn], object]]):
        self.handlers = dict(handlers)

    def split(self, text: str) -> Request:
        return Request(POSITION, [read_input(text)])

    def handle(self, text: str) -> str:
        request = self.split(text)
        return write_output(self.handlers[request.name](*request.args))
