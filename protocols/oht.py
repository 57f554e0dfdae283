"""The Online Hex Tournament's actions: ``(row, col)`` as Python literal text (``str((r, c))``) and
as a JSON pair.  Values are sent as plain ints: ``str`` of a NumPy integer is not a literal the
server accepts.  The board state is ``(player to move, cell, cell, ...)``, cells row-major."""
import ast
import warnings

from protocols.common import ProtocolError, check_point


def format_action(point, size: int) -> str:
    """'(r, c)' for generation A (bare text)."""
    point = check_point(point, size)
    if point is None:
        raise ProtocolError("hex has no pass")
    return str((int(point[0]), int(point[1])))


def parse_action(text: str, size: int):
    """(row, col) from '(r, c)' or '[r, c]'; ProtocolError otherwise."""
    try:
        with warnings.catch_warnings():  # odd text makes the compiler warn on stderr
            warnings.simplefilter("ignore")
            value = ast.literal_eval(text.strip()) if isinstance(text, str) else None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = None
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ProtocolError(f"bad action {str(text)[:40]!r}: expected (row, col)")
    return check_point(tuple(value), size)
