"""plies' Hex default (the search plies-gtp-hex and the tournament client play: RAVE with the Hex
knowledge, engines/players/hex.py) against OpenSpiel's C++ MCTS bot at equal wall time a move
-> bench/results/hex_openspiel.md (issue 20: >= 95 % on 11x11 and 13x13 at 1 s).

OpenSpiel: MCTSBot(uct_c=2, one random rollout a leaf, solve=True, a fresh tree each move) stopped by
its own max_wall_clock_time; ours stops on Limits(time=...) from the moment the move is asked for and
keeps its subtree.  Colours alternate, no swap; after every move both rule sets must agree on the
position (bench.openspiel_ref.check_agreement).  Each side's wall seconds a move: median and max.

    nice -n 10 .venv/bin/python -m bench.hex_openspiel --sizes 11 13 --games 20 --time 1
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

from engines.players.hex import make_hex_searcher
from bench import openspiel_ref as ref
from bench.strength import wilson
from engines.search import Limits

RESULTS = Path(__file__).resolve().parent / "results"


def play(size: int, ours_player: int, move_time: float, seed: int, think: dict) -> float:
    """One game; 1.0 when ours wins.  Appends each side's seconds a move to think["a"] (ours) and ["b"]."""
    game, sgame = ref.match_games(f"hex{size}")
    ours = make_hex_searcher(game, None, "all", None, {}, seed, 1 << 22)
    bot = ref.bot(sgame, seed, move_time=move_time, solve=True)
    state = ref.play_against_bot(game, sgame, bot, ours_player,
                                 lambda state, start: ours.search(state, Limits(time=move_time, start=start)).move,
                                 ours.advance, think)
    return 1.0 if game.winner(state) == ours_player else 0.0


def match(size: int, games: int, move_time: float, seed: int) -> dict:
    think = {"a": [], "b": []}
    by_colour = {0: [0.0, 0], 1: [0.0, 0]}
    for g in range(games):
        colour = g % 2
        score = play(size, colour, move_time, seed + g, think)
        by_colour[colour][0] += score
        by_colour[colour][1] += 1
        print(f"{size}x{size} game {g + 1}: ours {'first' if colour == 0 else 'second'}, "
              f"{'won' if score else 'lost'}", flush=True)
    wins = by_colour[0][0] + by_colour[1][0]
    return {"size": size, "games": games, "wins": wins, "rate": wins / games, "ci95": wilson(wins / games, games),
            "first": by_colour[0], "second": by_colour[1], "move_time": move_time,
            "ours_s": {"median": statistics.median(think["a"]), "max": max(think["a"])},
            "spiel_s": {"median": statistics.median(think["b"]), "max": max(think["b"])}}


def report(command: str, rows: list[dict]) -> str:
    lines = ["# plies' Hex default against OpenSpiel's MCTS (issue 20)", "", f"Command: `{command}`", "",
             "Ours: RAVE with the Hex knowledge (plies-gtp-hex's default search); OpenSpiel: MCTSBot, uct_c 2, "
             "random rollouts, solver on.  Equal wall time a move; colours alternate, no swap.", "",
             "| size | s/move | games | ours won | 95 % interval | as first | as second | ours s/move median (max) "
             "| OpenSpiel s/move median (max) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['size']} | {r['move_time']:g} | {r['games']} | {r['wins']:g} ({100 * r['rate']:.0f} %) | "
                     f"{100 * r['ci95'][0]:.0f}-{100 * r['ci95'][1]:.0f} % | {r['first'][0]:g}/{r['first'][1]} | "
                     f"{r['second'][0]:g}/{r['second'][1]} | {r['ours_s']['median']:.3f} ({r['ours_s']['max']:.3f}) | "
                     f"{r['spiel_s']['median']:.3f} ({r['spiel_s']['max']:.3f}) |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[11, 13])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move, both sides")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS / "hex_openspiel.md"))
    args = parser.parse_args(argv)
    rows = [match(size, args.games, args.time, args.seed) for size in args.sizes]
    command = "python -m bench.hex_openspiel " + " ".join(sys.argv[1:] if argv is None else argv)
    Path(args.out).write_text(report(command, rows))
    Path(args.out).with_suffix(".json").write_text(json.dumps(rows, indent=1))
    print(report(command, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
