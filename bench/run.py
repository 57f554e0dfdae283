"""The benchmark suite: ``python -m bench.run [--quick] [--only SECTION ...] [--games N] [--move-time S]``.

Writes bench/results/latest.json and latest.md (medians of 5 runs, ours / OpenSpiel ratios, machine
facts) and prints the tables.  A section that fails is reported as an error; the others still run.
"""
import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import traceback
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
SECTIONS = ("playouts", "mcts", "alphabeta", "strength", "memory", "startup")
PLAYOUT_GAMES = ("othello8", "hex5", "hex8", "go9", "go5")


def _per_game(keys, measure) -> list:
    """Rows of measure(key) for each game."""
    rows = []
    for key in keys:
        print(f"  {key} ...", file=sys.stderr, flush=True)
        rows.append({"game": key, **measure(key)})
    return rows


def _meets(value, target) -> str:
    return "yes" if value >= target else "NO"


def section_playouts(cfg, notes):
    from bench import openspiel_ref as ref
    from bench.playouts import PLAYOUT_TARGETS, ours_playouts

    def measure(key):
        ours = ours_playouts(key, cfg.seconds)
        spiel = ref.playout_rate(ref.load(key), cfg.seconds)
        return {"ours_python_loop_per_s": ours["python_loop"], "ours_compiled_per_s": ours["compiled"],
                "openspiel_cpp_per_s": spiel, "ratio_python": ours["python_loop"] / spiel,
                "ratio_compiled": ours["compiled"] / spiel, "target": PLAYOUT_TARGETS[key],
                "meets": _meets(ours["python_loop"], PLAYOUT_TARGETS[key])}
    notes.append("ours: Python loop over game.kernels.playout(state.copy(), rng) (target applies), and a "
                 "compiled loop calling the kernel through a FunctionType; OpenSpiel: C++ "
                 "RandomRolloutEvaluator(n, seed) run by MCTSBot(max_simulations=1).mcts_search (n rollouts in C++)")
    notes.append("Go rollouts differ: ours never fill an own eye and stop after 3*n*n moves; OpenSpiel's play "
                 "any legal move and stop at max_game_length = 2*n*n")
    return _per_game(PLAYOUT_GAMES, measure)


def section_mcts(cfg, notes):
    from bench import openspiel_ref as ref
    from bench.playouts import MCTS_TARGETS, ours_mcts

    def measure(key):
        ours = ours_mcts(key, cfg.seconds)
        spiel = ref.mcts_rate(ref.load(key), cfg.seconds)
        target = MCTS_TARGETS[key]
        ok = ours >= target and (key != "othello8" or ours >= 20 * spiel)
        return {"ours_sims_per_s": ours, "openspiel_sims_per_s": spiel, "ratio": ours / spiel,
                "target": f"{target:,}" + (" and 20x" if key == "othello8" else ""), "meets": "yes" if ok else "NO"}
    notes.append("UCT, one uniformly random rollout per simulation, a fresh tree from the opening, "
                 f"~{cfg.seconds} s per run; ours: MCTS(MCTSConfig()) with Limits(time); OpenSpiel: "
                 "MCTSBot(uct_c=2, solve=False, max_wall_clock_time), simulations = root explore_count")
    return _per_game(PLAYOUT_GAMES, measure)


def section_alphabeta(cfg, notes):
    from bench.alphabeta_nodes import run
    result = run(cfg.seconds)
    notes.append(f"bench.alphabeta_nodes.run({cfg.seconds}): Othello 8x8 midgame positions (its docstring); no "
                 "OpenSpiel counterpart (pyspiel 2.0.2 binds no alpha-beta; its python minimax is pure Python)")
    return [{"game": "othello8", **result, "target": 1_000_000,
             "meets": _meets(result.get("nodes_per_second", 0), 1_000_000)}]


