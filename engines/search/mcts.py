"""Monte-Carlo tree search, generic over the game kernels (engines/kernels.py).

Representation.  The tree lives in preallocated arrays with a fixed capacity (one row per node):
  tree_f float32[cap, 4]: visits, wins, prior, sum of squared results
  tree_i int32[cap, 4]:   move, first child, number of children (0 = leaf), flags (1 = pruned)
Counts are float32 to halve memory: exact up to 2**24 (16.7 million) visits per node, about 30 s of
search in the fastest game; beyond that counts grow coarsely.
Children of a node are contiguous rows.  ``wins`` of a node are counted for the player who made the
move into it, so a parent picks among its children by their own wins.  meta int64[8] holds the node
count, the root row and running statistics.  Positions are not stored: every simulation copies the
root state and replays the moves down the tree.

One compiled kernel (``run_simulations``) runs a batch of simulations: selection (UCB1 at the root
only, UCT or PUCT, with prior knowledge as node initialisation, an additive or a multiplicative
term), expansion (a leaf is expanded when it has been visited ``expand_visits`` times and the pool
has room; when the pool is full the tree stops growing and simulations go on from its leaves),
rollout (the game's random playout, a weight-vector policy, an epsilon-greedy network policy, or a
value kernel instead of a rollout) and backup, plus progressive pruning at the root.  The kernel is
resumable, so the Python side runs it in batches and checks the clock between them.  Its arguments
travel in records (engines.kernels): the pool (tree_f, tree_i, meta: engines.search.tree.Pool), the
scratch buffers (MCTSBuffers), the parameter vectors (MCTSInputs) and the kernels (MCTSKernels).
"""
import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import types

from engines import kernels as K
from engines.knowledge.bundle import NETWORK_PRIOR
from engines.knowledge.priors import no_policy, no_value, uniform_prior, weighted_prior
from engines.rng import below, make_rng, uniform
from engines.search.tree import (COUNT, FIRST, FLAGS, M_FULL, M_MAXDEPTH, M_NODES, M_ROOT, MAX_PATH, MOVE, POOL,
                                 TreeSearch)
from engines.validate import check_bool, check_choice, check_int, check_number

# tree_f columns
VISITS, WINS, PRIOR, SUMSQ = 0, 1, 2, 3
# tree_i columns: as engines/search/tree.py (MOVE, FIRST, COUNT, FLAGS); flags:
PRUNED = 1
# meta fields: as engines/search/tree.py (M_NODES, M_ROOT, M_MAXDEPTH, M_FULL)

# params fields (float64 vector handed to the kernel, built from MCTSConfig)
P_SELECT, P_C, P_PRIOR_USE, P_PRIOR_STRENGTH, P_PRIOR_BIAS, P_ROLLOUT, P_EPSILON, P_ROLLOUT_LIMIT, \
    P_PP, P_PP_RD, P_PP_MIN, P_EXPAND, P_FPU, P_PRIOR_NET, P_PARENT_VISITS, P_PRIOR_ROUNDED, \
    P_PRIOR_PLAYER0, P_EXPAND_DESCENDS, P_NPARAMS = range(19)
# codes of the parts chosen by MCTSConfig, as the kernel reads them from params
SELECT_UCB1, SELECT_UCT, SELECT_PUCT = 0, 1, 2
PRIOR_NONE, PRIOR_INIT, PRIOR_ADDITIVE, PRIOR_MULTIPLICATIVE = 0, 1, 2, 3
ROLLOUT_RANDOM, ROLLOUT_WEIGHTED, ROLLOUT_NETWORK, ROLLOUT_VALUE, ROLLOUT_PRIOR = 0, 1, 2, 3, 4
PARENT_CHILDREN, PARENT_NODE = 0, 1
SELECTIONS = {"ucb1": SELECT_UCB1, "uct": SELECT_UCT, "puct": SELECT_PUCT}
PRIOR_USES = {"none": PRIOR_NONE, "init": PRIOR_INIT, "additive": PRIOR_ADDITIVE,
              "multiplicative": PRIOR_MULTIPLICATIVE}
