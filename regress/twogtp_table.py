"""gogui-twogtp's result table (``PREFIX.dat``) and game files (``PREFIX-N.sgf``), as ``plies go match
--sgffile PREFIX`` writes them, so a match reads the same as one played by the standard tool (and
``gogui-twogtp -analyze PREFIX.dat`` reads ours).

The format, as GoGui 1.5 / 1.6 writes and reads it (``twogtp/ResultFile.java``, ``util/Table.java``,
``twogtp/Analyze.java``; checked by reading them, no code taken):

    # Black: GNU Go                      <- properties, "# KEY: VALUE", sorted by key (a TreeMap)
    # BlackCommand: gnugo --mode gtp
    ...
    # Xml: 0
    #                                    <- an empty comment ends the properties
    #GAME\tRES_B\tRES_W\tRES_R\tALT\tDUP\tLEN\tTIME_B\tTIME_W\tCPU_B\tCPU_W\tERR\tERR_MSG
    0\tB+3.5\tB+3.5\tB+3.5\t0\t-\t63\t12.3\t10\t0\t0\t0\t
    1\tW+R\tW+R\tW+R\t1\t-\t120\t...

Data: one row per game, tab-separated, in the column order of the header (a reader finds columns by
their title).  ``GAME`` is the game's index from 0 (our game number - 1), the name of its file
``PREFIX-GAME.sgf``.  "Black" and "White" of the properties and of the ``_B`` / ``_W`` columns are
the two *engines* (twogtp's ``-black`` and ``-white``: our A and B), not the colours: ``ALT`` is 1 in
a game where they exchanged colours (B played Black), and the results of such a game are written
with B and W exchanged, so ``B+`` always means engine A won.  ``RES_B`` / ``RES_W`` are each engine's
own ``final_score`` (``?`` when it has none), ``RES_R`` the referee's result (ours); a resignation
is ``B+R`` / ``W+R`` in all three.  ``DUP`` is ``-``, or the index of an earlier game with the same
moves in one of the board's 8 symmetries (with ``?`` appended when fewer than a fifth of the moves
differ), compared with the games where A had the same colour.  ``LEN`` is the number of moves
(passes included); ``TIME_*`` the engine's wall seconds over its genmoves, ``CPU_*`` its CPU seconds
by GTP ``cputime`` (0 when it does not know it), both with at most one decimal.  ``ERR`` is 1 for a
game that ended because an engine failed (an illegal move, a refused command, a crash: twogtp stops
such a game with an error), with the reason in ``ERR_MSG``; the analyzer leaves those games out of
its statistics.  A loss on time is a result (``B+T``), ``ERR`` 0.
"""
import datetime
import platform
import socket
from pathlib import Path

COLUMNS = ("GAME", "RES_B", "RES_W", "RES_R", "ALT", "DUP", "LEN", "TIME_B", "TIME_W", "CPU_B", "CPU_W",
           "ERR", "ERR_MSG")
UNKNOWN = "?"
NO_DUPLICATE = "-"


class TableError(ValueError):
    """A .dat file that cannot be read or does not fit the match: the one-line reason."""


def dat_path(prefix: str) -> Path:
    return Path(f"{prefix}.dat")


def sgf_path(prefix: str, index: int) -> Path:
    """twogtp's name of game ``index`` (from 0)."""
    return Path(f"{prefix}-{index}.sgf")


def decimal(seconds: float) -> str:
    """Seconds as Java's NumberFormat with at most one fraction digit and no grouping: 12.3, 10, 0."""
    text = f"{seconds:.1f}"
    return text[:-2] if text.endswith(".0") else text


def swapped(result: str) -> str:
    """A result with the colours exchanged (twogtp's inverseResult: B+3 <-> W+3; ?, 0 unchanged)."""
    if "B" in result:
        return result.replace("B", "W")
    if "W" in result:
        return result.replace("W", "B")
    return result


def one_line(text: str) -> str:
    """A table cell: no tab or newline may appear inside it."""
    return " ".join(text.split())


