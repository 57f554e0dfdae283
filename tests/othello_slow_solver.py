"""A slow, independent exact Othello endgame solver for the tests: plain Python integers as
bitboards (bit r*8 + c, P the mover's discs, O the opponent's), its own move generation and flips
(nothing from engines/), negamax with alpha-beta, fastest-first ordering and a dictionary of
bounds.  Scores are the final disc difference for the mover by a plain disc count (the engine's
rule 0).  Meant to check engines/knowledge/othello/endgame.py on 14-16 empties in seconds, and to
compute (once, offline) the stored values of deeper positions (tests/data/othello_endgames.txt)."""

FULL = (1 << 64) - 1
ORDER_EMPTIES = 6  # positions with more empties sort their moves (the ordering costs more than it saves below)
NOT_A = 0xFEFEFEFEFEFEFEFE   # every column but the first: a shift towards higher columns lands here
NOT_H = 0x7F7F7F7F7F7F7F7F   # every column but the last
# (shift, mask of the squares a disc may land on after it)
DIRECTIONS = ((1, NOT_A), (-1, NOT_H), (8, FULL), (-8, FULL), (9, NOT_A), (7, NOT_H), (-7, NOT_A), (-9, NOT_H))


def _shift(x: int, d: int, mask: int) -> int:
    return ((x << d) & FULL if d > 0 else x >> -d) & mask


def moves(P: int, O: int) -> int:
    """The mover's placements as a bit set."""
    empty = ~(P | O) & FULL
    out = 0
    for d, mask in DIRECTIONS:
        x = _shift(P, d, mask) & O
        for _ in range(5):
            x |= _shift(x, d, mask) & O
        out |= _shift(x, d, mask) & empty
    return out


def flips(square: int, P: int, O: int) -> int:
    """The opponent's discs a placement on square turns over."""
    out = 0
    for d, mask in DIRECTIONS:
        run, x = 0, _shift(1 << square, d, mask)
        while x & O:
            run |= x
            x = _shift(x, d, mask)
        if x & P:
            out |= run
    return out


def squares(bits: int):
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def final_score(P: int, O: int) -> int:
    return bin(P).count("1") - bin(O).count("1")


class SlowSolver:
    """Exact scores by negamax with alpha-beta; ``nodes`` counts the positions visited."""

    def __init__(self):
        self.table = {}   # (P, O) -> (lower, upper, best child): bounds of the exact score
        self.nodes = 0

    def score(self, P: int, O: int) -> int:
        return self.search(P, O, -65, 65)

    def is_exactly(self, P: int, O: int, value: int) -> bool:
        """Whether value is the exact score: a search in the window (value - 1, value + 1), far
        cheaper than a full solve, returns a value strictly inside it only when it is exact."""
        return self.search(P, O, value - 1, value + 1) == value

    def search(self, P: int, O: int, alpha: int, beta: int) -> int:
        """Fail-soft: the exact score when it lies in (alpha, beta), else a bound beyond the window."""
        self.nodes += 1
        mine = moves(P, O)
        if not mine:
            if not moves(O, P):
                return final_score(P, O)
            return -self.search(O, P, -beta, -alpha)
        empties = bin(~(P | O) & FULL).count("1")
        key = (P, O)
        lower, upper, first = self.table.get(key, (-65, 65, None))
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        children = []
        for square in squares(mine):
            f = flips(square, P, O)
            children.append((O ^ f, P ^ f | (1 << square)))
        if len(children) > 1 and empties > ORDER_EMPTIES:  # the table's best first, then fastest first
            children.sort(key=lambda c: -1 if c == first else bin(moves(c[0], c[1])).count("1"))
        best, best_child, a = -65, None, alpha
        for cP, cO in children:
            value = -self.search(cP, cO, -beta, -a)
            if value > best:
                best, best_child = value, (cP, cO)
                if value > a:
                    a = value
                    if a >= beta:
                        break
        if empties > 4:  # near the end a search is cheaper than the table
            if best <= alpha:
                self.table[key] = (lower, best, best_child)
            elif best >= beta:
                self.table[key] = (best, upper, best_child)
            else:
                self.table[key] = (best, best, best_child)
        return best
