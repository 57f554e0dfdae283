"""What the two tree searches (engines/search/mcts.py, engines/search/rave.py) share: the node pool's
common columns and meta fields, its garbage collection (``compact``), and ``TreeSearch``, the
Python side of a resumable compiled search: setup checks, reset, tree reuse (advance), the
batch-on-the-clock loop of search() and the shape of its SearchResult.

A subclass owns its compiled kernel and its own tree_f columns; it provides ``_run(n)`` (run n
simulations from the root, return how many ran), ``_root_counts(first, count)`` (the root
children's visits and wins as float64 arrays), ``_best(visits, means)`` (the index of the move
answered), ``_pv_visits(first, count)`` and ``_pv_counts(v)`` (which child the principal variation
follows, and whether it has been visited enough to be shown), and may extend ``reset()``,
``_rooted()``, ``_resume()`` and ``_more_stats()``.
"""
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.search.base import checked_position, config_from, knowledge_from
from engines.search.result import WIN_PROBABILITY, Limits, SearchResult
from engines.validate import check_int

# tree_i columns (both searches): move, first child, number of children (0 = leaf), flags
MOVE, FIRST, COUNT, FLAGS = 0, 1, 2, 3
# meta fields (both searches): node count, root row, deepest path of the last search, pool full
M_NODES, M_ROOT, M_MAXDEPTH, M_FULL = 0, 1, 2, 3
# tree_f column 0 and 1 (both searches): visits, wins of the player who made the move into the node
VISITS, WINS = 0, 1

MAX_PATH = 4096  # deepest simulation path; a longer one stops descending and rolls out from there


class Pool(NamedTuple):
    """The node pool as one kernel argument (engines.kernels records)."""
    tree_f: np.ndarray  # float32[capacity, columns]: the search's statistics columns (VISITS, WINS first)
    tree_i: np.ndarray  # int32[capacity, 4]: MOVE, FIRST, COUNT, FLAGS
    meta: np.ndarray    # int64[8]: M_NODES, M_ROOT, M_MAXDEPTH, M_FULL, then the search's own


POOL = K.record_type(Pool, (types.float32[:, ::1], types.int32[:, ::1], types.int64[::1]))


@nb.njit(types.int64(types.float32[:, ::1], types.int32[:, ::1], types.int64, types.float32[:, ::1],
                    types.int32[:, ::1]), cache=True)
def compact(tree_f, tree_i, root, new_f, new_i):
    """Copies the subtree under root into fresh arrays (breadth first, root at row 0); returns its size."""
    new_f[0, :] = tree_f[root, :]
    new_i[0, :] = tree_i[root, :]
    used = 1
    head = 0
    while head < used:
        count = new_i[head, COUNT]
        if count > 0:
            old_first = new_i[head, FIRST]
            new_i[head, FIRST] = used
            for k in range(count):
                new_f[used + k, :] = tree_f[old_first + k, :]
                new_i[used + k, :] = tree_i[old_first + k, :]
            used += count
        head += 1
    return used


def run_batches(run, budget, deadline, clock, batch_seconds, rate_clock=None) -> int:
    """Runs run(n) in batches until budget simulations ran (None: no count limit) or the clock reads
    deadline (None: no time limit); returns how many ran.  With a deadline each batch aims at
    batch_seconds and at most a quarter of the time left; without one batches double up to 65536.
    ``rate_clock`` (default: clock) measures the batches' speed: a CPU-time clock ticks coarsely
    (every 4-10 ms under a CPU-time limit), so a search on CPU time sizes its batches by wall time,
    which a single-threaded process spends at least as fast as CPU time (the rate never overstates
    what a batch costs)."""
    budget = budget if budget is not None else (1 << 62)
    done = 0
    batch = 8
    while done < budget:
        n = min(batch, budget - done)
        if deadline is not None:
            t0 = clock()
            if t0 >= deadline:
                break
            r0 = t0 if rate_clock is None else rate_clock()
            done += run(n)
            dt = max((clock() if rate_clock is None else rate_clock()) - r0, 1e-7)
            rate = n / dt
            room = deadline - clock()
            # next batch: ~batch_seconds, and at most a quarter of what is left
            batch = int(max(1, min(rate * batch_seconds, rate * room * 0.25)))
        else:
            done += run(n)
            batch = min(batch * 2, 1 << 16)
        if done == 0:
            break
    return done


