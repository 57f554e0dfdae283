"""The worst time to plies-gtp-hex's first reply and first move, and to the tournament client's first
answers, from a cold and a warm compiled-kernel cache (a figure, not a test).  Cold: NUMBA_CACHE_DIR
an empty folder (its stamp lives there too).

    .venv/bin/python -m bench.coldstart_hex [--runs 3]     writes bench/results/coldstart_hex.md

The process is started, then `name` (the first reply: HexGui's first command) and `genmove b` on
11x11 with the default 1 s a move (the first move) are timed from the start of the process.
HexGui has no time limit (the user waits).  The tournament client (generation A, a process started
as `python -m adapters.oht_client`) plays 2 games on 7x7 against the local server
(standins/oht_server.py), which times each answer from its request as the course's server does.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
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


def measure_client(cold: bool) -> tuple[float, float]:
    """(the first answer, the worst answer) of the client, each from its request, seen by the server."""
    from standins import oht_server as S
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "PLIES_OHT_PASSWORD": "bench"}
    with tempfile.TemporaryDirectory() as tmp:
        if cold:
            env["NUMBA_CACHE_DIR"] = tmp
        certs = S.self_signed(pathlib.Path(tmp) / "certs")
        server = S.Server(*certs, S.ServerConfig(generation="A", sizes=(7,), series=1, games=2),
                          S.RandomOpponent(7), out=None, timeout=120)
        thread = threading.Thread(target=server.serve_one)
        thread.start()
        subprocess.run([sys.executable, "-m", "adapters.oht_client", "--generation", "A", "--port", str(server.port),
                        "--cert", str(certs[0]), "--username", "bench", "--quiet", "--time", "1",
                        "--network", "none", "--seed", "0", "--log", str(pathlib.Path(tmp) / "games.log")],
                       cwd=ROOT, env=env, capture_output=True, timeout=600)
        thread.join(120)
        server.close()
    times = server.results[0].client_times
    return times[0], max(times)


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
    client = [(("cold" if cold else "warm"), [measure_client(cold) for _ in range(args.runs)]) for cold in (True, False)]
    lines += ["", "The tournament client (generation A, 7x7, 1 s a move) through the local server, which times each "
                  "answer from its request:", "",
              "| cache | first answer | worst answer |", "|---|---|---|"]
    lines += [f"| {kind} | {max(g[0] for g in got):.2f} s | {max(g[1] for g in got):.2f} s |" for kind, got in client]
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
