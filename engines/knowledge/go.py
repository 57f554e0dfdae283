"""Go knowledge: an evaluation for alpha-beta and a value function for MCTS, both from the score.

The score is the game's own (engines.games.go.score: Black minus White including komi; area
scoring, stones only under the Little-Go rules), so it is exact on final states and a crude estimate
before (empty regions bordered by one colour count as that colour's territory).

Registered evaluations (``engines.knowledge.bundle.knowledge_for(game, name)``):
  "score" (default)   evaluate_score, and value_score as the value function
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.go import result, score, terminal, to_move
from engines.knowledge.scores import WIN_SCORE, final_score

VALUE_SCALE = 0  # params[VALUE_SCALE]: points of score per unit of the logistic's argument
DEFAULT_WEIGHTS = np.array([5.0], dtype=np.float64)  # the value's scale, in points
_DEFAULT_SCALE = 5.0  # used when params is shorter (an exception cannot cross a compiled search)


@nb.njit(K.SIG_EVALUATE, cache=True)
def evaluate_score(s, params):
    """The score from the view of the side to move.  Final states score WIN_SCORE * sign(d) + d
    (d = the final score; 0 for a draw), beyond every heuristic score; others the score itself,
    clamped to +-(WIN_SCORE - 1).  params is ignored."""
    d = score(s)
    if to_move(s) == 1:
        d = -d
    if terminal(s):
        return final_score(d)
    limit = WIN_SCORE - 1.0
    return min(max(d, -limit), limit)


@nb.njit(K.SIG_VALUE, cache=True)
def value_score(s, params):
    """P(Black wins): exact 1 / 0.5 / 0 on final states, else the logistic of the score for Black
    with scale params[VALUE_SCALE] (5 points if params is shorter)."""
    if terminal(s):
        return result(s)
    scale = params[VALUE_SCALE] if params.shape[0] > VALUE_SCALE else _DEFAULT_SCALE
    return 1.0 / (1.0 + np.exp(-score(s) / scale))


# ==== registration ===============================================================================

DEFAULT_EVALUATION = "score"


def _score(game):
    from engines.knowledge.bundle import Knowledge
    return Knowledge(evaluate=evaluate_score, value=value_score, value_params=DEFAULT_WEIGHTS)


EVALUATIONS = {"score": _score}  # name -> game -> Knowledge


def warm_up(game):
    """Compile the move-feature kernels (engines/knowledge/go_features.py, go_prior.py) on game."""
    from engines.knowledge.go_features import candidate_gammas, compute_features
    from engines.knowledge.go_prior import PRIOR_PARAMS_LEN, go5_children, go5_prior
    from engines.knowledge.go_weights import NUM_FEATURES, PATTERN_CODES
    state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
    na = game.num_actions
    actions = np.empty(na, dtype=np.int32)
    out = np.empty(na, dtype=np.float64)
    feats = np.empty((na, 6), dtype=np.int32)
    nfeat = np.empty(na, dtype=np.int32)
    for table in (np.full(PATTERN_CODES, -1, dtype=np.int32), np.full(PATTERN_CODES, -1.0)):
        compute_features(state, table, feats, nfeat)
    candidate_gammas(state, np.ones(NUM_FEATURES), np.full(PATTERN_CODES, -1, dtype=np.int32), actions, out)
    k = go5_children(state, actions)
    go5_prior(state, actions, k, out, np.zeros(PRIOR_PARAMS_LEN))
