"""plies-otp: an Othello engine for the course judge's OTP protocol over TCP (or stdin/stdout).

    plies-otp [HOST PORT] [--algo default|ucb|uct|uct-pp] [--time SECONDS] [--rd R]
              [--min-samples N] [--seed N] [--name NAME]

With HOST PORT it connects to a running judge (one message per recv/send, no newline); without
them it speaks the same commands on stdin/stdout, one a line.  The session (``OtpSession``) keeps
its own board from clear_board / play / genmove; the wire format is protocols/otp.py.

Players (``--algo``):
  default  alpha-beta with the "strong" Othello evaluation, deepening iteratively on the clock, and
           an exact endgame solve (engines.knowledge.othello.solve_endgame) once at most
           SOLVE_EMPTIES squares are empty and the solve fits the time left
  ucb      flat Monte-Carlo: UCB1 over the root's moves, random playouts
  uct      UCT with random playouts
  uct-pp   UCT with progressive pruning at the root (--rd, --min-samples)
The genmove budget (--time) runs from the receipt of the command.
"""
import argparse
import socket
import sys
import time

import numpy as np

from engines.errors import GameOver, IllegalMove
from engines.games import make_game
from engines.knowledge.othello import solve_endgame
from engines.search import Limits, make_searcher
from protocols import otp
from protocols.common import PASS, ProtocolError

NAME = "plies"
ALGOS = ("default", "ucb", "uct", "uct-pp")
DEFAULT_TIME = 8.0         # seconds per genmove: the judge allows 10, the rest is a safety margin
MARGIN = 0.05              # seconds kept back inside the budget for the reply
SOLVE_EMPTIES = 22         # empties from which the exact endgame solve is tried
FIRST_SOLVE_NODES = 1 << 16  # first node budget of the solve; each retry has 4x more
SOLVE_SHARE = 0.5          # a retry is made only if its predicted time fits in this share of the time left
MCTS_CAPACITY = 1 << 22    # MCTS nodes (32 bytes each: 128 MiB)
TT_SIZE = 1 << 20          # alpha-beta table slots (24 bytes each: 24 MiB)


class Player:
    """Chooses moves for the side to move of an Othello state within a time budget."""

    def __init__(self, algo: str = "default", seed: int = 0, rd: float = 1.0, min_samples: int = 50,
                 clock=time.perf_counter):
        if algo not in ALGOS:
            raise ValueError(f"algo must be one of {', '.join(ALGOS)}, got {algo!r}")
        self.game = make_game("othello", size=8)
        self.algo = algo
        self.clock = clock
        if algo == "default":
            self.searcher = make_searcher("alphabeta", self.game, {"tt_size": TT_SIZE}, seed=seed, clock=clock)
        else:
            config = {"selection": "ucb1" if algo == "ucb" else "uct"}
            if algo == "uct-pp":
                config.update(progressive_pruning=True, pp_rd=rd, pp_min_samples=min_samples)
            self.searcher = make_searcher("mcts", self.game, config, seed=seed, capacity=MCTS_CAPACITY, clock=clock)
        self.last = {}  # what the last choice did (for figures and tests)

    def choose(self, state: np.ndarray, seconds: float, start: float | None = None) -> int:
        """The action to play (the state must not be final); at most seconds from start on the clock."""
        start = self.clock() if start is None else start
        legal = self.game.legal_moves(state)
        if len(legal) == 1:  # a forced move or the pass: nothing to think about
            self.last = {"forced": True}
            return int(legal[0])
        if self.algo == "default" and int((self.game.cells(state) == 0).sum()) <= SOLVE_EMPTIES:
            move = self._solve(state, start + seconds - MARGIN)
            if move is not None:
                return move
        result = self.searcher.search(state, Limits(time=seconds, start=start, margin=MARGIN))
        self.last = {"solved": False, **result.stats}
        return int(result.move)

    def _solve(self, state, deadline):
        """The exact solve's move, or None when it does not fit before the deadline."""
        budget = FIRST_SOLVE_NODES
        while True:
            began = self.clock()
            move, score, nodes = solve_endgame(state, budget)
            now = self.clock()
            if move is not None:
                self.last = {"solved": True, "score": score, "nodes": nodes}
                return move
            rate = nodes / max(now - began, 1e-6)
            budget *= 4
            if budget / rate > SOLVE_SHARE * (deadline - now):
                return None

    def played(self, move: int) -> None:
        self.searcher.advance(move)

    def reset(self) -> None:
        self.searcher.reset()


