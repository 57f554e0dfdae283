"""Alpha-beta (or plain minimax) negamax over any game's compiled kernels: depth limit, iterative
deepening on a clock, transposition table, move ordering.  Every feature is switchable
(AlphaBetaConfig) because the Othello game manager toggles them per game (specs/othello-pipe.md).

Data representation
-------------------
One compiled kernel, ``_negamax``, holds the whole tree descent as an EXPLICIT STACK of per-ply rows
(ply 0 is the root; ``P = max_ply + 1`` rows):
  S    int64[P, state_len]    the position at each ply (a child is a copy of its parent, then apply)
  MV   int32[P, num_actions]  the moves of the node at each ply, in search order
  PI   int64[P, 6]            per-ply ints:   next move index, move count, best move, Zobrist key,
                              "a depth cut-off happened below" flag, principal-variation length
  PF   float64[P, 4]          per-ply floats: alpha, beta, alpha at entry, best score so far
  PV   int32[P, P]            triangular principal-variation table (row p holds moves from ply p)
  OS   float64[num_actions]   scratch: static scores of the children being ordered
  ROOT float64[num_actions]   score of each root move (index = position in MV[0]) this iteration
  CTL  int64[8]               the resumable registers: top ply, iteration depth, node counter, node
                              limit of this call, status (start / running / done), feature flags,
                              transposition-table hits, table generation
Scores are negamax scores: the evaluate kernel's value for the side to move, negated on the way
up.  Terminal states and depth cut-offs are valued by the evaluate kernel (games' evaluators give
exact outcomes on final states).  A pass is just another action the game's legal kernel returns.

The kernel is RESUMABLE: a call expands at most ``CTL[limit] - CTL[nodes]`` nodes and returns,
leaving the stack in the arrays; the Python driver checks the clock between calls (chunks of about
CHUNK_SECONDS, sized from the measured rate) and abandons an iteration once the deadline passes,
keeping the last completed iteration's answer.

Transposition table (``tt_size`` slots, always-replace, index = key & (tt_size - 1)):
  tt_key   int64    the full Zobrist key of the position (side to move included by the game)
  tt_data  int64    bits 48..62 table generation (one per search() call; other generations are
                    empty), bit 47 "a depth cut-off happened below", bits 44..45 bound (0 exact,
                    1 lower, 2 upper), bits 32..43 remaining depth searched, bits 0..31 best move+1
  tt_score float64  the score
An entry ends a node when its depth >= the remaining depth and its bound settles the window; its
best move is tried first when ordering is on.  Plain minimax stores only exact values.

Move ordering: each child is evaluated statically (score from the mover's view = minus the child's
evaluation), the moves are sorted by it descending (stable: ties keep the game's move order), and
the table's best move goes first.  With ordering on, a node whose children are all leaves (one ply
left) takes its value straight from those static scores, without visiting the children again.

A node is a position the search visits: the root, every child it steps into, and the leaves valued
from static scores; the static evaluations made for ordering at deeper nodes are not counted.
"""
import time
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.search.result import Limits, SearchResult

# ---- tunables ------------------------------------------------------------------------------------
CHUNK_SECONDS = 0.002     # target duration of one kernel call between two clock checks
FIRST_CHUNK = 4           # nodes in the first call of a search, before the rate is known (grows 4x per call)
MAX_CHUNK = 1 << 24       # nodes in one call when no clock is running
MAX_PLY_LIMIT = 4095      # deepest stack the table's 12-bit depth field can describe
MAX_TT_SIZE = 1 << 28     # largest transposition table (slots; 24 bytes each)

# ---- layout constants (see the header) -----------------------------------------------------------
P_MI, P_NM, P_BM, P_KEY, P_CUT, P_PVLEN = range(6)
NPI = 6
F_A, F_B, F_A0, F_BEST = range(4)
NPF = 4
C_SP, C_DEPTH, C_NODES, C_LIMIT, C_STATUS, C_FLAGS, C_TTHITS, C_GEN = range(8)
NCTL = 8
ST_START, ST_RUNNING, ST_DONE = 0, 1, 2
FL_ALPHABETA, FL_CACHE, FL_ORDERING = 1, 2, 4
TT_EXACT, TT_LOWER, TT_UPPER = 0, 1, 2
GEN_MASK = 0x7FFF

_SIG = types.void(
    K.ftype(K.SIG_LEGAL), K.ftype(K.SIG_APPLY), K.ftype(K.SIG_TERMINAL), K.ftype(K.SIG_HASH),
    K.ftype(K.SIG_EVALUATE), K.PARAMS,
    types.int64[:, ::1], types.int32[:, ::1], types.int64[:, ::1], types.float64[:, ::1],
    types.int32[:, ::1], types.float64[::1], types.float64[::1],
    types.int64[::1], types.int64[::1], types.float64[::1], types.int64[::1])


