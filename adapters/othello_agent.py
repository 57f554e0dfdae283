"""Othello agent for the course's game manager: ``python3 othello_agent.py`` (passed to -a / -b of
othello_game.py or othello_gui.py), speaking the pipe dialogue of protocols/othello_pipe.py.

Run it from the plies tree (``-a /path/to/plies/adapters/othello_agent.py``) or copy it next to the
manager.  It finds plies (the packages ``adapters``, ``protocols``, ``engines``) in this order: the
running Python (the venv's python, where plies is installed); the plies tree this file lives in;
the folder named by PLIES_HOME; else it restarts itself under the Python named by PLIES_OTHELLO_PYTHON, the
tree's .venv/bin/python, or the one of the ``plies`` command on PATH.  A copy only locates the
installed package and runs its agent.

The moves come from the Othello player (engines/players/othello.py, plies-otp's) with the alpha-beta
options the manager's flags select (README "The Othello game manager's pipe agent"): -m minimax (-o is
then ignored, as in the course's agent), -c the transposition cache, -o node ordering, -l N a depth
limit (N = 0 counts as 1; no endgame solve, and the budget still bounds the search: the deepest
completed iteration answers, said on stderr).  Without -l it deepens until solved or out of time and
solves the endgame on 8x8 under the manager's rules.  Nothing but protocol lines goes to stdout.

Settings (``OthelloAgentSettings``; the manager passes no flags): othello_agent.toml beside the file the
manager runs, overridden by PLIES_OTHELLO_<KEY>: e.g. PLIES_OTHELLO_TIME=5 (seconds a move from the
board line's arrival; default 8 of the manager's 10), PLIES_OTHELLO_VERBOSE=1 (a line a move on
stderr), and the player's keys as plies-otp's.  The engine loads before the name goes out (the name has
no time limit), so the first move keeps its budget; with a cold kernel cache the compile runs detached
in the background and a shallow search over the pure-Python rules plays meanwhile (engines/players/coldstart.py).

Exit status (EXIT_STATUS):
  0  FINAL, the end of input, or the manager stopped reading our stdout
  2  a line the agent cannot go on from, or a bad setting (the reason on stderr)
  3  no Python with plies was found (the reason and the fix on stderr)
"""
import os
import sys

# ==== the launcher: finds plies from wherever this file is run (the standard library only) ========
EXIT_STATUS = {  # how a run ends -> (the process's exit status, its meaning): the one place
    "done": (0, "FINAL, the end of input, or the manager stopped reading our stdout"),
    "fatal": (2, "a line the agent cannot go on from, or a bad setting (the reason on stderr)"),
    "no plies": (3, "no Python with plies was found (the reason and the fix on stderr)"),
}
RESTARTED_VAR = "PLIES_OTHELLO_RESTARTED"  # set when the launcher restarts itself under another Python
SETTINGS_FILE = "othello_agent.toml"       # read beside the file the manager runs
HERE = os.path.dirname(os.path.abspath(__file__))


def _plies_tree():
    """The plies source tree this file lies in (its parent's parent), or None."""
    root = os.path.dirname(HERE)
    return root if os.path.isfile(os.path.join(root, "engines", "__init__.py")) else None


def _importable() -> bool:
    from importlib.util import find_spec
    try:
        return all(find_spec(m) is not None for m in ("engines", "protocols", "adapters", "numpy", "numba"))
    except (ImportError, ValueError):
        return False


def _interpreters():
    """Pythons that may have plies, best first."""
    found = [os.environ.get("PLIES_OTHELLO_PYTHON")]
    tree = _plies_tree()
    if tree:
        found.append(os.path.join(tree, ".venv", "bin", "python"))
    import shutil
    plies = shutil.which("plies")
    if plies:
        try:
            with open(plies, "rb") as f:
                line = f.readline().decode("utf-8", "replace").strip()
            if line.startswith("#!"):
                found.append(line[2:].split()[0])
        except (OSError, IndexError):
            pass
    return [p for p in found if p]


