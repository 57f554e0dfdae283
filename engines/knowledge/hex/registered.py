"""Hex knowledge: a connection-distance evaluation for alpha-beta and a value function for MCTS
(the kernels: engines/knowledge/hex/distance.py, re-exported here), the search knowledge and the
networks' prior experience, and their registration.

Registered evaluations (``engines.knowledge.registry.knowledge_for(game, name)``):
  "distance" (default)   evaluate_distance, and value_distance as the value function
The search knowledge of issue 20 (engines/knowledge/hex/patterns.py: bridge playouts, inferior
cells, virtual connections) comes as ``hex_knowledge(game, patterns=, inferior=, connections=)``: the
distance bundle plus a playout and a children kernel; ``heavy_knowledge(game, ...)`` the same pieces
for the RAVE search (traced playouts); ``warm_up`` compiles them.
"""
import dataclasses

import numba as nb
import numpy as np

from engines import kernels as K
from engines.games.hex import SIZE, observe
from engines.knowledge import mlp
from engines.knowledge.hex import conv as hexconv
from engines.knowledge.hex.distance import (DEFAULT_WEIGHTS, VALUE_SCALE, WIN_SCORE, distance,  # noqa: F401
                                            evaluate_distance, value_distance)


# ==== registration ===============================================================================

DEFAULT_EVALUATION = "distance"


def _distance(game):
    from engines.knowledge.bundle import Knowledge
    return Knowledge(evaluate=evaluate_distance, value=value_distance, value_params=DEFAULT_WEIGHTS)


EVALUATIONS = {"distance": _distance}  # name -> game -> Knowledge


def hex_knowledge(game, patterns: bool = True, inferior: bool = True, connections: bool = True,
                  vulnerable: bool = False):
    """The distance bundle plus the chosen search knowledge of hex_patterns: bridge-answering
    playouts (patterns), dead/captured/dominated cells kept out of the tree (inferior; with
    vulnerable, the mover's vulnerable cells too), and virtual connections that cut a decided node's
    children and end its playouts at once (connections)."""
    from engines.knowledge.hex import patterns as HP
    from engines.knowledge.bundle import Knowledge
    return Knowledge(evaluate=evaluate_distance, value=value_distance, value_params=DEFAULT_WEIGHTS,
                     playout=HP.playout_kernel(patterns, connections),
                     children=HP.children_kernel(inferior, connections, vulnerable))


# A policy network as RAVE's tree prior (network_experience): each new child gets NET_VISITS virtual
# visits, won at a rate from NET_LOW (the least likely move) to NET_HIGH (the network's favourite) in
# proportion to its probability.  params: [visits, low, high, the packed network (hexconv.pack_policy)].
# NET_AFTER: real visits a node needs before its children get the network's experience (until then
# the even prior): a forward pass costs tens of simulations, so it runs once for many of them.
NET_VISITS, NET_LOW, NET_HIGH, NET_AFTER = 20.0, 0.3, 0.8, 128
# NET_COST: simulations a forward pass counts as when the clock sizes a batch (a 32-channel 6-layer CNN
# on 9x9 takes about as long as 100 simulations of RAVE with the knowledge)
NET_COST = 100.0


def network_experience_params(network, visits: float = NET_VISITS, low: float = NET_LOW,
                              high: float = NET_HIGH) -> np.ndarray:
    """network_experience's params for a policy network: an MLP (engines.knowledge.bundle.Network)
    or a CNN (engines.knowledge.hex.conv.ConvNetwork)."""
    return np.concatenate([np.array([visits, low, high]), hexconv.pack_policy(network)])


def network_prior_strength(text: str) -> dict:
    """heavy_knowledge's network settings from text such as "visits=50,high=0.9,after=64" ("": the
    defaults); ValueError for a setting it does not know or a value that is not a number (after: a
    whole number of visits)."""
    known = ("visits", "low", "high", "after")
    out = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key not in known:
            raise ValueError(f"the network prior's settings are {', '.join(known)}, got {key!r}")
        try:
            out[key] = float(value)
        except ValueError:
            raise ValueError(f"{key} must be a number, got {value!r}") from None
        if key == "after":
            if not out[key].is_integer() or out[key] < 0:
                raise ValueError(f"after must be a whole number of visits, got {value!r}")
            out[key] = int(out[key])
    return out


@nb.njit(K.SIG_EXPERIENCE, cache=True)
def network_experience(s, actions, n, visits, wins, params):
    """Virtual experience of the n children from the policy network's softmax over their moves."""
    size = s[SIZE]
    obs = np.empty(3 * size * size, dtype=np.float32)
    observe(s, obs)
    logits = np.empty(size * size, dtype=np.float32)
    hexconv.policy_logits(obs, params[3:], logits)
    top = -np.inf
    for i in range(n):
        top = max(top, np.float64(logits[actions[i]]))
    for i in range(n):  # p_i / p_max = exp(logit_i - logit_max)
        rate = params[1] + (params[2] - params[1]) * np.exp(np.float64(logits[actions[i]]) - top)
        visits[i] = params[0]
        wins[i] = params[0] * rate


RAVE_CONFIG = {"rave_equiv": 300.0}  # Hex's RAVE (the value Hex's figures were measured with; Go's is tuned on Go)


