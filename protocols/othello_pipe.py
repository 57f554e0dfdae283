"""The Othello game manager's pipe protocol (specs/othello-pipe.md): lines, moves, colours, the
board literal, and the agent's side of the dialogue as a pure core (``AgentSession``) with its
small transport (``LineChannel``).

A move is ``i j`` with i the COLUMN and j the row (0 at the top); the manager's game never passes.
The board comes as a Python literal of rows (a list of lists or a tuple of tuples) of 0 empty,
1 dark, 2 light; it is parsed with ``ast.literal_eval``, never ``eval``.  The other lines:
``color,limit,minimax,caching,ordering`` once, ``SCORE d l`` before each board, ``FINAL d l`` at
the end (d dark's discs, l light's).  Colours are 1 dark (moves first) and 2 light: the engine's
players 0 and 1 (``player_of``), and the cells of the board view.
"""
import ast
import re
import time
import warnings
from dataclasses import dataclass

from protocols.common import EndOfInput, FatalError, ProtocolError, Quit, check_point, parse_int

_TWO_INTS = re.compile(r"\s*([+-]?[0-9]+)\s+([+-]?[0-9]+)\s*")


class OffBoard(ProtocolError):
    """Two integers that name no square of the board."""


def parse_move(text: str, size: int):
    """(row, col) from 'i j' (column first); OffBoard beyond the board, ProtocolError for other text."""
    m = _TWO_INTS.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise ProtocolError(f"bad move {text!r}: expected two integers 'i j' (column, row)")
    col, row = int(m.group(1)), int(m.group(2))
    if not (0 <= row < size and 0 <= col < size):
        raise OffBoard(f"move {text!r} is off the {size}x{size} board")
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


def format_board(cells, first_turn: bool = False) -> str:
    """The manager's literal: a list of row lists on the game's first turn, a tuple of row tuples
    after (what its board is once a move is played)."""
    if first_turn:
        return str([[int(v) for v in row] for row in cells])
    return str(tuple(tuple(int(v) for v in row) for row in cells))


# ==== colours =====================================================================================
DARK, LIGHT = 1, 2
COLOR_NAMES = {DARK: "dark", LIGHT: "light"}


def player_of(color: int) -> int:
    """The engine's player of a colour: dark (1, moves first) is 0, light (2) is 1."""
    if color not in COLOR_NAMES:
        raise ProtocolError(f"a colour is {DARK} (dark) or {LIGHT} (light), got {color!r}")
    return color - DARK


# ==== the dialogue ================================================================================
# The manager: runs ``python3 FILE``; reads the agent's name (one line); sends the flags line
# ``color,limit,minimax,caching,ordering``; then each turn ``SCORE d l`` (dark, light counts) and
# the board literal, and reads ``i j``; at the end it may send ``FINAL d l``.
NO_LIMIT = -1


@dataclass(frozen=True)
class Flags:
    """The manager's flags line: our colour (1 dark, 2 light), the depth limit (NO_LIMIT: none) and
    the -m (plain minimax), -c (state caching) and -o (node ordering) switches."""
    color: int
    limit: int = NO_LIMIT
    minimax: bool = False
    caching: bool = False
    ordering: bool = False


def parse_flags(line: str) -> Flags:
    """Flags of 'color,limit,minimax,caching,ordering' (e.g. '1,3,0,1,0'); ProtocolError otherwise."""
    fields = line.strip().split(",") if isinstance(line, str) else []
    if len(fields) != 5:
        raise ProtocolError(f"bad flags line {str(line)[:80]!r}: expected 'color,limit,minimax,caching,ordering' "
                            "(five comma-separated integers, e.g. '1,-1,0,1,0')")
    color = parse_int(fields[0], "color", DARK, LIGHT)
    limit = parse_int(fields[1], "limit (-1 for none)", NO_LIMIT)
    switches = [parse_int(v, name, 0, 1) == 1 for v, name in zip(fields[2:], ("minimax", "caching", "ordering"))]
    return Flags(color, limit, *switches)


