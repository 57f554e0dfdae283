"""Multi-ProbCut figures (issue 35, item 3) -> bench/results/othello_mpc.md (and .json).

    python -m bench.othello_mpc search [--seconds 1] [--positions 10] [--depth 8] [--t 1.0 1.5 2.0]
    python -m bench.othello_mpc diagnose [--data /tmp/probcut_patterns_d10.jsonl] [--t 1.0 1.5 2.0]
    python -m bench.othello_mpc match [--games 60] [--seconds 0.5] [--t 1.5] [--seed 5] [--part 0/1]

search: on the same positions (bench.alphabeta_nodes.midgame_positions), the default search (PVS,
  patterns, ProbCut off), today's ProbCut (one row per depth, static / one-ply shallow values; the rows
  shipped before this change, TODAY_ROWS) and Multi-ProbCut (weights/othello/probcut_patterns.json) at
  each --t: nodes a second and depth reached in --seconds (CPU clock), nodes to --depth, the share of
  root values and moves equal to the default's at that depth, and ProbCut's tests and cuts there, by
  plies left.
diagnose: from the fit's labelled positions (engines/learn/othello/probcut_fit.py --data), per band of
  empties and depth: the share of positions whose deep value lies more than t sigma from the prediction
  on the side a cut would be wrong (the residual below -t sigma: a fail-high cut at a bound between them
  is wrong; the same share above for fail-low), with the per-band rows and with one row per depth over
  every phase (today's shape); and the per-band (a, b, sigma) next to the single row's.
match: the player with Multi-ProbCut (probcut on, probcut_t --t) against the player with probcut off
  (or with probcut_t --opponent-t), everything else as shipped, --seconds a move from the request (perf_counter) with margin 0.05 s,
  games from games/2 seeded random openings (bench.othello_strength's), each with both colours, moves
  alternating in one process, both players warmed up first.  --part k/n plays the openings k, k+n, .. (for runs side by side); the
  report merges every part's JSON found next to it.  W/D/L, score, 95 % Wilson interval, both sides'
  median and max seconds a move and median depth.
"""
import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench.othello_time import paired_games, tally

RESULTS = Path(__file__).resolve().parent / "results"
# the rows shipped in weights/othello/probcut_patterns.json before Multi-ProbCut (150 positions, one per depth)
TODAY_ROWS = ((2, 0, 0.936004, -0.165342, 6.173966), (3, 1, 0.993358, 0.789231, 5.03343),
              (4, 0, 0.927473, -0.648632, 8.115563), (5, 1, 0.962148, 1.166939, 6.256043),
              (6, 0, 0.900184, -1.201095, 9.160032), (7, 1, 0.961087, 1.306714, 7.143061),
              (8, 0, 0.890846, -1.527985, 9.631982))


