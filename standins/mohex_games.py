"""MoHex 2.0 self-play records for the Hex move patterns: ``python -m standins.mohex_games``.

MoHex (benzene; its binary named by PLIES_MOHEX or --mohex) is the player of
engines/learn/hex/records.py's self-play loop, which owns the random opening, the rules check and the
SGF records.  One MoHex process plays one game against itself over GTP (regress/gtp_client.py), set up
as bench/hex_mohex.py does (no swap, one thread, no pondering, no time management) but with a fixed
number of simulations a move (``param_mohex max_games``) so that the games cost the same on a loaded
machine; MoHex's own log goes to a scratch directory.  Games run one after another (the machine is
shared); files already written are skipped, so a stopped run resumes.

    PLIES_MOHEX=... nice -n 15 python -m standins.mohex_games --size 9 --games 2000 --max-games 1000 \\
        --out /work/data/hex-games/9

Exit status: 0 done, 1 some games failed (listed on stderr), 2 bad arguments.
"""
import argparse
import functools
import os
import sys
import tempfile
import time

from engines.learn.hex.records import RecordFailure, action_of_cell, cell_name, write_game
from regress.gtp_client import EngineFailure, GtpClient, GtpFailure

ENV = "PLIES_MOHEX"
GENMOVE_TIMEOUT = 300.0  # seconds one genmove may take before MoHex is taken for hung


class MoHex:
    """MoHex as the self-play player of engines.learn.hex.records (one process per game)."""

    def __init__(self, seed: int, max_games: int = 1000, program: str = ""):
        self.command = [program]
        self.max_games = max_games
        self.info = {"generator": "mohex", "level": f"g{max_games}"}
        self.client = None
        self.size = 0

    def _ok(self, line, timeout=60.0):
        try:
            return self.client.ok(line, timeout=timeout)
        except (EngineFailure, GtpFailure) as exc:
            raise RecordFailure(f"MoHex: {exc}") from None

    def start(self, size: int):
        self.size = size
        try:
            self.client = GtpClient(self.command, cwd=tempfile.gettempdir())
        except OSError as exc:
            raise RecordFailure(f"cannot start {self.command[0]}: {exc}") from None
        self.info["version"] = (self._ok("version") or "unknown").replace(" ", "_")
        for line in (f"boardsize {size} {size}", "param_game allow_swap 0", "param_mohex num_threads 1",
                     "param_mohex ponder 0", "param_mohex use_time_management 0",
                     "param_mohex max_time 60", f"param_mohex max_games {self.max_games}", "clear_board"):
            self._ok(line)

    def play(self, player: int, action: int):
        self._ok(f"play {'bw'[player]} {cell_name(action, self.size)}")

    def genmove(self, player: int):
        reply = self._ok(f"genmove {'bw'[player]}", timeout=GENMOVE_TIMEOUT).strip().lower()
        if reply == "resign":
            return None
        try:
            return action_of_cell(reply, self.size)
        except (ValueError, IndexError):
            raise RecordFailure(f"MoHex's move {reply!r} is no cell") from None

    def close(self):
        if self.client is not None:
            self.client.close()
            self.client = None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m standins.mohex_games", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="number of games (seeds SEED .. SEED+GAMES-1)")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--max-games", type=int, default=1000, help="MoHex's simulations a move")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--random-moves", type=int, default=2, help="1..this many random opening moves")
    parser.add_argument("--out", default="/work/data/hex-games/9", help="folder of the SGF records")
    parser.add_argument("--mohex", default=os.environ.get(ENV, ""), help=f"the MoHex binary (default ${ENV})")
    args = parser.parse_args(argv)
    if not args.mohex or not os.path.isfile(args.mohex):
        print(f"name a MoHex binary with --mohex or {ENV}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    factory = functools.partial(MoHex, max_games=args.max_games, program=args.mohex)
    written, errors, started = 0, [], time.time()
    for seed in range(args.seed, args.seed + args.games):
        try:
            path, new = write_game(args.out, factory, f"g{args.max_games}", args.size, seed, args.random_moves)
        except RecordFailure as exc:
            errors.append(f"seed {seed}: {exc}")
            print(f"error: seed {seed}: {exc}", file=sys.stderr, flush=True)
            continue
        written += new
        if new:
            print(f"{time.time() - started:.0f} s: {path.name} ({written} written)", flush=True)
    print(f"{written} games written, {len(errors)} failed: {args.out}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
