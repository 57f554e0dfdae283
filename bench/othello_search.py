"""Othello mid-game search figures -> bench/results/othello_search.md: today's alpha-beta against the
new principal-variation search (and with ProbCut), side by side.

    python -m bench.othello_search [--seconds 2] [--positions 10] [--depth 8] [--evaluation strong]

Positions: bench.alphabeta_nodes.midgame_positions (seeded random play, 20 plies from the start),
``--positions`` of them.  Per configuration:
  - nodes per second and depth reached with ``--seconds`` a position (iterative deepening, on the
    clock; nodes as engines/search/alphabeta.py counts them);
  - nodes and seconds to complete a fixed ``--depth`` (the work a depth costs: what PVS and ProbCut
    change; PVS finds the same value, ProbCut may not);
medians over the positions, and ratios to today's.  Today's = AlphaBetaConfig(use_pvs=False) (the
search of the previous release: the same table, ordering and deepening).  ProbCut uses the fitted
rows of weights/othello/probcut_<evaluation>.json when it exists.
"""
import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from bench.alphabeta_nodes import midgame_positions

RESULTS = Path(__file__).resolve().parent / "results"


def configs(evaluation: str) -> dict:
    from adapters.otp import probcut_path
    from engines.search.alphabeta import AlphaBetaConfig, load_probcut
    out = {"today (no PVS)": AlphaBetaConfig(use_pvs=False), "PVS (new default)": AlphaBetaConfig()}
    path = probcut_path(evaluation)
    if path.exists():
        out["PVS + ProbCut"] = AlphaBetaConfig(probcut=load_probcut(path))
    return out


def measure(evaluation: str, seconds: float, count: int, depth: int) -> dict:
    from engines.games.othello import Othello
    from engines.knowledge.bundle import knowledge_for
    from engines.search.alphabeta import AlphaBeta
    from engines.search.result import Limits
    game = Othello(8)
    knowledge = knowledge_for(game, evaluation)
    states = midgame_positions(game, count)
    rows = {}
    for name, config in configs(evaluation).items():
        search = AlphaBeta(game, config, knowledge)
        search.search(game.initial_state(), Limits(depth=2))  # loads the kernels
        rates, depths, nodes, secs, values = [], [], [], [], []
        for s in states:
            r = search.search(s, Limits(time=seconds, margin=0.0))
            rates.append(r.stats["nodes"] / r.stats["time"])
            depths.append(r.stats["depth"])
            t = time.perf_counter()
            r = search.search(s, Limits(depth=depth))
            secs.append(time.perf_counter() - t)
            nodes.append(r.stats["nodes"])
            values.append(r.value)
        rows[name] = {"nps": statistics.median(rates), "depth": statistics.median(depths),
                      "nodes": statistics.median(nodes), "seconds": statistics.median(secs), "values": values}
        print(f"othello_search: {name} done", file=sys.stderr, flush=True)
    return rows


def report(args, command, rows) -> str:
    base = rows["today (no PVS)"]
    lines = [f"# Othello mid-game search ({args.evaluation} evaluation)", "", f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"{args.positions} positions 20 plies from the start (bench.alphabeta_nodes); medians.", "",
             f"| search | nodes/s ({args.seconds:g} s) | ratio | depth in {args.seconds:g} s | nodes to depth "
             f"{args.depth} | ratio | seconds to depth {args.depth} | ratio | same values as today's |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        same = sum(a == b for a, b in zip(r["values"], base["values"]))
        lines.append(f"| {name} | {r['nps']:,.0f} | {r['nps'] / base['nps']:.2f} | {r['depth']:g} | "
                     f"{r['nodes']:,.0f} | {r['nodes'] / base['nodes']:.2f} | {r['seconds']:.3f} | "
                     f"{r['seconds'] / base['seconds']:.2f} | {same}/{len(r['values'])} |")
    lines += ["", "Nodes are the positions the search visits (engines/search/alphabeta.py); a PVS re-search "
              "visits a node again and counts it again.", ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--evaluation", default="strong")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_search.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_search " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(args, command, measure(args.evaluation, args.seconds, args.positions, args.depth))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