ROLLOUTS = {"random": ROLLOUT_RANDOM, "weighted": ROLLOUT_WEIGHTED, "network": ROLLOUT_NETWORK,
            "value": ROLLOUT_VALUE, "prior": ROLLOUT_PRIOR}
PARENT_VISITS = {"children": PARENT_CHILDREN, "node": PARENT_NODE}
FINAL_MOVES = ("most_visits_best_mean", "first_most_visited")
PRIOR_COUNTS = ("exact", "rounded")
PRIOR_VIEWS = ("mover", "player0")


@dataclass(frozen=True)
class MCTSConfig:
    """Tunables of the MCTS family (frozen: derive variants with dataclasses.replace).  Results are
    in [0, 1] (1 = win), so c is on that scale."""
    selection: str = "uct"          # "ucb1": flat Monte-Carlo, UCB1 over the root moves only; "uct"; "puct"
    c: float = 0.7                  # exploration constant
    prior_use: str = "none"         # "init": virtual visits/wins; "additive": + bias*P/(n+1);
                                    # "multiplicative": UCT exploration term scaled by P*(number of moves)
    prior_strength: float = 10.0    # virtual visits given to the best move by "init" (Go5 uses 10)
    prior_bias: float = 1.0         # weight of the "additive" term
    rollout: str = "random"         # "random" (game kernel), "weighted", "network" (epsilon-greedy), "value",
                                    # "prior" (moves drawn in proportion to the prior kernel)
    epsilon: float = 0.1            # random-move probability of the network rollout policy
    rollout_limit: int = 1000       # moves after which a policy rollout stops and the game's score decides
    progressive_pruning: bool = False
    pp_rd: float = 1.0              # pruning margin r_d, in standard deviations of the mean
    pp_min_samples: int = 50        # visits a root move needs before it can prune or be pruned
    expand_visits: int = 1          # visits a leaf needs before it is expanded (the root always is; 0: every leaf)
    expand_descends: bool = True    # after expanding a leaf, step into one of its children before the rollout
                                    # (False: roll out from the leaf itself; the root is expanded before selection)
    fpu: float = 0.5                # PUCT value of an unvisited child (first-play urgency)
    parent_visits: str = "children" # UCT's N: "children" (sum of the children's visits) or "node" (the node's own
                                    # visits; an expanded root's are set to its children's initial sums)
    prior_counts: str = "exact"     # "init" virtual visits/wins as computed, or "rounded" to integers (half to even)
    prior_view: str = "mover"       # "init" wins counted for the mover, or "player0": for player 0 whoever moves
                                    # (a player-1 child then starts with visits - wins wins of its own)
    final_move: str = "most_visits_best_mean"  # the answer: most visits, ties to the best mean, or
                                    # "first_most_visited": ties to the first child in child order

    def __post_init__(self):
        for name, table in (("selection", SELECTIONS), ("prior_use", PRIOR_USES), ("rollout", ROLLOUTS),
                            ("parent_visits", PARENT_VISITS), ("final_move", FINAL_MOVES),
                            ("prior_counts", PRIOR_COUNTS), ("prior_view", PRIOR_VIEWS)):
            check_choice(f"MCTSConfig.{name}", getattr(self, name), tuple(table))
        for name in ("c", "prior_strength", "prior_bias", "pp_rd", "fpu"):
            check_number(f"MCTSConfig.{name}", getattr(self, name), 0.0)
        check_number("MCTSConfig.epsilon", self.epsilon, 0.0, 1.0)
        for name in ("rollout_limit", "pp_min_samples"):
            check_int(f"MCTSConfig.{name}", getattr(self, name), 1)
        check_int("MCTSConfig.expand_visits", self.expand_visits, 0)
        check_bool("MCTSConfig.progressive_pruning", self.progressive_pruning)
        check_bool("MCTSConfig.expand_descends", self.expand_descends)

    def to_params(self, prior_from_network: bool = False) -> np.ndarray:
        p = np.zeros(P_NPARAMS, dtype=np.float64)
        p[P_SELECT] = SELECTIONS[self.selection]
        p[P_C] = self.c
        p[P_PRIOR_USE] = PRIOR_USES[self.prior_use]
        p[P_PRIOR_STRENGTH] = self.prior_strength
        p[P_PRIOR_BIAS] = self.prior_bias
        p[P_ROLLOUT] = ROLLOUTS[self.rollout]
        p[P_EPSILON] = self.epsilon
        p[P_ROLLOUT_LIMIT] = self.rollout_limit
        p[P_PP] = 1.0 if self.progressive_pruning else 0.0
        p[P_PP_RD] = self.pp_rd
        p[P_PP_MIN] = self.pp_min_samples
        p[P_EXPAND] = self.expand_visits
        p[P_FPU] = self.fpu
        p[P_PRIOR_NET] = 1.0 if prior_from_network else 0.0
        p[P_PARENT_VISITS] = PARENT_VISITS[self.parent_visits]
        p[P_PRIOR_ROUNDED] = 1.0 if self.prior_counts == "rounded" else 0.0
        p[P_PRIOR_PLAYER0] = 1.0 if self.prior_view == "player0" else 0.0
        p[P_EXPAND_DESCENDS] = 1.0 if self.expand_descends else 0.0
        return p


