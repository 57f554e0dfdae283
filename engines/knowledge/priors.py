"""Prior sources for MCTS (signature engines.kernels.SIG_PRIOR), and "none" defaults for the
optional kernels a search takes.  Game-specific sources (Go move features, policy networks) provide
kernels with the same signature."""
import numba as nb

from engines import kernels as K


@nb.njit(K.SIG_PRIOR, cache=True)
def uniform_prior(state, actions, n, out, params):
    for i in range(n):
        out[i] = 1.0 / n


@nb.njit(K.SIG_PRIOR, cache=True)
def weighted_prior(state, actions, n, out, params):
    """Prior proportional to a fixed per-action weight vector (params[action] >= 0)."""
    total = 0.0
    for i in range(n):
        out[i] = params[actions[i]]
        total += out[i]
    for i in range(n):
        out[i] = out[i] / total if total > 0.0 else 1.0 / n


@nb.njit(K.SIG_VALUE, cache=True)
def no_value(state, params):
    """Placeholder value kernel for searches that use rollouts (never called by them)."""
    return 0.5


@nb.njit(K.SIG_POLICY, cache=True)
def no_policy(observation, packed, out):
    """Placeholder policy kernel for searches without a policy network (never called by them)."""
    out[:] = 0.0
