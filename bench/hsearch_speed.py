"""H-search speed (engines/knowledge/hex/vc.py) on a fixed workload, and a check that its answers stay the same.

Workload: seeded random Hex positions (150 on 9x9, 60 on 11x11), each of 6-30 random stones and not
decided, run through ``HSearch(n, limits).root`` and ``HSearch.run`` for each colour, with the tree's
limits (engines/knowledge/hex/tree_connections.py TREE_LIMITS) and DEFAULT_LIMITS.  A position's record:
root()'s answer, and after each run() its stats and a digest of the whole connection pool and the
pairs' lists (so any change of a connection, its order or a list shows).
Run: ``.venv/bin/python -m bench.hsearch_speed record FILE`` (answers to a JSON file),
``... check FILE`` (the same answers?), ``... time`` (CPU ms per root() call, median and total),
``... compare MODULE`` (the same, interleaved position by position with an older copy of vc.py saved as
engines/knowledge/hex/MODULE.py, e.g. ``git show main:engines/knowledge/hex/vc.py > .../vc_base.py``: the
machine's load then weighs on both alike; each the least of 3 runs),
``... run [--repeat R]`` (the workload R times, printing only a count: under callgrind, the difference
between R=2 and R=1 is the workload's instruction count, without the start-up's);
``--small`` takes the first 40 9x9 and 10 11x11 positions with the tree's limits only.
"""
import argparse
import hashlib
import json
import statistics
import sys
import time

import numpy as np

from bench.hex_vc import undecided_positions
from engines.knowledge.hex.tree_connections import TREE_LIMITS
from engines.knowledge.hex.vc import DEFAULT_LIMITS, S_VCS, HSearch

SEED = 2026
COUNTS = {9: 150, 11: 60}
LIMITS = {"tree": TREE_LIMITS, "default": DEFAULT_LIMITS}


def positions(n, count, seed=SEED):
    """count undecided positions of n x n Hex, each after 6-30 uniformly random moves."""
    return undecided_positions(n, count, 6, 30, np.random.default_rng(seed + n))


def pool_digest(hs):
    """A digest of the last run's pool (carriers, ends, kinds, keys, dropped marks) and pair lists."""
    w = hs.work
    used = int(w.stats[S_VCS])
    h = hashlib.sha256()
    for a in (w.carrier[:used], w.ends[:used], w.kind[:used], w.key[:used], w.dropped[:used]):
        h.update(np.ascontiguousarray(a).tobytes())
    for lists, counts in ((w.fulls, w.nfulls), (w.semis, w.nsemis)):
        for p in np.flatnonzero(counts):
            h.update(np.int64(p).tobytes())
            h.update(lists[p, :counts[p]].tobytes())
    return h.hexdigest()[:20]


def workload(small):
    for n, count in COUNTS.items():
        states = positions(n, count)
        if small:
            states = states[:40 if n == 9 else 10]
        for name, limits in LIMITS.items():
            if small and name != "tree":
                continue
            yield n, name, limits, states


def record(small):
    out = []
    for n, name, limits, states in workload(small):
        hs = HSearch(n, limits)
        for k, s in enumerate(states):
            move, cells = hs.root(s)
            entry = {"n": n, "limits": name, "k": k, "move": move, "must_play": cells, "runs": []}
            for colour in (0, 1):
                won = hs.run(s, colour)
                nn = n * n
                edges = [hs.connections(nn, nn + 1, kind) for kind in (0, 1)]
                entry["runs"].append({"won": won, "stats": hs.stats, "edges": edges, "pool": pool_digest(hs)})
            out.append(entry)
    return out


def timing(small):
    for n, name, limits, states in workload(small):
        hs = HSearch(n, limits)
        hs.root(states[0])  # compile / load before timing
        times = []
        for s in states:
            t = time.process_time()
            hs.root(s)
            times.append(1000 * (time.process_time() - t))
        print(f"{n}x{n} {name:8s} positions {len(times):4d}  median {statistics.median(times):8.2f} ms"
              f"  mean {statistics.fmean(times):8.2f} ms  total {sum(times):9.1f} ms")


def compare(module, small, rounds=3):
    import importlib
    old = importlib.import_module(f"engines.knowledge.hex.{module}")
    for n, name, limits, states in workload(small):
        before, after = old.HSearch(n, old.HLimits(*limits)), HSearch(n, limits)
        before.root(states[0])
        after.root(states[0])
        times = {before: [], after: []}
        for s in states:
            for hs in (before, after):
                runs = []
                for _ in range(rounds):
                    t = time.process_time()
                    hs.root(s)
                    runs.append(1000 * (time.process_time() - t))
                times[hs].append(min(runs))
        tb, ta = times[before], times[after]
        mb, ma = statistics.median(tb), statistics.median(ta)
        print(f"{n}x{n} {name:8s} median ms: before {mb:7.2f} after {ma:7.2f} ({ma / mb:.2f})"
              f"  total ms: before {sum(tb):8.1f} after {sum(ta):8.1f} ({sum(ta) / sum(tb):.2f})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["record", "check", "time", "compare", "run"])
    parser.add_argument("file", nargs="?", help="the answers' JSON file, or compare's module")
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    if args.mode == "time":
        timing(args.small)
    elif args.mode == "compare":
        compare(args.file, args.small)
    elif args.mode == "run":
        calls = 0
        for _ in range(args.repeat):
            for n, name, limits, states in workload(args.small):
                hs = HSearch(n, limits)
                for s in states:
                    hs.root(s)
                    calls += 1
        print(f"{calls} root() calls")
    elif args.mode == "record":
        with open(args.file, "w") as f:
            json.dump(record(args.small), f)
    else:
        with open(args.file) as f:
            want = json.load(f)
        got = record(args.small)
        bad = [(g["n"], g["limits"], g["k"]) for g, w in zip(got, want) if g != w]
        if len(got) != len(want) or bad:
            print(f"DIFFERENT: {len(bad)} of {len(want)} positions, first {bad[:5]}")
            return 1
        print(f"identical: {len(got)} position records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
