"""Go5 prior knowledge: the (wins, sims) node initialisation of the course's in-tree knowledge, and
a SIG_PRIOR kernel giving the MCTS the same numbers.

prior_knowledge(game, state, weights), for the player to move X:
  the candidates c_1..c_k = K(X) (empty-list order under the "go5" rules), then the pass;
  gamma_i from engines/knowledge/go/features.py; S = sum of gamma_i in that order; p_i = gamma_i / S;
  r_i = p_i / max p; sims_f = STRENGTH * r_i; winrate_i = 0.5 + 0.5 * r_i; wins_f = winrate_i * sims_f;
  printed integers sims = round(sims_f), wins = round(wins_f) (half to even, Python's round);
  sorted by the unrounded winrate descending, ties by the move's name ascending by code point
  (``vertex_name``: "Pass", or the column letter without 'i' and the row from 1 at the bottom, so
  "Pass" < "a1" and "a10" < "a2").  With no candidate the answer is [(pass, 10, 10)].

The prior kernel ``go5_prior`` (engines.kernels.SIG_PRIOR) writes, for the n given actions,
gamma(action) / sum of the gammas of the n actions (summed in the given order; 0 for an action that
is not a legal point, uniform if every gamma is 0).  Its params vector (``prior_params(weights)``)
is float64, PRIOR_PARAMS_LEN = 1080 + 65536 numbers:
  params[0 : 1080]            the feature weights, by feature index
  params[1080 : 1080 + 65536] the pattern table: feature index (as a float) of each 3x3 code, -1 none
(codes as in engines/knowledge/go/go5_weights.py).  A params vector of another length gives uniform
priors.  Given the children K(X) then the pass in empty-list order (``go5_children``), the MCTS's
"init" use of priors with strength 10 starts each child with 10 r visits and 10 r (0.5 + 0.5 r)
wins, r = p / max p: the unrounded sims_f and wins_f above.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.go import COLUMNS, SIZE, TO_MOVE, candidates
from engines.knowledge.go.features import MAX_FEATURES, compute_features, gamma_of, gammas
from engines.knowledge.go.go5_weights import NUM_FEATURES, PATTERN_CODES, GoWeights

STRENGTH = 10                      # virtual visits of the best move (PRIOR_KNOWLEDGE_STRENGTH)
PRIOR_PARAMS_LEN = NUM_FEATURES + PATTERN_CODES
PASS_NAME = "Pass"


def vertex_name(n: int, action: int) -> str:
    """The move's name for sorting and printing: "Pass" for n*n, else e.g. "a1", "j9", "c10"."""
    if action == n * n:
        return PASS_NAME
    if not (0 <= action < n * n) or n > len(COLUMNS):
        raise ValueError(f"no vertex name for action {action!r} on a {n}x{n} board")
    return f"{COLUMNS[action % n]}{action // n + 1}"


def prior_values(gamma_list) -> list[tuple[float, float, float, float]]:
    """(r, winrate, sims_f, wins_f) of each gamma, in the given order (the order of the sum)."""
    total = 0.0
    for g in gamma_list:
        total += float(g)
    p = [float(g) / total for g in gamma_list]
    pmax = max(p)
    out = []
    for pi in p:
        r = pi / pmax
        sims_f = STRENGTH * r
        winrate = 0.5 + 0.5 * r
        out.append((r, winrate, sims_f, winrate * sims_f))
    return out


def prior_knowledge(game, state, weights: GoWeights) -> list[tuple[int, int, int]]:
    """[(action, wins, sims), ...] for the player to move, sorted as described in the module
    docstring; the pass is action n*n."""
    actions, gam = gammas(game, state, weights)
    n = game.size
    rows = []
    for a, (_, winrate, sims_f, wins_f) in zip(actions, prior_values(gam)):
        rows.append((-winrate, vertex_name(n, a), a, int(round(wins_f)), int(round(sims_f))))
    rows.sort(key=lambda row: (row[0], row[1]))
    return [(a, wins, sims) for _, _, a, wins, sims in rows]


def prior_params(weights: GoWeights) -> np.ndarray:
    """The params vector of go5_prior (layout in the module docstring)."""
    if not isinstance(weights, GoWeights):
        raise ValueError(f"weights must be a GoWeights, got {weights!r}")
    return np.concatenate([weights.weights.astype(np.float64), weights.table.astype(np.float64)])


@nb.njit(K.SIG_PRIOR, cache=True)
def go5_prior(state, actions, n, out, params):
    """Priors proportional to the gammas of the player to move (see the module docstring)."""
    if params.shape[0] != PRIOR_PARAMS_LEN:
        for i in range(n):
            out[i] = 1.0 / n
        return
    nn = state[SIZE] * state[SIZE]
    feats = np.empty((nn + 1, MAX_FEATURES), dtype=np.int32)
    nfeat = np.empty(nn + 1, dtype=np.int32)
    compute_features(state, params[NUM_FEATURES:], feats, nfeat)
    weights = params[:NUM_FEATURES]
    total = 0.0
    for i in range(n):
        a = actions[i]
        g = gamma_of(feats, nfeat, a, weights) if 0 <= a <= nn else 0.0
        out[i] = g
        total += g
    for i in range(n):
        out[i] = out[i] / total if total > 0.0 else 1.0 / n


@nb.njit(K.SIG_LEGAL, cache=True)
def go5_children(state, out):
    """The children of a Go5 tree node: the candidates K(X) of the player to move (empty-list order
    under the "go5" rules), then the pass, always; the game-over flag is ignored."""
    k = candidates(state, state[TO_MOVE] + 1, out)
    out[k] = state[SIZE] * state[SIZE]
    return k + 1
