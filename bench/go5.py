"""plies-go5 figures, each measured on the real engine process over GTP: ``python -m bench.go5``.

- genmove latency in the tested mode (``--movefilter --in_tree_knowledge=probabilistic
  --num_total_sim=1``): the course file go5-tests.gtp is sent command by command to ONE engine
  process, each reply timed from the write of the command to the end of its reply; median and max
  over the file's genmove commands (the 64 tests are judged on the way, as a check);
- start-up: from starting the process to the end of its first reply (``name``), median of 5 after one
  untimed start that warms the caches;
- GTP throughput on a 1,000-command file (plays of a seeded random game with legal_moves_for_toPlay,
  prior_knowledge, random_moves, score, showboard and name between them; no genmove), lock-step
  (each command waits for its reply) and pipelined (the whole file written at once);
- genmove with knowledge (``--in_tree_knowledge=probabilistic``, rollouts ``random`` and
  ``probabilistic``) on 7x7 and 9x9 mid-game positions: simulations per second under
  ``num_total_sim 1000``.  Go5's command line has no time option, so the "1 s budget" row sets
  num_total_sim to the simulations per second of the 1000-playout runs, corrected once by the rate
  of a run at that budget, and reports the time per genmove that gives.

The weights and the course file are read from ../shared/data (or --data).  Results go to
bench/results/go5.md and .json.
"""
import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
DATA = ROOT.parent / "shared" / "data"
TESTED_MODE = ["--movefilter", "--in_tree_knowledge=probabilistic", "--num_total_sim=1"]
STARTS = 5
POSITIONS = 5           # mid-game positions per board size for the knowledge genmoves
THROUGHPUT_COMMANDS = 1000


class Engine:
    """One `python -m adapters.go5` process and a timed GTP exchange."""

    def __init__(self, *args: str):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "adapters.go5", *args], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def read_reply(self) -> str:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"the engine ended (exit {self.proc.poll()}) after {lines!r}")
            if line == "\n" and lines:
                return "".join(lines)
            lines.append(line)

    def send(self, command: str) -> tuple[str, float]:
        """(reply, seconds from the write to the end of the reply)."""
        t0 = time.perf_counter()
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        reply = self.read_reply()
        return reply, time.perf_counter() - t0

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(timeout=30)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


# ---- the measurements ----------------------------------------------------------------------------

def tested_mode_latency(weights: Path, course: Path) -> dict:
    from regress.runner import judge, parse_file, reply_from_lines
    commands = parse_file(course)
    engine = Engine(*TESTED_MODE, "--weights", str(weights))
    genmoves, others, passed, tests = [], [], 0, 0
    try:
        for command in commands:
            reply, seconds = engine.send(command.line)
            (genmoves if command.command.split()[0] == "genmove" else others).append(seconds)
            result = judge(command, reply_from_lines(reply.rstrip("\n").split("\n") + [""]))
            if result is not None:
                tests += 1
                passed += result.outcome == "pass"
    finally:
        engine.close()
    return {"genmoves": len(genmoves), "genmove_median_ms": ms(statistics.median(genmoves)),
            "genmove_max_ms": ms(max(genmoves)), "genmove_first_ms": ms(genmoves[0]),
            "genmove_max_after_first_ms": ms(max(genmoves[1:])),
            "other_commands": len(others), "other_median_ms": ms(statistics.median(others)),
            "file_total_s": round(sum(genmoves) + sum(others), 3), "tests": tests, "passed": passed}


