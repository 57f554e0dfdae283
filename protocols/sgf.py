"""SGF (Smart Game Format, FF[4]) game records of Go, read and written with sgfmill.

A record is a plain value (``GameRecord``): the board size, komi, the handicap count (HA), the
setup stones of the root and of later setup nodes (AB/AW; handicap stones are black setup stones),
the moves of the main line as ``(colour, point)`` with colour 0 black / 1 white and point
``(row, col)`` in the board view of protocols/common.py (row 0 the TOP row) or None for a pass, and
the result text (RE) when known.  sgfmill counts rows from the bottom; the conversion is here and
nowhere else.  Setup stones met after the first move (AB/AW/AE in a later node) are not supported:
ProtocolError, since the engine's history could not replay them.

This module never imports the engine (protocols/ speaks plain values).
"""
import math
from dataclasses import dataclass, field

from sgfmill import sgf

from protocols.common import ProtocolError

MIN_SIZE, MAX_SIZE = 2, 19   # what the engine plays (sgfmill reads up to 26)


@dataclass
class GameRecord:
    """A Go game as SGF holds it, in the board view (row 0 at the top)."""
    size: int = 19
    komi: float = 0.0
    handicap: int = 0                                  # HA: the number of handicap stones (0: none)
    black_setup: list = field(default_factory=list)   # AB points (handicap stones included)
    white_setup: list = field(default_factory=list)   # AW points
    moves: list = field(default_factory=list)         # [(colour 0/1, (row, col) or None for a pass)]
    result: str | None = None                          # RE, e.g. "B+3.5" (None: not recorded)
    players: tuple = (None, None)                      # PB, PW names
    to_move: int | None = None                         # PL of the root (None: not recorded)


def _to_view(size: int, point):
    if point is None:
        return None
    row, col = point
    return size - 1 - row, col


def _to_sgf(size: int, point):
    if point is None:
        return None
    row, col = point
    if not (0 <= row < size and 0 <= col < size):
        raise ProtocolError(f"({row}, {col}) is not a point of a {size}x{size} board")
    return size - 1 - row, col


def _raw(node, identifier: str) -> str:
    """A property's value as the file wrote it (for error messages)."""
    return node.get_raw(identifier).decode("utf-8", "replace")


def _read(node, identifier: str, what: str, expected: str = "valid"):
    """A property's value; ProtocolError naming it when sgfmill cannot read it (no Python text)."""
    try:
        return node.get(identifier)
    except ValueError:
        raise ProtocolError(f"{what} {identifier}[{_raw(node, identifier)}] is not {expected}") from None


def parse_sgf(text, up_to: int | None = None) -> GameRecord:
    """The record of the main line of SGF text (str or bytes).  ``up_to``: keep the moves before
    move number up_to (GTP loadsgf's move_number: the position before that move; None: all moves).
    ProtocolError for text that is no SGF game of Go on a 2..19 board, and for a property the
    record cannot hold, naming it: a komi that is no finite number, a handicap outside
    0..size*size-1, a point off the board, a point set up as both colours."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as err:
        raise ProtocolError(f"cannot read the SGF: {err}") from None
    root = game.get_root()
    try:
        size = game.get_size()
    except ValueError:
        raise ProtocolError(f"the board size SZ[{_raw(root, 'SZ')}] is not valid") from None
    if root.has_property("GM") and _read(root, "GM", "the game") != 1:
        raise ProtocolError(f"the SGF is no Go game (GM[{root.get('GM')}])")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ProtocolError(f"board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    komi = float(_read(root, "KM", "the komi", "a number")) if root.has_property("KM") else 0.0
    if not math.isfinite(komi):
        raise ProtocolError(f"the komi KM[{_raw(root, 'KM')}] is not a finite number")
    handicap = _read(root, "HA", "the handicap", "a number") if root.has_property("HA") else 0
    if not 0 <= handicap < size * size:
        raise ProtocolError(f"the handicap HA[{_raw(root, 'HA')}] is not a number of stones in "
                            f"0..{size * size - 1}")
    record = GameRecord(size=size, komi=komi, handicap=int(handicap))
    try:
        if root.has_property("RE"):
            record.result = root.get("RE")
        record.players = (game.get_player_name("b"), game.get_player_name("w"))
    except ValueError:
        pass  # a name or result that does not decode is not needed to play
    if root.has_property("PL"):
        record.to_move = 0 if _read(root, "PL", "the player to move") == "b" else 1
    moved = False
    for node in game.get_main_sequence():
        for identifier in ("AB", "AW", "AE"):
            try:
                node.get(identifier) if node.has_property(identifier) else None
            except ValueError:
                values = "][".join(v.decode("utf-8", "replace") for v in node.get_raw_list(identifier))
                raise ProtocolError(f"the setup {identifier}[{values}] holds a point off the {size}x{size} "
                                    "board") from None
        if node.has_setup_stones():
            black, white, empty = node.get_setup_stones()
            if moved or empty:
                raise ProtocolError("setup stones after the first move (or AE) are not supported")
            record.black_setup += sorted(_to_view(size, p) for p in black)
            record.white_setup += sorted(_to_view(size, p) for p in white)
            both = set(record.black_setup) & set(record.white_setup)
            if both or len(set(record.black_setup)) < len(record.black_setup) \
                    or len(set(record.white_setup)) < len(record.white_setup):
                raise ProtocolError("a point is set up twice (AB and AW on the same point)")
        try:
            colour, point = node.get_move()
        except ValueError:
            identifier = "B" if node.has_property("B") else "W"
            raise ProtocolError(f"move {len(record.moves) + 1}: {identifier}[{_raw(node, identifier)}] "
                                f"is not a point of a {size}x{size} board") from None
        if colour is None:
            continue
        if up_to is not None and len(record.moves) + 1 >= up_to:
            break
        moved = True
        record.moves.append((0 if colour == "b" else 1, _to_view(size, point)))
    return record


def format_sgf(record: GameRecord, application: str = "plies") -> str:
    """The SGF text of a record (FF[4], GM[1], SZ, KM, HA, AB/AW in the root, the moves, RE)."""
    size = record.size
    game = sgf.Sgf_game(size=size)
    root = game.get_root()
    root.set("AP", (application, "1"))
    root.set("KM", float(record.komi))
    root.set("RU", "Chinese")
    if record.handicap:
        root.set("HA", int(record.handicap))
    if record.black_setup or record.white_setup:
        root.set_setup_stones([_to_sgf(size, p) for p in record.black_setup],
                              [_to_sgf(size, p) for p in record.white_setup])
    if record.to_move is not None:
        root.set("PL", "bw"[record.to_move])
    for colour, name in zip("bw", record.players):
        if name:
            root.set("P" + colour.upper(), name)
    if record.result:
        root.set("RE", record.result)
    for colour, point in record.moves:
        game.extend_main_sequence().set_move("bw"[colour], _to_sgf(size, point))
    return game.serialise().decode("utf-8")