@nb.njit(cache=True)
def _select(tree_f, tree_i, node, params):
    """The child of node to descend into (its row)."""
    first = tree_i[node, FIRST]
    count = tree_i[node, COUNT]
    mode = params[P_SELECT]
    prior_use = params[P_PRIOR_USE]
    c = params[P_C]
    if params[P_PARENT_VISITS] == PARENT_NODE:
        parent_n = np.float64(tree_f[node, VISITS])
    else:
        parent_n = 0.0
        for j in range(first, first + count):
            parent_n += tree_f[j, VISITS]
    log_n = math.log(max(parent_n, 1.0))
    sqrt_n = math.sqrt(max(parent_n, 1.0))
    best = first
    best_score = -1e300
    for j in range(first, first + count):
        if tree_i[j, FLAGS] & PRUNED:
            continue
        n = tree_f[j, VISITS]
        p = tree_f[j, PRIOR]
        if mode == SELECT_PUCT:  # exploration multiplied by the prior
            q = tree_f[j, WINS] / n if n > 0 else params[P_FPU]
            score = q + c * p * sqrt_n / (1.0 + n)
        elif n <= 0:
            return j  # UCB1/UCT: an unvisited child first, in child order
        else:
            u = c * math.sqrt(log_n / n)
            if prior_use == PRIOR_MULTIPLICATIVE:
                u *= p * count
            score = tree_f[j, WINS] / n + u
            if prior_use == PRIOR_ADDITIVE:
                score += params[P_PRIOR_BIAS] * p / (n + 1.0)
        if score > best_score:
            best_score = score
            best = j
    return best


@nb.njit(cache=True)
def _prune(tree_f, tree_i, root, params):
    """Progressive pruning at the root: a move whose mean + r_d*sigma is below the best mean's
    mean - r_d*sigma stops being sampled (sigma = standard deviation of the mean)."""
    first = tree_i[root, FIRST]
    count = tree_i[root, COUNT]
    rd = params[P_PP_RD]
    min_n = params[P_PP_MIN]
    best_mean = -1.0
    best_low = -1.0
    for j in range(first, first + count):
        n = tree_f[j, VISITS]
        if n >= min_n and not (tree_i[j, FLAGS] & PRUNED):
            mean = tree_f[j, WINS] / n
            if mean > best_mean:
                var = max(tree_f[j, SUMSQ] / n - mean * mean, 0.0)
                best_mean = mean
                best_low = mean - rd * math.sqrt(var / n)
    if best_mean < 0.0:
        return
    for j in range(first, first + count):
        n = tree_f[j, VISITS]
        if n >= min_n and not (tree_i[j, FLAGS] & PRUNED):
            mean = tree_f[j, WINS] / n
            var = max(tree_f[j, SUMSQ] / n - mean * mean, 0.0)
            if mean + rd * math.sqrt(var / n) < best_low:
                tree_i[j, FLAGS] |= PRUNED


