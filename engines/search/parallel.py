"""Root parallelism: one search run as several independent trees, each in its own thread, merged
at the root.

Each tree belongs to its own searcher (the same search, knowledge and settings, seeds seed,
seed + 1, ...).  ``search(state, limits)`` runs them all at once on the same position: with a time
limit each gets the whole time, with a simulation limit each gets its share (so the total is the
budget).  The compiled kernels release the GIL (``nogil=True``), so on k cores k trees cost the
time of one.  The answer sums the root children's visits and wins over the trees and plays the
child with the most visits (then the best mean), as the searches themselves do; the principal
variation is that of the tree that gave the chosen move the most visits; "simulations" and
"tree_size" are totals, "ownership" the mean of the trees'.  Deterministic for fixed seeds and a
simulation budget (each tree is, and the merge is).

Root parallelism is the simplest of the parallel MCTS schemes (Chaslot, Winands and van den Herik
2008) and at 2-4 threads about as strong as the others, without locks in the compiled code.
"""
import dataclasses
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from engines.search.result import WIN_PROBABILITY, SearchResult


class RootParallel:
    """Several searchers of one search behind the Searcher interface (module docstring)."""

    def __init__(self, searchers):
        self.searchers = list(searchers)
        if len(self.searchers) < 2:
            raise ValueError("root parallelism needs at least 2 searchers")
        first = self.searchers[0]
        self.NAME = f"{first.NAME} x{len(self.searchers)}"
        self.game = first.game
        self.config = first.config
        self.clock = first.clock
        self._pool = ThreadPoolExecutor(max_workers=len(self.searchers) - 1, thread_name_prefix="plies-tree")

    @property
    def threads(self) -> int:
        return len(self.searchers)

    @property
    def tree_size(self) -> int:
        return sum(s.tree_size for s in self.searchers)

    def reset(self) -> None:
        for s in self.searchers:
            s.reset()

    def advance(self, move: int) -> None:
        for s in self.searchers:
            s.advance(move)

    def search(self, state: np.ndarray, limits) -> SearchResult:
        share = limits
        if limits.simulations is not None:
            share = dataclasses.replace(limits, simulations=max(1, math.ceil(limits.simulations / self.threads)))
        others = [self._pool.submit(s.search, state, share) for s in self.searchers[1:]]
        results = [self.searchers[0].search(state, share)] + [f.result() for f in others]
        return merge(results)


def merge(results) -> SearchResult:
    """One SearchResult (WIN_PROBABILITY scale) from those of independent trees on one position."""
    visits, wins = {}, {}
    for r in results:
        for move, n, mean in zip(r.moves, r.visits, r.values):
            visits[move] = visits.get(move, 0.0) + n
            wins[move] = wins.get(move, 0.0) + n * mean
    moves = list(results[0].moves) + [m for m in visits if m not in results[0].moves]
    total_visits = [visits[m] for m in moves]
    means = [wins[m] / visits[m] if visits[m] > 0 else 0.0 for m in moves]
    best = max(range(len(moves)), key=lambda i: (total_visits[i], means[i], -i))
    move = moves[best]
    # the principal variation of the tree that gave the move the most visits
    backing = [r for r in results if r.pv and r.pv[0] == move]
    pv = max(backing, key=lambda r: r.visits[r.moves.index(move)]).pv if backing else [move]
    total = sum(total_visits)
    stats = {"simulations": sum(r.stats.get("simulations", 0) for r in results),
             "tree_size": sum(r.stats.get("tree_size", 0) for r in results),
             "time": max(r.stats.get("time", 0.0) for r in results),
             "max_depth": max(r.stats.get("max_depth", 0) for r in results),
             "tree_full": any(r.stats.get("tree_full", False) for r in results)}
    owned = [r.stats["ownership"] for r in results if "ownership" in r.stats]
    if owned:
        stats["ownership"] = np.mean(np.asarray(owned, dtype=np.float64), axis=0).tolist()
    value = sum(wins.values()) / total if total > 0 else 0.5
    return SearchResult(move=move, value=value, scale=WIN_PROBABILITY, moves=moves, visits=total_visits,
                        values=means, pv=pv, stats=stats)
