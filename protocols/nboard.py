"""NBoard, the protocol of the NBoard Othello GUI (the one Edax and Egaroucid speak): its move text, the
GGF game record of ``set game``, the engine's replies, and the engine's session core (``NBoardEngine``,
a command table answered line by line) with its line transport.  README "NBoard protocol" has the
facts this module follows.

Data: a point is ``(row, col)`` with row 0 the top row (GGF's row 1) and col 0 column A; a pass is
``PASS`` (None).  A board is a list of 8 rows of ints, 0 empty, 1 black (moves first), 2 white; a
colour is 1 (black) or 2 (white).  ``parse_game`` returns a ``GgfGame``: the start board, the colour
to move there, and the moves as ``GgfMove``s (colour, point or PASS, eval or None, seconds).  Nothing
here knows the rules: the adapter replays the moves and refuses an illegal one.
"""
import math
import re
from dataclasses import dataclass

from protocols.common import PASS, Command, EndOfInput, ProtocolError, Request, Session, check_point, parse_int

SIZE = 8                      # the board NBoard plays (GGF's TY[8])
VERSION = 2                   # the protocol version this engine speaks
BLACK, WHITE = 1, 2
PASS_TEXT = "PA"              # how the engine writes a pass
ERROR_WORD = "error"          # the first word of an error line: NBoard ignores lines it does not know
MAX_LINE = 1 << 16            # a longer command is refused (a GGF game of 60 moves is under 2 KiB)


# ==== moves ======================================================================================
def parse_move(text: str, size: int = SIZE):
    """(row, col) or PASS from NBoard's move text: a column letter and a row number ('F5', 'f5'), or
    a pass: any prefix of 'PASS' ('P', 'PA', ...) or '--'; ProtocolError otherwise."""
    t = text.strip().upper() if isinstance(text, str) else ""
    if t and "PASS".startswith(t) or t == "--":
        return PASS
    m = re.fullmatch(r"([A-Z])([0-9]{1,2})", t)
    if not m:
        raise ProtocolError(f"bad move {text!r}: expected a column letter and a row number (F5) or PA for a pass")
    row, col = int(m.group(2)) - 1, ord(m.group(1)) - ord("A")
    if not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"move {text!r} is off the {size}x{size} board")
    return row, col


def format_move(point, size: int = SIZE) -> str:
    """'F5' of (row, col), 'PA' of the pass."""
    point = check_point(point, size)
    return PASS_TEXT if point is PASS else f"{chr(ord('A') + point[1])}{point[0] + 1}"


def _number(text: str, what: str) -> float:
    """A finite decimal number without an exponent (NBoard writes none)."""
    if not re.fullmatch(r"\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)\s*", text):
        raise ProtocolError(f"{what} must be a decimal number, got {text!r}")
    return float(text)


def parse_move_item(text: str, size: int = SIZE) -> tuple:
    """(point or PASS, eval or None, seconds) of 'move[/eval[/time]]' ('F5', 'F5/1.23', 'F5//0.5',
    'F5/-2.00/1.5'); an empty eval is unknown (None), a missing time 0."""
    parts = text.strip().split("/") if isinstance(text, str) else [""]
    if len(parts) > 3:
        raise ProtocolError(f"bad move {text!r}: expected move[/eval[/time]]")
    point = parse_move(parts[0], size)
    value = _number(parts[1], "a move's eval") if len(parts) > 1 and parts[1].strip() else None
    seconds = _number(parts[2], "a move's time") if len(parts) > 2 and parts[2].strip() else 0.0
    if seconds < 0:
        raise ProtocolError(f"a move's time cannot be negative, got {parts[2]!r}")
    return point, value, seconds


def format_eval(value: float) -> str:
    """An eval in discs as NBoard reads it (two decimals, no exponent)."""
    if not math.isfinite(value):
        raise ProtocolError(f"an eval must be finite, got {value!r}")
    return f"{value:.2f}"


def format_move_item(point, value: float | None = None, seconds: float | None = None, size: int = SIZE) -> str:
    """'F5', 'F5/1.00', 'F5/1.00/0.5' or 'F5//0.5' (an eval may be omitted, e.g. for a forced move)."""
    text = format_move(point, size)
    if value is None and not seconds:
        return text
    text += "/" + ("" if value is None else format_eval(value))
    return text + (f"/{seconds:.2f}" if seconds else "")


