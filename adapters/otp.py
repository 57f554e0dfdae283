"""plies-otp: an Othello engine for the course judge's OTP protocol over TCP (or stdin/stdout).

    plies-otp [HOST PORT] [--config FILE] [--algo default|ucb|uct|uct-pp] [--time SECONDS] [--<key> VALUE ...]

With HOST PORT it connects to a running judge (one message per recv/send, no newline); without
them it speaks the same commands on stdin/stdout, one a line.  The protocol core is
protocols.otp.OtpEngine; ``OtpSession`` here keeps the board (from clear_board / play / genmove) and
gives it its command handlers.  The moves come from the Othello player (engines/players/othello.py:
the search, the knowledge and every policy; ``--algo``: alpha-beta with the exact endgame, or one of
the Monte-Carlo players).  The genmove budget (--time) runs from the receipt of the command.  Every
tunable is a key of ``OtpSettings`` (the player's OthelloSettings, plus time and name): a flag, a key
of the --config TOML file, or PLIES_OTP_<KEY> in the environment.

Loading (engines/players/coldstart.py): with a warm compiled-kernel cache the player loads in a thread
started once connected (a few seconds on a busy machine, when that thread can hold the interpreter:
the judge wants the connection within 10 s), so the connection, name and clear_board are not delayed; a genmove that comes while it loads waits for it up to LOAD_WAIT_SHARE of the budget,
then plays a shallow fallback search over the pure-Python rules in the rest.  With a cold cache it
says so on stderr, compiles in a detached background process (the next run is warm) and plays the
fallback search until the compile is done; the board is kept with those rules throughout.

The judge is the authority (over TCP): a ``play`` our rules think illegal is played as the judge says,
with a warning on stderr, and answered ``play``; a genmove when our board says the game is over is
answered with the pass.  On stdin/stdout (humans and tests) such a play gets a one-line
``? illegal move ROW COL: the reason`` and leaves the board unchanged.  Only unknown or malformed
commands get ``? ...`` from the judge's side (specs/otp.md).
"""
import argparse
import os
import socket
import sys
from dataclasses import dataclass

from adapters import config
from adapters.config import ConfigError, setting
from engines.errors import IllegalMove  # a plain module: no kernels (none of the engine is imported here)
from engines.games.reference import othello as rules
from engines.players.coldstart import ColdStart
from engines.players.othello import ALGOS, EVALUATION_NAMES, OthelloRecord, OthelloSettings, make_player  # noqa: F401
from engines.validate import check_number
from protocols import otp
from protocols.common import PASS, EndOfInput, ProtocolError, Quit, quiet_stdout

ENV_PREFIX = "PLIES_OTP"
LOAD_WAIT_SHARE = 0.3  # share of a genmove's budget it may wait for the engine still loading in the background
#                        (then the fallback search, ending by engines.players.othello.LOADING_FALLBACK_SHARE)
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "quit": (0, "quit was answered, or stdin ended (stdin/stdout mode)"),
    "judge lost": (1, "the judge could not be reached, or closed or broke the connection before quit"),
    "refused": (2, "bad arguments or settings (flags, --config, PLIES_OTP_*)"),
    "no stdio": (3, "stdin/stdout mode without a stdin to read or a stdout to write (closed or broken)"),
}


@dataclass(frozen=True)
class OtpSettings(OthelloSettings):
    """Every tunable of plies-otp: the Othello player's (engines/players/othello.py) and the harness's."""
    time: float = setting(8.0, "seconds per genmove from its receipt (the judge allows 10)")
    name: str = setting("plies", "the answer to name (one word)")

    def __post_init__(self):
        super().__post_init__()
        if check_number("time", self.time, 0.0) == 0:
            raise ValueError("time must be a positive number of seconds, got 0")
        try:
            otp.check_name(self.name)
        except ProtocolError as err:
            raise ValueError(str(err)) from None


