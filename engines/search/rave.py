"""MCTS with RAVE (all-moves-as-first values) and priors as virtual experience, generic over the
game kernels (engines/kernels.py) in the style of michi and Pachi.

Representation (as engines/search/mcts.py): the tree lives in preallocated arrays, one row per node:
  tree_f float32[cap, 6]: visits, wins, AMAF visits, AMAF wins, prior visits, prior wins
  tree_i int32[cap, 4]:   move, first child, number of children (0 = leaf), flags (EXPERIENCED: the
                          children got the experience kernel's virtual experience)
Children of a node are contiguous rows; ``wins`` of a node count for the player who made the move
into it.  Visits and wins include the virtual experience a child starts with (its prior, also
given to its AMAF counts); the prior columns keep it apart so that SearchResult reports real
visits and means.  meta int64[8]: node count, root row, deepest path, pool full, playouts counted
in the ownership sums.  Positions are not stored: a simulation replays the moves from the root.
The kernel's arguments travel in records (engines.kernels): the pool (engines.search.tree.Pool), the
scratch buffers (RaveBuffers), the parameter vectors (RaveInputs) and the kernels (RaveKernels).

Selection: the child with the best (1 - beta) * Q + beta * Q_amaf (+ c * sqrt(ln N / (n + 1)) when
c > 0), beta = n_amaf / (n_amaf + n + n * n_amaf / rave_equiv) (michi's form of Gelly and Silver's
schedule); a child without any experience gets ``fpu``.  Expansion: a leaf with ``expand_visits``
real visits (the root at once) gets the children kernel's moves, each with the experience kernel's
virtual visits and wins; with a costly experience kernel (a network: the knowledge's
``experience_visits`` > 0) the children start with the even prior, and the experience is added to
them when their parent has that many real visits, so that it runs once for many
simulations.  Playout: the knowledge's traced playout (a policy in compiled code; the game's
rollout_moves chosen uniformly when the knowledge has none), leaving the final position for the
ownership kernel.  Backup: results along the path, then AMAF: every node on the path credits each
child whose move the node's mover played first at or below the node, in the tree or in the playout
(players alternate, one move a ply; a move traced as -1, or the knowledge's ``amaf_exclude`` action
such as Go's pass, earns no credit).

The kernel is resumable, so the Python side runs it in batches and checks the clock between them;
search() on the same state goes on with the same tree (visits and ownership accumulate),
advance(move) keeps the subtree of a move played, reset() forgets everything.  ``batch_hook`` (None by
default), a callable of the searcher, runs before each batch: knowledge too costly for compiled code
(a network run by its own runtime) reads and changes the tree there (Go's policy prior at every node,
engines/players/go.py).
"""
import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np

from engines import kernels as K
from engines.knowledge.registry import heavy_knowledge_for
from engines.rng import below, make_rng
from engines.search.tree import (COUNT, FIRST, FLAGS, M_FULL, M_MAXDEPTH, M_NODES, M_ROOT, MAX_PATH, MOVE,
                                 TreeSearch)
from engines.validate import check_bool, check_int, check_number

# tree_f columns
VISITS, WINS, AVISITS, AWINS, PVISITS, PWINS = range(6)
# tree_i columns: as engines/search/tree.py (MOVE, FIRST, COUNT, FLAGS), so that its compact serves both
# meta fields: as engines/search/tree.py (M_NODES, M_ROOT, M_MAXDEPTH, M_FULL), and
M_OWNED = 4
# params fields
(P_EQUIV, P_C, P_EXPAND, P_FPU, P_AMAF, P_EVEN, P_HAS_EXP, P_GENERIC, P_HAS_OWNER, P_EXCLUDE, P_CAP,
 P_PRIOR_AMAF, P_EXP_VISITS, P_EXP_COST, P_NPARAMS) = range(15)
EXPERIENCED = 1  # tree_i flag: the node's children have had the experience kernel's virtual experience


