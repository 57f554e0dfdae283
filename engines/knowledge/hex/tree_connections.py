"""H-search's connections at the nodes of the RAVE tree (issue 33 item 3: must-play in the tree as well
as at the root), as MoHex applies its knowledge to a node once the node has enough visits.

``TreeConnections`` is a RAVE searcher's ``batch_hook`` (engines/search/rave.py): before each compiled
batch, the expanded nodes with at least ``min_visits`` real visits not yet flagged VC_CHECKED (the root
at once) are collected by tree_prior's compiled walk, and for each one ``apply_connections`` replays its
position and asks the opponent's H-search (engines/knowledge/hex/vc.py ``must_play_kernel``) where the
mover must play:
  * nowhere (the opponent is connected, or its edge-to-edge semis leave no cell): the mover has lost,
    and the node is won for the player who moved into it;
  * in the must-play cells: every child outside them is a proven loss for the mover.
A decided node or a pruned child gets PROVEN virtual visits (won or lost) as the RAVE tree's
priors do (the prior columns keep them apart from the real visits): the search then never prefers a
proven loss to a move still open, and goes to a proven win.  The proofs are soft: nothing is backed up
above the node.  The mover's own H-search is not run: a node whose mover wins is mostly found one level
up, as a child outside its parent's must-play cells, and one search a node instead of two did no worse
at equal time (46/80 against 42/80 against the default; neither measurably better than without it:
bench/results/hex_tree_connections.md).  The root's own value is left alone (ConnectionRoot decides at
the root; its children are pruned like any node's).  Each node is checked once; its flag travels with
the subtree kept across moves.  H-search runs between the compiled batches
(it is compiled itself, but the RAVE kernel cannot hold its scratch), so a node that reaches min_visits
waits at most one batch; it runs a node at a time and stops at the search's deadline (a node costs a
few ms: one H-search, bounded by TREE_LIMITS, past the deadline at most, inside the move's margin).
"""
import time

import numba as nb
import numpy as np

from engines.games.hex import TO_MOVE, WINNER, apply
from engines.knowledge.hex.vc import HLimits, HSearch, must_play_kernel
from engines.knowledge.tree_prior import (M_ROOT, T_AVISITS, T_AWINS, T_COUNT, T_FIRST, T_FLAGS, T_MOVE, T_PVISITS,
                                          T_PWINS, T_VISITS, T_WINS, tree_frontier)

VC_CHECKED = 4     # tree_i flag: H-search has looked at the node (rave's EXPERIENCED is 1, NET_PRIORED 2)
PROVEN = 100_000.0  # virtual visits of a decided node or a pruned child: far more than a search's real ones
# H-search in the tree: many nodes a move, so the operations are bounded lower than the root's
# (engines/knowledge/hex/vc.py DEFAULT_LIMITS: 2,000,000).
TREE_LIMITS = HLimits(max_ops=200_000, max_vcs=100_000)
# counters of apply_connections (stats): nodes checked, nodes whose mover has lost, children pruned
C_NODES, C_LOST, C_PRUNED, C_COUNT = range(4)


@nb.njit(cache=True)
def _add_proven(tree_f, row, proven, won):
    """row gets ``proven`` virtual visits, all won (won) or all lost, in the prior columns too; once (a
    child outside its parent's must-play cells may also be decided by its own connections, and sound
    connections agree)."""
    if tree_f[row, T_PVISITS] >= proven:
        return
    wins = proven if won else 0.0
    tree_f[row, T_VISITS] += proven
    tree_f[row, T_WINS] += wins
    tree_f[row, T_PVISITS] += proven
    tree_f[row, T_PWINS] += wins
    tree_f[row, T_AVISITS] += proven
    tree_f[row, T_AWINS] += wins