# ==== GGF game records ===========================================================================
@dataclass(frozen=True)
class GgfMove:
    colour: int                 # BLACK or WHITE, from the property name (B or W)
    point: object               # (row, col) or PASS
    value: float | None = None  # the eval the record carries (discs, the mover's view), None: unknown
    seconds: float = 0.0        # the time the record says the move took


@dataclass(frozen=True)
class GgfGame:
    board: list                 # the start position (BO): SIZE rows of 0/1/2
    to_move: int                # BLACK or WHITE, who moves in the start position
    moves: tuple                # GgfMove, in order
    properties: dict            # every other property, name -> raw text (PB, PW, TI, RE, ...)


_PROPERTY = re.compile(r"\s*([A-Za-z]+)\s*\[([^\]]*)\]")
_CELLS = {"-": 0, ".": 0, "_": 0, "*": BLACK, "X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE, "0": WHITE}
KNOWN = ("GM", "PC", "DT", "PB", "PW", "RB", "RW", "RE", "TI", "TB", "TW", "TY", "BO", "CO", "KB", "KW", "KM",
         "B", "W")


def parse_board(text: str) -> tuple[list, int]:
    """(board, colour to move) of a GGF BO value: '8', the 64 squares row by row ('-' empty, '*' black,
    'O' white; '.', 'x', 'o' too), then the side to move ('*' or 'O')."""
    words = text.split()
    if not words or words[0] != str(SIZE):
        raise ProtocolError(f"BO[{_short(text)}]: only the {SIZE}x{SIZE} board is played (BO[{SIZE} ...])")
    squares = "".join(words[1:])
    if len(squares) != SIZE * SIZE + 1:
        raise ProtocolError(f"BO[{_short(text)}]: expected {SIZE * SIZE} squares and the side to move")
    cells = [_CELLS.get(c) for c in squares[:-1]]
    if None in cells:
        bad = squares[cells.index(None)]
        raise ProtocolError(f"BO[{_short(text)}]: a square is '-', '*' or 'O', got {bad!r}")
    mover = _CELLS.get(squares[-1])
    if mover not in (BLACK, WHITE):
        raise ProtocolError(f"BO[{_short(text)}]: the side to move is '*' (black) or 'O' (white), got {squares[-1]!r}")
    return [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)], mover


def parse_game(text: str) -> GgfGame:
    """A GGF game record '(;GM[Othello]...TY[8]BO[8 ...]B[F5]W[F6/1.2/3];)'; ProtocolError for anything
    else (not Othello, not 8x8, no board, a malformed property or move)."""
    t = text.strip() if isinstance(text, str) else ""
    if t[:1] in ("1", "2"):  # a GGS match count before the game
        t = t[1:].lstrip()
    if not t.startswith("(;") or not t.endswith(";)"):
        raise ProtocolError("a GGF game starts with '(;' and ends with ';)'")
    body, pos = t[2:-2], 0
    properties, moves, board = {}, [], None
    while pos < len(body.rstrip()):
        m = _PROPERTY.match(body, pos)
        if not m:
            raise ProtocolError(f"GGF: cannot read a property at {_short(body[pos:])}")
        name, value = m.group(1).upper(), m.group(2)
        pos = m.end()
        if name in ("B", "W"):
            point, evaluation, seconds = parse_move_item(value)
            moves.append(GgfMove(BLACK if name == "B" else WHITE, point, evaluation, seconds))
        elif name == "BO":
            board = parse_board(value)
        else:
            properties[name] = value
    if properties.get("GM", "Othello").strip().lower() != "othello":
        raise ProtocolError(f"GM[{_short(properties['GM'])}]: only Othello is played")
    kind = properties.get("TY", str(SIZE)).strip()
    if not re.fullmatch(rf"{SIZE}[^0-9a]*", kind):  # '8', '8r' (random start): 8x8; 'a' (anti) is another game
        raise ProtocolError(f"TY[{_short(kind)}]: only {SIZE}x{SIZE} Othello (TY[{SIZE}]) is played")
    if board is None:
        raise ProtocolError("GGF: the game has no start position (BO[...])")
    return GgfGame(board[0], board[1], tuple(moves), properties)


