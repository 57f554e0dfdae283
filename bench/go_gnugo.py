"""plies-gtp against GNU Go 3.8 (``gnugo --mode gtp --level 10 --chinese-rules``), refereed by the
project's Go match tool (regress/go_match.py, ``plies go match``): 9x9 komi 7 with plies at 1 s a
move (100 games) and 13x13 komi 7 at 2 s a move (40 games), colours alternating (plies, engine A, is
Black in the odd games).  Writes bench/results/go_gnugo.md (and .json): wins overall and by colour
with 95 % Wilson intervals against the issue's goals, how the games ended, dead-stone
disagreements, both sides' wall time per genmove (median, max) as the referee saw it, and this machine's
speed before and after each part (heavy RAVE simulations a second on the empty board): plies' strength
at a fixed time follows it, GNU Go's level does not.

    .venv/bin/python -m bench.go_gnugo                        # the full figure (about 3 hours)
    .venv/bin/python -m bench.go_gnugo --size 9 --games 10    # a shorter one
    .venv/bin/python -m bench.go_gnugo --games 2 --plies "/usr/games/gnugo --mode gtp --level 1 --chinese-rules"

A long figure can be played in parts, one process each (on a free core each, or in separate
sessions), and added up:

    .venv/bin/python -m bench.go_gnugo --size 13 --games 20 --out /tmp/part1.md
    .venv/bin/python -m bench.go_gnugo --size 13 --games 20 --first-game 21 --out /tmp/part2.md
    .venv/bin/python -m bench.go_gnugo --merge /tmp/part1.json /tmp/part2.json --out bench/results/go_gnugo13.md

``--plies`` is a command template: ``{python}`` is this interpreter, ``{seconds}`` plies' seconds a
move for the board size, ``{seed}`` the match seed.  The referee kills a genmove after
``--time-limit`` seconds (a loss); it is a guard against a hung engine, not the time control: plies
gets its seconds a move from its own command line, GNU Go plays at its level.  The Go kernels'
compiled cache is warmed first (``python -m engines.warmup --game go``; ``--no-warmup`` skips it).
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

from regress.go_match import LABELS, SCORE, Match, MatchConfig, summarise

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
GNUGO = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules"
PLIES = "{python} -m adapters.go_gtp --time {seconds} --seed {seed}"
DEFAULTS = {9: (100, 1.0), 13: (40, 2.0)}     # size -> (games, plies' seconds a move)
GOALS = {9: {"overall": 0.95, "as Black": 0.90, "as White": 0.90}, 13: {"overall": 0.80}}  # issue 34's
KOMI = 7.0


def plies_command(template: str, seconds: float) -> str:
    return template.replace("{python}", shlex.quote(sys.executable)).replace("{seconds}", f"{seconds:g}")


def machine_speed(size: int) -> float:
    """Heavy RAVE simulations a second on the empty size x size board (1 s, median of 3; bench/go_speed.py's
    measure), beside a time-based figure: this machine's speed varies from day to day."""
    from bench.go_speed import rate
    from engines.games.go import Go
    from engines.knowledge.go.registered import heavy_knowledge
    from engines.search import Limits, make_searcher
    game = Go(size, komi=KOMI)
    searcher = make_searcher("rave", game, None, heavy_knowledge(game), 0, capacity=1 << 20)
    searcher.search(game.initial_state(), Limits(simulations=20))  # loaded before it is timed
    return rate(searcher, game.initial_state(), 1.0)


def run_size(size: int, games: int, seconds: float, args, log) -> dict:
    config = MatchConfig(a=plies_command(args.plies, seconds), b=args.gnugo, size=size, komi=KOMI, games=games,
                         rules="standard", move_cap=args.move_cap, time_per_move=args.time_limit,
                         sgf_dir=str(Path(args.sgf_dir) / f"{size}x{size}") if args.sgf_dir else None,
                         first_game=args.first_game, seed=args.seed, cwd=str(ROOT))
    speed_before = machine_speed(size)
    start = time.perf_counter()
    result = Match(config).run(progress=lambda line: print(f"{size}x{size} {line}", file=log, flush=True))
    wall_minutes = (time.perf_counter() - start) / 60
    summary = result.summary()
    summary["sims_per_second"] = [speed_before, machine_speed(size)]
    summary["seconds_a_move"] = seconds
    summary["wall_minutes"] = wall_minutes
    summary["genmove_seconds"] = result.seconds  # kept whole, so parts can be added up (--merge)
    summary["first_genmoves"] = result.starts
    return summary


