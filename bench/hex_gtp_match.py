"""A match between two Hex GTP engines (plies-gtp-hex with different settings), refereed over GTP
the way HexGui drives an engine (standins/hex_referee.py, the referee the tests use too); every move
is checked against our own copy of the rules.

    .venv/bin/python -m bench.hex_gtp_match --games 10 --size 7 --a "" --b "--simulations 2000"
"""
import argparse
import json
import random
import shlex
import statistics
import sys

from standins.hex_referee import GtpProcess, referee_game


def match(args_a: list[str], args_b: list[str], games: int, size: int, seed: int = 0) -> dict:
    """games between engine A and engine B, A black in the even games; wins and seconds per genmove."""
    a, b = GtpProcess(args_a), GtpProcess(args_b)
    rng = random.Random(seed)
    wins = {"A": 0, "B": 0}
    lengths = []
    try:
        for g in range(games):
            players = (a, b) if g % 2 == 0 else (b, a)
            winner, moves = referee_game(players, size, rng)
            wins["A" if players[winner] is a else "B"] += 1
            lengths.append(len(moves))
            print(f"game {g + 1}: A {'black' if g % 2 == 0 else 'white'}, "
                  f"{'A' if players[winner] is a else 'B'} won in {len(moves)} moves", flush=True)
    finally:
        a.close()
        b.close()

    def timing(p):
        return {"median_s": statistics.median(p.seconds), "max_s": max(p.seconds), "moves": len(p.seconds)}
    return {"A": args_a, "B": args_b, "size": size, "games": games, "wins": wins,
            "mean_length": statistics.mean(lengths), "time_A": timing(a), "time_B": timing(b)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="a plies-gtp-hex match refereed over GTP")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--a", default="", help="arguments of engine A (default settings when empty)")
    parser.add_argument("--b", default="--simulations 2000", help="arguments of engine B")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    print(json.dumps(match(shlex.split(options.a), shlex.split(options.b), options.games, options.size,
                           options.seed), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