class OtpSession(OthelloRecord):
    """The engine's state in one OTP session (engines/players/othello.py's OthelloRecord: the board,
    its history, the player or its ColdStart) and the command handlers (``commands``); an error
    (ProtocolError) leaves the board unchanged.  ``authority``: the judge is the authority (a TCP
    connection): a play our rules refuse is played as told, with a warning (``warn``), never refused.
    """

    def __init__(self, player, settings: OtpSettings = OtpSettings(), authority: bool = False, warn=None):
        super().__init__(player, settings, warn=warn or (lambda text: print(f"plies-otp: {text}", file=sys.stderr,
                                                                             flush=True)))
        self.authority = authority
        self.games = -1  # clear_board counts them (the first, here, is game 0: before any clear_board)
        self.clear_board([])

    def commands(self) -> dict:
        """The handler of every OTP command: arguments -> the reply's fields."""
        return {"name": lambda args: self.settings.name, "clear_board": self.clear_board, "play": self.play,
                "genmove": self.genmove, "undo": self.undo, "final_score": lambda args: str(self.position.score()),
                "showboard": lambda args: self.position.render(), "quit": self.quit}

    def clear_board(self, args) -> str:
        self.restart()
        self.ours = None   # our colour in a judge's round: whoever moves at our first genmove
        self.games += 1
        return ""

    def play(self, args) -> str:
        point = otp.parse_move(" ".join(args))
        point = None if point is PASS else point
        if self.authority:
            self._told(point)
        else:
            self._play(point)
        return ""

    def genmove(self, args) -> str:
        received = self.clock()
        position = self.position
        if self.authority and not position.is_over():
            if self.ours is None:
                self.ours = position.to_move
            elif position.to_move != self.ours:  # our board missed a move of the judge's: its turn order wins
                self.warn(f"genmove while our board has {'black' if position.to_move == 1 else 'white'} "
                          "to move; playing for our colour as the judge asks")
                self.position = position = rules.Position(position.board, self.ours)
        if position.is_over():  # the closing exchange of a finished game
            self.history.append(position)
            return otp.PASS_TEXT
        point = self.choose_point(self.settings.time, received, LOAD_WAIT_SHARE)
        self._play(point)
        return otp.format_move(PASS if point is None else point)

    def undo(self, args) -> str:
        if not self.history:
            raise ProtocolError("nothing to undo")
        self.position = self.history.pop()
        self.reset_player()
        return ""

    def quit(self, args):
        raise Quit()

    def _play(self, point):
        """Play point (None: a pass) for the side to move; ProtocolError when illegal.  A pass on a
        finished board is the closing exchange and changes nothing."""
        position = self.position
        if point is None and position.is_over():
            self.history.append(position)
            return
        try:
            after = position.play(point)
        except IllegalMove as err:
            why = otp.refusal(point, err.reason.sentence, err.reason.name == "PASS_NOT_ALLOWED")
            raise ProtocolError(why) from None
        self.moved(after, point)

    def _told(self, point):
        """The judge's move for the opponent, played as told (the judge is the authority)."""
        position = self.position
        if self.ours is None and not position.is_over():
            self.ours = rules.other(position.to_move)  # the opponent moves first this round
        mover = rules.other(self.ours) if self.ours is not None else position.to_move
        if point is None and position.is_over():
            self.history.append(position)
            return
        if mover == position.to_move:
            try:
                self.moved(position.play(point), point)
                return
            except IllegalMove as err:
                why = otp.refusal(point, err.reason.sentence, err.reason.name == "PASS_NOT_ALLOWED")
        else:
            why = "our board has the other side to move"
        self.warn(f"the judge's move {otp.format_move(PASS if point is None else point)} is not legal on our board "
                  f"({why}); playing it as the judge says")
        self.history.append(position)
        self.position = position.force(point, mover)
        self.reset_player()  # its tree cannot follow a move its rules refuse


def make_engine(session: OtpSession) -> otp.OtpEngine:
    return otp.OtpEngine(session.commands())