def heavy_knowledge(game, patterns: bool = True, inferior: bool = True, connections: bool = True,
                    network=None, after: int = NET_AFTER, move_patterns=None, vulnerable: bool = False,
                    playout_patterns=None, playout_global: float = 1.0, **network_options):
    """The RAVE search's Hex knowledge (engines/search/rave.py): hex_knowledge's pieces with the
    playout traced, so that every cell a playout fills counts for all-moves-as-first; with a policy
    network, its move probabilities as the children's virtual experience (network_experience;
    network_options: visits, low, high), given when a node has ``after`` real visits (0: when its
    children are made).  Without a network, ``move_patterns`` (engines/knowledge/hex/move_patterns.py: a
    PatternTable) give the children's experience from their local patterns, when they are made (cheap).
    ``playout_patterns`` (a PatternTable): the playouts follow the patterns around the last move
    (engines/knowledge/hex/pattern_playout.py; ``playout_global``: the weight of an empty cell in the
    global draw) instead of the bridge playout; the connection check at their start stays as chosen."""
    from engines.games.hex import SIZE
    from engines.knowledge.hex import patterns as HP
    from engines.knowledge.rave_bundle import HeavyKnowledge
    n = int(game.initial_state()[SIZE])
    if playout_patterns is not None:
        from engines.knowledge.hex import pattern_playout
        pieces = dict(network=network, after=after, move_patterns=move_patterns, vulnerable=vulnerable, **network_options)
        plain = heavy_knowledge(game, patterns, inferior, connections, **pieces)
        return dataclasses.replace(plain, traced_playout=pattern_playout.playout_kernel(connections),
                                   playout_params=pattern_playout.pack_playout(playout_patterns, playout_global, n))
    if network is None and move_patterns is not None:
        from engines.knowledge.hex.move_patterns import pattern_experience
        return HeavyKnowledge(evaluate=evaluate_distance, value=value_distance, value_params=DEFAULT_WEIGHTS,
                              children=HP.children_kernel(inferior, connections, vulnerable),
                              traced_playout=HP.traced_kernel(patterns, connections),
                              playout_scratch=HP.playout_scratch(n), experience=pattern_experience,
                              experience_params=move_patterns.pack(), experience_visits=0, experience_cost=0.0)
    return HeavyKnowledge(evaluate=evaluate_distance, value=value_distance, value_params=DEFAULT_WEIGHTS,
                          children=HP.children_kernel(inferior, connections, vulnerable),
                          traced_playout=HP.traced_kernel(patterns, connections),
                          playout_scratch=HP.playout_scratch(n),
                          experience=None if network is None else network_experience,
                          experience_params=(np.zeros(0) if network is None
                                             else network_experience_params(network, **network_options)),
                          experience_visits=0 if network is None else after,
                          experience_cost=0.0 if network is None else NET_COST)


def warm_up(game):
    """Compile the kernels of hex_patterns (and the solver's) on a small position of game."""
    from engines.knowledge.hex import patterns as HP
    from engines.knowledge.hex import solver as hex_solver
    from engines.knowledge.bundle import Network
    from engines.rng import make_rng
    state = game.play(game.initial_state(), game.legal_moves(game.initial_state())[0])
    out = np.empty(game.num_actions, dtype=np.int32)
    rng = make_rng(0)
    for kernel in HP.KERNELS:
        if kernel in HP.CHILDREN:
            kernel(state, out)
        else:
            kernel(state.copy(), rng)
    nn = game.num_actions
    tiny = Network(np.zeros(mlp.param_count([3 * nn, 2, nn]), np.float32), (3 * nn, 2, nn), "relu")
    visits, wins = np.empty(nn), np.empty(nn)
    n = game.kernels.legal(state, out)
    network_experience(state, out, n, visits, wins, network_experience_params(tiny))
    tiny_cnn = hexconv.ConvNetwork(np.zeros(hexconv.param_count(2, 1), np.float32), 2, 1, game.size)
    network_experience(state, out, n, visits, wins, network_experience_params(tiny_cnn))
    from engines.knowledge.hex.network import logits  # the greedy moves' forward passes, called from Python
    for network in (tiny, tiny_cnn):
        logits(network, game.observation(state).reshape(-1))
        K.function_value(network.policy_kernel(), K.SIG_POLICY, "policy")  # as MCTS takes a policy network
    trace = np.empty(HP.playout_scratch(game.size), dtype=np.int64)
    for kernel in HP.TRACED:
        kernel(state.copy(), rng, trace, np.zeros(0))
    hex_solver.warm_up(game)
    from engines.knowledge.hex import root_prior  # a network run by onnxruntime as the root's prior
    root_prior.warm_up(game)
    from engines.knowledge.hex import policy_network  # the policy CNN's prior at every node (a batch hook)
    policy_network.warm_up(game)
    from engines.knowledge.hex import tree_connections, vc
    vc.warm_up(game)
    tree_connections.warm_up(game)  # H-search at the tree's nodes (a batch hook)
    from engines.knowledge.hex import dfpn
    dfpn.warm_up(game)
    from engines.knowledge.hex import move_patterns, pattern_playout
    move_patterns.warm_up(game)
    pattern_playout.warm_up(game)
