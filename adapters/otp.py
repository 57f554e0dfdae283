"""plies-otp: an Othello engine for the course judge's OTP protocol over TCP (or stdin/stdout).

    plies-otp [HOST PORT] [--config FILE] [--algo default|ucb|uct|uct-pp] [--time SECONDS] [--<key> VALUE ...]

With HOST PORT it connects to a running judge (one message per recv/send, no newline); without
them it speaks the same commands on stdin/stdout, one a line.  The protocol core is
protocols.otp.OtpEngine; ``OtpSession`` here keeps the board (from clear_board / play / genmove)
and gives the engine its command handlers.

Players (``--algo``):
  default  principal-variation alpha-beta with the Othello evaluation ``evaluation``, deepening
           iteratively on the clock, an exact endgame solve (engines.knowledge.othello.solve_endgame)
           once at most solve_empties squares are empty and the solve fits the time left, and a
           win/loss/draw solve up to wld_extra empties earlier (or when the exact one does not fit)
  ucb      flat Monte-Carlo: UCB1 over the root's moves, random playouts
  uct      UCT with random playouts
  uct-pp   UCT with progressive pruning at the root (--rd, --min-samples)
The genmove budget (--time) runs from the receipt of the command; how much of it a move spends is
adapters/othello_time.py's rule (a forced move at once, the opening opening_share of it, the rest
all of it unless solved sooner).  Every tunable is a key of ``OtpSettings``: a flag, a key of the
--config TOML file, or PLIES_OTP_<KEY> in the environment.

Cold start (engines/players/coldstart.py): the compiled-kernel cache is checked before any engine module is
imported; when it is cold, plies-otp says so on stderr, connects at once, compiles in a background
process, and keeps its board with the pure-Python rules (engines/games/reference/othello.py) meanwhile: every
message is answered in time and a genmove before the compile is done gets a quick legal fallback
move (a corner, never next to an empty corner, the most flips).  The engine is loaded at the first
genmove after the compile (a cache hit), inside that genmove's budget.

The judge is the authority (over TCP): a ``play`` our rules think illegal (an occupied square, a
placement that flips nothing, a pass while a placement exists, a move after the end) is played as
the judge says, with a warning on stderr, and answered ``play``; a genmove when our board says the
game is over is answered with the pass.  On stdin/stdout (humans and tests) such a play gets a
one-line ``? illegal move ...`` and leaves the board unchanged.  Only unknown or malformed commands
get ``? ...`` from the judge's side (specs/otp.md).
"""
import argparse
import dataclasses
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config
from engines.games.reference import othello as rules
from engines.players.coldstart import Compiler
from adapters.othello_time import move_seconds
from adapters.config import ConfigError, setting
from engines.errors import IllegalMove  # a plain module: no kernels (none of the engine is imported here)
from engines.validate import check_int, check_number
from protocols import otp
from protocols.common import PASS, EndOfInput, ProtocolError, Quit

ALGOS = ("default", "ucb", "uct", "uct-pp")
EVALUATION_NAMES = ("strong", "patterns")  # Othello evaluations of engines/knowledge/othello.py for 8x8
WLD_TABLE_BITS = 20   # the win/loss/draw solve's table: 2**20 entries (24 MiB)
WLD_SLICE = 50_000    # nodes between two readings of the clock in a win/loss/draw solve (a few ms)
ENV_PREFIX = "PLIES_OTP"
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "quit": (0, "quit was answered, or stdin ended (stdin/stdout mode)"),
    "judge lost": (1, "the judge could not be reached, or closed or broke the connection before quit"),
    "refused": (2, "bad arguments or settings (flags, --config, PLIES_OTP_*)"),
    "no stdio": (3, "stdin/stdout mode without a stdin to read or a stdout to write (closed or broken)"),
}


