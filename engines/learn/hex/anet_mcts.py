"""The MCTS of the seed's loop: the project's MCTS (engines/search/mcts.py) with ANET as its rollout
policy -- epsilon-greedy over the network's output, the same network for both players -- or, with a
value network, PUCT with ANET's priors and the value network at the leaves instead of rollouts.
It makes only generic calls to the game; its tree is kept between actual moves (advance).
"""
import numpy as np

from engines.knowledge.bundle import Network
from engines.knowledge.hex.network import policy_knowledge
from engines.search import make_searcher
from engines.search.result import Limits

CAPACITY = 1 << 20  # tree nodes: a few thousand search games a move on boards up to 10x10 fit easily


class PolicyMCTS:
    """One actual game's search: ``distribution(state)`` runs the search games from state (the kept
    subtree when state follows the last move) and returns D, the root's normalised visit counts;
    ``advance(move)`` keeps the subtree of the move played."""

    def __init__(self, game, network: Network, *, search_games: int, search_time: float = 0.0, c: float = 1.0,
                 epsilon: float = 0.2, selection: str = "uct", rollout: str = "network",
                 value: Network | None = None, seed: int = 0, capacity: int = CAPACITY):
        self.game = game
        config = {"selection": selection, "c": c, "epsilon": epsilon, "rollout": rollout}
        if rollout == "value":
            if value is None:
                raise ValueError("rollout='value' needs a value network")
            from engines.learn.hex.value_net import value_knowledge
            knowledge = value_knowledge(network, value)
        else:
            knowledge = policy_knowledge(network)
        self.searcher = make_searcher("mcts", game, config, knowledge, seed, capacity=capacity)
        self.limits = Limits(simulations=search_games, time=search_time if search_time > 0 else None)
        self.last = None  # the SearchResult of the last search

    @classmethod
    def from_config(cls, game, network, cfg, value=None, seed=0):
        return cls(game, network, search_games=cfg.search_games, search_time=cfg.search_time, c=cfg.c,
                   epsilon=cfg.epsilon, selection=cfg.selection, rollout=cfg.rollout, value=value, seed=seed)

    def distribution(self, state) -> np.ndarray:
        """D over all n*n actions: visit counts at the root, normalised (0 for illegal moves)."""
        self.last = result = self.searcher.search(state, self.limits)
        d = np.zeros(self.game.num_actions)
        d[result.moves] = result.visits
        total = d.sum()
        if total <= 0:  # no visit at all (cannot happen with >= 1 search game): uniform over legal moves
            d[result.moves] = 1.0
            total = d.sum()
        return d / total

    def advance(self, move: int) -> None:
        self.searcher.advance(move)

    @property
    def simulations(self) -> int:
        return int(self.last.stats["simulations"]) if self.last is not None else 0
