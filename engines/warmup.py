"""Compile and cache every kernel once (run at install), so no harness ever waits for a compile.

Each game module compiles its kernels at import (explicit signatures, cache=True); the searches are
compiled by running a tiny search of every kind with every registered evaluation on one game of
each kernel set and rule option (engines.games.REPRESENTATIVES)."""
import sys
import time

import numpy as np


def warm_searches(game):
    """A tiny search of every kind the engine offers, on game."""
    from engines.knowledge import mlp
    from engines.knowledge.bundle import Knowledge, Network, evaluations, knowledge_for, warm_up
    from engines.search import Limits, make_searcher

    warm_up(game)
    state = game.initial_state()
    obs = int(np.prod(game.observation_shape))
    layers = (obs, 4, game.num_actions)
    network = Network(np.zeros(mlp.param_count(layers), np.float32), layers, "relu")
    tools = Knowledge(rollout_weights=np.ones(game.num_actions), network=network)
    for config in ({}, {"selection": "puct", "prior_use": "additive"}, {"rollout": "prior"},
                   {"rollout": "weighted", "progressive_pruning": True}, {"rollout": "network"},
                   {"selection": "puct", "prior_use": "init"}):
        knowledge = tools.replace(prior="network") if config.get("prior_use") == "init" else tools
        make_searcher("mcts", game, config, knowledge, capacity=1 << 12).search(state, Limits(simulations=16))
    for name in evaluations(game):
        knowledge = knowledge_for(game, name)
        make_searcher("alphabeta", game, {}, knowledge).search(state, Limits(depth=2))
        if knowledge.value is not None:
            make_searcher("mcts", game, {"rollout": "value"}, knowledge, capacity=1 << 12).search(
                state, Limits(simulations=16))


def main() -> int:
    t0 = time.perf_counter()
    from engines.games import representative_games
    from engines.games.perft import perft

    for game in representative_games():
        perft(game, game.initial_state(), 1)
        game.warm_up()
        warm_searches(game)
    print(f"plies: kernels compiled and cached in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
