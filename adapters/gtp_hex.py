"""plies-gtp-hex: a Hex engine speaking the GTP dialect of HexGui and MoHex (benzene).

The GTP mapping and the session's board only: the Hex player (engines/players/hex.py, shared with the
tournament client) searches and decides (search, knowledge, network, swap, deadlines), the wire
format is protocols/hex_gtp.py, and a cold compiled-kernel cache is bridged by
engines/players/coldstart.py.  Commands, conventions, swap, networks, cold start, settings and exit
statuses: README.md, section "Hex over GTP".
"""
import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config, gtp_serve
from adapters.config import setting
from engines.games.reference.hex import MAX_SIZE, MIN_SIZE
from engines.players import hex as hex_player
from engines.players.clock import ABSOLUTE, NONE, GameClock, TimeControl, TimeSettingsError
from engines.players.coldstart import ColdStart
from engines.players.hex_record import HexRecord
from protocols import gtp, hex_gtp
from protocols.common import ProtocolError

DEFAULT_SIZE = 11          # MoHex's start size; HexGui sends boardsize anyway
ENV_PREFIX = "PLIES_HEXGTP"
EXIT_STATUS = {  # how a run ends -> (the process's exit status, what --help says of it): the one place
    "served": (0, "quit, or the end of the input"),
    "interrupted": (1, "the controller closed the pipe, or Ctrl-C"),
    "refused": (2, "bad settings (flags, --config, PLIES_HEXGTP_*)"),
    "network": (3, "a --network file that is missing, is no network, or cannot play --size"),
}
ANALYZE_COMMANDS = "\n".join((  # HexGui's "type/label/command" lines (benzene's own first five)
    "param/Game Param/param_game",
    "plist/All Legal Moves/all_legal_moves %c",
    "string/ShowBoard/showboard",
    "string/Final Score/final_score",
    "varc/Reg GenMove/reg_genmove %c",
))
COMMANDS = ("protocol_version name version quit boardsize clear_board play genmove reg_genmove undo showboard "
            "final_score all_legal_moves param_game time_left hexgui-analyze_commands").split()


@dataclass(frozen=True)
class Settings(hex_player.HexSettings):
    """The player's tunables (engines/players/hex.py HexSettings) and the session's own two."""
    size: int | None = setting(None, f"board size at start ({MIN_SIZE}..{MAX_SIZE}; none: {DEFAULT_SIZE}, "
                                     "or the network's size)", kind=int)
    swap: bool = setting(False, "allow the swap move from the start (as param_game allow_swap 1)")

    def __post_init__(self):
        super().__post_init__()
        if self.size is not None and not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"size must be in {MIN_SIZE}..{MAX_SIZE}, got {self.size}")


