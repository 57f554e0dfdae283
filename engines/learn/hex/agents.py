"""Players for games outside training: a network alone (greedy or stochastic), a network with search
(the project's MCTS, PUCT over the network's priors; a network of another architecture, run by
onnxruntime, as the RAVE search's prior at the root), and the uniformly random player."""
import numpy as np

from engines.knowledge.hex.network import RuntimeNetwork, distribution, greedy_move, policy_knowledge
from engines.knowledge.hex.registered import NET_HIGH, NET_LOW, NET_VISITS, RAVE_CONFIG, heavy_knowledge
from engines.knowledge.hex.root_prior import RootPrior
from engines.search import make_searcher
from engines.search.result import Limits

# the search player's MCTS: PUCT with the network's priors, uniformly random rollouts (epsilon = 1:
# many more search games per second than network rollouts, the network already steers the tree)
SEARCH_CONFIG = {"selection": "puct", "c": 1.0, "rollout": "network", "epsilon": 1.0}


class RandomAgent:
    name = "random"

    def __init__(self, game, seed: int = 0):
        self.game = game
        self.rng = np.random.default_rng(seed)

    def move(self, state) -> int:
        legal = self.game.legal_moves(state)
        return int(legal[self.rng.integers(len(legal))])

    def advance(self, move):
        pass


class NetworkAgent:
    """policy: "greedy" (the most probable legal move), "stochastic" (sampled), or "search" (MCTS with
    ``simulations`` and/or ``time`` seconds a move, keeping its tree along the game)."""

    def __init__(self, game, network, policy: str = "greedy", simulations: int | None = None,
                 time: float | None = None, seed: int = 0, config: dict | None = None, name: str = "network",
                 clock=None):
        if policy not in ("greedy", "stochastic", "search"):
            raise ValueError(f"policy must be greedy, stochastic or search, got {policy!r}")
        self.game, self.network, self.policy, self.name = game, network, policy, name
        self.rng = np.random.default_rng(seed)
        self.searcher = self.root_prior = None
        if policy == "search":
            if simulations is None and time is None:
                raise ValueError("a search player needs simulations or time")
            options = {"clock": clock} if clock is not None else {}
            if isinstance(network, RuntimeNetwork):  # the compiled search cannot call it: the root's prior
                self.root_prior = RootPrior(game, network, NET_VISITS, NET_LOW, NET_HIGH)
                bundle = self.root_prior.knowledge(heavy_knowledge(game))
                self.searcher = make_searcher("rave", game, RAVE_CONFIG, bundle, seed, capacity=1 << 22, **options)
                self.root_prior.attach(self.searcher)
            else:
                self.searcher = make_searcher("mcts", game, {**SEARCH_CONFIG, **(config or {})},
                                              policy_knowledge(network), seed, capacity=1 << 22, **options)
            self.limits = Limits(simulations=simulations, time=time)

    def move(self, state) -> int:
        if self.policy == "greedy":
            return greedy_move(self.game, state, self.network)
        if self.policy == "stochastic":
            p = distribution(self.game, state, self.network)
            return int(self.rng.choice(p.shape[0], p=p))
        if self.root_prior is not None:
            self.root_prior.prepare(state)
        return self.searcher.search(state, self.limits).move

    def advance(self, move):
        if self.searcher is not None:
            self.searcher.advance(move)


def play_game(game, first, second, on_move=None) -> int:
    """One game, ``first`` as player 1 (rows, moving first); returns the winner (0: first, 1: second)."""
    seats = (first, second)
    state = game.initial_state()
    while not game.is_terminal(state):
        mover = game.to_move(state)
        move = seats[mover].move(state)
        state = game.play(state, move)
        for agent in seats:
            agent.advance(move)
        if on_move is not None:
            on_move(state, move, seats[mover])
    return game.winner(state)
