"""A value network as an MCTS value kernel (K.SIG_VALUE: P(player 0 wins) of a Hex state), for
rollout="value" (AlphaZero style: the value head replaces the rollout).

value_params (float64) carries the whole network, packed (engines/knowledge/mlp.py: pack); the
output (one logit) goes through a sigmoid.  Final states get their exact result.
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import SIZE, WINNER, observe
from engines.knowledge import mlp
from engines.knowledge.bundle import Knowledge, Network


def value_params(network: Network) -> np.ndarray:
    return mlp.pack(network)


@nb.njit(K.SIG_VALUE, cache=True)
def network_value(s, params):
    if s[WINNER] >= 0:
        return 1.0 if s[WINNER] == 0 else 0.0
    n = s[SIZE]
    obs = np.empty(3 * n * n, dtype=np.float32)
    observe(s, obs)
    out = np.empty(1, dtype=np.float32)
    mlp.forward_packed(obs, params, out)
    return 1.0 / (1.0 + np.exp(-np.float64(out[0])))


def value_knowledge(policy: Network, value: Network) -> Knowledge:
    """Knowledge for MCTS with PUCT priors / rollouts from the policy and leaf values from the value net."""
    return Knowledge(network=policy, prior="network", value=network_value, value_params=value_params(value))