def format_game(board, to_move: int, moves=()) -> str:
    """A GGF record of a start position and moves (the stand-in GUI's 'set game')."""
    symbols = {0: "-", BLACK: "*", WHITE: "O"}
    squares = "".join(symbols[v] for row in board for v in row)
    text = f"(;GM[Othello]PC[plies]PB[]PW[]RE[?]TI[0]TY[{SIZE}]BO[{SIZE} {squares} {symbols[to_move]}]"
    for m in moves:
        text += f"{'B' if m.colour == BLACK else 'W'}[{format_move_item(m.point, m.value, m.seconds)}]"
    return text + ";)"


# ==== replies ====================================================================================
def format_search(point, value: float, depth: str, pv: str = "", book: bool = False) -> str:
    """A hint line: 'search F5 1.23 0 12' (pv, eval for the side to move in discs, 0, depth; the depth
    '100%' for an exact solve, '100%W' for a win/loss/draw solve)."""
    if not re.fullmatch(r"[0-9]+[^\s]*", depth):
        raise ProtocolError(f"a depth starts with an integer and has no spaces, got {depth!r}")
    line = f"{'book' if book else 'search'} {format_move(point)}{pv} {format_eval(value)} 0 {depth}"
    return line


def format_error(message: str) -> str:
    """An error line NBoard ignores (its first word is none of its commands) and a human can read."""
    return f"{ERROR_WORD} {' '.join(str(message).split())}"


def _short(text: str, limit: int = 40) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[:limit] + "...'"


# ==== the engine's session core ==================================================================
COMMANDS = ("nboard", "set", "move", "hint", "go", "ping", "learn", "analyze", "quit")


class NBoardEngine(Session):
    """The engine's side of NBoard (protocols.common.Session): ``handle(line)`` returns the reply's
    lines joined by newlines, or None for a command that gets none (move, set game, set depth's
    reply aside).  ``handlers`` maps each of COMMANDS to its handler (arguments -> reply text, '' or
    None for none).  A bare move ('F5', protocol version 1) is handed to the 'move' handler.  An
    unknown or malformed command gets one ``error ...`` line, which NBoard ignores, and changes nothing.
    """
    unknown = "unknown command"

    def __init__(self, handlers: dict, stderr=None):
        if set(handlers) != set(COMMANDS):
            raise ValueError(f"an NBoard engine answers exactly {', '.join(COMMANDS)}; got {', '.join(handlers)}")
        super().__init__({name: Command(handlers[name]) for name in COMMANDS}, stderr)

    def split(self, message) -> Request | None:
        if isinstance(message, (bytes, bytearray)):
            message = bytes(message).decode("utf-8", "replace")
        if len(message) > MAX_LINE:
            raise ProtocolError(f"a command of {len(message)} characters is too long (at most {MAX_LINE})")
        if "\0" in message:
            raise ProtocolError("a command cannot contain NUL")
        words = message.split()
        if not words:
            return None
        name = words[0].lower()
        if name not in self.commands and re.fullmatch(r"[A-Ha-h][1-8]|[Pp][Aa]", words[0]):
            return Request("move", words)  # protocol version 1 sent the move alone
        if name == "set":  # the rest of the line is one value (a GGF game may hold spaces)
            rest = message.strip()[3:].strip()
            key, _, value = rest.partition(" ")
            return Request(name, [key.lower(), value.strip()] if key else [])
        return Request(name if name in self.commands else words[0], words[1:])

    def success(self, request: Request, text) -> str | None:
        return text if text else None

    def failure(self, request: Request, text: str) -> str:
        if text == self.unknown:
            text = f"unknown command {_short(request.name)} (ignored)"
        return format_error(text)


def parse_count(args, name: str, low: int = 0) -> int:
    """The one integer argument of hint / ping / set depth."""
    if len(args) != 1:
        raise ProtocolError(f"{name} takes one integer, got {len(args)} argument(s)")
    return parse_int(args[0], name, low)


# ==== transport ==================================================================================
class LineChannel:
    """Lines in from the GUI (binary stdin), lines out (text) flushed at once."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    def receive(self) -> str:
        raw = self.reader.readline(MAX_LINE + 2)
        if not raw:
            raise EndOfInput("end of input")
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        if len(raw) > MAX_LINE and not raw.endswith("\n"):  # drop the rest of an overlong line
            while True:
                more = self.reader.readline(MAX_LINE)
                if not more or more.endswith(b"\n" if isinstance(more, bytes) else "\n"):
                    break
        return raw

    def send(self, text: str) -> None:
        data = text + "\n"
        if hasattr(self.writer, "encoding"):
            self.writer.write(data)
        else:
            self.writer.write(data.encode("utf-8"))
        self.writer.flush()
