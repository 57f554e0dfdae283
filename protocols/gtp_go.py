"""What GTP Go controllers read beyond the GTP core (protocols/gtp.py): moves as GNU Go and Leela
Zero write them, the Go5 course engine's lenient vertices (``parse_go5_vertex``), the board drawing of ``showboard``, the analysis lines of ``lz-analyze``
(Sabaki, Lizzie) and the ``gogui-gfx`` text of GoGui's analysis commands, and the usage of each command that takes arguments.

Points are ``(row, col)`` of the board view (row 0 at the top; protocols/common.py); a pass is
None.  Win rates are probabilities in [0, 1] for the player to move; ownership is in [-1, 1], +1
Black.  Nothing here imports the engine.
"""
import sys
from dataclasses import dataclass, field

from protocols.common import PASS, ProtocolError, parse_float, parse_int
from protocols.gtp import COLUMNS, InvalidPoint, OffBoard, format_vertex, parse_colour, parse_vertex

__all__ = ["format_move", "format_board", "AnalysisLine", "format_info", "parse_lz_analyze",
           "format_gfx", "format_handicap", "fixed_handicap_points", "parse_go5_vertex", "USAGES", "GO5_USAGES",
           "parse_time_settings", "parse_time_left", "parse_status",
           "ANALYZE_COMMANDS", "format_heat_map", "format_variation", "format_ownership", "parse_vertex_list"]


USAGES = {  # the GTP Go commands that take arguments -> (the least number of them, the usage an error shows)
    "boardsize": (1, "boardsize SIZE"), "komi": (1, "komi FLOAT"), "play": (2, "play COLOUR VERTEX"),
    "genmove": (1, "genmove COLOUR"), "reg_genmove": (1, "reg_genmove COLOUR"),
    "kgs-genmove_cleanup": (1, "kgs-genmove_cleanup COLOUR"),
    "final_status_list": (1, "final_status_list alive|dead|seki"),
    "time_settings": (3, "time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES"),
    "time_left": (3, "time_left COLOUR TIME STONES"),
    "kgs-time_settings": (1, ("kgs-time_settings none|absolute MAIN|byoyomi MAIN PERIOD PERIODS|canadian MAIN "
                              "PERIOD STONES")),
    "loadsgf": (1, "loadsgf FILE [MOVE_NUMBER]"),
    "set_free_handicap": (2, "set_free_handicap VERTEX VERTEX ..."),
    "place_free_handicap": (1, "place_free_handicap STONES"), "fixed_handicap": (1, "fixed_handicap STONES"),
}
GO5_USAGES = {  # Go5's commands that take arguments -> (the least number of them, Go5's usage text)
    "boardsize": (1, "boardsize INT"), "komi": (1, "komi FLOAT"), "play": (2, "play {b,w} MOVE"),
    "genmove": (1, "genmove {w,b}"), "legal_moves": (1, "legal_moves {w,b}"),
    "set_free_handicap": (1, "set_free_handicap MOVE (e.g. A4)"),
    "num_total_sim": (1, "num_total_sim #(e.g. num_total_sim 100 )"),
    "in_tree_knowledge": (1, "in_tree_knowledge p r o b a b i l i s t i c"),
    "selfatari": (1, "selfatari INT"), "use_pattern": (1, "use_pattern INT"),
    "random_simulation": (1, "random_simulation INT"), "use_ucb": (1, "use_ucb INT"),
    "known_command": (1, "known_command CMD_NAME"),
}
STATUSES = ("alive", "dead", "seki")   # final_status_list's kinds
ANALYZE_COMMANDS = "\n".join((  # plies-gtp's analysis menu for GoGui: "type/label/command" lines
    "gfx/Win rate and visits/plies-heatmap %c",
    "gfx/Principal variation/plies-pv %c",
    "gfx/Ownership/plies-ownership",
    "plist/Dead stones/final_status_list dead",
    "plist/Seki stones/final_status_list seki",
    "string/Final score/final_score",
))


def parse_time_settings(args) -> tuple[float, float, int]:
    """time_settings' (main time, byo-yomi time, byo-yomi stones)."""
    main, byo = parse_float(args[0], "main time"), parse_float(args[1], "byo-yomi time")
    return main, byo, parse_int(args[2], "byo-yomi stones", low=0)


def parse_time_left(args) -> tuple[int, float, int]:
    """time_left's (colour, seconds, stones)."""
    return parse_colour(args[0]), parse_float(args[1], "time"), parse_int(args[2], "stones", low=0)


