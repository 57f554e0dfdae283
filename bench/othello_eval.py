"""The learned Othello pattern evaluation against today's "strong" one (a figure, not a pass/fail).

1. speed      evaluations per second on the same random 8x8 states, in a compiled loop (CPU time,
              median of 5 runs): the pattern evaluation from scratch (evaluate_patterns), the same
              from the position's features (evaluate_features: the incremental evaluation, its
              features already kept), the incremental evaluation of every child of the states
              including the update (features_play from the parent's features, then evaluate_features;
              per child, the move itself excluded), and evaluate_strong.
2. error      held-out mean absolute disc error by phase, against the labels of a training run
              (engines/learn/othello/train.py: exact final scores up to 15 empties, the depth-4
              searches of the later phases' weights above): the shipped pattern weights next to the
              strong evaluation's features (discs, mobility, corners, x-squares, stability, parity,
              + a bias) fitted by least squares per phase to the same training labels.
3. match      alpha-beta at equal depth (--depth, default 4): patterns against strong, --openings
              (default 25) random 8-ply openings each played with both colours; with --seconds S also
              at equal time (S a move, iterative deepening; --timed-openings, default 10).
Run: ``.venv/bin/python bench/othello_eval.py [--run runs/othello_patterns] [--depth 4] [--openings 25]``
     writes bench/results/othello_eval.md and .json.
"""
import argparse
import json
import pathlib
import statistics
import sys
import time

import numba as nb
import numpy as np

from bench.othello_strength import openings
from engines.games.othello import Othello
from engines.knowledge.othello import registered as KO
from engines.knowledge.othello import patterns as OP
from engines.knowledge.registry import knowledge_for
from engines.search import Limits, make_searcher

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
EXACT_CHECK = 300  # held-out positions of 16-19 empties solved exactly for the error table


def random_states(game, count, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(4, 56))):
            if game.is_terminal(s):
                break
            moves = game.legal_moves(s)
            s = game.play(s, moves[int(rng.integers(len(moves)))])
        if not game.is_terminal(s):
            out.append(s)
    return np.array(out)


@nb.njit
def _loop(states, params, reps, evaluate):
    total = 0.0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += evaluate(states[i], params)
    return total


@nb.njit
def _loop_features(states, features, params, reps, evaluate_features):
    total = 0.0
    for _ in range(reps):
        for i in range(states.shape[0]):
            total += evaluate_features(states[i], features[i], params)
    return total


def _children(game, states):
    """Every child of the states: (parents' indices, children), for the update's figure."""
    parents, children = [], []
    for i, s in enumerate(states):
        for m in game.legal_moves(s):
            parents.append(i)
            children.append(game.play(s, m))
    return np.array(parents), np.array(children)


@nb.njit
def _loop_update(states, features, parents, children, params, reps, features_play, evaluate_features):
    total = 0.0
    row = np.zeros(features.shape[1], np.int64)
    for _ in range(reps):
        for j in range(children.shape[0]):
            i = parents[j]
            features_play(states[i], children[j], features[i], row)
            total += evaluate_features(children[j], row, params)
    return total


def _rate(run, count):
    run(1)
    rates = []
    for _ in range(5):
        t = time.process_time()  # CPU time: the machine is shared
        run(None)
        rates.append(count / (time.process_time() - t))
    return round(statistics.median(rates))


