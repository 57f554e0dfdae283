"""plies-otp: an Othello engine for the course judge's OTP protocol over TCP (or stdin/stdout).

    plies-otp [HOST PORT] [--config FILE] [--algo default|ucb|uct|uct-pp] [--time SECONDS] [--<key> VALUE ...]

With HOST PORT it connects to a running judge (one message per recv/send, no newline); without
them it speaks the same commands on stdin/stdout, one a line.  The protocol core is
protocols.otp.OtpEngine; ``OtpSession`` here keeps the board (from clear_board / play / genmove)
and gives the engine its command handlers.  The moves come from the Othello player
(engines/players/othello.py), which owns the search, the knowledge and every policy:

Players (``--algo``):
  default  principal-variation alpha-beta with the Othello evaluation ``evaluation``, deepening
           iteratively on the clock, an exact endgame solve once at most solve_empties squares are
           empty and the solve fits the time left, and a win/loss/draw solve up to wld_extra empties
           earlier (or when the exact one does not fit)
  ucb      flat Monte-Carlo: UCB1 over the root's moves, random playouts
  uct      UCT with random playouts
  uct-pp   UCT with progressive pruning at the root (--rd, --min-samples)
The genmove budget (--time) runs from the receipt of the command; a forced move is answered at once,
the opening spends opening_share of it, the rest all of it unless solved sooner.  Every tunable is a
key of ``OtpSettings`` (the player's OthelloSettings, plus time and name): a flag, a key of the
--config TOML file, or PLIES_OTP_<KEY> in the environment.

Cold start (engines/players/coldstart.py): the compiled-kernel cache is checked before any engine module
is imported; when it is cold, plies-otp says so on stderr, connects at once, compiles in a detached
background process (it outlives this one), and keeps its board with the pure-Python rules
(engines/games/reference/othello.py) meanwhile: every message is answered in time and a genmove before
the compile is done gets the move of a shallow search over those rules within the genmove's budget.
With a warm cache the player is loaded in a thread started before connecting (a few seconds on a busy
machine), so the connection, name and clear_board are not delayed; a genmove that comes while it loads
waits for it up to LOAD_WAIT_SHARE of the budget, then plays the fallback search in the rest.  After a
cold start the thread starts at the first genmove after the compile (a cache hit), fallback moves going
on until the player is there.

The judge is the authority (over TCP): a ``play`` our rules think illegal (an occupied square, a
placement that flips nothing, a pass while a placement exists, a move after the end) is played as
the judge says, with a warning on stderr, and answered ``play``; a genmove when our board says the
game is over is answered with the pass.  On stdin/stdout (humans and tests) such a play gets a
one-line ``? illegal move ROW COL: the reason`` and leaves the board unchanged.  Only unknown or
malformed commands get ``? ...`` from the judge's side (specs/otp.md).
"""
import argparse
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config
from adapters.config import ConfigError, setting
from engines.errors import IllegalMove  # a plain module: no kernels (none of the engine is imported here)
from engines.games.reference import othello as rules
from engines.players.coldstart import ColdStart
from engines.players.othello import ALGOS, EVALUATION_NAMES, OthelloSettings, fallback_move, make_player  # noqa: F401
from engines.validate import check_number
from protocols import otp
from protocols.common import PASS, EndOfInput, ProtocolError, Quit

ENV_PREFIX = "PLIES_OTP"
LOAD_WAIT_SHARE = 0.5  # share of a genmove's budget it may wait for the engine still loading in the background
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


def refusal(point, err: IllegalMove) -> str:
    """Why a move is illegal, in the protocol's words: the square as OTP writes it ('row col') and the
    rules' reason (never the engine's action number)."""
    if point is None and err.reason.name == "PASS_NOT_ALLOWED":
        return "illegal move: a pass while a placement exists"
    return f"illegal move {otp.format_move(PASS if point is None else point)}: {err.reason.sentence}"