@nb.njit(cache=True)
def _expand(pool, node, mover, buffers, inputs, kernels):
    """Create the children of node, where player ``mover`` is to move (buffers.scratch: its position);
    False when it has none or the pool is full."""
    tree_f, tree_i, meta = pool.tree_f, pool.tree_i, pool.meta
    scratch, actions, priors = buffers.scratch, buffers.actions, buffers.priors
    params = inputs.params
    n = kernels.legal(scratch, actions)
    used = meta[M_NODES]
    if n == 0:
        return False
    if used + n > tree_f.shape[0]:
        meta[M_FULL] = 1
        return False
    need_prior = params[P_PRIOR_USE] != PRIOR_NONE or params[P_SELECT] == SELECT_PUCT
    if need_prior and params[P_PRIOR_NET] != 0.0:  # softmax of the policy network over the legal moves
        logits = buffers.logits
        kernels.observe(scratch, buffers.obs)
        kernels.policy(buffers.obs, inputs.net_packed, logits)
        top = -1e30
        for i in range(n):
            top = max(top, logits[actions[i]])
        total = 0.0
        for i in range(n):
            priors[i] = math.exp(logits[actions[i]] - top)
            total += priors[i]
        for i in range(n):
            priors[i] /= total
    elif need_prior:
        kernels.prior(scratch, actions, n, priors, inputs.prior_params)
    pmax = 0.0
    for i in range(n):
        p = priors[i] if need_prior else 1.0 / n
        pmax = max(pmax, p)
    for i in range(n):
        row = used + i
        p = priors[i] if need_prior else 1.0 / n
        tree_i[row, MOVE] = actions[i]
        tree_i[row, FIRST] = 0
        tree_i[row, COUNT] = 0
        tree_i[row, FLAGS] = 0
        tree_f[row, PRIOR] = p
        tree_f[row, SUMSQ] = 0.0
        if params[P_PRIOR_USE] == PRIOR_INIT and pmax > 0.0:
            # knowledge as node initialisation: a child with prior ratio r = P / Pmax starts with
            # strength * r virtual visits, of which a share 0.5 + 0.5 r are wins
            r = p / pmax
            visits = params[P_PRIOR_STRENGTH] * r
            wins = visits * (0.5 + 0.5 * r)
            if params[P_PRIOR_ROUNDED] != 0.0:
                visits = np.rint(visits)
                wins = np.rint(wins)
            if params[P_PRIOR_PLAYER0] != 0.0 and mover == 1:
                wins = visits - wins  # the prior's wins are player 0's: the mover's own are the rest
            tree_f[row, VISITS] = visits
            tree_f[row, WINS] = wins
        else:
            tree_f[row, VISITS] = 0.0
            tree_f[row, WINS] = 0.0
    tree_i[node, FIRST] = used
    tree_i[node, COUNT] = n
    meta[M_NODES] = used + n
    if params[P_PARENT_VISITS] == PARENT_NODE and node == meta[M_ROOT]:
        # the root's own count starts as its children's (so that ln N is defined); its wins are
        # counted for the player who moved into it, the one not to move now
        visits = 0.0
        mover_wins = 0.0
        for row in range(used, used + n):
            visits += tree_f[row, VISITS]
            mover_wins += tree_f[row, WINS]
        tree_f[node, VISITS] = visits
        tree_f[node, WINS] = visits - mover_wins
    return True


