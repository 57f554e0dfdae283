"""Fingerprints of the Go heavy playout and the RAVE search from fixed seeds, to show that a change of the
compiled Go code keeps every move: run it before and after the change and compare the two files.

    .venv/bin/python -m bench.go_playout_fingerprint FILE.json     (then: diff before.json after.json)

Fingerprints: for 7x7, 9x9, 13x13 and 19x19, the SHA-256 (first 16 hex digits) of the moves and final states
of seeded heavy playouts from the empty board (200 seeds, 60 on 19x19) and their total length; for 9x9 and
19x19, the move, value and root visit counts of a 600-simulation RAVE search (seed 3) with the heavy
knowledge.  Nothing here depends on time.
"""
import argparse
import hashlib
import json

import numpy as np

from engines.games.go import Go
from engines.knowledge.go import rave_knowledge as gp
from engines.knowledge.go.registered import heavy_knowledge, playout_params
from engines.rng import make_rng
from engines.search import Limits, make_searcher


def fingerprints() -> dict:
    out = {}
    params = playout_params()
    for n in (7, 9, 13, 19):
        start = Go(n, komi=7.0).initial_state()
        digest = hashlib.sha256()
        total = 0
        for seed in range(200 if n < 19 else 60):
            state = start.copy()
            trace = np.empty(gp.playout_scratch(start), dtype=np.int64)
            moves = gp.heavy_playout_traced(state, make_rng(seed), trace, params)
            digest.update(trace[:moves].tobytes())
            digest.update(state.tobytes())
            total += int(moves)
        out[f"playouts {n}"] = [digest.hexdigest()[:16], total]
    for n in (9, 19):
        game = Go(n, komi=7.0)
        searcher = make_searcher("rave", game, None, heavy_knowledge(game), 3, capacity=1 << 20)
        result = searcher.search(game.initial_state(), Limits(simulations=600))
        visits = hashlib.sha256(repr(list(result.visits)).encode()).hexdigest()[:16]
        out[f"rave {n}"] = [int(result.move), float(result.value), visits]
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", metavar="FILE.json", help="where the fingerprints are written")
    out = p.parse_args(argv).out
    found = fingerprints()
    with open(out, "w") as handle:
        json.dump(found, handle, indent=1)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
