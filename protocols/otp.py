"""OTP, the Othello judge's protocol: move text, colours, messages and the engine's session core
(``OtpEngine``: a command table answered message by message), with its two small transports.

A square is ``X Y`` with X the row (0 at the top) and Y the column, as two integers separated by
white space; ``8 0`` (``size 0``) is the pass.  The wire names no colour: black is whoever moves
first, the engine's player 0 (``player_of``).
"""
import re

from protocols.common import PASS, Command, EndOfInput, ProtocolError, Request, Session, check_point

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


def refusal(point, reason: str, pass_refused: bool = False) -> str:
    """Why a move is illegal, in the protocol's words: the square as OTP writes it ('row col') and the
    rules' reason (never the engine's action number); ``pass_refused``: a pass while a placement exists."""
    if point is PASS and pass_refused:
        return "illegal move: a pass while a placement exists"
    return f"illegal move {format_move(point)}: {reason}"


# ==== colours =====================================================================================
COLOURS = ("black", "white")  # by move order: black moves first


def player_of(colour: str) -> int:
    """The engine's player (0 moves first) of 'black' or 'white'."""
    if colour not in COLOURS:
        raise ProtocolError(f"a colour is black or white, got {colour!r}")
    return COLOURS.index(colour)


def final_score(cells) -> int:
    """The judge's score of a board view (cell 1 + the player, 0 empty): black's discs minus white's."""
    black, white = 1 + player_of("black"), 1 + player_of("white")
    flat = [int(v) for row in cells for v in row]
    return flat.count(black) - flat.count(white)


# ==== messages ====================================================================================
# Every message is one raw send() of at most MAX_MESSAGE bytes with no newline and no NUL; the
# judge reads it with one recv() and compares the first word case-insensitively.
MAX_MESSAGE = 1023
COMMANDS = ("name", "clear_board", "play", "genmove", "undo", "final_score", "showboard", "quit")
ARITY = {"play": 2}  # arguments of each command (0 when absent)
ERROR_PREFIX = "?"   # an error reply: '? message', one line
PASS_TEXT = f"{SIZE} 0"
MAX_NAME = 514 - len("name ")  # bytes of the engine's name: the judge keeps 514 bytes of the name reply


def check_name(name: str) -> str:
    """The engine's name as the name reply carries it: one word of at most MAX_NAME bytes."""
    if not isinstance(name, str) or len(name.split()) != 1 or name != name.strip() \
            or len(name.encode()) > MAX_NAME:
        raise ProtocolError(f"the name must be one word of at most {MAX_NAME} bytes, got {name!r}")
    return name


def parse_command(message) -> tuple[str, list[str]]:
    """(command, arguments) of one message (bytes or str); surrounding white space, a trailing
    newline included, is ignored and the command word is case-insensitive.  ProtocolError for an
    empty, undecodable or unknown message, or a wrong number of arguments."""
    if isinstance(message, (bytes, bytearray)):
        try:
            message = bytes(message).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("unreadable command (not UTF-8)") from None
    if "\0" in message:
        raise ProtocolError("a command cannot contain NUL")
    words = message.split()
    if not words:
        raise ProtocolError("empty command")
    command, args = words[0].lower(), words[1:]
    if command not in COMMANDS:
        raise ProtocolError(f"unknown command {_short(words[0])}")
    if len(args) != ARITY.get(command, 0):
        raise ProtocolError(f"{command} takes {ARITY.get(command, 0)} argument(s), got {len(args)}")
    return command, args


def format_reply(command: str, *fields) -> str:
    """A success reply: the command word, then its fields ('genmove 2 3', 'final_score -4'); a
    drawing (showboard's: several lines) starts on the line after the word."""
    text = " ".join(str(f) for f in fields)
    if not text:
        return command
    return command + ("\n" if "\n" in text else " ") + text


def format_error(message: str) -> str:
    """A one-line error reply: '? message' (newlines folded into spaces)."""
    return f"{ERROR_PREFIX} {' '.join(str(message).split())}"[:MAX_MESSAGE]


def format_command(command: str, *args) -> str:
    """A command as the judge sends it ('play 2 3', 'genmove')."""
    if command not in COMMANDS:
        raise ProtocolError(f"unknown command {command!r}")
    return " ".join([command, *(str(a) for a in args)])


def parse_reply(command: str, message) -> list[str]:
    """The fields of a reply to command, compared as the real judge does: no white space around the
    reply (in particular no trailing newline), no NUL, and the first space-separated word equal to
    the command case-insensitively.  ProtocolError otherwise (the judge's forfeit)."""
    if isinstance(message, (bytes, bytearray)):
        try:
            message = bytes(message).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("unreadable reply (not UTF-8)") from None
    if message != message.strip() or "\0" in message:
        raise ProtocolError(f"reply {_short(message)} has white space around it or a NUL")
    words = message.split(" ")
    if not words or words[0].lower() != command:
        raise ProtocolError(f"reply {_short(message)} does not answer {command!r}")
    return words[1:]


def encode(message: str) -> bytes:
    """The bytes of one message on the wire; ProtocolError if it cannot be framed."""
    data = message.encode("utf-8")
    if not data or len(data) > MAX_MESSAGE or b"\0" in data:
        raise ProtocolError(f"a message is 1..{MAX_MESSAGE} bytes without NUL, got {len(data)} bytes")
    return data


def _short(text: str, limit: int = 40) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[:limit] + "...'"


# ==== the engine's session core ===================================================================

class OtpEngine(Session):
    """The engine's side of OTP (protocols.common.Session): ``handle(message)`` returns the one reply
    every message gets, the command's word and its fields or ``'? reason'`` on one line.

    ``handlers`` maps every OTP command to its handler (arguments -> the reply's fields, '' for
    none); each command takes exactly its ARITY arguments.  A handler raises ProtocolError for an
    error reply (the board unchanged), Quit after the last reply; ``finished`` is then True.
    """

    def __init__(self, handlers: dict, stderr=None):
        if set(handlers) != set(COMMANDS):
            raise ValueError(f"an OTP engine answers exactly {', '.join(COMMANDS)}; got {', '.join(handlers)}")
        super().__init__({name: Command(handlers[name], ARITY.get(name, 0)) for name in COMMANDS}, stderr)

    def split(self, message) -> Request:
        command, args = parse_command(message)  # every message is a command: no message goes unanswered
        return Request(command, args)

    def success(self, request: Request, text: str) -> str:
        return format_reply(request.name, text)

    def failure(self, request: Request, text: str) -> str:
        return format_error(text)


# ==== transports =================================================================================

class SocketChannel:
    """Messages over a connected TCP socket: one recv() is one message, one send is one reply."""

    def __init__(self, sock):
        self.sock = sock

    def receive(self) -> bytes:
        """The next message; EndOfInput once the peer closed the connection."""
        data = self.sock.recv(MAX_MESSAGE + 1)
        if not data:
            raise EndOfInput("the judge closed the connection")
        return data

    def send(self, message: str) -> None:
        """One message in one send() call (replies end with no newline)."""
        data = encode(message)
        sent = self.sock.send(data)
        if sent != len(data):  # a short send would split the message: never seen for <= 1023 bytes
            self.sock.sendall(data[sent:])


class LineChannel:
    """Messages as lines on text streams (stdin/stdout): one command a line, one reply a line."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer

    def receive(self) -> str:
        """The next line; EndOfInput at the end of the stream."""
        line = self.reader.readline()
        if not line:
            raise EndOfInput("end of input")
        return line

    def send(self, message: str) -> None:
        self.writer.write(message + "\n")
        self.writer.flush()