@dataclass(frozen=True)
class OtpSettings:
    """Every tunable of plies-otp, with its default and meaning (adapters/config.py)."""
    algo: str = setting("default", "the player: default (alpha-beta + exact endgame), ucb, uct or uct-pp",
                        choices=ALGOS)
    time: float = setting(8.0, "seconds per genmove from its receipt (the judge allows 10)")
    margin: float = setting(0.05, "seconds kept back inside the budget for the reply")
    seed: int = setting(0, "random seed of the search")
    name: str = setting("plies", "the answer to name (one word)")
    tt_size: int = setting(1 << 20, "default: alpha-beta table slots, a power of two (24 bytes each: 24 MiB)")
    solve_empties: int = setting(22, "default: empty squares from which the exact endgame solve is tried")
    first_solve_nodes: int = setting(1 << 16, "default: node budget of the first endgame solve")
    solve_growth: int = setting(4, "default: each retry of the solve has this many times the nodes")
    solve_share: float = setting(0.5, "default: a retry is made only if its predicted time fits in this "
                                      "share of the time left")
    wld_extra: int = setting(3, "default: a win/loss/draw solve is tried up to this many empties beyond "
                                 "solve_empties (and where the exact solve does not fit)")
    evaluation: str = setting("patterns", "default: the evaluation of the alpha-beta search "
                              "(engines/knowledge/othello.py: patterns, the learned one; strong, the "
                              "hand-set one)", choices=EVALUATION_NAMES)
    opening_share: float = setting(0.5, "default: share of --time a move of the opening spends")
    opening_fill: float = setting(0.2, "default: the opening lasts while fewer discs than this share of the "
                                       "squares are on the board")
    stop_share: float = setting(0.5, "default: an iteration is not started when its predicted time times this "
                                     "exceeds the time left (0: never skipped)")
    probcut: bool = setting(False, "default: ProbCut with the fitted parameters of the evaluation "
                                   "(weights/othello/probcut_<evaluation>.json)")
    exploration: float = setting(0.7, "ucb/uct/uct-pp: the exploration constant c (results on a 0..1 scale)")
    mcts_capacity: int = setting(1 << 22, "ucb/uct/uct-pp: MCTS nodes (32 bytes each: 128 MiB)")
    rd: float = setting(1.0, "uct-pp: pruning margin in standard deviations of the mean")
    min_samples: int = setting(50, "uct-pp: visits a root move needs before it can prune or be pruned")

    def __post_init__(self):
        if check_number("time", self.time, 0.0) == 0:
            raise ValueError("time must be a positive number of seconds, got 0")
        check_number("margin", self.margin, 0.0)
        try:
            otp.check_name(self.name)
        except ProtocolError as err:
            raise ValueError(str(err)) from None
        if check_int("tt_size", self.tt_size, 1) & (self.tt_size - 1):
            raise ValueError(f"tt_size must be a power of two, got {self.tt_size}")
        check_int("mcts_capacity", self.mcts_capacity, 2)
        check_int("solve_empties", self.solve_empties, 0, 64)
        check_int("first_solve_nodes", self.first_solve_nodes, 1)
        check_int("solve_growth", self.solve_growth, 2)
        check_number("solve_share", self.solve_share, 0.0, 1.0)
        check_int("wld_extra", self.wld_extra, 0, 64)
        check_number("opening_share", self.opening_share, 0.0, 1.0)
        check_number("opening_fill", self.opening_fill, 0.0, 1.0)
        check_number("stop_share", self.stop_share, 0.0)
        check_number("exploration", self.exploration, 0.0)
        check_number("rd", self.rd, 0.0)
        check_int("min_samples", self.min_samples, 1)


def probcut_path(evaluation: str) -> Path:
    """The fitted ProbCut parameters of an Othello evaluation (engines/learn/probcut_fit.py writes them)."""
    import weights
    return Path(weights.__file__).resolve().parent / "othello" / f"probcut_{evaluation}.json"


