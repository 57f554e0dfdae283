"""The Othello player's time manager (issue 35, item 5) against today's fixed-fraction time use, at
equal budget -> bench/results/othello_time.md (and .json).

    python -m bench.othello_time [--games 40] [--seconds 1.0] [--margin 0.05] [--seed 3] [--out FILE]

Both sides are engines.players.othello's player with the default settings, each given ``--seconds``
a move from the request (wall clock, perf_counter, as a harness counts) less ``--margin``:
  * new: pacing on (engines/players/clock.py: IterationPacer: a soft target and a hard limit, more
    time for an unstable root, less for an obvious one, no depth started that is predicted not to
    fit; endgame solves started when their predicted cost fits, a midgame search in reserve);
  * today's: pacing off (the opening's half budget, the stop_share 0.5 iteration rule, the solves'
    growing node budgets with a fresh table each).
Games from games/2 seeded random openings (4 to 7 plies, all different, bench.othello_strength's),
each played with both colours, alternating moves in this one process (one side thinks at a time).
Reported: new's W/D/L, score, 95 % Wilson interval; both sides' median / mean / max seconds a move
(forced moves included; they answer at once), the new side's pacing verdicts and the solves each side
made.  The report is rewritten after every game, so a stopped run leaves its figures so far.
"""
import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

from bench.othello_strength import openings
from bench.strength import wilson

RESULTS = Path(__file__).resolve().parent / "results"


def players(margin: float):
    from engines.players.othello import OthelloSettings, make_player
    return {"new": make_player(OthelloSettings(margin=margin)),
            "today": make_player(OthelloSettings(margin=margin, pacing=False))}


def play(game, sides, names, opening, seconds, log) -> float:
    """One game; black's result (1, 0.5, 0).  log: name -> list of per-move dicts."""
    state = game.initial_state()
    for m in opening:
        state = game.play(state, m)
    for p in sides.values():
        p.reset()
    while not game.is_terminal(state):
        name = names[game.to_move(state)]
        player = sides[name]
        empties = int((game.cells(state) == 0).sum())
        start = time.perf_counter()
        move = player.choose(state, seconds, start)
        spent = time.perf_counter() - start
        last = player.last
        log[name].append({"seconds": spent, "empties": empties, "forced": bool(last.get("forced")),
                          "solved": bool(last.get("solved")), "wld": bool(last.get("wld")),
                          "depth": last.get("depth"), "stopped": (last.get("pace") or {}).get("stopped")})
        state = game.play(state, move)
        for p in sides.values():
            p.played(move)
    return game.returns(state)[0]


def paired_games(game, sides, pair, table, seconds, log, part=(0, 1)):
    """The match loop of the in-process Othello benches: each opening of ``table`` whose index i has
    i % n == k (part (k, n)) played twice, the first of ``pair`` as Black, then as White; yields the
    first's score of each game (1, 0.5, 0)."""
    first, second = pair
    k, n = part
    for i, opening in enumerate(table):
        if i % n != k:
            continue
        for first_black in (True, False):
            names = (first, second) if first_black else (second, first)
            black = play(game, sides, names, opening, seconds, log)
            yield black if first_black else 1.0 - black


def tally(result: dict, score: float) -> None:
    """Count one game's score in a result dict of games, wins, losses and draws."""
    result["games"] += 1
    result["wins" if score == 1.0 else "losses" if score == 0.0 else "draws"] += 1


def _row(name, moves):
    xs = [m["seconds"] for m in moves]
    if not xs:
        return f"| {name} | 0 | - | - | - | - | - |"
    depths = [m["depth"] for m in moves if m["depth"] is not None and not m["solved"]]
    return (f"| {name} | {len(xs)} | {statistics.median(xs):.3f} | {statistics.mean(xs):.3f} | {max(xs):.3f} | "
            f"{statistics.median(depths) if depths else '-'} | {sum(m['solved'] for m in moves)} "
            f"({sum(m['wld'] for m in moves)} wld) |")


def report(command, args, result, log) -> str:
    n = result["games"]
    score = (result["wins"] + result["draws"] / 2) / n if n else 0.0
    lo, hi = wilson(score, n) if n else (0.0, 0.0)
    stops = {}
    for m in log["new"]:
        if m["stopped"]:
            stops[m["stopped"]] = stops.get(m["stopped"], 0) + 1
    late = {k: sum(m["seconds"] > args.seconds for m in v) for k, v in log.items()}
    lines = [f"# Othello time manager against today's time use, {args.seconds:g} s a move", "",
             f"Command: `{command}`  ",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}; "
             f"margin {args.margin:g} s both; a shared 2-core machine (other sessions' work running).", "",
             "| games | new wins | losses | draws | new score | 95 % interval (Wilson) |", "|---|---|---|---|---|---|",
             f"| {n} | {result['wins']} | {result['losses']} | {result['draws']} | {score:.1%} | "
             f"{lo:.1%} .. {hi:.1%} |", "",
             "Seconds a move, from the request to the answer (wall clock):", "",
             "| side | moves | median | mean | max | median depth (searched moves) | solved (of them wld) |",
             "|---|---|---|---|---|---|---|", _row("new (pacing)", log["new"]), _row("today's", log["today"]), "",
             f"Moves over {args.seconds:g} s: new {late['new']}, today's {late['today']}.  "
             f"New side's searches stopped by the pacer before the hard limit, by verdict: "
             f"{', '.join(f'{k} {v}' for k, v in sorted(stops.items())) or 'none'} "
             f"(the others ran to the hard limit or to the end of the game).", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40, help="games (even: each opening with both colours)")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--margin", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--out", type=Path, default=RESULTS / "othello_time.md")
    args = p.parse_args(argv)
    command = "python -m bench.othello_time " + " ".join(sys.argv[1:] if argv is None else argv)
    from engines.games import make_game
    game = make_game("othello", size=8)
    sides = players(args.margin)
    log = {"new": [], "today": []}
    result = {"games": 0, "wins": 0, "losses": 0, "draws": 0, "margins": []}
    for new in paired_games(game, sides, ("new", "today"), openings(game, args.games // 2, args.seed), args.seconds,
                            log):
        tally(result, new)
        args.out.write_text(report(command, args, result, log))
        args.out.with_suffix(".json").write_text(json.dumps({"result": result, "moves": log}))
        print(f"othello_time: game {result['games']}: new {new}; W/L/D {result['wins']}/{result['losses']}/"
              f"{result['draws']}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