def start_up(weights: Path) -> dict:
    def once():
        engine = Engine(*TESTED_MODE, "--weights", str(weights))
        engine.proc.stdin.write("name\n")
        engine.proc.stdin.flush()
        assert engine.read_reply() == "= Go5\n"
        seconds = time.perf_counter() - engine.started
        engine.close()
        return seconds
    once()  # warms numba's cache files and the OS file cache
    times = [once() for _ in range(STARTS)]
    return {"runs": STARTS, "median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3)}


def random_game(size: int, moves: int, seed: int) -> list[str]:
    """'play' commands of a seeded random game with the engine's own go5 rules (legal moves only)."""
    from engines.games.go import Go
    from protocols import gtp
    game = Go(size, rules="go5")
    state = game.initial_state()
    rng = random.Random(seed)
    out = []
    for i in range(moves):
        colour = i % 2
        legal = game.go5_legal_points(state, colour)
        move = rng.choice(legal) if legal and rng.random() > 0.03 else game.pass_action
        state = game.go5_play(state, move, colour)
        name = "pass" if move == game.pass_action else gtp.format_vertex(game.point_of(move), size)
        out.append(f"play {'bw'[colour]} {name}")
    return out


def throughput_file(n: int = THROUGHPUT_COMMANDS) -> list[str]:
    commands, seed = [], 0
    while len(commands) < n:
        commands.append("boardsize 7")
        for play in random_game(7, 40, seed):
            commands += [play, "legal_moves_for_toPlay", "prior_knowledge", "random_moves", "score"]
            if len(commands) % 11 == 0:
                commands += ["showboard", "name"]
        seed += 1
    return commands[:n]


def throughput(weights: Path) -> dict:
    commands = throughput_file()
    engine = Engine(*TESTED_MODE, "--weights", str(weights))
    try:
        engine.send("name")
        t0 = time.perf_counter()
        for command in commands:
            reply, _ = engine.send(command)
            assert reply.startswith("="), (command, reply)
        lockstep = time.perf_counter() - t0
        engine.send("clear_board")
        t0 = time.perf_counter()
        engine.proc.stdin.write("".join(c + "\n" for c in commands))
        engine.proc.stdin.flush()
        for _ in commands:
            engine.read_reply()
        pipelined = time.perf_counter() - t0
    finally:
        engine.close()
    kinds = {}
    for command in commands:
        kinds[command.split()[0]] = kinds.get(command.split()[0], 0) + 1
    return {"commands": len(commands), "mix": kinds, "lockstep_per_s": round(len(commands) / lockstep),
            "pipelined_per_s": round(len(commands) / pipelined)}


def knowledge_genmoves(weights: Path, size: int, rollouts: str, sims: int) -> dict:
    """Time of 'genmove b' (Black to move, POSITIONS seeded mid-game positions) with sims playouts."""
    engine = Engine("--in_tree_knowledge=probabilistic", "--movefilter", f"--simulations={rollouts}",
                    f"--num_total_sim={sims}", "--weights", str(weights))
    times = []
    try:
        engine.send("genmove b")  # warm-up: the first search pays for loading the kernels
        for seed in range(POSITIONS):
            engine.send(f"boardsize {size}")
            for play in random_game(size, 2 * size, 100 * size + seed):
                engine.send(play)
            reply, seconds = engine.send("genmove b")
            assert reply.startswith("= "), reply
            times.append(seconds)
    finally:
        engine.close()
    median = statistics.median(times)
    return {"size": size, "rollouts": rollouts, "num_total_sim": sims, "genmoves": len(times),
            "genmove_median_s": round(median, 3), "genmove_max_s": round(max(times), 3),
            "sims_per_s": round(sims / median)}


# ---- the report ------------------------------------------------------------------------------------

def report_md(r: dict) -> str:
    lat, st, tp = r["tested_mode"], r["start_up"], r["throughput"]
    lines = [
        "# plies-go5: GTP figures", "",
        f"{r['when']} - {r['machine']} - load average {r['load_start']} at start, {r['load_end']} at end - "
        f"Python {r['python']}", "",
        "| figure | value |", "|---|---|",
        f"| course tests passed during the timing run | {lat['passed']}/{lat['tests']} |",
        f"| genmove latency, tested mode, over the course file's {lat['genmoves']} genmoves | "
        f"median {lat['genmove_median_ms']} ms, max {lat['genmove_max_ms']} ms (the first, which loads the "
        f"search kernels: {lat['genmove_first_ms']} ms; max of the others {lat['genmove_max_after_first_ms']} ms) |",
        f"| other commands of the course file ({lat['other_commands']}) | median {lat['other_median_ms']} ms; "
        f"whole file {lat['file_total_s']} s |",
        f"| process start to first reply (median of {st['runs']}) | {st['median_s']} s "
        f"(min {st['min_s']}, max {st['max_s']}) |",
        f"| GTP throughput, {tp['commands']}-command file, lock-step | {tp['lockstep_per_s']} commands/s |",
        f"| GTP throughput, same file, pipelined | {tp['pipelined_per_s']} commands/s |",
        "", "genmove with knowledge (`--in_tree_knowledge=probabilistic --movefilter`), Black to move in "
        f"{POSITIONS} seeded mid-game positions per size:", "",
        "| board | rollouts | num_total_sim | genmove median s | max s | simulations/s |", "|---|---|---|---|---|---|",
    ]
    for row in r["knowledge"]:
        label = f"{row['num_total_sim']}" + (" (the 1 s budget)" if row.get("budget_1s") else "")
        lines.append(f"| {row['size']}x{row['size']} | {row['rollouts']} | {label} | {row['genmove_median_s']} | "
                     f"{row['genmove_max_s']} | {row['sims_per_s']} |")
    lines += ["", "- latencies are client-side: from writing the command to reading the end of its reply.",
              "- the 1 s budget: Go5's command line has no time option, so num_total_sim is set to the "
              "simulations per second of the 1000-playout run of the same board and rollouts, corrected once "
              "by the rate measured at that budget.",
              f"- throughput mix: {', '.join(f'{k} {v}' for k, v in sorted(tp['mix'].items()))}.",
              f"- command: `{r['command']}`", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.go5", description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA), help="directory of go5-course-weights.txt and go5-tests.gtp")
    parser.add_argument("--out", default=str(RESULTS / "go5"), help="results file stem (.md, .json)")
    args = parser.parse_args(argv)
    data = Path(args.data)
    weights, course = data / "go5-course-weights.txt", data / "go5-tests.gtp"
    for path in (weights, course):
        if not path.is_file():
            print(f"bench.go5: {path} is missing (use --data DIR)", file=sys.stderr)
            return 2
    r = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
         "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
         "python": platform.python_version(), "load_start": [round(x, 2) for x in os.getloadavg()],
         "command": "python -m bench.go5" + (" " + " ".join(argv) if argv else "")}
    r["tested_mode"] = tested_mode_latency(weights, course)
    r["start_up"] = start_up(weights)
    r["throughput"] = throughput(weights)
    rows = []
    for size in (7, 9):
        for rollouts in ("random", "probabilistic"):
            row = knowledge_genmoves(weights, size, rollouts, 1000)
            # the 1 s budget: num_total_sim from the 1000-playout rate, corrected once by its own rate
            first = knowledge_genmoves(weights, size, rollouts, row["sims_per_s"])
            rate = first["num_total_sim"] / first["genmove_median_s"]
            budget = knowledge_genmoves(weights, size, rollouts, round(rate))
            rows += [row, {**budget, "budget_1s": True}]
    r["knowledge"] = rows
    r["load_end"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    md = report_md(r)
    out.with_suffix(".md").write_text(md)
    out.with_suffix(".json").write_text(json.dumps(r, indent=1) + "\n")
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