def serve(engine: otp.OtpEngine, channel) -> None:
    """Answer messages until quit; the channel's EndOfInput or OSError ends it earlier."""
    while not engine.finished:
        channel.send(engine.handle(channel.receive()))


def run(engine: otp.OtpEngine, channel) -> int:
    """Serve the channel and return the exit status: the end of stdin is a normal end, the end of
    a judge's connection before quit is not."""
    try:
        serve(engine, channel)
    except EndOfInput:
        if isinstance(channel, otp.LineChannel):
            return EXIT_STATUS["quit"][0]
        print("plies-otp: the judge closed the connection before quit", file=sys.stderr)
        return EXIT_STATUS["judge lost"][0]
    except (OSError, ValueError) as err:  # ValueError: a stream closed under us
        if isinstance(channel, otp.LineChannel):
            print(f"plies-otp: cannot talk on stdin/stdout ({err}); run it with a stdin and a stdout "
                  "that stay open (or give HOST PORT of a judge)", file=sys.stderr)
            return EXIT_STATUS["no stdio"][0]
        print(f"plies-otp: connection lost: {err}", file=sys.stderr)
        return EXIT_STATUS["judge lost"][0]
    return EXIT_STATUS["quit"][0]


def build_parser() -> argparse.ArgumentParser:
    """HOST PORT, --config, and a flag for every key of OtpSettings (None when not given: the file
    and the environment decide)."""
    p = config.settings_parser("plies-otp", "Othello engine for the OTP judge (TCP client with HOST PORT, else "
                               "stdin/stdout)", OtpSettings, "time = 5.0",
                               config.settings_epilog(ENV_PREFIX, "TIME=5", EXIT_STATUS))
    p.add_argument("host", nargs="?", help="the judge's address (omit both for stdin/stdout)")
    p.add_argument("port", nargs="?", type=int, help="the judge's port")
    return p


def parse(argv, env=os.environ) -> tuple[argparse.Namespace, OtpSettings]:
    """The command line and the settings it makes (flags > environment > --config file > defaults);
    ConfigError for a bad setting (argparse exits with status 2 for a bad command line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.host is None) != (args.port is None):
        parser.error("give both HOST and PORT, or neither for stdin/stdout")
    return args, config.command_line_settings(OtpSettings, args, ENV_PREFIX, env)


def main(argv=None) -> int:
    try:
        args, settings = parse(sys.argv[1:] if argv is None else argv)
    except ConfigError as err:
        print(f"plies-otp: {err}. Fix: correct that setting (plies-otp --help lists every key)", file=sys.stderr)
        return EXIT_STATUS["refused"][0]
    if args.host is None and (sys.stdin is None or sys.stdout is None):
        print("plies-otp: no stdin or stdout to talk on; run it with both open (or give HOST PORT of a judge)",
              file=sys.stderr)
        return EXIT_STATUS["no stdio"][0]
    # before any engine module: cold, it compiles in the background and the fallback search plays
    cold = ColdStart("othello", "plies-otp", lambda: make_player(settings), background=True)
    try:
        if args.host is None:
            cold.ready()  # a warm cache: the player loads in a thread while we answer name, clear_board
            session = OtpSession(cold, settings)
            try:
                return run(make_engine(session), otp.LineChannel(sys.stdin, sys.stdout))
            finally:
                quiet_stdout()
        try:
            sock = socket.create_connection((args.host, args.port), timeout=10)
        except OSError as err:
            print(f"plies-otp: cannot connect to the judge at {args.host}:{args.port}: {err}", file=sys.stderr)
            return EXIT_STATUS["judge lost"][0]
        # only now the player's load (a thread that can hold the interpreter for seconds on a busy
        # machine): the judge wants the connection within 10 s of its start
        cold.ready()
        with sock:
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            session = OtpSession(cold, settings, authority=True)
            return run(make_engine(session), otp.SocketChannel(sock))
    finally:
        cold.close()


if __name__ == "__main__":
    sys.exit(main())
