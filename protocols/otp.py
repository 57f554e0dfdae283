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


# ==== messages ====================================================================================
# Every message is one raw send() of at most MAX_MESSAGE bytes with no newline and no NUL; the
# judge reads it with one recv() and compares the first word case-insensitively.
MAX_MESSAGE = 1023
COMMANDS = ("name", "clear_board", "play", "genmove", "undo", "final_score", "showboard", "quit")
ARITY = {"play": 2}  # arguments of each command (0 when absent)
ERROR_PREFIX = "?"   # an error reply: '? message', one line
PASS_TEXT = f"{SIZE} 0"


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
    """A success reply: the command word, then its fields ('genmove 2 3', 'final_score -4')."""
    return " ".join([command, *(str(f) for f in fields)])


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


# ==== transports =================================================================================

class SocketChannel:
    """Messages over a connected TCP socket: one recv() is one message, one send is one reply."""

    def __init__(self, sock):
        self.sock = sock

    def receive(self):
        """The next message as bytes, or None once the peer closed the connection."""
        data = self.sock.recv(MAX_MESSAGE + 1)
        return data or None

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

    def receive(self):
        line = self.reader.readline()
        return line if line else None

    def send(self, message: str) -> None:
        self.writer.write(message + "\n")
        self.writer.flush()