@nb.njit(cache=True, inline="always")
def _backup(p, i, m, s, PI, PF, PV, ROOT, use_ab):
    """The child MV[p, i] == m of the node at ply p scored s (from p's mover's view)."""
    if p == 0:
        ROOT[i] = s
    if s > PF[p, F_BEST] or PI[p, P_BM] < 0:
        PF[p, F_BEST] = s
        PI[p, P_BM] = m
        PV[p, p] = m
        ln = PI[p + 1, P_PVLEN]
        for k in range(p + 1, p + 1 + ln):
            PV[p, k] = PV[p + 1, k]
        PI[p, P_PVLEN] = ln + 1
        if use_ab and s > PF[p, F_A]:
            PF[p, F_A] = s
            if s >= PF[p, F_B]:
                PI[p, P_MI] = PI[p, P_NM]  # beta cut-off: no more children


@nb.njit(_SIG, cache=True)
def _negamax(legal, apply, terminal, zhash, evaluate, params,
             S, MV, PI, PF, PV, OS, ROOT, tt_key, tt_data, tt_score, CTL):
    """Run the negamax held in the arrays until it finishes or CTL[C_LIMIT] nodes were counted."""
    flags = CTL[C_FLAGS]
    use_ab = (flags & FL_ALPHABETA) != 0
    use_tt = (flags & FL_CACHE) != 0
    use_ord = (flags & FL_ORDERING) != 0
    depth = CTL[C_DEPTH]
    gen = CTL[C_GEN]
    mask = tt_key.shape[0] - 1
    nodes = CTL[C_NODES]
    limit = CTL[C_LIMIT]
    hits = CTL[C_TTHITS]
    sp = CTL[C_SP]
    status = CTL[C_STATUS]
    width = S.shape[1]
    inf = np.inf
    while True:
        # ---- one step: start the root, step into the next child, or close the top node --------
        if status == ST_START:
            if nodes >= limit:
                break
            status = ST_RUNNING
            nodes += 1
            q = 0
            alpha = -inf
            beta = inf
            PI[0, P_PVLEN] = 0
        else:
            p = sp
            i = PI[p, P_MI]
            if i < PI[p, P_NM]:
                if nodes >= limit:
                    break
                m = MV[p, i]
                PI[p, P_MI] = i + 1
                q = p + 1
                for k in range(width):
                    S[q, k] = S[p, k]
                apply(S[q], m)
                nodes += 1
                PI[q, P_PVLEN] = 0
                if terminal(S[q]):
                    _backup(p, i, m, -evaluate(S[q], params), PI, PF, PV, ROOT, use_ab)
                    continue
                if depth - q <= 0:
                    PI[p, P_CUT] = 1
                    _backup(p, i, m, -evaluate(S[q], params), PI, PF, PV, ROOT, use_ab)
                    continue
                alpha = -PF[p, F_B]
                beta = -PF[p, F_A]
            else:
                # close node p: store it, hand its score to the parent
                v = PF[p, F_BEST]
                if use_tt:
                    flag = TT_EXACT
                    if use_ab:
                        if v <= PF[p, F_A0]:
                            flag = TT_UPPER
                        elif v >= PF[p, F_B]:
                            flag = TT_LOWER
                    slot = PI[p, P_KEY] & mask
                    tt_key[slot] = PI[p, P_KEY]
                    tt_score[slot] = v
                    tt_data[slot] = ((gen << 48) | (PI[p, P_CUT] << 47) | (flag << 44)
                                     | ((depth - p) << 32) | (PI[p, P_BM] + 1))
                if p == 0:
                    status = ST_DONE
                    break
                if PI[p, P_CUT] != 0:
                    PI[p - 1, P_CUT] = 1
                sp = p - 1
                i = PI[sp, P_MI] - 1
                _backup(sp, i, MV[sp, i], -v, PI, PF, PV, ROOT, use_ab)
                continue

        # ---- expand the node at ply q (not terminal, at least one ply left) ---------------------
        rem = depth - q
        key = 0
        tt_move = -1
        if use_tt:
            key = zhash(S[q])
            slot = key & mask
            d = tt_data[slot]
            if tt_key[slot] == key and (d >> 48) == gen:
                tt_move = (d & 0xFFFFFFFF) - 1
                if q > 0 and ((d >> 32) & 0xFFF) >= rem:
                    flag = (d >> 44) & 3
                    v = tt_score[slot]
                    if flag == TT_EXACT or (flag == TT_LOWER and v >= beta) or (flag == TT_UPPER and v <= alpha):
                        hits += 1
                        if (d >> 47) & 1:
                            PI[q - 1, P_CUT] = 1
                        i = PI[q - 1, P_MI] - 1
                        _backup(q - 1, i, MV[q - 1, i], -v, PI, PF, PV, ROOT, use_ab)
                        continue
        n = legal(S[q], MV[q])
        if n == 0:  # not reached with the house's games (a final state has no moves, passes are moves)
            if q == 0:
                status = ST_DONE
                break
            i = PI[q - 1, P_MI] - 1
            _backup(q - 1, i, MV[q - 1, i], -evaluate(S[q], params), PI, PF, PV, ROOT, use_ab)
            continue
        PI[q, P_MI] = 0
        PI[q, P_NM] = n
        PI[q, P_BM] = -1
        PI[q, P_KEY] = key
        PI[q, P_CUT] = 0
        PF[q, F_A] = alpha
        PF[q, F_B] = beta
        PF[q, F_A0] = alpha
        PF[q, F_BEST] = -inf
        if use_ord:
            c = q + 1
            leafy = rem == 1
            for j in range(n):
                for k in range(width):
                    S[c, k] = S[q, k]
                apply(S[c], MV[q, j])
                OS[j] = -evaluate(S[c], params)
                if leafy and not terminal(S[c]):
                    PI[q, P_CUT] = 1
            for j in range(1, n):  # stable insertion sort, best first
                mj = MV[q, j]
                sj = OS[j]
                k = j - 1
                while k >= 0 and OS[k] < sj:
                    OS[k + 1] = OS[k]
                    MV[q, k + 1] = MV[q, k]
                    k -= 1
                OS[k + 1] = sj
                MV[q, k + 1] = mj
            if leafy:  # the children are leaves: their static scores are their values
                nodes += n
                if q == 0:
                    for j in range(n):
                        ROOT[j] = OS[j]
                PF[q, F_BEST] = OS[0]
                PI[q, P_BM] = MV[q, 0]
                PI[q, P_MI] = n
                PV[q, q] = MV[q, 0]
                PI[q, P_PVLEN] = 1
                PF[q, F_A0] = -inf  # the value is exact: make the store record it so
                PF[q, F_B] = inf
            elif tt_move >= 0:
                for j in range(n):
                    if MV[q, j] == tt_move:
                        sj = OS[j]
                        for k in range(j, 0, -1):
                            MV[q, k] = MV[q, k - 1]
                            OS[k] = OS[k - 1]
                        MV[q, 0] = tt_move
                        OS[0] = sj
                        break
        sp = q
    CTL[C_SP] = sp
    CTL[C_NODES] = nodes
    CTL[C_TTHITS] = hits
    CTL[C_STATUS] = status


