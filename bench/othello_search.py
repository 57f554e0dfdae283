"""Othello mid-game search figures -> bench/results/othello_search.md: today's default search (the
"strong" evaluation, alpha-beta without PVS) next to the principal-variation search, with each
evaluation, and with ProbCut where fitted parameters exist.

    python -m bench.othello_search [--seconds 2] [--positions 10] [--depth 8]
    python -m bench.othello_search --player-depths 10,12,14 [--positions 10] [--repeats 3] --out FILE.md

Positions: bench.alphabeta_nodes.midgame_positions (seeded random play, 20 plies from the start),
``--positions`` of them.  Per configuration:
  - nodes per second and depth reached with ``--seconds`` a position (iterative deepening, on the
    clock; nodes as engines/search/alphabeta.py counts them);
  - nodes and seconds (on the searches' clock, --clock: CPU time by default) to complete a fixed
    ``--depth`` (the work a depth costs: what PVS and ProbCut change; PVS finds the same value with
    the same evaluation, ProbCut may not), and nodes per CPU second there;
medians over the positions, and ratios to today's.  Today's = AlphaBetaConfig(use_pvs=False) with
"strong" (the search of the previous release: the same table, ordering and deepening); the new
default = AlphaBetaConfig() with "patterns".  ProbCut uses the fitted rows of
weights/othello/probcut_<evaluation>.json when it exists.
"""
import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from bench.alphabeta_nodes import midgame_positions

RESULTS = Path(__file__).resolve().parent / "results"
REPLY_ORDER_BELOW = 5  # the reply ordering's row: its best threshold on these positions (issue 35)


def configs() -> dict:
    """name -> (evaluation, AlphaBetaConfig)."""
    from engines.players.othello import probcut_path
    from engines.search.alphabeta import AlphaBetaConfig, load_probcut
    out = {"today (strong, no PVS)": ("strong", AlphaBetaConfig(use_pvs=False)),
           "PVS, strong": ("strong", AlphaBetaConfig()),
           "PVS, patterns from scratch (before issue 35)": ("patterns", AlphaBetaConfig(use_incremental=False)),
           "default (PVS, patterns, incremental)": ("patterns", AlphaBetaConfig())}
    for evaluation in ("strong", "patterns"):
        path = probcut_path(evaluation)
        if path.exists():
            out[f"PVS + ProbCut, {evaluation}"] = (evaluation, AlphaBetaConfig(probcut=load_probcut(path)))
    if "reply_order_below" in AlphaBetaConfig.__dataclass_fields__:  # (not in the code before issue 35's item 4)
        out[f"default + replies below {REPLY_ORDER_BELOW} plies left"] = (
            "patterns", AlphaBetaConfig(reply_order_below=REPLY_ORDER_BELOW))
        path = probcut_path("patterns")
        if path.exists():
            out[f"PVS + ProbCut, patterns, replies below {REPLY_ORDER_BELOW}"] = (
                "patterns", AlphaBetaConfig(probcut=load_probcut(path), reply_order_below=REPLY_ORDER_BELOW))
    return out


def measure(seconds: float, count: int, depth: int, clock=time.perf_counter) -> dict:
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.search.alphabeta import AlphaBeta
    from engines.search.result import Limits
    game = Othello(8)
    states = midgame_positions(game, count)
    rows = {}
    for name, (evaluation, config) in configs().items():
        search = AlphaBeta(game, config, knowledge_for(game, evaluation), clock=clock)
        search.search(game.initial_state(), Limits(depth=2))  # loads the kernels
        rates, depths, nodes, secs, cpu_rates, values = [], [], [], [], [], []
        for s in states:
            r = search.search(s, Limits(time=seconds, margin=0.0))
            rates.append(r.stats["nodes"] / r.stats["time"])
            depths.append(r.stats["depth"])
            t, cpu = clock(), time.process_time()
            r = search.search(s, Limits(depth=depth))
            secs.append(clock() - t)
            cpu_rates.append(r.stats["nodes"] / max(1e-9, time.process_time() - cpu))
            nodes.append(r.stats["nodes"])
            values.append(r.value)
        rows[name] = {"evaluation": evaluation, "nps": statistics.median(rates), "depth": statistics.median(depths),
                      "nodes": statistics.median(nodes), "seconds": statistics.median(secs),
                      "cpu_nps": statistics.median(cpu_rates), "values": values}
        print(f"othello_search: {name} done", file=sys.stderr, flush=True)
    return rows