class Player:
    """Chooses moves for the side to move of an Othello state within a time budget."""

    def __init__(self, settings: OtpSettings = OtpSettings(), clock=time.perf_counter):
        from engines.games import make_game  # the engine: imported once its kernels are in the cache
        from engines.search import make_searcher
        self.game = make_game("othello", size=8)
        self.settings = settings
        self.clock = clock
        if settings.algo == "default":
            from engines.knowledge.registry import knowledge_for
            from engines.search.alphabeta import load_probcut
            search = {"tt_size": settings.tt_size, "stop_share": settings.stop_share}
            if settings.probcut:
                search["probcut"] = load_probcut(probcut_path(settings.evaluation))
            self.searcher = make_searcher("alphabeta", self.game, search, knowledge_for(self.game, settings.evaluation),
                                          seed=settings.seed, clock=clock)
            self._warm_up(search)
        else:
            search = {"selection": "ucb1" if settings.algo == "ucb" else "uct", "c": settings.exploration}
            if settings.algo == "uct-pp":
                search.update(progressive_pruning=True, pp_rd=settings.rd, pp_min_samples=settings.min_samples)
            self.searcher = make_searcher("mcts", self.game, search, seed=settings.seed,
                                          capacity=settings.mcts_capacity, clock=clock)
        self.last = {}  # what the last choice did (for figures and tests)
        self._wld_solver = None  # the win/loss/draw solves' EndgameSolver, made at the first

    def _warm_up(self, search):
        """Load the compiled kernels of the search, its evaluation and the endgame solves now, so that
        no move pays for loading them (they come from the cache in a fraction of a second, but a
        fraction a move's clock cannot spare).  Uses its own searcher: nothing reads self.clock."""
        from engines.knowledge.othello import solve_endgame
        from engines.knowledge.othello_endgame import solve_state
        from engines.search import Limits, make_searcher
        game = self.game
        probe = make_searcher("alphabeta", game, {**search, "tt_size": 1 << 10}, self.searcher.knowledge)
        probe.search(game.initial_state(), Limits(depth=3))
        s = game.initial_state()
        while int((game.cells(s) == 0).sum()) > 10 or game.must_pass(s):  # a small endgame, the mover placing
            s = game.play(s, int(game.legal_moves(s)[0]))
            if game.is_terminal(s):
                return
        solve_endgame(s)
        solve_state(s, wld=True)

    def choose(self, state, seconds: float, start: float | None = None) -> int:
        """The action to play (the state must not be final); at most seconds from start on the clock."""
        from engines.knowledge.othello import SolveBudgetExceeded
        from engines.search import Limits
        start = self.clock() if start is None else start
        margin = self.settings.margin
        legal = self.game.legal_moves(state)
        if len(legal) == 1:  # a forced move or the pass: nothing to think about
            self.last = {"forced": True}
            return int(legal[0])
        s = self.settings
        cells = self.game.cells(state)
        empties = int((cells == 0).sum())
        if s.algo == "default":
            seconds = move_seconds(seconds, cells.size - empties, cells.size, len(legal), s.opening_fill,
                                   s.opening_share)
            if empties <= s.solve_empties:
                try:
                    return self._solve(state, start + seconds - margin)
                except SolveBudgetExceeded:
                    pass  # no exact solve fits the time left: a win/loss/draw solve, else search
            if empties <= s.solve_empties + s.wld_extra:
                try:
                    return self._solve(state, start + seconds - margin, wld=True)
                except SolveBudgetExceeded:
                    pass  # no solve fits the time left (or every move loses): search instead
        result = self.searcher.search(state, Limits(time=seconds, start=start, margin=margin))
        self.last = {"solved": False, **result.stats}
        return int(result.move)

    def _solve(self, state, deadline, wld: bool = False) -> int:
        """The exact solve's move (wld: a win/loss/draw solve's winning or drawing move), retrying with
        solve_growth times more nodes while the retry's predicted time fits; SolveBudgetExceeded once
        it does not (and for a win/loss/draw solve that finds every move losing: the search then
        picks the move that loses least by its evaluation)."""
        from engines.knowledge.othello import SolveBudgetExceeded, solve_endgame
        from engines.knowledge.othello_endgame import EndgameSolver, SolveDeadlineExceeded, state_bits
        from engines.knowledge.othello_patterns import estimate_bits
        s = self.settings
        budget = s.first_solve_nodes
        guess = 0 if wld else estimate_bits(*state_bits(state))
        if wld:  # one table for every attempt and move (its entries stay true); the clock read every WLD_SLICE nodes
            if self._wld_solver is None:
                self._wld_solver = EndgameSolver(tt_bits=WLD_TABLE_BITS, clock=self.clock, slice_nodes=WLD_SLICE)
            solver = self._wld_solver
            bits = state_bits(state)
        while True:
            began = self.clock()
            try:
                solved = (solver.solve(*bits, budget, deadline, wld=True) if wld
                          else solve_endgame(state, budget, deadline=deadline, clock=self.clock, guess=guess))
            except SolveBudgetExceeded as out:
                if isinstance(out, SolveDeadlineExceeded) or out.nodes == 0:
                    raise  # the time is up
                now = self.clock()
                rate = out.nodes / max(now - began, 1e-6)
                budget *= s.solve_growth
                if budget / rate > s.solve_share * (deadline - now):
                    raise
                continue
            if wld:
                if solved.score < 0:
                    raise SolveBudgetExceeded(solved.nodes)
                self.last = {"solved": True, "wld": True, "score": solved.score, "nodes": solved.nodes}
            else:
                self.last = {"solved": True, "score": solved.score, "nodes": solved.nodes}
            return solved.move

    def played(self, move: int) -> None:
        self.searcher.advance(move)

    def reset(self) -> None:
        self.searcher.reset()


class Engine:
    """Where the session's moves come from: the engine's Player once its kernels load from the cache
    (built by ``build`` at the first genmove after ``compiler`` is ready), None before."""

    def __init__(self, build, compiler=None):
        self.build, self.compiler = build, compiler
        self.player = None

    def current(self):
        """The Player, built now if the cache has just become warm; None while it is cold."""
        if self.player is None and (self.compiler is None or self.compiler.ready()):
            self.player = self.build()
        return self.player


