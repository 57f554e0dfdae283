"""A match between two Hex GTP engines (plies-gtp-hex with different settings), refereed over GTP
the way HexGui drives an engine (standins/hex_referee.py, the referee the tests use too); every move
is checked against our own copy of the rules.

    .venv/bin/python -m bench.hex_gtp_match --games 10 --size 7 --a "" --b "--simulations 2000"

Parts of one match run side by side (each with its own --out) are added up into one row with
``--merge part1.json part2.json ... --out table.md``.

Issue 20's figure: today's default (A, plies-gtp-hex's defaults) against the old one (B, MCTS with
random playouts), 1 s a move, results appended to a table with 95 % intervals:

    .venv/bin/python -m bench.hex_gtp_match --games 100 --size 7 --a "" --b "--search mcts --knowledge none" \
        --out bench/results/hex_default.md
"""
import argparse
import json
import random
import shlex
import statistics
import sys
from pathlib import Path

from bench.strength import wilson
from standins.hex_referee import GtpProcess, referee_game


SLOWEST = 5  # the slowest genmoves of each side, with where they were played, in the JSON


def match(args_a: list[str], args_b: list[str], games: int, size: int, seed: int = 0) -> dict:
    """games between engine A and engine B, A black in the even games; wins and seconds per genmove."""
    a, b = GtpProcess(args_a), GtpProcess(args_b)
    rng = random.Random(seed)
    wins = {"A": 0, "B": 0}
    a_by_colour = {"black": [0, 0], "white": [0, 0]}  # A's wins and games as each colour
    lengths = []
    where = {"A": [], "B": []}  # (game, move number) of each genmove, in the order of p.seconds
    try:
        for g in range(games):
            players = (a, b) if g % 2 == 0 else (b, a)
            winner, moves = referee_game(players, size, rng)
            for name, colour in (("A", g % 2), ("B", 1 - g % 2)):
                where[name] += [(g + 1, m + 1) for m in range(colour, len(moves), 2)]
            wins["A" if players[winner] is a else "B"] += 1
            colour = "black" if g % 2 == 0 else "white"
            a_by_colour[colour][0] += int(players[winner] is a)
            a_by_colour[colour][1] += 1
            lengths.append(len(moves))
            print(f"game {g + 1}: A {'black' if g % 2 == 0 else 'white'}, "
                  f"{'A' if players[winner] is a else 'B'} won in {len(moves)} moves", flush=True)
    finally:
        a.close()
        b.close()

    def timing(p, name):
        slowest = sorted(zip(p.seconds, where[name]), reverse=True)[:SLOWEST]
        return {"median_s": statistics.median(p.seconds), "max_s": max(p.seconds), "moves": len(p.seconds),
                "slowest": [{"game": g, "move": m, "s": round(s, 3)} for s, (g, m) in slowest]}
    return {"A": args_a, "B": args_b, "size": size, "games": games, "wins": wins, "A_by_colour": a_by_colour,
            "ci95_A": wilson(wins["A"] / games, games), "mean_length": statistics.mean(lengths),
            "time_A": timing(a, "A"), "time_B": timing(b, "B")}


def table_row(r: dict) -> str:
    """One line of the results table (--out)."""
    low, high = r["ci95_A"]
    black, white = r["A_by_colour"]["black"], r["A_by_colour"]["white"]
    ta, tb = r["time_A"], r["time_B"]
    return (f"| {r['size']} | `{shlex.join(r['A']) or '(defaults)'}` | `{shlex.join(r['B']) or '(defaults)'}` | "
            f"{r['games']} | {r['wins']['A']} ({100 * r['wins']['A'] / r['games']:.0f} %, {100 * low:.0f}-"
            f"{100 * high:.0f}) | {black[0]}/{black[1]} | {white[0]}/{white[1]} | {r['mean_length']:.1f} | "
            f"{ta['median_s']:.3f} ({ta['max_s']:.3f}) | {tb['median_s']:.3f} ({tb['max_s']:.3f}) |")


HEADER = ("| size | A | B | games | A wins (95 % interval) | A as black | A as white | mean length | "
          "A s/move median (max) | B s/move median (max) |\n|---|---|---|---|---|---|---|---|---|---|")


def append_result(path: Path, result: dict) -> None:
    """Add the match to the markdown table at path (and its JSON list beside it)."""
    text = path.read_text() if path.exists() else (
        "# plies-gtp-hex matches refereed over GTP (bench/hex_gtp_match.py)\n\n"
        "Two engine processes, colours alternating, no swap, every move checked against our rules; "
        "seconds are the wall time of each genmove as the referee sees it.\n\n" + HEADER + "\n")
    path.write_text(text + table_row(result) + "\n")
    runs = path.with_suffix(".json")
    previous = json.loads(runs.read_text()) if runs.exists() else []
    runs.write_text(json.dumps(previous + [result], indent=1))


def without_seed(args: list[str]) -> list[str]:
    """An engine's arguments less its --seed (parts of one match may differ in the seed alone)."""
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--seed":
            skip = True
        elif not arg.startswith("--seed="):
            out.append(arg)
    return out


def merged(results: list[dict]) -> dict:
    """Matches of the same engines (parts run side by side) added up into one result: wins, wins by
    colour, the 95 % interval of the whole; per side the parts' medians' median and the largest max
    (the parts keep no single moves' seconds).  Parts may differ in the engines' --seed alone."""
    first = results[0]
    same = lambda r: (without_seed(r["A"]), without_seed(r["B"]), r["size"])
    if any(same(r) != same(first) for r in results):
        raise ValueError("the parts are not matches of the same engines on the same size")
    games = sum(r["games"] for r in results)
    wins = {side: sum(r["wins"][side] for r in results) for side in ("A", "B")}
    by_colour = {c: [sum(r["A_by_colour"][c][i] for r in results) for i in (0, 1)] for c in ("black", "white")}
    timing = {side: {"median_s": statistics.median(r[side]["median_s"] for r in results),
                     "max_s": max(r[side]["max_s"] for r in results)} for side in ("time_A", "time_B")}
    return {"A": without_seed(first["A"]), "B": without_seed(first["B"]), "size": first["size"], "games": games, "wins": wins,
            "A_by_colour": by_colour, "ci95_A": wilson(wins["A"] / games, games),
            "mean_length": sum(r["mean_length"] * r["games"] for r in results) / games, **timing,
            "parts": len(results)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="a plies-gtp-hex match refereed over GTP")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--a", default="", help="arguments of engine A (default settings when empty)")
    parser.add_argument("--b", default="--simulations 2000", help="arguments of engine B")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="append the result to this markdown table (and its .json)")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="no match: add up the matches in these "
                        "--out JSON files (parts run side by side) into one row of --out")
    options = parser.parse_args(argv)
    if options.merge:
        result = merged([r for path in options.merge for r in json.loads(Path(path).read_text())])
        print(table_row(result))
        if options.out:
            append_result(Path(options.out), result)
        return 0
    result = match(shlex.split(options.a), shlex.split(options.b), options.games, options.size, options.seed)
    print(json.dumps(result, indent=1))
    if options.out:
        append_result(Path(options.out), result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
