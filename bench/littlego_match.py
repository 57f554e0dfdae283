"""Little-Go figures: our my_player3.py through the local host against every opponent.

For each opponent: ``--games`` games (default 40, half as black, half as white) with the player's
default budget (or ``--seconds``); win rate with its 95 % Wilson interval, wins per colour, how the
games ended; and over all our moves: CPU seconds and wall seconds per move including process start
(median, max) and the peak resident memory of one run.  Each move is a fresh process, as the course's
build.sh runs it; CPU time is the child's user + system time from os.wait4.

    .venv/bin/python -m bench.littlego_match                      # everything, about 2 h on 2 cores
    nice .venv/bin/python -m bench.littlego_match --jobs 2 --only random greedy --games 10

Results go to bench/results/littlego.md and .json (rewritten after each opponent).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from adapters import littlego as player
from standins import littlego_host as host
from bench.strength import wilson

OPPONENTS = ("random", "greedy", "aggressive", "alphabeta", "strong")
GOAL = 0.95
RESULTS = Path(__file__).resolve().parent / "results"


def engine_sources() -> dict:
    """Modification times of the engine's sources: an edit during a match makes the next player
    process recompile its kernels (seconds of CPU in one move), which spoils the per-move maxima."""
    root = Path(__file__).resolve().parent.parent / "engines"
    return {str(p): p.stat().st_mtime for p in sorted(root.rglob("*.py"))}


def measure(opponent: str, games: int, jobs: int, seconds: float | None) -> dict:
    me = host.make_player("me", seconds)
    t0 = time.perf_counter()
    before = engine_sources()
    result = host.run_match(me, host.make_player(opponent), games, jobs=jobs)
    edited = sorted(Path(k).name for k, v in engine_sources().items() if before.get(k) != v)
    wins, n = result.wins(True)
    wb, nb = result.wins(True, 1)
    ww, nw = result.wins(True, 2)
    low, high = wilson(wins / n, n)
    ours = [m for k, g in enumerate(result.games) for m in g.moves if m.colour == (1 if k % 2 == 0 else 2)]
    endings = {}
    for g in result.games:
        key = g.reason.split(";")[0].split(":")[0]
        endings[key] = endings.get(key, 0) + 1
    margins = [(g.black_stones - g.white_stones - host.KOMI) * (1 if k % 2 == 0 else -1)
               for k, g in enumerate(result.games)]
    return {
        "opponent": opponent, "games": n, "wins": wins, "win_rate": wins / n, "ci95": [low, high],
        "black": [wb, nb], "white": [ww, nw], "meets_goal": (wins / n >= GOAL) if opponent in host.OPPONENTS else None, "endings": endings,
        "mean_margin": statistics.fmean(margins),
        "moves": len(ours),
        "cpu_median": statistics.median(m.cpu for m in ours), "cpu_max": max(m.cpu for m in ours),
        "wall_median": statistics.median(m.wall for m in ours), "wall_max": max(m.wall for m in ours),
        "peak_rss_mb": max(m.max_rss_kb for m in ours) / 1024,
        "lost_moves": [m.verdict for m in ours if m.verdict != "ok"],
        "engine_edited_during_match": edited,
        "minutes": (time.perf_counter() - t0) / 60,
    }


def report(rows: list, settings: dict) -> str:
    lines = ["# Little-Go: my_player3.py through the local host", "",
             f"{settings['date']} - {settings['machine']} - load average {settings['load']} at start - "
             f"Python {settings['python']}", "",
             f"Settings: {settings['games']} games per opponent (half as black), our budget "
             f"{settings['seconds']} s CPU per move from process start, {settings['jobs']} game(s) at a time, "
             f"host limit {host.TIME_LIMIT:g} s CPU per move; 'strong' is our player at {host.STRONG_SECONDS:g} s.", "",
             "| opponent | games | wins | win rate | ci95 | as black | as white | mean margin | "
             "CPU s/move median | max | wall s/move median | max | peak MB | goal 95 % |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['opponent']} | {r['games']} | {r['wins']} | {r['win_rate']:.3f} | "
            f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | {r['black'][0]}/{r['black'][1]} | "
            f"{r['white'][0]}/{r['white'][1]} | {r['mean_margin']:+.1f} | {r['cpu_median']:.2f} | {r['cpu_max']:.2f} | "
            f"{r['wall_median']:.2f} | {r['wall_max']:.2f} | {r['peak_rss_mb']:.0f} | "
            f"{ {True: 'yes', False: 'no', None: 'n/a'}[r['meets_goal']] } |")
    lines += ["", "- the 95 % goal is for the course's four opponents; 'strong' is a yardstick.",
              "- margin: our stones minus theirs, komi counted (positive: we won by that much).",
              "- per-move figures are over all our moves in those games, each a fresh process "
              "(`python3 my_player3.py`, restarting under the plies Python), start-up and imports included; "
              "CPU = user + system time of the process (os.wait4).",
              "- endings: " + "; ".join(f"{r['opponent']}: " + ", ".join(f"{k} {v}" for k, v in r['endings'].items())
                                        for r in rows),
              f"- command: `{settings['command']}`"]
    for r in rows:
        if r.get("engine_edited_during_match"):
            lines.append(f"- {r['opponent']}: engine sources were edited during the match "
                         f"({', '.join(r['engine_edited_during_match'])}): a move after an edit recompiles, "
                         f"so its CPU maximum is not the player's")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.littlego_match", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seconds", type=float, help="our CPU budget per move (default: the player's)")
    parser.add_argument("--only", nargs="*", choices=OPPONENTS, help="these opponents only")
    parser.add_argument("--out", default=str(RESULTS / "littlego"), help="results file stem (.md, .json)")
    args = parser.parse_args(argv)
    settings = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
                "load": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
                "games": args.games, "jobs": args.jobs,
                "seconds": args.seconds if args.seconds is not None else player.LittleGoSettings().seconds,
                "command": "python -m bench.littlego_match " + " ".join(sys.argv[1:] if argv is None else argv)}
    rows = []
    for opponent in args.only or OPPONENTS:
        row = measure(opponent, args.games, args.jobs, args.seconds)
        rows.append(row)
        print(f"{opponent}: {row['wins']}/{row['games']} (black {row['black'][0]}/{row['black'][1]}, white "
              f"{row['white'][0]}/{row['white'][1]}); CPU/move median {row['cpu_median']:.2f} max "
              f"{row['cpu_max']:.2f}; wall median {row['wall_median']:.2f} max {row['wall_max']:.2f}; "
              f"peak {row['peak_rss_mb']:.0f} MB; {row['minutes']:.1f} min", flush=True)
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".json").write_text(json.dumps({"settings": settings, "rows": rows}, indent=1) + "\n")
        out.with_suffix(".md").write_text(report(rows, settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
