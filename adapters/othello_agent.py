"""Othello agent for the course's game manager: ``python3 othello_agent.py`` (passed to -a / -b of
othello_game.py or othello_gui.py), speaking the pipe dialogue of protocols/othello_pipe.py.

Run it from the plies tree (``-a /path/to/plies/adapters/othello_agent.py``) or copy it next to the
manager.  It finds plies (the packages ``adapters``, ``protocols``, ``engines``) in this order: the
running Python (the venv's python, where plies is installed); the plies tree this file lives in;
the folder named by PLIES_HOME; else it restarts itself under the Python named by PLIES_PYTHON, the
tree's .venv/bin/python, or the one of the ``plies`` command on PATH.  Failing all that it says so
on stderr and exits with status 3.  A copy only locates the installed package and runs its agent.

The flags select the project's alpha-beta search (engines/search/alphabeta.py) as the manager asks:
  -m  plain minimax (use_alphabeta off; node ordering is an alpha-beta option, as in the course's
      agent, so -o is ignored with -m)       -c  the transposition cache   -o  node ordering
  -l N  depth limit N plies, the evaluation valuing the cut-off positions (N = 0 counts as 1)
Without -l: iterative deepening until the game is solved or the time budget is spent.  With -l the
budget still bounds the search: the manager would forfeit a late answer, so the agent answers
with the deepest completed iteration and says so on stderr.  The budget is PLIES_OTHELLO_SECONDS
(default 8 s of the manager's 10), counted from the arrival of the board line.  Nothing but
protocol lines goes to stdout; PLIES_OTHELLO_VERBOSE=1 writes one line per move to stderr.
"""
import os
import sys
import time

NAME = "plies"
DEFAULT_SECONDS = 8.0            # budget per move: the manager allows 10 s of wall time
SECONDS_VAR = "PLIES_OTHELLO_SECONDS"
VERBOSE_VAR = "PLIES_OTHELLO_VERBOSE"
RESTARTED_VAR = "PLIES_OTHELLO_RESTARTED"
MIN_SIZE, MAX_SIZE = 4, 16
EXIT_FATAL, EXIT_NO_PLIES = 2, 3
HERE = os.path.dirname(os.path.abspath(__file__))


# ==== the agent: flags -> search, board -> move ==================================================
def search_config(flags) -> dict:
    """The AlphaBetaConfig fields the manager's flags ask for."""
    return {"use_alphabeta": not flags.minimax, "use_cache": bool(flags.caching),
            "use_ordering": bool(flags.ordering) and not flags.minimax, "iterative_deepening": True}


def search_depth(flags) -> int | None:
    """The depth limit in plies (None: none)."""
    return None if flags.limit < 0 else max(1, flags.limit)