@nb.njit(cache=True)
def _policy_rollout(s, rng, buffers, inputs, kernels):
    """A rollout from s driven by a weight vector (ROLLOUT_WEIGHTED), the prior kernel (ROLLOUT_PRIOR) or
    an epsilon-greedy network (ROLLOUT_NETWORK)."""
    actions, priors, obs, logits = buffers.actions, buffers.priors, buffers.obs, buffers.logits
    params, weights = inputs.params, inputs.weights
    rollout_moves, apply, terminal, result = kernels.rollout_moves, kernels.apply, kernels.terminal, kernels.result
    mode = params[P_ROLLOUT]
    limit = params[P_ROLLOUT_LIMIT]
    steps = 0
    while not terminal(s) and steps < limit:
        n = rollout_moves(s, actions)
        if n == 0:
            break
        pick = 0
        if mode == ROLLOUT_WEIGHTED:
            total = 0.0
            for i in range(n):
                total += weights[actions[i]]
            if total > 0.0:
                x = uniform(rng) * total
                pick = n - 1
                for i in range(n):
                    x -= weights[actions[i]]
                    if x < 0.0:
                        pick = i
                        break
            else:
                pick = below(rng, n)
        elif mode == ROLLOUT_PRIOR:
            kernels.prior(s, actions, n, priors, inputs.prior_params)
            total = 0.0
            for i in range(n):
                total += priors[i]
            if total > 0.0:
                x = uniform(rng) * total
                pick = n - 1
                for i in range(n):
                    x -= priors[i]
                    if x < 0.0:
                        pick = i
                        break
            else:
                pick = below(rng, n)
        elif uniform(rng) < params[P_EPSILON]:
            pick = below(rng, n)
        else:
            kernels.observe(s, obs)
            kernels.policy(obs, inputs.net_packed, logits)
            best = -1e30
            for i in range(n):
                if logits[actions[i]] > best:
                    best = logits[actions[i]]
                    pick = i
        apply(s, actions[pick])
        steps += 1
    return result(s)


class MCTSBuffers(NamedTuple):
    """The scratch space of a simulation (allocated once per search)."""
    scratch: np.ndarray     # int64[state length]: the position walked down the tree and rolled out
    path: np.ndarray        # int64[MAX_PATH]: the rows of the nodes on the path
    path_mover: np.ndarray  # int64[MAX_PATH]: the player who moved into each of them
    actions: np.ndarray     # int32[num_actions]: legal moves
    priors: np.ndarray      # float64[num_actions]: their priors
    obs: np.ndarray         # float32[observation size]: the policy network's input
    logits: np.ndarray      # float32[num_actions]: its output


class MCTSInputs(NamedTuple):
    """The float64 vectors a simulation reads: MCTSConfig's codes and the knowledge's parameters."""
    params: np.ndarray        # MCTSConfig.to_params (P_* fields)
    prior_params: np.ndarray  # the prior kernel's
    weights: np.ndarray       # rollout weights, one per action (ROLLOUT_WEIGHTED)
    value_params: np.ndarray  # the value kernel's (ROLLOUT_VALUE)
    net_packed: np.ndarray    # the policy network, as its policy kernel reads it


class MCTSKernels(NamedTuple):
    """The function values a simulation calls: the game's rules and the knowledge's kernels."""
    legal: object          # SIG_LEGAL: the children of a node (Knowledge.children, else the game's legal)
    rollout_moves: object  # SIG_LEGAL
    apply: object          # SIG_APPLY
    terminal: object       # SIG_TERMINAL
    to_move: object        # SIG_TO_MOVE
    result: object         # SIG_RESULT
    playout: object        # SIG_PLAYOUT (ROLLOUT_RANDOM)
    observe: object        # SIG_OBSERVE (the policy network's input)
    prior: object          # SIG_PRIOR
    value: object          # SIG_VALUE (ROLLOUT_VALUE)
    policy: object         # SIG_POLICY: the policy network's forward pass


BUFFERS = K.record_type(MCTSBuffers, (K.STATE, types.int64[::1], types.int64[::1], K.ACTIONS, types.float64[::1],
                                  types.float32[::1], types.float32[::1]))
INPUTS = K.record_type(MCTSInputs, (K.PARAMS,) * 5)
KERNELS = K.kernel_record(MCTSKernels, (K.SIG_LEGAL, K.SIG_LEGAL, K.SIG_APPLY, K.SIG_TERMINAL, K.SIG_TO_MOVE,
                                    K.SIG_RESULT, K.SIG_PLAYOUT, K.SIG_OBSERVE, K.SIG_PRIOR, K.SIG_VALUE,
                                    K.SIG_POLICY))
_SIM_SIG = types.int64(K.STATE, POOL, BUFFERS, INPUTS, KERNELS, K.RNG, types.int64)


