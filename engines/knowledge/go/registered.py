"""Go knowledge: an evaluation for alpha-beta and a value function for MCTS, both from the score.

The score is the game's own (engines.games.go.score: Black minus White including komi; area
scoring, stones only under the Little-Go rules), so it is exact on final states and a crude estimate
before (empty regions bordered by one colour count as that colour's territory).

Registered evaluations (``engines.knowledge.registry.knowledge_for(game, name)``):
  "score" (default)   evaluate_score, and value_score as the value function

The RAVE search's knowledge (``heavy_knowledge(game, weights=None, playout="heavy")``, found by
engines/search/rave.py as this module's ``heavy_knowledge``): the score evaluation plus the heavy
playout, the michi-style tree priors (with GoWeights gammas when weights are given or shipped in
weights/go/) and the ownership kernel of engines/knowledge/go/rave_knowledge.py.
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

# ==== the RAVE search's knowledge =================================================================

PLAYOUTS = ("heavy", "plain")
# the heavy playout's probabilities (engines/knowledge/go/rave_knowledge.py P_*)
PLAYOUT_DEFAULTS = {"capture": 0.9, "pattern": 0.95, "selfatari_single": 0.1, "heavy": 1.0, "ladder": 1.0,
                    "twolib": 0.9, "nakade": 0.9, "twolib_read": 0.0, "nakade_filled": 0.0}
# the tree priors, in virtual visits (michi's values; "pass_winrate" a share, "gamma" with GoWeights)
EXPERIENCE_DEFAULTS = {"even": 10.0, "capture_one": 15.0, "capture_many": 30.0, "pat3": 10.0, "selfatari": 10.0,
                       "cfg1": 24.0, "cfg2": 22.0, "cfg3": 8.0, "emptyarea": 10.0, "gamma": 10.0,
                       "pass_winrate": 0.1, "escape": 30.0, "nakade": 30.0, "twolib": 1.0,
                       "cfg_lone": 1.0, "nakade_filled": 0.0, "critical": 0.0}
# changes of EXPERIENCE_DEFAULTS on boards of LARGE_BOARD and larger, where a search of a few thousand
# simulations leaves most nodes to their priors: the move weights count three times as much (13x13
# screen, bench/results/go_experiments.md; the defaults above were tuned on 9x9)
LARGE_BOARD = 13
LARGE_BOARD_PRIORS = {"gamma": 30.0}


def shipped_weights_path():
    """The newest weights/go/*.txt (by name, then modification time), or None."""
    import pathlib
    folder = pathlib.Path(__file__).resolve().parent.parent.parent / "weights" / "go"
    if not folder.is_dir():
        try:
            import weights
            folder = pathlib.Path(weights.__file__).resolve().parent / "go"
        except ImportError:  # pragma: no cover
            return None
    files = sorted(folder.glob("*.txt"), key=lambda f: (f.stat().st_mtime, f.name)) if folder.is_dir() else []
    return files[-1] if files else None


def playout_params(**changes) -> np.ndarray:
    """The heavy playout's params vector (PLAYOUT_DEFAULTS with changes, then michi's 3x3 table)."""
    from engines.knowledge.go import rave_knowledge as gp
    values = dict(PLAYOUT_DEFAULTS)
    for key, v in changes.items():
        if key not in values:
            raise ValueError(f"unknown playout setting {key!r}; valid: {', '.join(values)}")
        values[key] = float(v)
    p = np.zeros(gp.PLAYOUT_PARAMS_LEN)
    p[gp.P_CAPTURE], p[gp.P_PATTERN], p[gp.P_SELFATARI_1] = values["capture"], values["pattern"], values["selfatari_single"]
    p[gp.P_HEAVY], p[gp.P_LADDER] = values["heavy"], values["ladder"]
    p[gp.P_TWOLIB], p[gp.P_NAKADE] = values["twolib"], values["nakade"]
    p[gp.P_TWOLIB_READ], p[gp.P_NAKADE_FILLED] = values["twolib_read"], values["nakade_filled"]
    p[gp.PLAYOUT_HEAD:] = _michi()
    return p


def experience_params(weights=None, network: bool = False, **changes) -> np.ndarray:
    """The tree priors' params vector (EXPERIENCE_DEFAULTS with changes, michi's 3x3 table, then
    the GoWeights' feature weights and pattern table when weights is given; with ``network``, room for a
    policy network's root prior after them, empty until ``set_root_policy`` fills it)."""
    from engines.knowledge.go import rave_knowledge as gp
    from engines.knowledge.go.go5_weights import GoWeights
    values = dict(EXPERIENCE_DEFAULTS)
    for key, v in changes.items():
        if key not in values:
            raise ValueError(f"unknown prior setting {key!r}; valid: {', '.join(values)}")
        values[key] = float(v)
    order = ("even", "capture_one", "capture_many", "pat3", "selfatari", "cfg1", "cfg2", "cfg3", "emptyarea",
             "gamma", "pass_winrate", "escape", "nakade", "twolib", "cfg_lone", "nakade_filled", "critical")
    head = np.zeros(gp.EXPERIENCE_HEAD)
    head[:len(order)] = [values[k] for k in order]
    parts = [head, _michi()]
    if weights is not None:
        if not isinstance(weights, GoWeights):
            raise ValueError(f"weights must be a GoWeights or None, got {weights!r}")
        parts += [weights.weights.astype(np.float64), weights.table.astype(np.float64)]
    if network:
        if weights is None:  # no gammas: the room they take stays empty and unused
            head[order.index("gamma")] = 0.0
            parts.append(np.zeros(gp.EXPERIENCE_GAMMA_LEN - gp.EXPERIENCE_LEN))
        parts.append(np.zeros(gp.EXPERIENCE_NET_LEN - gp.EXPERIENCE_GAMMA_LEN))
    return np.concatenate(parts)


def set_root_policy(params, state, probabilities, visits: float) -> bool:
    """Writes a policy network's probabilities at state (n*n+1) into experience params made with
    ``network=True``: the tree's node of that position (and of no other) gets ``visits`` * p / max p won
    visits a child.  False (nothing written) when the params already hold this position's."""
    from engines.games.go import HASH
    from engines.knowledge.go import rave_knowledge as gp
    if params.shape[0] < gp.EXPERIENCE_NET_LEN:
        raise ValueError("these experience params have no room for a policy network (experience_params(network=True))")
    key = int(state[HASH])
    lo, hi = float(key & 0xFFFFFFFF), float((key >> 32) & 0xFFFFFFFF)
    probabilities = np.asarray(probabilities, dtype=np.float64)
    if (params[gp.E_NET_KEY_LO] == lo and params[gp.E_NET_KEY_HI] == hi and params[gp.E_NET_VISITS] == visits
            and np.array_equal(params[gp.E_NET_PROBS:gp.E_NET_PROBS + len(probabilities)], probabilities)):
        return False
    params[gp.E_NET_KEY_LO], params[gp.E_NET_KEY_HI], params[gp.E_NET_VISITS] = lo, hi, visits
    params[gp.E_NET_PROBS:] = 0.0
    params[gp.E_NET_PROBS:gp.E_NET_PROBS + len(probabilities)] = probabilities
    return True


_MICHI = []


def _michi():
    if not _MICHI:
        from engines.knowledge.go.rave_knowledge import michi_table
        _MICHI.append(michi_table())
    return _MICHI[0]


def heavy_knowledge(game, weights=None, playout: str = "heavy", playout_changes=None, prior_changes=None,
                    network: bool = False):
    """The RAVE search's Go knowledge (module docstring).  weights: a GoWeights, None for the newest
    shipped weights/go/*.txt (none shipped: no gammas), or False for no gammas; playout: "heavy"
    or "plain" (the game's uniformly random playout, traced); *_changes: dicts of the defaults to
    change (PLAYOUT_DEFAULTS, EXPERIENCE_DEFAULTS; on boards of LARGE_BOARD and larger, from
    LARGE_BOARD_PRIORS on); network: room for a policy network's root prior (``set_root_policy``)."""
    from engines.games.go import SIZE
    from engines.knowledge.go import rave_knowledge as gp
    from engines.knowledge.go.go5_prior import go5_children
    from engines.knowledge.go.go5_weights import load_weights
    from engines.knowledge.rave_bundle import HeavyKnowledge
    from engines.validate import check_choice
    check_choice("playout", playout, PLAYOUTS)
    if weights is None:
        path = shipped_weights_path()
        weights = load_weights(path) if path is not None else None
    elif weights is False:
        weights = None
    n = int(game.initial_state()[SIZE])
    priors = {**(LARGE_BOARD_PRIORS if n >= LARGE_BOARD else {}), **(prior_changes or {})}
    return HeavyKnowledge(
        evaluate=evaluate_score, value=value_score, value_params=DEFAULT_WEIGHTS, children=go5_children,
        traced_playout=gp.heavy_playout_traced if playout == "heavy" else gp.plain_playout_traced,
        playout_params=playout_params(**(playout_changes or {})),
        experience=gp.go_experience, experience_params=experience_params(weights, network, **priors),
        ownership=gp.go_ownership, ownership_size=n * n,
        playout_scratch=gp.playout_scratch(game.initial_state()) if playout == "heavy" else 0)


def warm_up(game):
    """Compile the move-feature kernels (engines/knowledge/go/features.py, go/go5_prior.py) and the policy
    network's planes (go/policy_network.py) on game."""
    from engines.knowledge.go.features import candidate_gammas, compute_features
    from engines.knowledge.go.go5_prior import PRIOR_PARAMS_LEN, go5_children, go5_prior
    from engines.knowledge.go.go5_weights import NUM_FEATURES, PATTERN_CODES
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
    from engines.knowledge.go.policy_network import NUM_PLANES, path_planes, planes_of
    from engines.knowledge.tree_prior import warm_up as warm_up_tree_prior
    planes_of(state)
    # the network's prior in a RAVE tree (engines/knowledge/tree_prior.py: TreePolicy)
    warm_up_tree_prior(path_planes, state, NUM_PLANES * (na - 1), na)
    # the RAVE search's kernels (engines/knowledge/go/rave_knowledge.py), one call each
    from engines.knowledge.go import rave_knowledge as gp
    from engines.rng import make_rng
    visits = np.empty(na, dtype=np.float64)
    wins = np.empty(na, dtype=np.float64)
    gp.go_experience(state, actions, k, visits, wins, experience_params())
    trace = np.empty(3 * na, dtype=np.int64)
    for kernel in (gp.heavy_playout_traced, gp.plain_playout_traced):
        s = state.copy()
        kernel(s, make_rng(0), trace, playout_params())
        gp.go_ownership(s, np.zeros(na - 1))
    # the dead-stone estimate from seeded playouts (engines/knowledge/go/ownership.py)
    from engines.knowledge.go.ownership import ownership
    ownership(state, 2)
