"""The pattern evaluation's bias towards the side to move, seen through search: the mean change of the
search value from depth d to depth d + 1 over the same positions, for one or more weights files.

    python -m bench.othello_tempo [--weights FILE ...] [--plies 8 20 28 36 44] [--depths 4] [--positions 60]

An unbiased evaluation's values drift little from one depth to the next.  A search of even depth ends with
the root's mover to move, one of odd depth with the opponent to move, so an evaluation that values having
the move by b discs makes the values alternate by about 2b: value(d + 1) - value(d) is near -2b after an
even d and +2b after an odd one.  Reported per position set (``--plies`` random plies from the start,
seeded; the same positions for every file) and per depth step: the mean of value(d + 1) - value(d) in
discs, and "swing", the mean of |that| over the steps (half of it estimates b).  Search: the player's
alpha-beta (PVS, table, incremental evaluation) without ProbCut, to fixed depths 1..--depths + 1.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

from bench.alphabeta_nodes import midgame_positions

RESULTS = Path(__file__).resolve().parent / "results"


def value_steps(weights: str | None, plies: int, depths: int, positions: int, seed: int) -> list[float]:
    """Mean value(d + 1) - value(d), d = 1..depths, over the positions after ``plies`` random plies."""
    from engines.games.othello import Othello
    from engines.knowledge.othello import patterns as OP
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
    from engines.search.result import Limits
    game = Othello(8)
    states = midgame_positions(game, positions, plies=plies, seed=seed)
    search = AlphaBeta(game, AlphaBetaConfig(), OP.knowledge(weights), clock=time.process_time)
    values = np.array([[search.search(s, Limits(depth=d)).value for s in states] for d in range(1, depths + 2)])
    return [float(x) for x in (values[1:] - values[:-1]).mean(axis=1)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--weights", nargs="+", default=[None], help="patterns .npz files (default: the shipped weights)")
    p.add_argument("--plies", type=int, nargs="+", default=[8, 20, 28, 36, 44])
    p.add_argument("--depths", type=int, default=4, help="the steps 1->2 .. D->D+1")
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", type=Path, default=RESULTS / "othello_tempo.md")
    args = p.parse_args(argv)
    steps = ", ".join(f"d{d + 1}-d{d}" for d in range(1, args.depths + 1))
    lines = ["# The pattern evaluation's bias towards the side to move (bench/othello_tempo.py)", "",
             f"Command: `python -m bench.othello_tempo {' '.join(sys.argv[1:] if argv is None else argv)}`", "",
             f"{args.positions} positions per row (random plies from the start, seed {args.seed}); the mean change of "
             f"the search value in discs for each depth step ({steps}); swing = the mean of their sizes (about twice "
             "the value the evaluation gives to having the move).", "",
             "| weights | plies (empties) | " + " | ".join(steps.split(", ")) + " | swing |",
             "|---|---|" + "---|" * args.depths + "---|"]
    for weights in args.weights:
        for plies in args.plies:
            means = value_steps(weights, plies, args.depths, args.positions, args.seed)
            lines.append(f"| {weights or 'shipped'} | {plies} ({60 - plies}) | "
                         + " | ".join(f"{m:+.2f}" for m in means) + f" | {np.mean(np.abs(means)):.2f} |")
            print(lines[-1], flush=True)
    args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
