"""Go: simulations a second of plies' RAVE search (plies-gtp's default search) on 9x9 and 19x19, the
empty board and a mid-game position from a GNU Go self-play game, plain and heavy playouts, one tree
and two (``--threads 2``: engines/search/parallel.py); then where a 19x19 heavy simulation spends its
time, each compiled part timed alone (numba code is invisible to cProfile).  Writes
bench/results/go_speed_19.md (the published rates of other programs are added there by hand).

    nice -n 15 .venv/bin/python -m bench.go_speed_19 [--seconds 1] [--repeats 3] [--move19 120] [--move9 30]
                                                      [--records DIR] [--compare-with REV] [--out FILE]

Positions: the move-th position of the first game record (SGF, sgfmill) in --records/go{n}; when there
is none, one GNU Go self-play game is made there first (python -m standins.gnugo_games --level 8, seed 1:
a 19x19 game takes some minutes).  Rates are medians of --repeats timed searches of --seconds each
(a fresh tree each).  Profile (19x19, heavy): the whole simulation (1 / simulations a second), the heavy
playout kernel alone from the position, the same with each of its parts switched off (its params), the
plain playout, the tree priors (go_experience, once per expansion) and the ownership kernel, each
called in a loop from Python on copies of the position (a call costs about 1 us of dispatch).
--compare-with REV: the engine at git revision REV (engines/ unpacked under /tmp) against this tree's, in
child processes run alternately: the heavy playout alone and the whole 1-thread heavy RAVE simulation, on
every position.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from sgfmill import sgf

from engines.games.go import NEMPTY, SIZE, Go
from engines.knowledge.go import rave_knowledge as gp
from engines.knowledge.go.registered import heavy_knowledge, playout_params
from engines.rng import make_rng
from engines.search import Limits, make_searcher

OUT = Path(__file__).resolve().parent / "results" / "go_speed_19.md"
# the heavy playout's parts, switched off one at a time (PLAYOUT_DEFAULTS keys of registered.py)
PARTS = (("capture", {"capture": 0.0}, "tactics around the last moves (captures, atari escapes, their ladders)"),
         ("ladder", {"ladder": 0.0}, "the ladder reading of atari escapes only"),
         ("twolib", {"twolib": 0.0}, "two-liberty attacks and extensions"),
         ("nakade", {"nakade": 0.0}, "the nakade vital point"),
         ("pattern", {"pattern": 0.0}, "3x3 pattern moves"),
         ("heavy", {"heavy": 0.0}, "all of the above and the self-atari filter (uniform random moves)"))


def record(size: int, records: Path) -> Path:
    """The first SGF record of size ``size`` in records/go{size}, made by GNU Go self-play if absent."""
    folder = records / f"go{size}"
    found = sorted(folder.glob("*.sgf")) if folder.is_dir() else []
    if not found:
        print(f"making a GNU Go self-play game of {size}x{size} in {folder} ...", flush=True)
        subprocess.run([sys.executable, "-m", "standins.gnugo_games", "--games", "1", "--size", str(size),
                        "--level", "8", "--seed", "1", "--out", str(folder)], check=True)
        found = sorted(folder.glob("*.sgf"))
    return found[0]


def position(game: Go, path: Path, moves: int):
    """The position after ``moves`` moves of the record (fewer when the game is shorter)."""
    record_game = sgf.Sgf_game.from_bytes(path.read_bytes())
    state = game.initial_state()
    n = game.size
    played = 0
    for node in record_game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        if colour is None:
            continue
        if played == moves:
            break
        state = game.play(state, game.pass_action if point is None else game.action(n - 1 - point[0], point[1]))
        played += 1
    return state, played


def search_rate(game, state, playout, threads, seconds, repeats):
    """(median simulations a wall second, tree nodes per simulation, median simulations a CPU second of the
    process, all its threads) of a RAVE search, fresh tree each time."""
    options = {"capacity": 1 << 21}
    if threads > 1:
        options["threads"] = threads
    searcher = make_searcher("rave", game, None, heavy_knowledge(game, playout=playout), 1, **options)
    searcher.search(state, Limits(simulations=32))  # load the compiled code
    rates, nodes, cpu_rates = [], [], []
    for _ in range(repeats):
        searcher.reset()
        t0, c0 = time.perf_counter(), time.process_time()
        result = searcher.search(state, Limits(time=seconds, margin=0.0))
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        rates.append(result.stats["simulations"] / took)
        cpu_rates.append(result.stats["simulations"] / max(cpu, 1e-9))
        nodes.append(result.stats["tree_size"] / max(1, result.stats["simulations"]))
    return statistics.median(rates), statistics.median(nodes), statistics.median(cpu_rates)


def timed_loop(call, seconds, repeats):
    """Median (calls a CPU second, mean of call()'s return values) of repeats runs of ``seconds`` of this
    process's CPU time (one thread: what other jobs on the machine take is not counted)."""
    rates, means = [], []
    for _ in range(repeats):
        count, total, t0 = 0, 0, time.process_time()
        deadline = t0 + seconds
        while True:
            for _ in range(16):
                total += call()
            count += 16
            now = time.process_time()
            if now >= deadline:
                break
        rates.append(count / (now - t0))
        means.append(total / count)
    return statistics.median(rates), statistics.median(means)


def playout_rate(state, kernel, params, seconds, repeats):
    """(playouts a second, moves a playout) of a traced playout kernel from ``state``."""
    rng = make_rng(7)
    trace = np.empty(gp.playout_scratch(state), dtype=np.int64)
    return timed_loop(lambda: kernel(state.copy(), rng, trace, params), seconds, repeats)


def profile(game, state, seconds, repeats, whole_rate, nodes_per_sim):
    """Rows of the 19x19 heavy profile (markdown), and the numbers."""
    n = game.size
    rows = []
    full = playout_params()
    heavy_rate, heavy_len = playout_rate(state, gp.heavy_playout_traced, full, seconds, repeats)
    plain_rate, plain_len = playout_rate(state, gp.plain_playout_traced, full, seconds, repeats)
    copy_rate, _ = timed_loop(lambda: state.copy().shape[0] * 0, seconds, repeats)  # the copy + loop overhead
    us_sim = 1e6 / whole_rate
    us_heavy = 1e6 / heavy_rate
    rows.append(f"| whole RAVE simulation (heavy, 1 thread) | {us_sim:,.0f} | - | - | 100 % |")
    rows.append(f"| heavy playout alone | {us_heavy:,.0f} | {heavy_len:.0f} | {us_heavy / heavy_len:.2f} | "
                f"{100 * us_heavy / us_sim:.0f} % |")
    for name, change, meaning in PARTS:
        rate, length = playout_rate(state, gp.heavy_playout_traced, playout_params(**change), seconds, repeats)
        us = 1e6 / rate
        rows.append(f"| heavy playout without {name} ({meaning}) | {us:,.0f} | {length:.0f} | {us / length:.2f} | "
                    f"{100 * us / us_sim:.0f} % |")
    rows.append(f"| plain playout (engines.games.go.playout, traced) | {1e6 / plain_rate:,.0f} | {plain_len:.0f} | "
                f"{1e6 / plain_rate / plain_len:.2f} | {100 * 1e6 / plain_rate / us_sim:.0f} % |")
    # the tree priors of one expansion: every child of the position (the search's children kernel)
    knowledge = heavy_knowledge(game)
    actions = np.empty(n * n + 1, dtype=np.int32)
    count = int(knowledge.children(state, actions))
    visits, wins = np.zeros(count), np.zeros(count)
    exp_params = knowledge.experience_params
    exp_rate, _ = timed_loop(lambda: gp.go_experience(state.copy(), actions[:count], count, visits, wins,
                                                      exp_params) or 0, seconds, repeats)
    expansions = nodes_per_sim / max(1, count)  # each expansion adds about ``count`` children
    us_exp = 1e6 / exp_rate
    rows.append(f"| tree priors (go_experience) per expansion, {count} children | {us_exp:,.0f} | - | - | "
                f"{100 * us_exp * expansions / us_sim:.0f} % (x {expansions:.3f} expansions a simulation) |")
    owner = np.zeros(n * n)
    own_rate, _ = timed_loop(lambda: gp.go_ownership(state.copy(), owner) or 0, seconds, repeats)
    rows.append(f"| ownership (go_ownership) per simulation | {1e6 / own_rate:,.1f} | - | - | "
                f"{100 * 1e6 / own_rate / us_sim:.1f} % |")
    rows.append(f"| a state copy + Python loop (overhead in every row above) | {1e6 / copy_rate:,.1f} | - | - | - |")
    return rows, {"us_sim": us_sim, "us_heavy": us_heavy, "heavy_len": heavy_len, "us_exp": us_exp,
                  "expansions": expansions}


def snapshot(revision: str) -> tuple[Path, str]:
    """The project's files at a git revision, unpacked under /tmp (once): a tree to import the engine from."""
    root = Path(__file__).resolve().parent.parent
    sha = subprocess.run(["git", "rev-parse", "--short", revision], cwd=root, capture_output=True, text=True,
                         check=True).stdout.strip()
    folder = Path("/tmp/plies-go-speed-before") / sha
    if not (folder / "engines").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "engines", "weights"], cwd=root, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder, sha