def launch() -> int:
    """Make plies importable (or restart under a Python that has it), then run the agent."""
    if sys.path and os.path.abspath(sys.path[0] or ".") == HERE and HERE.endswith(os.sep + "adapters"):
        sys.path.pop(0)  # run from the tree: adapters/ itself must not shadow top-level modules
    for folder in (_plies_tree(), os.environ.get("PLIES_HOME")):
        if _importable():
            break
        if folder:
            sys.path.insert(0, folder)
    if _importable():
        from adapters.othello_agent import main as agent_main
        return agent_main(os.path.join(HERE, SETTINGS_FILE))
    if not os.environ.get(RESTARTED_VAR):
        me = os.path.abspath(sys.executable)  # not realpath: a venv's python links to its base one
        for python in _interpreters():
            if os.path.isfile(python) and os.access(python, os.X_OK) and os.path.abspath(python) != me:
                os.environ[RESTARTED_VAR] = "1"
                sys.stderr.flush()
                os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])
    sys.stderr.write(
        f"othello_agent.py: cannot import plies (engines, protocols, adapters, numpy, numba) with {sys.executable}.\n"
        "Fix: put the plies venv's bin first on PATH (the manager runs `python3 FILE`), or set PLIES_OTHELLO_PYTHON to "
        "that Python (e.g. /path/to/plies/.venv/bin/python), or install plies into this Python "
        "(pip install -e /path/to/plies).\n")
    return EXIT_STATUS["no plies"][0]


if __name__ == "__main__":  # run by the manager: nothing below is read before plies is found
    sys.exit(launch())


# ==== the agent (imported as adapters.othello_agent once plies is importable) ======================
# Nothing of the engine is imported here: its kernels may have to be compiled first (a cold cache),
# which the ColdStart built in main() does in the background; the player is built once it is ready.
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from adapters import config  # noqa: E402
from adapters.config import ConfigError, setting  # noqa: E402
from engines.games.reference import othello as rules  # noqa: E402
from engines.players.coldstart import ColdStart  # noqa: E402
from engines.players.othello import (DEFAULT_EVALUATION, EVALUATION_NAMES, MANAGER, MAX_SIZE, MIN_SIZE,  # noqa: E402,F401
                                     WARM_UP_SIZES, OthelloSettings, fallback_move, make_player)
from engines.validate import check_number  # noqa: E402
from protocols.common import EndOfInput, FatalError, Quit, quiet_stdout  # noqa: E402
from protocols.othello_pipe import COLOR_NAMES, DARK, AgentSession, LineChannel, player_of  # noqa: E402

ENV_PREFIX = "PLIES_OTHELLO"
ANY_SIZE = 256              # the largest board the agent reads at all (the rules play any size)


@dataclass(frozen=True)
class OthelloAgentSettings(OthelloSettings):
    """Every tunable of the pipe agent: the Othello player's (engines/players/othello.py) and the harness's."""
    time: float = setting(8.0, "seconds per move from the board line's arrival (the manager allows 10)")
    verbose: bool = setting(False, "one line per move on stderr")
    name: str = setting("plies", "the name line the agent sends first (one word)")

    def __post_init__(self):
        super().__post_init__()
        if check_number("time", self.time, 0.0) == 0:
            raise ValueError("time must be a positive number of seconds, got 0")
        if len(self.name.split()) != 1 or not self.name.isascii() or self.name != self.name.strip():
            raise ValueError(f"name must be one ASCII word, got {self.name!r}")


def load_settings(file=os.path.join(HERE, SETTINGS_FILE), env=os.environ) -> OthelloAgentSettings:
    """The settings from the defaults, the TOML file and PLIES_OTHELLO_<KEY>; ConfigError for a bad one.
    The budget's old name (``seconds``, before plies-otp's ``time`` became the one name) is refused with
    the new one, never ignored: a budget set under it would otherwise silently be the default."""
    if env.get(f"{ENV_PREFIX}_SECONDS") not in (None, ""):
        raise ConfigError(f"{ENV_PREFIX}_SECONDS is now {ENV_PREFIX}_TIME (the seconds per move, as plies-otp's time)")
    if file is not None and os.path.isfile(file) and "seconds" in config.read_toml(file):
        raise ConfigError(f"the key seconds in {file} is now time (the seconds per move, as plies-otp's time)")
    return config.load(OthelloAgentSettings, file=file, env_prefix=ENV_PREFIX, env=env)