@nb.njit(_SIM_SIG, cache=True)
def run_simulations(root_state, pool, buffers, inputs, kernels, rng, n_sims):
    """Runs n_sims simulations from the root; returns how many ran."""
    tree_f, tree_i, meta = pool.tree_f, pool.tree_i, pool.meta
    scratch, path, path_mover = buffers.scratch, buffers.path, buffers.path_mover
    params = inputs.params
    apply, terminal, to_move = kernels.apply, kernels.terminal, kernels.to_move
    root = meta[M_ROOT]
    flat = params[P_SELECT] == SELECT_UCB1  # flat Monte-Carlo: the tree never grows below the root
    rollout_mode = params[P_ROLLOUT]
    expand_visits = params[P_EXPAND]
    descends = params[P_EXPAND_DESCENDS] != 0.0
    for _ in range(n_sims):
        scratch[:] = root_state
        node = root
        depth = 0
        path[0] = root
        path_mover[0] = 1 - to_move(scratch)
        if not descends and tree_i[root, COUNT] == 0 and not terminal(scratch):  # the root first
            _expand(pool, root, to_move(scratch), buffers, inputs, kernels)
        # selection
        while tree_i[node, COUNT] > 0 and depth < MAX_PATH - 2 and not (flat and depth >= 1):
            mover = to_move(scratch)
            node = _select(tree_f, tree_i, node, params)
            apply(scratch, tree_i[node, MOVE])
            depth += 1
            path[depth] = node
            path_mover[depth] = mover
        # expansion
        if not terminal(scratch) and depth < MAX_PATH - 2 and (depth == 0 or not flat) \
                and (node == root or tree_f[node, VISITS] >= expand_visits):
            mover = to_move(scratch)
            if _expand(pool, node, mover, buffers, inputs, kernels) and (descends or node == root):
                node = _select(tree_f, tree_i, node, params)
                apply(scratch, tree_i[node, MOVE])
                depth += 1
                path[depth] = node
                path_mover[depth] = mover
        # rollout: r is the result for player 0
        if terminal(scratch):
            r = kernels.result(scratch)
        elif rollout_mode == ROLLOUT_RANDOM:
            r = kernels.playout(scratch, rng)
        elif rollout_mode == ROLLOUT_VALUE:
            r = kernels.value(scratch, inputs.value_params)
        else:
            r = _policy_rollout(scratch, rng, buffers, inputs, kernels)
        # backup: each node's wins count for the player who made the move into it
        for i in range(depth + 1):
            v = r if path_mover[i] == 0 else 1.0 - r
            row = path[i]
            tree_f[row, VISITS] += 1.0
            tree_f[row, WINS] += v
            tree_f[row, SUMSQ] += v * v
        if depth > meta[M_MAXDEPTH]:
            meta[M_MAXDEPTH] = depth
        if params[P_PP] != 0.0:
            _prune(tree_f, tree_i, root, params)
    return n_sims


