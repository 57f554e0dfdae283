"""A random OTP engine for tests and demos: a uniformly random legal move (or 8 0 when stuck).

    python -m standins.otp_random [HOST PORT] [--seed N]     (no HOST PORT: stdin/stdout)

It runs the same session as plies-otp (adapters.otp: OtpSession, its engine and its exit
statuses), with a random player.
"""
import argparse
import socket
import sys

import numpy as np

from adapters.otp import OtpSession, OtpSettings, make_engine, run
from engines.games import make_game
from protocols import otp


class RandomPlayer:
    """adapters.otp.Player's surface, choosing uniformly among the legal moves."""

    def __init__(self, seed: int = 0):
        self.game = make_game("othello", size=8)
        self.rng = np.random.default_rng(seed)

    def choose(self, state, seconds, start=None) -> int:
        moves = self.game.legal_moves(state)
        return int(moves[self.rng.integers(len(moves))])

    def played(self, move):
        pass

    def reset(self):
        pass


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="otp_random")
    parser.add_argument("host", nargs="?")
    parser.add_argument("port", nargs="?", type=int)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    engine = make_engine(OtpSession(RandomPlayer(args.seed), OtpSettings(name="random")))
    if args.host is None:
        return run(engine, otp.LineChannel(sys.stdin, sys.stdout))
    with socket.create_connection((args.host, args.port), timeout=10) as sock:
        sock.settimeout(None)
        return run(engine, otp.SocketChannel(sock))


if __name__ == "__main__":
    sys.exit(main())