class HexSession(gtp_serve.Identity):
    """One GTP session: the game record (engines/players/hex_record.py: the board and its moves,
    mirrored into the player), MoHex's swap switch, and the player of the board's size once the
    kernels are compiled (``player``; until then genmove is the fallback search's, and the first
    command after the compile hands the game over: ColdStart.ready, the moves replayed)."""

    UNDO_REFUSAL = "cannot undo: no move has been played"

    def __init__(self, settings: Settings, compiler=None, err=None):
        self.settings = settings
        self.err = err if err is not None else sys.stderr
        self.allow_swap = settings.swap
        # benzene's game clock: param_game game_time T gives each side T seconds (0: off, the fixed time a
        # move then); genmove charges its own time, time_left reads or sets it, a new game restarts it
        self.game_clock = GameClock(margin=settings.margin)
        self.cold = ColdStart("hex", "plies-gtp-hex", self._first_player, err=self.err, start=compiler is None)
        if compiler is not None:
            self.cold.compiler = compiler
        warm = self.cold.compiler.ready()
        if settings.network_choice() not in ("none", hex_player.SHIPPED) and not Path(settings.network).is_file():
            raise FileNotFoundError(f"no network file {settings.network}")
        size = settings.size
        if size is None:
            size = hex_player.start_size(settings, DEFAULT_SIZE) if warm else DEFAULT_SIZE
        self.record = HexRecord(size)
        if warm:
            self.record.player = self._new_player(size)   # a network that cannot play the size refuses the start

    # ---- the player ---------------------------------------------------------------------------
    player = property(lambda self: self.record.player)  # None: compiling, or the player cannot play the size
    fallback_moves = property(lambda self: self.cold.fallbacks)  # genmoves answered by the fallback search

    def _new_player(self, size: int):
        return hex_player.HexPlayer(self.settings, size, require_network=True, game_clock=self.game_clock)

    def _first_player(self):
        """The player once the compile is done, with the session's moves replayed (ColdStart's
        make_player); a network that cannot play the board is said, and the fallback goes on."""
        try:
            player = self._new_player(self.size)
        except ValueError as err:  # NetworkError
            print(f"plies-gtp-hex: error: {err}; moves stay the fallback's", file=self.err, flush=True)
            return None
        self.record.replay_into(player)
        hex_player.warm_up(self.settings)   # the kernels load now, not on a genmove's clock
        return player

    def engine(self):
        """The player when it plays (taking the game over at the first call after the compile), else None."""
        if self.player is None and self.cold.ready():
            self.record.player = self.cold.player
        return self.player

    # ---- the board ----------------------------------------------------------------------------
    size = property(lambda self: self.record.size)
    cells = property(lambda self: self.record.cells)
    moves = property(lambda self: [(colour, hex_gtp.SWAP if move == hex_player.SWAP else move)
                                   for colour, move in self.record.moves])

    def game_over_text(self) -> str:
        return f"the game is over: {hex_gtp.COLOUR_NAMES[self.record.winner()]} has won"

    def swap_allowed(self, colour: int) -> bool:
        return self.allow_swap and self.record.swap_legal(colour)

    def choose(self, colour: int, arrival: float, may_swap: bool):
        """colour's move (a point, or hex_player.SWAP) from the player, else from the fallback search."""
        if self.record.winner() is not None:
            raise ProtocolError(self.game_over_text())
        if self.engine() is not None:
            return self.player.genmove(colour, arrival, may_swap)
        self.cold.fallbacks += 1
        return hex_player.fallback_move(self.settings, self.cells, colour, arrival, game_clock=self.game_clock)

    # ---- the engine's view, for tests and tools ---------------------------------------------
    game = property(lambda self: self.player.game)
    state = property(lambda self: self.player.state)
    searcher = property(lambda self: self.player.searcher)
    network = property(lambda self: self.player.network)

    def search(self, colour: int, arrival: float):
        return self.player.search(colour, arrival)

    # ---- commands -----------------------------------------------------------------------------
    def cmd_boardsize(self, args):
        size = hex_gtp.parse_boardsize(args)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size must be in {MIN_SIZE}..{MAX_SIZE}, got {size}")
        if size != self.size and self.engine() is not None:
            try:
                player = self._new_player(size)   # first: a size the network cannot play changes nothing
            except ValueError as err:  # NetworkError
                raise ProtocolError(str(err)) from None
            self.record.player = None
            self.record.start(size)
            self.record.player = player
        else:
            self.record.start(size)
        self.game_clock.set_control(self.game_clock.control)  # a new game: both clocks full
        return ""

    def cmd_clear_board(self, args):
        self.record.start(self.size)
        self.game_clock.set_control(self.game_clock.control)
        return ""

    def cmd_play(self, args):
        colour = hex_gtp.parse_colour(args[0])
        move = hex_gtp.parse_move(args[1], self.size)
        if move == hex_gtp.RESIGN:
            return ""
        said = f"{hex_gtp.COLOUR_NAMES[colour]} {args[1].lower()}"
        if self.record.winner() is not None:
            raise ProtocolError(f"illegal move: {said} ({self.game_over_text()})")
        if move == hex_gtp.SWAP:
            if not self.swap_allowed(colour):
                why = ("swap is off: param_game allow_swap 1 turns it on" if not self.allow_swap
                       else "only white may swap, right after black's first stone")
                raise ProtocolError(f"illegal move: {said} ({why})")
            move = hex_player.SWAP
        elif self.record.occupied(move):
            raise ProtocolError(f"illegal move: {said} (occupied)")
        self.record.play(colour, move)
        return ""

    def cmd_genmove(self, args):
        arrival = time.perf_counter()
        colour = hex_gtp.parse_colour(args[0])
        move = self.choose(colour, arrival, self.swap_allowed(colour))
        self.record.play(colour, move)
        if not self.game_clock.spent(colour, time.perf_counter() - arrival):
            print(f"plies-gtp-hex: {hex_gtp.COLOUR_NAMES[colour]}'s game time ran out", file=self.err, flush=True)
        return self.format_move(move)

    def cmd_reg_genmove(self, args):
        """The move genmove would choose, without playing it (benzene's reg_genmove)."""
        arrival = time.perf_counter()
        colour = hex_gtp.parse_colour(args[0])
        return self.format_move(self.choose(colour, arrival, False))

    def format_move(self, move) -> str:
        return hex_gtp.SWAP if move == hex_player.SWAP else hex_gtp.format_cell(move, self.size)

    def cmd_undo(self, args):
        if not self.record.undo():
            raise ProtocolError(self.UNDO_REFUSAL)
        return ""

    def cmd_showboard(self, args):
        winner = self.record.winner()
        status = (f"{hex_gtp.COLOUR_NAMES[winner]} has won" if winner is not None
                  else f"{hex_gtp.COLOUR_NAMES[self.record.to_move()]} to move")
        return hex_gtp.format_board(self.cells, status)

    def cmd_final_score(self, args):
        return hex_gtp.format_result(self.record.winner())

    def cmd_all_legal_moves(self, args):
        """The empty cells in benzene's order (a1 b1 c1 ... a2 ...), and swap-pieces when legal;
        nothing once the game is over.  The colour argument of HexGui's '%c' is optional."""
        if self.record.winner() is not None:
            return ""
        names = [hex_gtp.format_cell(p, self.size) for p in self.record.empty_cells()]
        colour = hex_gtp.parse_colour(args[0]) if args else self.record.to_move()
        if self.swap_allowed(colour):
            names.append(hex_gtp.SWAP)
        return " ".join(names)

    def game_time(self) -> float:
        control = self.game_clock.control
        return control.main if control.mode == ABSOLUTE else 0.0

    def cmd_param_game(self, args):
        """MoHex's game parameters: with no argument, the list HexGui's parameter dialog reads;
        'param_game allow_swap 0|1' or 'param_game game_time SECONDS' sets one (game_time: each side's
        time for the game, benzene's; only before the first move; 0: no game clock)."""
        if not args:
            return f"\n[bool] allow_swap {int(self.allow_swap)}\n[string] game_time {self.game_time():g}"
        if len(args) != 2:
            raise ProtocolError("expected 0 or 2 arguments")
        if args[0] == "game_time":
            seconds = parse_seconds(args[1], "game_time")
            if self.record.moves:
                raise ProtocolError("cannot set game_time once the game has started")
            self.game_clock.set_control(TimeControl(ABSOLUTE, seconds) if seconds > 0 else TimeControl(NONE))
            return ""
        if args[0] != "allow_swap":
            raise ProtocolError(f"unknown parameter: {args[0]} (allow_swap or game_time)")
        value = args[1].lower()
        if value not in ("0", "1", "false", "true"):
            raise ProtocolError(f"allow_swap takes 0 or 1, got {args[1]!r}")
        self.allow_swap = value in ("1", "true")
        return ""

    def cmd_time_left(self, args):
        """benzene's time_left: no argument, both sides' seconds left ('Black: S, White: S'); a colour,
        its seconds; a colour and seconds (GTP's third argument, stones, accepted as 0), sets them."""
        if not self.game_clock.control.limited:
            raise ProtocolError("no game clock: param_game game_time SECONDS sets one")
        if not args:
            return ", ".join(f"{hex_gtp.COLOUR_NAMES[c].capitalize()}: {self.game_clock.report(c)[0]:g}"
                             for c in (0, 1))
        colour = hex_gtp.parse_colour(args[0])
        if len(args) == 1:
            return f"{self.game_clock.report(colour)[0]:g}"
        if len(args) == 3 and args[2] != "0":
            raise ProtocolError(f"stones must be 0 (a game clock has no byo-yomi), got {args[2]!r}")
        if len(args) > 3:
            raise ProtocolError("time_left [COLOUR [SECONDS]]")
        try:
            self.game_clock.time_left(colour, parse_seconds(args[1], "seconds"), 0)
        except TimeSettingsError as err:
            raise ProtocolError(str(err)) from None
        return ""

    cmd_hexgui_analyze_commands = staticmethod(lambda args: ANALYZE_COMMANDS)

    def commands(self) -> dict:
        """The command table; every command first lets the player take over if the compile is done."""
        return gtp.command_table(self, COMMANDS, hex_gtp.USAGES,
                                 through=lambda name, handler: lambda args: (self.engine(), handler(args))[1])

    def close(self):
        self.cold.close()   # a compile still running goes on (detached): the next start is warm


