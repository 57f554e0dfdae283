"""plies-gtp: a standard GTP v2 Go engine (5x5 to 19x19) for GoGui, Sabaki, Lizzie, gogui-twogtp and kgsGtp.

The protocol mapping and the session state only: the Go player (engines/players/go.py) searches and
decides, the game record (engines/players/go_record.py) holds the moves, the clock is
engines/players/clock.py's, and a cold compiled-kernel cache is bridged by engines/players/coldstart.py.
Commands, rules, time, cold start, settings and exit statuses: README.md, section "GTP Go engine".
"""

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config, gtp_serve
from adapters.config import setting
from engines.errors import IllegalMove
from engines.games.reference import go as go_rules
from engines.players.clock import TimeControl, TimeManager, TimeSettingsError, budget_problems
from engines.players.coldstart import COMPILE_FAILED, ColdStart
from engines.players.go import GoSettings  # the settings only: no kernel at import
from engines.players.go_record import GoRecord, SetupError, fallback_move
from protocols import gtp, gtp_go
from protocols.common import ProtocolError, parse_float, parse_int
from protocols.sgf import GameRecord, format_sgf, parse_sgf

players = None  # the Go player's module (engines/players/go.py), imported once its kernels are cached

MIN_SIZE, MAX_SIZE = 2, 19
ENV_PREFIX = "PLIES_GTP"
GO5_KEYS = ("rollout_limit", "go5_knowledge", "go5_rollouts")  # the player's keys of the go5 search: no flags
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "served": (0, "quit, or the end of the input"),
    "interrupted": (1, "the controller closed the pipe, or Ctrl-C"),
    "refused": (2, "bad settings (flags, --config, PLIES_GTP_*)"),
    "search": (3, "the search cannot be built (a missing or unreadable --weights or --policy-network file, or "
               "weights no search takes)"),
}
FALLBACK_COMMANDS = ("boardsize", "clear_board", "komi", "play", "undo", "showboard", "time_settings", "time_left",
                     "kgs-time_settings", "genmove", "reg_genmove", "kgs-genmove_cleanup", "quit", "protocol_version",
                     "name", "version", "gogui-analyze_commands")  # what a cold session answers itself
GENMOVES = ("genmove", "reg_genmove", "kgs-genmove_cleanup")
COMMANDS = ("protocol_version name version quit boardsize clear_board komi play genmove reg_genmove "
            "kgs-genmove_cleanup undo showboard final_score final_status_list time_settings time_left "
            "kgs-time_settings loadsgf printsgf set_free_handicap place_free_handicap fixed_handicap "
            "gogui-analyze_commands plies-heatmap plies-pv plies-ownership lz-analyze lz-genmove_analyze").split()


@dataclass(frozen=True)
class Settings(GoSettings):
    """The Go player's tunables (engines/players/go.py GoSettings: one meaning, one name in every Go
    adapter) with plies-gtp's defaults, and the session's own keys (adapters/config.py)."""
    search: str = setting("auto", "the search: rave, mcts, or auto (rave when the engine has it, else mcts)",
                          choices=("auto", "rave", "mcts"))
    c: float = setting(0.7, "mcts: UCT exploration constant")
    size: int = setting(19, f"board size at start ({MIN_SIZE}..{MAX_SIZE}; controllers send boardsize anyway)")
    komi: float = setting(7.0, "komi at start (area scoring; the controller's komi command overrides it)")
    rules: str = setting("superko", "superko (positional superko, as CGOS) or standard (simple ko)",
                         choices=("standard", "superko"))
    time: float = setting(1.0, "seconds per genmove when the controller set no time limit (0: simulations only)")
    simulations: int | None = setting(None, "simulations per genmove, at most (none: time alone)", kind=int)
    analyze_seconds: float = setting(1.0, "seconds of search behind a GoGui analysis command (heat map, pv)")
    time_margin: float = setting(0.25, "seconds kept in reserve on every timed move")
    verbose: bool = setting(False, "one line on stderr per genmove: time allocated and used, simulations, win rate")

    def __post_init__(self):
        problems = budget_problems(self.time, self.simulations) + self.problems()
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            problems.insert(0, f"size must be in {MIN_SIZE}..{MAX_SIZE}, got {self.size}")
        if self.capacity < 1000 or self.analyze_seconds <= 0 or self.time_margin < 0:
            problems.append("capacity must be >= 1000, analyze_seconds > 0 and time_margin >= 0")
        if problems:
            raise ValueError("; ".join(problems))


