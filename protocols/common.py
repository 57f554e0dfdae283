"""What every protocol shares: the outcomes of handling a message, the session core (a command
table and ``handle(message) -> reply``) and argument parsers.

Outcomes are exceptions (as gomill has them): a handler that cannot do what a message asks raises
``ProtocolError`` (the session answers with an error reply and goes on, its state unchanged),
``FatalError`` (the session answers, then ends), or ``Quit`` (a normal end after the reply); a
transport that has no more messages raises ``EndOfInput``.  The engine's own outcomes (an illegal
move, a finished game) are ``engines.errors.IllegalMove`` / ``GameOver``: an adapter turns them into
ProtocolError where the protocol answers them.  Parsers raise ProtocolError with a message fit for
the reply.

This package never imports the engine: it speaks in plain values.  A point is ``(row, col)`` with
row 0 the top row and col 0 the left column; a pass is ``None``.
"""
import math
import numbers
import os
import sys
import traceback
from dataclasses import dataclass, field
from typing import Callable

PASS = None  # the pass, wherever a point is expected


class ProtocolError(Exception):
    """A message that cannot be carried out: reply with an error, keep the session and its state."""


class FatalError(Exception):
    """A message after which the session cannot go on: reply, then end the session."""


class Quit(Exception):
    """A normal end of the session, after the reply."""


class EndOfInput(Exception):
    """No more messages: the peer closed the stream or the connection."""


def parse_int(text: str, name: str = "value", low: int | None = None, high: int | None = None) -> int:
    """A decimal integer (an optional sign, digits), within [low, high] where given."""
    t = text.strip() if isinstance(text, str) else ""
    digits = t[1:] if t[:1] in "+-" else t
    if not digits.isascii() or not digits.isdigit():
        raise ProtocolError(f"{name} must be an integer, got {text!r}")
    try:
        value = int(t)
    except ValueError:  # more digits than Python converts
        raise ProtocolError(f"{name} must be an integer of at most {sys.get_int_max_str_digits()} digits") from None
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low if low is not None else '-inf'}..{high if high is not None else 'inf'}"
        raise ProtocolError(f"{name} must be in {span}, got {value}")
    return value


def parse_float(text: str, name: str = "value") -> float:
    """A finite decimal number (no nan, no infinity)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ProtocolError(f"{name} must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise ProtocolError(f"{name} must be a finite number, got {text!r}")
    return value


def check_point(point, size: int):
    """point as (row, col) on a size x size board, or PASS; ProtocolError otherwise (for formatters)."""
    if point is PASS:
        return PASS
    try:
        row, col = point
    except (TypeError, ValueError):
        raise ProtocolError(f"a point is (row, col) or None for a pass, got {point!r}") from None
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in (row, col)) \
            or not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"({row!r}, {col!r}) is not a point of a {size}x{size} board")
    return int(row), int(col)


# ==== the session core: GTP's shape for every protocol ===========================================

@dataclass(frozen=True)
class Command:
    """One entry of a command table: its handler (arguments -> reply text) and the usage text replied
    when fewer than ``min_args`` arguments are given (extra arguments are the parser's business)."""
    handler: Callable[[list], str]
    min_args: int = 0
    usage: str = ""


@dataclass
class Request:
    """One message split into the command's name and arguments; ``tag`` is what the reply repeats
    (GTP's id), ``name`` None when the message names no command at all."""
    name: str | None
    args: list = field(default_factory=list)
    tag: str = ""


class Session:
    """The protocol core every harness session shares: a command table, and ``handle(message)``
    returning the whole reply (or None for a message that gets none).

    A protocol says how a message splits (``split``: a Request, None for no reply; ProtocolError for
    a message it cannot read) and how its replies look (``success``, ``failure``).  Handlers raise
    ProtocolError for an error reply (the session goes on, its state unchanged), FatalError to reply
    and end, Quit after a normal last reply; ``finished`` is then True.  Any other exception is an
    engine bug: an error reply with its traceback on stderr, and the session goes on.
    """
    unknown = "unknown command"

    def __init__(self, commands: dict[str, Command], stderr=None):
        self.commands = dict(commands)
        self.stderr = stderr if stderr is not None else sys.stderr
        self.finished = False

    def split(self, message) -> Request | None:
        words = str(message).split()
        return Request(words[0], words[1:]) if words else None

    def success(self, request: Request, text: str) -> str:
        raise NotImplementedError

    def failure(self, request: Request, text: str) -> str:
        raise NotImplementedError

    def handle(self, message):
        try:
            request = self.split(message)
        except ProtocolError as err:
            return self.failure(Request(None), str(err))
        if request is None:
            return None
        command = self.commands.get(request.name) if request.name is not None else None
        if command is None:
            return self.failure(request, self.unknown)
        if len(request.args) < command.min_args:
            return self.failure(request, command.usage)
        try:
            return self.success(request, command.handler(request.args))
        except ProtocolError as err:
            return self.failure(request, str(err))
        except Quit as end:
            self.finished = True
            return self.success(request, str(end))
        except FatalError as end:
            self.finished = True
            return self.failure(request, str(end))
        except Exception as err:  # an engine bug: reply, show it on stderr, keep serving
            return self.failure(request, internal_error(err, self.stderr))


def internal_error(err: Exception, stderr) -> str:
    """The reply text of an engine bug, its traceback shown on stderr (the session goes on)."""
    traceback.print_exc(file=stderr)
    return f"internal error: {type(err).__name__}: {err}"


def quiet_stdout() -> None:
    """Point stdout at /dev/null at the end of a stdio session, so that the interpreter's final flush
    cannot raise on a pipe the peer has closed."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