def section_strength(cfg, notes):
    from bench.strength import GAMES
    calibrated = ", and max_simulations = its opening sims/s x move time" if cfg.spiel_budget == "calibrated" else ""
    notes.append(f"{cfg.games} games per game, {cfg.move_time} s per move for both, colours alternating; win rate "
                 "counts draws half, 95% Wilson interval. Ours: MCTS(MCTSConfig()) with Limits(time, margin 0), "
                 "tree reuse. OpenSpiel: MCTSBot(uct_c=2, 1 random rollout, solve=True, max_wall_clock_time = "
                 f"move time{calibrated}), fresh tree per move. Go 7x7: komi 7.5, area scoring, suicide illegal, game "
                 "cut at OpenSpiel's 2*n*n = 98 moves; OpenSpiel lets a move repeat a position and ends the game "
                 "there as a draw (superko_draws), ours plays under positional superko. Both rule sets checked equal (board, player "
                 "to move, legal moves, result) after every move.")

    if cfg.jobs > 1:  # matches in parallel processes; both sides run on the same wall clock, so it stays fair
        notes.append(f"matches played {cfg.jobs} at a time (one process each, longest first)")
        from concurrent.futures import ProcessPoolExecutor
        order = sorted(GAMES, key=lambda k: ("go7", "othello8", "hex7").index(k) if k in ("go7", "othello8", "hex7")
                       else 9)
        with ProcessPoolExecutor(max_workers=cfg.jobs) as pool:
            futures = {k: pool.submit(_strength_row, k, cfg.games, cfg.move_time, cfg.spiel_budget) for k in order}
            return [{"game": k, **futures[k].result()} for k in GAMES]
    return _per_game(GAMES, lambda key: _strength_row(key, cfg.games, cfg.move_time, cfg.spiel_budget))


def _strength_row(key, games, move_time, spiel_budget):
    from bench.strength import TARGET, match
    m = match(key, games, move_time, spiel_budget=spiel_budget)
    return {k: m[k] for k in ("games", "wins", "losses", "draws", "win_rate", "ci95", "ours_s_per_move",
                              "spiel_s_per_move", "mean_plies", "superko_draws")} | {"meets": _meets(m["win_rate"], TARGET)}


def section_memory(cfg, notes):
    from bench.memory import GAMES, TARGET_MIB, peak_rss

    def measure(key):
        ours, spiel = peak_rss("ours", key, cfg.memory_seconds), peak_rss("openspiel", key, cfg.memory_seconds)
        return {"ours_peak_mib": ours["peak_mib"], "ours_before_search_mib": ours["before_search_mib"],
                "ours_sims": ours["simulations"], "ours_nodes": ours["nodes"], "openspiel_peak_mib": spiel["peak_mib"],
                "openspiel_sims": spiel["simulations"], "ratio": ours["peak_mib"] / spiel["peak_mib"],
                "target_mib": f"< {TARGET_MIB}", "meets": "yes" if ours["peak_mib"] < TARGET_MIB else "NO"}
    notes.append(f"one {cfg.memory_seconds} s search from the opening in a fresh process; peak = VmHWM "
                 "(whole process); OpenSpiel bot with max_memory_mb=1000")
    return _per_game(GAMES, measure)


def section_startup(cfg, notes):
    from bench.startup import TARGET_S, compile_time, warm_start

    def measure(key):
        ours, spiel = warm_start(key), warm_start(key, "openspiel")
        return {"ours_import_first_playout_s": ours["import_first_playout_s"], "ours_process_s": ours["process_s"],
                "openspiel_import_first_rollout_s": spiel["import_first_playout_s"],
                "openspiel_process_s": spiel["process_s"], "target_s": f"< {TARGET_S}",
                "meets": "yes" if ours["import_first_playout_s"] < TARGET_S else "NO"}
    notes.append("warm cache, fresh process, median of 5: from before the first import to the end of the first "
                 "playout (process_s: interpreter start to exit)")
    rows = _per_game(("othello8", "hex5", "go9"), measure)
    try:
        c = compile_time()
        notes.append(f"one-time compile (python -m engines.warmup, NUMBA_CACHE_DIR = empty temporary directory): "
                     f"{c['cold_s']:.1f} s cold, {c['warm_s']:.1f} s warm, {c['cache_index_files']} cache "
                     f"indexes written there, project cache untouched: {c['project_cache_untouched']}")
        rows.append({"game": "one-time compile (cold cache)", "ours_process_s": c["cold_s"]})
    except RuntimeError as exc:
        notes.append(f"compile time: not measured ({str(exc).splitlines()[-1]})")
    return rows