@dataclass(frozen=True)
class RaveConfig:
    """Tunables of the RAVE search (frozen: derive variants with dataclasses.replace).  Results are
    in [0, 1] (1 = win)."""
    rave_equiv: float = 100.0  # visits at which the AMAF and the real mean weigh the same (michi: 3500;
    # against GNU Go level 10 on 9x9, 40 games each: 3500 scored 23, 1000 26, 300 27.5, 100 31, 30 31;
    # bench/results/go_experiments.md.  Hex's searcher sets its own: engines/players/hex.py)
    c: float = 0.2              # UCT exploration constant added to the blended value (michi: 0; 0.2 won the tuning)
    expand_visits: int = 8      # real visits a leaf needs before it is expanded (the root always is)
    fpu: float = 1.1            # value of a child with no experience at all (above any mean: tried first)
    amaf: bool = True           # use the AMAF statistics (False: plain UCT with priors)
    priors: bool = True         # start children with the knowledge's virtual experience (False: none)
    prior_amaf: bool = True     # give the virtual experience to the AMAF counts too (michi)
    prior_even: float = 10.0    # virtual visits at 0.5 of every child when the knowledge has no experience kernel

    def __post_init__(self):
        for name in ("rave_equiv", "c", "fpu", "prior_even"):
            check_number(f"RaveConfig.{name}", getattr(self, name), 0.0)
        if self.rave_equiv <= 0.0:
            raise ValueError(f"RaveConfig.rave_equiv must be > 0, got {self.rave_equiv!r}")
        check_int("RaveConfig.expand_visits", self.expand_visits, 0)
        for name in ("amaf", "priors", "prior_amaf"):
            check_bool(f"RaveConfig.{name}", getattr(self, name))


@nb.njit(K.SIG_TRACED_PLAYOUT, cache=True)
def no_traced_playout(s, rng, trace, params):
    """Placeholder (never called: the search then plays the game's rollout_moves itself)."""
    return 0


@nb.njit(K.SIG_EXPERIENCE, cache=True)
def no_experience(s, actions, n, visits, wins, params):
    """Placeholder (never called: the search then gives an even prior)."""
    for i in range(n):
        visits[i] = 0.0
        wins[i] = 0.0


@nb.njit(K.SIG_OWNERSHIP, cache=True)
def no_ownership(s, out):
    """Placeholder (never called without an ownership kernel)."""
    return


@nb.njit(cache=True)
def _select(tree_f, tree_i, node, params):
    """The child of node to descend into (its row)."""
    first = tree_i[node, FIRST]
    count = tree_i[node, COUNT]
    equiv = params[P_EQUIV]
    c = params[P_C]
    amaf = params[P_AMAF] != 0.0
    log_n = 0.0
    if c > 0.0:
        parent_n = 0.0
        for j in range(first, first + count):
            parent_n += tree_f[j, VISITS]
        log_n = math.log(max(parent_n, 1.0))
    best = first
    best_score = -1e300
    for j in range(first, first + count):
        n = np.float64(tree_f[j, VISITS])
        an = np.float64(tree_f[j, AVISITS]) if amaf else 0.0
        if n <= 0.0 and an <= 0.0:
            score = params[P_FPU]
        else:
            q = tree_f[j, WINS] / n if n > 0.0 else 0.0
            if an > 0.0:
                beta = an / (an + n + n * an / equiv)
                score = (1.0 - beta) * q + beta * tree_f[j, AWINS] / an
            else:
                score = q
            if c > 0.0:
                score += c * math.sqrt(log_n / (n + 1.0))
        if score > best_score:
            best_score = score
            best = j
    return best


@nb.njit(cache=True)
def _expand(pool, node, buffers, inputs, kernels):
    """Create the children of node (buffers.scratch: its position) with their virtual experience; False
    when it has none or the pool is full."""
    tree_f, tree_i, meta = pool.tree_f, pool.tree_i, pool.meta
    scratch, actions, vis, win = buffers.scratch, buffers.actions, buffers.vis, buffers.win
    params = inputs.params
    n = kernels.legal(scratch, actions)
    used = meta[M_NODES]
    if n == 0:
        return False
    if used + n > tree_f.shape[0]:
        meta[M_FULL] = 1
        return False
    if params[P_HAS_EXP] != 0.0 and params[P_EXP_VISITS] == 0.0:
        kernels.experience(scratch, actions, n, vis, win, inputs.exp_params)
    else:
        for i in range(n):
            vis[i] = params[P_EVEN]
            win[i] = 0.5 * params[P_EVEN]
    prior_amaf = params[P_PRIOR_AMAF] != 0.0
    for i in range(n):
        row = used + i
        tree_i[row, MOVE] = actions[i]
        tree_i[row, FIRST] = 0
        tree_i[row, COUNT] = 0
        tree_i[row, FLAGS] = 0
        tree_f[row, VISITS] = vis[i]
        tree_f[row, WINS] = win[i]
        tree_f[row, PVISITS] = vis[i]
        tree_f[row, PWINS] = win[i]
        tree_f[row, AVISITS] = vis[i] if prior_amaf else 0.0
        tree_f[row, AWINS] = win[i] if prior_amaf else 0.0
    tree_i[node, FIRST] = used
    tree_i[node, COUNT] = n
    meta[M_NODES] = used + n
    return True