class GoSession(gtp_serve.Identity):
    """The session: the game record (engines/players/go_record.py) and, once the kernels are cached,
    the player (engines/players/go.py); this maps GTP onto them.  Started ``cold`` (coldstart.py), the
    record holds reference positions and ``player`` is None until it takes the game over (``warm``);
    meanwhile only FALLBACK_COMMANDS answer at once (README: cold start)."""

    def __init__(self, settings: Settings, clock=time.perf_counter, err=None, cold: ColdStart | None = None):
        self.settings, self.clock, self.cold, self.rng = settings, clock, cold, random.Random(settings.seed)
        self.err = err if err is not None else sys.stderr
        self.time = TimeManager.per_move_or_game(settings.time, settings.time_margin, clock)
        self.player = None
        if cold is None:
            self.warm()
        else:
            cold.make_player = lambda: self.warm(self.record)
            self.record = GoRecord(go_rules.RecordBoards(settings.rules == "superko"), settings.size, settings.komi)

    def warm(self, played: GoRecord | None = None):
        """The player and its record; ``played``, a cold session's record, is replayed into it (the
        hand-over: ColdStart's make_player, the clock carried over)."""
        global players
        from engines.players import go as players
        size, komi = (self.settings.size, self.settings.komi) if played is None else (played.size, played.komi)
        self.player = players.GoPlayer(GoSettings.of(self.settings), self.time, self.settings.simulations,
                                       komi=komi, rules=self.settings.rules, clock=self.clock)
        self.record = self.player.new_record(size)
        if played is not None:
            self.record.replay(GameRecord(**played.fields()))
        return self

    # ---- what the player and the record hold, read by the commands (and the tests) ---------------
    engine = property(lambda self: self if self.player is not None else None)
    fallback_moves = property(lambda self: self.cold.fallbacks)
    game_clock = property(lambda self: self.time.game_clock)
    game = property(lambda self: self.player.game)
    searcher = property(lambda self: self.player.searcher)
    search_name = property(lambda self: self.player.search_name)
    last_result = property(lambda self: self.player.last_result)
    last_limits = property(lambda self: self.player.last_limits)
    komi = property(lambda self: self.record.komi)
    size = property(lambda self: self.record.size)
    states = positions = property(lambda self: self.record.positions)
    state = property(lambda self: self.record.position)
    moves = property(lambda self: self.record.moves)
    handicap = property(lambda self: self.record.handicap)

    def to_move(self) -> int:
        if self.player is None:
            return 1 - self.record.moves[-1][0] if self.record.moves else 0
        return self.game.to_move(self.state)

    def position_for(self, colour: int):
        return self.player.position_for(self.state, colour)

    def limits(self, colour: int, arrival: float):
        return self.player.limits(colour, self.game.nmoves(self.state), arrival)

    def ownership(self, state=None):
        return self.player.ownership(self.state if state is None else state)

    def fallback(self, colour: int, arrival: float):
        """While cold: a shallow search's move within the deadline the time manager gives this move."""
        deadline = self.time.deadline(colour, len(self.record.moves), self.size * self.size, start=arrival)
        return fallback_move(self.record, colour, deadline, self.rng)

    def genmove(self, colour: int, arrival: float, cleanup: bool = False) -> str:
        if self.player is None:
            point = self.fallback(colour, arrival)
            self.record.play(colour, point)
            self.cold.fallbacks += 1
            self.time.charge(colour, self.clock() - arrival)
            return gtp_go.format_move(point, self.size)
        point = self.player.genmove(colour, arrival, cleanup)
        text = "resign" if point == players.RESIGN else gtp_go.format_move(point, self.size)
        if self.settings.verbose:
            print(f"plies-gtp: genmove {'bw'[colour]} {text} move {self.game.nmoves(self.state)} "
                  f"{self.player.move_report(self.clock() - arrival)}", file=self.err, flush=True)
        return text

    # ---- the command table: every command through ``call`` ------------------------------------------
    def commands(self) -> dict:
        return gtp.command_table(self, COMMANDS, gtp_go.USAGES,
                                 through=lambda name, handler: lambda args: self.call(name, handler, args))

    def call(self, name: str, handler, args):
        if self.player is None:  # cold: hand over once compiled; a command only the player answers waits
            untimed = name in GENMOVES and not self.game_clock.control.limited
            if name in FALLBACK_COMMANDS and not untimed:
                self.cold.ready()
            elif not self.cold.wait():
                raise ProtocolError(COMPILE_FAILED)
        return handler(args)

    # ---- commands -----------------------------------------------------------------------------------
    cmd_gogui_analyze_commands = staticmethod(lambda args: gtp_go.ANALYZE_COMMANDS)

    @staticmethod
    def on_clock(set_clock, *values) -> str:
        try:
            set_clock(*values)
        except TimeSettingsError as err:
            raise ProtocolError(str(err)) from None
        return ""

    def cmd_time_settings(self, args):
        control = gtp_go.parse_time_settings(args)
        return self.on_clock(lambda: self.game_clock.set_control(TimeControl.from_gtp(*control)))

    def cmd_kgs_time_settings(self, args):
        return self.on_clock(lambda: self.game_clock.set_control(TimeControl.from_kgs(args)))

    def cmd_time_left(self, args):
        return self.on_clock(self.game_clock.time_left, *gtp_go.parse_time_left(args))

    def cmd_komi(self, args):
        self.record.set_komi(parse_float(args[0], "komi"))
        return ""

    def cmd_boardsize(self, args):
        size = parse_int(args[0], "board size")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError("unacceptable size")  # GTP 2's text for a size the engine cannot play
        self.record.start(size)
        return ""

    def cmd_clear_board(self, args):
        self.record.start(self.size)
        return ""

    def cmd_undo(self, args):
        if not self.record.undo():
            raise ProtocolError("cannot undo")
        return ""

    def cmd_play(self, args):
        colour = gtp.parse_colour(args[0])
        point = gtp.parse_vertex(args[1], self.size)
        try:
            self.record.play(colour, point)
        except IllegalMove as err:
            raise ProtocolError(f"illegal move: {err.reason.sentence}") from None
        return ""

    def cmd_genmove(self, args, cleanup: bool = False):
        arrival = self.clock()
        return self.genmove(gtp.parse_colour(args[0]), arrival, cleanup)

    def cmd_kgs_genmove_cleanup(self, args):
        return self.cmd_genmove(args, cleanup=True)

    def cmd_reg_genmove(self, args):
        arrival, colour = self.clock(), gtp.parse_colour(args[0])
        point = (self.fallback(colour, arrival) if self.player is None
                 else self.player.searched_move(self.state, colour, arrival))
        return gtp_go.format_move(point, self.size)

    def cmd_showboard(self, args):
        return gtp_go.format_board(*self.record.board(), self.to_move(), self.komi)

    def cmd_final_score(self, args):
        return gtp.format_score(self.player.counted_score(self.state))

    def cmd_final_status_list(self, args):
        kind = gtp_go.parse_status(args[0])
        return " ".join(gtp_go.format_move(p, self.size) for p in self.player.statuses(self.state)[kind])

    def cmd_loadsgf(self, args):
        up_to = parse_int(args[1], "move number", low=1) if len(args) > 1 else None
        try:
            text = Path(args[0]).read_bytes()
        except OSError as err:
            raise ProtocolError(f"cannot load file: {err.strerror or err}") from None
        try:  # a failed load leaves the game as it was (the record replays the previous game)
            self.record.load(parse_sgf(text, up_to))
        except IllegalMove as err:
            raise ProtocolError(f"illegal move in the SGF: {err.reason.sentence}") from None
        except SetupError as err:
            raise ProtocolError(str(err)) from None
        except ValueError as err:
            raise ProtocolError(f"bad SGF position: {err}") from None
        return ("black", "white")[self.to_move()]

    def cmd_printsgf(self, args):
        text = format_sgf(GameRecord(**self.record.fields()))
        if args:
            try:
                Path(args[0]).write_text(text)
            except OSError as err:
                raise ProtocolError(f"cannot write file: {err.strerror or err}") from None
            return ""
        return text.strip()

    def check_empty(self):
        if not self.record.is_empty():
            raise ProtocolError("board not empty")  # the handicap commands' text

    def handicap_stones(self, points) -> str:
        try:
            self.record.place_handicap(points)
        except SetupError as err:
            raise ProtocolError(str(err)) from None
        return gtp_go.format_handicap(points, self.size)

    def cmd_fixed_handicap(self, args):
        stones = parse_int(args[0], "handicap stones")
        self.check_empty()
        return self.handicap_stones(gtp_go.fixed_handicap_points(self.size, stones))

    def cmd_place_free_handicap(self, args):
        stones, n = parse_int(args[0], "handicap stones"), self.size
        self.check_empty()
        if not 2 <= stones <= n * n - 1:
            raise ProtocolError(f"invalid handicap {stones} on {n}x{n}")
        try:
            fixed = gtp_go.fixed_handicap_points(n, min(stones, 9))
        except ProtocolError:
            fixed = []
        return self.handicap_stones(players.free_handicap_points(n, stones, fixed))

    def cmd_set_free_handicap(self, args):
        self.check_empty()
        self.handicap_stones(gtp_go.parse_vertex_list(args, self.size))
        return ""

    # ---- analysis -------------------------------------------------------------------------------
    def analysis(self, colour: int, seconds: float):
        """Search the current position for colour for seconds more (the tree grows on)."""
        return self.player.analysis(self.position_for(colour), seconds)

    def analysis_of(self, args):
        """(colour, the result of the analysis seconds' search) of a GoGui analysis command."""
        colour = gtp.parse_colour(args[0]) if args else self.to_move()
        return colour, self.analysis(colour, self.settings.analyze_seconds)

    def info(self, result) -> str:
        """lz-analyze's line of a search: its root moves with visits (win rates for the mover)."""
        return gtp_go.format_info([gtp_go.AnalysisLine(point, visits, winrate, 0.0, pv)
                                   for point, visits, winrate, pv in self.player.candidates(result)], self.size)

    def analyze_step(self, colour: int, seconds: float) -> str:
        return self.info(self.analysis(colour, seconds))  # one lz-analyze line after seconds more of search

    def cmd_lz_analyze(self, args):
        colour, interval = gtp_go.parse_lz_analyze(args, self.to_move())
        return "\n" + self.analyze_step(colour, interval / 100 if interval > 0 else self.settings.analyze_seconds)

    def cmd_lz_genmove_analyze(self, args):
        arrival = self.clock()
        colour, interval = gtp_go.parse_lz_analyze(args, self.to_move())
        move = self.genmove(colour, arrival)
        return f"\n{self.info(self.last_result[1])}\nplay {move}"

    def cmd_plies_heatmap(self, args):
        colour, result = self.analysis_of(args)
        influence, labels, best = self.player.heat(result)
        return "\n" + gtp_go.format_heat_map(self.size, colour, result.value, result.stats.get("simulations", 0),
                                             influence, labels, best)

    def cmd_plies_pv(self, args):
        colour, result = self.analysis_of(args)
        return "\n" + gtp_go.format_variation(self.size, colour, result.value, map(self.game.point_of, result.pv))

    def cmd_plies_ownership(self, args):
        return "\n" + gtp_go.format_ownership(self.ownership())


