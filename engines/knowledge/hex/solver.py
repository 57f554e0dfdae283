"""An exact Hex solver: does the player to move win?  (issue 20; small boards and endgames)

A depth-first AND/OR search (negamax on booleans) over engines/games/hex.py states, compiled with
numba.  At each node: a transposition table keyed by the state's Zobrist key (side to move
included); the analysis of engines/knowledge/hex/patterns.py (``analyse``): fill-in of dead and
captured cells, the mover's dominated cells dropped, and virtual connections as cut-offs (the mover
connected: a win; the opponent connected: a loss, without a search); an immediate win first; then
the remaining moves ordered by the connection distance after the move (the opponent's minus the
mover's, engines/knowledge/hex/registered.py), best first, central cells first among equals.

Representation.  The table is two arrays of 2**bits slots: keys (int64) and values (int8: 0 empty,
1 the mover loses, 2 the mover wins), replaced always.  stats int64[4]: nodes searched, the node
budget, 1 when the budget ran out (then nothing more is stored and the answer is void), table hits,
stats[S_FLAGS] chooses the analysis (hex_patterns F_INFERIOR | F_VC).  The search recurses: its depth is the number of empty cells (at most 36 on 6x6).
"""
import time
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.games.hex import HASH, SIZE, TO_MOVE, WINNER, apply
from engines.knowledge.hex.distance import distance
from engines.knowledge.hex.patterns import F_INFERIOR, F_VC, MOVER_CONNECTED, OPPONENT_CONNECTED, analyse
from engines.validate import check_int

S_NODES, S_BUDGET, S_ABORTED, S_HITS, S_FLAGS = 0, 1, 2, 3, 4
LOSS, WIN = 1, 2


@nb.njit(types.boolean(K.STATE, types.int64[::1], types.int8[::1], types.int64[::1]), cache=True)
def mover_wins(s, keys, vals, stats):
    """Does the player to move in s win with perfect play?  Void when stats[S_ABORTED] is set."""
    stats[S_NODES] += 1
    if stats[S_NODES] > stats[S_BUDGET]:
        stats[S_ABORTED] = 1
        return False
    if s[WINNER] >= 0:
        return s[WINNER] == s[TO_MOVE]
    key = s[HASH]
    slot = key & (keys.shape[0] - 1)
    if keys[slot] == key and vals[slot] != 0:
        stats[S_HITS] += 1
        return vals[slot] == WIN
    n = s[SIZE]
    nn = n * n
    p = s[TO_MOVE]
    moves = np.empty(nn, dtype=np.int32)
    count, status = analyse(s, moves, stats[S_FLAGS])
    if status == MOVER_CONNECTED or status == OPPONENT_CONNECTED:
        keys[slot] = key
        vals[slot] = WIN if status == MOVER_CONNECTED else LOSS
        return status == MOVER_CONNECTED
    children = np.empty((count, s.shape[0]), dtype=np.int64)
    score = np.empty(count, dtype=np.float64)
    for i in range(count):
        children[i, :] = s
        apply(children[i], moves[i])
        if children[i, WINNER] == p:
            keys[slot] = key
            vals[slot] = WIN
            return True
        r = moves[i] // n
        c = moves[i] - r * n
        dr = 2 * r - (n - 1)  # twice the offset from the centre, in hex distance (ties: central first)
        dc = 2 * c - (n - 1)
        central = max(abs(dr), abs(dc), abs(dr + dc))
        score[i] = 100.0 * (distance(children[i], 1 - p) - distance(children[i], p)) - central - 1e-3 * i
    order = np.argsort(-score)
    for i in range(count):
        child = children[order[i]]
        reply = mover_wins(child, keys, vals, stats)
        if stats[S_ABORTED]:
            return False
        if not reply:
            keys[slot] = key
            vals[slot] = WIN
            return True
    keys[slot] = key
    vals[slot] = LOSS
    return False


class SolveBudgetExceeded(Exception):
    """The node budget ran out before the answer was proven."""


@dataclass(frozen=True)
class Solved:
    """The answer of HexSolver.solve: the mover wins or not, and the nodes it took."""
    mover_wins: bool
    nodes: int
    seconds: float


class HexSolver:
    """Exact solver for one Hex game (any size; practical up to 6x6 and endgames).  The table is
    kept between calls (``clear()`` forgets it); ``table_bits``: 2**bits slots of 9 bytes."""

    def __init__(self, game, table_bits: int = 22, clock=time.perf_counter, flags: int = F_INFERIOR | F_VC):
        if getattr(game, "name", None) != "hex":
            raise ValueError(f"HexSolver needs a Hex game, got {game!r}")
        self.game = game
        self.table_bits = check_int("table_bits", table_bits, 4, 30)
        self.keys = np.zeros(1 << self.table_bits, dtype=np.int64)
        self.vals = np.zeros(1 << self.table_bits, dtype=np.int8)
        self.clock = clock
        self.flags = check_int("flags", flags, 0, F_INFERIOR | F_VC)  # the analysis (tests switch parts off)

    def clear(self) -> None:
        self.vals[:] = 0

    def solve(self, state, max_nodes: int = 1 << 62) -> Solved:
        """Does the side to move win?  SolveBudgetExceeded after max_nodes nodes."""
        state = np.ascontiguousarray(state, dtype=np.int64)
        if state.shape != self.game.initial_state().shape:
            raise ValueError(f"state does not fit {self.game!r}")
        stats = np.zeros(5, dtype=np.int64)
        stats[S_BUDGET] = check_int("max_nodes", max_nodes, 1)
        stats[S_FLAGS] = self.flags
        started = self.clock()
        win = mover_wins(state.copy(), self.keys, self.vals, stats)
        if stats[S_ABORTED]:
            raise SolveBudgetExceeded(f"no answer within {max_nodes} nodes")
        return Solved(bool(win), int(stats[S_NODES]), self.clock() - started)

    def winning_moves(self, state, max_nodes: int = 1 << 62) -> list[int]:
        """Every move of the side to move that wins (each proven within max_nodes nodes)."""
        wins = []
        for move in self.game.legal_moves(state):
            child = self.game.play(state, move)
            if self.game.is_terminal(child) or not self.solve(child, max_nodes).mover_wins:
                wins.append(move)
        return wins


def warm_up(game):
    """Compile the solver on a nearly full board of game."""
    solver = HexSolver(game, table_bits=8)
    state = game.initial_state()
    legal = game.legal_moves(state)
    for move in legal[:max(0, len(legal) - 4)]:
        if game.is_terminal(state):
            break
        state = game.play(state, move)
    if not game.is_terminal(state):
        solver.solve(state)


__all__ = ["HexSolver", "Solved", "SolveBudgetExceeded", "mover_wins"]
