"""Othello agent for the course's game manager: ``python3 othello_agent.py`` (passed to -a / -b of
othello_game.py or othello_gui.py), speaking the pipe dialogue of protocols/othello_pipe.py.

Run it from the plies tree (``-a /path/to/plies/adapters/othello_agent.py``) or copy it next to the
manager.  It finds plies (the packages ``adapters``, ``protocols``, ``engines``) in this order: the
running Python (the venv's python, where plies is installed); the plies tree this file lives in;
the folder named by PLIES_HOME; else it restarts itself under the Python named by PLIES_OTHELLO_PYTHON, the
tree's .venv/bin/python, or the one of the ``plies`` command on PATH.  A copy only locates the
installed package and runs its agent.

The flags select the project's alpha-beta search (engines/search/alphabeta.py) as the manager asks:
  -m  plain minimax (use_alphabeta off; node ordering is an alpha-beta option, as in the course's
      agent, so -o is ignored with -m)       -c  the transposition cache   -o  node ordering
  -l N  depth limit N plies, the evaluation valuing the cut-off positions (N = 0 counts as 1)
Without -l: iterative deepening until the game is solved or the time budget is spent.  With -l the
budget still bounds the search: the manager would forfeit a late answer, so the agent answers
with the deepest completed iteration and says so on stderr.  Time (adapters/othello_time.py): a
forced move gets a small search of forced_nodes nodes, the opening (no -l) opening_share of the
budget, the rest all of it; the search stops once the game is solved and starts no iteration it is
not expected to finish (stop_share).  Nothing but protocol lines goes to
stdout.

Settings (``OthelloAgentSettings``; the manager passes no flags): the file othello_agent.toml beside
the file the manager runs (same keys), overridden by PLIES_OTHELLO_<KEY> in the environment, e.g.
PLIES_OTHELLO_SECONDS=5 (the budget per move, counted from the board line's arrival; default 8 s of
the manager's 10) or PLIES_OTHELLO_VERBOSE=1 (one line per move on stderr).

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
# which the Compiler built in main() does in the background; PipeAgent imports it once it is ready.
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from adapters import config  # noqa: E402
from engines.games.reference import othello as rules  # noqa: E402
from engines.players.coldstart import Compiler  # noqa: E402
from adapters.othello_time import move_seconds  # noqa: E402
from adapters.config import ConfigError, setting  # noqa: E402
from engines.validate import check_int, check_number  # noqa: E402
from protocols.common import EndOfInput, FatalError, Quit  # noqa: E402
from protocols.othello_pipe import COLOR_NAMES, DARK, AgentSession, Flags, LineChannel, player_of  # noqa: E402

ENV_PREFIX = "PLIES_OTHELLO"
MIN_SIZE, MAX_SIZE = 4, 16  # the board sizes the engine plays (others: the pure-Python rules' fallback)
ANY_SIZE = 256              # the largest board the agent reads at all (the rules play any size)
WARM_UP_SIZES = (4, 9)      # one board of each state layout (bitboards up to 8x8, the mailbox above)
EVALUATION_NAMES = ("strong", "disc_difference", "patterns")  # engines.knowledge.othello.EVALUATIONS (a test
#                                                               keeps them equal)
DEFAULT_EVALUATION = "patterns"                    # engines.knowledge.othello.DEFAULT_EVALUATION


@dataclass(frozen=True)
class OthelloAgentSettings:
    """Every tunable of the pipe agent, with its default and meaning (adapters/config.py)."""
    seconds: float = setting(8.0, "budget per move in seconds from the board line's arrival (the manager allows 10)")
    verbose: bool = setting(False, "one line per move on stderr")
    name: str = setting("plies", "the name line the agent sends first (one word)")
    evaluation: str = setting(DEFAULT_EVALUATION, "the evaluation valuing cut-off positions "
                              "(engines/knowledge/othello.py)", choices=EVALUATION_NAMES)
    tt_size: int = setting(1 << 20, "-c: transposition-table slots, a power of two (24 bytes each: 24 MiB)")
    opening_share: float = setting(0.5, "share of seconds a move of the opening spends (no -l)")
    opening_fill: float = setting(0.2, "the opening lasts while fewer discs than this share of the squares are "
                                       "on the board")
    stop_share: float = setting(0.5, "an iteration is not started when its predicted time times this exceeds "
                                     "the time left (0: never skipped)")
    forced_nodes: int = setting(1 << 18, "node budget of the search of a forced move (one legal move)")

    def __post_init__(self):
        if check_number("seconds", self.seconds, 0.0) == 0:
            raise ValueError("seconds must be a positive number, got 0")
        if len(self.name.split()) != 1 or not self.name.isascii() or self.name != self.name.strip():
            raise ValueError(f"name must be one ASCII word, got {self.name!r}")
        if check_int("tt_size", self.tt_size, 1) & (self.tt_size - 1):
            raise ValueError(f"tt_size must be a power of two, got {self.tt_size}")
        check_number("opening_share", self.opening_share, 0.0, 1.0)
        check_number("opening_fill", self.opening_fill, 0.0, 1.0)
        check_number("stop_share", self.stop_share, 0.0)
        check_int("forced_nodes", self.forced_nodes, 1)


def load_settings(file=os.path.join(HERE, SETTINGS_FILE), env=os.environ) -> OthelloAgentSettings:
    """The settings from the defaults, the TOML file and PLIES_OTHELLO_<KEY>; ConfigError for a bad one."""
    return config.load(OthelloAgentSettings, file=file, env_prefix=ENV_PREFIX, env=env)


def search_config(flags) -> dict:
    """The AlphaBetaConfig fields the manager's flags ask for."""
    return {"use_alphabeta": not flags.minimax, "use_cache": bool(flags.caching),
            "use_ordering": bool(flags.ordering) and not flags.minimax, "iterative_deepening": True}