def today() -> str:
    """The date as twogtp writes it (Java's long date-time, English): 'November 27, 2026 1:34:57 PM UTC'."""
    now = datetime.datetime.now().astimezone()
    return f"{now:%B} {now.day}, {now.year} {now.hour % 12 or 12}:{now:%M:%S %p %Z}"


def host() -> str:
    """The host as twogtp writes it: the host name and the processor's model name."""
    name = socket.gethostname() or UNKNOWN
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith("model name") and ":" in line:
                    return f"{name} ({line.split(':', 1)[1].strip()})"
    except OSError:
        pass
    model = platform.processor()
    return f"{name} ({model})" if model else name


def labels(names: dict, versions: dict) -> dict:
    """twogtp's labels: an engine's name when the other has another name, else name:version (when the
    version is short), else name[1] / name[2]."""
    result = {}
    keys = list(names)
    for i, key in enumerate(keys):
        name, version = names[key], versions.get(key, "").strip()
        if all(names[other] != name for other in keys if other != key):
            result[key] = name
        elif version and len(version) <= 40:
            result[key] = f"{name}:{version}"
        else:
            result[key] = f"{name}[{i + 1}]"
    return result


def header(properties: dict) -> str:
    """The properties (sorted by key as twogtp's TreeMap), the empty comment and the column titles."""
    lines = [f"# {key}: {one_line(str(properties[key]))}" for key in sorted(properties)]
    return "\n".join(lines) + "\n#\n#" + "\t".join(COLUMNS) + "\n"


def row(values: dict) -> str:
    """One game's line: the cells in the order of COLUMNS (a missing cell is empty)."""
    return "\t".join(one_line(str(values.get(column, ""))) for column in COLUMNS) + "\n"


def read(path) -> tuple[dict, list, list]:
    """(properties, column titles, rows as {title: text}) of a .dat, read as twogtp's Table does: each
    line trimmed; ``#`` lines are properties until an empty ``#``, then the column titles; a row's
    cells split at tabs (trailing empty cells dropped, missing cells absent)."""
    properties, columns, rows = {}, [], []
    titles_next = False
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line.startswith("#"):
            comment = line[1:].strip()
            if titles_next:
                columns.extend(comment.split("\t"))
            elif not comment:
                titles_next = True
            elif ":" in comment:
                key, value = comment.split(":", 1)
                properties[key.strip()] = value.strip()
            continue
        cells = line.split("\t")
        while cells and cells[-1] == "":
            cells.pop()
        if len(cells) > len(columns):
            raise TableError(f"{path}: line {number} has more cells than the {len(columns)} columns")
        rows.append(dict(zip(columns, cells)))
    return properties, columns, rows


def symmetries(size: int):
    """The 8 maps of a point (row, col) of a size x size board onto itself."""
    last = size - 1
    return (lambda r, c: (r, c), lambda r, c: (c, last - r), lambda r, c: (last - r, last - c),
            lambda r, c: (last - c, r), lambda r, c: (r, last - c), lambda r, c: (last - r, c),
            lambda r, c: (c, r), lambda r, c: (last - c, last - r))


def duplicate(moves: list, earlier: dict, size: int, alternate: bool, exchanged: bool) -> str:
    """DUP of a game: ``moves`` is its (colour, point or None for a pass) list, ``earlier`` maps the
    index of each earlier game to its moves.  The index of the first earlier game equal to this one
    in some symmetry, else the index of the last one with fewer than len(moves) // 5 differences
    (moves compared by number, the difference in length counted too) followed by ``?``, else ``-``.
    With ``alternate``, only games where the engines had the same colours are compared."""
    near = NO_DUPLICATE
    allowed = len(moves) // 5
    for index in sorted(earlier):
        if alternate and (index % 2 == 1) != exchanged:
            continue
        other = earlier[index]
        for transform in symmetries(size):
            differences = abs(len(other) - len(moves))
            for (colour, point), (other_colour, other_point) in zip(moves, other):
                if differences > allowed:
                    break
                mapped = None if other_point is None else transform(*other_point)
                differences += colour != other_colour or point != mapped
            if differences == 0:
                return str(index)
            if differences < allowed:
                near = f"{index}?"
    return near