# ==== settings and main ===========================================================================

def build_parser() -> argparse.ArgumentParser:
    """A flag for every key of Settings (left at None when not given: the file and environment decide)."""
    return config.settings_parser("plies-gtp", __doc__.splitlines()[0], Settings, "komi = 6.5",
                                  config.settings_epilog(ENV_PREFIX, "TIME=2", EXIT_STATUS), skip=GO5_KEYS)


def load_settings(args: argparse.Namespace, env=os.environ) -> Settings:
    return config.command_line_settings(Settings, args, ENV_PREFIX, env)


make_engine = gtp_serve.make_engine


def open_session(settings: Settings, err=None):
    """(the session, what closes it): started cold unless the cache is warm; FileNotFoundError or
    ValueError when the search cannot be built."""
    if settings.weights is not None and not Path(settings.weights).is_file():
        raise FileNotFoundError(f"no weights file {settings.weights}")
    if settings.policy_prior > 0 and settings.policy_network is not None and not Path(settings.policy_network).is_file():
        raise FileNotFoundError(f"no network file {settings.policy_network}")
    cold = ColdStart("go", "plies-gtp", None, err=err)
    return GoSession(settings, err=err, cold=None if cold.compiler.ready() else cold), cold.close


def serve(session) -> int:
    """Serve stdin, lz-analyze streaming until the next command (gtp_serve.stream_analysis)."""
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="surrogateescape")
    engine = make_engine(session)
    return gtp_serve.serve(engine, sys.stdin.fileno(), out,
                           lambda line, reader: gtp_serve.stream_analysis(engine, session, line, reader, out))


def main(argv=None) -> int:
    return gtp_serve.run("plies-gtp", build_parser().parse_args(argv), load_settings, open_session, serve,
                         EXIT_STATUS, start_fault="search")


if __name__ == "__main__":
    sys.exit(main())