@nb.njit(cache=True)
def _late_experience(pool, node, buffers, inputs, kernels):
    """Add the experience kernel's virtual experience to the children of node (buffers.scratch: its
    position), once: they started with the even prior."""
    tree_f, tree_i = pool.tree_f, pool.tree_i
    scratch, actions, vis, win = buffers.scratch, buffers.actions, buffers.vis, buffers.win
    params = inputs.params
    first = tree_i[node, FIRST]
    n = tree_i[node, COUNT]
    for i in range(n):
        actions[i] = tree_i[first + i, MOVE]
    kernels.experience(scratch, actions, n, vis, win, inputs.exp_params)
    prior_amaf = params[P_PRIOR_AMAF] != 0.0
    for i in range(n):
        row = first + i
        tree_f[row, VISITS] += vis[i]
        tree_f[row, WINS] += win[i]
        tree_f[row, PVISITS] += vis[i]
        tree_f[row, PWINS] += win[i]
        if prior_amaf:
            tree_f[row, AVISITS] += vis[i]
            tree_f[row, AWINS] += win[i]
    tree_i[node, FLAGS] |= EXPERIENCED


class RaveBuffers(NamedTuple):
    """The scratch space of a simulation (allocated once per search)."""
    scratch: np.ndarray   # int64[state length]: the position walked down the tree and played out
    path: np.ndarray      # int64[MAX_PATH]: the rows of the nodes on the path
    seq: np.ndarray       # int64[MAX_PATH + playout room]: the moves of the path then the playout (-1: no credit)
    first_by: np.ndarray  # int64[2, num_actions]: AMAF, the first ply >= d at which each colour played each move
    actions: np.ndarray   # int32[num_actions]: legal moves
    vis: np.ndarray       # float64[num_actions]: the children's virtual visits
    win: np.ndarray       # float64[num_actions]: and wins
    owner: np.ndarray     # float64[ownership size, at least 1]: the ownership sums


class RaveInputs(NamedTuple):
    """The float64 vectors a simulation reads."""
    params: np.ndarray          # RaveConfig and the knowledge's switches (P_* fields)
    exp_params: np.ndarray      # the experience kernel's
    playout_params: np.ndarray  # the traced playout's


class RaveKernels(NamedTuple):
    """The function values a simulation calls: the game's rules and the knowledge's kernels."""
    legal: object           # SIG_LEGAL: the children of a node (Knowledge.children, else the game's legal)
    rollout_moves: object   # SIG_LEGAL
    apply: object           # SIG_APPLY
    terminal: object        # SIG_TERMINAL
    to_move: object         # SIG_TO_MOVE
    result: object          # SIG_RESULT
    traced_playout: object  # SIG_TRACED_PLAYOUT
    experience: object      # SIG_EXPERIENCE
    ownership: object       # SIG_OWNERSHIP


K.kernel_record(RaveKernels, (K.SIG_LEGAL, K.SIG_LEGAL, K.SIG_APPLY, K.SIG_TERMINAL, K.SIG_TO_MOVE, K.SIG_RESULT,
                              K.SIG_TRACED_PLAYOUT, K.SIG_EXPERIENCE, K.SIG_OWNERSHIP))


