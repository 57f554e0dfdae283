"""A depth-first proof-number (DFPN) solver for Hex with H-search at every node (issue 33, item 5).

Nagai's DFPN in negamax form (phi: the proof number of the side to move's win, delta: its
disproof number) with Pawlewicz and Lew's 1+epsilon trick (a child is searched until its delta
passes (1 + epsilon) times the second best's, not just one more, which saves most re-expansions).
The search runs in Python; each node is evaluated once by the compiled kernel ``evaluate``:
  * a final position: won or lost;
  * the fill-in of engines/knowledge/hex/patterns.py (dead cells for the player not to move,
    captured pairs for their owner: the value does not change) on a copy;
  * H-search (engines/knowledge/hex/vc.py) on the filled copy for the mover: a full connection or
    an edge-to-edge semi between its edges is a proven win;
  * H-search for the opponent: a full connection is a proven loss; its edge-to-edge semis give the
    must-play cells (where their carriers meet); the children are the mover's candidates of
    ``patterns.analyse`` (no dead, captured or dominated cells) inside must-play, and none left is a
    proven loss;
  * the children ordered by the connection distance after the move (the opponent's minus the
    mover's, engines/knowledge/hex/distance.py), best first, central cells first among equals.
Hex has no cycles (every move adds a stone), so plain DFPN is sound here.

Representation.  The transposition table is a dict from the game's Zobrist key (state[HASH], side to
move included) to an entry [phi, delta, children]: children is an int64 array of the moves in the
order tried, None once the position is proven (phi == 0: the mover wins; delta == 0: it loses).
A child not yet evaluated counts as phi = delta = 1.  The table stays between calls (``clear()``
forgets it), so what one move proved the next reuses; ``nodes`` counts evaluations (kernel calls),
the budget's unit.  A budget (nodes, or a deadline on the clock) that runs out raises
DfpnBudgetExceeded; the unproven numbers stay in the table as estimates.
"""
import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np

from engines.games.hex import HASH, HEADER, SIZE, TO_MOVE, WINNER, apply
from engines.knowledge.hex.distance import distance
from engines.knowledge.hex.patterns import F_INFERIOR, analyse, fill_in
from engines.knowledge.hex.vc import DEFAULT_LIMITS, WORDS, HLimits, _has, _pair, h_search, make_work
from engines.validate import check_int

WIN, LOSS, OPEN = 0, 1, 2  # evaluate's verdict for the side to move
INF = 1 << 40             # an infinite proof or disproof number


class DfpnScratch(NamedTuple):
    """Scratch of evaluate for one board size (the state's length ``length``, n*n cells)."""
    filled: np.ndarray    # int64[length]: the fill-in copy
    spare: np.ndarray     # int64[length]: fill_in's and the ordering's scratch
    dead: np.ndarray      # bool[nn]
    captured: np.ndarray  # int64[nn]
    score: np.ndarray     # float64[nn]: the children's order


def make_scratch(n: int) -> DfpnScratch:
    nn = n * n
    length = HEADER + 2 * nn + 4
    return DfpnScratch(np.zeros(length, np.int64), np.zeros(length, np.int64), np.zeros(nn, np.bool_),
                       np.zeros(nn, np.int64), np.zeros(nn, np.float64))


@nb.njit(cache=True)
def evaluate(s, hwork, limits, scratch, out, root):
    """The verdict of position s for the side to move (WIN, LOSS or OPEN) and, when OPEN, its
    children in out (returned: their count), best first.  root: never answer WIN from the
    mover's own connections (the caller wants the winning move, so the children are searched)."""
    if s[WINNER] >= 0:
        return (WIN if s[WINNER] == s[TO_MOVE] else LOSS), 0
    n = s[SIZE]
    nn = n * n
    p = s[TO_MOVE]
    count, _ = analyse(s, out, F_INFERIOR)
    w = scratch.filled
    fill_in(s, w, scratch.spare, scratch.dead, scratch.captured)
    if not root:
        if h_search(w, p, hwork, limits):
            return WIN, 0
        if hwork.nsemis[_pair(nn, nn + 1, nn + 2)] > 0:
            return WIN, 0
    if h_search(w, 1 - p, hwork, limits):
        return LOSS, 0
    pair = _pair(nn, nn + 1, nn + 2)
    if hwork.nsemis[pair] > 0:
        words = (nn + 63) >> 6
        inter = np.empty(WORDS, dtype=np.uint64)
        for q in range(words):
            inter[q] = hwork.carrier[hwork.semis[pair, 0], q]
        for k in range(1, hwork.nsemis[pair]):
            for q in range(words):
                inter[q] &= hwork.carrier[hwork.semis[pair, k], q]
        kept = 0
        for i in range(count):
            if _has(inter, out[i]):
                out[kept] = out[i]
                kept += 1
        count = kept
        if count == 0:
            return LOSS, 0
    child = scratch.spare
    score = scratch.score
    for i in range(count):
        child[:] = s
        apply(child, out[i])
        if child[WINNER] == p:
            out[0] = out[i]
            return OPEN, 1  # (only reached at the root: elsewhere the connections saw it)
        r = out[i] // n
        c = out[i] - r * n
        dr = 2 * r - (n - 1)  # twice the offset from the centre in hex distance (ties: central first)
        dc = 2 * c - (n - 1)
        central = max(abs(dr), abs(dc), abs(dr + dc))
        score[i] = 100.0 * (distance(child, 1 - p) - distance(child, p)) - central - 1e-3 * i
    order = np.argsort(-score[:count])
    moves = out[:count].copy()
    for i in range(count):
        out[i] = moves[order[i]]
    return OPEN, count


