"""A policy network reaches the search as a kernel carried in the knowledge bundle: any object with a
compiled forward pass (``policy_kernel()``, signature engines.kernels.SIG_POLICY), its packed
parameters (``packed()``) and its shape (``policy_shape()``) gives MCTS its priors, whatever kind of
network it is; the search never names one."""
import numba as nb
import numpy as np
import pytest

from engines import kernels as K
from engines.games import make_game
from engines.knowledge.bundle import Knowledge
from engines.search.mcts import MCTS, PRIOR, MCTSConfig
from engines.search.result import Limits
from engines.search.tree import COUNT, FIRST, MOVE


@nb.njit(K.SIG_POLICY, cache=True)
def table_policy(observation, packed, out):
    """Logits read from the packed vector, one per action, whatever the position."""
    for a in range(out.shape[0]):
        out[a] = packed[a]


class TablePolicy:
    """A policy network of a kind the engine does not know: a fixed table of logits."""

    def __init__(self, logits, inputs):
        self.logits = np.asarray(logits, dtype=np.float64)
        self.inputs = inputs

    def policy_kernel(self):
        return table_policy

    def packed(self):
        return self.logits

    def policy_shape(self):
        return self.inputs, self.logits.shape[0]


def test_a_policy_of_any_kind_gives_the_priors_of_puct():
    game = make_game("hex", size=3)
    logits = np.linspace(-2.0, 2.0, game.num_actions)
    knowledge = Knowledge(network=TablePolicy(logits, 3 * 9), prior="network")
    search = MCTS(game, MCTSConfig(selection="puct", prior_use="init"), knowledge, seed=0, capacity=1 << 10)
    search.search(game.initial_state(), Limits(simulations=1))
    first, count = int(search.tree_i[0, FIRST]), int(search.tree_i[0, COUNT])
    moves = search.tree_i[first:first + count, MOVE]
    expected = np.exp(logits[moves] - logits[moves].max())
    assert np.allclose(search.tree_f[first:first + count, PRIOR], expected / expected.sum(), atol=1e-6)


def test_a_policy_of_the_wrong_shape_or_kind_is_refused():
    game = make_game("hex", size=3)
    with pytest.raises(ValueError, match="the network must map 27 inputs to 9 outputs"):
        MCTS(game, MCTSConfig(rollout="network"), Knowledge(network=TablePolicy(np.zeros(9), 12)))
    with pytest.raises(ValueError, match="Knowledge.network must be a policy network"):
        Knowledge(network=object())