class OtpSession:
    """One OTP session: the board, its history and the player.  ``handle(message, received)``
    returns (reply, quit): every message gets exactly one reply, an error reply ('? ...') leaving
    the board unchanged."""

    def __init__(self, player: Player, name: str = NAME, seconds: float = DEFAULT_TIME):
        if not name or len(name.split()) != 1 or len(name.encode()) > 509:
            raise ValueError(f"the name must be one word of at most 509 bytes, got {name!r}")
        self.player = player
        self.game = player.game
        self.name = name
        self.seconds = seconds
        self.clear()

    def clear(self):
        self.state = self.game.initial_state()
        self.history = []  # the states before each move, for undo
        self.player.reset()

    def handle(self, message, received: float | None = None) -> tuple[str, bool]:
        try:
            command, args = otp.parse_command(message)
            return getattr(self, "cmd_" + command)(args, received), command == "quit"
        except ProtocolError as err:
            return otp.format_error(err), False
        except Exception as err:  # never die on a message: an error reply, the trace on stderr
            import traceback
            traceback.print_exc(file=sys.stderr)
            return otp.format_error(f"internal error: {err}"), False

    # ---- commands ----------------------------------------------------------------------------
    def cmd_name(self, args, received):
        return otp.format_reply("name", self.name)

    def cmd_clear_board(self, args, received):
        self.clear()
        return otp.format_reply("clear_board")

    def cmd_play(self, args, received):
        point = otp.parse_move(" ".join(args))
        self._play(PASS if point is PASS else self.game.action(*point))
        return otp.format_reply("play")

    def cmd_genmove(self, args, received):
        if self.game.is_terminal(self.state):  # the closing exchange of a finished game
            self.history.append(self.state)
            return otp.format_reply("genmove", otp.PASS_TEXT)
        move = self.player.choose(self.state, self.seconds, received)
        self._play(move)
        return otp.format_reply("genmove", otp.format_move(self.game.point_of(move)))

    def cmd_undo(self, args, received):
        if not self.history:
            raise ProtocolError("nothing to undo")
        self.state = self.history.pop()
        self.player.reset()
        return otp.format_reply("undo")

    def cmd_final_score(self, args, received):
        cells = self.game.cells(self.state)
        return otp.format_reply("final_score", int((cells == 1).sum()) - int((cells == 2).sum()))

    def cmd_showboard(self, args, received):
        return "showboard\n" + self.game.render(self.state)

    def cmd_quit(self, args, received):
        return otp.format_reply("quit")

    def _play(self, move):
        """Play move (PASS: a pass) for the side to move; ProtocolError when illegal.  A pass on a
        finished board is the closing exchange and changes nothing."""
        if move is PASS:
            if self.game.is_terminal(self.state):
                self.history.append(self.state)
                return
            if not self.game.must_pass(self.state):
                raise ProtocolError("illegal move: a pass while a placement exists")
            move = self.game.pass_action
        try:
            state = self.game.play(self.state, move)
        except GameOver:
            raise ProtocolError("illegal move: the game is over") from None
        except IllegalMove as err:  # its text starts 'illegal move'
            raise ProtocolError(str(err)) from None
        self.history.append(self.state)
        self.state = state
        self.player.played(move)


def serve(session: OtpSession, channel, clock=time.perf_counter) -> int:
    """Answer messages until quit (0) or the end of input (1 over a socket: the judge dropped us)."""
    while True:
        try:
            message = channel.receive()
        except OSError as err:
            print(f"plies-otp: connection lost: {err}", file=sys.stderr)
            return 1
        received = clock()
        if message is None:
            return 2
        reply, done = session.handle(message, received)
        try:
            channel.send(reply)
        except OSError as err:
            print(f"plies-otp: connection lost while replying: {err}", file=sys.stderr)
            return 1
        if done:
            return 0


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="plies-otp", description="Othello engine for the OTP judge "
                                     "(TCP client with HOST PORT, else stdin/stdout)")
    parser.add_argument("host", nargs="?", help="the judge's address (omit both for stdin/stdout)")
    parser.add_argument("port", nargs="?", type=int, help="the judge's port")
    parser.add_argument("--algo", choices=ALGOS, default="default", help="the search (default: alpha-beta + "
                        "exact endgame; ucb: flat UCB1; uct; uct-pp: UCT with progressive pruning)")
    parser.add_argument("--time", type=float, default=DEFAULT_TIME, help="seconds per genmove from its receipt "
                        f"(default {DEFAULT_TIME}; the judge allows 10)")
    parser.add_argument("--rd", type=float, default=1.0, help="uct-pp: pruning margin in standard deviations")
    parser.add_argument("--min-samples", type=int, default=50, help="uct-pp: visits before a move can be pruned")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default=NAME, help="the answer to name (one word)")
    args = parser.parse_args(argv)
    if (args.host is None) != (args.port is None):
        parser.error("give both HOST and PORT, or neither for stdin/stdout")
    if not (args.time > 0 and np.isfinite(args.time)):
        parser.error("--time must be a positive number of seconds")
    if args.min_samples < 1 or not (args.rd >= 0):
        parser.error("--min-samples must be >= 1 and --rd >= 0")
    if not args.name or len(args.name.split()) != 1 or len(args.name.encode()) > 509:
        parser.error("--name must be one word of at most 509 bytes")
    return args


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    player = Player(args.algo, seed=args.seed, rd=args.rd, min_samples=args.min_samples)
    session = OtpSession(player, name=args.name, seconds=args.time)
    if args.host is None:
        status = serve(session, otp.LineChannel(sys.stdin, sys.stdout))
        return 0 if status in (0, 2) else status  # end of input ends a stdin session normally
    try:
        sock = socket.create_connection((args.host, args.port), timeout=10)
    except OSError as err:
        print(f"plies-otp: cannot connect to the judge at {args.host}:{args.port}: {err}", file=sys.stderr)
        return 1
    with sock:
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        status = serve(session, otp.SocketChannel(sock))
    if status == 2:
        print("plies-otp: the judge closed the connection before quit", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
