"""Where the default Othello player's search spends its nodes: PVS + incremental patterns + Multi-ProbCut
(the fitted rows of weights/othello/probcut_patterns.json, t 1.5) to fixed depths, printed per depth:
the median and total CPU seconds over the positions, all nodes and the shallow searches' share, the
moves and values, and per plies left ProbCut's tests, cuts and shallow-search nodes.

    python -m bench.othello_probcut_profile [DEPTHS, default 10,12,14] [POSITIONS, default 8]

Positions: bench.alphabeta_nodes.midgame_positions (20 plies from the start).  One run per position
(single figures on a shared machine are noisy: bench.othello_search --player-depths takes the least of
several runs); the counts are exact.
"""
import argparse
import collections
import statistics
import sys
import time

from bench.alphabeta_nodes import midgame_positions


def main(argv=None) -> int:
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.players.othello import probcut_path
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig, load_probcut
    from engines.search.result import Limits
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("depths", nargs="?", default="10,12,14", help="comma-separated depths (default 10,12,14)")
    p.add_argument("positions", nargs="?", type=int, default=8, help="midgame positions (default 8)")
    args = p.parse_args(argv)
    depths = [int(x) for x in args.depths.split(",")]
    count = args.positions
    game = Othello(8)
    states = midgame_positions(game, count)
    config = AlphaBetaConfig(probcut=load_probcut(probcut_path("patterns")), probcut_t=1.5)
    search = AlphaBeta(game, config, knowledge_for(game, "patterns"), clock=time.process_time)
    search.search(game.initial_state(), Limits(depth=4))  # loads the kernels
    for depth in depths:
        secs, nodes, shallow, moves, values = [], [], [], [], []
        per_left = collections.Counter()
        for s in states:
            search.clear_probcut_counts()
            started = time.process_time()
            r = search.search(s, Limits(depth=depth))
            secs.append(time.process_time() - started)
            nodes.append(r.stats["nodes"])
            counts = search.probcut_counts()
            shallow.append(sum(v[2] for v in counts.values()))
            for (_, left), (tries, cuts, visited) in counts.items():
                per_left[left, 0] += tries
                per_left[left, 1] += cuts
                per_left[left, 2] += visited
            moves.append(r.move)
            values.append(round(r.value, 6))
        print(f"depth {depth}: median CPU s {statistics.median(secs):.4f} total {sum(secs):.3f}; nodes total "
              f"{sum(nodes):,} shallow {sum(shallow):,} ({sum(shallow) / sum(nodes):.1%}); moves {moves}; "
              f"values {values}")
        for left in sorted({k[0] for k in per_left}):
            print(f"   plies left {left}: tries {per_left[left, 0]:,} cuts {per_left[left, 1]:,} "
                  f"({per_left[left, 1] / max(1, per_left[left, 0]):.0%}) shallow nodes {per_left[left, 2]:,}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
