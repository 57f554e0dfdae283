"""Held-out move prediction of Go move weights: ``python -m bench.go_mm --games DIR [--course FILE]``.

On the held-out records of go_mm's split (every 10th record of the sorted SGF files of DIR: the
games ``python -m engines.learn.go.mm`` did not fit on), for each weights file: the top-1 rate (the
played move has the largest gamma among all legal candidates and the pass; ties share the hit), the
log-likelihood per move, the top-1 rate without the positions where the move played was a pass, and
the top-1 rate by phase of the game.  Rows: the project's weights (weights/go/mm9.txt by default),
the Go5 course weights (../shared/data/go5-course-weights.txt: used here for this comparison only,
with their own pattern classes) and uniform weights (every gamma 1).  Results go to
bench/results/go_mm.md and .json.
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

from engines.knowledge.go.go5_weights import NUM_FEATURES, load_weights, parse_weights
from engines.learn.go import mm as M

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
COURSE = ROOT.parent / "shared" / "data" / "go5-course-weights.txt"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.go_mm", description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", required=True, help="folders of SGF records (go_games)")
    parser.add_argument("--weights", nargs="*", default=[str(ROOT / "weights" / "go" / "mm9.txt")])
    parser.add_argument("--course", default=str(COURSE), help="the course weights ('' to leave them out)")
    parser.add_argument("--holdout-every", type=int, default=10)
    parser.add_argument("--out", default=str(RESULTS / "go_mm"), help="results path without suffix")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    _, held = M.split_records(M.record_paths(args.games), args.holdout_every)
    if not held:
        parser.error("no held-out records")
    rows = []
    for path in args.weights:
        rows.append((f"plies MM ({Path(path).name})", M.evaluate(load_weights(path), held)))
    if args.course and Path(args.course).is_file():
        rows.append(("Go5 course weights", M.evaluate(load_weights(args.course), held)))
    uniform = parse_weights(M.weights_text(np.ones(NUM_FEATURES)), "<uniform>")
    rows.append(("uniform (every gamma 1)", M.evaluate(uniform, held)))
    phases = list(rows[0][1]["phases"])
    sizes = sorted({M.read_record(p).get_size() for p in held})
    lines = [
        "# Go move weights: held-out move prediction", "",
        f"{datetime.now(timezone.utc).replace(microsecond=0).isoformat()} - {platform.machine()}, "
        f"{os.cpu_count()} cores - load average {[round(x, 2) for x in load0]} at start - "
        f"Python {platform.python_version()}", "",
        f"Command: `python -m bench.go_mm {' '.join(sys.argv[1:] if argv is None else argv)}`", "",
        f"{len(held)} held-out GNU Go self-play records (every {args.holdout_every}th record of "
        f"{', '.join(args.games)}; board size {', '.join(map(str, sizes))}), "
        f"{rows[0][1]['positions']} positions ({rows[0][1]['passes']} of them a pass), every legal point "
        "and the pass a candidate. Top-1: the played move has the largest gamma (ties share the hit).", "",
        "| weights | top-1 | top-1 without passes | log-likelihood / move | "
        + " | ".join(f"top-1 moves {p}" for p in phases) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(phases),
    ]
    for name, r in rows:
        lines.append(f"| {name} | {r['top1']:.3f} | {r['top1_no_pass']:.3f} | {r['loglik']:.3f} | "
                     + " | ".join("-" if r["phases"][p] is None else f"{r['phases'][p]:.3f}" for p in phases) + " |")
    lines += ["", f"({time.perf_counter() - t0:.1f} s)"]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps({name: r for name, r in rows}, indent=1) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
