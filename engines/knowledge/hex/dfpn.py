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
    ``patterns.analyse`` (no dead, captured or dominated cells; with ``vulnerable`` /
    ``fillin_inferior``, no vulnerable cells either, and the fill-ins' dominations) inside must-play,
    and none left is a proven loss;
  * the children ordered by the connection distance after the move (the opponent's minus the
    mover's, engines/knowledge/hex/distance.py), best first, central cells first among equals (or,
    ``ordering="resistance"``, by the current through each cell of both colours' circuits).
Hex has no cycles (every move adds a stone), so plain DFPN is sound here.

Proof sets (``proof_pruning``, on by default).  Every proven position carries a proof set P: the
winner's stones and the empty cells its win needs, so that the winner still wins with every other
empty cell the loser's.  A connection's: its carrier and the winner's stones (with the neighbourhoods
of the cells the fill-in gave the winner, whose patterns must hold); a won node's: its winning
child's; a lost node's: the union of its children's and what pruned its other moves (the opponent's
must-play semis' carriers, the neighbourhoods of the filled and inferior cells).  Each is shrunk by
the fill-in of the board where the loser holds every cell outside it (dead cells and the loser's
captured pairs leave P).  When one of our moves is proven lost with the opponent's proof P, every
sibling outside P loses too (our stone there changes nothing P needs; Hex is monotone), so those
siblings are stored as lost with P, without an evaluation (``pruned`` counts them).  Benzene's
widening (``widening_factor``: phi and delta over the first base + factor * live children only) is
an option, off by default (it measured larger trees here).

Representation.  The transposition table is a dict from the game's Zobrist key (state[HASH], side to
move included) to an entry [phi, delta, children, proof]: children is an int64 array of the moves in
the order tried, None once the position is proven (phi == 0: the mover wins; delta == 0: it loses);
proof is a Python int, bit x for cell x: the proof set once proven, before that the node's own part
of a loss proof (evaluate's scratch.proof).
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

from engines.games.hex import HASH, HEADER, NEIGHBOURS, SIZE, TO_MOVE, WINNER, apply
from engines.knowledge.hex.distance import distance
from engines.knowledge.hex.patterns import F_FILLIN_INFERIOR, F_INFERIOR, F_VULNERABLE, analyse_into, fill_in, place
from engines.knowledge.hex.vc import (DEFAULT_LIMITS, S_CONNECTED, WORDS, HLimits, _has, _pair, _set, h_search,
                                      make_work)
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
    proof: np.ndarray     # uint64[WORDS]: the proof set (a verdict) or the loss proof's base (OPEN)
    board: np.ndarray     # int64[length]: shrink's board (the loser on every cell outside the proof)
    ordering: np.ndarray  # int64[1]: ORDER_DISTANCE or ORDER_RESISTANCE
    matrix: np.ndarray    # float64[nn, nn]: the resistance's linear system
    volts: np.ndarray     # float64[nn]: its right-hand side, then the voltages
    index: np.ndarray     # int64[nn]: a cell's unknown (-1: the other colour's stone)
    current: np.ndarray   # float64[nn]: the current through each cell, both colours summed
    inferior: np.ndarray  # int64[1]: patterns.analyse's flags (F_INFERIOR, with F_VULNERABLE, F_FILLIN_INFERIOR)
    support: np.ndarray   # bool[nn]: the cells the pruning relied on (patterns.analyse_into's)


def make_scratch(n: int) -> DfpnScratch:
    nn = n * n
    length = HEADER + 2 * nn + 4
    return DfpnScratch(np.zeros(length, np.int64), np.zeros(length, np.int64), np.zeros(nn, np.bool_),
                       np.zeros(nn, np.int64), np.zeros(nn, np.float64), np.zeros(WORDS, np.uint64),
                       np.zeros(length, np.int64), np.zeros(1, np.int64), np.zeros((nn, nn), np.float64),
                       np.zeros(nn, np.float64), np.zeros(nn, np.int64), np.zeros(nn, np.float64),
                       np.full(1, F_INFERIOR, np.int64), np.zeros(nn, np.bool_))


ORDER_DISTANCE, ORDER_RESISTANCE = 0, 1
STONE_RESISTANCE = 0.02  # a stone's resistance in the circuit (an empty cell's: 1)


@nb.njit(cache=True)
def _add_currents(s, colour, scratch):
    """Adds to scratch.current the current through each cell when colour's two edges are held at
    voltages 1 and 0 over the board as a circuit (an empty cell a resistor of 1, colour's stones
    nearly 0, the other colour's stones cut out; Anshelevich's and benzene's resistance)."""
    n = s[SIZE]
    nn = n * n
    own = colour + 1
    index = scratch.index
    m = 0
    for x in range(nn):
        v = s[HEADER + x]
        if v == 0 or v == own:
            index[x] = m
            m += 1
        else:
            index[x] = -1
    a = scratch.matrix
    b = scratch.volts
    a[:m, :m] = 0.0
    b[:m] = 0.0
    for x in range(nn):
        i = index[x]
        if i < 0:
            continue
        rx = 1.0 if s[HEADER + x] == 0 else STONE_RESISTANCE
        a[i, i] += 1e-9  # (a region cut off from both edges stays solvable)
        r = x // n
        c = x - r * n
        for d in range(6):
            rr = r + NEIGHBOURS[d, 0]
            cc = c + NEIGHBOURS[d, 1]
            if 0 <= rr < n and 0 <= cc < n:
                y = rr * n + cc
                j = index[y]
                if j > i:
                    g = 1.0 / (rx + (1.0 if s[HEADER + y] == 0 else STONE_RESISTANCE))
                    a[i, i] += g
                    a[j, j] += g
                    a[i, j] -= g
                    a[j, i] -= g
        line = r if colour == 0 else c
        if line == 0:
            a[i, i] += 1.0 / rx
            b[i] += 1.0 / rx
        if line == n - 1:
            a[i, i] += 1.0 / rx
    # Gaussian elimination (the matrix is symmetric positive definite: no pivoting needed)
    for k in range(m):
        pivot = a[k, k]
        for i in range(k + 1, m):
            f = a[i, k] / pivot
            if f != 0.0:
                for j in range(k, m):
                    a[i, j] -= f * a[k, j]
                b[i] -= f * b[k]
    for k in range(m - 1, -1, -1):
        t = b[k]
        for j in range(k + 1, m):
            t -= a[k, j] * b[j]
        b[k] = t / a[k, k]
    current = scratch.current
    for x in range(nn):
        i = index[x]
        if i < 0:
            continue
        rx = 1.0 if s[HEADER + x] == 0 else STONE_RESISTANCE
        r = x // n
        c = x - r * n
        flow = 0.0
        for d in range(6):
            rr = r + NEIGHBOURS[d, 0]
            cc = c + NEIGHBOURS[d, 1]
            if 0 <= rr < n and 0 <= cc < n:
                j = index[rr * n + cc]
                if j >= 0:
                    g = 1.0 / (rx + (1.0 if s[HEADER + rr * n + cc] == 0 else STONE_RESISTANCE))
                    flow += g * abs(b[i] - b[j])
        line = r if colour == 0 else c
        if line == 0:
            flow += abs(1.0 - b[i]) / rx
        if line == n - 1:
            flow += abs(b[i]) / rx
        current[x] += 0.5 * flow



@nb.njit(cache=True)
def _add_around(bits, n, x):
    """Adds x and its six neighbours to bits."""
    r = x // n
    c = x - r * n
    _set(bits, x)
    for d in range(6):
        rr = r + NEIGHBOURS[d, 0]
        cc = c + NEIGHBOURS[d, 1]
        if 0 <= rr < n and 0 <= cc < n:
            _set(bits, rr * n + cc)


@nb.njit(cache=True)
def _winner_base(s, w, winner, bits, all_filled):
    """bits = the winner's stones on the filled copy w, with the neighbourhood of every cell the
    fill-in gave the winner (all_filled: of every filled cell), so the fill-in stays valid when the
    cells outside the proof go to the loser."""
    n = s[SIZE]
    bits[:] = 0
    for x in range(n * n):
        v = w[HEADER + x]
        if v == winner + 1:
            _set(bits, x)
        if s[HEADER + x] == 0 and v != 0 and (all_filled or v == winner + 1):
            _add_around(bits, n, x)


@nb.njit(cache=True)
def shrink(s, bits, winner, scratch):
    """Takes out of the proof set bits (of position s, won by winner) the cells the fill-in gives
    the loser once the loser has every empty cell outside it (dead cells, the loser's captured
    pairs): with those the loser's too the winner still wins (benzene's proof shrinking)."""
    n = s[SIZE]
    nn = n * n
    loser = 1 - winner
    u = scratch.board
    u[:] = s
    for x in range(nn):
        if u[HEADER + x] == 0 and not _has(bits, x):
            place(u, x, loser)
    u[TO_MOVE] = winner  # (the fill-in gives dead cells to the player not to move)
    w = scratch.filled
    fill_in(u, w, scratch.spare, scratch.dead, scratch.captured)
    for x in range(nn):
        if u[HEADER + x] == 0 and w[HEADER + x] == loser + 1:
            bits[x >> 6] &= ~(np.uint64(1) << np.uint64(x & 63))


@nb.njit(cache=True)
def _add_carrier(bits, hwork, i):
    for q in range(bits.shape[0]):
        bits[q] |= hwork.carrier[i, q]


@nb.njit(cache=True)
def evaluate(s, hwork, limits, scratch, out, root):
    """The verdict of position s for the side to move (WIN, LOSS or OPEN) and, when OPEN, its
    children in out (returned: their count), best first.  root: never answer WIN from the
    mover's own connections (the caller wants the winning move, so the children are searched).
    scratch.proof: with a verdict, its proof set (the winner's stones and the empty cells its win
    needs: the winner still wins with every other cell the loser's); when OPEN, the part of a loss
    proof this node adds to its children's (the opponent's stones and must-play semis, and the
    neighbourhoods of the filled and pruned cells, whose patterns must stay as they are)."""
    proof = scratch.proof
    if s[WINNER] >= 0:
        proof[:] = 0
        for x in range(s[SIZE] * s[SIZE]):
            if s[HEADER + x] == s[WINNER] + 1:
                _set(proof, x)
        return (WIN if s[WINNER] == s[TO_MOVE] else LOSS), 0
    n = s[SIZE]
    nn = n * n
    p = s[TO_MOVE]
    count, _ = analyse_into(s, out, scratch.inferior[0], scratch.support)
    w = scratch.filled
    fill_in(s, w, scratch.spare, scratch.dead, scratch.captured)
    pair = _pair(nn, nn + 1, nn + 2)
    if not root:
        if h_search(w, p, hwork, limits):
            _winner_base(s, w, p, proof, False)
            if hwork.stats[S_CONNECTED] >= 0:
                _add_carrier(proof, hwork, hwork.fulls[pair, 0])  # (the smallest kept)
            shrink(s, proof, p, scratch)
            return WIN, 0
        if hwork.nsemis[pair] > 0:
            _winner_base(s, w, p, proof, False)
            _add_carrier(proof, hwork, hwork.semis[pair, 0])
            shrink(s, proof, p, scratch)
            return WIN, 0
    if h_search(w, 1 - p, hwork, limits):
        _winner_base(s, w, 1 - p, proof, False)
        if hwork.stats[S_CONNECTED] >= 0:
            _add_carrier(proof, hwork, hwork.fulls[pair, 0])
        shrink(s, proof, 1 - p, scratch)
        return LOSS, 0
    # the base of a loss proof: the opponent's stones, the neighbourhoods of all filled cells, the
    # must-play semis' carriers and the neighbourhoods of the cells pruned inside the must-play
    _winner_base(s, w, 1 - p, proof, True)
    inside = scratch.dead  # (free again after fill_in): the cells a move may be in
    for x in range(nn):
        inside[x] = w[HEADER + x] == 0
    if hwork.nsemis[pair] > 0:
        for k in range(hwork.nsemis[pair]):
            _add_carrier(proof, hwork, hwork.semis[pair, k])
            for x in range(nn):
                if inside[x] and not _has(hwork.carrier[hwork.semis[pair, k]], x):
                    inside[x] = False
    for i in range(count):
        inside[out[i]] = False
    for x in range(nn):
        if inside[x]:
            _add_around(proof, n, x)
        if scratch.support[x]:
            _set(proof, x)
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
    if scratch.ordering[0] == ORDER_RESISTANCE:
        # the cells that carry the most current of both colours' circuits first (the fill-in's board)
        scratch.current[:] = 0.0
        _add_currents(w, 0, scratch)
        _add_currents(w, 1, scratch)
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
        if scratch.ordering[0] == ORDER_RESISTANCE:
            score[i] = 100.0 * scratch.current[out[i]] - 1e-3 * central - 1e-6 * i
        else:
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
    half of it: then all go).  An entry takes about 250 bytes.  proof_pruning: siblings outside a lost
    child's proof set are lost too (the module docstring); widening_base / widening_factor: benzene's
    widening (0: off); ordering: "distance" or "resistance"; vulnerable: the mover's vulnerable cells
    are no children either (patterns.vulnerable_cells; a lost node's proof keeps their neighbourhoods,
    the killers among them); fillin_inferior: domination and vulnerability read from whole fill-ins
    (patterns.fillin_inferior; the proof keeps the cells they relied on)."""

    def __init__(self, game, limits: HLimits = DEFAULT_LIMITS, epsilon: float = 0.25,
                 max_entries: int = 2_000_000, clock=time.perf_counter, widening_base: int = 1,
                 widening_factor: float = 0.0, proof_pruning: bool = True, ordering: str = "distance",
                 vulnerable: bool = False, fillin_inferior: bool = False):
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
        if not 0 <= widening_factor <= 1:
            raise ValueError(f"widening_factor must be in 0..1, got {widening_factor!r}")
        self.widening_base = check_int("widening_base", widening_base, 1)
        self.widening_factor = float(widening_factor)
        self.proof_pruning = bool(proof_pruning)
        self.shrink_proofs = self.proof_pruning
        if ordering not in ("distance", "resistance"):
            raise ValueError(f"ordering must be distance or resistance, got {ordering!r}")
        self.scratch.ordering[0] = ORDER_RESISTANCE if ordering == "resistance" else ORDER_DISTANCE
        self.vulnerable = bool(vulnerable)
        self.fillin_inferior = bool(fillin_inferior)
        self.scratch.inferior[0] = (F_INFERIOR | (F_VULNERABLE if self.vulnerable else 0)
                                    | (F_FILLIN_INFERIOR if self.fillin_inferior else 0))
        self.pruned = 0          # children proven lost by a sibling's proof (no evaluation)
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
        proof = int.from_bytes(self.scratch.proof.tobytes(), "little")
        if verdict == WIN:
            return [0, INF, None, proof]
        if verdict == LOSS:
            return [INF, 0, None, proof]
        return [1, count, self.out[:count].copy(), proof]

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

    def _shrunk(self, state, proof: int, winner: int) -> int:
        bits = self.scratch.proof
        bits[:] = np.frombuffer(proof.to_bytes(8 * WORDS, "little"), dtype=np.uint64)
        shrink(state, bits, winner, self.scratch)
        return int.from_bytes(bits.tobytes(), "little")

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
        base, factor = self.widening_base, self.widening_factor
        pruning = self.proof_pruning
        used = set()  # the children whose loss proofs have pruned their siblings
        while True:
            # phi(node) = min delta(child); delta(node) = sum phi(child), both over the window: the
            # children in order up to the k-th not yet proven lost for us (benzene's widening)
            bounds = []
            live = 0
            won = False
            for i, key in enumerate(keys):
                e = table.get(key)
                b = (1, 1) if e is None else (e[0], e[1])
                if b[0] == 0 and pruning and i not in used:
                    # our move lost, and the opponent's proof P says so for every sibling outside
                    # P too (with all cells outside P ours the opponent still wins): they lose
                    used.add(i)
                    proof = e[3]
                    for j, other in enumerate(keys):
                        if j != i and not (proof >> int(moves[j])) & 1:
                            f = table.get(other)
                            if f is None or f[2] is not None:
                                table[other] = [0, INF, None, proof]
                                used.add(j)
                                self.pruned += 1
                bounds.append(b)
                if b[0] != 0:
                    live += 1
                if b[1] == 0:
                    won = True
            if pruning:  # (bounds may be stale for the siblings just proven)
                bounds = [(1, 1) if (e := table.get(key)) is None else (e[0], e[1]) for key in keys]
                live = sum(1 for b in bounds if b[0] != 0)
            window = len(keys)
            if factor > 0 and live >= 2:
                want = base + math.ceil(live * factor)
                seen = 0
                for i, b in enumerate(bounds):
                    if b[0] != 0:
                        seen += 1
                        if seen == want:
                            window = i + 1
                            break
            best = -1
            best_delta = second = INF
            total = 0
            for i in range(window):
                c_phi, c_delta = bounds[i]
                total = min(INF, total + c_phi)
                if c_delta < best_delta:
                    second, best_delta, best = best_delta, c_delta, i
                elif c_delta < second:
                    second = c_delta
            phi, delta = (0 if won else best_delta), total
            if phi == 0 or delta == 0:  # proven: the mover wins (a child lost) or loses (all won)
                if phi == 0:  # our proof: the lost child's (our winning move is among its stones)
                    proof = next(table[key][3] for key in keys if table.get(key, (1, 1))[1] == 0)
                    entry[0], entry[1], entry[2], entry[3] = 0, INF, None, proof
                else:  # the opponent's proof: ours plus every child's
                    proof = entry[3]
                    for key in keys:
                        proof |= table[key][3]
                    if self.shrink_proofs:
                        proof = self._shrunk(state, proof, 1 - int(state[TO_MOVE]))
                    entry[0], entry[1], entry[2], entry[3] = INF, 0, None, proof
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
        proven = entry
        try:
            if entry is None or won:
                # a new root, or a win proven by the connections alone: search the children for the move
                entry = self.table[key] = self._evaluate(state, root=True)
            if entry[2] is not None:
                self._mid(state, entry, INF, INF)
        except DfpnBudgetExceeded:
            if won:  # what the connections proved stays proven
                self.table[key] = proven
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
    solver._shrunk(state, 0, 0)  # (shrink as the search calls it for a lost node)


__all__ = ["HexDfpn", "DfpnResult", "DfpnBudgetExceeded", "evaluate", "WIN", "LOSS", "OPEN"]