def search_config(flags) -> dict:
    """The AlphaBetaConfig fields the manager's flags ask for."""
    return {"use_alphabeta": not flags.minimax, "use_cache": bool(flags.caching),
            "use_ordering": bool(flags.ordering) and not flags.minimax, "iterative_deepening": True}


def search_depth(flags) -> int | None:
    """The depth limit in plies (None: none)."""
    return None if flags.limit < 0 else max(1, flags.limit)


class PipeAgent:
    """Answers the manager's boards with the Othello player (one per board size, the manager's variant)
    and the alpha-beta options its flags select.

    A move's budget is ``settings.time`` on ``clock``, measured from ``received`` (the clock
    when the board arrived).  ``last`` is the SearchResult of the latest move if it was searched (None
    for a forced move, an exact solve or a fallback).

    The board given is the truth: one that does not follow from the last (a position we did not
    expect, reachable or not) is played with a warning (``warn``).  While ``cold`` (a ColdStart) is
    not ready, or for a size the engine does not play, the move comes from the shallow fallback search
    over the reference rules (engines/games/reference/othello.py); ``fallbacks`` and ``searched`` count both.
    """

    def __init__(self, settings: OthelloAgentSettings = OthelloAgentSettings(), clock=time.perf_counter, log=None,
                 cold: ColdStart | None = None, warn=None):
        self.settings = settings
        self.clock = clock
        self.log = log or (lambda text: None)
        self.warn = warn or (lambda text: None)
        self.cold = cold
        self.last = None
        self.after = None  # the board after our last move
        self.fallbacks = self.searched = 0
        self._players = {}

    def ready(self) -> bool:
        """True when the engine can be used (its kernels load from the cache)."""
        return self.cold is None or self.cold.ready()

    def player(self, size: int):
        """The player of this board size (built and warmed up at its first use)."""
        if size not in self._players:
            self._players[size] = make_player(self.settings, size, MANAGER, self.clock)
        return self._players[size]

    def warm_up(self) -> bool:
        """Load the compiled kernels (bitboards with the solver, the mailbox): before the name goes out
        with a warm cache (a second or two), so that the first move does not pay it; after a cold start,
        in the ColdStart's thread while fallback moves go on."""
        for size in WARM_UP_SIZES:
            self.player(size)
        return True

    def _check_expected(self, board, color):
        size = len(board)
        if self.after is None:
            start = rules.initial_board(size)
            expected = board == start if color == DARK else rules.follows(start, board, DARK)
        else:
            expected = rules.follows(self.after, board, rules.other(color))
        if not expected:
            self.warn("this board does not follow from the last one by one move (or is not a start position); "
                      "playing the board as given")

    def choose(self, board, flags, received: float | None = None):
        """(row, col) of our move on board (rows of 0/1/2) as flags.color; FatalError when we have none."""
        received = self.clock() if received is None else received
        size = len(board)
        board = [list(row) for row in board]
        position = rules.Position(board, flags.color, rules.MANAGER)
        if position.is_over():
            raise FatalError(f"no legal move for {COLOR_NAMES[flags.color]} on this board: "
                             "the manager's game is over here")
        self._check_expected(board, flags.color)
        if not MIN_SIZE <= size <= MAX_SIZE or not self.ready():
            if not MIN_SIZE <= size <= MAX_SIZE:
                self.warn(f"a {size}x{size} board: the engine plays sizes {MIN_SIZE} to {MAX_SIZE}; "
                          "playing the rules' fallback search")
            point = fallback_move(position, self.settings.time, received, self.settings, self.clock)
            self.fallbacks += 1
            self.last = None
            if self.cold is not None:
                self.cold.fallbacks += 1
            self.log(f"move {rules.label(point)} (the rules' fallback search)")
        else:
            point = self._play(board, flags, received)
            if self.fallbacks and not self.searched:
                discs = sum(1 for row in board for cell in row if cell)
                self.warn(f"the engine takes over at move {discs - 3} of this game (after {self.fallbacks} "
                          "fallback moves)")
            self.searched += 1
        self.after = rules.place(board, flags.color, point)
        return point

    def _play(self, board, flags, received):
        """The player's move: forced at once, solved exactly (8x8, no -l), or searched with the flags."""
        player = self.player(len(board))
        game = player.game
        state = game.state_from_cells(board, player_of(flags.color))
        depth = search_depth(flags)
        # with a depth limit (-l) every iteration up to it is tried while the budget lasts
        options = {**search_config(flags), **({} if depth is None else {"stop_share": 0.0})}
        move = player.choose(state, self.settings.time, received, depth=depth, search=options)
        self.last = result = player.result
        label = game.move_label(move)
        if result is None:
            done = player.last
            self.log(f"move {label} forced" if done.get("forced") else
                     f"move {label} from the opening book: value {done['score']:g}" if done.get("book") else
                     f"move {label} solved{' (win/loss/draw)' if done.get('wld') else ''}: score {done['score']} "
                     f"nodes {done['nodes']} time {self.clock() - received:.3f}s")
            return game.coords(move)
        stats = result.stats
        if "complete" not in stats:  # an MCTS algorithm (the settings' algo): the flags do not apply
            self.log(f"move {label} value {result.value:.3f} ({self.settings.algo}) {stats}")
            return game.coords(move)
        if depth is not None and stats["depth"] < depth and not stats["complete"]:
            self.log(f"the {self.settings.time:g} s budget ran out: depth {stats['depth']} of the limit {depth}")
        self.log(f"move {label} value {result.value:g} depth {stats['depth']} "
                 f"nodes {stats['nodes']} time {stats['time']:.3f}s{' solved' if stats['complete'] else ''}")
        return game.coords(move)


