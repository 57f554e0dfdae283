"""Go5 move-feature weights: the self-describing weights file and the 3x3 pattern table.

File format (one entry per line, nothing else in the file):
    <index> <weight> <key>
separated by single spaces, exactly NUM_FEATURES = 1080 lines with index 0..1079 in ascending order;
<weight> is the decimal text of a finite IEEE double > 0; <key> is the basic feature's name
(BASIC_NAMES, in that order) for indices 0..25 and the 9-character canonical 3x3 pattern for
26..1079.  The final line may or may not end with a newline; blank lines, comments, carriage returns,
tabs and extra spaces are errors.  Every error is a ValueError naming the file and the line.

Pattern strings.  A 3x3 neighbourhood is read row by row, the SOUTH row (row - 1) first, each row
west to east, one character per cell: ``X`` a stone of the player to move, ``O`` an opponent stone,
``.`` empty, ``#`` off the board.  The centre is always ``.``.  Its canonical form is the smallest
string in ASCII order (``#`` < ``.`` < ``O`` < ``X``) among its 16 images: the 8 symmetries of the
square, each with or without swapping X and O.

Pattern table.  The centre being empty, a neighbourhood is coded by its 8 other cells in reading
order as a base-4 number, the first cell the most significant digit, with the digits
``#`` 0, ``.`` 1, ``O`` 2, ``X`` 3 (``pattern_code``): PATTERN_CODES = 4**8 = 65536 codes.
``GoWeights.table[code]`` is the feature index of the neighbourhood's class, or -1 when it has none;
it is built by expanding every key to its 16 images (the course weights give 15,828 codes with a
feature).
"""
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

BASIC_NAMES = (
    "FE_PASS_NEW", "FE_PASS_CONSECUTIVE", "FE_CAPTURE", "FE_ATARI_KO", "FE_ATARI_OTHER", "FE_SELF_ATARI",
    "FE_LINE_1", "FE_LINE_2", "FE_LINE_3",
    "FE_DIST_PREV_2", "FE_DIST_PREV_3", "FE_DIST_PREV_4", "FE_DIST_PREV_5", "FE_DIST_PREV_6",
    "FE_DIST_PREV_7", "FE_DIST_PREV_8", "FE_DIST_PREV_9",
    "FE_DIST_PREV_OWN_0", "FE_DIST_PREV_OWN_2", "FE_DIST_PREV_OWN_3", "FE_DIST_PREV_OWN_4",
    "FE_DIST_PREV_OWN_5", "FE_DIST_PREV_OWN_6", "FE_DIST_PREV_OWN_7", "FE_DIST_PREV_OWN_8",
    "FE_DIST_PREV_OWN_9",
)
NUM_BASIC = len(BASIC_NAMES)          # 26
NUM_PATTERNS = 1054                   # pattern classes, features NUM_BASIC .. NUM_FEATURES - 1
NUM_FEATURES = NUM_BASIC + NUM_PATTERNS  # 1080
# the basic features by name (indices into the weights)
(FE_PASS_NEW, FE_PASS_CONSECUTIVE, FE_CAPTURE, FE_ATARI_KO, FE_ATARI_OTHER, FE_SELF_ATARI,
 FE_LINE_1, FE_LINE_2, FE_LINE_3) = range(9)
FE_DIST_PREV_2 = 9        # FE_DIST_PREV_d = FE_DIST_PREV_2 + d - 2, d = 2..9
FE_DIST_PREV_OWN_0 = 17
FE_DIST_PREV_OWN_2 = 18   # FE_DIST_PREV_OWN_d = FE_DIST_PREV_OWN_2 + d - 2, d = 2..9

PATTERN_ALPHABET = "#.OX"  # digit values 0..3, also the ASCII order of the symbols
PATTERN_CODES = 4 ** 8     # table entries: the 8 cells around an empty centre
CENTRE = 4                 # position of the centre in a 9-character pattern string
_DIGIT = {ch: i for i, ch in enumerate(PATTERN_ALPHABET)}
_SWAP = str.maketrans("OX", "XO")
_KEY_RE = re.compile(r"[#.OX]{9}")
_WEIGHT_RE = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INDEX_RE = re.compile(r"0|[1-9][0-9]*")


def _symmetries():
    """The 8 symmetries of the square as permutations of the 9 cells (image[k] = s[perm[k]])."""
    perms = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for r in range(3):
                for c in range(3):
                    rr, cc = r, c
                    for _ in range(turns):  # rotate a quarter turn
                        rr, cc = cc, 2 - rr
                    if flip:
                        cc = 2 - cc
                    perm.append(rr * 3 + cc)
            perms.append(tuple(perm))
    assert len(set(perms)) == 8
    return tuple(perms)


SYMMETRIES = _symmetries()


def images(pattern: str) -> list[str]:
    """The 16 images of a 9-character pattern string (8 symmetries x colour swap; repeats kept)."""
    out = []
    for swap in (False, True):
        s = pattern.translate(_SWAP) if swap else pattern
        for perm in SYMMETRIES:
            out.append("".join(s[i] for i in perm))
    return out


def canonical(pattern: str) -> str:
    """The canonical form of a 9-character pattern string: its smallest image in ASCII order."""
    if not isinstance(pattern, str) or not _KEY_RE.fullmatch(pattern):
        raise ValueError(f"a pattern is 9 characters over '#.OX', got {pattern!r}")
    return min(images(pattern))