def format_flags(flags: Flags) -> str:
    return f"{flags.color},{flags.limit},{int(flags.minimax)},{int(flags.caching)},{int(flags.ordering)}"


def _parse_counts(line: str, word: str) -> tuple[int, int]:
    parts = line.split() if isinstance(line, str) else []
    if len(parts) != 3 or parts[0] != word:
        raise ProtocolError(f"expected '{word} DARK LIGHT', got {str(line)[:80]!r}")
    return parse_int(parts[1], "dark count", 0), parse_int(parts[2], "light count", 0)


def parse_score(line: str) -> tuple[int, int]:
    """(dark, light) of 'SCORE d l'."""
    return _parse_counts(line, "SCORE")


def parse_final(line: str) -> tuple[int, int]:
    """(dark, light) of 'FINAL d l'."""
    return _parse_counts(line, "FINAL")


def format_score(dark: int, light: int) -> str:
    return f"SCORE {int(dark)} {int(light)}"


def format_final(dark: int, light: int) -> str:
    return f"FINAL {int(dark)} {int(light)}"


def counts(board) -> tuple[int, int]:
    """(dark, light) discs of a board's rows."""
    return sum(row.count(DARK) for row in board), sum(row.count(LIGHT) for row in board)


class AgentSession:
    """The agent's side of the dialogue after its name line: a table from the line it expects
    (the flags, a turn's SCORE or FINAL, the board) to its handler.  ``handle(line)`` returns the
    reply line (the move, for a board) or None (after the flags and SCORE lines).

    ``choose(board, flags, received)`` picks our move: board the rows (board[row][col]), flags the
    parsed Flags, received the ``clock`` when the board line was handed in; it returns (row, col).
    ``warn(text)`` receives remarks that do not stop the game (e.g. a SCORE not matching the board).
    Raises Quit on FINAL and FatalError on anything the agent cannot go on from (a bad flags line,
    a line out of turn, a board not a literal or not sized min_size..max_size, a choose error).
    """
    FLAGS, TURN, BOARD = "flags", "turn", "board"

    def __init__(self, choose, min_size: int = 4, max_size: int = 16, warn=None, clock=time.perf_counter):
        self.choose = choose
        self.min_size, self.max_size = min_size, max_size
        self.warn = warn or (lambda text: None)
        self.clock = clock
        self.handlers = {self.FLAGS: self._flags, self.TURN: self._turn, self.BOARD: self._board}
        self.expect = self.FLAGS
        self.flags = None
        self.score = None

    def handle(self, line: str) -> str | None:
        received = self.clock()
        try:
            return self.handlers[self.expect](line, received)
        except ProtocolError as e:
            raise FatalError(str(e)) from None

    def _flags(self, line, received):
        self.flags = parse_flags(line)
        self.expect = self.TURN
        return None

    def _turn(self, line, received):
        if line.strip().startswith("FINAL"):
            raise Quit(line.strip())
        self.score = parse_score(line)
        self.expect = self.BOARD
        return None

    def _board(self, line, received):
        board = parse_board(line)
        self.expect = self.TURN
        size = len(board)
        if not self.min_size <= size <= self.max_size:
            raise FatalError(f"a {size}x{size} board: this agent plays sizes {self.min_size} to {self.max_size}")
        if counts(board) != self.score:
            self.warn(f"SCORE {self.score[0]} {self.score[1]} does not match the board's discs "
                      f"{counts(board)[0]} {counts(board)[1]}; playing the board")
        return format_move(self.choose(board, self.flags, received), size)


class LineChannel:
    """The agent's pipes: lines in from the manager (binary stdin), lines out (binary stdout),
    each flushed at once."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer

    def receive(self) -> str:
        """The next line; EndOfInput once the manager closed our stdin."""
        raw = self.reader.readline()
        if not raw:
            raise EndOfInput("end of input")
        return raw.decode("utf-8", "replace")

    def send(self, line: str) -> None:
        self.writer.write(f"{line}\n".encode("ascii"))
        self.writer.flush()