class OtpSession:
    """The engine's state in one OTP session: the board (a pure-Python ``rules.Position``, so that it
    is kept while the engine compiles), its history and where moves come from.  Its methods are the
    command handlers (``commands``); an error (ProtocolError) leaves the board unchanged.

    ``player``: a player (engines/players/othello.py's OthelloPlayer, or one with its ``game``,
    ``choose``, ``played``, ``reset``) or a ColdStart that builds it once the kernels are compiled.
    ``authority``: the judge is the authority (a TCP connection): a play our rules refuse is played as
    told, with a warning (``warn``), never refused.  ``fallbacks``/``searched`` count the genmoves
    answered by the cold-start fallback search and by the player.
    """

    def __init__(self, player, settings: OtpSettings = OtpSettings(), authority: bool = False, warn=None):
        self.cold = player if isinstance(player, ColdStart) else None
        self._player = None if self.cold is not None else player
        self.settings = settings
        self.authority = authority
        self.warn = warn or (lambda text: print(f"plies-otp: {text}", file=sys.stderr, flush=True))
        self.fallbacks = self.searched = 0
        self.games = -1  # clear_board counts them (the first, here, is game 0: before any clear_board)
        self.clear_board([])

    @property
    def player(self):
        """The player if it has been built (None while the cache is cold)."""
        return self.cold.player if self.cold is not None else self._player

    def current(self):
        """The player once it is built (after a cold start: in the background, from the first call after
        the compile); None until then."""
        if self.cold is not None:
            return self.cold.player if self.cold.ready() else None
        return self._player

    def _reset_player(self):
        if self.player is not None:
            self.player.reset()

    @property
    def game(self):
        """The engine's game (builds the player: not for a cold start)."""
        return self.current().game

    @property
    def state(self):
        """The board as an engine state (tests; builds the player)."""
        game = self.game
        return game.state_from_cells(self.position.board, self.position.to_move - 1)

    @state.setter
    def state(self, state):
        game = self.game
        self.position = rules.Position(game.cells(state).tolist(), game.to_move(state) + 1)
        self._reset_player()

    def commands(self) -> dict:
        """The handler of every OTP command: arguments -> the reply's fields."""
        return {"name": lambda args: self.settings.name, "clear_board": self.clear_board, "play": self.play,
                "genmove": self.genmove, "undo": self.undo, "final_score": self.final_score,
                "showboard": lambda args: self.position.render(), "quit": self.quit}

    def clear_board(self, args) -> str:
        self.position = rules.Position.start(otp.SIZE)
        self.history = []  # the positions before each move, for undo
        self.ours = None   # our colour in a judge's round: whoever moves at our first genmove
        self.games += 1
        self._reset_player()
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
        received = time.perf_counter()
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
        player = self.current()
        if player is None and self.cold is not None and position.status != rules.MUST_PASS:
            # the engine loads in the background since the start: wait for it a share of the budget
            player = self.cold.player if self.cold.wait(received + LOAD_WAIT_SHARE * self.settings.time
                                                        - time.perf_counter()) else None
        if position.status == rules.MUST_PASS:
            point = None
        elif player is None:  # a cold cache: a shallow search over the reference rules, in the budget
            point = fallback_move(position, self.settings.time, received, self.settings)
            self.fallbacks += 1
            self.cold.fallbacks += 1
        else:
            game = player.game
            state = game.state_from_cells(position.board, position.to_move - 1)
            start = player.clock() - (time.perf_counter() - received) if hasattr(player, "clock") else None
            point = game.point_of(player.choose(state, self.settings.time, start))
            if self.fallbacks and not self.searched:
                self.warn(f"the engine takes over at move {len(self.history) + 1} of game {max(self.games, 1)} "
                          f"(after {self.fallbacks} fallback moves)")
            self.searched += 1
        self._play(point)
        return otp.format_move(PASS if point is None else point)

    def undo(self, args) -> str:
        if not self.history:
            raise ProtocolError("nothing to undo")
        self.position = self.history.pop()
        self._reset_player()
        return ""

    def final_score(self, args) -> str:
        return str(self.position.score())

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
            raise ProtocolError(refusal(point, err)) from None
        self._moved(after, point)

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
                self._moved(position.play(point), point)
                return
            except IllegalMove as err:
                why = refusal(point, err)
        else:
            why = "our board has the other side to move"
        self.warn(f"the judge's move {otp.format_move(PASS if point is None else point)} is not legal on our board "
                  f"({why}); playing it as the judge says")
        self.history.append(position)
        self.position = position.force(point, mover)
        self._reset_player()  # its tree cannot follow a move its rules refuse

    def _moved(self, after, point):
        self.history.append(self.position)
        self.position = after
        player = self.player
        if player is not None:
            game = player.game
            player.played(game.pass_action if point is None else game.action(*point))


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
    p = argparse.ArgumentParser(prog="plies-otp", description="Othello engine for the OTP judge "
                                "(TCP client with HOST PORT, else stdin/stdout)",
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog())
    p.add_argument("host", nargs="?", help="the judge's address (omit both for stdin/stdout)")
    p.add_argument("port", nargs="?", type=int, help="the judge's port")
    p.add_argument("--config", type=Path, help="a TOML file of settings, the keys of the flags below (time = 5.0)")
    config.add_setting_flags(p, OtpSettings)
    return p


def epilog() -> str:
    statuses = "\n".join(f"  {status}  {meaning}" for status, meaning in EXIT_STATUS.values())
    return (f"Every key can also be set in the environment as {ENV_PREFIX}_<KEY> (e.g. {ENV_PREFIX}_TIME=5);\n"
            f"flags override the environment, which overrides the --config file.\n\nexit status:\n{statuses}")


def parse(argv, env=os.environ) -> tuple[argparse.Namespace, OtpSettings]:
    """The command line and the settings it makes (flags > environment > --config file > defaults);
    ConfigError for a bad setting (argparse exits with status 2 for a bad command line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.host is None) != (args.port is None):
        parser.error("give both HOST and PORT, or neither for stdin/stdout")
    if args.config is not None and not args.config.is_file():
        if args.config.is_dir():
            raise ConfigError(f"--config: {args.config} is a directory, not a TOML file")
        raise ConfigError(f"--config: no file {args.config}")
    flags = config.setting_flags(args, OtpSettings)
    return args, config.load(OtpSettings, file=args.config, env_prefix=ENV_PREFIX, env=env, flags=flags)


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
        cold.ready()  # a warm cache: the player loads in a thread; we connect and answer name, clear_board meanwhile
        if args.host is None:
            session = OtpSession(cold, settings)
            try:
                return run(make_engine(session), otp.LineChannel(sys.stdin, sys.stdout))
            finally:
                _quiet_stdout()
        try:
            sock = socket.create_connection((args.host, args.port), timeout=10)
        except OSError as err:
            print(f"plies-otp: cannot connect to the judge at {args.host}:{args.port}: {err}", file=sys.stderr)
            return EXIT_STATUS["judge lost"][0]
        with sock:
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            session = OtpSession(cold, settings, authority=True)
            return run(make_engine(session), otp.SocketChannel(sock))
    finally:
        cold.close()


def _quiet_stdout():
    """Point stdout at /dev/null so that the interpreter's final flush cannot raise on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
