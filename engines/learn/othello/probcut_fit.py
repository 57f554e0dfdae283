"""Fit Multi-ProbCut's parameters (AlphaBetaConfig.probcut) for an Othello evaluation: per band of
empty squares and per pair of depths (d, d'), a regression of the d-ply search value on the d'-ply one
over positions of varied games.

    python -m engines.learn.othello.probcut_fit [--evaluation patterns] [--positions 2000] [--max-depth 10]
        [--workers 2] [--seed 1] [--data FILE.jsonl] [--out weights/othello/probcut_<evaluation>.json]
        [--weights PATTERNS.npz --out FILE.json]   (the rows of pattern weights not yet shipped)

Data, in two steps:
  1. labels (resumable): ``--positions`` positions, sampled from seeded games in which each move is
     the best child by static value (70 %) or a uniformly random one (30 %), every third ply from the
     4th while at least MIN_EMPTIES squares are empty; each labelled with the values of plain
     fixed-depth alpha-beta searches (no ProbCut) of 0 (the static value), 1, .., ``--max-depth``
     plies, from one iterative deepening (every iteration's value; with the table, an iteration's
     value is exactly that of a fresh search to its depth).  One JSON line a position in ``--data``:
     {"index", "empties", "values": [v0, v1, ..]}; a run appends the indices the file lacks, in
     ``--workers`` worker processes (niced), so a stopped run resumes.
  2. the fit: for each band of empties (BANDS) and each depth d in MIN_DEPTH..max-depth, the shallow
     depth d' = SHALLOW[d] (the same parity as d, about d / 2); deep = a * shallow + b by least squares,
     sigma the residuals' standard deviation; positions whose values are decided games (beyond the
     evaluation's heuristic range) are left out.  A band with fewer than MIN_PAIRS pairs gets no row.
The JSON written holds the rows ``[min_empties, max_empties, d, d', a, b, sigma]`` that
engines.search.alphabeta.load_probcut reads, with a per-row quality table (pairs, correlation), the
one-row-per-depth fit over every phase beside it (today's shape, for the diagnosis), how, from what and
when it was made, and the CPU seconds spent (labels and fit).
"""
import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

