"""The Othello opening book (8x8; built under the standard rules): loading it, looking positions up under the board's
8 symmetries, and choosing among the moves within a margin of the best.

Data.  A position is a pair of 64-bit boards (P, O): the discs of the side to move and of its opponent,
bit r*8 + c for the square (row r from the top, column c from the left), as engines/games/othello.py
keeps its bitboards.  Colours do not matter to a book: a position and its colour-swapped twin with the
other side to move are the same key.  The 8 symmetries of the square (identity, the two mirrors, the two
diagonal transposes, the three rotations) map a position to 8 boards; the book stores each position once
under its canonical key, the smallest (P, O) pair among the 8.

The file (weights/othello/book.npz, written by engines/learn/othello/book.py, read with
allow_pickle=False) holds four arrays of one row a position: ``player`` and ``opponent`` (uint64, the
canonical key), ``value`` (float32, discs for the side to move: the book's own negamax over its leaves,
whose values come from a deep alpha-beta search) and ``expanded`` (uint8: 1 when every move of the
position leads to a position the book holds, or ends the game).  The JSON sidecar beside it
(book.json) says how it was made.  Only an expanded position has book moves; a move's value is
minus its successor's (plus, when the opponent must pass; the exact final margin when it ends the game).
"""
import pathlib

import numpy as np

FULL = (1 << 64) - 1
NOT_A = 0xFEFEFEFEFEFEFEFE   # every square but column 0 (a shift east must not wrap into it)
NOT_H = 0x7F7F7F7F7F7F7F7F   # every square but column 7
# (shift, mask after the shift) of the 8 directions: E, W, S, N, SE, SW, NE, NW
DIRECTIONS = ((1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL), (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H))
FORMAT = "plies-othello-book"
DEFAULT_MARGIN = 1.0  # discs: the moves whose value is within this of the best are the book's choices
START = (0x0000000810000000, 0x0000001008000000)  # the start, black to move: (black, white)


# ==== bitboards in Python (a book lookup is a few dozen of them: no compiled kernel needed) ========

def _shift(x: int, d: int, mask: int) -> int:
    return ((x << d) & FULL if d > 0 else x >> -d) & mask


def moves_of(P: int, O: int) -> int:
    """The squares (bits) where the side with discs P can place against O."""
    empty = ~(P | O) & FULL
    found = 0
    for d, mask in DIRECTIONS:
        t = _shift(P, d, mask) & O
        for _ in range(5):
            t |= _shift(t, d, mask) & O
        found |= _shift(t, d, mask) & empty
    return found


def flips_of(square: int, P: int, O: int) -> int:
    """The discs of O that P's placement on square (0..63) turns."""
    x = 1 << square
    turned = 0
    for d, mask in DIRECTIONS:
        run, y = 0, _shift(x, d, mask)
        while y & O:
            run |= y
            y = _shift(y, d, mask)
        if y & P:
            turned |= run
    return turned