def machine_info() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    versions = {}
    for dist in ("numba", "numpy", "open_spiel"):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=RESULTS.parent.parent,
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "cpu": cpu,
            "cores": os.cpu_count(), "load_avg_1_5_15": os.getloadavg(), "python": platform.python_version(),
            **versions, "platform": platform.platform(), "commit": commit}


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        return f"{v:.3g}" if abs(v) >= 0.01 else f"{v:.2g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def to_markdown(report: dict) -> str:
    m = report["machine"]
    out = ["# plies benchmarks", "",
           f"{m['date']} - {m['cpu']}, {m['cores']} cores, load average {_fmt(m['load_avg_1_5_15'])} at start, "
           f"{_fmt(m.get('load_avg_at_end'))} at end"
           f" - Python {m['python']}, numba {m['numba']}, numpy {m['numpy']}, open_spiel {m['open_spiel']}"
           f" - commit {m['commit']}", "",
           f"Settings: {report['settings']}. Rates are medians of 5 runs; ratio = ours / OpenSpiel.", ""]
    for name, sec in report["sections"].items():
        out += [f"## {name}", ""]
        if sec["status"] != "ok":
            out += [f"{sec['status']}: {sec['reason']}", ""]
        rows = sec.get("rows") or []
        if rows:
            cols = list(dict.fromkeys(k for r in rows for k in r))
            out += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            out += ["| " + " | ".join(_fmt(r.get(c)) for c in cols) + " |" for r in rows]
            out.append("")
        out += [f"- {n}" for n in sec.get("notes", [])] + [""]
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny settings: everything in a few minutes")
    p.add_argument("--only", nargs="+", choices=SECTIONS, metavar="SECTION", help=f"some of {', '.join(SECTIONS)}")
    p.add_argument("--games", type=int, help="strength: games per pair (default 40, quick 2)")
    p.add_argument("--move-time", type=float, help="strength: seconds per move (default 1.0, quick 0.1)")
    p.add_argument("--spiel-budget", choices=("clock", "calibrated"), default="clock",
                   help="strength: OpenSpiel's bot stops on its own clock (default) or after its opening "
                        "sims/s x move time simulations")
    p.add_argument("--jobs", type=int, default=1, help="strength: matches played at once (default 1)")
    p.add_argument("--out", type=Path, default=RESULTS, help="results folder (default bench/results)")
    cfg = p.parse_args(argv)
    cfg.seconds = 0.2 if cfg.quick else 1.0
    cfg.memory_seconds = 1.0 if cfg.quick else 10.0
    cfg.games = cfg.games or (2 if cfg.quick else 40)
    cfg.move_time = cfg.move_time or (0.1 if cfg.quick else 1.0)
    report = {"machine": machine_info(), "sections": {},
              "settings": {"quick": cfg.quick, "seconds_per_run": cfg.seconds, "games": cfg.games,
                           "move_time": cfg.move_time, "spiel_budget": cfg.spiel_budget,
                           "memory_seconds": cfg.memory_seconds}}
    for name in cfg.only or SECTIONS:
        print(f"[bench] {name}", file=sys.stderr, flush=True)
        notes = []
        try:
            rows = globals()[f"section_{name}"](cfg, notes)
            sec = {"status": "ok", "rows": rows}
        except Exception as exc:
            traceback.print_exc()
            sec = {"status": "error", "reason": f"{type(exc).__name__}: {exc}".splitlines()[0]}
        sec["notes"] = notes
        report["sections"][name] = sec
    report["machine"]["load_avg_at_end"] = os.getloadavg()
    cfg.out.mkdir(parents=True, exist_ok=True)
    (cfg.out / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
    text = to_markdown(report)
    (cfg.out / "latest.md").write_text(text)
    print(text)
    return 1 if any(s["status"] == "error" for s in report["sections"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
