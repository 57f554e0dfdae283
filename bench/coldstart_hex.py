"""The worst time to plies-gtp-hex's first reply and first move, from a cold and a warm compiled-kernel
cache (a figure, not a test).  Cold: NUMBA_CACHE_DIR an empty folder (its stamp lives there too).

    .venv/bin/python -m bench.coldstart_hex [--runs 3]     writes bench/results/coldstart_hex.md

The process is started, then `name` (the first reply: HexGui's first command) and `genmove b` on
11x11 with the default 1 s a move (the first move) are timed from the start of the process.
HexGui has no time limit (the user waits); the course server's limit is for the tournament client.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "coldstart_hex.md"


def measure(cold: bool) -> tuple[float, float]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    with tempfile.TemporaryDirectory() as tmp:
        if cold:
            env["NUMBA_CACHE_DIR"] = tmp
        began = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "adapters.gtp_hex"], cwd=ROOT, env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1)
        times = []
        for line in ("name", "genmove b"):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            while proc.stdout.readline() not in ("\n", ""):
                pass
            times.append(time.perf_counter() - began)
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(120)
    return times[0], times[1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    rows = []
    for cold in (True, False):
        got = [measure(cold) for _ in range(args.runs)]
        rows.append((("cold" if cold else "warm"), max(g[0] for g in got), max(g[1] for g in got)))
    lines = ["# plies-gtp-hex: time to the first reply and the first move", "",
             f"`{' '.join(['.venv/bin/python -m bench.coldstart_hex', '--runs', str(args.runs)])}` "
             f"(worst of {args.runs} runs each; seconds from the process's start; `genmove b` on 11x11 at the "
             f"default 1 s a move).  HexGui sets no limit.", "",
             "| cache | first reply (`name`) | first move (`genmove b`) |", "|---|---|---|"]
    lines += [f"| {kind} | {reply:.2f} s | {move:.2f} s |" for kind, reply, move in rows]
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