class MCTS(TreeSearch):
    """MCTS for one game (the Searcher interface of engines/search/base.py).

    ``search(state, limits)`` returns a SearchResult on the WIN_PROBABILITY scale; ``advance(move)``
    keeps the subtree of a move played (tree reuse); ``reset()`` forgets the tree.  Deterministic
    for a fixed seed and simulation budget.  Limits: simulations and/or time (depth and nodes are
    alpha-beta budgets and are refused).

    Knowledge comes in one bundle (engines.knowledge.bundle.Knowledge; None: the game's registered
    default), of which the config decides what is used: ``prior`` / ``prior_params`` (uniform when
    None; "network" for the softmax of ``network``) when selection is "puct" or prior_use is not
    "none"; ``rollout_weights`` for rollout="weighted"; ``network`` for rollout="network"; ``value`` /
    ``value_params`` for rollout="value"; a bundle's ``playout`` kernel, when it has one, replaces the
    game's for rollout="random".  ``capacity`` is the node pool's size (rows), ``clock``
    the time source of Limits.time (seconds).
    """

    NAME = "MCTS"

    def __init__(self, game, config: MCTSConfig | None = None, knowledge=None, seed: int = 0,
                 capacity: int = 1 << 23, clock=time.perf_counter):
        kernels = self._setup(game, MCTSConfig, config, knowledge, seed, capacity, clock)
        knowledge = self.knowledge
        config = self.config
        na = game.num_actions
        obs_size = int(np.prod(game.observation_shape))

        prior = knowledge.prior
        prior_from_network = isinstance(prior, str) and prior == NETWORK_PRIOR
        if prior is weighted_prior and knowledge.prior_params.shape != (na,):
            raise ValueError(f"prior weights must be {na} numbers, one per action, got {knowledge.prior_params.shape[0]}")
        prior = uniform_prior if prior is None or prior_from_network else prior
        self.prior_params = knowledge.prior_params.copy()
        if knowledge.rollout_weights is not None:
            if knowledge.rollout_weights.shape != (na,):
                raise ValueError(f"rollout_weights must be {na} numbers, one per action, "
                                 f"got {knowledge.rollout_weights.shape[0]}")
            self.rollout_weights = knowledge.rollout_weights.copy()
        elif config.rollout == "weighted":
            raise ValueError("rollout='weighted' needs Knowledge.rollout_weights")
        else:
            self.rollout_weights = np.zeros(1)
        net = knowledge.network  # a policy network: its forward pass is a kernel, its weights one vector
        policy = no_policy
        if net is not None:
            inputs, outputs = net.policy_shape()
            if (inputs, outputs) != (obs_size, na):
                raise ValueError(f"the network must map {obs_size} inputs to {na} outputs, got {inputs} to {outputs}")
            self.net_packed = net.packed()
            policy = net.policy_kernel()
        elif config.rollout == "network":
            raise ValueError("rollout='network' needs Knowledge.network")
        else:
            self.net_packed = np.zeros(1)
        if config.rollout == "value" and knowledge.value is None:
            raise ValueError("rollout='value' needs a value kernel (Knowledge.value)")
        value = knowledge.value or no_value
        self.value_params = knowledge.value_params.copy()
        self.params = config.to_params(prior_from_network)
        self._kernels = K.make_record(
            MCTSKernels, legal=knowledge.children or kernels.legal, rollout_moves=kernels.rollout_moves,
            apply=kernels.apply, terminal=kernels.terminal, to_move=kernels.to_move, result=kernels.result,
            playout=knowledge.playout or kernels.playout, observe=kernels.observe, prior=prior, value=value,
            policy=policy)
        self.rng = make_rng(self.seed)
        self._actions = np.empty(na, dtype=np.int32)
        self._priors = np.empty(na, dtype=np.float64)
        self._obs = np.zeros(obs_size, dtype=np.float32)
        self._logits = np.zeros(na, dtype=np.float32)
        self._path = np.empty(MAX_PATH, dtype=np.int64)
        self._path_mover = np.empty(MAX_PATH, dtype=np.int64)
        self._pool(4)

    def _rooted(self, first, count, child):
        self.tree_i[first:first + count, FLAGS] &= ~PRUNED  # pruning marks belong to the old root
        self.tree_i[child, FLAGS] = 0

    def _run(self, n):
        buffers = MCTSBuffers(self._scratch, self._path, self._path_mover, self._actions, self._priors, self._obs,
                          self._logits)
        inputs = MCTSInputs(self.params, self.prior_params, self.rollout_weights, self.value_params, self.net_packed)
        return run_simulations(self.root_state, self.pool, buffers, inputs, self._kernels, self.rng, n)

    def _resume(self, root):
        first, count = self.tree_i[root, FIRST], self.tree_i[root, COUNT]
        self.tree_i[first:first + count, FLAGS] &= ~PRUNED

    def _root_counts(self, first, count):
        rows = slice(first, first + count)
        return self.tree_f[rows, VISITS].astype(np.float64), self.tree_f[rows, WINS].astype(np.float64)

    def _best(self, visits, means):
        if self.config.final_move == "first_most_visited":
            return int(np.argmax(visits))  # the first of the most visited, in child order
        return int(np.lexsort((-means, -visits))[0])  # most visits, then best mean

    def _pv_visits(self, first, count):
        return self.tree_f[first:first + count, VISITS]

    def _pv_counts(self, v):
        return v > 0

    def _more_stats(self, first, count, moves):
        return {"pruned": [int(m) for m, f in zip(moves, self.tree_i[first:first + count, FLAGS]) if f & PRUNED]}