def _section(path: Path, title: str, text: str) -> None:
    """Replace (or add) the section ``## title`` of the markdown file at path."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Othello Multi-ProbCut (issue 35, item 3)\n\n"
    head = f"## {title}\n"
    if head in old:
        before, rest = old.split(head, 1)
        after = rest.split("\n## ", 1)
        old = before + ("## " + after[1] if len(after) > 1 else "")
    path.write_text(old.rstrip("\n") + "\n\n" + head + text.rstrip("\n") + "\n", encoding="utf-8")


# ---- search ---------------------------------------------------------------------------------------
def search_figures(args) -> str:
    from bench.alphabeta_nodes import midgame_positions
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.players.othello import probcut_path
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig, load_probcut
    from engines.search.result import Limits
    game = Othello(8)
    knowledge = knowledge_for(game, "patterns")
    states = midgame_positions(game, args.positions)
    rows = load_probcut(probcut_path("patterns"))
    configs = {"default (ProbCut off)": AlphaBetaConfig(),
               "today's ProbCut (t 1.5)": AlphaBetaConfig(probcut=TODAY_ROWS, probcut_t=1.5, probcut_null_only=False)}
    for t in args.t:
        configs[f"Multi-ProbCut t {t:g}"] = AlphaBetaConfig(probcut=rows, probcut_t=t)
    out, base = {}, None
    for name, config in configs.items():
        search = AlphaBeta(game, config, knowledge, clock=time.process_time)
        search.search(game.initial_state(), Limits(depth=2))
        rates, depths, nodes, values, moves = [], [], [], [], []
        search.clear_probcut_counts()
        for s in states:
            r = search.search(s, Limits(time=args.seconds, margin=0.0))
            rates.append(r.stats["nodes"] / max(r.stats["time"], 1e-9))
            depths.append(r.stats["depth"])
        search.clear_probcut_counts()
        for s in states:
            r = search.search(s, Limits(depth=args.depth))
            nodes.append(r.stats["nodes"])
            values.append(r.value)
            moves.append(r.move)
        counts = search.probcut_counts()
        by_depth = {}
        for (_, d), (tries, cuts, shallow) in counts.items():
            t0, c0, n0 = by_depth.get(d, (0, 0, 0))
            by_depth[d] = (t0 + tries, c0 + cuts, n0 + shallow)
        out[name] = {"nps": statistics.median(rates), "depth": statistics.median(depths), "depths": depths,
                     "nodes": statistics.median(nodes), "total_nodes": sum(nodes), "values": values,
                     "moves": moves, "by_depth": by_depth}
        base = base or out[name]
        print(f"othello_mpc search: {name} done", file=sys.stderr, flush=True)
    lines = [f"Command: `{args.command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"{args.positions} positions 20 plies from the start (bench.alphabeta_nodes), the pattern evaluation; "
             f"medians; the clock: this process's CPU time (a shared machine).", "",
             f"| search | nodes/s ({args.seconds:g} s) | depth in {args.seconds:g} s (median; each) | nodes to depth "
             f"{args.depth} (median) | total | ratio | same value as default | same move |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in out.items():
        same_v = sum(a == b for a, b in zip(r["values"], base["values"]))
        same_m = sum(a == b for a, b in zip(r["moves"], base["moves"]))
        lines.append(f"| {name} | {r['nps']:,.0f} | {r['depth']:g} ({' '.join(map(str, r['depths']))}) | "
                     f"{r['nodes']:,.0f} | {r['total_nodes']:,} | {r['total_nodes'] / base['total_nodes']:.2f} | "
                     f"{same_v}/{len(states)} | {same_m}/{len(states)} |")
    lines += ["", f"ProbCut's tests and cuts in the searches to depth {args.depth} (all positions), by plies left "
              "(tests / cuts / share cut / nodes of the shallow searches):", ""]
    for name, r in out.items():
        if r["by_depth"]:
            lines.append(f"- {name}: " + "; ".join(f"{d}: {t:,} / {c:,} / {c / max(t, 1):.0%} / {n:,}"
                                                   for d, (t, c, n) in sorted(r["by_depth"].items())))
    return "\n".join(lines) + "\n"


# ---- diagnose -------------------------------------------------------------------------------------
def diagnose(args) -> str:
    from engines.knowledge.scores import WIN_SCORE
    from engines.learn.othello import probcut_fit as pf
    from engines.players.othello import probcut_path
    records = [json.loads(line) for line in Path(args.data).read_text().splitlines()]
    depth_max = len(records[0]["values"]) - 1
    records = [r for r in records if len(r["values"]) == depth_max + 1]
    rows, quality, overall = pf.fit_rows(records, depth_max, WIN_SCORE)
    fitted = json.loads(probcut_path("patterns").read_text())
    lines = [f"Command: `{args.command}`  ", f"{len(records)} labelled positions ({args.data}; "
             f"`{fitted.get('command', '?')}`).", "",
             "Per band of empties and depth d (d' = the shallow depth): the band's own fit against the one row per "
             "depth over every phase; tail = the share of the band's positions whose deep value is more than t "
             "sigma below (above) the prediction: for each, some fail-high (fail-low) cut at a bound between the "
             "two is wrong.  Today's rows had d' 0 or 1 at every depth (the static value or the best child's).", "",
             "| empties | d | d' | pairs | a | b | sigma | corr | one-row a, b, sigma | tails t=" +
             "/".join(f"{t:g}" for t in args.t) + " (band row) | tails (one row) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for low, high, d, ds, a, b, sigma in rows:
        one = overall[str(d)]
        pairs = np.array([(r["values"][ds], r["values"][d]) for r in records
                          if low <= r["empties"] <= high and r["values"][d] is not None
                          and max(abs(r["values"][ds]), abs(r["values"][d])) < WIN_SCORE - 1])
        x, y = pairs[:, 0], pairs[:, 1]

        def tails(a_, b_, s_):
            res = y - (a_ * x + b_)
            return "/".join(f"{np.mean(res < -t * s_):.1%}+{np.mean(res > t * s_):.1%}" for t in args.t)

        lines.append(f"| {low}-{high} | {d} | {ds} | {len(x)} | {a:.3f} | {b:+.2f} | {sigma:.2f} | "
                     f"{quality[f'{low}-{high}/{d}']['correlation']:.3f} | {one['a']:.3f}, {one['b']:+.2f}, "
                     f"{one['sigma']:.2f} | {tails(a, b, sigma)} | {tails(one['a'], one['b'], one['sigma'])} |")
    # today's shape: d' 0/1 at every depth, one row
    lines += ["", "Today's shape (d' = d mod 2: the static value or the best child's, one row for every phase), "
              "sigma by band with the single row's a, b:", "",
              "| d | all: sigma | " + " | ".join(f"{lo}-{hi}" for lo, hi in pf.BANDS) + " |",
              "|---|---|" + "---|" * len(pf.BANDS)]
    for d in range(pf.MIN_DEPTH, depth_max + 1):
        ds = d % 2
        data = np.array([(r["empties"], r["values"][ds], r["values"][d]) for r in records
                         if max(abs(r["values"][ds]), abs(r["values"][d])) < WIN_SCORE - 1])
        a, b = np.polyfit(data[:, 1], data[:, 2], 1)
        res = data[:, 2] - (a * data[:, 1] + b)
        cells = []
        for lo, hi in pf.BANDS:
            m = (data[:, 0] >= lo) & (data[:, 0] <= hi)
            cells.append(f"{np.sqrt(np.mean(res[m] ** 2)):.2f} (bias {np.mean(res[m]):+.2f})" if m.sum() > 5 else "-")
        lines.append(f"| {d} | {np.std(res):.2f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---- match ----------------------------------------------------------------------------------------
def _players(t: float, margin: float, opponent_t: float | None = None):
    """The two sides: "mpc" (ProbCut at t) and "default" (ProbCut off, or at opponent_t when given)."""
    from engines.players.othello import OthelloSettings, make_player
    other = (OthelloSettings(margin=margin, probcut=False) if opponent_t is None
             else OthelloSettings(margin=margin, probcut=True, probcut_t=opponent_t))
    return {"mpc": make_player(OthelloSettings(margin=margin, probcut=True, probcut_t=t)),
            "default": make_player(other)}


def merged_parts(paths, sides) -> tuple[dict, dict, list]:
    """The match parts' JSON files (each {"command", "result": W/L/D counts, "moves": side -> moves}) added
    up: (result, side -> every move's record, the parts' commands)."""
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
    log = {side: [] for side in sides}
    commands = []
    for path in paths:
        data = json.loads(Path(path).read_text())
        commands.append(data.get("command", "?"))
        for k in result:
            result[k] += data["result"][k]
        for k in log:
            log[k] += data["moves"][k]
    return result, log, commands


def side_row(name, moves) -> str:
    """A report row: moves (forced ones left out), median and maximum seconds, median depth of the searched moves."""
    xs = [m["seconds"] for m in moves if not m["forced"]]
    ds = [m["depth"] for m in moves if m["depth"] is not None and not m["solved"]]
    return (f"| {name} | {len(xs)} | {statistics.median(xs):.3f} | {max(xs):.3f} | "
            f"{statistics.median(ds) if ds else '-'} |") if xs else f"| {name} | 0 | - | - | - |"


def match_report(args, out: Path) -> str:
    from bench.strength import wilson
    parts = sorted(out.parent.glob(out.stem + ".part*.json"))
    result, log, _commands = merged_parts(parts, ("mpc", "default"))
    n = result["games"]
    score = (result["wins"] + result["draws"] / 2) / n if n else 0.0
    lo, hi = wilson(score, n) if n else (0.0, 0.0)
    row = side_row

    return "\n".join([f"Command: `{args.command}` (parts {', '.join(p.name for p in parts)})  ",
                      f"Machine: {platform.machine()}, Python {platform.python_version()}, "
                      f"{time.strftime('%Y-%m-%d %H:%M')}; a shared 2-core machine (other sessions' work running).", "",
                      "| games | MPC wins | losses | draws | MPC score | 95 % interval (Wilson) |",
                      "|---|---|---|---|---|---|",
                      f"| {n} | {result['wins']} | {result['losses']} | {result['draws']} | {score:.1%} | "
                      f"{lo:.1%} .. {hi:.1%} |", "",
                      "Seconds a move (wall clock, request to answer; forced moves left out) and median depth of the "
                      "searched moves:", "", "| side | moves | median s | max s | median depth |", "|---|---|---|---|---|",
                      row(f"Multi-ProbCut (t {args.t[0]:g})", log["mpc"]), row("default (ProbCut off)" if args.opponent_t is None else f"Multi-ProbCut (t {args.opponent_t:g})",
                          log["default"]),
                      ""])


def match(args, out: Path) -> None:
    from bench.othello_strength import openings
    from engines.games import make_game
    game = make_game("othello", size=8)
    k, n = (int(x) for x in args.part.split("/"))
    sides = _players(args.t[0], args.margin, args.opponent_t)
    for player in sides.values():  # kernels loaded (compiled if the cache is cold) before the first move's clock
        player.warm_up()
    part = out.parent / f"{out.stem}.part{k}.json"
    log = {"mpc": [], "default": []}
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
    for score in paired_games(game, sides, ("mpc", "default"), openings(game, args.games // 2, args.seed), args.seconds,
                              log, (k, n)):
        tally(result, score)
        part.write_text(json.dumps({"result": result, "moves": log}))
        print(f"othello_mpc match part {k}: game {result['games']}: mpc {score}; W/L/D {result['wins']}/"
              f"{result['losses']}/{result['draws']}", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("search", "diagnose", "match", "report"))
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--t", type=float, nargs="+", default=[1.0, 1.5, 2.0])
    p.add_argument("--data", default="/tmp/probcut_patterns_d10.jsonl")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--margin", type=float, default=0.05)
    p.add_argument("--part", default="0/1")
    p.add_argument("--opponent-t", type=float, default=None,
                   help="match: the other side uses ProbCut too, at this t (default: ProbCut off)")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_mpc.md")
    args = p.parse_args(argv)
    args.command = "python -m bench.othello_mpc " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.what == "search":
        args.seconds = args.seconds or 1.0
        _section(args.out, "Search: nodes, depth and cuts on the same positions", search_figures(args))
    elif args.what == "diagnose":
        _section(args.out, "Diagnosis: the fit by phase and depth, and wrong cuts", diagnose(args))
    else:
        args.seconds = args.seconds or 0.5
        if args.what == "match":
            match(args, args.out)
        _section(args.out, f"Strength at equal time, {args.seconds:g} s a move", match_report(args, args.out))
    print(args.out.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