@nb.njit(cache=True)
def apply_connections(tree_f, tree_i, root, root_state, rows, paths, depths, count, work, limits, cells, mask,
                      scratch, proven, stats):
    """Checks the nodes rows[:count] (their positions: root_state after paths[k, :depths[k]]) with
    H-search and marks what is decided (module docstring); flags each VC_CHECKED."""
    for k in range(count):
        node = rows[k]
        tree_i[node, T_FLAGS] |= VC_CHECKED
        scratch[:] = root_state
        for d in range(depths[k]):
            apply(scratch, paths[k, d])
        if scratch[WINNER] >= 0:
            continue
        stats[C_NODES] += 1
        m = must_play_kernel(scratch, scratch[TO_MOVE], work, limits, cells)
        if m == 0:  # the mover has lost: won for who moved in
            if node != root:
                _add_proven(tree_f, node, proven, True)
            stats[C_LOST] += 1
            continue
        if m < 0:
            continue
        mask[:] = False
        for i in range(m):
            mask[cells[i]] = True
        first = tree_i[node, T_FIRST]
        for j in range(first, first + tree_i[node, T_COUNT]):
            if not mask[tree_i[j, T_MOVE]]:
                _add_proven(tree_f, j, proven, False)
                stats[C_PRUNED] += 1


class TreeConnections:
    """H-search at the nodes of a RAVE tree with ``min_visits`` real visits, as a searcher's batch_hook
    (module docstring).  ``stats`` counts the work and what it found (figures, not decisions), ``seconds``
    its time."""

    def __init__(self, size: int, min_visits: int, limits: HLimits = TREE_LIMITS, batch: int = 64):
        self.hsearch = HSearch(size, limits)
        self.min_visits = int(min_visits)
        nn = size * size
        self.rows = np.empty(batch, dtype=np.int64)
        self.paths = np.empty((batch, nn), dtype=np.int64)
        self.depths = np.empty(batch, dtype=np.int64)
        self.cells = np.empty(nn, dtype=np.int64)
        self.mask = np.zeros(nn, dtype=np.bool_)
        self.stack = np.empty(2 * 65536, dtype=np.int64)
        self.stats = np.zeros(C_COUNT, dtype=np.int64)
        self.scratch = None
        self.seconds = 0.0

    def __call__(self, searcher):
        started = time.perf_counter()
        if self.scratch is None or self.scratch.shape != searcher.root_state.shape:
            self.scratch = np.empty_like(searcher.root_state)
        root = int(searcher.meta[M_ROOT])
        count = tree_frontier(searcher.tree_f, searcher.tree_i, root, float(self.min_visits), self.rows, self.paths,
                              self.depths, self.stack, VC_CHECKED)
        deadline = searcher.deadline
        for k in range(count):  # a node at a time: H-search's time stays inside the move's
            if deadline is not None and searcher.clock() >= deadline:
                break           # the nodes left wait for the next search (they are not flagged)
            apply_connections(searcher.tree_f, searcher.tree_i, root, searcher.root_state, self.rows[k:k + 1],
                              self.paths[k:k + 1], self.depths[k:k + 1], 1, self.hsearch.work, self.hsearch.limits,
                              self.cells, self.mask, self.scratch, PROVEN, self.stats)
        self.seconds += time.perf_counter() - started

    def figures(self) -> dict:
        return {"nodes": int(self.stats[C_NODES]), "lost": int(self.stats[C_LOST]), "pruned": int(self.stats[C_PRUNED]),
                "seconds": round(self.seconds, 3)}


class Hooks:
    """Several batch hooks run in order as one (the policy CNN's prior, then the connections)."""

    def __init__(self, *hooks):
        self.hooks = [h for h in hooks if h is not None]

    def __call__(self, searcher):
        for hook in self.hooks:
            hook(searcher)


def warm_up(game):
    """Compile apply_connections on a root with one child (registered.warm_up)."""
    hook = TreeConnections(game.size, 1, HLimits(max_vcs=4096), batch=2)
    state = game.initial_state()
    tree_f = np.zeros((2, 6), dtype=np.float32)
    tree_i = np.zeros((2, 4), dtype=np.int32)
    tree_i[0, T_FIRST], tree_i[0, T_COUNT] = 1, 1
    rows = np.zeros(1, np.int64)
    tree_frontier(tree_f, tree_i, 0, 1.0, rows, hook.paths, np.zeros(1, np.int64), hook.stack, VC_CHECKED)
    apply_connections(tree_f, tree_i, 0, state, rows, hook.paths, np.zeros(1, np.int64), 1, hook.hsearch.work,
                      hook.hsearch.limits, hook.cells, hook.mask, np.empty_like(state), PROVEN, hook.stats)


__all__ = ["TreeConnections", "Hooks", "VC_CHECKED", "PROVEN", "TREE_LIMITS"]