def parse_status(text: str) -> str:
    """final_status_list's kind: alive, dead or seki."""
    if text.lower() not in STATUSES:
        raise ProtocolError(f"final_status_list: alive, dead or seki, got {text!r}")
    return text.lower()

def format_move(point, size: int) -> str:
    """A move as GNU Go writes it: 'D4' (upper case), 'pass'."""
    return "pass" if point is PASS else format_vertex(point, size).upper()


def format_board(cells, captures=(0, 0), to_move: int = 0, komi: float = 0.0) -> str:
    """showboard: a newline, then the board with column letters and row numbers, X black, O
    white; then captures, komi and the player to move."""
    n = len(cells)
    letters = "   " + " ".join(c.upper() for c in COLUMNS[:n])
    lines = [letters]
    for i, row in enumerate(cells):
        lines.append(f"{n - i:2d} " + " ".join(".XO"[int(v)] for v in row) + f" {n - i}")
    lines.append(letters)
    lines.append(f"captured: black {captures[0]} white {captures[1]}; komi {komi:g}; "
                 f"{('black', 'white')[to_move]} to move")
    return "\n" + "\n".join(lines)


@dataclass
class AnalysisLine:
    """One candidate move of lz-analyze: its visits, the win rate for the player to move after
    ``move`` is played by it, the prior, and the principal variation starting with move."""
    move: object          # (row, col) or PASS
    visits: int
    winrate: float        # 0..1
    prior: float = 0.0    # 0..1
    pv: list = field(default_factory=list)


def format_info(lines, size: int) -> str:
    """Leela Zero's lz-analyze line: 'info move D4 visits 120 winrate 5234 prior 1000 lcb 5100
    order 0 pv D4 Q16 info move ...' (win rates and priors in 1/10000; moves by visits)."""
    parts = []
    for order, line in enumerate(sorted(lines, key=lambda e: -e.visits)):
        winrate = int(round(min(max(line.winrate, 0.0), 1.0) * 10000))
        prior = int(round(min(max(line.prior, 0.0), 1.0) * 10000))
        pv = " ".join(format_move(p, size) for p in (line.pv or [line.move]))
        parts.append(f"info move {format_move(line.move, size)} visits {int(line.visits)} winrate {winrate} "
                     f"prior {prior} lcb {winrate} order {order} pv {pv}")
    return " ".join(parts)


def parse_lz_analyze(args: list, to_move: int) -> tuple[int, int]:
    """(colour, interval in centiseconds) of 'lz-analyze' / 'lz-genmove_analyze' arguments in Leela
    Zero's grammar (Sabaki and Lizzie send 'lz-analyze B 50' or 'lz-analyze 50'): in any order a
    colour (b, w, black, white), an interval (a bare integer or 'interval N'), 'minmoves N',
    'maxmoves N', and 'avoid|allow COLOUR VERTEX,VERTEX,... UNTIL_MOVE'.  The keywords are read
    and ignored (the search considers every move); anything else is a ProtocolError, as Leela Zero
    answers 'cannot parse analyze tags'.  No interval: 0 (one line at the end)."""
    colour, interval, rest = to_move, 0, list(args)

    def number(keyword: str) -> int:
        if not rest:
            raise ProtocolError(f"cannot parse analyze tags: {keyword} needs a number")
        return parse_int(rest.pop(0), keyword, low=0)

    while rest:
        word = rest.pop(0)
        lower = word.lower()
        if lower in ("b", "w", "black", "white"):
            colour = parse_colour(word)
        elif word.isascii() and word.isdigit():
            interval = parse_int(word, "interval", low=0)
        elif lower == "interval":
            interval = number("interval")
        elif lower in ("minmoves", "maxmoves"):
            number(lower)
        elif lower in ("avoid", "allow"):
            if len(rest) < 3:
                raise ProtocolError(f"cannot parse analyze tags: {lower} COLOUR VERTICES UNTIL_MOVE")
            parse_colour(rest.pop(0))
            for vertex in rest.pop(0).split(","):
                if vertex.lower() != "resign":
                    parse_vertex(vertex, len(COLUMNS))  # the syntax only: the size is the session's
            number(f"{lower}'s move number")
        else:
            raise ProtocolError(f"cannot parse analyze tags: unknown tag {word!r}")
    return colour, interval


