"""Go reading for critical groups (issue 34, item 1): what each piece costs in speed and what it wins.

Pieces (GoSettings fields, engines/players/go_settings.py; knowledge in engines/knowledge/go/rave_knowledge.py):
  twolib_read     ``--twolib-reading``: the playouts answer a chain of 2 liberties next to the last move
                  with the ladder reader instead of the shallow rule
  nakade_filled   ``--nakade-filled``: vital points also of eye spaces holding the attacker's stones
                  (playouts and priors)
  critical        ``--critical-prior 30``: won visits for saving a 4+ stone chain of 2 liberties and
                  for the moves of a liberty race

``speed``: simulations a CPU second of the 1-thread RAVE search (plies-gtp's default search) with each
piece alone and all together, on the positions of bench/go_speed_19.py (9x9 and 19x19, empty and mid-game);
median of --repeats searches of --seconds each, fresh tree, the variants interleaved round by round.

``report``: the A/B matches (``plies go match`` JSON files, A = the piece, B = the default, colours
alternating) as one markdown table: A's score, the Wilson 95 % interval, by colour, both sides'
seconds a genmove.

    nice -n 15 .venv/bin/python -m bench.go_reading speed [--seconds 1] [--repeats 3] --out FILE.md
    .venv/bin/python -m bench.go_reading report NAME=FILE.json ... --out FILE.md
"""
import argparse
import json
import statistics
import time
from pathlib import Path

from bench.go_speed_19 import position, record
from engines.games.go import Go
from engines.knowledge.go.registered import heavy_knowledge
from engines.search import Limits, make_searcher
from regress.go_match import wilson

VARIANTS = {
    "default": ({}, {}),
    "twolib_read": ({"twolib_read": 1.0}, {}),
    "nakade_filled": ({"nakade_filled": 1.0}, {"nakade_filled": 1.0}),
    "critical": ({}, {"critical": 30.0}),
    "all three": ({"twolib_read": 1.0, "nakade_filled": 1.0}, {"nakade_filled": 1.0, "critical": 30.0}),
}


def searcher(game, variant):
    playout, prior = VARIANTS[variant]
    knowledge = heavy_knowledge(game, playout_changes=playout, prior_changes=prior)
    return make_searcher("rave", game, None, knowledge, 1, capacity=1 << 21)


def speed(args) -> str:
    records = Path(args.records)
    lines = ["# Go reading: simulations a CPU second of the 1-thread RAVE search, each piece and all three", "",
             f"Command: `nice -n 15 python -m bench.go_reading speed --seconds {args.seconds:g} "
             f"--repeats {args.repeats}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; CPU time of this "
             "process (the machine's 2 cores were shared with matches and other sessions' jobs).", "",
             "| position | " + " | ".join(VARIANTS) + " |", "|---|" + "---|" * len(VARIANTS)]
    for size, moves in ((9, 0), (9, args.move9), (19, 0), (19, args.move19)):
        game = Go(size, komi=7.0)
        if moves:
            state, played = position(game, record(size, records), moves)
            label = f"{size}x{size} after move {played}"
        else:
            state, label = game.initial_state(), f"{size}x{size} empty"
        searchers = {v: searcher(game, v) for v in VARIANTS}
        for s in searchers.values():
            s.search(state, Limits(simulations=32))  # load the compiled code
        rates = {v: [] for v in VARIANTS}
        for _ in range(args.repeats):
            for v, s in searchers.items():
                s.reset()
                c0 = time.process_time()
                result = s.search(state, Limits(time=args.seconds, margin=0.0))
                rates[v].append(result.stats["simulations"] / max(time.process_time() - c0, 1e-9))
        base = statistics.median(rates["default"])
        cells = [f"{statistics.median(rates[v]):,.0f}" + ("" if v == "default" else
                                                          f" ({statistics.median(rates[v]) / base:.2f}x)")
                 for v in VARIANTS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return "\n".join(lines) + "\n"


def report(args) -> str:
    lines = ["# Go reading: each piece against the default (plies against plies, 9x9)", "",
             "Each row: `plies go match` JSON; A = the default engine with the piece, B = the default; colours "
             "alternating (A Black in the odd games); score = wins + half the draws; interval = Wilson 95 %; "
             "seconds a genmove = wall time as the referee saw it (median / max but each process's first, which "
             "loads the engine).", "",
             "| piece | games | A's score | rate | 95 % interval | A as Black | A as White | A s/move | B s/move |",
             "|---|---|---|---|---|---|---|---|---|"]
    for item in args.runs:
        name, _, path = item.partition("=")
        if path.endswith(".log"):
            lines.append(log_row(name, Path(path), args.log_times))
            continue
        s = json.loads(Path(path).read_text())
        a, b = s["engines"]["A"], s["engines"]["B"]
        lo, hi = a["ci95"]

        def t(e):
            timing = e["time"]
            return f"{timing['median_s'] or 0:.3f} / {timing['max_after_first_s'] or 0:.3f}"
        lines.append(f"| {name} | {a['games']} | {a['wins']:g} | {100 * a['rate']:.1f} % | {100 * lo:.1f}-{100 * hi:.1f} % "
                     f"| {a['as_black'][0]:g}/{a['as_black'][1]} | {a['as_white'][0]:g}/{a['as_white'][1]} "
                     f"| {t(a)} | {t(b)} |")
    return "\n".join(lines) + "\n"


def log_row(name: str, path: Path, times: str) -> str:
    """A row from a match's per-game lines (a match stopped before its table: no genmove seconds)."""
    points = {0: [0.0, 0], 1: [0.0, 0]}  # A's colour -> [score, games]
    for line in path.read_text().splitlines():
        if not line.split(" ", 1)[-1].startswith("game ") and not line.startswith("game "):
            continue  # (bench.go_gnugo's lines start with the board size)
        colour = 0 if "A Black" in line else 1
        points[colour][0] += 1.0 if ", A wins" in line else (0.0 if ", B wins" in line else 0.5)  # else a draw
        points[colour][1] += 1
    score, games = points[0][0] + points[1][0], points[0][1] + points[1][1]
    rate = score / games if games else 0.0
    lo, hi = wilson(rate, games)
    return (f"| {name} | {games} (stopped) | {score:g} | {100 * rate:.1f} % | {100 * lo:.1f}-{100 * hi:.1f} % "
            f"| {points[0][0]:g}/{points[0][1]} | {points[1][0]:g}/{points[1][1]} | {' | '.join(times.split('|'))} |")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--seconds", type=float, default=1.0)
    sp.add_argument("--repeats", type=int, default=3)
    sp.add_argument("--move9", type=int, default=30)
    sp.add_argument("--move19", type=int, default=120)
    sp.add_argument("--records", default="/tmp/plies-go-records")
    sp.add_argument("--out", required=True)
    rp = sub.add_parser("report")
    rp.add_argument("runs", nargs="+", metavar="NAME=FILE.json")
    rp.add_argument("--log-times", default="(--time 0.5)|(--time 0.5)",
                    help="the two seconds-a-move cells of a row read from a log (A|B)")
    rp.add_argument("--out", required=True)
    args = p.parse_args(argv)
    text = speed(args) if args.command == "speed" else report(args)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