@dataclass(frozen=True)
class AlphaBetaConfig:
    """Which features the search uses (each can be switched off: the Othello manager toggles them)."""
    use_alphabeta: bool = True        # False: plain minimax (every node searches all its children)
    use_cache: bool = True            # transposition table keyed by the game's Zobrist hash
    use_ordering: bool = True         # children searched best-first by the static evaluation (+ table move)
    iterative_deepening: bool = True  # search depth 1, 2, ... until a limit; False: one search at full depth
    tt_size: int = 1 << 20            # transposition-table slots, a power of two (24 bytes each)
    max_ply: int | None = None        # stack depth; None: 2 * num_actions + 4 (longest game with passes)

    def __post_init__(self):
        for name in ("use_alphabeta", "use_cache", "use_ordering", "iterative_deepening"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"AlphaBetaConfig.{name} must be True or False, got {getattr(self, name)!r}")
        t = self.tt_size
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1 or t > MAX_TT_SIZE or t & (t - 1):
            raise ValueError(f"AlphaBetaConfig.tt_size must be a power of two in 1..{MAX_TT_SIZE}, got {t!r}")
        m = self.max_ply
        if m is not None and (isinstance(m, bool) or not isinstance(m, (int, np.integer))
                              or not 1 <= m <= MAX_PLY_LIMIT):
            raise ValueError(f"AlphaBetaConfig.max_ply must be None or an integer in 1..{MAX_PLY_LIMIT}, got {m!r}")


