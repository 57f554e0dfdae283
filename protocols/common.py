"""What every protocol shares: the three outcomes of handling a message, and argument parsers.

Outcomes (as gomill has them): a handler that cannot do what a message asks raises
``ProtocolError`` (the session answers with an error reply and goes on, its state unchanged),
``FatalError`` (the session answers, then ends), or ``Quit`` (a normal end after the reply).
Parsers raise ProtocolError with a message fit for the reply.

This package never imports the engine: it speaks in plain values.  A point is ``(row, col)`` with
row 0 the top row and col 0 the left column; a pass is ``None``.
"""
import math
import numbers
import sys

PASS = None  # the pass, wherever a point is expected


class ProtocolError(Exception):
    """A message that cannot be carried out: reply with an error, keep the session and its state."""


class FatalError(Exception):
    """A message after which the session cannot go on: reply, then end the session."""


class Quit(Exception):
    """A normal end of the session, after the reply."""


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