def squares(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


# ==== the 8 symmetries ==============================================================================

def flip_vertical(x: int) -> int:
    """Rows reversed (row r -> 7 - r)."""
    return int.from_bytes(x.to_bytes(8, "little"), "big")


_REVERSED_BYTE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def mirror_horizontal(x: int) -> int:
    """Columns reversed (column c -> 7 - c)."""
    return int.from_bytes(x.to_bytes(8, "little").translate(_REVERSED_BYTE), "little")


def transpose(x: int) -> int:
    """(r, c) -> (c, r), by three delta swaps of blocks across the main diagonal."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    x ^= t ^ (t >> 7)
    return x & FULL


def symmetries(x: int) -> list[int]:
    """The 8 images of a board: identity, the 3 rotations' and the 4 reflections' (a fixed order)."""
    v = flip_vertical(x)
    h = mirror_horizontal(x)
    r = mirror_horizontal(v)  # the half turn
    return [x, v, h, r, transpose(x), transpose(v), transpose(h), transpose(r)]


def canonical(P: int, O: int) -> tuple[int, int]:
    """The position's key: the smallest (P, O) among its 8 symmetric images."""
    return min(zip(symmetries(P), symmetries(O)))


def successors(P: int, O: int):
    """Every placement of the side to move: (square, key, sign, final) where key is the canonical
    position that follows with someone to move (None when the game is over), sign is -1 (the opponent
    moves next) or +1 (the opponent must pass: the mover moves again) and final is the exact final
    disc margin for the mover when the game is over (else None)."""
    out = []
    for square in squares(moves_of(P, O)):
        turned = flips_of(square, P, O)
        mine, theirs = P | turned | (1 << square), O & ~turned
        if moves_of(theirs, mine):
            out.append((square, canonical(theirs, mine), -1, None))
        elif moves_of(mine, theirs):
            out.append((square, canonical(mine, theirs), 1, None))
        else:
            out.append((square, None, 1, bin(mine).count("1") - bin(theirs).count("1")))
    return out


# ==== the book ======================================================================================

def shipped_path() -> pathlib.Path:
    """weights/othello/book.npz (installed as package data beside the pattern weights)."""
    import weights
    return pathlib.Path(weights.__file__).resolve().parent / "othello" / "book.npz"


class BookError(ValueError):
    """The book file cannot be read or does not hold a book (the message names the file)."""


class Book:
    """Canonical position -> (value, expanded); ``moves`` lists a position's book moves with their
    values, ``choose`` picks one within a margin of the best."""

    def __init__(self, entries: dict):
        self.entries = entries  # (P, O) canonical -> (value for the side to move, expanded)

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path=None) -> "Book":
        path = pathlib.Path(path) if path is not None else shipped_path()
        try:
            with np.load(path, allow_pickle=False) as data:
                player, opponent = data["player"], data["opponent"]
                value, expanded = data["value"], data["expanded"]
        except (OSError, ValueError, KeyError, EOFError) as e:  # missing, not an npz, an object array, no such array
            raise BookError(f"{path}: not an Othello book ({type(e).__name__}: {e})") from None
        except Exception as e:  # a damaged zip raises zipfile's own errors
            raise BookError(f"{path}: not an Othello book ({type(e).__name__}: {e})") from None
        n = len(player)
        if not (player.dtype == np.uint64 and opponent.dtype == np.uint64 and len(opponent) == n
                and len(value) == n and len(expanded) == n and player.ndim == 1 and value.dtype.kind == "f"):
            raise BookError(f"{path}: not an Othello book (arrays player/opponent uint64, value, expanded of "
                            "one length expected)")
        if not np.all(np.isfinite(value)) or np.any((player & opponent) != 0):
            raise BookError(f"{path}: not an Othello book (a value is not finite or a square holds two discs)")
        return cls({(int(p), int(o)): (float(v), bool(x))
                    for p, o, v, x in zip(player.tolist(), opponent.tolist(), value.tolist(), expanded.tolist())})

    def save(self, path) -> None:
        keys = list(self.entries)
        np.savez_compressed(path, player=np.array([k[0] for k in keys], np.uint64),
                            opponent=np.array([k[1] for k in keys], np.uint64),
                            value=np.array([self.entries[k][0] for k in keys], np.float32),
                            expanded=np.array([self.entries[k][1] for k in keys], np.uint8))

    def moves(self, P: int, O: int, passes: bool = True) -> dict | None:
        """square -> value (discs for the side to move) of every placement of an expanded book
        position (the side to move has P, the opponent O); None when the book has no moves for it.
        ``passes`` False (the game manager's rules, where a side without a placement ends the game
        instead of passing): None also when a move leaves the opponent without a placement."""
        entry = self.entries.get(canonical(P, O))
        if entry is None or not entry[1]:
            return None
        found = {}
        for square, key, sign, final in successors(P, O):
            if sign > 0 and not passes:
                return None  # the book valued this move under the standard rules' pass
            if key is None:
                found[square] = float(final)
                continue
            child = self.entries.get(key)
            if child is None:
                return None  # a book whose expanded position lacks a successor: not used here
            found[square] = sign * child[0]
        return found or None

    def choose(self, P: int, O: int, rng, margin: float = DEFAULT_MARGIN, passes: bool = True):
        """(square, value) of a book move: uniform among the moves within ``margin`` discs of the best
        (rng: a random.Random); None off the book (``passes``: as ``moves``)."""
        found = self.moves(P, O, passes)
        if found is None:
            return None
        best = max(found.values())
        near = sorted(sq for sq, v in found.items() if v >= best - margin)
        square = near[rng.randrange(len(near))] if len(near) > 1 else near[0]
        return square, found[square]
