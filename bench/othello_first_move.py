"""The first move of a fresh Othello session keeps its budget (issue 35, item 5): seconds to connect,
to answer name and clear_board, and to answer the first genmove, in fresh plies-otp processes; with
``--adapter agent``, the pipe agent's seconds to its name line and to its first move.

    python -m bench.othello_first_move [--adapter otp|agent] [--sessions 10] [--time 1] [--label after]

Each session starts ``plies-otp --time T 127.0.0.1 PORT`` against a listening socket here (the judge's
side, as standins/otp_judge.py times it: from the send of a command to its reply), sends ``name``,
``clear_board`` and ``genmove`` at once after the connection (the judge's order), then ``quit``.
The warm compiled-kernel cache is assumed (run ``python -m engines.warmup --game othello`` first).
Figures, not pass/fail: the median and the maximum of each over the sessions; the judge's limits are
10 s to connect, 1 s for name and clear_board, 10 s for genmove, and the budget is T.  The agent
(adapters/othello_agent.py run as the manager runs it, PLIES_OTHELLO_TIME=T) gets the flags line
``1,-1,0,1,1`` and the start board as soon as its name is read; the manager allows 10 s a move.
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
AGENT_STEPS = ("name", "first move")


def agent_session(seconds: float) -> dict:
    import os
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_OTHELLO")}
    env.update(PLIES_OTHELLO_TIME=str(seconds), PLIES_OTHELLO_PYTHON=sys.executable)
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(ROOT / "adapters" / "othello_agent.py")], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        proc.stdout.readline()
        times = {"name": time.perf_counter() - began}
        board = [[0] * 8 for _ in range(8)]
        board[3][3] = board[4][4] = 2
        board[3][4] = board[4][3] = 1
        proc.stdin.write(f"1,-1,0,1,1\nSCORE 2 2\n{board!r}\n".encode())
        sent = time.perf_counter()
        proc.stdin.flush()
        reply = proc.stdout.readline()
        times["first move"] = time.perf_counter() - sent
        if len(reply.split()) != 2:
            raise RuntimeError(f"the agent answered {reply!r}")
        return times
    finally:
        proc.kill()
        proc.wait()


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
    p.add_argument("--adapter", choices=("otp", "agent"), default="otp")
    p.add_argument("--sessions", type=int, default=10)
    p.add_argument("--time", type=float, default=1.0)
    p.add_argument("--label", default="now", help="the name of this run in the results (before/after)")
    p.add_argument("--out", type=Path, default=RESULTS / "othello_first_move.md")
    args = p.parse_args(argv)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(60)
    rows, steps = [], STEPS if args.adapter == "otp" else AGENT_STEPS
    with listener:
        for i in range(args.sessions):
            rows.append(session(listener, args.time) if args.adapter == "otp" else agent_session(args.time))
            print(f"session {i + 1}: " + " ".join(f"{k} {v:.3f}" for k, v in rows[-1].items()), file=sys.stderr, flush=True)
    figures = {k: {"median": statistics.median(r[k] for r in rows), "max": max(r[k] for r in rows)} for k in steps}
    data_file = args.out.with_suffix(".json")
    runs = json.loads(data_file.read_text()) if data_file.is_file() else {}
    runs[f"{args.adapter} {args.label}"] = {"adapter": args.adapter, "sessions": args.sessions, "time": args.time, "figures": figures, "rows": rows,
                        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                        "machine": f"{platform.machine()} {platform.python_version()}"}
    data_file.write_text(json.dumps(runs, indent=1))
    lines = ["# First genmove of a fresh plies-otp session (issue 35, item 5)", "",
             "`python -m bench.othello_first_move --sessions N --time T --label L`: seconds as the judge's side "
             "sees them (connect from the process's start; each command from its send to the reply).", "",
             "| run | sessions | --time | connect median / max | name median / max | clear_board median / max "
             "| first genmove median / max |", "|---|---|---|---|---|---|---|"]
    for label, run in runs.items():
        f = run["figures"]
        if run.get("adapter", "otp") == "otp":
            lines.append(f"| {label} ({run['date'][:16]}) | {run['sessions']} | {run['time']:g} | "
                         + " | ".join(f"{f[k]['median']:.3f} / {f[k]['max']:.3f}" for k in STEPS) + " |")
    agent = [(label, run) for label, run in runs.items() if run.get("adapter") == "agent"]
    if agent:
        lines += ["", "The pipe agent (no limit on the name line; 10 s a move):", "",
                  "| run | sessions | PLIES_OTHELLO_TIME | name median / max | first move median / max |",
                  "|---|---|---|---|---|"]
        lines += [f"| {label} ({run['date'][:16]}) | {run['sessions']} | {run['time']:g} | "
                  + " | ".join(f"{run['figures'][k]['median']:.3f} / {run['figures'][k]['max']:.3f}" for k in AGENT_STEPS)
                  + " |" for label, run in agent]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