def parse_seconds(text: str, name: str) -> float:
    """A number of seconds >= 0 (ProtocolError naming ``name`` otherwise)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ProtocolError(f"{name} must be a number of seconds >= 0, got {text!r}")
    return seconds


make_engine = gtp_serve.make_engine


def build_parser() -> argparse.ArgumentParser:
    """A flag for every key of Settings (None when not given: the file and environment decide)."""
    return config.settings_parser("plies-gtp-hex", __doc__.splitlines()[0], Settings, "size = 7",
                                  config.settings_epilog(ENV_PREFIX, "SIMULATIONS=2000", EXIT_STATUS))


def load_settings(args: argparse.Namespace, env=os.environ) -> Settings:
    return config.command_line_settings(Settings, args, ENV_PREFIX, env)


def open_session(settings: Settings):
    """(the session, what closes it); ValueError (NetworkError) or FileNotFoundError for a network
    that cannot play.  A warm session loads the kernels before the first genmove's clock runs."""
    session = HexSession(settings)
    if session.player is not None:
        hex_player.warm_up(settings)
    return session, session.close


def main(argv=None) -> int:
    return gtp_serve.run("plies-gtp-hex", build_parser().parse_args(argv), load_settings, open_session,
                         lambda session: make_engine(session).serve(), EXIT_STATUS, start_fault="network")


if __name__ == "__main__":
    sys.exit(main())
