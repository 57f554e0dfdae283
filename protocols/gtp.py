"""GTP (Go Text Protocol): colours, vertices, the score text, and the engine core (a command table
answered line by line).

A vertex is a column letter (``a``..``z`` without ``i``) and a row number counted from 1 at the
BOTTOM, for example ``d4``; ``pass`` is the pass.  In the board view (protocols/common.py) row 0 is
the top, so vertex row r is view row size - r.
"""
import sys

from protocols.common import PASS, Command, ProtocolError, Request, Session, check_point

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


def area_score_text(cells, komi: float) -> str:
    """The Go5 engine's score text of a board view (rows from the top; 0 empty, 1 black, 2 white).

    B counts black stones and the empty regions bordered only by black; W starts at komi and adds,
    as a float, one per white stone and the size of each empty region bordered only by white,
    walking the points in board order (a1, b1, ..., a2, ...) and adding a region when its first
    point is reached.  That order decides the last bits of W: komi 0.03 gives 'W+0.03000000000000025'
    where komi + W computed at once gives 'W+0.029999999999999805'."""
    n = len(cells)
    black, white = 0.0, float(komi)
    seen = set()
    for r in range(n - 1, -1, -1):  # board order: the bottom row first
        for c in range(n):
            colour = cells[r][c]
            if colour == 1:
                black += 1
            elif colour == 2:
                white += 1
            elif (r, c) not in seen:
                region, borders, stack = {(r, c)}, set(), [(r, c)]
                while stack:
                    i, j = stack.pop()
                    for ii, jj in ((i, j - 1), (i, j + 1), (i + 1, j), (i - 1, j)):
                        if 0 <= ii < n and 0 <= jj < n:
                            if cells[ii][jj] == 0:
                                if (ii, jj) not in region:
                                    region.add((ii, jj))
                                    stack.append((ii, jj))
                            else:
                                borders.add(cells[ii][jj])
                seen |= region
                if borders == {1}:
                    black += len(region)
                elif borders == {2}:
                    white += len(region)
    return format_score(black - white)


def command_table(session, names, usages: dict, through=None) -> dict[str, Command]:
    """The command table of a session's handlers, in the order of ``names``: each name answered by
    ``session.cmd_<name>`` (a '-' read as '_'), with ``usages[name]`` = (the least number of arguments,
    the usage an error shows) where it takes some; ``through(name, handler)``, when given, wraps every
    handler (a session that must do something before any command)."""
    table = {}
    for name in names:
        handler = getattr(session, "cmd_" + name.replace("-", "_"))
        table[name] = Command(handler if through is None else through(name, handler), *usages.get(name, (0, "")))
    return table


# ==== the GTP engine core: a command table, handle(line) -> reply, and a stdin/stdout transport ====

class GtpEngine(Session):
    """The GTP core every GTP engine of the project shares (protocols.common.Session).

    ``handle(line)`` returns the complete reply, ``'= text\\n\\n'`` or ``'? text\\n\\n'``, or None for a
    line that gets no reply (empty, white space only, or starting with '#').  A leading number is
    the command's id: echoed after '=' / '?' when ``echo_ids`` (GTP v2), dropped otherwise (engines
    that never repeat it).
    """

    def __init__(self, commands: dict[str, Command], echo_ids: bool = True, unknown: str = "unknown command",
                 stderr=None):
        super().__init__(commands, stderr)
        self.commands.setdefault("list_commands", Command(self._list_commands))
        self.commands.setdefault("known_command", Command(self._known_command, 1, "known_command CMD_NAME"))
        self.commands.setdefault("protocol_version", Command(lambda args: "2"))
        self.echo_ids = echo_ids
        self.unknown = unknown

    def _list_commands(self, args):
        return "\n".join(self.commands)

    def _known_command(self, args):
        return "true" if args[0] in self.commands else "false"

    def split(self, line: str) -> Request | None:
        line = line.rstrip("\r\n")
        if not line.strip() or line.startswith("#"):
            return None
        ident = ""
        if line[0].isascii() and line[0].isdigit():  # an id only when the line starts with it
            digits = len(line) - len(line.lstrip("0123456789"))
            ident, line = line[:digits], line[digits:]
        words = line.split()
        return Request(words[0] if words else None, words[1:], ident)

    def _reply(self, ok: bool, request: Request, text: str) -> str:
        return ("=" if ok else "?") + (request.tag if self.echo_ids else "") + " " + text + "\n\n"

    def success(self, request: Request, text: str) -> str:
        return self._reply(True, request, text)

    def failure(self, request: Request, text: str) -> str:
        return self._reply(False, request, text)

    def serve(self, stdin=None, stdout=None) -> int:
        """Answer commands from stdin on stdout, one reply per command, flushed, until quit or EOF."""
        if stdin is None:
            stdin = sys.stdin
            # bytes that are not text in the locale's encoding must not end the session: they pass
            # through as lone surrogates (an unknown command, or echoed back byte for byte)
            if hasattr(stdin, "reconfigure"):
                stdin.reconfigure(errors="surrogateescape")
        if stdout is None:
            stdout = sys.stdout
            if hasattr(stdout, "reconfigure"):
                stdout.reconfigure(errors="surrogateescape")
        try:
            for line in stdin:
                reply = self.handle(line)
                if reply is not None:
                    stdout.write(reply)
                    stdout.flush()
                if self.finished:
                    break
        except (BrokenPipeError, KeyboardInterrupt):
            return 1
        return 0
