"""plies-gtp-hex against MoHex 2.0 (benzene), refereed over GTP (issue 33's yardstick).

MoHex is not part of the project: build it yourself (benzene-vanilla-cmake) and name its binary in
the environment variable PLIES_MOHEX; without it this bench says so and exits with status 0.

    PLIES_MOHEX=/path/to/mohex nice -n 15 .venv/bin/python -m bench.hex_mohex --size 9 --games 10 --time 1

Both engines are processes driven over pipes by standins/hex_referee.py (every move and the winner
checked against our own copy of the rules, both engines' final_score must agree); colours
alternate, plies Black in the even games; no swap.  MoHex is set up with

    param_game allow_swap 0
    param_mohex num_threads 1, ponder 0, use_time_management 0, max_time T (--mohex-time, default --time)
    param_mohex max_games N (only with --mohex-games: a fixed number of simulations a move)

MoHex's max_time is not a hard limit: a pre-search, a 1 s floor on its main search and a 1.5x
extension when its search is unstable make it spend more, so each side's seconds per genmove (wall
time as the referee sees it: median, mean and max) are reported beside the results; compare at
equal mean time (--time for plies is from the command's arrival, less its margin).  With
--plies-game-time G plies plays on benzene's game clock instead (G seconds a game, shared over its
moves, more on unstable ones): set G so that its mean time a move matches MoHex's.

Data: every finished game is one JSON line in bench/results/hex_mohex.games.jsonl (its setting,
who was Black, the winner, the moves and each side's seconds a move), so an interrupted run resumes
where it stopped (the next game number and colour follow from the games already there with the same
setting).  The tables bench/results/hex_mohex.{md,json} are rebuilt from that file after each game:
one row a setting, plies' wins overall, as Black and as White, each with its 95 % Wilson interval.
(`--report` rebuilds them from the log alone.)
"""
import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.strength import wilson
from regress.gtp_client import EngineFailure, GtpClient
from standins.hex_referee import ENGINE, ROOT, referee_game

RESULTS = Path(__file__).resolve().parent / "results"
ENV = "PLIES_MOHEX"
COLOURS = ("black", "white")


class TimedProcess(GtpClient):
    """An engine process (regress/gtp_client.py) whose genmoves wait at most ``move_timeout``
    seconds (a hung engine is killed and the run stops with EngineTimeout rather than waiting for
    ever), run in ``cwd``."""

    def __init__(self, command, cwd, move_timeout=None):
        super().__init__(command, cwd=cwd)
        self.move_timeout = move_timeout

    def genmove(self, colour, timeout=None, command="genmove"):
        return super().genmove(colour, self.move_timeout if timeout is None else timeout, command)


def mohex_setup(move_time: float, max_games: int | None) -> list[str]:
    """The GTP commands that set MoHex up before the first game."""
    commands = ["param_game allow_swap 0",
                "param_mohex num_threads 1",
                "param_mohex ponder 0",
                "param_mohex use_time_management 0",
                f"param_mohex max_time {move_time:g}"]
    if max_games is not None:
        commands.append(f"param_mohex max_games {max_games}")
    return commands


def setting_key(options, mohex_version: str) -> dict:
    """What makes two games comparable (the games of one table row)."""
    key = {"size": options.size, "plies_time": options.time, "plies_args": shlex.split(options.plies_args),
           "mohex_time": options.mohex_time if options.mohex_time is not None else options.time,
           "mohex_games": options.mohex_games, "mohex": mohex_version}
    if options.colour != "alternate":  # (the alternating games' keys stay as they were)
        key["plies_colour"] = options.colour
    if options.plies_game_time:
        key["plies_game_time"] = options.plies_game_time
    return key