def unseeded(command: str) -> str:
    """A command without its seed: the parts of a match may (should) use different seeds."""
    return re.sub(r"--seed \S+", "--seed {seed}", command)


HEAD = ("size", "komi", "rules", "move_cap", "time_per_move", "time_settings", "alternate", "seconds_a_move")


def merge_runs(parts: list[dict]) -> dict:
    """One run of a size from runs of its games played apart: the same settings, no game twice."""
    first = parts[0]
    for part in parts[1:]:
        differ = [key for key in HEAD if part[key] != first[key]]
        differ += [f"engine {label}'s command" for label in LABELS
                   if unseeded(part["engines"][label]["command"]) != unseeded(first["engines"][label]["command"])]
        if differ:
            raise SystemExit(f"go_gnugo --merge: the parts differ in {', '.join(differ)}")
    records = sorted((r for part in parts for r in part["records"]), key=lambda r: r["game"])
    numbers = [r["game"] for r in records]
    if len(set(numbers)) != len(numbers):
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        raise SystemExit(f"go_gnugo --merge: games in two parts: {twice}")
    seconds, starts = {}, {}
    for label in LABELS:
        seconds[label], starts[label] = [], []
        for part in parts:
            starts[label] += [len(seconds[label]) + i for i in part["first_genmoves"][label]]
            seconds[label] += part["genmove_seconds"][label]
    head = {key: first[key] for key in HEAD} | {"seed": [p["seed"] for p in parts], "first_game": numbers[0]}
    merged = summarise(head, {label: unseeded(first["engines"][label]["command"]) for label in LABELS},
                       {label: first["engines"][label]["name"] for label in LABELS}, records, seconds, starts)
    merged.update(wall_minutes=sum(p["wall_minutes"] for p in parts), genmove_seconds=seconds,
                  first_genmoves=starts, parts=len(parts),
                  sims_per_second=[x for p in parts for x in p.get("sims_per_second", [])])
    return merged


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(runs: list[dict], command: str) -> str:
    lines = ["# plies-gtp against GNU Go 3.8", "",
             f"Command (from the project root): `{command}`", "",
             f"Date {datetime.date.today().isoformat()}; machine {platform.machine()}, {os.cpu_count()} cores "
             f"(shared); Python {platform.python_version()}.  Engine A is plies, engine B GNU Go; A is Black in "
             f"the odd games.  Referee: regress/go_match.py (every move checked with plies' rules, simple ko; "
             f"area scoring with the dead stones both engines list, after a cleanup phase with "
             f"kgs-genmove_cleanup when they disagree; komi {KOMI:g}).  Seconds are the wall time of each "
             f"genmove as the referee saw it (pipes included), on a shared machine.", ""]
    for s in runs:
        a, b = s["engines"]["A"], s["engines"]["B"]
        n = s["size"]
        black_rate = a["as_black"][0] / a["as_black"][1] if a["as_black"][1] else 0.0
        white_rate = a["as_white"][0] / a["as_white"][1] if a["as_white"][1] else 0.0
        goals = GOALS.get(n, {})
        verdict = []
        if "overall" in goals:
            verdict.append(f"overall {pct(a['rate'])} vs goal >= {pct(goals['overall'])}: "
                           f"{'met' if a['rate'] >= goals['overall'] else 'not met'}")
        for colour, rate in (("as Black", black_rate), ("as White", white_rate)):
            if colour in goals:
                verdict.append(f"{colour} {pct(rate)} vs goal >= {pct(goals[colour])}: "
                               f"{'met' if rate >= goals[colour] else 'not met'}")
        numbers = [r["game"] for r in s["records"]]
        parts = s.get("parts", 1)
        span = f" (games {numbers[0]}-{numbers[-1]})" if numbers and numbers[0] != 1 else ""
        played = (f"{s['games']} games{span}"
                  + (f", played in {parts} parts" if parts > 1 else ""))
        lines += [f"## {n}x{n}, komi {s['komi']:g}, plies at {s['seconds_a_move']:g} s a move, {played}", "",
                  f"- A (plies): `{a['command']}` ({a['name']})",
                  f"- B (GNU Go): `{b['command']}` ({b['name']})", "",
                  "| engine | wins | rate | 95% interval | as Black | as White | s/genmove median | s/genmove max "
                  "| max but each process's first | genmoves |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for label, e in (("A plies", a), ("B GNU Go", b)):
            t = e["time"]
            med = "-" if t["median_s"] is None else f"{t['median_s']:.3f}"
            mx = "-" if t["max_s"] is None else f"{t['max_s']:.3f}"
            later = "-" if t["max_after_first_s"] is None else f"{t['max_after_first_s']:.3f}"
            lines.append(f"| {label} | {e['wins']:g}/{e['games']} | {pct(e['rate'])} | "
                         f"{pct(e['ci95'][0])}-{pct(e['ci95'][1])} | {e['as_black'][0]:g}/{e['as_black'][1]} | "
                         f"{e['as_white'][0]:g}/{e['as_white'][1]} | {med} | {mx} | {later} | {t['moves']} |")
        ended = ", ".join(f"{k} {v}" for k, v in s["ended_by"].items() if v)
        cleanups = [r["game"] for r in s["records"] if r["cleanup_from"]]
        scored = [r for r in s["records"] if r["reason"] == SCORE]
        lines += ["", f"- plies as Black {pct(black_rate)}, as White {pct(white_rate)}; " + "; ".join(verdict),
                  f"- ended by: {ended}; draws {s['draws']}; dead-stone disagreements "
                  f"{len(s['disagreements'])} of {len(scored)} scored games"
                  + (f" (games {', '.join(map(str, s['disagreements']))})" if s["disagreements"] else "")
                  + f" after cleanup phases (kgs-genmove_cleanup) in {len(cleanups)} games"
                  + (f" ({', '.join(map(str, cleanups))})" if cleanups else ""),
                  f"- mean game length {sum(r['moves'] for r in s['records']) / max(1, len(s['records'])):.1f} "
                  f"moves; wall time {s['wall_minutes']:.1f} min" + (" (the parts' sum)" if parts > 1 else "")]
        if s.get("sims_per_second"):
            lines.append(f"- this machine's speed: heavy RAVE simulations a second on the empty {n}x{n} board (1 s, "
                         f"median of 3) before and after {'each part' if parts > 1 else 'the match'}: "
                         + ", ".join(f"{x:,.0f}" for x in s["sims_per_second"]))
        lines.append("")
    return "\n".join(lines)


def write(runs: list[dict], command: str, out: Path):
    out.write_text(markdown(runs, command) + "\n")
    out.with_suffix(".json").write_text(json.dumps({"command": command, "runs": runs}, indent=1) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, nargs="+", default=sorted(DEFAULTS), help="board sizes (default 9 13)")
    parser.add_argument("--games", type=int, help="games per size (default 100 on 9x9, 40 on 13x13)")
    parser.add_argument("--seconds", type=float, help="plies' seconds a move (default 1 on 9x9, 2 on 13x13)")
    parser.add_argument("--plies", default=PLIES, help=f"plies' command template (default {PLIES!r})")
    parser.add_argument("--gnugo", default=GNUGO, help=f"GNU Go's command (default {GNUGO!r})")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="the referee's wall limit per genmove, a guard against hangs (default 60)")
    parser.add_argument("--move-cap", type=int, help="moves before a game is scored as it stands (default 3 n^2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=1,
                        help="the number of the first game (default 1): a part of a longer match, with its colours")
    parser.add_argument("--merge", nargs="+", metavar="PART.json",
                        help="play nothing: add up the runs of these parts' .json files (size by size) into --out")
    parser.add_argument("--sgf-dir", help="keep the games as SGF here (one folder per size)")
    parser.add_argument("--log", help="the per-game lines go here (default stdout)")
    parser.add_argument("--no-warmup", action="store_true", help="do not warm the compiled-kernel cache first")
    parser.add_argument("--out", default=str(RESULTS / "go_gnugo.md"), help="the markdown file (a .json beside it)")
    args = parser.parse_args(argv)
    command = "python -m bench.go_gnugo " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    if args.merge:
        parts = [json.loads(Path(name).read_text()) for name in args.merge]
        sizes = sorted({run["size"] for part in parts for run in part["runs"]})
        runs = [merge_runs([run for part in parts for run in part["runs"] if run["size"] == size]) for size in sizes]
        commands = "; ".join(part["command"] for part in parts)
        write(runs, f"{command.strip()} (parts: {commands})", Path(args.out))
        print(Path(args.out).read_text())
        return 0
    log = open(args.log, "a") if args.log else sys.stdout
    if not args.no_warmup:  # a cold cache would spend plies' first moves compiling
        subprocess.run([sys.executable, "-m", "engines.warmup", "--game", "go"], cwd=ROOT, check=True)
    runs = []
    for size in args.size:
        games, seconds = DEFAULTS.get(size, (20, 1.0))
        runs.append(run_size(size, args.games or games, args.seconds or seconds, args, log))
        write(runs, command.strip(), Path(args.out))
    print(Path(args.out).read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
