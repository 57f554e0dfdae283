"""Alpha-beta speed: nodes per second on Othello 8x8 midgame positions (a figure, not a pass/fail).

Positions: seeded uniformly random play, 20 plies from the start.  Search: the "strong" evaluation
(engines/knowledge/othello/registered.py) with its standard weights, alpha-beta + transposition table +
ordering + iterative deepening, a fixed time per position.  Nodes are positions the search visits (see engines/search/alphabeta.py).
Run: ``.venv/bin/python bench/alphabeta_nodes.py [seconds per position]``.
"""
import argparse
import json
import statistics
import sys

import numpy as np

from engines.games.othello import Othello
from engines.knowledge.registry import knowledge_for
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
from engines.search.result import Limits

POSITIONS = 5   # midgame positions measured
PLIES = 20      # random plies played from the start to reach each
SEED = 2024


def midgame_positions(game, count=POSITIONS, plies=PLIES, seed=SEED):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(plies):
            if game.is_terminal(s):
                break
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if not game.is_terminal(s):
            out.append(s)
    return out


def run(seconds: float = 2.0, config: AlphaBetaConfig | None = None) -> dict:
    """Median nodes/s over the positions, with each position's figure and reached depth."""
    game = Othello(8)
    search = AlphaBeta(game, config or AlphaBetaConfig(), knowledge_for(game, "strong"))
    search.search(game.initial_state(), Limits(depth=2))  # warm-up (first call loads the kernels)
    rates, depths = [], []
    for s in midgame_positions(game):
        r = search.search(s, Limits(time=seconds, margin=0.0))
        rates.append(r.stats["nodes"] / r.stats["time"])
        depths.append(r.stats["depth"])
    return {"nodes_per_second": round(statistics.median(rates)),
            "per_position": [round(x) for x in rates], "depths": depths, "seconds_per_position": seconds}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("seconds", nargs="?", type=float, default=2.0, help="seconds per position (default 2)")
    print(json.dumps(run(p.parse_args(argv).seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
