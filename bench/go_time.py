"""plies-gtp's time per move against its allocation, through the real process (a figure, not a test).

    python -m bench.go_time [--moves 1000] [--size 9] [--search auto] [--out bench/results/go_time.md]

One plies-gtp process per time system plays both colours of self-play games on a small board
(``genmove b`` / ``genmove w`` in turn, ``--no-resign``, at most n*n + 20 plies a game), with small
budgets so that the clock runs low and every phase is met (main time, byo-yomi, the last period).
Before each genmove the bench, as the controller, sends ``time_left`` from its own clocks (the
rules of engines/players/clock.py GameClock, charged with the time measured around each reply: from the
write of the command to the read of the answer, pipe and process noise included).  The engine's
``--verbose`` line gives its allocation and its own count of the time used (from the command's
arrival).  For each system: moves, the allocation's and the time's median and maximum, the largest
ratio used/allocated, how often the time used exceeded the allocation (and by how much at most),
and the moves lost on time by the controller's clock (the goal: none).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engines.players.clock import GameClock, TimeControl

ROOT = Path(__file__).resolve().parent.parent
MODES = (  # (label, command, control for the controller's clock)
    ("absolute 8 s", "kgs-time_settings absolute 8", TimeControl("absolute", 8.0)),
    ("GTP canadian 3 s + 3 s / 10 stones", "time_settings 3 3 10", TimeControl("canadian", 3.0, 3.0, stones=10)),
    ("byo-yomi 3 s + 3 x 0.5 s", "kgs-time_settings byoyomi 3 0.5 3", TimeControl("byoyomi", 3.0, 0.5, periods=3)),
    ("canadian 2 s + 2 s / 8 stones", "kgs-time_settings canadian 2 2 8", TimeControl("canadian", 2.0, 2.0, stones=8)),
)
LINE = re.compile(r"plies-gtp: genmove [bw] (\S+) move \d+ allocated (\S+) used (\S+)")


class Engine:
    def __init__(self, args):
        self.proc = subprocess.Popen([sys.executable, "-m", "adapters.go_gtp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)

    def send(self, command: str) -> str:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine stopped after {command!r}")
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        reply = "\n".join(lines)
        if not reply.startswith("="):
            raise RuntimeError(f"{command!r}: {reply}")
        return reply[1:].strip()

    def verbose(self):
        while True:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("the engine's stderr closed")
            m = LINE.match(line)
            if m:
                return m.group(1), None if m.group(2) == "none" else float(m.group(2)), float(m.group(3))

    def close(self):
        try:
            self.send("quit")
        finally:
            self.proc.wait(30)


def run_mode(label, command, control, moves, size, search):
    engine = Engine(["--size", str(size), "--no-resign", "--verbose", "--search", search, "--seed", "1"])
    rows = []  # (allocated, used by the engine, measured by the controller, lost)
    unsearched = []  # (used, measured, lost) of the moves made without a search
    try:
        while len(rows) + len(unsearched) < moves:
            engine.send("clear_board")
            engine.send(command)
            clock = GameClock(control)
            passes, plies = 0, 0
            while passes < 2 and plies < size * size + 20 and len(rows) + len(unsearched) < moves:
                colour = plies % 2
                seconds, stones = clock.report(colour)
                engine.send(f"time_left {'bw'[colour]} {seconds:.3f} {stones}")
                start = time.perf_counter()
                move = engine.send(f"genmove {'bw'[colour]}")
                measured = time.perf_counter() - start
                _move, allocated, used = engine.verbose()
                lost = not clock.spent(colour, measured)
                if allocated is None:  # a pass without a search (the opponent passed and counting wins)
                    unsearched.append((used, measured, lost))
                else:
                    rows.append((allocated, used, measured, lost))
                passes = passes + 1 if move.lower() == "pass" else 0
                plies += 1
                if lost:
                    break  # a game lost on time ends
    finally:
        engine.close()
    return rows, unsearched


def summary(label, rows, unsearched) -> str:
    alloc = [r[0] for r in rows]
    used = [r[1] for r in rows]
    measured = [r[2] for r in rows]
    over = [u - a for a, u, _m, _l in rows if u > a]
    return (f"| {label} | {len(rows)} | {statistics.median(alloc):.3f} / {max(alloc):.3f} | "
            f"{statistics.median(used):.3f} / {max(used):.3f} | {statistics.median(measured):.3f} / "
            f"{max(measured):.3f} | {max(u / a for a, u, _m, _l in rows):.2f} | {len(over)} "
            f"({max(over) * 1000 if over else 0:.0f} ms) | {len(unsearched)} "
            f"({max((m for _u, m, _l in unsearched), default=0):.3f}) | "
            f"{sum(r[3] for r in rows) + sum(r[2] for r in unsearched)} |")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=1000, help="moves in all, shared by the time systems")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--search", default="auto")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "go_time.md")
    args = p.parse_args(argv)
    per_mode = -(-args.moves // len(MODES))
    check = subprocess.run([sys.executable, "-m", "engines.warmup", "--check", "--game", "go"], cwd=ROOT)
    if check.returncode != 0:  # a cold cache would make the engines play fallback moves: compile first
        subprocess.run([sys.executable, "-m", "engines.warmup", "--game", "go"], cwd=ROOT, check=True)
    table = []
    load_before = os.getloadavg()[0]
    for label, command, control in MODES:
        rows, unsearched = run_mode(label, command, control, per_mode, args.size, args.search)
        table.append(summary(label, rows, unsearched))
        print(table[-1], flush=True)
    text = "\n".join([
        "# plies-gtp: time per move against its allocation",
        "",
        f"Made by `python -m bench.go_time {' '.join(argv if argv is not None else sys.argv[1:])}` "
        f"({time.strftime('%Y-%m-%d')}), {args.size}x{args.size} self-play through one plies-gtp process per time "
        f"system (search {args.search}, `--no-resign`), the controller's clocks charged with the time measured "
        "around each reply and sent as `time_left` before every genmove.",
        "",
        f"Load average (1 min) {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, on "
        f"{os.cpu_count()} CPUs: under load, wall-clock time per move includes the waits of a busy machine.",
        "",
        "Seconds, median / max.  *allocated*: the engine's budget for the move (after its safety margin); "
        "*used*: the engine's own count from the command's arrival to the reply; *measured*: the controller's, "
        "from writing the command to reading the reply.",
        "",
        "| time system | searched moves | allocated | used | measured | max used/allocated | used > allocated "
        "(max excess) | passes without search (max measured) | lost on time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *table,
        "",
    ])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