class TreeSearch:
    """The Python side shared by the tree searches (see the module's comment for what a subclass
    provides).  NAME names the search in error messages."""

    NAME = "tree search"
    BATCH_SECONDS = 0.01  # target duration of one compiled batch between clock checks
    rate_clock = None     # the clock batches are sized by (run_batches), when not the search's own clock
    deadline = None       # the running search's deadline on self.clock (None: no time limit)

    def _setup(self, game, config_class, config, knowledge, seed, capacity, clock, default_knowledge=None):
        """The checks and settings every tree search starts with; returns the game's kernels."""
        kernels = getattr(game, "kernels", None)
        if not isinstance(kernels, K.GameKernels):
            raise ValueError(f"game must be a game with compiled kernels (engines.games), got {game!r}")
        self.game = game
        self.config = config_from(config_class, config)
        self.knowledge = knowledge_from(game, knowledge, default_knowledge)
        self.seed = check_int("seed", seed)
        self.capacity = check_int("capacity (nodes)", capacity, 2)
        if not callable(clock):
            raise ValueError("clock must be a callable returning seconds")
        self.clock = clock
        self._state_len = int(game.initial_state().shape[0])
        return kernels

    def _pool(self, columns: int) -> None:
        """Allocates the node pool (tree_f with columns float32 columns) and starts afresh."""
        self.tree_f = np.zeros((self.capacity, columns), dtype=np.float32)  # zeros: pages touched only as used
        self.tree_i = np.zeros((self.capacity, 4), dtype=np.int32)
        self.meta = np.zeros(8, dtype=np.int64)
        self.root_state = None
        self.reset()

    def reset(self) -> None:
        """Forget the tree."""
        self.meta[:] = 0
        self.meta[M_NODES] = 1
        self.tree_f[0, :] = 0
        self.tree_i[0, :] = 0
        self.root_state = None

    @property
    def pool(self) -> Pool:
        """The node pool as its kernel's argument (the arrays change when advance() compacts them)."""
        return Pool(self.tree_f, self.tree_i, self.meta)

    @property
    def tree_size(self) -> int:
        """Nodes held in the tree (the root included)."""
        return int(self.meta[M_NODES])

    def _rooted(self, first: int, count: int, child: int) -> None:
        """Hook of advance(): child (a row among the old root's children first..first+count) is the root now."""

    def advance(self, move: int) -> None:
        """The game went on with move: keep its subtree (or start afresh when it is not in the tree)."""
        if self.root_state is None:
            return
        new_state = self.game.play(self.root_state, move)
        root = int(self.meta[M_ROOT])
        first, count = int(self.tree_i[root, FIRST]), int(self.tree_i[root, COUNT])
        rows = np.flatnonzero(self.tree_i[first:first + count, MOVE] == move)
        if count == 0 or rows.size == 0:
            self.reset()
            return
        child = first + int(rows[0])
        self.meta[M_ROOT] = child
        self.root_state = new_state
        self._rooted(first, count, child)
        if self.meta[M_NODES] > self.capacity // 2:  # garbage-collect everything outside the subtree
            new_f = np.zeros(self.tree_f.shape, np.float32)  # calloc: pages touched only as used
            new_i = np.zeros(self.tree_i.shape, np.int32)
            used = compact(self.tree_f, self.tree_i, child, new_f, new_i)
            self.tree_f, self.tree_i = new_f, new_i
            self.meta[M_NODES] = used
            self.meta[M_ROOT] = 0
            self.meta[M_FULL] = 0  # the pool has room again

    def _check(self, state, limits):
        state = checked_position(self.game, state, limits, self._state_len)
        if limits.depth is not None or limits.nodes is not None:
            raise ValueError(f"{self.NAME} counts simulations and time: Limits.depth and Limits.nodes are "
                             "alpha-beta budgets it cannot honour")
        if limits.simulations is None and limits.time is None:
            raise ValueError(f"{self.NAME} needs Limits.simulations or Limits.time")
        return state

    def _resume(self, root: int) -> None:
        """Hook of search(): the search goes on from root (a fresh tree's root, or the kept one)."""

    def search(self, state: np.ndarray, limits: Limits) -> SearchResult:
        """Search from state within limits (simulations and/or time on the clock)."""
        started = self.clock()
        state = self._check(state, limits)
        deadline = self.deadline = limits.deadline(started)  # (a batch hook reads it: costly knowledge stops there)
        if self.root_state is None or not np.array_equal(self.root_state, state):
            self.reset()
            self.root_state = state.copy()
        root = int(self.meta[M_ROOT])
        self._resume(root)
        self._scratch = np.empty_like(self.root_state)
        self.meta[M_MAXDEPTH] = 0
        done = run_batches(self._run, limits.simulations, deadline, self.clock, self.BATCH_SECONDS, self.rate_clock)
        if done == 0 and self.tree_i[root, COUNT] == 0:
            done += self._run(1)  # a move must exist even when the budget was already spent
        return self._result(root, done, self.clock() - started)

    def _more_stats(self, first: int, count: int, moves: list) -> dict:
        """Stats of the search's own beyond the shared ones."""
        return {}

    def _result(self, root, sims, elapsed) -> SearchResult:
        first, count = int(self.tree_i[root, FIRST]), int(self.tree_i[root, COUNT])
        moves = self.tree_i[first:first + count, MOVE].tolist()
        visits, wins = self._root_counts(first, count)
        means = np.where(visits > 0, wins / np.maximum(visits, 1e-12), 0.0)
        best = self._best(visits, means)
        pv, node = [], root
        while self.tree_i[node, COUNT] > 0 and len(pv) < 64:
            f, c = int(self.tree_i[node, FIRST]), int(self.tree_i[node, COUNT])
            seen = self._pv_visits(f, c)
            k = int(np.argmax(seen))
            if not self._pv_counts(seen[k]):
                break
            node = f + k
            pv.append(int(self.tree_i[node, MOVE]))
        total = visits.sum()
        stats = {"simulations": int(sims), "tree_size": self.tree_size, "time": elapsed,
                 "max_depth": int(self.meta[M_MAXDEPTH]), "tree_full": bool(self.meta[M_FULL])}
        stats.update(self._more_stats(first, count, moves))
        return SearchResult(
            move=moves[best], value=float(wins.sum() / total) if total > 0 else 0.5, scale=WIN_PROBABILITY,
            moves=moves, visits=visits.tolist(), values=means.tolist(), pv=pv, stats=stats)
