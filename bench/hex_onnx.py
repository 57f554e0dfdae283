"""The shipped Hex networks' forward pass (the CNNs hex5-7 and the last TOPP MLP), compiled (the playing path) against onnxruntime (the path of a
user's network of any architecture), side by side in one run: the greedy move's time on random
positions (the encoding, the pass and the legal-move mask), medians and the ratio; and the largest
difference between the two passes' logits.  Writes bench/results/hex_onnx.{md,json}.

    nice -n 15 .venv/bin/python -m bench.hex_onnx [--positions 200]
"""
import argparse
import datetime
import json
import pathlib
import platform
import time

import numpy as np

RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def positions(game, count: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for a in rng.permutation(game.num_actions)[:rng.integers(0, game.num_actions // 2)]:
            state = game.play(state, int(a))
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            out.append(state)
    return out


def timed(fn, states) -> list:
    times = []
    for s in states:
        t = time.perf_counter()
        fn(s)
        times.append(time.perf_counter() - t)
    return times


def main(argv=None):
    import onnx
    import weights
    from engines.games import make_game
    from engines.knowledge.hex import network as N
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=200)
    args = p.parse_args(argv)
    rows = []
    for path in sorted(weights.HEX_DIR.glob("hex*.onnx")) + sorted(weights.HEX_DIR.glob("topp5/*.onnx"))[-1:]:
        compiled, meta = N.load_network(path)
        size = N.network_size(compiled)
        # the same file through the any-architecture path (its input is plies' 3 planes, flat)
        runtime = N.runtime_network(path, onnx.load(str(path)), {"size": size, "encoding": "planes"})
        game = make_game("hex", size=size)
        states = positions(game, args.positions)
        for net in (compiled, runtime):  # first calls (the compiled kernel's load, the session's warm-up)
            N.greedy_move(game, states[0], net)
        t_compiled = timed(lambda s: N.greedy_move(game, s, compiled), states)
        t_runtime = timed(lambda s: N.greedy_move(game, s, runtime), states)
        same = sum(N.greedy_move(game, s, compiled) == N.greedy_move(game, s, runtime) for s in states)
        x = np.stack([game.observation(s).reshape(-1) for s in states]).astype(np.float32)
        diff = float(np.abs(np.stack([N.logits(compiled, row) for row in x]) - runtime.logits(x)).max())
        rows.append({"network": path.relative_to(weights.HEX_DIR).as_posix(), "size": size, "positions": len(states),
                     "compiled_ms": 1e3 * float(np.median(t_compiled)), "onnxruntime_ms": 1e3 * float(np.median(t_runtime)),
                     "ratio": float(np.median(t_runtime) / np.median(t_compiled)), "same_move": same,
                     "max_logit_difference": diff})
        print(rows[-1], flush=True)
    RESULTS.mkdir(exist_ok=True)
    stamp = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
             "machine": platform.platform(), "command": "nice -n 15 .venv/bin/python -m bench.hex_onnx "
                                                        f"--positions {args.positions}"}
    (RESULTS / "hex_onnx.json").write_text(json.dumps({**stamp, "rows": rows}, indent=1))
    lines = [f"# Hex networks: compiled forward pass against onnxruntime ({stamp['date']})", "",
             f"`{stamp['command']}` on {stamp['machine']} (a shared 2-core machine; medians of one greedy move: "
             "encoding, forward pass, legal-move mask)", "",
             "| network | size | positions | compiled ms | onnxruntime ms | ratio | same move | max logit diff |",
             "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['network']} | {r['size']} | {r['positions']} | {r['compiled_ms']:.3f} | {r['onnxruntime_ms']:.3f} "
              f"| {r['ratio']:.2f} | {r['same_move']}/{r['positions']} | {r['max_logit_difference']:.1e} |" for r in rows]
    (RESULTS / "hex_onnx.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