class DfpnBudgetExceeded(Exception):
    """The node budget or the deadline ran out before the position was proven."""


@dataclass(frozen=True)
class DfpnResult:
    """HexDfpn.solve's answer: does the side to move win, and what it took (nodes: evaluations
    this call; seconds: wall time)."""
    mover_wins: bool
    nodes: int
    seconds: float


class HexDfpn:
    """DFPN for one Hex board size; the table is kept between calls (see the module docstring).
    epsilon: the 1+epsilon trick's (0: plain DFPN); limits: H-search's; max_entries: the table is
    cleared of its unproven entries when it grows past this (proven ones are kept, unless they fill
    half of it: then all go).  An entry takes about 250 bytes."""

    def __init__(self, game, limits: HLimits = DEFAULT_LIMITS, epsilon: float = 0.25,
                 max_entries: int = 2_000_000, clock=time.perf_counter):
        if getattr(game, "name", None) != "hex":
            raise ValueError(f"HexDfpn needs a Hex game, got {game!r}")
        if not 0 <= epsilon <= 4:
            raise ValueError(f"epsilon must be in 0..4, got {epsilon!r}")
        self.game, self.n = game, game.size
        self.limits = HLimits(*(int(v) for v in limits))
        self.hwork = make_work(self.n, self.limits)
        self.scratch = make_scratch(self.n)
        self.out = np.empty(self.n * self.n, dtype=np.int64)
        self.epsilon = float(epsilon)
        self.max_entries = check_int("max_entries", max_entries, 1)
        self.clock = clock
        self.table: dict[int, list] = {}
        self.nodes = 0           # evaluations since the table was made
        self._budget = 0         # the node count at which the current call stops
        self._deadline = math.inf

    def clear(self) -> None:
        self.table.clear()

    # ---- evaluation and the table --------------------------------------------------------------
    def _evaluate(self, state, root: bool = False) -> list:
        self.nodes += 1
        if self.nodes > self._budget or self.clock() > self._deadline:  # (an evaluation takes ms: read the clock each)
            raise DfpnBudgetExceeded(f"no proof within the budget ({self.nodes} nodes)")
        verdict, count = evaluate(state, self.hwork, self.limits, self.scratch, self.out, root)
        if verdict == WIN:
            return [0, INF, None]
        if verdict == LOSS:
            return [INF, 0, None]
        return [1, count, self.out[:count].copy()]

    def _entry(self, state, root: bool = False) -> list:
        key = int(state[HASH])
        entry = self.table.get(key)
        if entry is None:
            if len(self.table) >= self.max_entries:
                self._forget_unproven()
            entry = self.table[key] = self._evaluate(state, root)
        return entry

    def _forget_unproven(self) -> None:
        # in place: the frames of a running search hold self.table (their entries may go: a parent
        # then counts such a child as new and evaluates it again)
        for key in [k for k, e in self.table.items() if e[2] is not None]:
            del self.table[key]
        if len(self.table) >= self.max_entries // 2:  # mostly proofs: start afresh rather than scan each time
            self.table.clear()

    # ---- the search ------------------------------------------------------------------------------
    def _mid(self, state, entry, th_phi: int, th_delta: int) -> None:
        """Searches below state (entry: its table entry) until its phi reaches th_phi or its delta
        th_delta (or it is proven)."""
        moves = entry[2]
        children, keys = [], []
        for m in moves:
            child = state.copy()
            apply(child, m)
            children.append(child)
            keys.append(int(child[HASH]))
        table, eps = self.table, self.epsilon  # (never rebound: _forget_unproven works in place)
        while True:
            # phi(node) = min delta(child); delta(node) = sum phi(child)
            best = -1
            best_delta = second = INF
            total = 0
            for i, key in enumerate(keys):
                e = table.get(key)
                c_phi, c_delta = (1, 1) if e is None else (e[0], e[1])
                total = min(INF, total + c_phi)
                if c_delta < best_delta:
                    second, best_delta, best = best_delta, c_delta, i
                elif c_delta < second:
                    second = c_delta
            phi, delta = best_delta, total
            if phi == 0 or delta == 0:  # proven: the mover wins (a child lost) or loses (all won)
                entry[0], entry[1], entry[2] = (0, INF, None) if phi == 0 else (INF, 0, None)
                return
            entry[0], entry[1] = phi, delta
            if phi >= th_phi or delta >= th_delta:
                return
            key = keys[best]
            e = table.get(key)
            if e is None:  # a new leaf: evaluate it, then choose again
                self._entry(children[best])
                continue
            c_phi = e[0]
            child_th_phi = min(INF, th_delta - delta + c_phi)
            child_th_delta = min(th_phi, max(best_delta + 1, math.ceil(second * (1 + eps)) if second < INF else INF))
            self._mid(children[best], e, child_th_phi, child_th_delta)

    def _prepare(self, state, max_nodes, deadline):
        state = np.ascontiguousarray(state, dtype=np.int64)
        if state.shape != self.game.initial_state().shape:
            raise ValueError(f"state does not fit {self.game!r}")
        self._budget = self.nodes + check_int("max_nodes", max_nodes, 1)
        self._deadline = math.inf if deadline is None else deadline
        return state

    def solve(self, state, max_nodes: int = 1 << 62, deadline: float | None = None) -> DfpnResult:
        """Does the side to move win?  DfpnBudgetExceeded after max_nodes evaluations or past the
        deadline (a reading of the clock)."""
        state = self._prepare(state, max_nodes, deadline)
        started, first = self.clock(), self.nodes
        entry = self._entry(state)
        if entry[2] is not None:
            self._mid(state, entry, INF, INF)
        return DfpnResult(entry[0] == 0, self.nodes - first, self.clock() - started)

    def proven(self, state):
        """True / False when the table has proven that the side to move wins / loses, else None."""
        entry = self.table.get(int(np.asarray(state)[HASH]))
        if entry is None or entry[2] is not None:
            return None
        return entry[0] == 0

    def root(self, state, max_nodes: int = 1 << 62, deadline: float | None = None):
        """Searches state for a winning move: (verdict, move, lost): verdict True (move wins), False
        (every move loses) or None (the budget ran out, no exception); lost: the moves proven to
        lose so far (the opponent wins after them)."""
        state = self._prepare(state, max_nodes, deadline)
        if state[WINNER] >= 0:
            raise ValueError("the game is over")
        key = int(state[HASH])
        entry = self.table.get(key)
        won = entry is not None and entry[2] is None and entry[0] == 0
        try:
            if entry is None or won:
                # a new root, or a win proven by the connections alone: search the children for the move
                entry = self.table[key] = self._evaluate(state, root=True)
            if entry[2] is not None:
                self._mid(state, entry, INF, INF)
        except DfpnBudgetExceeded:
            if won:  # what the connections proved stays proven
                self.table[key] = [0, INF, None]
        return self._root_answer(state)

    def _root_answer(self, state):
        lost, winning = [], None
        for m in self.game.legal_moves(state):
            child = state.copy()
            apply(child, m)
            if child[WINNER] == state[TO_MOVE]:
                winning = m if winning is None else winning
                continue
            verdict = self.proven(child)
            if verdict is False and winning is None:
                winning = m
            elif verdict is True:
                lost.append(int(m))
        if winning is not None:
            return True, int(winning), lost
        if self.proven(state) is False:
            return False, None, lost
        return None, None, lost


def warm_up(game):
    """Compile evaluate on a small position of game."""
    solver = HexDfpn(game, HLimits(max_vcs=4096))
    state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
    evaluate(state, solver.hwork, solver.limits, solver.scratch, solver.out, True)
    evaluate(state, solver.hwork, solver.limits, solver.scratch, solver.out, False)


__all__ = ["HexDfpn", "DfpnResult", "DfpnBudgetExceeded", "evaluate", "WIN", "LOSS", "OPEN"]
