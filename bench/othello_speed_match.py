"""What the incremental pattern evaluation's speed is worth: alpha-beta with it against the same search
evaluating from scratch, at equal time -> bench/results/othello_speed_match.md.

    python -m bench.othello_speed_match [--seconds 0.1] [--openings 10]

Both sides: AlphaBeta with the shipped pattern evaluation (the same values; only the speed differs),
iterative deepening on --seconds of this process's CPU time a move (a shared machine); --openings
random 8-ply openings (bench.othello_strength.openings), each played with both colours.  Reported: wins,
losses, draws, the score with its 95 % interval (normal approximation over games), each side's median
and maximum CPU seconds a move and median depth reached.
"""
import argparse
import math
import statistics
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def play(seconds: float, n_openings: int, seed: int = 7) -> dict:
    from bench.othello_strength import openings
    from engines.games.othello import Othello
    from engines.knowledge.registry import knowledge_for
    from engines.search import Limits
    from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
    game = Othello(8)
    knowledge = knowledge_for(game, "patterns")
    configs = {"incremental": AlphaBetaConfig(), "from scratch": AlphaBetaConfig(use_incremental=False)}
    points, times, depths = [], {k: [] for k in configs}, {k: [] for k in configs}
    for opening in openings(game, n_openings, seed, plies=8):
        for incremental_black in (True, False):
            names = ("incremental", "from scratch") if incremental_black else ("from scratch", "incremental")
            searches = [AlphaBeta(game, configs[n], knowledge, clock=time.process_time) for n in names]
            s = game.initial_state()
            for m in opening:
                s = game.play(s, m)
            while not game.is_terminal(s):
                p = int(game.to_move(s))
                began = time.process_time()
                r = searches[p].search(s, Limits(time=seconds, margin=0.0))
                times[names[p]].append(time.process_time() - began)
                depths[names[p]].append(r.stats["depth"])
                s = game.play(s, r.move)
            margin = game.score(s) * (1 if incremental_black else -1)
            points.append(1.0 if margin > 0 else (0.5 if margin == 0 else 0.0))
        print(f"othello_speed_match: {len(points)} games, score {sum(points) / len(points):.3f}", file=sys.stderr,
              flush=True)
    n = len(points)
    score = sum(points) / n
    sd = statistics.pstdev(points) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return {"games": n, "wins": points.count(1.0), "losses": points.count(0.0), "draws": points.count(0.5),
            "score": score, "low": max(0.0, score - half), "high": min(1.0, score + half),
            "times": {k: (statistics.median(v), max(v)) for k, v in times.items()},
            "depths": {k: statistics.median(v) for k, v in depths.items()}}


def report(command: str, args, r: dict) -> str:
    lines = ["# Othello: the incremental pattern evaluation against the same search from scratch, equal time", "",
             f"Command: `{command}` ({time.strftime('%Y-%m-%d %H:%M')}; {args.seconds:g} CPU s a move, "
             f"{args.openings} random 8-ply openings x both colours).", "",
             "| games | wins | losses | draws | score of incremental | 95 % interval |", "|---|---|---|---|---|---|",
             f"| {r['games']} | {r['wins']} | {r['losses']} | {r['draws']} | {r['score']:.3f} | "
             f"{r['low']:.3f}-{r['high']:.3f} |", "",
             "| side | median CPU s a move | max CPU s a move | median depth |", "|---|---|---|---|"]
    for k, (med, top) in r["times"].items():
        lines.append(f"| {k} | {med:.3f} | {top:.3f} | {r['depths'][k]:g} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=0.1)
    p.add_argument("--openings", type=int, default=10)
    p.add_argument("--out", type=Path, default=RESULTS / "othello_speed_match.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_speed_match " + " ".join(sys.argv[1:] if argv is None else argv)
    text = report(command, args, play(args.seconds, args.openings))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
