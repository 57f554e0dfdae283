"""The cost of the policy network's prior at every node of the tree (``policy_visits``, engines/players/go.py
TreePolicy): ``python -m bench.go_policy_tree --games /work/data/go-games/go9``.

Positions: held-out GNU Go records (engines/learn/go/policy.py's split: seed % 10 == 0) at move numbers
0, 10, 20, 30 and 40 (fewer when a game is shorter).  On each, side by side in one run and in alternating
order, two players search ``--seconds`` of wall time from a fresh tree: without the network (policy_prior 0) and the
one with ``--policy-prior W --policy-visits K`` (each pair of W and K given).  Reported: the median
simulations a second of each and their ratio; for the network, positions evaluated a second, onnxruntime
calls a second (batches) and the share of the move's time the hook takes (the tree walk, the planes, the
forward passes and the priors, by the hook's own perf_counter).

Writes bench/results/go_policy_tree.md and .json.
    nice -n 15 .venv/bin/python -m bench.go_policy_tree --games /work/data/go-games/go9 --prior 20:16
"""
import argparse
import json
import os
import platform
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

from sgfmill import sgf

from engines.learn.go.policy import is_heldout, record_positions, record_seed

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
MOVE_NUMBERS = (0, 10, 20, 30, 40)


def positions(folder, records, size):
    held = sorted(p for p in Path(folder).glob("*.sgf") if is_heldout(record_seed(p)))
    out, used = [], 0
    for path in held:
        record = sgf.Sgf_game.from_bytes(path.read_bytes())
        if record.get_size() != size or used == records:
            continue
        used += 1
        for _game, state, _planes, _a, _legal, number in record_positions(record, skip_random=False):
            if number in MOVE_NUMBERS:
                out.append((path.name, number, state))
    return out


def one_search(settings, state, seconds, size):
    from engines.players.go import GoPlayer
    from engines.search import Limits
    player = GoPlayer(settings)
    player.start(size)
    result = player.search(state, Limits(time=seconds))
    hook = player.searcher.batch_hook
    return {"simulations": int(result.stats.get("simulations", 0)), "seconds": float(result.stats.get("time", seconds)),
            "positions": hook.positions if hook else 0, "calls": hook.calls if hook else 0,
            "hook_seconds": hook.seconds if hook else 0.0}


def main(argv=None) -> int:
    from engines.players.go_settings import GoSettings
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", required=True, help="the GNU Go records' folder")
    parser.add_argument("--records", type=int, default=4, help="held-out records used (default 4)")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--prior", nargs="+", default=["20:16"], help="W:K pairs (policy_prior:policy_visits)")
    parser.add_argument("--size", type=int, default=9, help="board size of the records (others are skipped)")
    parser.add_argument("--network", help="the network (default: weights/go/policy<size>.onnx)")
    parser.add_argument("--out", default=str(RESULTS / "go_policy_tree.md"))
    args = parser.parse_args(argv)
    load0 = os.getloadavg()
    # "without": no network (policy_prior 0; the default has the shipped network where there is one)
    configs = {"without": GoSettings(search="rave", policy_prior=0.0)}
    for pair in args.prior:
        w, k = pair.split(":")
        configs[f"W={w} K={k}"] = GoSettings(search="rave", policy_prior=float(w), policy_visits=int(k),
                                                    policy_network=args.network)
    cases = positions(args.games, args.records, args.size)
    rows = {name: [] for name in configs}
    for i, (_name, _number, state) in enumerate(cases):
        order = list(configs) if i % 2 == 0 else list(configs)[::-1]
        for name in order:
            rows[name].append(one_search(configs[name], state, args.seconds, args.size))
        print(f"{i + 1}/{len(cases)}", {n: rows[n][-1]["simulations"] for n in configs}, file=sys.stderr)
    summary = {}
    base = statistics.median(r["simulations"] / r["seconds"] for r in rows["without"])
    for name, rs in rows.items():
        rate = statistics.median(r["simulations"] / r["seconds"] for r in rs)
        summary[name] = {"simulations_per_second": rate, "ratio": rate / base,
                         "positions_per_second": statistics.median(r["positions"] / r["seconds"] for r in rs),
                         "calls_per_second": statistics.median(r["calls"] / r["seconds"] for r in rs),
                         "hook_share": statistics.median(r["hook_seconds"] / r["seconds"] for r in rs)}
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average "
                         f"{[round(v, 2) for v in load0]} at start, {[round(v, 2) for v in os.getloadavg()]} at the end",
              "command": "python -m bench.go_policy_tree " + " ".join(argv if argv is not None else sys.argv[1:]),
              "positions": [(n, m) for n, m, _ in cases], "seconds": args.seconds, "summary": summary, "runs": rows}
    lines = [f"# The policy network's prior at every node: its cost, {args.size}x{args.size}", "",
             f"{result['date']} - {result['machine']} - Python {platform.python_version()}", "",
             f"`{result['command']}`: {len(cases)} positions of held-out GNU Go records (moves "
             f"{', '.join(map(str, MOVE_NUMBERS))}), a fresh {args.seconds:g} s search each, the players side by "
             "side in alternating order.  Medians over the positions.", "",
             "| player | simulations / s | ratio | network positions / s | onnxruntime calls / s | hook's share of the time |",
             "|---|---|---|---|---|---|"]
    for name, s in summary.items():
        lines.append(f"| {name} | {s['simulations_per_second']:.0f} | {s['ratio']:.3f} | {s['positions_per_second']:.0f} | "
                     f"{s['calls_per_second']:.0f} | {100 * s['hook_share']:.1f} % |")
    out = Path(args.out)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
