"""Compile and cache every kernel once (run at install), so no harness ever waits for a compile.

Each game module compiles its kernels at import (explicit signatures, cache=True); the searches are
compiled by running a tiny search of every kind on every game."""
import sys
import time

import numpy as np

from engines.games import make_game


def warm_games():
    return [make_game("go", size=5), make_game("othello", size=8), make_game("othello", size=10),
            make_game("hex", size=5)]


def main() -> int:
    t0 = time.perf_counter()
    from engines.games.perft import perft
    from engines.search.alphabeta import AlphaBeta
    from engines.search.mcts import MCTS, MCTSConfig
    from engines.search.result import Limits
    from engines.games import othello
    from engines.knowledge import mlp

    for game in warm_games():
        state = game.initial_state()
        perft(game, state, 1)
        game.render(state)
        game.observation(state)
        obs = int(np.prod(game.observation_shape))
        layers = [obs, 4, game.num_actions]
        net = (np.zeros(mlp.param_count(layers), np.float32), layers, "relu")
        for config in (MCTSConfig(), MCTSConfig(selection="puct", prior_use="additive"),
                       MCTSConfig(rollout="weighted", progressive_pruning=True), MCTSConfig(rollout="network")):
            MCTS(game, config, capacity=1 << 12, rollout_weights=np.ones(game.num_actions), network=net
                 ).search(state, Limits(simulations=16))
    game = make_game("othello", size=8)
    MCTS(game, MCTSConfig(rollout="value"), capacity=1 << 12, value=othello.value_strong,
         value_params=othello.STRONG_WEIGHTS).search(game.initial_state(), Limits(simulations=16))
    for evaluate in (othello.evaluate_strong, othello.evaluate_disc_difference):
        AlphaBeta(game, evaluate).search(game.initial_state(), Limits(depth=2))
    print(f"plies: kernels compiled and cached in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
