"""The DFPN solver with H-search (engines/knowledge/hex/dfpn.py) measured -> bench/results/hex_dfpn.md

1. First moves (--size N): for every first move X of black on the empty N x N board (no swap), does
   X win?  plies' DFPN (a fresh table per move, a cap of --cap seconds) and, with PLIES_MOHEX naming
   a MoHex 2.0 binary, benzene's DFPN on the same position right after it (bench/hex_benzene_solver.py:
   dfpn-clear-tt, play b X, dfpn-solve-state white, param_dfpn timelimit = the cap), so both run
   under the same load; without PLIES_MOHEX the benzene columns come from the records of
   bench/results/hex_benzene_solver.jsonl (say so in the table).  Per move: each verdict, nodes
   (plies: evaluations; benzene: MID calls) and seconds (plies: CPU and wall; benzene: its own
   elapsed and the GTP wall); then how many each solved within the cap and whether the verdicts agree.
2. Endgames (--endgames SIZE...): positions of random play with E empty cells (not decided by
   stones), for each E of --empties; how many plies' DFPN proves within --endgame-cap seconds each
   (and how many the root's connections alone decide), median nodes and seconds of the proven.

    nice -n 15 .venv/bin/python -m bench.hex_dfpn --size 6 --cap 20
    PLIES_MOHEX=... nice -n 15 .venv/bin/python -m bench.hex_dfpn --size 7 --cap 15
    nice -n 15 .venv/bin/python -m bench.hex_dfpn --endgames 9 11 --empties 10 20 30 40 --positions 10

Records: one JSON line per position in bench/results/hex_dfpn.jsonl (appended); the markdown table of
each run is appended to bench/results/hex_dfpn.md.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from engines.games.hex import Hex
from engines.knowledge.hex.dfpn import DfpnBudgetExceeded, HexDfpn

RESULTS = Path(__file__).resolve().parent / "results"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def cell_name(n, a):
    return f"{LETTERS[a % n]}{a // n + 1}"


def plies_solve(dfpn, state, cap):
    """(verdict or None, nodes, cpu s, wall s) for the side to move, a fresh table."""
    dfpn.clear()
    nodes0 = dfpn.nodes
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        verdict = dfpn.solve(state, deadline=time.perf_counter() + cap).mover_wins
    except DfpnBudgetExceeded:
        verdict = None
    return verdict, dfpn.nodes - nodes0, time.process_time() - cpu, time.perf_counter() - wall


def recorded_benzene(size):
    path = RESULTS / "hex_benzene_solver.jsonl"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if r["size"] == size and "move" in r:
            out[r["move"]] = r
    return out


def first_moves(size, cap, moves, records):
    game = Hex(size)
    dfpn = HexDfpn(game)
    binary = os.environ.get("PLIES_MOHEX")
    benzene, recorded = None, {}
    if binary:
        from bench.hex_benzene_solver import Solver
        benzene = Solver(binary, Path(tempfile.gettempdir()) / f"hex_dfpn.{os.getpid()}.stderr", cap)
    else:
        recorded = recorded_benzene(size)
    rows = []
    empty = game.initial_state()
    try:
        for a in moves:
            name = cell_name(size, a)
            verdict, nodes, cpu, wall = plies_solve(dfpn, game.play(empty, a), cap)
            row = {"part": "first", "size": size, "move": name, "cap": cap,
                   "plies_first_wins": None if verdict is None else not verdict,
                   "plies_nodes": nodes, "plies_cpu_s": round(cpu, 3), "plies_wall_s": round(wall, 3)}
            b = benzene.solve_first_move(size, name) if benzene else recorded.get(name)
            if b:
                row.update(benzene_first_wins=b["first_move_wins"], benzene_mid_calls=b.get("mid_calls"),
                           benzene_s=b.get("solver_s"), benzene_wall_s=b["wall_s"],
                           benzene_source="live" if benzene else f"recorded (time limit {b['timelimit']:g} s)")
            rows.append(row)
            records.write(json.dumps(row) + "\n")
            records.flush()
            print(json.dumps(row), flush=True)
    finally:
        if benzene:
            benzene.close()
    return rows


def first_moves_table(size, cap, rows, command):
    mark = {None: "?", True: "W", False: "L"}
    solved = [r for r in rows if r["plies_first_wins"] is not None]
    bz = [r for r in rows if r.get("benzene_first_wins") is not None]
    bz_in_cap = [r for r in bz if (r.get("benzene_s") or r["benzene_wall_s"]) <= cap]
    both = [r for r in rows if r["plies_first_wins"] is not None and r.get("benzene_first_wins") is not None]
    disagree = [r["move"] for r in both if r["plies_first_wins"] != r["benzene_first_wins"]]
    source = sorted({r.get("benzene_source", "none") for r in rows})
    lines = [f"## {size}x{size} first moves, cap {cap:g} s a move", "", f"Command: `{command}`; benzene: {', '.join(source)}.", "",
             f"plies solved {len(solved)} of {len(rows)} within the cap ({sum(r['plies_cpu_s'] for r in rows):.0f} CPU s, "
             f"{sum(r['plies_wall_s'] for r in rows):.0f} wall s in all); benzene {len(bz)} "
             f"({len(bz_in_cap)} within {cap:g} s of its own time; {sum((r.get('benzene_s') or 0) for r in bz):.0f} s in all); "
             f"verdicts compared on {len(both)}: {len(disagree)} differ {disagree or ''}.",
             f"plies winning: {' '.join(r['move'] for r in rows if r['plies_first_wins'])}",
             f"benzene winning: {' '.join(r['move'] for r in rows if r.get('benzene_first_wins'))}", "",
             "| move | plies | nodes | CPU s | wall s | benzene | MID calls | solver s | wall s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['move']} | {mark[r['plies_first_wins']]} | {r['plies_nodes']} | {r['plies_cpu_s']:.2f} "
                     f"| {r['plies_wall_s']:.2f} | {mark[r.get('benzene_first_wins')]} | {r.get('benzene_mid_calls', '')} "
                     f"| {r.get('benzene_s') if r.get('benzene_s') is not None else ''} | {r.get('benzene_wall_s', '')} |")
    proven = [r for r in rows if r["plies_first_wins"] is not None]
    if proven:
        lines.append("")
        lines.append(f"plies, proven moves: median {statistics.median(r['plies_cpu_s'] for r in proven):.2f} CPU s, "
                     f"median {statistics.median(r['plies_nodes'] for r in proven):.0f} nodes; benzene (same moves, where "
                     f"solved): median {statistics.median([r['benzene_s'] for r in proven if r.get('benzene_s') is not None] or [0]):.2f} s.")
    return "\n".join(lines) + "\n"


def random_endgame(game, empties, rng):
    """A position of random play with `empties` empty cells, not decided by stones (None: it was)."""
    s = game.initial_state()
    for _ in range(game.num_actions - empties):
        s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if game.is_terminal(s):
            return None
    return s


def endgames(sizes, empties_list, count, cap, seed, records):
    rows = []
    for n in sizes:
        game = Hex(n)
        dfpn = HexDfpn(game)
        rng = np.random.default_rng(seed + n)
        for empties in empties_list:
            found = 0
            tries = 0
            while found < count and tries < 50 * count:
                tries += 1
                s = random_endgame(game, empties, rng)
                if s is None:
                    continue
                found += 1
                verdict, nodes, cpu, wall = plies_solve(dfpn, s, cap)
                row = {"part": "endgame", "size": n, "empties": empties, "cap": cap, "verdict": verdict,
                       "nodes": nodes, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
                rows.append(row)
                records.write(json.dumps(row) + "\n")
                records.flush()
                print(json.dumps(row), flush=True)
    return rows


def endgames_table(rows, cap, command):
    lines = [f"## Random-play endgames, cap {cap:g} s a position", "", f"Command: `{command}`.  Random play to E empty "
             "cells (positions decided by stones skipped); \"at the root\": proven by the first evaluation (the "
             "connections or an empty must-play) without a search.", "",
             "| size | empties | positions | proven in the cap | at the root | by search | median nodes (searched) "
             "| median CPU s (proven) | max CPU s (proven) |", "|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["size"], r["empties"]) for r in rows})
    for n, e in keys:
        group = [r for r in rows if r["size"] == n and r["empties"] == e]
        proven = [r for r in group if r["verdict"] is not None]
        root = [r for r in proven if r["nodes"] <= 1]
        searched = [r for r in proven if r["nodes"] > 1]
        lines.append(f"| {n}x{n} | {e} | {len(group)} | {len(proven)} | {len(root)} | {len(searched)} "
                     f"| {statistics.median([r['nodes'] for r in searched]) if searched else '-'} "
                     f"| {statistics.median([r['cpu_s'] for r in proven]) if proven else 0:.3f} "
                     f"| {max([r['cpu_s'] for r in proven], default=0):.3f} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=0, help="first moves of this size (0: none)")
    ap.add_argument("--moves", nargs="*", help="first moves to solve, as a1 b2 (default: every cell)")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds a first move, at most (each solver)")
    ap.add_argument("--endgames", type=int, nargs="*", default=[], help="board sizes of the endgame part")
    ap.add_argument("--empties", type=int, nargs="*", default=[10, 20, 30, 40])
    ap.add_argument("--positions", type=int, default=10, help="endgame positions per size and empties")
    ap.add_argument("--endgame-cap", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--out", default=str(RESULTS / "hex_dfpn"))
    args = ap.parse_args(argv)
    command = "nice -n 15 python -m bench.hex_dfpn " + " ".join(sys.argv[1:] if argv is None else argv)
    if os.environ.get("PLIES_MOHEX"):
        command = "PLIES_MOHEX=... " + command
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.with_suffix(".jsonl").open("a") as records:
        text = ""
        if args.size:
            n = args.size
            moves = ([LETTERS.index(m[0]) + n * (int(m[1:]) - 1) for m in args.moves] if args.moves
                     else list(range(n * n)))
            rows = first_moves(n, args.cap, moves, records)
            text += first_moves_table(n, args.cap, rows, command)
        if args.endgames:
            rows = endgames(args.endgames, args.empties, args.positions, args.endgame_cap, args.seed, records)
            text += endgames_table(rows, args.endgame_cap, command)
    with out.with_suffix(".md").open("a") as f:
        if f.tell() == 0:
            f.write("# DFPN with H-search (bench/hex_dfpn.py)\n\nMachine shared (2 cores, other sessions' load): "
                    "nodes are the stable figure; CPU seconds are the process's own.\n\n")
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