def read_games(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def describe(key: dict) -> str:
    mohex = f"max_time {key['mohex_time']:g}"
    if key["mohex_games"] is not None:
        mohex += f", max_games {key['mohex_games']}"
    plies = f"--time {key['plies_time']:g}" + (f" {shlex.join(key['plies_args'])}" if key["plies_args"] else "")
    if key.get("plies_game_time"):
        plies = f"game_time {key['plies_game_time']:g}" + plies[len(f"--time {key['plies_time']:g}"):]
    if key.get("plies_colour"):
        plies += f" (always {key['plies_colour'].capitalize()})"
    return plies, mohex


SEARCHED = 0.1  # seconds: a genmove under this was answered without a search (a decided position)


def seconds(values: list[float]) -> dict:
    """Median, mean and max seconds a genmove, and the mean over the moves that were searched (MoHex
    answers decided positions at once, so its overall mean hides what a searched move costs)."""
    searched = [v for v in values if v >= SEARCHED]
    return {"median": statistics.median(values), "mean": statistics.mean(values), "max": max(values),
            "moves": len(values), "searched_mean": statistics.mean(searched) if searched else 0.0,
            "searched_moves": len(searched)}


def summarise(games: list[dict]) -> list[dict]:
    """One row a setting: plies' wins overall and by colour with 95 % intervals, and both sides'
    seconds per genmove."""
    rows = {}
    for game in games:
        rows.setdefault(json.dumps(game["key"], sort_keys=True), []).append(game)
    table = []
    for text, group in rows.items():
        row = {"key": json.loads(text), "games": len(group)}
        won = sum(g["winner"] == "plies" for g in group)
        row["plies_won"] = won
        row["ci95"] = wilson(won / len(group), len(group))
        for colour in COLOURS:
            mine = [g for g in group if g["plies"] == colour]
            wins = sum(g["winner"] == "plies" for g in mine)
            row[f"as_{colour}"] = {"won": wins, "games": len(mine),
                                   "ci95": wilson(wins / len(mine), len(mine)) if mine else (0.0, 1.0)}
        row["plies_s"] = seconds([s for g in group for s in g["plies_s"]])
        row["mohex_s"] = seconds([s for g in group for s in g["mohex_s"]])
        row["mean_length"] = statistics.mean(len(g["moves"]) for g in group)
        row["plies_game_s_max"] = max(sum(g["plies_s"]) for g in group)  # a game clock's test: never over it
        row["load"] = [g["load"] for g in group if "load" in g]
        table.append(row)
    return table


def percent(low_high) -> str:
    return f"{100 * low_high[0]:.0f}-{100 * low_high[1]:.0f} %"


def report(table: list[dict]) -> str:
    lines = ["# plies-gtp-hex against MoHex 2.0 (bench/hex_mohex.py)", "",
             ("Refereed over GTP by standins/hex_referee.py (every move checked against our rules), no swap, "
             "colours alternating (unless a row says always), MoHex with `param_game allow_swap 0`, `param_mohex num_threads 1`, "
             "`ponder 0`, `use_time_management 0`, `max_time T`.  Seconds are each genmove's wall time as "
             "the referee sees it: median / mean / max.  Command: "
             "`PLIES_MOHEX=... nice -n 15 python -m bench.hex_mohex --size N --games G --time T`."), "",
             ("| size | plies | MoHex | games | plies won (95 %) | as Black (95 %) | as White (95 %) | "
             "mean length | plies s/move med / mean / max | MoHex s/move med / mean / max | "
             "searched moves: plies mean s (n), MoHex mean s (n) |"),
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in table:
        plies, mohex = describe(row["key"])
        b, w, ps, ms = row["as_black"], row["as_white"], row["plies_s"], row["mohex_s"]
        lines.append(
            f"| {row['key']['size']} | `{plies}` | {mohex} | {row['games']} | {row['plies_won']}/{row['games']} "
            f"({percent(row['ci95'])}) | {b['won']}/{b['games']} ({percent(b['ci95'])}) | "
            f"{w['won']}/{w['games']} ({percent(w['ci95'])}) | {row['mean_length']:.1f} | "
            f"{ps['median']:.2f} / {ps['mean']:.2f} / {ps['max']:.2f} | "
            f"{ms['median']:.2f} / {ms['mean']:.2f} / {ms['max']:.2f} | "
            f"{ps['searched_mean']:.2f} ({ps['searched_moves']}), {ms['searched_mean']:.2f} ({ms['searched_moves']}) |")
    versions = sorted({row["key"]["mohex"] for row in table})
    loads = [g for row in table for g in row["load"]]
    lines += ["", f"Searched moves: genmoves of {SEARCHED:g} s or more (MoHex answers decided positions "
              "at once).  MoHex: " + ", ".join(versions) + "."]
    clocked = [row for row in table if row["key"].get("plies_game_time")]
    for row in clocked:
        lines.append(f"plies on a game clock of {row['key']['plies_game_time']:g} s: at most "
                     f"{row['plies_game_s_max']:.1f} s in a game (its genmoves summed as the referee saw them).")
    if loads:
        lines.append(f"Machine load (1-minute load average at each game's end, 2 cores): median "
                     f"{statistics.median(loads):.1f}, max {max(loads):.1f}.")
    return "\n".join(lines) + "\n"


def write_tables(games: list[dict], out: Path) -> None:
    table = summarise(games)
    out.with_suffix(".md").write_text(report(table))
    out.with_suffix(".json").write_text(json.dumps(table, indent=1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=10, help="games of this setting in the log, at the end")
    parser.add_argument("--time", type=float, default=1.0, help="plies' seconds a move (plies-gtp-hex --time)")
    parser.add_argument("--mohex-time", type=float, help="MoHex's max_time (default: --time)")
    parser.add_argument("--mohex-games", type=int, help="MoHex's max_games (simulations a move), if set")
    parser.add_argument("--plies-args", default="", help="further plies-gtp-hex arguments")
    parser.add_argument("--plies-game-time", type=float, default=0.0,
                        help="plies' seconds for each game on benzene's game clock (param_game game_time; "
                             "--time then no longer applies): compare at equal mean time a move")
    parser.add_argument("--move-timeout", type=float, default=120.0,
                        help="seconds after which a genmove counts as hung (the run stops)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--colour", choices=("alternate", "black", "white"), default="alternate",
                        help="plies' colour: alternating (Black in the odd games) or always this one (an "
                             "experiment's games where the change can tell: as White plies rarely wins on 9x9)")
    parser.add_argument("--out", default=str(RESULTS / "hex_mohex"),
                        help="path stem of the tables (.md, .json) and the game log (.games.jsonl)")
    parser.add_argument("--report", action="store_true",
                        help="only rebuild the tables from the game log (no MoHex needed)")
    options = parser.parse_args(argv)
    out = Path(options.out)
    log = out.with_suffix(".games.jsonl")
    if options.report:
        games = read_games(log)
        if games:
            write_tables(games, out)
            print(report(summarise(games)))
        return 0
    binary = os.environ.get(ENV)
    if not binary:
        print(f"{ENV} is not set: name a MoHex 2.0 binary (benzene-vanilla-cmake's build/src/mohex/mohex) "
              f"to run this bench; nothing was played.", file=sys.stderr)
        return 0
    if not Path(binary).is_file():
        print(f"{ENV}={binary} is no file", file=sys.stderr)
        return 2
    mohex_time = options.mohex_time if options.mohex_time is not None else options.time
    timeout = options.move_timeout

    # MoHex writes its log (default.log) where it runs: a directory of its own, not the project
    mohex = TimedProcess([binary], tempfile.mkdtemp(prefix="plies-mohex-"), timeout)
    plies = TimedProcess([*ENGINE, "--size", str(options.size), "--time", f"{options.time:g}", "--no-swap",
                          "--seed", str(options.seed), *shlex.split(options.plies_args)], ROOT, timeout)
    try:
        version = f"{mohex.ok('name', timeout)} {mohex.ok('version', timeout)}"
        for command in mohex_setup(mohex_time, options.mohex_games):
            mohex.ok(command, timeout)
        if options.plies_game_time:  # each new game restarts the clock
            plies.ok(f"param_game game_time {options.plies_game_time:g}", timeout)
        key = setting_key(options, version)
        done = sum(g["key"] == key for g in read_games(log))
        print(f"{done} games of this setting already in {log}; playing {max(0, options.games - done)} more",
              flush=True)
        for number in range(done, options.games):
            plies_colour = {"alternate": number % 2, "black": 0, "white": 1}[options.colour]  # (number from 0)
            players = (plies, mohex) if plies_colour == 0 else (mohex, plies)
            before = {id(p): len(p.seconds) for p in players}
            started = time.time()
            winner, moves = referee_game(players, options.size, random.Random(options.seed + number))
            record = {"key": key, "game": number + 1, "plies": COLOURS[plies_colour],
                      "winner": "plies" if players[winner] is plies else "mohex", "moves": moves,
                      "plies_s": [round(s, 4) for s in plies.seconds[before[id(plies)]:]],
                      "mohex_s": [round(s, 4) for s in mohex.seconds[before[id(mohex)]:]],
                      "wall_s": round(time.time() - started, 1), "load": round(os.getloadavg()[0], 2)}
            with log.open("a") as f:
                f.write(json.dumps(record) + "\n")
            write_tables(read_games(log), out)
            print(f"game {number + 1}: plies {record['plies']}, {record['winner']} won in {len(moves)} moves; "
                  f"plies s/move max {max(record['plies_s'], default=0):.2f}, "
                  f"MoHex {max(record['mohex_s'], default=0):.2f}", flush=True)
    except EngineFailure as failure:
        print(f"stopped: {failure}\nMoHex's stderr ends:\n{mohex.stderr_tail()}\n"
              f"plies' stderr ends:\n{plies.stderr_tail()}", file=sys.stderr)
        return 1
    finally:
        mohex.close()
        plies.close()
    games = read_games(log)
    if games:
        write_tables(games, out)
        print(report(summarise(games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