# ==== the transport: stdin/stdout lines ==========================================================
def serve(agent: PipeAgent, channel: LineChannel, note, name: str) -> int:
    """Send the name, then run the dialogue; the exit status (EXIT_STATUS)."""
    session = AgentSession(agent.choose, 1, ANY_SIZE, warn=note, clock=agent.clock)  # the board is the truth
    try:
        channel.send(name)
        while True:
            reply = session.handle(channel.receive())
            if reply is not None:
                channel.send(reply)
    except EndOfInput:
        if session.expect != session.FLAGS:
            note("end of input: the manager has gone")
        return EXIT_STATUS["done"][0]
    except (Quit, BrokenPipeError):
        return EXIT_STATUS["done"][0]
    except FatalError as e:
        note(f"{e}; stopping")
        return EXIT_STATUS["fatal"][0]


def main(settings_file=os.path.join(HERE, SETTINGS_FILE)) -> int:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        settings = load_settings(settings_file)
    except ConfigError as e:
        sys.stderr.write(f"othello_agent.py: {e}. Fix: correct it in {SETTINGS_FILE} beside the agent or in the "
                         f"environment ({ENV_PREFIX}_<KEY>)\n")
        return EXIT_STATUS["fatal"][0]

    def note(text):
        sys.stderr.write(f"{settings.name}: {text}\n")
        sys.stderr.flush()

    if sys.stdin is None or sys.stdout is None:
        note("no stdin or stdout: the game manager runs the agent with both as pipes; stopping")
        return EXIT_STATUS["fatal"][0]
    # before any engine module: cold, it compiles in the background (detached: the next game is warm)
    agent = PipeAgent(settings, log=note if settings.verbose else None, warn=note)
    agent.cold = cold = ColdStart("othello", settings.name, agent.warm_up, background=True)
    try:
        if cold.compiler.ready():  # a warm cache: the kernels loaded before the name goes out
            cold.wait()
        return serve(agent, LineChannel(sys.stdin.buffer, sys.stdout.buffer), note, settings.name)
    except KeyboardInterrupt:
        return EXIT_STATUS["done"][0]
    finally:
        cold.close()
        quiet_stdout()
