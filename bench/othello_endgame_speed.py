"""The exact endgame solver of two source trees on the same positions, alternating position by position
-> bench/results/ffo_speed.{md,json}.

    python -m bench.othello_endgame_speed --before /path/to/other/tree [--ffo 40-49] [--empties 20-24]
                                          [--per-empties 5] [--cap 120] [--tt-bits 24]

Positions: the FFO problems in --ffo (empties to the winner, as the FFO counts) and --per-empties positions
for each empties count in --empties from seeded played games (6 random plies, then a depth-3 pattern search
for both sides with one random move in five; plain disc count, as the games count), written once to
bench/results/ffo_speed_positions.txt so every later run solves the same ones.  Each tree runs in its
own worker process (this file run as a script with PYTHONPATH set to the tree, so each tree imports its
own engines and numba cache); the driver sends each position to the "before" worker and then to the
"after" one (or the other way round on every second position), so both see the same machine load.
Each solve: a fresh table of 2**tt_bits entries, the window centred on a pattern search's value
(estimate_bits, inside the timing: depth 8 for FFO as bench/ffo.py, depth 4 for played positions as the
player), CPU seconds of the worker (process_time),
capped at --cap.  Reported: nodes, CPU seconds, M nodes a CPU second, per position and their medians and
ratios (after / before), FFO totals, and by empties the median seconds (the largest empties count whose
median solve is within 1 s).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
RESULTS = HERE.parent / "results"
POSITIONS = RESULTS / "ffo_speed_positions.txt"


# ---- worker (runs with PYTHONPATH set to one tree; imports nothing from bench) ----------------------

def worker(tt_bits: int, cap: float) -> int:
    from engines.games.othello import bb_moves
    try:
        from engines.games.othello import flips_at
    except ImportError:  # a tree from before 266be60 kept it in the solver's module
        from engines.knowledge.othello.endgame import flips_at
    from engines.knowledge.othello.endgame import EndgameSolver, SolveDeadlineExceeded
    from engines.knowledge.othello.patterns import estimate_bits
    import numpy as np
    P, O, full = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000), np.uint64((1 << 64) - 1)
    while bin(int(P | O)).count("1") < 52:  # lowest-square moves to 12 empties: loads the kernels outside a timing
        moves = bb_moves(P, O, full)
        if moves:
            x = moves & (np.uint64(0) - moves)
            f = flips_at(int(x).bit_length() - 1, P, O)
            P, O = P ^ f ^ x, O ^ f
        elif not bb_moves(O, P, full):
            break
        P, O = O, P
    if bb_moves(P, O, full) or bb_moves(O, P, full):
        EndgameSolver(tt_bits=12).solve(int(P), int(O))
    estimate_bits(int(P), int(O), 2)
    solvers = {rule: EndgameSolver(tt_bits=tt_bits, rule=rule, clock=time.process_time) for rule in (0, 1)}
    for line in sys.stdin:
        job = json.loads(line)
        solver = solvers[job["rule"]]
        solver.clear()
        began = time.process_time()
        try:
            guess = estimate_bits(job["P"], job["O"], job["depth"])
            guessed = time.process_time() - began
            solved = solver.solve(job["P"], job["O"], deadline=began + cap, guess=guess)
            out = {"solved": True, "score": solved.score, "move": solved.move, "nodes": solved.nodes,
                   "guess": guess, "guess_seconds": guessed}
        except SolveDeadlineExceeded as over:
            out = {"solved": False, "nodes": over.nodes}
        out["seconds"] = time.process_time() - began
        print(json.dumps(out), flush=True)
    return 0


# ---- driver ------------------------------------------------------------------------------------

def make_positions(first: int, last: int, per: int, seed: int = 1) -> list:
    """per positions for each empties count first..last from seeded played games (P, O, empties)."""
    import numpy as np
    from engines.games.othello import Othello
    from engines.knowledge.othello.endgame import state_bits
    from engines.knowledge.registry import knowledge_for
    from engines.search import Limits
    from engines.search.alphabeta import AlphaBeta
    game = Othello(8)
    search = AlphaBeta(game, {"tt_size": 1 << 16}, knowledge_for(game, "patterns"))
    rng = np.random.default_rng(seed)
    found = {e: [] for e in range(first, last + 1)}
    while any(len(v) < per for v in found.values()):
        s = game.initial_state()
        for _ in range(6):
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        while not game.is_terminal(s):
            empties = int((game.cells(s) == 0).sum())
            if empties < first:
                break
            if empties in found and len(found[empties]) < per and not game.must_pass(s):
                P, O = state_bits(s)
                found[empties].append((int(P), int(O), empties))
            legal = game.legal_moves(s)
            move = int(rng.choice(legal)) if rng.random() < 0.2 else int(search.search(s, Limits(depth=3)).move)
            s = game.play(s, move)
    return [p for e in sorted(found) for p in found[e]]


def load_jobs(ffo: str, empties: str, per: int) -> list:
    from bench.ffo import EDAX_NODES, positions
    jobs = []
    if ffo:
        lo, _, hi = ffo.partition("-")
        for number, pos in positions(int(lo), int(hi or lo)):
            jobs.append({"name": f"FFO {number}", "P": pos.P, "O": pos.O, "rule": 1, "depth": 8, "empties": pos.empties,
                         "expected": pos.best_score, "edax": EDAX_NODES.get(number)})
    if empties:
        lo, _, hi = empties.partition("-")
        lo, hi = int(lo), int(hi or lo)
        stored = []
        if POSITIONS.is_file():
            stored = [tuple(int(v, 16) if k < 2 else int(v) for k, v in enumerate(ln.split()))
                      for ln in POSITIONS.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        have = {e: [p for p in stored if p[2] == e] for e in range(lo, hi + 1)}
        if any(len(v) < per for v in have.values()):
            stored = make_positions(lo, hi, per)
            POSITIONS.write_text("# P O empties (hex bitboards: mover, opponent), bench/othello_endgame_speed.py\n"
                                 + "".join(f"{P:016x} {O:016x} {e}\n" for P, O, e in stored))
            have = {e: [p for p in stored if p[2] == e] for e in range(lo, hi + 1)}
        for e in range(lo, hi + 1):
            for k, (P, O, _) in enumerate(have[e][:per]):
                jobs.append({"name": f"played {e}.{k}", "P": P, "O": O, "rule": 0, "depth": 4, "empties": e})
    return jobs


def start(tree: str, tt_bits: int, cap: float):
    env = dict(os.environ, PYTHONPATH=tree)
    return subprocess.Popen([sys.executable, str(HERE), "--worker", "--tt-bits", str(tt_bits), "--cap", str(cap)],
                            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(proc, job) -> dict:
    proc.stdin.write(json.dumps({k: job[k] for k in ("P", "O", "rule", "depth")}) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def render(rows: list, meta: dict) -> str:
    out = ["# The exact endgame solver before and after, alternating on the same positions", "",
           f"Command: `{meta['command']}` ({meta['machine']}; {meta['when']}).  Before: {meta['before']}; "
           f"after: {meta['after']}.", "",
           "One core each, CPU seconds (process_time) including the guess (depth 8 for FFO, 4 for played); a fresh table per solve. "
           "FFO rows count empties to the winner; played rows a plain disc count.", "",
           "| position | empties | nodes before | nodes after | s before | s after | Mn/s before | Mn/s after "
           "| s after / before | same score |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b, a = r["before"], r["after"]
        same = "yes" if b["solved"] and a["solved"] and b["score"] == a["score"] else ("-" if not (b["solved"] and a["solved"]) else "NO")
        if "expected" in r and a["solved"] and a["score"] != r["expected"]:
            same += " (WRONG vs file)"
        out.append(f"| {r['name']} | {r['empties']} | {b['nodes']:,}{'' if b['solved'] else ' (cap)'} "
                   f"| {a['nodes']:,}{'' if a['solved'] else ' (cap)'} | {b['seconds']:.2f} | {a['seconds']:.2f} "
                   f"| {b['nodes'] / max(b['seconds'], 1e-3) / 1e6:.1f} | {a['nodes'] / max(a['seconds'], 1e-3) / 1e6:.1f} "
                   f"| {a['seconds'] / max(b['seconds'], 1e-3):.2f} | {same} |")
    out.append("")
    ffo = [r for r in rows if r["name"].startswith("FFO")]
    if ffo:
        tb = sum(r["before"]["seconds"] for r in ffo)
        ta = sum(r["after"]["seconds"] for r in ffo)
        ratios = [r["after"]["seconds"] / max(r["before"]["seconds"], 1e-3) for r in ffo]
        nb_ = [r["after"]["nodes"] / r["before"]["nodes"] for r in ffo]
        out.append(f"- FFO ({len(ffo)}): total CPU s before {tb:.1f}, after {ta:.1f} (ratio {ta / tb:.2f}); median "
                   f"s before {statistics.median(r['before']['seconds'] for r in ffo):.2f}, after "
                   f"{statistics.median(r['after']['seconds'] for r in ffo):.2f}; median ratio of seconds "
                   f"{statistics.median(ratios):.2f}; median ratio of nodes {statistics.median(nb_):.2f}; median Mn/s "
                   f"before {statistics.median(r['before']['nodes'] / r['before']['seconds'] for r in ffo) / 1e6:.1f}, "
                   f"after {statistics.median(r['after']['nodes'] / r['after']['seconds'] for r in ffo) / 1e6:.1f}")
        edax = [(r["after"]["nodes"] / r["edax"], r["before"]["nodes"] / r["edax"]) for r in ffo if r.get("edax")]
        if edax:
            out.append(f"- nodes / Edax's published: median before {statistics.median(e[1] for e in edax):.2f}, "
                       f"after {statistics.median(e[0] for e in edax):.2f}")
    played = [r for r in rows if r["name"].startswith("played")]
    by = sorted({r["empties"] for r in played})
    for side in ("before", "after"):
        meds = {e: statistics.median(r[side]["seconds"] for r in played if r["empties"] == e) for e in by}
        within = [e for e in by if meds[e] <= 1.0]
        if meds:
            out.append(f"- played, {side}: median CPU s by empties " + ", ".join(f"{e}: {meds[e]:.2f}" for e in by)
                       + f"; largest empties with a median within 1 s: {max(within) if within else 'none'}")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--before", help="the other source tree (its engines and numba cache)")
    parser.add_argument("--after", default=str(HERE.parent.parent), help="this tree by default")
    parser.add_argument("--ffo", default="40-49", help="FFO problems first-last ('' for none)")
    parser.add_argument("--empties", default="20-24", help="played positions' empties first-last ('' for none)")
    parser.add_argument("--per-empties", type=int, default=5)
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds per solve")
    parser.add_argument("--tt-bits", type=int, default=24)
    parser.add_argument("--out", default=str(RESULTS / "ffo_speed"))
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.tt_bits, args.cap)
    if not args.before:
        parser.error("--before is required")
    jobs = load_jobs(args.ffo, args.empties, args.per_empties)
    procs = {"before": start(args.before, args.tt_bits, args.cap), "after": start(args.after, args.tt_bits, args.cap)}
    meta = {"command": "python -m bench.othello_endgame_speed " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": f"{platform.processor() or platform.machine()}, {platform.python_version()}",
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "before": args.before, "after": args.after}
    rows = []
    out = Path(args.out)
    try:
        for k, job in enumerate(jobs):
            order = ("before", "after") if k % 2 == 0 else ("after", "before")
            row = {key: job[key] for key in ("name", "empties") if key in job}
            for key in ("expected", "edax"):
                if job.get(key) is not None:
                    row[key] = job[key]
            for side in order:
                row[side] = ask(procs[side], job)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
            out.with_suffix(".json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
            out.with_suffix(".md").write_text(render(rows, meta))
    finally:
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
