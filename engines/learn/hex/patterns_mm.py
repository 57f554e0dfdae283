"""Hex move patterns (engines/knowledge/hex/move_patterns.py) fitted by MM (engines/learn/mm.py) on
records of strong play (engines/learn/hex/records.py; MoHex self-play: standins/mohex_games.py).

Competitions.  In every position of a record after its random opening, every empty cell is a
candidate; the played move wins.  A candidate's team: its 12-cell pattern (one feature per canonical
key seen at least ``min_count`` times among the training candidates, the rest share the feature
"other12") and its 6-cell pattern (one feature per key seen in training; a key never seen has no
feature).  Two groups, so each MM step is exact.  Baselines on the same held-out positions: uniform
(every gamma 1) and distance-only (one feature per hex distance 1, 2, 3, 4, 5+ to the previous move).

    python -m engines.learn.hex.patterns_mm --games /work/data/hex-games/9 --out weights/hex/patterns9.txt

writes the table and a sidecar (same name, .json: data, recipe, CPU hours, held-out top-1 and
log-likelihood of the patterns and of the baselines, the history of the fit).
"""
import argparse
import datetime
import json
import resource
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from engines.knowledge.hex.move_patterns import PatternTable, board_keys
from engines.learn import mm
from engines.learn.hex.records import read_record

DISTANCES = 5  # distance features 1..4 and 5+


def hex_distance(a: int, b: int, n: int) -> int:
    (r1, c1), (r2, c2) = divmod(a, n), divmod(b, n)
    dr, dc = r2 - r1, c2 - c1
    return max(abs(dr), abs(dc), abs(dr + dc))


def position_keys(paths, skip_random: bool = True):
    """For every fitted position: (keys12, keys6, distance to the previous move (0: none), played
    action, move number), arrays over the empty cells of the position."""
    for path in paths:
        size, moves, info, _ = read_record(path)
        nrandom = int(info.get("random", 0)) if skip_random else 0
        cells = np.zeros(size * size, dtype=np.int64)
        k12 = np.empty(size * size, dtype=np.int64)
        k6 = np.empty(size * size, dtype=np.int64)
        for i, a in enumerate(moves):
            mover = i % 2
            if i >= nrandom:
                board_keys(cells, size, mover, k12, k6)
                empty = np.flatnonzero(cells == 0)
                dist = (np.array([hex_distance(int(x), moves[i - 1], size) for x in empty]) if i > 0
                        else np.zeros(len(empty), dtype=np.int64))
                yield empty, k12[empty].copy(), k6[empty].copy(), dist, a, i + 1
            cells[a] = mover + 1


class Features:
    """The feature indices: frequent 12-cell keys, then other12, then 6-cell keys."""

    def __init__(self, keys12, keys6):
        self.keys12 = sorted(keys12)
        self.keys6 = sorted(keys6)
        self.index12 = {k: i for i, k in enumerate(self.keys12)}
        self.other12 = len(self.keys12)
        self.index6 = {k: self.other12 + 1 + i for i, k in enumerate(self.keys6)}
        self.count = self.other12 + 1 + len(self.keys6)
        self.groups = ((0, self.other12 + 1), (self.other12 + 1, self.count))

    def table(self, gammas) -> PatternTable:
        return PatternTable({k: float(gammas[i]) for k, i in self.index12.items()},
                            {k: float(gammas[i]) for k, i in self.index6.items()}, float(gammas[self.other12]))


def features_of(positions, min_count: int) -> Features:
    c12, c6 = Counter(), Counter()
    for _, k12, k6, _, _, _ in positions:
        c12.update(k12.tolist())
        c6.update(k6.tolist())
    return Features([k for k, c in c12.items() if c >= min_count], list(c6))


def pattern_competitions(positions, features: Features) -> mm.Competitions:
    b = mm.Builder(2, features.count)
    for empty, k12, k6, _, played, move in positions:
        f = np.empty((len(empty), 2), dtype=np.int32)
        f[:, 0] = [features.index12.get(k, features.other12) for k in k12.tolist()]
        f[:, 1] = [features.index6.get(k, features.count) for k in k6.tolist()]
        b.add_rows(f, empty, played, move)
    return b.build()


def distance_competitions(positions) -> mm.Competitions:
    b = mm.Builder(1, DISTANCES)
    for empty, _, _, dist, played, move in positions:
        f = np.where(dist == 0, DISTANCES, np.minimum(dist, DISTANCES) - 1).astype(np.int32)[:, None]
        b.add_rows(f, empty, played, move)
    return b.build()


def scores(c: mm.Competitions, gammas) -> dict:
    return {"top1": mm.top1(c, gammas), "loglik_per_move": mm.log_likelihood(c, gammas)}


