"""The first move of a fresh Othello session keeps its budget (issue 35, item 5): seconds to connect,
to answer name and clear_board, and to answer the first genmove, in fresh plies-otp processes.

    python -m bench.othello_first_move [--sessions 10] [--time 1] [--label after] [--out bench/results/othello_first_move.md]

Each session starts ``plies-otp --time T 127.0.0.1 PORT`` against a listening socket here (the judge's
side, as standins/otp_judge.py times it: from the send of a command to its reply), sends ``name``,
``clear_board`` and ``genmove`` at once after the connection (the judge's order), then ``quit``.
The warm compiled-kernel cache is assumed (run ``python -m engines.warmup --game othello`` first).
Figures, not pass/fail: the median and the maximum of each over the sessions; the judge's limits are
10 s to connect, 1 s for name and clear_board, 10 s for genmove, and the budget is T.
"""
import argparse
import datetime
import json
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
STEPS = ("connect", "name", "clear_board", "genmove")


def session(listener, seconds: float) -> dict:
    port = listener.getsockname()[1]
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "adapters.otp", "--time", str(seconds), "127.0.0.1", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        conn, _ = listener.accept()
        times = {"connect": time.perf_counter() - began}
        with conn:
            for command in STEPS[1:]:
                sent = time.perf_counter()
                conn.send(command.encode())
                reply = conn.recv(1024).decode()
                times[command] = time.perf_counter() - sent
                if not reply.startswith(command):
                    raise RuntimeError(f"{command} answered {reply!r}")
            conn.send(b"quit")
            conn.recv(1024)
        proc.wait(30)
        return times
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench.othello_first_move", description=__doc__.split("\n")[0])
    p.add_argument("--sessions", type=int, default=10)
    p.add_argument("--time", type=float, default=1.0)
    p.add_argument("--label", default="now", help="the name of this run in the results (before/after)")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_first_move.md")
    args = p.parse_args(argv)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(60)
    rows = []
    with listener:
        for i in range(args.sessions):
            rows.append(session(listener, args.time))
            print(f"session {i + 1}: " + " ".join(f"{k} {v:.3f}" for k, v in rows[-1].items()), file=sys.stderr, flush=True)
    figures = {k: {"median": statistics.median(r[k] for r in rows), "max": max(r[k] for r in rows)} for k in STEPS}
    data_file = args.out.with_suffix(".json")
    runs = json.loads(data_file.read_text()) if data_file.is_file() else {}
    runs[args.label] = {"sessions": args.sessions, "time": args.time, "figures": figures, "rows": rows,
                        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                        "machine": f"{platform.machine()} {platform.python_version()}"}
    data_file.write_text(json.dumps(runs, indent=1))
    lines = ["# First genmove of a fresh plies-otp session (issue 35, item 5)", "",
             f"`python -m bench.othello_first_move --sessions N --time T --label L`: seconds as the judge's side "
             "sees them (connect from the process's start; each command from its send to the reply).", "",
             "| run | sessions | --time | connect median / max | name median / max | clear_board median / max "
             "| first genmove median / max |", "|---|---|---|---|---|---|---|"]
    for label, run in runs.items():
        f = run["figures"]
        lines.append(f"| {label} ({run['date'][:16]}) | {run['sessions']} | {run['time']:g} | "
                     + " | ".join(f"{f[k]['median']:.3f} / {f[k]['max']:.3f}" for k in STEPS) + " |")
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
