"""H-search's list limits and list policies on 7x7 -> bench/results/hex_vc_limits.md

Positions of random play (1/5 to 3/5 of the board filled, not decided by stones); for each list
limit (fulls/semis per pair) and each list policy (first come: keep_smallest=0; kept smallest:
keep_smallest=1) how many H-search decides (a winning key for the mover or an empty must-play),
and how many positions are non-monotone (a narrower limit decides, a wider one of the same policy
does not), with how many of those the wider search stopped at max_ops.  No solver here (7x7 is too
slow for it); soundness is tests/test_hex_vc.py's.

    nice -n 15 .venv/bin/python -m bench.hex_vc_limits --positions 1000 --seed 2   # ~ 2 CPU minutes
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from engines.games.hex import Hex
from engines.knowledge.hex.vc import HLimits, HSearch

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = ((10, 16), (16, 24), (25, 50))
POLICIES = ((0, "first come"), (1, "kept smallest"))


def decides(search, state):
    if search.winning_move(state) is not None:
        return True
    return search.must_play(state, int(state[1])) == []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--size", type=int, default=7)
    ap.add_argument("--out", default=str(RESULTS / "hex_vc_limits.md"))
    args = ap.parse_args(argv)
    n = args.size
    game = Hex(n)
    rng = np.random.default_rng(args.seed)
    searches = {(f, s, k): HSearch(n, HLimits(max_fulls=f, max_semis=s, keep_smallest=k))
                for f, s in SIZES for k, _ in POLICIES}
    count = 0
    decided = dict.fromkeys(searches, 0)
    non_monotone = {k: 0 for k, _ in POLICIES}
    cut = {k: 0 for k, _ in POLICIES}
    only = {k: 0 for k, _ in POLICIES}  # at the default limits, decided by this policy alone
    for _ in range(args.positions):
        s = game.initial_state()
        for _ in range(int(rng.integers(n * n // 5, n * n * 3 // 5 + 1))):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
            if game.is_terminal(s):
                break
        if game.is_terminal(s):
            continue
        count += 1
        result, stopped = {}, {}
        for key, hs in searches.items():
            result[key] = decides(hs, s)
            stopped[key] = hs.stats["cut"]
            decided[key] += result[key]
        default = [result[(*SIZES[0], k)] for k, _ in POLICIES]
        for k, _ in POLICIES:
            only[k] += default[k] and not default[1 - k]
            worse = [stopped[(*SIZES[j], k)] for i in range(len(SIZES))
                     for j in range(i + 1, len(SIZES))
                     if result[(*SIZES[i], k)] and not result[(*SIZES[j], k)]]
            if worse:
                non_monotone[k] += 1
                cut[k] += all(worse)
    lines = ["# H-search: list limits and list policies", "",
             f"Command: `nice -n 15 python -m bench.hex_vc_limits {' '.join(argv if argv is not None else sys.argv[1:])}`"
             f"; {count} positions of random play on {n}x{n}; max_ops {HLimits().max_ops}.", "",
             "| lists | " + " | ".join(f"{f}/{s} decides" for f, s in SIZES)
             + " | non-monotone positions | of which every wider miss stopped at max_ops |",
             "|---|" + "---|" * (len(SIZES) + 2)]
    for k, name in POLICIES:
        lines.append(f"| {name} | " + " | ".join(f"{decided[(f, s, k)]} ({100 * decided[(f, s, k)] / max(1, count):.1f} %)"
                                                  for f, s in SIZES)
                     + f" | {non_monotone[k]} | {cut[k]} |")
    lines += ["", f"At {SIZES[0][0]}/{SIZES[0][1]} (the default limits), positions decided by one policy only: "
              + ", ".join(f"{name} {only[k]}" for k, name in POLICIES) + "."]
    print("\n".join(lines))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