class OtpSession:
    """The engine's state in one OTP session: the board (a pure-Python ``rules.Position``, so that it
    is kept while the engine compiles), its history and where moves come from.  Its methods are the
    command handlers (``commands``); an error (ProtocolError) leaves the board unchanged.

    ``player``: a Player-like object (``game``, ``choose``, ``played``, ``reset``) or an Engine (cold
    start).  ``authority``: the judge is the authority (a TCP connection): a play our rules refuse is
    played as told, with a warning (``warn``), never refused.  ``fallbacks``/``searched`` count the
    genmoves answered by the quick fallback and by the engine.
    """

    def __init__(self, player, settings: OtpSettings = OtpSettings(), authority: bool = False, warn=None):
        self.engine = player if isinstance(player, Engine) else Engine(lambda: player)
        self.settings = settings
        self.authority = authority
        self.warn = warn or (lambda text: print(f"plies-otp: {text}", file=sys.stderr, flush=True))
        self.fallbacks = self.searched = 0
        self.clear_board([])

    @property
    def game(self):
        """The engine's game (builds the player: not for a cold start)."""
        return self.engine.current().game

    @property
    def state(self):
        """The board as an engine state (tests; builds the player)."""
        game = self.game
        return game.state_from_cells(self.position.board, self.position.to_move - 1)

    @state.setter
    def state(self, state):
        game = self.game
        self.position = rules.Position(game.cells(state).tolist(), game.to_move(state) + 1)
        if self.engine.player is not None:
            self.engine.player.reset()

    def commands(self) -> dict:
        """The handler of every OTP command: arguments -> the reply's fields."""
        return {"name": lambda args: self.settings.name, "clear_board": self.clear_board, "play": self.play,
                "genmove": self.genmove, "undo": self.undo, "final_score": self.final_score,
                "showboard": lambda args: self.position.render(), "quit": self.quit}

    def clear_board(self, args) -> str:
        self.position = rules.Position.start(otp.SIZE)
        self.history = []  # the positions before each move, for undo
        self.ours = None   # our colour in a judge's round: whoever moves at our first genmove
        if self.engine.player is not None:
            self.engine.player.reset()
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
        player = self.engine.current()
        if player is None or position.status == rules.MUST_PASS:
            point = position.fallback()
            self.fallbacks += player is None
        else:
            game = player.game
            state = game.state_from_cells(position.board, position.to_move - 1)
            start = player.clock() - (time.perf_counter() - received) if hasattr(player, "clock") else None
            point = game.point_of(player.choose(state, self.settings.time, start))
            self.searched += 1
        self._play(point)
        return otp.format_move(PASS if point is None else point)

    def undo(self, args) -> str:
        if not self.history:
            raise ProtocolError("nothing to undo")
        self.position = self.history.pop()
        if self.engine.player is not None:
            self.engine.player.reset()
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
        except IllegalMove as err:  # its text starts 'illegal move'
            if point is None and err.reason.name == "PASS_NOT_ALLOWED":
                raise ProtocolError("illegal move: a pass while a placement exists") from None
            raise ProtocolError(str(err)) from None
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
                why = str(err)
        else:
            why = "our board has the other side to move"
        self.warn(f"the judge's move {otp.format_move(PASS if point is None else point)} is not legal on our board "
                  f"({why}); playing it as the judge says")
        self.history.append(position)
        self.position = position.force(point, mover)
        if self.engine.player is not None:
            self.engine.player.reset()  # its tree cannot follow a move its rules refuse

    def _moved(self, after, point):
        self.history.append(self.position)
        self.position = after
        player = self.engine.player
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
    for field in dataclasses.fields(OtpSettings):
        flag, choices = "--" + field.name.replace("_", "-"), field.metadata["choices"]
        p.add_argument(flag, type=field.metadata["kind"], choices=choices, default=None,
                       help=f"{field.metadata['meaning']} [default {field.default}]")
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
    flags = {f.name: getattr(args, f.name) for f in dataclasses.fields(OtpSettings)}
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
    compiler = Compiler("othello", "plies-otp")  # before any engine module: cold, it compiles in the background
    try:
        if args.host is None:
            session = OtpSession(Engine(lambda: Player(settings), compiler), settings)
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
            session = OtpSession(Engine(lambda: Player(settings), compiler), settings, authority=True)
            return run(make_engine(session), otp.SocketChannel(sock))
    finally:
        compiler.close()


def _quiet_stdout():
    """Point stdout at /dev/null so that the interpreter's final flush cannot raise on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