def train(game_dirs, out, iterations: int = 30, prior: float = 1.0, holdout_every: int = 10, min_count: int = 20,
          plot=None, log=print) -> dict:
    cpu0 = time.process_time()
    out = Path(out)
    paths = mm.record_paths(game_dirs)
    if not paths:
        raise ValueError(f"no SGF records in {', '.join(map(str, game_dirs))}")
    train_paths, held_paths = mm.split_records(paths, holdout_every)
    train_pos, held_pos = list(position_keys(train_paths)), list(position_keys(held_paths))
    features = features_of(train_pos, min_count)
    c, h = pattern_competitions(train_pos, features), pattern_competitions(held_pos, features)
    log(f"{len(train_paths)} training games ({c.count} positions, {len(c.feats)} candidates), {len(held_paths)} "
        f"held-out games ({h.count} positions); {len(features.keys12)} 12-cell and {len(features.keys6)} "
        f"6-cell patterns")

    def report(e):
        log(f"iteration {e['iteration']:3d}: train {e['train_loglik']:.4f}, held-out {e.get('heldout_loglik', 0):.4f}, "
            f"held-out top-1 {e.get('heldout_top1', 0):.4f}")

    result = mm.fit(c, features.count, features.groups, iterations=iterations, prior=prior,
                    heldout=h if h.count else None, log=report)
    table = features.table(result.gammas)
    out.write_text(table.text(), encoding="ascii")
    dc, dh = distance_competitions(train_pos), distance_competitions(held_pos)
    dist_fit = mm.fit(dc, DISTANCES, ((0, DISTANCES),), iterations=iterations, prior=prior)
    cpu_generation = 0.0
    for p in paths:
        cpu_generation += float(read_record(p)[2].get("cpu", 0.0))
    generators = Counter(" ".join(read_record(p)[2].get(k, "?") for k in ("generator", "version", "level"))
                         for p in paths)
    sidecar = {
        "file": out.name,
        "format": "engines/knowledge/hex/move_patterns.py: p12 KEY GAMMA / p6 KEY GAMMA / other12 - GAMMA",
        "how": (f"Coulom's MM (engines/learn/mm.py) over the empty cells of each position after the random opening, "
                f"the played move winning; team = 12-cell pattern (keys seen >= {min_count} times in training, else "
                f"'other12') x 6-cell pattern; prior {prior:g}; {len(result.history)} iterations "
                f"(python -m engines.learn.hex.patterns_mm)"),
        "from": {"games": len(train_paths), "positions": c.count, "candidates": int(len(c.feats)),
                 "heldout_games": len(held_paths), "heldout_positions": h.count,
                 "patterns12": len(features.keys12), "patterns6": len(features.keys6),
                 "generators": dict(generators), "records": sorted({str(Path(d)) for d in game_dirs}),
                 "generator": "MoHex 2.0 self-play (python -m standins.mohex_games): fixed simulations a move, "
                              "no swap, 1..2 uniformly random opening moves (not fitted)"},
        "when": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "cpu_hours": {"generation": round(cpu_generation / 3600, 4),
                      "fit": round((time.process_time() - cpu0) / 3600, 4)},
        "heldout": {"patterns": scores(h, result.gammas) if h.count else None,
                    "uniform": scores(h, np.ones(features.count)) if h.count else None,
                    "distance_only": scores(dh, dist_fit.gammas) if dh.count else None},
        "distance_gammas": [round(float(g), 4) for g in dist_fit.gammas],
        "holdout_every": holdout_every,
        "train_loglik_per_move": result.history[-1]["train_loglik"],
        "history": result.history,
    }
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
    if plot:
        mm.plot_history(plot, result.history, f"Hex move patterns (MM) on {len(train_paths)} games")
    return sidecar


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.learn.hex.patterns_mm", description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", required=True, help="folders (or files) of SGF records")
    parser.add_argument("--out", required=True, help="the table to write (sidecar: same name, .json)")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--prior", type=float, default=1.0)
    parser.add_argument("--holdout-every", type=int, default=10, help="hold out every k-th record (0: none)")
    parser.add_argument("--min-count", type=int, default=20, help="training candidates a 12-cell key needs")
    parser.add_argument("--plot", help="PNG of the fit's history")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.prior <= 0 or args.holdout_every < 0 or args.min_count < 1:
        parser.error("--iterations >= 1, --prior > 0, --holdout-every >= 0, --min-count >= 1")
    try:
        sidecar = train(args.games, args.out, args.iterations, args.prior, args.holdout_every, args.min_count, args.plot)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps(sidecar["heldout"]))
    print(f"wrote {args.out} ({usage.ru_utime + usage.ru_stime:.1f} CPU seconds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