def speed(game, reps=500):
    states = random_states(game, 400, 1)
    features = np.zeros((len(states), OP.FEATURES_LEN), np.int64)
    for s, row in zip(states, features):
        OP.features_init(s, row)
    parents, children = _children(game, states)
    params = OP.load_params()
    n = reps * len(states)
    child_reps = max(1, n // len(children))
    return {
        "patterns": _rate(lambda r: _loop(states, params, r or reps, OP.evaluate_patterns), n),
        "patterns_incremental": _rate(lambda r: _loop_features(states, features, params, r or reps,
                                                               OP.evaluate_features), n),
        "patterns_incremental_with_update": _rate(
            lambda r: _loop_update(states, features, parents, children, params, r or child_reps, OP.features_play,
                                   OP.evaluate_features), child_reps * len(children)),
        "strong": _rate(lambda r: _loop(states, KO.STRONG_WEIGHTS, r or reps, KO.evaluate_strong), n)}


def strong_features(Ps, Os):
    """Per position: the strong evaluation's six features for the mover, and a bias."""
    game = Othello(8)
    s = game.initial_state()
    out = np.zeros((len(Ps), 7))
    onehots = [np.eye(7)[k] for k in range(6)]
    for i, (p, o) in enumerate(zip(Ps, Os)):
        s[8], s[9], s[1] = np.int64(np.uint64(p)), np.int64(np.uint64(o)), 0
        from engines.games.othello import bb_refresh
        bb_refresh(s)
        for k in range(6):
            out[i, k] = KO.evaluate_strong(s, onehots[k])
        out[i, 6] = 1.0
    return out


def errors(run_dir):
    from engines.learn.othello import train as T
    with np.load(run_dir / "positions.npz", allow_pickle=False) as d:
        Ps, Os, G = d["P"], d["O"], d["game"]
    with np.load(run_dir / "labels.npz", allow_pickle=False) as d:
        labels = d["labels"]
    E = T.empties_of(Ps, Os)
    held = (G % 10) == 9
    params = OP.load_params()
    side = OP.read_sidecar(OP.shipped_path())
    rng = np.random.default_rng(0)
    rows = []
    for k in range(OP.N_PHASES):
        lo, hi = OP.phase_empties(k)
        phase = (E >= lo) & (E <= hi) & ~np.isnan(labels)
        test = np.nonzero(phase & held)[0]
        train = np.nonzero(phase & ~held)[0]
        if len(test) == 0 or len(train) == 0:
            continue
        train = rng.choice(train, min(len(train), 20000), replace=False)
        test = test[:3000]
        Ftr, Fte = strong_features(Ps[train], Os[train]), strong_features(Ps[test], Os[test])
        coef, *_ = np.linalg.lstsq(Ftr, labels[train], rcond=None)
        strong_err = float(np.abs(Fte @ coef - labels[test]).mean())
        pat_err = float(np.abs(T.predict(params, Ps[test], Os[test]) - labels[test]).mean())
        kind = side["held_out"].get(OP.sidecar_phase(side, k), {}).get("labels", "?")
        rows.append({"phase": k, "empties": f"{lo}-{hi}", "labels": kind, "positions": int(len(test)),
                     "patterns": round(pat_err, 2), "strong_fitted": round(strong_err, 2),
                     "ratio": round(pat_err / strong_err, 2) if strong_err else None})
    # the phase above the exact labels, solved exactly here: the evaluations and the training's own
    # depth-4 search labels against the exact scores
    lo, hi = 16, 19
    test = np.nonzero((E >= lo) & (E <= hi) & held & ~np.isnan(labels))[0][:EXACT_CHECK]
    train = np.nonzero((E >= lo) & (E <= hi) & ~held & ~np.isnan(labels))[0]
    train = rng.choice(train, min(len(train), 20000), replace=False)
    if len(test):
        exact = T.exact_labels(Ps[test], Os[test])
        coef, *_ = np.linalg.lstsq(strong_features(Ps[train], Os[train]), labels[train], rcond=None)
        strong_err = float(np.abs(strong_features(Ps[test], Os[test]) @ coef - exact).mean())
        pat_err = float(np.abs(T.predict(params, Ps[test], Os[test]) - exact).mean())
        rows.append({"phase": 4, "empties": f"{lo}-{hi}", "labels": "exact (solved here)", "positions": int(len(test)),
                     "patterns": round(pat_err, 2), "strong_fitted": round(strong_err, 2),
                     "ratio": round(pat_err / strong_err, 2),
                     "depth4_label_error": round(float(np.abs(labels[test] - exact).mean()), 2)})
    return rows


def match(game, depth, n_openings, seed=7, seconds=None):
    knowledge = {"patterns": knowledge_for(game, "patterns"), "strong": knowledge_for(game, "strong")}
    wins = losses = draws = 0
    margins, nodes = [], {"patterns": [], "strong": []}
    for opening in openings(game, n_openings, seed, plies=8):
        for patterns_black in (True, False):
            s = game.initial_state()
            for m in opening:
                s = game.play(s, m)
            names = ("patterns", "strong") if patterns_black else ("strong", "patterns")
            searches = [make_searcher("alphabeta", game, {}, knowledge[n]) for n in names]
            while not game.is_terminal(s):
                p = int(game.to_move(s))
                r = searches[p].search(s, Limits(depth=depth) if seconds is None else Limits(time=seconds, margin=0.0))
                nodes[names[p]].append(r.stats["nodes"])
                s = game.play(s, r.move)
            margin = game.score(s) * (1 if patterns_black else -1)
            margins.append(margin)
            wins += margin > 0
            losses += margin < 0
            draws += margin == 0
    n = wins + losses + draws
    return {"games": n, "wins": wins, "losses": losses, "draws": draws, "score": round((wins + 0.5 * draws) / n, 3),
            "mean_margin": round(float(np.mean(margins)), 2), "depth": depth, "seconds": seconds, "openings": n_openings,
            "median_nodes_per_move": {k: int(statistics.median(v)) for k, v in nodes.items()}}


def carry_over(result):
    """The sections this run skipped, kept from the last results file (marked with its date)."""
    path = RESULTS / "othello_eval.json"
    if not path.is_file():
        return
    old = json.loads(path.read_text())
    for key in ("errors", "match", "timed_match"):
        if key not in result and old.get(key):
            result[key] = old[key]
            result.setdefault("carried", {})[key] = old.get("carried", {}).get(key, old["when"])


def write(result, args):
    lines = ["# Othello: the learned pattern evaluation against \"strong\"", "",
             f"{result['when']} - command: `{result['command']}`", ""]
    side = result["sidecar"]
    lines += [f"Weights: weights/othello/patterns.npz ({side['positions']} labelled positions, "
              f"{side['cpu_hours']} CPU hours; {side['from']})", ""]
    if result.get("carried"):
        lines += ["Sections not run this time, kept from earlier runs: " + ", ".join(
            f"{k} ({v})" for k, v in result["carried"].items()), ""]
    sp = result["speed"]
    names = {"patterns": "patterns, from scratch (evaluate_patterns)",
             "patterns_incremental": "patterns, from the kept features (evaluate_features)",
             "patterns_incremental_with_update": "patterns, incremental incl. the update from the parent "
                                                 "(features_play + evaluate_features, per child)",
             "strong": "strong"}
    lines += ["## Speed (compiled loop over 400 random 8x8 states, CPU time, median of 5; one run)", "",
              "| evaluation | evals/s | ratio to strong | ratio to patterns from scratch |", "|---|---|---|---|"]
    lines += [f"| {names[k]} | {v:,} | {v / sp['strong']:.2f} | {v / sp['patterns']:.2f} |" for k, v in sp.items()]
    lines.append("")
    if result.get("errors"):
        lines += ["## Held-out mean absolute disc error by phase", "",
                  "Labels of the training run (exact up to 15 empties, depth-4 search above); `strong fitted`: "
                  "the strong evaluation's features fitted by least squares per phase to the same training labels.", "",
                  "| phase | empties | labels | positions | patterns | strong fitted | ratio |", "|---|---|---|---|---|---|---|"]
        for r in result["errors"]:
            lines.append(f"| {r['phase']} | {r['empties']} | {r['labels']} | {r['positions']} | {r['patterns']} | "
                         f"{r['strong_fitted']} | {r['ratio']} |")
        lines.append("")
        for r in result["errors"]:
            if "depth4_label_error" in r:
                lines += [f"The training's depth-4 search labels of those {r['positions']} positions of "
                          f"{r['empties']} empties are {r['depth4_label_error']} discs from the exact scores.", ""]
    for key in ("match", "timed_match"):
        if not result.get(key):
            continue
        m = result[key]
        what = (f"equal depth (alpha-beta depth {m['depth']})" if m["seconds"] is None else
                f"equal time (alpha-beta, iterative deepening, {m['seconds']} s a move, same process, loaded machine)")
        lines += [f"## Match at {what}: patterns against strong", "",
                  f"{m['openings']} random 8-ply openings, each played with both colours; score counts draws half.", "",
                  "| games | wins | losses | draws | score | mean disc margin | median nodes/move (patterns, strong) |",
                  "|---|---|---|---|---|---|---|",
                  f"| {m['games']} | {m['wins']} | {m['losses']} | {m['draws']} | {m['score']} | {m['mean_margin']} | "
                  f"{m['median_nodes_per_move']['patterns']}, {m['median_nodes_per_move']['strong']} |", ""]
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "othello_eval.md").write_text("\n".join(lines))
    (RESULTS / "othello_eval.json").write_text(json.dumps(result, indent=1) + "\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", default=str(ROOT / "runs" / "othello_patterns"), help="the training run's folder")
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--openings", type=int, default=25)
    p.add_argument("--seconds", type=float, default=0.0, help="also a match at this many seconds a move (0: none)")
    p.add_argument("--timed-openings", type=int, default=10)
    p.add_argument("--skip", nargs="*", default=[], choices=["errors", "match"])
    args = p.parse_args(argv)
    game = Othello(8)
    result = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "command": "python bench/othello_eval.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "sidecar": OP.read_sidecar(OP.shipped_path()), "speed": speed(game)}
    print(result["speed"], flush=True)
    run_dir = pathlib.Path(args.run)
    if "errors" not in args.skip and (run_dir / "labels.npz").is_file():
        result["errors"] = errors(run_dir)
        print(result["errors"], flush=True)
    if "match" not in args.skip:
        result["match"] = match(game, args.depth, args.openings)
        print(result["match"], flush=True)
    if args.seconds:
        result["timed_match"] = match(game, None, args.timed_openings, seconds=args.seconds)
        print(result["timed_match"], flush=True)
    carry_over(result)
    write(result, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
