"""Each adapter's seconds a move through its harness's local stand-in on a busy machine (a figure, not
a test): issue 32 asks that the deadline hold with two other busy processes on the two cores.

    python -m bench.adapter_deadlines [--games 2] [--seconds 1] [--busy 2] [--only otp,gtp-go,...]
                                      [--go-moves 0] [--out bench/results/adapter_deadlines.md]

While ``--busy`` processes spin (``python3 -c 'while 1: pass'``, started here and stopped at the end),
each adapter plays ``--games`` games at ``--seconds`` a move through the stand-in of its harness:
  otp        plies-otp ``--time S`` against the random OTP engine, through the OTP judge
             (standins/otp_judge.py); seconds: the judge's genmove latency (its limit is 10 s);
  othello    the pipe agent (adapters/othello_agent.py, PLIES_OTHELLO_TIME=S) against randy, through
             the game manager (standins/othello_manager.py); seconds: from the board line to the answer;
  nboard     plies-nboard ``--time S`` through the stand-in GUI (standins/nboard_gui.py) at ``set depth 60``
             (so the time decides), its go for both colours; seconds: from go to the === line;
  littlego   my_player3.py (``me`` with a CPU budget of S) against ``random``, through the Little-Go host
             (standins/littlego_host.py), a fresh process a move; seconds: wall time of the process
             (spawn to exit) and its CPU time, which the host grades (limit 10 s of CPU);
  gtp-go     plies-gtp ``--time S --no-resign`` on 9x9 playing both colours (genmove b / genmove w),
             driven by regress/gtp_client.py (the referee's controller); seconds: command to reply;
  gtp-hex    plies-gtp-hex ``--time S`` on 7x7, both colours, the same way;
  oht        the tournament client (adapters/oht_client.py ``--time S``) against the server's random
             opponent on 7x7, through the local server over TLS (standins/oht_server.py); seconds: the
             server's wait from sending the state to reading the action.
Go5 (plies-go5) is left out: its budget is a number of simulations (the course's), not a clock.
The table gives per adapter the moves measured, the median and the maximum seconds a move, and how
many moves went over the budget (S; for Little-Go its CPU seconds against S) and over the harness's
own limit.  ``--go-moves N`` caps each GTP game at N moves (a quick look; 0: until two passes).
"""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
ADAPTERS = ("otp", "othello", "nboard", "littlego", "gtp-go", "gtp-hex", "oht")
BUSY = "while 1: pass"


def start_busy(count: int) -> list:
    """count spinning processes (each its own pid, stopped by stop_busy)."""
    return [subprocess.Popen(["python3", "-c", BUSY], stdin=subprocess.DEVNULL) for _ in range(count)]


def stop_busy(procs: list) -> None:
    for proc in procs:
        proc.kill()
        proc.wait()


# ---- one function per adapter: (seconds a move, cpu seconds a move or None, the harness's limit, notes) ---
def run_otp(games: int, seconds: float, args) -> tuple:
    from standins import otp_judge
    me = [sys.executable, "-m", "adapters.otp", "--time", str(seconds)]
    randy = [sys.executable, "-m", "standins.otp_random"]
    latencies = []
    for game in range(games):  # one round each: plies black in even games, white in odd ones
        commands = [me, randy] if game % 2 == 0 else [randy, me]
        report = otp_judge.run_match(commands, rounds=1)
        latencies += report["latency"][0 if game % 2 == 0 else 1]
        if report["forfeits"]:
            print(f"otp: forfeits {report['forfeits']}", file=sys.stderr)
    return latencies, None, otp_judge.GENMOVE_LIMIT, ""


