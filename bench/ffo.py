"""The FFO endgame problems solved exactly -> bench/results/ffo.{md,json}.

    python -m bench.ffo [--range 20-59] [--cap 600] [--tt-bits 24]

Every position of ../shared/data/othello-ffo/fforum-20-39.obf and fforum-40-59.obf in the range is
solved exactly (engines/knowledge/othello/endgame.py, empties to the winner as the FFO counts) on one
core, each with a cap of --cap seconds of this process's CPU time (the solver reads the clock between
slices of nodes and gives up past it).  Reported per position: the exact score and the move found
(checked against the file's list of every move's score), nodes, CPU seconds, nodes per second, and
Edax's published node count where the file's README gives one.  Each position's row is merged into
bench/results/ffo.json (so 50-59 can be run apart: --range 50-59) and ffo.md is rewritten from it.
"""
import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "othello-ffo"
FILES = {20: "fforum-20-39.obf", 40: "fforum-40-59.obf"}
GUESS_DEPTH = 8  # plies of the pattern search whose value centres the solve's first aspiration window
EDAX_NODES = {  # the README's table: Edax 4.5.5, -l 60, 32 threads
    40: 10_999_592, 41: 23_990_324, 42: 30_426_754, 43: 94_871_110, 44: 23_754_353, 45: 270_030_204,
    46: 69_044_669, 47: 21_131_622, 48: 159_960_338, 49: 438_400_342, 50: 971_438_782, 51: 483_122_966,
    52: 788_300_068, 53: 3_073_980_057, 54: 4_192_900_002, 55: 11_734_970_673, 56: 1_419_531_681,
    57: 1_701_688_281, 58: 2_020_922_507, 59: 950_628}


def positions(first: int, last: int):
    """(number, ObfPosition) for the problems first..last."""
    from engines.knowledge.othello.endgame import parse_obf
    for start, name in FILES.items():
        lines = [ln for ln in (DATA / name).read_text().splitlines() if ln.strip()]
        for k, line in enumerate(lines):
            if first <= start + k <= last:
                yield start + k, parse_obf(line)


def solve_one(number: int, pos, cap: float, tt_bits: int, slice_nodes: int) -> dict:
    from engines.knowledge.othello.endgame import EndgameSolver, SolveDeadlineExceeded, square_name
    from engines.knowledge.othello.patterns import estimate_bits
    solver = EndgameSolver(tt_bits=tt_bits, rule=1, clock=time.process_time, slice_nodes=slice_nodes)
    began = time.process_time()
    row = {"ffo": number, "empties": pos.empties, "expected": pos.best_score, "edax_nodes": EDAX_NODES.get(number)}
    try:
        guess = estimate_bits(pos.P, pos.O, GUESS_DEPTH)  # inside the timing: it is part of the solve
        row["guess"] = guess
        solved = solver.solve(pos.P, pos.O, deadline=began + cap, guess=guess)
    except SolveDeadlineExceeded as out:
        seconds = time.process_time() - began
        row.update(solved=False, nodes=out.nodes, seconds=round(seconds, 2), cap=cap)
        return row
    seconds = time.process_time() - began
    row.update(solved=True, score=solved.score, move=square_name(solved.move),
               move_score=pos.scores.get(solved.move), nodes=solved.nodes, seconds=round(seconds, 2),
               correct=solved.score == pos.best_score and pos.scores.get(solved.move) == pos.best_score)
    return row


def render(rows: dict, meta: dict) -> str:
    out = ["# FFO endgame problems, exact solve on one core", "",
           f"Command: `{meta['command']}` ({meta['machine']}; {meta['when']}).", "",
           "Solver: engines/knowledge/othello/endgame.py (PVS, transposition table, fastest-first and parity "
           "ordering, the pattern evaluation in the ordering from 14 empties, ETC, stability cut-offs, special code "
           "for the last four empties; aspiration windows around the value of a depth-8 search of the pattern "
           "evaluation, that search counted in the time), empties to the winner. Seconds are this process's CPU time; Edax's node counts are "
           "the published ones (32 threads, see ../shared/data/othello-ffo/README.md): compare nodes, not seconds.",
           "",
           "| FFO | empties | exact | found | move (its score) | correct | nodes | CPU s | Mnodes/s | Edax nodes "
           "| nodes / Edax |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(rows, key=int):
        r = rows[key]
        edax = r.get("edax_nodes")
        ratio = f"{r['nodes'] / edax:.1f}" if edax and r["solved"] else ""
        rate = f"{r['nodes'] / max(r['seconds'], 1e-3) / 1e6:.1f}"
        if r["solved"]:
            found = f"{r['score']:+d}"
            move = f"{r['move']} ({r['move_score']:+d})" if r["move_score"] is not None else r["move"]
            ok = "yes" if r["correct"] else "NO"
        else:
            found, move, ok = f"not within {r['cap']:g} s", "", ""
        out.append(f"| {r['ffo']} | {r['empties']} | {r['expected']:+d} | {found} | {move} | {ok} | {r['nodes']:,} "
                   f"| {r['seconds']:.2f} | {rate} | {f'{edax:,}' if edax else ''} | {ratio} |")
    out.append("")
    for lo, hi in ((20, 39), (40, 49), (50, 59)):
        group = [rows[k] for k in rows if lo <= int(k) <= hi]
        done = [r for r in group if r["solved"]]
        if not group:
            continue
        line = f"- {lo}-{hi}: {len(done)} of {len(group)} solved"
        if done:
            line += (f", {sum(r['correct'] for r in done)} correct; median {statistics.median(r['seconds'] for r in done):.2f} "
                     f"CPU s, max {max(r['seconds'] for r in done):.2f} s; median "
                     f"{statistics.median(r['nodes'] / max(r['seconds'], 1e-3) for r in done) / 1e6:.1f} Mnodes/s")
            with_edax = [r['nodes'] / r['edax_nodes'] for r in done if r.get('edax_nodes')]
            if with_edax:
                line += f"; nodes / Edax's: median {statistics.median(with_edax):.1f}"
        out.append(line)
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--range", default="20-59", help="first-last FFO numbers (20-59)")
    parser.add_argument("--cap", type=float, default=600.0, help="CPU seconds per position before giving up")
    parser.add_argument("--tt-bits", type=int, default=24,
                        help="log2 of the transposition table's entries (24: 16 M entries, 400 MB; 21 doubles the "
                        "nodes of the 24-empties problems)")
    parser.add_argument("--slice-nodes", type=int, default=2_000_000, help="nodes between two clock readings")
    parser.add_argument("--out", default=str(RESULTS / "ffo"), help="output path without .md/.json")
    args = parser.parse_args(argv)
    first, _, last = args.range.partition("-")
    first, last = int(first), int(last or first)
    out = Path(args.out)
    store = out.with_suffix(".json")
    rows = json.loads(store.read_text())["rows"] if store.is_file() else {}
    meta = {"command": "python -m bench.ffo " + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": f"{platform.processor() or platform.machine()}, {platform.python_version()}",
            "when": time.strftime("%Y-%m-%d")}
    from engines.knowledge.othello.endgame import EndgameSolver
    warm = next(positions(20, 20))[1]
    EndgameSolver(tt_bits=8).solve(warm.P, warm.O)  # the kernels load from the cache here, not in a timing
    for number, pos in positions(first, last):
        row = solve_one(number, pos, args.cap, args.tt_bits, args.slice_nodes)
        rows[str(number)] = row
        print(json.dumps(row), file=sys.stderr, flush=True)
        store.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
        out.with_suffix(".md").write_text(render(rows, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
