"""Benzene's DFPN solver as the yardstick of plies' Hex solver (issue 33): which first moves win on
an empty N x N board (no swap), with the solver's own work counts and seconds.

Benzene is not part of the project: build MoHex (benzene-vanilla-cmake) and name the binary in the
environment variable PLIES_MOHEX; without it this bench says so and exits with status 0.

    PLIES_MOHEX=/path/to/mohex nice -n 15 .venv/bin/python -m bench.hex_benzene_solver --size 5
    PLIES_MOHEX=... nice -n 15 .venv/bin/python -m bench.hex_benzene_solver --size 7 --moves d4 c5 --timelimit 120

For each first move X (every cell by default, or --moves) the GTP dialogue is

    dfpn-clear-tt          (no proof carried over from the previous move: each count stands alone)
    clear_board
    play b X
    dfpn-solve-state white (the winner of the position with White to move: black means X wins)

and, once per size with --find-winning, benzene's own list on the empty board:
``dfpn-solver-find-winning black`` (it tries only the moves its inferior-cell analysis keeps, so it
may list fewer than the per-move solves prove).  The solver's statistics (MID calls = nodes
expanded, Work = MID calls + terminal nodes, VC builds, its Elapsed Time) are read from MoHex's
stderr, which goes to a file; the wall seconds of each command are the client's.

Data: each solved (or timed-out) position is one JSON line in bench/results/hex_benzene_solver.jsonl;
a rerun skips the positions already there (same size, move and time limit), and the table
bench/results/hex_benzene_solver.md is rebuilt from the whole file.
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from regress.gtp_client import GtpClient

RESULTS = Path(__file__).resolve().parent / "results"
ENV = "PLIES_MOHEX"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
STATS = {"mid_calls": r"MID calls\s+(\d+)", "vc_builds": r"VC builds\s+(\d+)", "work": r"Work\s+(\d+)",
         "solver_s": r"Elapsed Time\s+([0-9.eE+-]+)"}


def cells(size: int) -> list[str]:
    """Every cell of the board in row order: a1 b1 ... (column letter, row number)."""
    return [f"{LETTERS[c]}{r + 1}" for r in range(size) for c in range(size)]


def parse_stats(log_text: str) -> dict:
    """The last statistics block the solver wrote (the numbers of the search just finished)."""
    found = {}
    for name, pattern in STATS.items():
        values = re.findall(r"^\s*" + pattern, log_text, flags=re.MULTILINE)
        if values:
            found[name] = float(values[-1]) if name == "solver_s" else int(values[-1])
    return found


class Solver:
    """MoHex driven over GTP with its stderr appended to a file (the solver reports its statistics
    there)."""

    def __init__(self, binary: str, log: Path, timelimit: float):
        self.log = log
        # in a directory of its own: MoHex writes its log file (default.log) where it runs
        self.client = GtpClient(["sh", "-c", 'exec "$0" 2>>"$1"', binary, str(log)],
                                cwd=tempfile.mkdtemp(prefix="plies-benzene-"))
        self.version = f"{self.client.ok('name')} {self.client.ok('version')}"
        self.client.ok("param_game allow_swap 0")
        self.client.ok(f"param_dfpn timelimit {timelimit:g}")

    def _log_size(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def run(self, command: str) -> tuple[str, float, dict]:
        """The reply to one command, its wall seconds and the solver statistics it logged."""
        offset = self._log_size()
        start = time.perf_counter()
        reply = self.client.ok(command)
        wall = time.perf_counter() - start
        time.sleep(0.2)  # stderr is written before the reply, but let the file catch up
        with self.log.open("rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        return reply, wall, parse_stats(text)

    def solve_first_move(self, size: int, move: str) -> dict:
        self.client.ok("dfpn-clear-tt")
        self.client.ok(f"boardsize {size} {size}")
        self.client.ok(f"play b {move}")
        winner, wall, stats = self.run("dfpn-solve-state white")
        return {"size": size, "move": move, "winner": winner, "first_move_wins": {"black": True,
                "white": False}.get(winner), "wall_s": round(wall, 3), **stats}

    def find_winning(self, size: int) -> dict:
        self.client.ok("dfpn-clear-tt")
        self.client.ok(f"boardsize {size} {size}")
        reply, wall, _ = self.run("dfpn-solver-find-winning black")
        return {"size": size, "find_winning": reply.split(), "wall_s": round(wall, 3)}

    def close(self):
        self.client.close()


def board_picture(size: int, rows: list[dict]) -> str:
    """The board with W on each proven winning first move, L on each losing one, ? unknown, . unsolved."""
    mark = {r["move"]: {True: "W", False: "L", None: "?"}[r["first_move_wins"]] for r in rows}
    lines = []
    for r in range(size):
        lines.append(" " * r + f"{r + 1:>2} " + " ".join(mark.get(f"{LETTERS[c]}{r + 1}", ".")
                                                        for c in range(size)))
    return "   " + " ".join(LETTERS[:size]) + "\n" + "\n".join(lines)


def report(records: list[dict], commands: list[str]) -> str:
    lines = ["# Benzene's DFPN solver: winning first moves (bench/hex_benzene_solver.py)", "",
             ("MoHex 2.0 (benzene-vanilla-cmake, built outside the project) over GTP, one solver thread, "
             "2^21-entry transposition table cleared before each position, no database, no swap.  "
             "For first move X: `dfpn-clear-tt`, `boardsize N N`, `play b X`, `dfpn-solve-state white` "
             "(black = X wins).  MID calls = nodes expanded, Work = MID calls + terminal nodes, solver s = "
             "the solver's own Elapsed Time, wall s = the GTP command as the client saw it (machine shared, "
             "nice 15).  MID calls 0 means the position was decided at its root by the connection "
             "engine (a virtual connection or a must-play without a move), before any search."), "", "Commands:", ""] + [f"    {c}" for c in commands] + [""]
    sizes = sorted({r["size"] for r in records})
    for size in sizes:
        solved = [r for r in records if r["size"] == size and "move" in r]
        finds = [r for r in records if r["size"] == size and "find_winning" in r]
        order = {m: i for i, m in enumerate(cells(size))}
        solved.sort(key=lambda r: order[r["move"]])
        winning = [r["move"] for r in solved if r["first_move_wins"]]
        lines += [f"## {size}x{size}", "",
                  (f"{len(solved)} of {size * size} first moves solved; winning: {' '.join(winning) or '(none)'}"
                  f"; losing: {sum(r['first_move_wins'] is False for r in solved)}; unknown (time limit): "
                  f"{sum(r['first_move_wins'] is None for r in solved)}.  All together: "
                  f"{sum(r.get('mid_calls', 0) for r in solved)} MID calls, "
                  f"{sum(r.get('solver_s', 0.0) for r in solved):.1f} solver seconds."), "",
                  "```", board_picture(size, solved), "```", ""]
        for f in finds:
            lines += [(f"`dfpn-solver-find-winning black` on the empty board: {' '.join(f['find_winning'])} "
                      f"({f['wall_s']:.1f} s wall)"), ""]
        lines += ["| move | winner | first move wins | MID calls | Work | VC builds | solver s | wall s | time limit s |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in solved:
            lines.append(f"| {r['move']} | {r['winner']} | {r['first_move_wins']} | {r.get('mid_calls', '')} | "
                         f"{r.get('work', '')} | {r.get('vc_builds', '')} | "
                         f"{format(r['solver_s'], '.3f') if 'solver_s' in r else ''} | "
                         f"{r['wall_s']:.2f} | {r['timelimit']:g} |")
        lines.append("")
    if records:
        lines.append(f"Solver: {records[-1].get('mohex', '')}.")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--moves", nargs="*", help="first moves to solve (default: every cell)")
    parser.add_argument("--timelimit", type=float, default=0.0, help="solver seconds a position (0: none)")
    parser.add_argument("--budget", type=float, default=0.0,
                        help="start no new position after this many seconds (0: no budget)")
    parser.add_argument("--find-winning", action="store_true",
                        help="also run dfpn-solver-find-winning on the empty board")
    parser.add_argument("--out", default=str(RESULTS / "hex_benzene_solver"),
                        help="path stem of the table (.md) and the records (.jsonl)")
    options = parser.parse_args(argv)
    binary = os.environ.get(ENV)
    if not binary:
        print(f"{ENV} is not set: name a MoHex 2.0 binary (benzene-vanilla-cmake's build/src/mohex/mohex) "
              f"to run this bench; nothing was solved.", file=sys.stderr)
        return 0
    out = Path(options.out)
    data = out.with_suffix(".jsonl")
    records = [json.loads(line) for line in data.read_text().splitlines()] if data.exists() else []
    done = {(r["size"], r.get("move"), r["timelimit"]) for r in records}
    command = ("PLIES_MOHEX=... nice -n 15 python -m bench.hex_benzene_solver "
               + " ".join(sys.argv[1:] if argv is None else argv))
    log = Path(tempfile.gettempdir()) / f"hex_benzene_solver.{os.getpid()}.stderr"
    solver = Solver(binary, log, options.timelimit)
    started = time.perf_counter()
    try:
        jobs = [("find", None)] if options.find_winning else []
        jobs += [("move", m) for m in (options.moves or cells(options.size))]
        for kind, move in jobs:
            if (options.size, move, options.timelimit) in done:
                continue
            if options.budget and time.perf_counter() - started > options.budget:
                print("budget spent; stopping", flush=True)
                break
            record = solver.find_winning(options.size) if kind == "find" else solver.solve_first_move(options.size, move)
            record.update(timelimit=options.timelimit, mohex=solver.version, command=command)
            records.append(record)
            with data.open("a") as f:
                f.write(json.dumps(record) + "\n")
            print(json.dumps(record), flush=True)
            out.with_suffix(".md").write_text(report(records, sorted({r["command"] for r in records})))
    finally:
        solver.close()
    out.with_suffix(".md").write_text(report(records, sorted({r["command"] for r in records})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