def run_othello(games: int, seconds: float, args) -> tuple:
    from standins import othello_manager
    env = dict(os.environ, PLIES_OTHELLO_TIME=str(seconds), PLIES_OTHELLO_PYTHON=sys.executable)
    agent, randy = "adapters/othello_agent.py", "standins/othello_randy.py"
    times = []
    for game in range(games):
        colour = 1 if game % 2 == 0 else 2
        a, b = (agent, randy) if colour == 1 else (randy, agent)
        result = othello_manager.play_game(a, b, size=8, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        times += [m.seconds for m in result.moves if m.color == colour]
    return times, None, othello_manager.TIMEOUT, ""


def run_nboard(games: int, seconds: float, args) -> tuple:
    from standins import nboard_gui
    command = [sys.executable, "-m", "adapters.nboard", "--time", str(seconds)]
    report = nboard_gui.run(command, games=games, depth=60, hints=0, limit=60.0 + 120 * seconds, cwd=ROOT)
    first = report.moves[0][1] if report.moves else 0.0  # NBoard has no clock: the first go waits for the load
    return ([s for _, s in report.moves[1:]], None, None,
            f"go at set depth 60 (the time decides), both colours; the first go ({first:.2f} s, the engine's "
            f"load, which a GUI waits for) left out")


def run_littlego(games: int, seconds: float, args) -> tuple:
    from standins import littlego_host as host
    me, other = host.make_player("me", seconds), host.make_player("random")
    result = host.run_match(me, other, games, seed="1")  # me black in the even games
    moves = [m for record in result.games for m in record.moves if m.player == me.name]
    return [m.wall for m in moves], [m.cpu for m in moves], host.TIME_LIMIT, "limit and over-budget counts on CPU seconds"


def gtp_self_play(command: list, games: int, cap: int) -> list:
    from regress.gtp_client import GtpClient, GtpFailure
    client = GtpClient(command, cwd=ROOT)
    try:
        for game in range(games):
            client.ok("clear_board")
            passes, moves = 0, 0
            while passes < 2 and (cap == 0 or moves < cap):
                try:
                    move = client.genmove("bw"[moves % 2], timeout=60)
                except GtpFailure as failure:  # a Hex game is over once a side connects: no pass ends it
                    if "game is over" in str(failure):
                        break
                    raise
                text = move.strip().lower()
                if text == "resign":
                    break
                passes = passes + 1 if text == "pass" else 0
                moves += 1
        client.ok("quit")
    finally:
        client.kill()
    return list(client.seconds)


def run_gtp_go(games: int, seconds: float, args) -> tuple:
    command = [sys.executable, "-m", "adapters.go_gtp", "--size", "9", "--time", str(seconds), "--no-resign"]
    return gtp_self_play(command, games, args.go_moves), None, None, "9x9, both colours"


def run_gtp_hex(games: int, seconds: float, args) -> tuple:
    command = [sys.executable, "-m", "adapters.gtp_hex", "--size", "7", "--time", str(seconds)]
    return gtp_self_play(command, games, args.go_moves), None, None, "7x7, both colours"


def run_oht(games: int, seconds: float, args) -> tuple:
    from standins import oht_server as S
    with tempfile.TemporaryDirectory() as tmp:
        certs = S.self_signed(tmp)
        config = S.ServerConfig(generation="A", sizes=(7,), series=1, games=games, move_timeout=600)
        server = S.Server(*certs, config, S.RandomOpponent(1), out=None, timeout=600)
        thread = threading.Thread(target=server.serve_one)
        thread.start()
        command = [sys.executable, "-m", "adapters.oht_client", "--generation", "A", "--port", str(server.port),
                   "--cert", str(certs[0]), "--time", str(seconds), "--quiet", "--username", "bench",
                   "--log", str(Path(tmp) / "games.log"),
                   "--timeout", "600"]
        env = dict(os.environ, PLIES_OHT_PASSWORD="bench", IT3105_AUTH="bench")
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        thread.join(600)
        server.close()
    if done.returncode:
        print(f"oht: the client exited {done.returncode}: {done.stderr.strip()[-300:]}", file=sys.stderr)
    result = server.results[0] if server.results else S.TournamentResult()
    return list(result.client_times), None, S.MOVE_TIMEOUT, "7x7 against the server's random opponent"


RUNS = {"otp": run_otp, "othello": run_othello, "nboard": run_nboard, "littlego": run_littlego, "gtp-go": run_gtp_go,
        "gtp-hex": run_gtp_hex, "oht": run_oht}


def row(name: str, seconds: float, times: list, cpu, limit, notes: str) -> dict:
    graded = cpu if cpu is not None else times
    return {"adapter": name, "moves": len(times),
            "median": statistics.median(times) if times else None, "max": max(times) if times else None,
            "cpu_median": statistics.median(cpu) if cpu else None, "cpu_max": max(cpu) if cpu else None,
            "over_budget": sum(t > seconds for t in graded),
            "over_limit": sum(t > limit for t in graded) if limit else None, "limit": limit, "notes": notes}


def report(rows: list, settings: dict) -> str:
    def s(x):
        return "-" if x is None else f"{x:.3f}"
    lines = ["# Seconds a move of each adapter through its harness's stand-in, on a busy machine", "",
             f"{settings['date']} - {settings['machine']} - {settings['cpus']} CPUs - load average "
             f"{settings['load']} at start - {settings['busy']} busy processes - cold caches: {settings['cold']} - "
             f"{settings['games']} games an "
             f"adapter at {settings['seconds']:g} s a move", "",
             f"    {settings['command']}", "",
             "| adapter | moves | median s | max s | CPU median s | CPU max s | over budget | harness limit s | "
             "over limit | notes |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        limit = "-" if r["limit"] is None else f"{r['limit']:g}"
        over_limit = "-" if r["over_limit"] is None else r["over_limit"]
        lines.append(f"| {r['adapter']} | {r['moves']} | {s(r['median'])} | {s(r['max'])} | {s(r['cpu_median'])} | "
                     f"{s(r['cpu_max'])} | {r['over_budget']} | {limit} | {over_limit} | {r['notes']} |")
    lines += ["", "- seconds: wall time as the stand-in measures it (Little-Go: the process from spawn to exit, its "
                  "CPU time beside it); over budget: moves above the budget (Little-Go: CPU seconds above it); "
                  "over limit: moves the harness would have refused (a lost game)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.adapter_deadlines", description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--busy", type=int, default=2, help="spinning processes started for the run")
    p.add_argument("--only", default=",".join(ADAPTERS), help=f"a comma-separated subset of {', '.join(ADAPTERS)}")
    p.add_argument("--go-moves", type=int, default=0, help="cap each GTP game at this many moves (0: none)")
    p.add_argument("--out", type=Path, default=RESULTS / "adapter_deadlines.md")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        p.error(f"unknown adapters {', '.join(unknown)}; choose among {', '.join(ADAPTERS)}")
    settings = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": platform.platform(), "cpus": os.cpu_count(),
                "load": " ".join(f"{x:.2f}" for x in os.getloadavg()), "busy": args.busy, "games": args.games,
                "seconds": args.seconds, "command": "python -m bench.adapter_deadlines " + " ".join(
                    argv if argv is not None else sys.argv[1:])}
    from engines import warmup
    cold = [game for game in ("go", "othello", "hex") if not warmup.is_warm(game)]
    if cold:  # a cold adapter plays fallback moves while it compiles: not the figure this bench is for
        print(f"warning: the compiled-kernel cache of {', '.join(cold)} is cold; run `python -m engines.warmup` "
              f"first", file=sys.stderr)
    settings["cold"] = ", ".join(cold) or "none"
    busy = start_busy(args.busy)
    rows = []
    try:
        for name in names:
            t0 = time.perf_counter()
            times, cpu, limit, notes = RUNS[name](args.games, args.seconds, args)
            rows.append(row(name, args.seconds, times, cpu, limit, notes))
            r = rows[-1]
            print(f"{name}: {r['moves']} moves, median {r['median']}, max {r['max']} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    finally:
        stop_busy(busy)
    text = report(rows, settings)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
