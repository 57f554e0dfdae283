"""The Go policy network beside the MM move weights: ``python -m bench.go_policy --games DIR``.

Held-out move prediction.  On the held-out records of engines/learn/go/policy.py's split (seed % 10 == 0:
records the network was not trained on, and the MM weights' own held-out split of seeds 1..360), every move of the player (the random opening excluded) whose move is legal under plies'
rules: the top-1 and top-3 rates among the legal moves and the pass (ties share the hit) of the network
(weights/go/policy<size>.onnx through onnxruntime, --network), of the MM weights (weights/go/mm9.txt: gamma products of
the same positions' features) and of a uniform choice.  95 % intervals by a bootstrap over games (moves
of one game are not independent).  Held-out games whose move sequence equals a training game's are
counted (GNU Go is nearly deterministic: a game with no random opening move can repeat).

Speed.  Evaluations a second through onnxruntime on one thread (intra- and inter-op), batch 1 and batch
8, on held-out positions: CPU seconds of the session run alone (the planes are built before), median
of repeated runs; and the compiled plane builder's time a position.

Writes bench/results/go_policy.md and .json.
    nice -n 15 .venv/bin/python -m bench.go_policy --games /work/data/go-games/go9
"""
import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sgfmill import sgf

from engines.knowledge.go.features import MAX_FEATURES, compute_features
from engines.knowledge.go.go5_weights import load_weights
from engines.knowledge.go.policy_network import PolicyNetwork, planes_of
from engines.learn.go.policy import is_heldout, record_positions, record_seed, topk_hits

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def bootstrap(hits_by_game, rounds=2000, seed=0):
    """95 % interval of the mean hit rate over positions, resampling whole games."""
    rng = np.random.default_rng(seed)
    sums = np.array([h.sum() for h in hits_by_game])
    counts = np.array([len(h) for h in hits_by_game])
    picks = rng.integers(0, len(sums), size=(rounds, len(sums)))
    rates = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    return float(np.percentile(rates, 2.5)), float(np.percentile(rates, 97.5))


def moves_of(path):
    record = sgf.Sgf_game.from_bytes(Path(path).read_bytes())
    return tuple(node.get_move() for node in record.get_main_sequence()[1:])


def evaluate(held, network: PolicyNetwork, weights):
    """Per held-out game: hit arrays of each predictor; and the states (for the timing)."""
    log_gamma = np.append(np.log(weights.weights), 0.0)  # the last entry: the padding feature
    out = {name: {k: [] for k in (1, 3)} for name in ("network", "mm", "uniform")}
    states, positions, mm_missing, games = [], 0, 0, []
    for path in held:
        record = sgf.Sgf_game.from_bytes(Path(path).read_bytes())
        n = record.get_size()
        feats = np.empty((n * n + 1, MAX_FEATURES), np.int32)
        nfeat = np.empty(n * n + 1, np.int32)
        rows = {name: [] for name in out}
        targets, legals = [], []
        for _game, state, planes, a, legal, _move in record_positions(record):
            if not legal[a]:
                continue
            compute_features(state, weights.table, feats, nfeat)
            f = np.where(np.arange(MAX_FEATURES)[None, :] < nfeat[:, None], feats, len(log_gamma) - 1)
            mm = np.where(nfeat >= 0, log_gamma[f].sum(axis=1), -np.inf)
            mm_missing += int(nfeat[a] < 0)
            rows["network"].append(planes)
            rows["mm"].append(mm)
            rows["uniform"].append(np.zeros(n * n + 1))
            targets.append(a)
            legals.append(legal)
            states.append(state)
        if not targets:
            continue
        positions += len(targets)
        games.append(path)
        targets, legals = np.array(targets), np.stack(legals)
        logits = {"network": network.logits(np.stack(rows["network"])), "mm": np.stack(rows["mm"]),
                  "uniform": np.stack(rows["uniform"])}
        for name, x in logits.items():
            for k in (1, 3):
                out[name][k].append(topk_hits(x, legals, targets, k))
    return out, states, positions, mm_missing, games


