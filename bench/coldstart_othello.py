"""Cold and warm start of Othello's time-limited adapters, timed as their harnesses time them.

    .venv/bin/python -m bench.coldstart_othello [--runs N] [--out bench/results/coldstart_othello.md]

plies-otp through the judge stand-in (standins/otp_judge.py: 10 s to connect after the start, 1 s for
name/clear_board/play, 10 s for genmove) against the random engine, one round with --time 1; the pipe
agent through the manager stand-in (standins/othello_manager.py: 10 s per answer) against Randy on
8x8.  Cold: NUMBA_CACHE_DIR an empty folder (the stamp lives there too); warm: the usual cache.  A
figure, not a test: the worst over N runs of the time to connect / the first reply / the first move.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from standins import othello_manager as manager
from standins.otp_judge import CONNECT_LIMIT, GENMOVE_LIMIT, SHORT_LIMIT, Judge

ROOT = Path(__file__).resolve().parent.parent
LOG = re.compile(r"-> (\d): '(\w+)[^']*'.*\(([0-9.]+) s\)$")


def env_for(cold_dir):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PLIES_OTP", "PLIES_OTHELLO"))}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    if cold_dir:
        env["NUMBA_CACHE_DIR"] = cold_dir
    return env


def otp_run(cold_dir) -> dict:
    seen = []
    judge = Judge(0, rounds=1, log=seen.append)
    procs = []
    try:
        began = time.perf_counter()
        procs.append(subprocess.Popen([sys.executable, "-m", "adapters.otp", "--time", "1", "127.0.0.1",
                                       str(judge.port)], cwd=ROOT, env=env_for(cold_dir),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        judge.accept()
        connect = time.perf_counter() - began
        procs.append(subprocess.Popen([sys.executable, "-m", "standins.otp_random", "127.0.0.1", str(judge.port)],
                                      cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        judge.accept()
        report = judge.run()
    finally:
        judge.close()
        for p in procs:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
    times = {}
    for line in seen:
        m = LOG.search(line)
        if m and m.group(1) == "0":
            times.setdefault(m.group(2), []).append(float(m.group(3)))
    return {"connect": connect, "name": times["name"][0], "first genmove": times["genmove"][0],
            "worst genmove": max(times["genmove"]), "worst short": max(max(times.get(k, [0])) for k in
                                                                      ("name", "clear_board", "play", "quit")),
            "forfeits": report["forfeits"]}


def agent_run(cold_dir) -> dict:
    agent = str(ROOT / "adapters" / "othello_agent.py")
    env = env_for(cold_dir)
    began = time.perf_counter()
    p = subprocess.Popen(["python3", agent], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    p.stdout.readline()
    name = time.perf_counter() - began
    p.kill()
    p.wait()
    if cold_dir:  # a fresh cold cache for the game itself
        cold_dir = tempfile.mkdtemp(prefix="plies-cold-")
        env = env_for(cold_dir)
    env["PLIES_OTHELLO_TIME"] = "1"  # a short game: the figure is the time to the first answers
    with open(os.devnull, "wb") as err:
        r = manager.play_game(agent, str(ROOT / "standins" / "othello_randy.py"), 8, env=env, stderr=err,
                              final_grace=30.0)
    ours = [m.seconds for m in r.moves if m.color == 1]
    return {"name": name, "first move": ours[0], "worst move": max(ours), "result": r.reason}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "coldstart_othello.md"))
    args = parser.parse_args(argv)
    rows = []
    for kind in ("cold", "warm"):
        worst_otp, worst_agent = {}, {}
        for _ in range(args.runs):
            cold = tempfile.mkdtemp(prefix="plies-cold-") if kind == "cold" else None
            for worst, result in ((worst_otp, otp_run(cold)), (worst_agent, agent_run(
                    tempfile.mkdtemp(prefix="plies-cold-") if kind == "cold" else None))):
                for key, value in result.items():
                    worst[key] = max(worst.get(key, value), value) if isinstance(value, float) else value
        rows.append((kind, worst_otp, worst_agent))
        print(kind, worst_otp, worst_agent, flush=True)
    lines = ["# Cold and warm start of Othello's adapters", "",
             f"`{' '.join(['.venv/bin/python -m bench.coldstart_othello', *(sys.argv[1:] if argv is None else argv)])}` "
             f"({time.strftime('%Y-%m-%d')}; worst of {args.runs} run(s); seconds)", "",
             f"plies-otp through standins/otp_judge.py (limits: connect {CONNECT_LIMIT:g}, name/play "
             f"{SHORT_LIMIT:g}, genmove {GENMOVE_LIMIT:g}; --time 1):", "",
             "| cache | connect | name reply | first genmove | worst genmove | worst short reply | forfeits |",
             "|---|---|---|---|---|---|---|"]
    for kind, o, _ in rows:
        lines.append(f"| {kind} | {o['connect']:.2f} | {o['name']:.3f} | {o['first genmove']:.3f} | "
                     f"{o['worst genmove']:.3f} | {o['worst short']:.3f} | {o['forfeits'] or 'none'} |")
    lines += ["", f"the pipe agent through standins/othello_manager.py, 8x8, dark against Randy (limit "
              f"{manager.TIMEOUT:g} per answer; PLIES_OTHELLO_TIME=1):", "",
              "| cache | name line | first move | worst move | end |", "|---|---|---|---|---|"]
    for kind, _, a in rows:
        lines.append(f"| {kind} | {a['name']:.2f} | {a['first move']:.3f} | {a['worst move']:.3f} | {a['result']} |")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