def format_gfx(size: int, influence=None, labels=None, variation=None, text: str = "") -> str:
    """GoGui's gfx text: 'INFLUENCE D4 0.5 ...' (values in [-1, 1]), 'LABEL D4 12 ...', 'VAR b D4
    w Q16 ...' (colour 0/1 and point pairs), 'TEXT ...'; each part on its own line, empty parts left out."""
    out = []
    if influence:
        out.append("INFLUENCE " + " ".join(f"{format_move(p, size)} {max(-1.0, min(1.0, v)):.2f}"
                                          for p, v in influence))
    if labels:
        out.append("LABEL " + " ".join(f"{format_move(p, size)} {label}" for p, label in labels))
    if variation:
        out.append("VAR " + " ".join(f"{'bw'[c]} {format_move(p, size)}" for c, p in variation))
    if text:
        out.append("TEXT " + text)
    return "\n".join(out)


def format_heat_map(size: int, colour: int, value: float, simulations: int, influence, labels, best) -> str:
    """plies-heatmap's gfx: the win rates as influence, the visits as labels, a line of text (``best``:
    the most visited candidate, its point first, or None)."""
    text = (f"{('black', 'white')[colour]} to move: win rate {value:.3f}, {simulations} simulations"
            + (f", best {format_move(best[0], size)}" if best else ""))
    return format_gfx(size, influence=influence, labels=labels, text=text)


def format_variation(size: int, colour: int, value: float, points) -> str:
    """plies-pv's gfx: the principal variation (points, colour first) and its win rate."""
    variation = [((colour + i) % 2, p) for i, p in enumerate(points)]
    return format_gfx(size, variation=variation, text=f"win rate {value:.3f} for {('black', 'white')[colour]}")


def format_ownership(ownership) -> str:
    """plies-ownership's gfx: an (n, n) array of ownership in [-1, 1] (+1 Black) as influence."""
    n = len(ownership)
    return format_gfx(n, influence=[((r, c), float(ownership[r][c])) for r in range(n) for c in range(n)])


def parse_vertex_list(args, size: int) -> list:
    """set_free_handicap's vertices: distinct points, no pass, fewer than the board's points."""
    points = [parse_vertex(a, size) for a in args]
    if PASS in points or len(set(points)) != len(points) or len(points) >= size * size:
        raise ProtocolError("bad vertex list")
    return points


def fixed_handicap_points(size: int, stones: int) -> list:
    """GTP 2's fixed_handicap placement (section 4.1.1: on 19x19 D4 Q16 D16 Q4 D10 Q10 K4 K16 K10,
    the centre stone for odd counts from 5) as board-view points.  Sizes 7 and up; at most 4 stones
    on 7x7 and on even sizes, 9 otherwise.  ProtocolError when the size does not allow that many."""
    limit = 0 if size < 7 else 4 if (size == 7 or size % 2 == 0) else 9
    if not 2 <= stones <= limit:
        raise ProtocolError(f"invalid handicap {stones} on {size}x{size} (2..{limit})" if limit
                            else f"no fixed handicap on {size}x{size}")
    d = 2 if size < 13 else 3
    lo, hi, mid = d, size - 1 - d, size // 2
    # (row from the bottom, col from the left), in GTP's order
    order = [(lo, lo), (hi, hi), (hi, lo), (lo, hi), (mid, lo), (mid, hi), (lo, mid), (hi, mid)]
    chosen = order[:stones] if stones <= 4 or stones % 2 == 0 else order[:stones - 1] + [(mid, mid)]
    return [(size - 1 - r, c) for r, c in chosen]


def format_handicap(points, size: int) -> str:
    """The vertices of a handicap placement, space separated."""
    return " ".join(format_move(p, size) for p in points)


def parse_go5_vertex(text: str, size: int):
    """Go5's vertex rule (spec 1.2): 'pass' in any case, or a column letter (no 'i') followed by
    anything Python's int() reads as a row >= 1 ('a01', 'a+3', non-ASCII digits), as (row, col)
    of the board view.  InvalidPoint / OffBoard with the lowercased text otherwise."""
    t = text.lower()
    if t == "pass":
        return PASS
    if not t or t[0] not in COLUMNS:
        raise InvalidPoint(f"invalid point: '{t}'")
    digits = t[1:]
    try:
        row = int(digits)
    except ValueError:  # not an integer, or more digits than int() converts (leading zeros count)
        significant = digits.lstrip("0")
        if not (digits.isascii() and digits.isdigit() and significant):
            raise InvalidPoint(f"invalid point: '{t}'") from None
        row = int(significant) if len(significant) <= sys.get_int_max_str_digits() else size + 1
    if row < 1:
        raise InvalidPoint(f"invalid point: '{t}'")
    col = COLUMNS.index(t[0])
    if col >= size or row > size:
        raise OffBoard(f"point is off board: '{t}'")
    return size - row, col