def child_rates(states_file: str, seconds: float) -> list:
    """(heavy playouts a CPU second, 1-thread heavy RAVE simulations a CPU second) of every saved position,
    with the engine this process imports (--child: the parent chooses it by PYTHONPATH)."""
    saved = np.load(states_file)
    out = []
    for key in sorted(saved.files, key=lambda k: int(k.split("_")[1])):
        state = saved[key]
        game = Go(int(state[SIZE]), komi=7.0)
        searcher = make_searcher("rave", game, None, heavy_knowledge(game), 1, capacity=1 << 21)
        searcher.search(state, Limits(simulations=32))
        playouts, _ = playout_rate(state, gp.heavy_playout_traced, playout_params(), seconds, 1)
        c0 = time.process_time()
        result = searcher.search(state, Limits(time=seconds, margin=0.0))
        out.append((playouts, result.stats["simulations"] / max(1e-9, time.process_time() - c0)))
    return out


def before_after(cases, revision, seconds, repeats):
    """Rows: the heavy playout alone and the whole RAVE simulation at git ``revision`` against this tree,
    each measured by a child process importing that tree's engine, the two alternating (so a change of
    the machine's load falls on both)."""
    folder, sha = snapshot(revision)
    here = Path(__file__).resolve()
    trees = {"before": folder, "after": here.parent.parent}
    states = Path("/tmp/plies-go-speed-before") / "positions.npz"
    np.savez(states, **{f"s_{i}": state for i, (_, _, state) in enumerate(cases)})
    got = {key: [] for key in trees}
    for _ in range(repeats):
        for key, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=str(tree))
            done = subprocess.run([sys.executable, str(here), "--child", str(states), "--seconds", str(seconds)],
                                  env=env, capture_output=True, text=True, check=True)
            got[key].append(json.loads(done.stdout.strip().splitlines()[-1]))
    rows = []
    for i, (_, label, _) in enumerate(cases):
        pb, pa = (statistics.median(run[i][0] for run in got[key]) for key in ("before", "after"))
        sb, sa = (statistics.median(run[i][1] for run in got[key]) for key in ("before", "after"))
        rows.append(f"| {label} | {1e6 / pb:,.0f} | {1e6 / pa:,.0f} | {pa / pb:.2f}x | {sb:,.0f} | {sa:,.0f} | "
                    f"{sa / sb:.2f}x |")
        print(rows[-1], flush=True)
    return rows, sha


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="per timed search or loop")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--move19", type=int, default=120, help="the 19x19 mid-game position: after this many moves")
    ap.add_argument("--move9", type=int, default=30, help="the 9x9 mid-game position: after this many moves")
    ap.add_argument("--records", default="/tmp/plies-go-records", help="folder of the GNU Go game records")
    ap.add_argument("--compare-with", metavar="REV", help="time the heavy playout of this git revision too")
    ap.add_argument("--skip-table", action="store_true", help="only the before/after comparison")
    ap.add_argument("--child", metavar="STATES", help=argparse.SUPPRESS)  # a measuring child (before_after)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child_rates(args.child, args.seconds)))
        return
    command = "python -m bench.go_speed_19 " + " ".join(argv if argv is not None else sys.argv[1:])
    records = Path(args.records)
    cases = []
    for n, move in ((9, args.move9), (19, args.move19)):
        game = Go(n, komi=7.0)
        path = record(n, records)
        mid, played = position(game, path, move)
        cases.append((game, f"{n}x{n} empty", game.initial_state()))
        cases.append((game, f"{n}x{n} after move {played} of {path.name} ({int(mid[NEMPTY])} empty points)", mid))
    comparison = []
    if args.compare_with:
        comparison, sha = before_after(cases, args.compare_with, args.seconds, args.repeats)
    rows, rates = [], {}
    for game, label, state in ([] if args.skip_table else cases):
        cells = {}
        for playout in ("plain", "heavy"):
            for threads in (1, 2):
                cells[playout, threads] = search_rate(game, state, playout, threads, args.seconds, args.repeats)
        rates[label] = cells
        p1, p2, h1, h2 = (cells[k][0] for k in (("plain", 1), ("plain", 2), ("heavy", 1), ("heavy", 2)))
        c1, c2, d1, d2 = (cells[k][2] for k in (("plain", 1), ("plain", 2), ("heavy", 1), ("heavy", 2)))
        rows.append(f"| {label} | {p1:,.0f} / {c1:,.0f} | {p2:,.0f} / {c2:,.0f} | {h1:,.0f} / {d1:,.0f} | "
                    f"{h2:,.0f} / {d2:,.0f} | {c1 / d1:.1f} |")
        print(rows[-1], flush=True)
    profiles = []
    for game, label, state in ([] if args.skip_table else cases[2:]):
        _, nodes, whole = rates[label]["heavy", 1]
        prof_rows, numbers = profile(game, state, args.seconds, args.repeats, whole, nodes)
        profiles.append((label, prof_rows, numbers))
        print("\n".join(prof_rows), flush=True)
    load = open("/proc/loadavg").read().split()[:3] if Path("/proc/loadavg").exists() else ["?"] * 3
    lines = ["# Go: simulations a second on 9x9 and 19x19, and where a 19x19 heavy simulation spends its time", "",
             f"Command: `nice -n 15 {command}` (load average at the end: {' '.join(load)} on 2 cores shared with "
             "other jobs: wall rates are low and noisy; CPU rates count only this process's own CPU time).",
             f"Search: RAVE (RaveConfig defaults, plies-gtp's default search) with heavy_knowledge(game) priors; "
             f"median of {args.repeats} searches of {args.seconds:g} s from a fresh tree; 2 threads = two trees "
             "merged at the root (engines/search/parallel.py).", "",
             ""]
    if rows:
        lines += ["## Simulations a second", "",
                  "Each cell: simulations a wall second / simulations a CPU second of the process (both threads "
                  "counted with 2 threads: on an idle 2-core machine the wall rate of 2 threads approaches the CPU "
                  "rate). plain / heavy: the ratio of the 1-thread CPU rates.", "",
                  "| position | plain, 1 thread | plain, 2 threads | heavy, 1 thread | heavy, 2 threads | plain / heavy |",
                  "|---|---|---|---|---|---|", *rows, ""]
    if comparison:
        lines += [f"## The heavy playout before ({sha}) and after, side by side", "",
                  "Child processes, one importing each tree, run alternately; the playout alone from the position (CPU us "
                  "a playout) and the whole 1-thread heavy RAVE search (simulations a CPU second).", "",
                  "| position | playout before, us | after, us | speed-up | search before, sims/s | after, sims/s | "
                  "speed-up |", "|---|---|---|---|---|---|---|", *comparison, ""]
    for label, prof_rows, numbers in profiles:
        lines += [f"## Where a heavy simulation's time goes: {label}", "",
                  "Each compiled part timed alone in a loop from Python on copies of the position (CPU microseconds "
                  "a call); the share is of one whole simulation of the search above (its CPU time).", "",
                  "| part | us a call | moves a playout | us a move | share of a simulation |",
                  "|---|---|---|---|---|", *prof_rows, ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