@nb.njit(cache=True, nogil=True)  # nogil: root-parallel trees run in threads (engines/search/parallel.py)
def run_rave(root_state, pool, buffers, inputs, kernels, rng, n_sims):
    """Runs up to n_sims simulations from the root, each late experience counting as P_EXP_COST of
    them (so that a batch sized by the clock takes as long whatever the network does: a burst of
    forward passes cannot carry a batch past the deadline); returns how many simulations ran (at
    least one)."""
    tree_f, tree_i, meta = pool.tree_f, pool.tree_i, pool.meta
    scratch, path, seq, first_by = buffers.scratch, buffers.path, buffers.seq, buffers.first_by
    params = inputs.params
    apply, terminal = kernels.apply, kernels.terminal
    root = meta[M_ROOT]
    expand_visits = params[P_EXPAND]
    exclude = np.int64(params[P_EXCLUDE])
    generic = params[P_GENERIC] != 0.0
    amaf = params[P_AMAF] != 0.0
    has_owner = params[P_HAS_OWNER] != 0.0
    cap = np.int64(params[P_CAP])
    late = params[P_HAS_EXP] != 0.0 and params[P_EXP_VISITS] > 0.0
    exp_visits = params[P_EXP_VISITS]
    root_mover = kernels.to_move(root_state)
    done = 0
    work = 0.0  # the late experience's cost in simulations (a batch is a budget of work, see below)
    while done < n_sims and (done == 0 or done + work < n_sims):
        done += 1
        scratch[:] = root_state
        node = root
        depth = 0
        path[0] = root
        # selection
        while tree_i[node, COUNT] > 0 and depth < MAX_PATH - 2:
            if late and (tree_i[node, FLAGS] & EXPERIENCED) == 0 \
                    and tree_f[node, VISITS] - tree_f[node, PVISITS] >= exp_visits:
                _late_experience(pool, node, buffers, inputs, kernels)
                work += params[P_EXP_COST]
            node = _select(tree_f, tree_i, node, params)
            m = tree_i[node, MOVE]
            apply(scratch, m)
            seq[depth] = -1 if m == exclude else m
            depth += 1
            path[depth] = node
        # expansion
        if not terminal(scratch) and depth < MAX_PATH - 2 \
                and (node == root or tree_f[node, VISITS] - tree_f[node, PVISITS] >= expand_visits):
            if _expand(pool, node, buffers, inputs, kernels):
                node = _select(tree_f, tree_i, node, params)
                m = tree_i[node, MOVE]
                apply(scratch, m)
                seq[depth] = -1 if m == exclude else m
                depth += 1
                path[depth] = node
        # playout
        played = 0
        if not terminal(scratch):
            if generic:
                tail = seq.shape[0] - depth
                while not terminal(scratch) and played < cap and played < tail:
                    k = kernels.rollout_moves(scratch, buffers.actions)
                    if k == 0:
                        break
                    m = buffers.actions[below(rng, k)]
                    apply(scratch, m)
                    seq[depth + played] = -1 if m == exclude else m
                    played += 1
            else:
                played = kernels.traced_playout(scratch, rng, seq[depth:], inputs.playout_params)
        r = kernels.result(scratch)  # for player 0
        if has_owner:
            kernels.ownership(scratch, buffers.owner)
            meta[M_OWNED] += 1
        # backup: node i was entered by the player to move at depth i - 1
        for i in range(depth + 1):
            mover = root_mover if (i % 2 == 1) else 1 - root_mover
            v = r if mover == 0 else 1.0 - r
            row = path[i]
            tree_f[row, VISITS] += 1.0
            tree_f[row, WINS] += v
        if depth > meta[M_MAXDEPTH]:
            meta[M_MAXDEPTH] = depth
        # AMAF: first_by[colour, move] = the first ply >= d at which colour played move
        if amaf:
            total = depth + played
            first_by[:, :] = -1
            j = total - 1
            for d in range(depth, -1, -1):
                while j >= d:
                    a = seq[j]
                    if a >= 0:
                        first_by[(root_mover + j) % 2, a] = j
                    j -= 1
                row = path[d]
                count = tree_i[row, COUNT]
                if count == 0:
                    continue
                mover = (root_mover + d) % 2  # the player to move at depth d
                v = r if mover == 0 else 1.0 - r
                first = tree_i[row, FIRST]
                for ch in range(first, first + count):
                    m = tree_i[ch, MOVE]
                    if m != exclude and first_by[mover, m] >= d:
                        tree_f[ch, AVISITS] += 1.0
                        tree_f[ch, AWINS] += v
    return done


def default_knowledge(game):
    """The game's RAVE knowledge (engines.knowledge.registry.heavy_knowledge_for)."""
    return heavy_knowledge_for(game)