class PipeAgent:
    """Chooses moves for the manager's boards with the alpha-beta search the flags select.

    ``seconds`` is the budget of one move on ``clock`` (measured from ``received``, the clock when
    the board arrived); ``evaluation`` names the Othello evaluation valuing cut-off positions
    (engines/knowledge/othello.py; None: the default).  One game per board size and one searcher per
    (size, flags) are kept.  ``last`` is the SearchResult of the latest move (tests and figures).
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS, clock=time.perf_counter, evaluation: str | None = None,
                 log=None):
        from engines.validate import check_number
        self.seconds = check_number("seconds", seconds, 0.0)
        self.clock = clock
        self.evaluation = evaluation
        self.log = log or (lambda text: None)
        self.last = None
        self._games, self._searchers = {}, {}

    def game(self, size: int):
        if size not in self._games:
            from engines.games import make_game
            self._games[size] = make_game("othello", size=size, variant="manager")
        return self._games[size]

    def searcher(self, size: int, flags):
        config = search_config(flags)
        key = (size, tuple(sorted(config.items())))
        if key not in self._searchers:
            from engines.knowledge.bundle import knowledge_for
            from engines.search import make_searcher
            game = self.game(size)
            knowledge = knowledge_for(game, self.evaluation) if self.evaluation else None
            self._searchers[key] = make_searcher("alphabeta", game, config, knowledge, clock=self.clock)
        return self._searchers[key]

    def choose(self, board, flags, received: float | None = None):
        """(row, col) of our move on board (rows of 0/1/2) as flags.color; FatalError when we have none."""
        from engines.search import Limits
        from protocols.common import FatalError
        received = self.clock() if received is None else received
        size = len(board)
        game = self.game(size)
        try:
            state = game.state_from_cells(board, flags.color - 1)
        except ValueError as e:
            raise FatalError(f"cannot read the board: {e}") from None
        if game.is_terminal(state):
            raise FatalError(f"no legal move for {'dark' if flags.color == 1 else 'light'} on this board: "
                             "the manager's game is over here")
        depth = search_depth(flags)
        result = self.searcher(size, flags).search(state, Limits(time=self.seconds, start=received, depth=depth))
        self.last = result
        stats = result.stats
        if depth is not None and stats["depth"] < depth and not stats["complete"]:
            self.log(f"the {self.seconds:g} s budget ran out: depth {stats['depth']} of the limit {depth}")
        self.log(f"move {game.move_label(result.move)} value {result.value:g} depth {stats['depth']} "
                 f"nodes {stats['nodes']} time {stats['time']:.3f}s{' solved' if stats['complete'] else ''}")
        return game.coords(result.move)


def budget_from_env(environ=os.environ) -> float:
    """PLIES_OTHELLO_SECONDS as a positive number of seconds, else DEFAULT_SECONDS."""
    text = environ.get(SECONDS_VAR)
    if not text:
        return DEFAULT_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 < value < float("inf"):
        raise ValueError(f"{SECONDS_VAR} must be a positive number of seconds, got {text!r}")
    return value


def warm_up(agent: PipeAgent) -> None:
    """Load the compiled kernels (bitboard and mailbox) before the name goes out: the manager does
    not time the name, but it times every move."""
    from protocols.othello_pipe import Flags
    log, agent.log = agent.log, (lambda text: None)
    for size in (4, 9):
        board = [[0] * size for _ in range(size)]
        i, j = size // 2 - 1, size // 2
        board[i][i] = board[j][j] = 2
        board[i][j] = board[j][i] = 1
        agent.choose(board, Flags(color=1, limit=2, caching=True, ordering=True))
    agent.last = None
    agent._searchers.clear()  # the kernels stay loaded; the game's own flags build its searcher
    agent.log = log


# ==== the transport: stdin/stdout lines ==========================================================
def serve(agent: PipeAgent, stdin, stdout, stderr, name: str = NAME) -> int:
    """Run the dialogue over binary streams; the exit status (0 after FINAL, end of input or a
    closed stdout; EXIT_FATAL after input the agent cannot go on from)."""
    from protocols.common import FatalError, Quit
    from protocols.othello_pipe import AgentSession

    def note(text):
        stderr.write(f"{name}: {text}\n")
        stderr.flush()

    session = AgentSession(agent.choose, MIN_SIZE, MAX_SIZE, warn=note)
    try:
        stdout.write(f"{name}\n".encode("ascii"))
        stdout.flush()
        while True:
            raw = stdin.readline()
            received = agent.clock()
            if not raw:
                if session.expect != session.FLAGS:
                    note("end of input: the manager has gone")
                return 0
            try:
                reply = session.handle(raw.decode("utf-8", "replace"), received)
            except Quit:
                return 0
            except FatalError as e:
                note(f"{e}; stopping")
                return EXIT_FATAL
            if reply is not None:
                stdout.write(f"{reply}\n".encode("ascii"))
                stdout.flush()
    except BrokenPipeError:
        return 0


def main() -> int:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        seconds = budget_from_env()
    except ValueError as e:
        sys.stderr.write(f"{NAME}: {e}\n")
        return EXIT_FATAL
    log = (lambda text: sys.stderr.write(f"{NAME}: {text}\n")) if os.environ.get(VERBOSE_VAR) else None
    agent = PipeAgent(seconds=seconds, log=log)
    warm_up(agent)
    try:
        return serve(agent, sys.stdin.buffer, sys.stdout.buffer, sys.stderr)
    except KeyboardInterrupt:
        return 0
    finally:
        _quiet_stdout()


def _quiet_stdout():
    """Point stdout at /dev/null so that the interpreter's final flush cannot raise on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# ==== finding plies from wherever this file is run ===============================================
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
    found = [os.environ.get("PLIES_PYTHON")]
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
        return agent_main()
    if not os.environ.get(RESTARTED_VAR):
        me = os.path.abspath(sys.executable)  # not realpath: a venv's python links to its base one
        for python in _interpreters():
            if os.path.isfile(python) and os.access(python, os.X_OK) and os.path.abspath(python) != me:
                os.environ[RESTARTED_VAR] = "1"
                sys.stderr.flush()
                os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])
    sys.stderr.write(
        f"othello_agent.py: cannot import plies (engines, protocols, adapters, numpy, numba) with {sys.executable}.\n"
        "Fix: put the plies venv's bin first on PATH (the manager runs `python3 FILE`), or set PLIES_PYTHON to "
        "that Python (e.g. /path/to/plies/.venv/bin/python), or install plies into this Python "
        "(pip install -e /path/to/plies).\n")
    return EXIT_NO_PLIES


if __name__ == "__main__":
    sys.exit(launch())