MIN_EMPTIES = 12                       # no sample (and no row) with fewer empty squares: the endgame solver's land
BANDS = ((12, 19), (20, 27), (28, 35), (36, 43), (44, 51), (52, 60))   # empties, both ends included
MIN_DEPTH = 3
SHALLOW = {d: max(d % 2, (d // 2) - ((d // 2 - d) % 2)) for d in range(2, 30)}  # d -> d': <= d/2, same parity
MIN_PAIRS = 30
RANDOM_SHARE = 0.3                     # moves of the sampled games played at random (the rest: best static child)
SAMPLE_EVERY, FIRST_SAMPLE = 3, 4      # a position every third ply from the 4th


class _Recorder:
    """An alpha-beta pacer that only records each completed iteration's value (and never stops it)."""

    def __init__(self):
        self.values = {}

    def deepen(self, depth, move, value, now=None):
        self.values[depth] = value
        return True


def game_positions(index: int, seed: int) -> list:
    """The sampled positions of game number index: [(state, empties)]."""
    from engines.games import make_game
    from engines.knowledge.registry import knowledge_for
    game = make_game("othello", size=8)
    knowledge = knowledge_for(game, "patterns")
    rng = np.random.default_rng([seed, index])
    s, out, ply = game.initial_state(), [], 0
    while not game.is_terminal(s):
        empties = int((game.cells(s) == 0).sum())
        if empties < MIN_EMPTIES:
            break
        legal = game.legal_moves(s)
        if ply >= FIRST_SAMPLE and (ply - FIRST_SAMPLE) % SAMPLE_EVERY == 0 and len(legal) > 1:
            out.append((s.copy(), empties))
        if rng.random() < RANDOM_SHARE:
            move = int(rng.choice(legal))
        else:
            scores = [-float(knowledge.evaluate(game.play(s, int(m)), knowledge.eval_params)) for m in legal]
            move = int(legal[int(np.argmax(scores))])
        s = game.play(s, move)
        ply += 1
    return out


_WORKER = {}


def _init_worker(evaluation: str, max_depth: int, seed: int, nice: int, weights: str = ""):
    if nice:
        os.nice(nice)
    from engines.games import make_game
    from engines.knowledge.registry import knowledge_for
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
    game = make_game("othello", size=8)
    if weights:  # pattern weights that are not (yet) the shipped ones; the sampled games stay the same
        from engines.knowledge.othello import patterns
        knowledge = patterns.knowledge(weights)
    else:
        knowledge = knowledge_for(game, evaluation)
    _WORKER.update(game=game, knowledge=knowledge, search=AlphaBeta(game, AlphaBetaConfig(), knowledge),
                   max_depth=max_depth, seed=seed, games={})


def _label_game(index: int) -> list:
    """The labelled positions of game index: [{"index": (game, k), "empties", "values"}]."""
    from engines.search.result import Limits
    w = _WORKER
    knowledge, search = w["knowledge"], w["search"]
    out = []
    for k, (s, empties) in enumerate(game_positions(index, w["seed"])):
        started = time.process_time()
        recorder = _Recorder()
        result = search.search(s, Limits(depth=w["max_depth"], pacer=recorder))
        recorder.values[result.stats["depth"]] = result.value  # the last iteration is not handed to the pacer
        values = [float(knowledge.evaluate(s, knowledge.eval_params))]
        for d in range(1, w["max_depth"] + 1):  # a search that completed (every line final) early: exact beyond
            values.append(recorder.values.get(d, values[-1]))
        out.append({"game": index, "k": k, "empties": empties, "values": values,
                    "cpu": round(time.process_time() - started, 4)})
    return out


def label(data: Path, positions: int, evaluation: str, max_depth: int, seed: int, workers: int, progress=None,
          weights: str = ""):
    """Append labelled positions of new games to data until it holds at least ``positions``."""
    import multiprocessing as mp
    have, games = 0, set()
    if data.exists():
        for line in data.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if len(row["values"]) == max_depth + 1:
                have += 1
                games.add(row["game"])
    if have >= positions:
        return
    # a game yields about 15 positions; ask for enough new games, in order, skipping those done
    todo = [g for g in range(max(games, default=-1) + 1 + (positions - have) // 10 + 8) if g not in games]
    with mp.get_context("spawn").Pool(workers, _init_worker, (evaluation, max_depth, seed, 10, weights)) as pool, \
            data.open("a", encoding="utf-8") as f:
        for rows in pool.imap(_label_game, todo):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()
            have += len(rows)
            if progress:
                progress(have, positions)
            if have >= positions:
                pool.terminate()
                break


def _line(x, y):
    a, b = np.polyfit(x, y, 1)
    residual = y - (a * x + b)
    return float(a), float(b), float(np.std(residual, ddof=2)), float(np.corrcoef(x, y)[0, 1])


def fit_rows(records: list, max_depth: int, win_score: float) -> tuple:
    """(rows, quality, one_row_per_depth) from labelled records."""
    rows, quality, overall = [], {}, {}
    for d in range(MIN_DEPTH, max_depth + 1):
        ds = SHALLOW[d]
        pairs = [(r["empties"], r["values"][ds], r["values"][d]) for r in records
                 if r["values"][d] is not None and r["values"][ds] is not None
                 and max(abs(r["values"][ds]), abs(r["values"][d])) < win_score - 1]
        xy = np.array(pairs, dtype=np.float64).reshape(-1, 3)
        if xy.shape[0] >= MIN_PAIRS:
            a, b, sigma, corr = _line(xy[:, 1], xy[:, 2])
            overall[str(d)] = {"shallow": ds, "a": round(a, 6), "b": round(b, 6), "sigma": round(sigma, 6),
                               "pairs": int(xy.shape[0]), "correlation": round(corr, 4)}
        for low, high in BANDS:
            band = xy[(xy[:, 0] >= low) & (xy[:, 0] <= high)]
            if band.shape[0] < MIN_PAIRS:
                continue
            a, b, sigma, corr = _line(band[:, 1], band[:, 2])
            rows.append([low, high, d, ds, round(a, 6), round(b, 6), round(sigma, 6)])
            quality[f"{low}-{high}/{d}"] = {"pairs": int(band.shape[0]), "correlation": round(corr, 4)}
    return rows, quality, overall


def read_records(data: Path, max_depth: int) -> list:
    return [r for r in (json.loads(line) for line in data.read_text(encoding="utf-8").splitlines())
            if len(r["values"]) == max_depth + 1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--evaluation", default="patterns", help="the Othello evaluation (knowledge_for name)")
    p.add_argument("--weights", default="", help="a pattern weights file whose searches are fitted (the "
                   "positions are sampled by the shipped evaluation as always); --out is then required")
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--max-depth", type=int, default=10)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", type=Path, default=None, help="the labelled positions (JSON lines; default "
                   "/tmp/probcut_<evaluation>_d<max-depth>.jsonl)")
    p.add_argument("--fit-only", action="store_true", help="fit from the data as it is (no labelling)")
    p.add_argument("--out", type=Path, default=None,
                   help="the JSON to write (default weights/othello/probcut_<evaluation>.json)")
    args = p.parse_args(argv)
    from engines.knowledge.scores import WIN_SCORE
    if args.weights and not args.out:
        p.error("--weights needs --out (the shipped rows are the shipped weights')")
    out = args.out or Path(__file__).resolve().parents[3] / "weights" / "othello" / f"probcut_{args.evaluation}.json"
    data = args.data or Path(f"/tmp/probcut_{args.evaluation}_d{args.max_depth}.jsonl")

    def progress(done, total):
        print(f"\rprobcut_fit: {done}/{total} positions", end="", file=sys.stderr, flush=True)

    if not args.fit_only:
        label(data, args.positions, args.evaluation, args.max_depth, args.seed, args.workers, progress, args.weights)
        print(file=sys.stderr)
    started = time.process_time()
    records = read_records(data, args.max_depth)
    rows, quality, overall = fit_rows(records, args.max_depth, WIN_SCORE)
    label_cpu = sum(r["cpu"] for r in records)
    result = {
        "rows": rows,
        "evaluation": args.evaluation,
        **({"weights": args.weights} if args.weights else {}),
        "how": "per band of empties and depth d: least squares of the d-ply value on the d'-ply value "
               "(plain alpha-beta, no ProbCut; d' = 0: the static value); sigma: the residuals' standard "
               "deviation; rows [min_empties, max_empties, d, d', a, b, sigma]",
        "from": f"{len(records)} positions of {len({r['game'] for r in records})} seeded games (best static child, "
                f"{RANDOM_SHARE:.0%} random moves; every {SAMPLE_EVERY} plies from ply {FIRST_SAMPLE}, "
                f">= {MIN_EMPTIES} empties; seed {args.seed}), Othello 8x8",
        "quality": quality,
        "one_row_per_depth": overall,
        "made": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cpu_seconds": round(label_cpu + time.process_time() - started, 1),
        "command": "python -m engines.learn.othello.probcut_fit " + " ".join(sys.argv[1:] if argv is None else argv),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"rows": len(rows), "positions": len(records), "out": str(out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
