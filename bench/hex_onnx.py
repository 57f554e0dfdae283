"""The shipped Hex networks' forward pass (the CNNs hex5-7 and the last TOPP MLP), compiled (the playing path) against onnxruntime (the path of a
user's network of any architecture), side by side in one run: the greedy move's time on random
positions (the encoding, the pass and the legal-move mask), medians and the ratio; and the largest
difference between the two passes' logits.  Writes bench/results/hex_onnx.{md,json}.
With --match GAMES: a user's network in the player's search (the shipped 7x7 CNN saved under another
input name, so that the loader takes it for a user's network, run by onnxruntime and asked at the
root: engines/knowledge/hex/root_prior.py) against the same search without it, --time seconds a move
each, from every one-stone opening in turn (each opening twice, colours swapped), no swap; the win
rate with its 95 % Wilson interval and both sides' seconds a move -> bench/results/hex_onnx_match.json.

    nice -n 15 .venv/bin/python -m bench.hex_onnx [--positions 200]
    nice -n 15 .venv/bin/python -m bench.hex_onnx --match 40 --time 0.2
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


def as_user_network(source: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """source saved with its input renamed ("board" -> "position"): to the loader a network of another
    architecture, with a sidecar giving its size and encoding (plies' 3 planes)."""
    import onnx
    model = onnx.load(str(source))
    for node in model.graph.node:
        node.input[:] = ["position" if name == "board" else name for name in node.input]
    model.graph.input[0].name = "position"
    out = folder / f"user_{source.name}"
    onnx.save(model, str(out))
    size = json.loads(source.with_suffix(".json").read_text())["size"]
    out.with_suffix(".json").write_text(json.dumps({"size": size, "encoding": "planes"}))
    return out


def random_user_network(path: pathlib.Path, n: int = 7, seed: int = 7) -> pathlib.Path:
    """A random n x n user network (a 64-unit MLP on the state encoding, normal weights): the worst prior
    a user can give the search."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    nn = n * n
    rng = np.random.default_rng(seed)
    arrays = {"w1": rng.normal(0, 1, (1 + nn, 64)), "b1": np.zeros(64), "w2": rng.normal(0, 1, (64, nn)),
              "b2": np.zeros(nn)}
    inits = [numpy_helper.from_array(a.astype(np.float32), k) for k, a in arrays.items()]
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"]), helper.make_node("Relu", ["h"], ["a"]),
             helper.make_node("Gemm", ["a", "w2", "b2"], ["z"])]
    graph = helper.make_graph(nodes, "random", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 1 + nn])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", nn])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def match(games: int, move_time: float, size: int = 7, user_file: str | None = None) -> dict:
    import tempfile
    import weights
    from engines.knowledge.hex.network import RuntimeNetwork, load_network
    from engines.players.hex import HexPlayer, HexSettings
    from regress.go_match import wilson
    folder = pathlib.Path(tempfile.mkdtemp())
    if user_file == "random":
        user = random_user_network(folder / "random.onnx", size)
    else:
        user = pathlib.Path(user_file) if user_file else as_user_network(weights.HEX_DIR / f"hex{size}.onnx", folder)
    assert isinstance(load_network(user, size)[0], RuntimeNetwork)
    wins, seconds = 0, {"user": [], "plain": []}
    progress = pathlib.Path("/tmp/hex_onnx_match.progress")  # not a result: where a running match stands
    for g in range(games):
        opening = (g // 2) % (size * size)
        user_colour = g % 2
        players = {"user": HexPlayer(HexSettings(time=move_time, network=str(user), seed=g), size),
                   "plain": HexPlayer(HexSettings(time=move_time, network="none", prior="none", seed=g), size)}
        game = players["user"].game
        for p in players.values():
            p.place(0, game.coords(opening))
        state = game.play(game.initial_state(), opening)
        while not game.is_terminal(state):
            colour = game.to_move(state)
            name = "user" if colour == user_colour else "plain"
            t = time.perf_counter()
            point = players[name].genmove(colour)
            seconds[name].append(time.perf_counter() - t)
            for p in players.values():
                p.place(colour, point)
            state = game.play(state, game.action(*point))
        won = game.winner(state) == user_colour
        wins += won
        progress.write_text(f"{g + 1}/{games} games, the user's network won {wins}\n")
    low, high = wilson(wins / games, games)
    return {"size": size, "games": games, "time": move_time, "user_network_wins": wins, "rate": wins / games,
            "wilson95": [low, high],
            "seconds_a_move": {k: {"median": float(np.median(v)), "max": float(np.max(v))} for k, v in seconds.items()},
            "user": f"{'the shipped 7x7 CNN' if not user_file else user_file} as a user's network (onnxruntime), "
                    "RAVE with all the knowledge and its probabilities at the root",
            "plain": "RAVE with all the knowledge, no network"}


def main(argv=None):
    import onnx
    import weights
    from engines.games import make_game
    from engines.knowledge.hex import network as N
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--match", type=int, help="games of the user's-network match instead (see the docstring)")
    p.add_argument("--time", type=float, default=0.2, help="seconds a move in the match")
    p.add_argument("--user", help="the match's user network file (a 7x7 one; 'random': random_user_network's; "
                                  "default: the shipped CNN renamed)")
    p.add_argument("--out", default="hex_onnx_match.json", help="the match's result file in bench/results")
    args = p.parse_args(argv)
    if args.match:
        RESULTS.mkdir(exist_ok=True)
        result = match(args.match, args.time, user_file=args.user)
        result["command"] = (f"nice -n 15 .venv/bin/python -m bench.hex_onnx --match {args.match} --time {args.time}"
                             + (f" --user {args.user} --out {args.out}" if args.user else ""))
        result["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        (RESULTS / args.out).write_text(json.dumps(result, indent=1))
        print(json.dumps(result, indent=1))
        return
    rows = []
    for path in sorted(weights.HEX_DIR.glob("hex*.onnx")) + sorted(weights.HEX_DIR.glob("topp5/*.onnx"))[-1:]:
        compiled, _ = N.load_network(path)
        size = N.network_size(compiled)
        # the same file through the any-architecture path (its input is plies' 3 planes, flat)
        runtime = N.runtime_network(path, onnx.load(str(path)), {"size": size, "encoding": "planes"})
        game = make_game("hex", size=size)
        states = positions(game, args.positions)
        for net in (compiled, runtime):  # first calls (the compiled kernel's load, the session's warm-up)
            N.greedy_move(game, states[0], net)
        t_compiled = timed(lambda s, g=game, net=compiled: N.greedy_move(g, s, net), states)
        t_runtime = timed(lambda s, g=game, net=runtime: N.greedy_move(g, s, net), states)
        same = sum(N.greedy_move(game, s, compiled) == N.greedy_move(game, s, runtime) for s in states)
        obs = np.stack([game.observation(s).reshape(-1) for s in states]).astype(np.float32)
        batches = [obs[i:i + 64] for i in range(0, len(obs) - 63, 64)]
        t_batched = [t / 64 for t in timed(runtime.logits, batches)]  # a frontier's positions in one run
        x = np.stack([game.observation(s).reshape(-1) for s in states]).astype(np.float32)
        diff = float(np.abs(np.stack([N.logits(compiled, row) for row in x]) - runtime.logits(x)).max())
        rows.append({"network": path.relative_to(weights.HEX_DIR).as_posix(), "size": size, "positions": len(states),
                     "compiled_ms": 1e3 * float(np.median(t_compiled)), "onnxruntime_ms": 1e3 * float(np.median(t_runtime)),
                     "ratio": float(np.median(t_runtime) / np.median(t_compiled)), "same_move": same,
                     "onnxruntime_batch64_ms_a_position": 1e3 * float(np.median(t_batched)),
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
             "| network | size | positions | compiled ms | onnxruntime ms | ratio | same move | max logit diff "
             "| onnxruntime in batches of 64, ms a position |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['network']} | {r['size']} | {r['positions']} | {r['compiled_ms']:.3f} | {r['onnxruntime_ms']:.3f} "
              f"| {r['ratio']:.2f} | {r['same_move']}/{r['positions']} | {r['max_logit_difference']:.1e} "
              f"| {r['onnxruntime_batch64_ms_a_position']:.4f} |" for r in rows]
    lines += ["", "ratio: onnxruntime's median over the compiled pass's (below 1: onnxruntime is faster).  The "
              "compiled pass is the one a compiled search can call (the RAVE prior's experience, MCTS's network "
              "playouts); a move chosen from Python (greedy play, the TOPP, a user's network at the root) "
              "may take either."]
    (RESULTS / "hex_onnx.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
