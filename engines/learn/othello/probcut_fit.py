"""Fit ProbCut's parameters (AlphaBetaConfig.probcut) for an Othello evaluation: regression of deep
search values on shallow ones over seeded, varied mid-game positions.

    python -m engines.learn.othello.probcut_fit [--evaluation strong] [--positions 150] [--max-depth 8] [--seed 1]
                                        [--out weights/othello/probcut_<evaluation>.json]

For each depth d in 2..max_depth the shallow value has the same parity as d (Othello's odd/even
effect): shallow 0 (the static value) for even d, shallow 1 (the best child's static score, the
one-ply value the search's move ordering computes anyway) for odd d.  The deep value is a plain
fixed-depth alpha-beta search of d plies (no ProbCut).  Per depth: deep = a * shallow + b by least
squares, sigma the standard deviation of the residuals.  Positions whose values are decided games
(beyond the evaluation's heuristic range) are left out.  The JSON written holds the rows
``[depth, shallow, a, b, sigma]`` that engines.search.alphabeta.load_probcut reads, with how, from
what and when it was made, and the CPU seconds spent.
"""
import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import numpy as np

from engines.games import make_game
from engines.knowledge.registry import knowledge_for
from engines.knowledge.scores import WIN_SCORE
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
from engines.search.result import Limits

MIN_PLIES, MAX_PLIES = 6, 44   # random plies from the start: 54 to 16 empty squares


def positions(game, count: int, seed: int) -> list:
    """count non-final positions after a seeded uniformly random number of random plies."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(MIN_PLIES, MAX_PLIES + 1))):
            if game.is_terminal(s):
                break
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if not game.is_terminal(s) and len(game.legal_moves(s)) > 1:
            out.append(s)
    return out


def fit(evaluation: str = "strong", count: int = 150, max_depth: int = 8, seed: int = 1, progress=None) -> dict:
    """The fitted rows and their provenance (a JSON-ready dict)."""
    started = time.process_time()
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, evaluation)
    search = AlphaBeta(game, AlphaBetaConfig(), knowledge)
    params = search.params
    depths = list(range(2, max_depth + 1))
    pairs = {d: [] for d in depths}
    states = positions(game, count, seed)
    for i, s in enumerate(states):
        static = float(knowledge.evaluate(s, params))
        one_ply = search.search(s, Limits(depth=1)).value
        for d in depths:
            shallow = static if d % 2 == 0 else one_ply
            deep = search.search(s, Limits(depth=d)).value
            if max(abs(shallow), abs(deep)) < WIN_SCORE - 1:
                pairs[d].append((shallow, deep))
        if progress:
            progress(i + 1, len(states))
    rows, quality = [], {}
    for d in depths:
        xy = np.array(pairs[d], dtype=np.float64)
        if xy.shape[0] < 10:
            continue
        x, y = xy[:, 0], xy[:, 1]
        a, b = np.polyfit(x, y, 1)
        residual = y - (a * x + b)
        sigma = float(np.std(residual, ddof=2))
        rows.append([d, d % 2, round(float(a), 6), round(float(b), 6), round(sigma, 6)])
        quality[str(d)] = {"pairs": int(xy.shape[0]), "correlation": round(float(np.corrcoef(x, y)[0, 1]), 4)}
    return {
        "rows": rows,
        "evaluation": evaluation,
        "how": "least squares of deep (fixed-depth alpha-beta) on shallow values (static for even depths, "
               "one ply for odd) per depth; sigma: the residuals' standard deviation",
        "from": f"{len(states)} positions of seeded random play ({MIN_PLIES}..{MAX_PLIES} plies from the start, "
                f"seed {seed}), Othello 8x8",
        "quality": quality,
        "made": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cpu_seconds": round(time.process_time() - started, 1),
        "command": "python -m engines.learn.othello.probcut_fit " + " ".join(sys.argv[1:]),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--evaluation", default="strong", help="the Othello evaluation (knowledge_for name)")
    p.add_argument("--positions", type=int, default=150)
    p.add_argument("--max-depth", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None,
                   help="the JSON to write (default weights/othello/probcut_<evaluation>.json)")
    args = p.parse_args(argv)
    out = args.out or Path(__file__).resolve().parents[2] / "weights" / "othello" / f"probcut_{args.evaluation}.json"

    def progress(done, total):
        print(f"\rprobcut_fit: {done}/{total} positions", end="", file=sys.stderr, flush=True)

    result = fit(args.evaluation, args.positions, args.max_depth, args.seed, progress)
    print(file=sys.stderr)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"rows": result["rows"], "quality": result["quality"], "out": str(out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