def measure_player(depths, count: int, clock=time.process_time, repeats: int = 1) -> dict:
    """The default player's search (PVS, incremental patterns, Multi-ProbCut with the fitted rows at
    t 1.5) to each fixed depth: depth -> {seconds: the median over the positions of the least of
    ``repeats`` runs (on clock), nodes: the total, moves, values}."""
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.players.othello import OthelloSettings, probcut_path
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig, load_probcut
    from engines.search.result import Limits
    game = Othello(8)
    states = midgame_positions(game, count)
    config = AlphaBetaConfig(probcut=load_probcut(probcut_path("patterns")), probcut_t=OthelloSettings().probcut_t)
    search = AlphaBeta(game, config, knowledge_for(game, "patterns"), clock=clock)
    search.search(game.initial_state(), Limits(depth=4))  # loads the kernels
    out = {}
    for depth in depths:
        secs, nodes, moves, values = [], [], [], []
        for s in states:
            best = None
            for _ in range(repeats):
                started = clock()
                r = search.search(s, Limits(depth=depth))
                spent = clock() - started
                best = spent if best is None else min(best, spent)
            secs.append(best)
            nodes.append(r.stats["nodes"])
            moves.append(r.move)
            values.append(r.value)
        out[depth] = {"seconds": statistics.median(secs), "total": sum(secs), "nodes": sum(nodes),
                      "moves": moves, "values": values}
        print(f"othello_search: the player's search to depth {depth} done", file=sys.stderr, flush=True)
    return out


def player_report(args, command, rows) -> str:
    lines = ["# Othello: the default player's search (PVS, incremental patterns, Multi-ProbCut) to fixed depths", "",
             f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"{args.positions} positions 20 plies from the start (bench.alphabeta_nodes); "
             f"{'this process CPU time' if args.clock == 'cpu' else 'wall time'}, the least of {args.repeats} runs "
             f"per position.", "",
             "| depth | median seconds | total seconds | total nodes | moves | values |", "|---|---|---|---|---|---|"]
    for depth, r in rows.items():
        lines.append(f"| {depth} | {r['seconds']:.4f} | {r['total']:.3f} | {r['nodes']:,} | {r['moves']} | "
                     f"{[round(v, 4) for v in r['values']]} |")
    return "\n".join(lines) + "\n"


def report(args, command, rows) -> str:
    base = rows["today (strong, no PVS)"]
    before = rows["PVS, patterns from scratch (before issue 35)"]
    lines = ["# Othello mid-game search: today's default and the new one", "", f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"{args.positions} positions 20 plies from the start (bench.alphabeta_nodes); medians; the searches' "
             f"clock: {'this process CPU time (a shared machine)' if args.clock == 'cpu' else 'wall time'}.", "",
             f"| search | nodes/s ({args.seconds:g} s) | ratio | depth in {args.seconds:g} s | nodes to depth "
             f"{args.depth} | ratio | seconds to depth {args.depth} | ratio | nodes per CPU s to depth {args.depth} "
             f"| same values as today's |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        same = (f"{sum(a == b for a, b in zip(r['values'], base['values']))}/{len(r['values'])}"
                if r["evaluation"] == base["evaluation"] else "(another evaluation)")
        lines.append(f"| {name} | {r['nps']:,.0f} | {r['nps'] / base['nps']:.2f} | {r['depth']:g} | "
                     f"{r['nodes']:,.0f} | {r['nodes'] / base['nodes']:.2f} | {r['seconds']:.3f} | "
                     f"{r['seconds'] / base['seconds']:.2f} | {r['cpu_nps']:,.0f} | {same} |")
    lines += ["", "Same values, patterns from scratch and incremental: "
              f"{sum(a == b for a, b in zip(rows['default (PVS, patterns, incremental)']['values'], before['values']))}"
              f"/{len(before['values'])}.", "",
              "Nodes are the positions the search visits (engines/search/alphabeta.py); a PVS re-search "
              "visits a node again and counts it again.", ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="the searches' clock (nodes/s and depth in --seconds): this process's CPU time or wall time")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_search.md")
    p.add_argument("--player-depths", default="",
                   help="comma-separated depths: only the default player's search (PVS + ProbCut) to each of them "
                        "(e.g. 10,12,14), to --out")
    p.add_argument("--repeats", type=int, default=1, help="--player-depths: runs per position (the least counts)")
    args = p.parse_args(argv)
    command = "python -m bench.othello_search " + " ".join(sys.argv[1:] if argv is None else argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.player_depths:
        depths = [int(d) for d in args.player_depths.split(",")]
        text = player_report(args, command, measure_player(depths, args.positions, clock, args.repeats))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(text)
        return 0
    text = report(args, command, measure(args.seconds, args.positions, args.depth, clock))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