class AlphaBeta:
    """Negamax search for one game and one evaluation kernel (K.SIG_EVALUATE).

    ``search(state, limits)`` returns a SearchResult whose scores are the evaluator's, from the view
    of the side to move at the root:
      move, value  best root move and its score (deepest completed iteration; before any iteration
                   completes: the best move by static evaluation when ordering is on, else the first
                   legal move, with its static score)
      moves, values  every root move (in the game's move order) and its score in the deepest
                   completed iteration.  With alpha-beta these are BOUNDS except for the best move:
                   a move that cannot beat the best gets an upper bound on its true score.  Plain
                   minimax gives exact scores.  Empty when no iteration completed.
      pv           principal variation (triangular table, extended from the transposition table)
      stats        nodes, depth (deepest completed iteration, 0 if none), time, tt_hits, complete
                   (True when no depth cut-off happened: the game tree was searched to its end, so
                   the value is the game's exact outcome as the evaluator scores final states),
                   iterations
    Limits: depth (plies; None = up to terminal states / max_ply, a full solve), time (with start and
    margin: a deadline), nodes (a budget over the whole search).  At least one must be set.

    The transposition table lives for one search() call.  A table entry is used when it was
    searched at least as deep as needed; in games where a position always recurs at the same ply
    (Hex, Othello without passes) the root value is then exactly the value without the table.
    """

    def __init__(self, game, evaluate_kernel, config: AlphaBetaConfig | None = None,
                 eval_params=None, clock=time.perf_counter):
        if config is None:
            config = AlphaBetaConfig()
        if not isinstance(config, AlphaBetaConfig):
            raise ValueError(f"config must be an AlphaBetaConfig, got {config!r}")
        kernels = getattr(game, "kernels", None)
        if not isinstance(kernels, K.GameKernels):
            raise ValueError(f"game must be an engines.games Game with compiled kernels, got {game!r}")
        if not callable(clock):
            raise ValueError("clock must be a callable returning seconds")
        if eval_params is None:
            eval_params = np.zeros(0)
        try:
            params = np.ascontiguousarray(eval_params, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"eval_params must be an array of numbers, got {eval_params!r}") from None
        if params.ndim != 1 or not np.isfinite(params).all():
            raise ValueError("eval_params must be a one-dimensional array of finite numbers")
        self.game = game
        self.config = config
        self.clock = clock
        self.params = params
        self._evaluate = evaluate_kernel
        self._fns = (K.function_value(kernels.legal, K.SIG_LEGAL, "the game's legal kernel"),
                     K.function_value(kernels.apply, K.SIG_APPLY, "the game's apply kernel"),
                     K.function_value(kernels.terminal, K.SIG_TERMINAL, "the game's terminal kernel"),
                     K.function_value(kernels.hash, K.SIG_HASH, "the game's hash kernel"),
                     K.function_value(evaluate_kernel, K.SIG_EVALUATE, "evaluate_kernel"))
        self.num_actions = int(game.num_actions)
        self.state_len = int(game.initial_state().shape[0])
        self.max_ply = config.max_ply or min(MAX_PLY_LIMIT, 2 * self.num_actions + 4)
        P = self.max_ply + 1
        self._S = np.zeros((P, self.state_len), dtype=np.int64)
        self._MV = np.zeros((P, self.num_actions), dtype=np.int32)
        self._PI = np.zeros((P, NPI), dtype=np.int64)
        self._PF = np.zeros((P, NPF), dtype=np.float64)
        self._PV = np.zeros((P, P), dtype=np.int32)
        self._OS = np.zeros(self.num_actions, dtype=np.float64)
        self._ROOT = np.zeros(self.num_actions, dtype=np.float64)
        tt = config.tt_size if config.use_cache else 1
        self._tt_key = np.zeros(tt, dtype=np.int64)
        self._tt_data = np.zeros(tt, dtype=np.int64)
        self._tt_score = np.zeros(tt, dtype=np.float64)
        self._CTL = np.zeros(NCTL, dtype=np.int64)
        self._gen = 0
        self._flags = ((FL_ALPHABETA if config.use_alphabeta else 0) | (FL_CACHE if config.use_cache else 0)
                       | (FL_ORDERING if config.use_ordering else 0))

    # ---- the search ---------------------------------------------------------------------------
    def search(self, state: np.ndarray, limits: Limits) -> SearchResult:
        t0 = self.clock()
        if not isinstance(limits, Limits):
            raise ValueError(f"limits must be a Limits, got {limits!r}")
        if limits.time is None and limits.depth is None and limits.nodes is None:
            raise ValueError("alpha-beta needs a time, depth or nodes limit")
        state = np.asarray(state)
        if state.dtype != np.int64 or state.shape != (self.state_len,):
            raise ValueError(f"state must be an int64 array of length {self.state_len} for {self.game!r}")
        k = self.game.kernels
        if k.terminal(state):
            raise ValueError("the game is over: there is no move to search")
        buf = np.empty(self.num_actions, dtype=np.int32)
        legal = buf[:k.legal(state, buf)].copy()
        if legal.shape[0] == 0:
            raise ValueError("no legal move in this position")
        deadline = limits.deadline(t0)
        cfg = self.config

        # a move ready before any iteration completes
        move = int(legal[0])
        child = state.copy()
        k.apply(child, move)
        value = -float(self._evaluate(child, self.params))
        if cfg.use_ordering:
            best = -np.inf
            for a in legal:
                child = state.copy()
                k.apply(child, a)
                s = -float(self._evaluate(child, self.params))
                if s > best:
                    best, move, value = s, int(a), s
        moves, values, pv = [], [], [move]
        done_depth, complete, iterations = 0, False, 0

        max_depth = self.max_ply if limits.depth is None else max(1, min(limits.depth, self.max_ply))
        depths = range(1, max_depth + 1) if cfg.iterative_deepening else (max_depth,)
        if cfg.use_cache:  # a new generation empties the table; wiped for real when the counter wraps
            if self._gen == GEN_MASK:
                self._tt_key[:] = 0
                self._tt_data[:] = 0
                self._gen = 0
            self._gen += 1
        ctl = self._CTL
        ctl[:] = 0
        ctl[C_FLAGS] = self._flags
        ctl[C_GEN] = self._gen
        budget = limits.nodes
        chunk = FIRST_CHUNK
        stopped = False
        for depth in depths:
            if budget is not None and ctl[C_NODES] >= budget:
                break
            if deadline is not None and self.clock() >= deadline:
                break
            self._S[0] = state
            self._ROOT[:] = -np.inf
            ctl[C_SP] = 0
            ctl[C_DEPTH] = depth
            ctl[C_STATUS] = ST_START
            while True:
                step = chunk if deadline is not None else MAX_CHUNK
                if budget is not None:
                    step = min(step, budget - ctl[C_NODES])
                before = ctl[C_NODES]
                t1 = self.clock()
                ctl[C_LIMIT] = before + step
                _negamax(*self._fns, self.params, self._S, self._MV, self._PI, self._PF, self._PV, self._OS,
                         self._ROOT, self._tt_key, self._tt_data, self._tt_score, ctl)
                if ctl[C_STATUS] == ST_DONE:
                    break
                now = self.clock()
                if (deadline is not None and now >= deadline) or (budget is not None and ctl[C_NODES] >= budget):
                    stopped = True
                    break
                done = ctl[C_NODES] - before
                if now > t1 and done > 0:  # aim the next call at CHUNK_SECONDS, growing at most 4x
                    chunk = int(min(max(1, done * CHUNK_SECONDS / (now - t1)), 4 * chunk + 4, MAX_CHUNK))
            if stopped:
                break
            # the iteration completed: it becomes the answer
            iterations += 1
            done_depth = depth
            n = int(self._PI[0, P_NM])
            score = dict(zip(self._MV[0, :n].tolist(), self._ROOT[:n].tolist()))
            moves = legal.tolist()
            values = [score[a] for a in moves]
            move = int(self._PI[0, P_BM])
            value = float(self._PF[0, F_BEST])
            pv = self._PV[0, :self._PI[0, P_PVLEN]].tolist()
            complete = bool(self._PI[0, P_CUT] == 0)
            if complete:
                break
        if cfg.use_cache and done_depth > 0:
            pv = self._extend_pv(state, pv, done_depth)
        elapsed = self.clock() - t0
        stats = {"nodes": int(ctl[C_NODES]), "depth": done_depth, "time": elapsed, "tt_hits": int(ctl[C_TTHITS]),
                 "complete": bool(complete), "iterations": iterations}
        return SearchResult(move=move, value=value, moves=moves, values=values, pv=pv, stats=stats)

    def _extend_pv(self, state, pv, depth):
        """Continue a principal variation cut short by a table hit with the table's best moves."""
        k = self.game.kernels
        buf = np.empty(self.num_actions, dtype=np.int32)
        s = state.copy()
        for a in pv:
            k.apply(s, a)
        mask = self._tt_key.shape[0] - 1
        while len(pv) < depth and not k.terminal(s):
            key = int(k.hash(s))
            slot = key & mask
            d = int(self._tt_data[slot])
            if self._tt_key[slot] != key or (d >> 48) != self._gen:
                break
            a = (d & 0xFFFFFFFF) - 1
            if a < 0 or a not in buf[:k.legal(s, buf)]:
                break
            pv.append(a)
            k.apply(s, a)
        return pv
