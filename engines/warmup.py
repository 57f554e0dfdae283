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


def warm_python_entry_points():
    """The helpers adapters call directly from Python (compiled on first use, then cached)."""
    for rules in ("standard", "go5", "littlego", "superko"):
        go = make_game("go", size=5, rules=rules)
        state = go.play(go.initial_state(), go.text_to_move("c3", "gtp"))
        go.explain_illegal(state, go.text_to_move("c3", "gtp"))
        go.score_text(state)
        go.go5_candidates(state)
        go.empty_list(state)
        go.is_eye(state, 0, 0)
        go.go5_play(state, go.text_to_move("c3", "gtp"))
        go.go5_play(state, go.text_to_move("d3", "gtp"))
        go.state_from_cells(go.board(state).ravel(), 0)
        empty = [[0] * 5 for _ in range(5)]
        go.state_from_boards(empty, [[1 if (i, j) == (2, 2) else 0 for j in range(5)] for i in range(5)], 2)
    from engines.games import othello
    for size in (8, 10):
        game = make_game("othello", size=size)
        state = game.initial_state()
        game.state_from_board(game.board(state), 0)
        game.explain_illegal(state, 0)
        game.score(state), game.cells(state)
    hexgame = make_game("hex", size=5)
    hexgame.state_from_cells([0] * 25, 0)


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
    warm_python_entry_points()
    game = make_game("othello", size=8)
    MCTS(game, MCTSConfig(rollout="value"), capacity=1 << 12, value=othello.value_strong,
         value_params=othello.STRONG_WEIGHTS).search(game.initial_state(), Limits(simulations=16))
    for evaluate in (othello.evaluate_strong, othello.evaluate_disc_difference):
        AlphaBeta(game, evaluate, eval_params=othello.STRONG_WEIGHTS).search(game.initial_state(), Limits(depth=2))
    print(f"plies: kernels compiled and cached in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
