"""A policy network the compiled search cannot call (one of any architecture, run by onnxruntime:
engines/knowledge/hex/network.py's RuntimeNetwork) as the RAVE search's prior at the root.

The search is compiled and a network run by onnxruntime is Python, so the network is asked once a move,
from Python, before the search: its move probabilities at the root become the root's children's
virtual experience, as the compiled networks' experience gives every node's (registered.py's
network_experience: NET_VISITS virtual visits won at a rate from NET_LOW, the least likely move, to
NET_HIGH, the network's favourite, in proportion to p / p_max).  Below the root the children start
with the even prior, as without a network.

The experience kernel's params (float64): [visits, low, high, even, to_move, the n*n cells of the root
(0 empty, 1 player 0, 2 player 1), the n*n probabilities]; the kernel gives the root's children the
network's experience when the node's position is that root, and the even prior (``even`` virtual
visits at one half) to every other node.  The params live in the searcher (its ``exp_params``): a
``RootPrior`` writes them there before each search, and starts the tree afresh when the root changed
(a node made before it was the root has the even prior).
"""
import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import HEADER, SIZE, TO_MOVE

P_VISITS, P_LOW, P_HIGH, P_EVEN, P_TO_MOVE, P_CELLS = 0, 1, 2, 3, 4, 5


def params_width(n: int) -> int:
    return P_CELLS + 2 * n * n


@nb.njit(K.SIG_EXPERIENCE, cache=True)
def root_experience(s, actions, n, visits, wins, params):
    """The network's experience for the root's children, the even prior for any other node's."""
    nn = s[SIZE] * s[SIZE]
    root = params.shape[0] == P_CELLS + 2 * nn and params[P_TO_MOVE] == s[TO_MOVE]
    if root:
        for i in range(nn):
            if params[P_CELLS + i] != s[HEADER + i]:
                root = False
                break
    top = 0.0
    if root:
        for i in range(n):
            top = max(top, params[P_CELLS + nn + actions[i]])
    if top <= 0.0:
        for i in range(n):
            visits[i] = params[P_EVEN]
            wins[i] = 0.5 * params[P_EVEN]
        return
    for i in range(n):
        rate = params[P_LOW] + (params[P_HIGH] - params[P_LOW]) * params[P_CELLS + nn + actions[i]] / top
        visits[i] = params[P_VISITS]
        wins[i] = params[P_VISITS] * rate


class RootPrior:
    """One network as one searcher's root prior (visits, low, high: the virtual experience, as
    registered.py's NET_VISITS, NET_LOW, NET_HIGH for the compiled networks): ``knowledge(bundle)``
    puts the experience kernel into the RAVE search's HeavyKnowledge; ``attach(searcher)`` after the
    searcher is built; ``prepare(state)`` before each search of state (the network's forward pass,
    in onnxruntime)."""

    def __init__(self, game, network, visits: float, low: float, high: float):
        self.game, self.network = game, network
        self.head = np.array([visits, low, high, 0.0])
        self.searcher = None
        self.params = None

    def knowledge(self, bundle):
        """bundle (a HeavyKnowledge) with the root's experience instead of its own."""
        return bundle.replace(experience=root_experience, experience_params=np.zeros(params_width(self.game.size)),
                              experience_visits=0, experience_cost=0.0)

    def attach(self, searcher):
        params = getattr(searcher, "exp_params", None)
        if params is None or params.shape != (params_width(self.game.size),):
            raise ValueError("the root prior needs a RAVE searcher built with RootPrior.knowledge's bundle")
        self.searcher, self.params = searcher, params
        self.head[P_EVEN] = searcher.config.prior_even if searcher.config.priors else 0.0

    def prepare(self, state):
        """The network's probabilities at state into the searcher's params; the tree starts afresh
        unless it already stands at state with them."""
        from engines.knowledge.hex.network import distribution
        nn = self.game.num_actions
        cells = state[HEADER:HEADER + nn].astype(np.float64)
        same = (self.params[P_TO_MOVE] == state[TO_MOVE] and np.array_equal(self.params[P_CELLS:P_CELLS + nn], cells)
                and self.searcher.root_state is not None and np.array_equal(self.searcher.root_state, state))
        if same:
            return
        self.params[:P_TO_MOVE] = self.head
        self.params[P_TO_MOVE] = state[TO_MOVE]
        self.params[P_CELLS:P_CELLS + nn] = cells
        self.params[P_CELLS + nn:] = distribution(self.game, state, self.network)
        self.searcher.reset()


def warm_up(game):
    """Compile root_experience on a position of game (engines/knowledge/hex/registered.warm_up calls it)."""
    state = game.initial_state()
    actions = np.empty(game.num_actions, dtype=np.int32)
    n = game.kernels.legal(state, actions)
    visits, wins = np.empty(game.num_actions), np.empty(game.num_actions)
    params = np.zeros(params_width(game.size))
    params[P_CELLS + game.num_actions:] = 1.0
    root_experience(state, actions, n, visits, wins, params)
