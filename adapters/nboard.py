"""plies-nboard: an Othello engine for the NBoard GUI (the NBoard protocol, as Edax and Egaroucid speak it).

    plies-nboard [--config FILE] [--time SECONDS] [--depth N] [--<key> VALUE ...]

NBoard starts the engine and talks to it on stdin/stdout, a command a line (README "NBoard protocol";
protocols/nboard.py parses and formats).  ``NBoardSession`` keeps the game (``set game``, ``move``) and
asks the Othello player (engines/players/othello.py, plies-otp's) for ``go`` and ``hint``: ``set depth N``
is the midgame search's depth limit, ``time`` caps every search (seconds from the command's arrival),
and the endgame is solved exactly or win/loss/draw where the player's solve policy finds it fits.
``go`` answers ``=== F5/eval/seconds`` (eval in discs for the side to move; none for a forced move) and
does not play the move (NBoard sends it back with ``move``).  ``hint N``: ``status``, ``search`` lines
for the best N moves (depth ``100%`` when exact), an empty ``status``.  Unknown or malformed commands
get one ``error ...`` line (NBoard ignores it) and change nothing.

The engine loads in the background from the start, so ``nboard``/``ping`` are answered at once; a ``go``
or ``hint`` that comes before it is there waits for it (the GUI has no clock on a move) and its time
starts once it is loaded.  With a cold compiled-kernel cache the shallow fallback search over the
reference rules plays until the detached compile is done (engines/players/coldstart.py).
Settings: ``NBoardSettings`` (the player's plus time, depth, name): --config, PLIES_NBOARD_<KEY>, flags.
"""
import os
import sys
import time
from dataclasses import dataclass

from adapters import config
from adapters.config import ConfigError, setting
from engines.errors import IllegalMove
from engines.games.reference import othello as rules
from engines.players.coldstart import ColdStart
from engines.players.othello import OthelloRecord, OthelloSettings, make_player
from engines.validate import check_int, check_number
from protocols import nboard
from protocols.common import EndOfInput, ProtocolError, Quit, internal_error

ENV_PREFIX = "PLIES_NBOARD"
EXIT_STATUS = {"quit": (0, "quit, or the end of stdin"), "refused": (2, "bad arguments or settings"),
               "no stdio": (3, "no stdin or stdout to talk on")}


@dataclass(frozen=True)
class NBoardSettings(OthelloSettings):
    """Every tunable of plies-nboard: the Othello player's and the GUI's."""
    time: float = setting(10.0, "the most seconds a go or hint takes, from its arrival (the depth may end it sooner)")
    depth: int = setting(12, "the midgame depth until the GUI sends set depth")
    name: str = setting("plies", "the name sent to the GUI (set myname; one word)")

    def __post_init__(self):
        super().__post_init__()
        if check_number("time", self.time, 0.0) == 0:
            raise ValueError("time must be a positive number of seconds, got 0")
        check_int("depth", self.depth, 1, 60)
        if len(self.name.split()) != 1 or self.name != self.name.strip():
            raise ValueError(f"name must be one word, got {self.name!r}")


