"""Adds up the parts of a Go match played apart (regress/go_match.py ``--json`` files, ``--first-game``
parts): A's score with draws as halves, the 95 % Wilson interval, A as Black and as White, the games'
ends, and each side's seconds a genmove (the parts' medians as a range, the largest maximum; the
referee keeps no per-move times in its JSON, so the medians are not pooled).

    python -m bench.go_policy_tree_match bench/results/go_policy_tree_match/w20_part*.json
"""
import argparse
import json
import sys

from regress.go_match import record_points, wilson


def merged(paths) -> dict:
    parts = [json.load(open(p)) for p in paths]
    records = [r for part in parts for r in part["records"]]
    score, games = record_points(records, "A")
    black, white = record_points(records, "A", 0), record_points(records, "A", 1)
    times = {label: [part["engines"][label]["time"] for part in parts] for label in ("A", "B")}
    ends = {}
    for r in records:
        ends[r["reason"]] = ends.get(r["reason"], 0) + 1
    return {"games": games, "score": score, "rate": score / games if games else 0.0,
            "ci95": list(wilson(score / games, games)) if games else [0.0, 1.0],
            "as_black": black, "as_white": white, "draws": sum(r["winner"] is None for r in records), "ends": ends,
            "seconds": {label: {"median_range": [min(t["median_s"] for t in ts), max(t["median_s"] for t in ts)],
                                "max": max(t["max_s"] for t in ts), "moves": sum(t["moves"] for t in ts)}
                        for label, ts in times.items()},
            "parts": {p: record_points(part["records"], "A") for p, part in zip(paths, parts)}}


def row(m) -> str:
    lo, hi = m["ci95"]
    a, b = m["seconds"]["A"], m["seconds"]["B"]
    return (f"| {m['games']} | {m['score']:g} ({m['draws']} draws) | {100 * m['rate']:.1f} % | "
            f"{100 * lo:.1f}-{100 * hi:.1f} % | {m['as_black'][0]:g}/{m['as_black'][1]} | "
            f"{m['as_white'][0]:g}/{m['as_white'][1]} | {a['median_range'][0]:.3f}-{a['median_range'][1]:.3f} / "
            f"{a['max']:.3f} | {b['median_range'][0]:.3f}-{b['median_range'][1]:.3f} / {b['max']:.3f} |")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("parts", nargs="+", metavar="PART.json", help="the parts' regress/go_match.py --json files")
    m = merged(p.parse_args(argv).parts)
    print(row(m))
    print(json.dumps(m, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