def speed(network: PolicyNetwork, states, repeats=5):
    """Median CPU seconds a session run (batches 1 and 8) and a plane build."""
    x = np.stack([planes_of(s) for s in states])
    figures = {}
    for batch in (1, 8):
        runs, walls = [], []
        for _ in range(repeats):
            count = (len(x) // batch) * batch
            t, w = time.process_time(), time.perf_counter()
            for i in range(0, count, batch):
                network.logits(x[i:i + batch])
            runs.append((time.process_time() - t) / (count // batch))
            walls.append((time.perf_counter() - w) / (count // batch))
        per_call = float(np.median(runs))
        figures[f"batch{batch}"] = {"cpu_s_per_call": per_call, "positions_per_cpu_s": batch / per_call,
                                    "wall_s_per_call": float(np.median(walls))}
    t = time.process_time()
    for s in states:
        planes_of(s)
    figures["planes_cpu_s"] = (time.process_time() - t) / len(states)
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.go_policy", description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", required=True, help="folders of SGF records")
    parser.add_argument("--network", help="the network (default weights/go/policy<size>.onnx)")
    parser.add_argument("--weights", default=str(ROOT / "weights" / "go" / "mm9.txt"))
    parser.add_argument("--size", type=int, default=9, help="board size (records of other sizes are skipped)")
    parser.add_argument("--out", default=str(RESULTS / "go_policy"), help="results path without suffix")
    args = parser.parse_args(argv)
    if args.network is None:
        args.network = str(ROOT / "weights" / "go" / f"policy{args.size}.onnx")
    load0 = os.getloadavg()
    paths = sorted(p for d in args.games for p in (Path(d).glob("*.sgf") if Path(d).is_dir() else [Path(d)]))
    paths = [p for p in paths if sgf.Sgf_game.from_bytes(p.read_bytes()).get_size() == args.size]
    held = [p for p in paths if is_heldout(record_seed(p))]
    if not held:
        parser.error("no held-out records (seed % 10 == 0)")
    train_moves = {moves_of(p) for p in paths if not is_heldout(record_seed(p))}
    repeated = {p for p in held if moves_of(p) in train_moves}
    repeats = len(repeated)
    network = PolicyNetwork(args.network, args.size)
    hits, states, positions, mm_missing, games = evaluate(held, network, load_weights(args.weights))
    rates = {name: {f"top{k}": float(np.concatenate(h[k]).mean()) for k in (1, 3)} for name, h in hits.items()}
    intervals = {name: {f"top{k}": bootstrap(h[k]) for k in (1, 3)} for name, h in hits.items()}
    fresh = [i for i, p in enumerate(games) if p not in repeated]  # the games no training game repeats
    fresh_rates = {name: {f"top{k}": float(np.concatenate([h[k][i] for i in fresh]).mean()) for k in (1, 3)}
                   for name, h in hits.items()}
    fresh_intervals = {name: {f"top{k}": bootstrap([h[k][i] for i in fresh]) for k in (1, 3)}
                       for name, h in hits.items()}
    rng = np.random.default_rng(0)
    sample = [states[i] for i in rng.choice(len(states), size=min(400, len(states)), replace=False)]
    timing = speed(network, sample)
    meta = network.meta
    command = f"python -m bench.go_policy {' '.join(sys.argv[1:] if argv is None else argv)}"
    result = {"date": datetime.now(timezone.utc).replace(microsecond=0).isoformat(), "command": command,
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average {[round(v, 2) for v in load0]} at start",
              "heldout_games": len(held), "heldout_positions": positions, "heldout_repeating_a_training_game": repeats,
              "mm_played_move_not_a_candidate": mm_missing, "rates": rates, "intervals95": intervals,
              "without_repeats": {"games": len(fresh), "rates": fresh_rates, "intervals95": fresh_intervals},
              "speed": timing, "network": {"file": str(args.network), "shape": meta.get("shape"),
                                           "data": meta.get("data"), "cpu_hours": meta.get("cpu_hours")},
              "weights": str(args.weights)}
    names = {"network": f"policy network ({Path(args.network).name}, onnxruntime)",
             "mm": f"MM move weights ({Path(args.weights).name})", "uniform": "uniform (legal moves and the pass)"}
    lines = ["# Go policy network: held-out move prediction and speed", "",
             f"{result['date']} - {result['machine']} - Python {platform.python_version()}", "",
             f"Command: `{command}`", "",
             f"{len(held)} held-out GNU Go level-10 self-play {args.size}x{args.size} games (seed % 10 == 0), {positions} "
             f"positions (the player's moves; random openings excluded); {repeats} of these games repeat a "
             f"training game move for move.", "",
             "| predictor | top-1 | 95 % | top-3 | 95 % |", "|---|---|---|---|---|"]
    for name, label in names.items():
        r, iv = rates[name], intervals[name]
        lines.append(f"| {label} | {100 * r['top1']:.1f} % | {100 * iv['top1'][0]:.1f}-{100 * iv['top1'][1]:.1f} | "
                     f"{100 * r['top3']:.1f} % | {100 * iv['top3'][0]:.1f}-{100 * iv['top3'][1]:.1f} |")
    lines += ["", f"The {len(fresh)} held-out games that repeat no training game:", "",
              "| predictor | top-1 | 95 % | top-3 | 95 % |", "|---|---|---|---|---|"]
    for name, label in names.items():
        r, iv = fresh_rates[name], fresh_intervals[name]
        lines.append(f"| {label} | {100 * r['top1']:.1f} % | {100 * iv['top1'][0]:.1f}-{100 * iv['top1'][1]:.1f} | "
                     f"{100 * r['top3']:.1f} % | {100 * iv['top3'][0]:.1f}-{100 * iv['top3'][1]:.1f} |")
    shape = meta.get("shape", {})
    lines += ["", "Intervals: bootstrap over games (2,000 resamples).", "",
              f"Network: {shape.get('blocks')} residual blocks x {shape.get('channels')} channels, "
              f"{shape.get('parameters')} parameters, {shape.get('planes')} planes; trained on "
              f"{(meta.get('data') or {}).get('train_positions')} positions of "
              f"{((meta.get('data') or {}).get('games') or {}).get('train')} games; CPU hours {meta.get('cpu_hours')}.", "",
              "Speed (onnxruntime, 1 thread, CPU seconds of the session run, median of 5 passes over "
              f"{len(sample)} held-out positions):", "",
              "| batch | CPU ms a call | positions a CPU second | wall ms a call (shared machine) |", "|---|---|---|---|"]
    for batch in (1, 8):
        t = timing[f"batch{batch}"]
        lines.append(f"| {batch} | {1000 * t['cpu_s_per_call']:.3f} | {t['positions_per_cpu_s']:.0f} | "
                     f"{1000 * t['wall_s_per_call']:.3f} |")
    lines += ["", f"Planes (compiled builder): {1e6 * timing['planes_cpu_s']:.1f} CPU us a position.", ""]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(lines))
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