class Rave(TreeSearch):
    """RAVE MCTS for one game (the Searcher interface of engines/search/base.py).

    ``search(state, limits)`` returns a SearchResult on the WIN_PROBABILITY scale with
    stats["ownership"] (when the knowledge has an ownership kernel: the mean owner of each point,
    +1 player 0 .. -1 player 1, over every playout run from the current root);
    ``advance(move)`` keeps the subtree of a move played; ``reset()`` forgets the tree.  Calling
    search() again on the same state goes on with the same tree.  Deterministic for a fixed seed
    and simulation budget.  Limits: simulations and/or time.

    Knowledge: an engines.knowledge.rave_bundle.HeavyKnowledge (traced playout, experience, ownership,
    amaf_exclude) or a plain Knowledge (children only: random playouts, even priors); None gives
    default_knowledge(game).  ``capacity`` is the node pool's size, ``clock`` the time source.
    """

    NAME = "RAVE"
    batch_hook = None  # a callable(searcher) run before each compiled batch (module docstring)

    def __init__(self, game, config: RaveConfig | None = None, knowledge=None, seed: int = 0,
                 capacity: int = 1 << 21, clock=time.perf_counter):
        kernels = self._setup(game, RaveConfig, config, knowledge, seed, capacity, clock, default_knowledge)
        knowledge = self.knowledge
        config = self.config
        na = game.num_actions
        traced = getattr(knowledge, "traced_playout", None)
        experience = getattr(knowledge, "experience", None)
        ownership = getattr(knowledge, "ownership", None)
        self.ownership_size = int(getattr(knowledge, "ownership_size", 0)) if ownership is not None else 0
        self.playout_params = np.ascontiguousarray(getattr(knowledge, "playout_params", np.zeros(0)), np.float64)
        self.exp_params = np.ascontiguousarray(getattr(knowledge, "experience_params", np.zeros(0)), np.float64)
        pass_action = getattr(game, "pass_action", None)
        p = np.zeros(P_NPARAMS)
        p[P_EQUIV] = config.rave_equiv
        p[P_C] = config.c
        p[P_EXPAND] = config.expand_visits
        p[P_FPU] = config.fpu
        p[P_AMAF] = 1.0 if config.amaf else 0.0
        p[P_EVEN] = config.prior_even if config.priors else 0.0
        p[P_HAS_EXP] = 1.0 if (experience is not None and config.priors) else 0.0
        p[P_GENERIC] = 1.0 if traced is None else 0.0
        p[P_HAS_OWNER] = 1.0 if self.ownership_size > 0 else 0.0
        p[P_EXCLUDE] = -2 if pass_action is None else pass_action  # -2: no move is excluded
        p[P_CAP] = 3 * na
        p[P_PRIOR_AMAF] = 1.0 if config.prior_amaf else 0.0
        p[P_EXP_VISITS] = int(getattr(knowledge, "experience_visits", 0))
        p[P_EXP_COST] = float(getattr(knowledge, "experience_cost", 0.0))
        self.params = p
        self._kernels = K.make_record(
            RaveKernels, legal=knowledge.children or kernels.legal, rollout_moves=kernels.rollout_moves,
            apply=kernels.apply, terminal=kernels.terminal, to_move=kernels.to_move, result=kernels.result,
            traced_playout=traced or no_traced_playout, experience=experience or no_experience,
            ownership=ownership or no_ownership)
        self.rng = make_rng(self.seed)
        self._actions = np.empty(na, dtype=np.int32)
        self._vis = np.empty(na, dtype=np.float64)
        self._win = np.empty(na, dtype=np.float64)
        self._path = np.empty(MAX_PATH, dtype=np.int64)
        scratch = int(getattr(knowledge, "playout_scratch", 0))
        self._seq = np.empty(MAX_PATH + max(4 * na, scratch), dtype=np.int64)
        self._first_by = np.empty((2, na), dtype=np.int64)
        self._owner = np.zeros(max(self.ownership_size, 1), dtype=np.float64)
        self._pool(6)

    def reset(self) -> None:
        """Forget the tree and the ownership sums."""
        super().reset()
        self._owner[:] = 0.0

    def _rooted(self, first, count, child):
        self._owner[:] = 0.0  # the ownership sums start again
        self.meta[M_OWNED] = 0

    def _run(self, n):
        if self.batch_hook is not None:
            self.batch_hook(self)
        buffers = RaveBuffers(self._scratch, self._path, self._seq, self._first_by, self._actions, self._vis,
                              self._win, self._owner)
        inputs = RaveInputs(self.params, self.exp_params, self.playout_params)
        return run_rave(self.root_state, self.pool, buffers, inputs, self._kernels, self.rng, n)

    def _root_counts(self, first, count):
        rows = slice(first, first + count)
        visits = (self.tree_f[rows, VISITS].astype(np.float64) - self.tree_f[rows, PVISITS])
        wins = (self.tree_f[rows, WINS].astype(np.float64) - self.tree_f[rows, PWINS])
        return np.rint(np.maximum(visits, 0.0)), wins

    def _best(self, visits, means):
        return int(np.lexsort((-means, -visits))[0])  # most real visits, then the best mean

    def _pv_visits(self, first, count):
        return self.tree_f[first:first + count, VISITS] - self.tree_f[first:first + count, PVISITS]

    def _pv_counts(self, v):
        return v >= 0.5

    def _more_stats(self, first, count, moves):
        if self.ownership_size == 0:
            return {}
        owned = max(int(self.meta[M_OWNED]), 1)
        return {"ownership": (self._owner / owned).tolist()}
