"""The Hex dialect of GTP that HexGui and MoHex (benzene) speak: cells, special moves, board size
arguments, the board drawing of ``showboard`` and the result text of ``final_score``.

A cell is a column letter and a row number counted from 1 at the TOP, ``a1`` being the top-left
corner: benzene names cell (x, y) ``'a' + x`` followed by ``y + 1`` (HexPoint.cpp), letters
a..z with no letter skipped (Go's GTP skips ``i``; Hex does not).  Case does not matter, leading
zeros are refused (benzene compares the whole name).  In the board view (protocols/common.py)
cell ``a1`` is (row 0, col 0) and ``c2`` is (row 1, col 2).

Black moves first and joins the top and bottom rows (benzene: FIRST_TO_PLAY = VERTICAL_COLOR =
BLACK, NORTH the edge of row 1); white joins the left and right columns.  Besides cells a move can
be ``swap-pieces`` (the second player takes the first stone: the board stays as it is and white
moves again) or ``resign``.
"""
from protocols.common import ProtocolError, check_point, parse_int
from protocols.gtp import parse_colour  # b/w/black/white in any case -> 0 (black) / 1 (white)

LETTERS = "abcdefghijklmnopqrstuvwxyz"  # every letter, i included
SWAP = "swap-pieces"
RESIGN = "resign"
SPECIAL_MOVES = (SWAP, RESIGN)
COLOUR_NAMES = ("black", "white")       # how benzene writes colours in its messages
RESULTS = ("B+", "W+")                   # final_score of a black or a white win
NO_RESULT = "cannot score"               # final_score while nobody has won (benzene's text)
USAGES = {  # the commands that take arguments -> (the least number of them, the usage an error shows)
    "boardsize": (1, "boardsize N (or boardsize N N)"), "play": (2, "play b|w CELL"),
    "genmove": (1, "genmove b|w"), "reg_genmove": (1, "reg_genmove b|w"),
}

__all__ = ["parse_colour", "parse_cell", "parse_move", "format_cell", "parse_boardsize", "format_board",
           "format_result", "SWAP", "RESIGN", "COLOUR_NAMES", "USAGES"]


def parse_cell(text: str, size: int) -> tuple[int, int]:
    """(row, col) of a cell name such as 'a1' or 'C10' on a size x size board; ProtocolError
    for a name that is no cell or is off the board."""
    t = text.lower() if isinstance(text, str) else ""
    digits = t[1:]
    if (len(t) < 2 or t[0] not in LETTERS or not digits.isascii() or not digits.isdigit()
            or digits[0] == "0"):
        raise ProtocolError(f"invalid cell: {text!r} (a column letter and a row number from 1, e.g. a1)")
    col = LETTERS.index(t[0])
    row = int(digits) - 1 if len(digits) <= 3 else size  # a long number is off every board
    if col >= size or row >= size:
        last = f"{LETTERS[size - 1]}{size}" if size <= len(LETTERS) else "?"
        raise ProtocolError(f"cell {t} is off the {size}x{size} board (a1..{last})")
    return row, col


def parse_move(text: str, size: int):
    """A cell as (row, col), or one of SPECIAL_MOVES as its name (any case)."""
    t = text.lower() if isinstance(text, str) else ""
    if t in SPECIAL_MOVES:
        return t
    return parse_cell(text, size)


def format_cell(point, size: int) -> str:
    """The name of a cell (row, col): 'a1' for (0, 0)."""
    point = check_point(point, size)
    if point is None or size > len(LETTERS):
        raise ProtocolError(f"{point!r} has no cell name on a {size}x{size} board")
    row, col = point
    return f"{LETTERS[col]}{row + 1}"


def parse_boardsize(args: list[str]) -> int:
    """The size of 'boardsize N' or 'boardsize N N' (HexGui sends width and height); ProtocolError
    for anything else, non-square boards included."""
    if not 1 <= len(args) <= 2:
        raise ProtocolError("boardsize N (or boardsize N N)")
    sizes = [parse_int(arg, "board size", low=1) for arg in args]
    if len(sizes) == 2 and sizes[0] != sizes[1]:
        raise ProtocolError(f"only square boards are supported, got {sizes[0]}x{sizes[1]}")
    return sizes[0]


def format_board(cells, status: str = "") -> str:
    """The board as benzene's showboard draws it (StoneBoard::Write without the hash line): rows
    shifted right one step each, B black, W white, . empty, coordinates on all sides; then status.
    cells: rows from the top of 0 empty, 1 black, 2 white."""
    n = len(cells)
    letters = "  ".join(LETTERS[c] for c in range(n))
    lines = ["  " + letters]
    for r in range(n):
        row = "  ".join(".BW"[int(v)] for v in cells[r])
        lines.append(" " * r + f"{r + 1:>2}\\" + row + f"\\{r + 1}")
    lines.append(" " * (n + 3) + letters)
    if status:
        lines.append(status)
    return "\n" + "\n".join(lines)


def format_result(winner) -> str:
    """final_score: 'B+' or 'W+' for a winner 0 (black) or 1 (white), benzene's 'cannot score'
    for None."""
    return NO_RESULT if winner is None else RESULTS[winner]