def pattern_code(pattern: str) -> int:
    """The table code of a 9-character pattern string with an empty centre."""
    if not isinstance(pattern, str) or not _KEY_RE.fullmatch(pattern) or pattern[CENTRE] != ".":
        raise ValueError(f"a pattern is 9 characters over '#.OX' with '.' in the centre, got {pattern!r}")
    code = 0
    for k, ch in enumerate(pattern):
        if k != CENTRE:
            code = code * 4 + _DIGIT[ch]
    return code


def pattern_string(code: int) -> str:
    """The 9-character pattern string of a table code (inverse of pattern_code)."""
    if not (0 <= code < PATTERN_CODES):
        raise ValueError(f"a pattern code is in [0, {PATTERN_CODES}), got {code!r}")
    cells = []
    for _ in range(8):
        cells.append(PATTERN_ALPHABET[code % 4])
        code //= 4
    cells.reverse()
    return "".join(cells[:CENTRE]) + "." + "".join(cells[CENTRE:])


@dataclass(frozen=True, eq=False)
class GoWeights:
    """Loaded weights: ``weights[index]`` (float64, NUM_FEATURES), ``names[index]`` (the basic
    feature names, then the canonical pattern keys), ``index`` (name or key -> index) and ``table``
    (int32, PATTERN_CODES: feature index of each neighbourhood code, -1 for none)."""
    weights: np.ndarray
    names: tuple
    table: np.ndarray
    index: dict = field(repr=False)
    path: str = ""

    def pattern_feature(self, pattern: str) -> int:
        """The feature index of a 9-character neighbourhood string (any orientation), -1 if none."""
        return int(self.table[pattern_code(pattern)])


def _fail(path, line, what):
    raise ValueError(f"{path}: line {line}: {what}")


def _build_table(path, keys):
    """keys: (index, canonical key, line) -> the pattern table."""
    table = np.full(PATTERN_CODES, -1, dtype=np.int32)
    for idx, key, line in keys:
        for image in set(images(key)):
            code = pattern_code(image)
            if table[code] != -1 and table[code] != idx:  # cannot happen for distinct canonical keys
                _fail(path, line, f"pattern {key!r} overlaps the class of index {int(table[code])}")
            table[code] = idx
    return table


def parse_weights(text: str, path="<weights>") -> GoWeights:
    """Parse the text of a weights file (see the module docstring); ValueError naming the line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line
    weights = np.empty(NUM_FEATURES, dtype=np.float64)
    names = []
    index = {}
    keys = []
    for i, raw in enumerate(lines):
        line = i + 1
        if i >= NUM_FEATURES:
            _fail(path, line, f"extra line: the file must have exactly {NUM_FEATURES} lines")
        if "\r" in raw:
            _fail(path, line, "carriage return (lines must end with a bare newline)")
        if raw.strip() == "":
            _fail(path, line, "blank line")
        if raw.lstrip().startswith("#"):
            _fail(path, line, "comment (the file holds entries only)")
        if raw != raw.strip(" ") or "  " in raw:
            _fail(path, line, "extra spaces (fields are separated by single spaces, none leading or trailing)")
        if any(ch.isspace() and ch != " " for ch in raw):
            _fail(path, line, "whitespace other than single spaces")
        fields = raw.split(" ")
        if len(fields) > 3 and fields[3].startswith("#"):
            _fail(path, line, "comment after the entry (the file holds entries only)")
        if len(fields) != 3:
            _fail(path, line, f"expected 3 fields '<index> <weight> <key>', got {len(fields)}: {raw!r}")
        idx_text, weight_text, key = fields
        if not _INDEX_RE.fullmatch(idx_text):
            _fail(path, line, f"bad index {idx_text!r} (a decimal integer without sign or leading zeros)")
        if int(idx_text) != i:
            _fail(path, line, f"bad index {idx_text}: expected {i} (indices run 0..{NUM_FEATURES - 1} in order)")
        if not _WEIGHT_RE.fullmatch(weight_text):
            _fail(path, line, f"bad weight {weight_text!r} (a decimal number)")
        w = float(weight_text)
        if not (math.isfinite(w) and w > 0.0):
            _fail(path, line, f"bad weight {weight_text!r} (must be finite and > 0)")
        if key in index:
            _fail(path, line, f"duplicate key {key!r} (also on line {index[key] + 1})")
        if i < NUM_BASIC:
            if key != BASIC_NAMES[i]:
                _fail(path, line, f"bad key {key!r}: feature {i} is {BASIC_NAMES[i]}")
        else:
            if len(key) != 9 or any(ch not in PATTERN_ALPHABET for ch in key):
                _fail(path, line, f"bad key characters in {key!r}: a pattern key is 9 characters over '#.OX'")
            if key[CENTRE] != ".":
                _fail(path, line, f"bad key {key!r}: the centre of a pattern must be '.'")
            canon = canonical(key)
            if key != canon:
                _fail(path, line, f"non-canonical key {key!r} (its canonical form is {canon!r})")
            keys.append((i, key, line))
        weights[i] = w
        names.append(key)
        index[key] = i
    if len(lines) != NUM_FEATURES:
        _fail(path, len(lines) + 1, f"wrong count: the file ends after {len(lines)} lines, "
                                    f"expected exactly {NUM_FEATURES}")
    table = _build_table(path, keys)
    return GoWeights(weights=weights, names=tuple(names), table=table, index=index, path=str(path))


def load_weights(path) -> GoWeights:
    """Load a weights file (see the module docstring); ValueError naming the file and the line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the weights file: {exc.strerror or exc}") from None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ValueError(f"{path}: line {line}: a non-ASCII byte") from None
    return parse_weights(text, path)