def search_depth(flags) -> int | None:
    """The depth limit in plies (None: none)."""
    return None if flags.limit < 0 else max(1, flags.limit)


class PipeAgent:
    """Chooses moves for the manager's boards with the alpha-beta search the flags select.

    A move's budget is ``settings.seconds`` on ``clock``, measured from ``received`` (the clock
    when the board arrived).  One game per board size and one searcher per (size, flags) are kept.
    ``last`` is the SearchResult of the latest searched move (tests and figures).

    The board given is the truth: one that does not follow from the last (a position we did not
    expect, reachable or not) is played with a warning (``warn``).  While ``compiler`` is not ready
    (a cold cache), or for a size the engine does not play, the move is the pure-Python rules'
    fallback (engines/games/reference/othello.py); ``fallbacks`` and ``searched`` count both kinds.
    """

    def __init__(self, settings: OthelloAgentSettings = OthelloAgentSettings(), clock=time.perf_counter, log=None,
                 compiler=None, warn=None):
        self.settings = settings
        self.clock = clock
        self.log = log or (lambda text: None)
        self.warn = warn or (lambda text: None)
        self.compiler = compiler
        self.last = None
        self.after = None  # the board after our last move
        self.fallbacks = self.searched = 0
        self._games, self._searchers = {}, {}

    def ready(self) -> bool:
        """True when the engine can be used (its kernels load from the cache)."""
        return self.compiler is None or self.compiler.ready()

    def game(self, size: int):
        if size not in self._games:
            from engines.games import make_game
            self._games[size] = make_game("othello", size=size, variant="manager")
        return self._games[size]

    def searcher(self, size: int, flags):
        # with a depth limit (-l) every iteration up to it is tried while the budget lasts
        stop_share = self.settings.stop_share if search_depth(flags) is None else 0.0
        search = {**search_config(flags), "tt_size": self.settings.tt_size, "stop_share": stop_share}
        key = (size, tuple(sorted(search.items())))
        if key not in self._searchers:
            from engines.knowledge.registry import knowledge_for
            from engines.search import make_searcher
            game = self.game(size)
            knowledge = knowledge_for(game, self.settings.evaluation)
            self._searchers[key] = make_searcher("alphabeta", game, search, knowledge, clock=self.clock)
        return self._searchers[key]

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
                          "playing the rules' quick move")
            point = position.fallback()
            self.fallbacks += 1
            self.log(f"move {rules.label(point)} (the rules' fallback)")
        else:
            point = self._search(board, flags, received)
            self.searched += 1
        self.after = rules.place(board, flags.color, point)
        return point

    def _search(self, board, flags, received):
        size = len(board)
        game = self.game(size)
        state = game.state_from_cells(board, player_of(flags.color))
        depth = search_depth(flags)
        s = self.settings
        seconds = s.seconds
        from engines.search import Limits
        legal = len(game.legal_moves(state))
        nodes = None
        if legal <= 1:  # a forced move: a small search (its value for the log), no time spent
            nodes = s.forced_nodes
        elif depth is None:
            discs = sum(1 for row in board for cell in row if cell)
            seconds = move_seconds(seconds, discs, size * size, legal, s.opening_fill, s.opening_share)
        result = self.searcher(size, flags).search(state, Limits(time=seconds, start=received, depth=depth,
                                                                 nodes=nodes))
        self.last = result
        stats = result.stats
        if depth is not None and stats["depth"] < depth and not stats["complete"]:
            self.log(f"the {seconds:g} s budget ran out: depth {stats['depth']} of the limit {depth}")
        self.log(f"move {game.move_label(result.move)} value {result.value:g} depth {stats['depth']} "
                 f"nodes {stats['nodes']} time {stats['time']:.3f}s{' solved' if stats['complete'] else ''}")
        return game.coords(result.move)


def warm_up(agent: PipeAgent) -> None:
    """Load the compiled kernels (bitboard and mailbox) before the name goes out (a warm cache: well
    under a second or two), so that the first move does not pay it."""
    log, warn, agent.log, agent.warn = agent.log, agent.warn, (lambda text: None), (lambda text: None)
    for size in WARM_UP_SIZES:
        agent.after = None
        agent.choose(rules.initial_board(size), Flags(color=DARK, limit=2, caching=True, ordering=True))
    agent.last, agent.after = None, None
    agent.fallbacks = agent.searched = 0
    agent._searchers.clear()  # the kernels stay loaded; the game's own flags build its searcher
    agent.log, agent.warn = log, warn


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
    compiler = Compiler("othello", settings.name)  # before any engine module: cold, it compiles in the background
    agent = PipeAgent(settings, log=note if settings.verbose else None, compiler=compiler, warn=note)
    try:
        if compiler.ready():
            warm_up(agent)
        return serve(agent, LineChannel(sys.stdin.buffer, sys.stdout.buffer), note, settings.name)
    except KeyboardInterrupt:
        return EXIT_STATUS["done"][0]
    finally:
        compiler.close()
        _quiet_stdout()


def _quiet_stdout():
    """Point stdout at /dev/null so that the interpreter's final flush cannot raise on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