class NBoardSession(OthelloRecord):
    """One GUI session: the game (engines/players/othello.py's OthelloRecord: the board under the
    standard 8x8 rules, the player or its ColdStart), the depth and the contempt, and the handlers of
    every NBoard command (``commands``).  The player also gives ``report`` and ``hints``."""

    def __init__(self, player, settings: NBoardSettings = NBoardSettings(), clock=time.perf_counter, warn=None):
        super().__init__(player, settings, clock, warn or (lambda text: print(f"plies-nboard: {text}",
                                                                             file=sys.stderr, flush=True)))
        self.depth, self.contempt, self.version = settings.depth, 0, None

    def commands(self) -> dict:
        return {"nboard": self.nboard, "set": self.set, "move": self.move, "hint": self.hint, "go": self.go,
                "ping": lambda args: f"pong {nboard.parse_count(args, 'ping', None)}",
                "learn": lambda args: "learned", "analyze": lambda args: None, "quit": self.quit}

    def thinker(self, received: float):
        """(the player or None, when the command's time starts): a GUI has no clock on a move, so a
        command that comes while the engine loads in the background waits for it, and the load (a few
        seconds, once) is not counted in its time."""
        if self.cold is not None and not self.cold.ready() and self.cold.loading() and self.cold.wait():
            return self.cold.player, self.clock()
        return self.current(), received

    # ---- the game ------------------------------------------------------------------------------------
    def nboard(self, args):
        self.version = nboard.parse_count(args, "nboard")
        if self.version != nboard.VERSION:
            self.warn(f"the GUI speaks NBoard protocol version {self.version}; this engine speaks {nboard.VERSION}")

    def set(self, args):
        key, value = (args + ["", ""])[:2]
        if key == "depth":
            self.depth = nboard.parse_count(value.split(), "set depth", 1)
            return f"set myname {self.settings.name}"
        if key == "contempt":  # draws valued for black: plies keeps no book, where it would count
            self.contempt = nboard.parse_count(value.split(), "set contempt", None)
            return None
        if key != "game":
            raise ProtocolError(f"unknown setting {key!r} (ignored)")
        game = nboard.parse_game(value)
        position = rules.Position(game.board, game.to_move)
        for i, m in enumerate(game.moves):
            if m.colour != position.to_move and position.status == rules.MUST_PASS:
                position = position.play(None)  # a record may leave out a forced pass
            if m.colour != position.to_move:
                raise ProtocolError(f"move {i + 1} of the game ({nboard.format_move(m.point)}) is not "
                                    f"{'black' if position.to_move == rules.DARK else 'white'}'s, whose turn it is")
            position = self._after(position, m.point, f"move {i + 1} of the game")
        self.restart(position)  # only a whole legal game replaces the board
        return None

    def move(self, args):
        if len(args) != 1:
            raise ProtocolError(f"move takes one move (F5, F5/eval/time), got {len(args)} argument(s)")
        point = nboard.parse_move_item(args[0])[0]
        self.moved(self._after(self.position, point, "move"), point)

    @staticmethod
    def _after(position, point, what):
        try:
            return position.play(point)
        except IllegalMove as err:
            raise ProtocolError(f"{what} {nboard.format_move(point)} is illegal: {err.reason.sentence}") from None
        except ValueError:  # GameOver
            raise ProtocolError(f"{what} {nboard.format_move(point)} is illegal: the game is over") from None

    # ---- thinking ------------------------------------------------------------------------------------
    def go(self, args):
        player, received = self.thinker(self.clock())
        if self.position.is_over():
            raise ProtocolError("the game is over: no move to play")
        point = self.choose_point(self.settings.time, received, depth=self.depth, solve=True)
        value = None if player is None or point is None else player.report(player.game.action(*point))["value"]
        return "=== " + nboard.format_move_item(point, value, self.clock() - received)

    def hint(self, args):
        count = nboard.parse_count(args, "hint", 1)
        player, received = self.thinker(self.clock())
        if self.position.is_over():
            raise ProtocolError("the game is over: no move to hint")
        lines = [f"status {self.settings.name} is thinking"]
        try:  # an engine bug still closes the hint: NBoard waits for the empty status
            if player is None:  # no evaluation without the engine: the fallback's move, valued 0
                point = self.choose_point(self.settings.time, received)
                lines.append(nboard.format_search(point, 0.0, "0") + " fallback search")
            else:
                state = player.game.state_from_cells(self.position.board, self.position.to_move - 1)
                for h in player.hints(state, self.settings.time, received, self.depth, count):
                    depth = "100%W" if h["wld"] else ("100%" if h["exact"] else str(h["depth"]))
                    pv = "".join(nboard.format_move(player.game.point_of(a)) for a in h["pv"][1:])
                    lines.append(nboard.format_search(player.game.point_of(h["move"]), h["value"] or 0.0, depth, pv))
        except Exception as err:  # noqa: BLE001 - said on stderr; the session goes on
            lines.append(nboard.format_error(internal_error(err, sys.stderr)))
        return "\n".join(lines + ["status"])

    def quit(self, args):
        raise Quit()


# ==== the process ================================================================================
def serve(engine: nboard.NBoardEngine, channel) -> int:
    try:
        while not engine.finished:
            reply = engine.handle(channel.receive())
            if reply is not None:
                channel.send(reply)
    except EndOfInput:
        pass
    return EXIT_STATUS["quit"][0]


def parse(argv, env=os.environ) -> NBoardSettings:
    p = config.settings_parser("plies-nboard", "Othello engine for the NBoard GUI (add it in NBoard's engine list "
                               "as the command plies-nboard)", NBoardSettings, "depth = 10",
                               config.settings_epilog(ENV_PREFIX, "TIME=5", EXIT_STATUS))
    return config.command_line_settings(NBoardSettings, p.parse_args(argv), ENV_PREFIX, env)


def main(argv=None) -> int:
    try:
        settings = parse(sys.argv[1:] if argv is None else argv)
    except ConfigError as err:
        print(f"plies-nboard: {err}. Fix: correct that setting (plies-nboard --help lists every key)", file=sys.stderr)
        return EXIT_STATUS["refused"][0]
    if sys.stdin is None or sys.stdout is None:
        print("plies-nboard: no stdin or stdout (NBoard runs the engine with both as pipes)", file=sys.stderr)
        return EXIT_STATUS["no stdio"][0]
    cold = ColdStart("othello", "plies-nboard", lambda: make_player(settings), background=True)
    try:
        cold.ready()  # warm: the engine loads in a thread while the first commands are answered
        session = NBoardSession(cold, settings)
        return serve(nboard.NBoardEngine(session.commands()), nboard.LineChannel(sys.stdin.buffer, sys.stdout))
    except (BrokenPipeError, KeyboardInterrupt):
        return EXIT_STATUS["quit"][0]
    finally:
        cold.close()


if __name__ == "__main__":
    sys.exit(main())
