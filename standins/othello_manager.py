"""A local stand-in for the course's Othello game manager (othello_game.py; specs/othello-pipe.md).

Our code, not the course's: it runs agents exactly as the real manager does and referees with its
rules, so that the pipe agent is tested end to end.
  * launch: ``subprocess.Popen(["python3", FILE])`` with pipes, python3 the first on PATH, FILE
    relative to the manager's working directory; the agent's stderr goes to ours (or to ``stderr``);
  * dialogue: read the name line (untimed), send ``color,limit,minimax,caching,ordering`` (both
    agents get the same -l -m -c -o); each turn send ``SCORE d l`` and the board literal
    (``str(board)``: a list of lists until the first move, a tuple of tuples after), then read
    ``i j`` (column, row) within ``timeout`` seconds (10, as the course's TIMEOUT);
  * rules (pure Python: the referee does not use the engine it judges): a move must bracket and
    flips in all 8 directions; the game ends as soon as the player to move has no legal move;
    the winner has more discs;
  * the end: ``FINAL d l`` to both agents, then they are killed (``final_grace`` > 0 waits that long
    for them to exit by themselves, and their exit statuses are reported).
A late, malformed or illegal answer, or an agent that died, loses the game (the real manager
crashes or reports a time-out there; a stand-in must report it).

    .venv/bin/python -m standins.othello_manager -d 6 -a adapters/othello_agent.py -b standins/othello_randy.py -l 4 --show
"""
import argparse
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from engines.games.reference import othello as othello_rules
from protocols.common import ProtocolError
from protocols.othello_pipe import (COLOR_NAMES, Flags, OffBoard, format_board, format_final, format_flags,
                                    format_score, parse_move)

TIMEOUT = 10.0                    # seconds per move, as the course's manager
SYMBOLS = {0: ".", 1: "X", 2: "O"}


# ==== the rules, as the manager applies them (board[row][col]; moves (i, j) = (column, row)) =====
def initial_board(size: int) -> list[list[int]]:
    board = [[0] * size for _ in range(size)]
    i, j = size // 2 - 1, size // 2
    board[i][i] = board[j][j] = 2
    board[j][i] = board[i][j] = 1
    return board


def flips(board, color: int, i: int, j: int) -> list[tuple[int, int]]:
    """The (column, row) discs a placement of color at column i, row j would flip (the rules are
    engines/games/reference/othello.py's; the manager speaks column first)."""
    return [(c, r) for r, c in othello_rules.flips(board, color, (j, i))]


def possible_moves(board, color: int) -> list[tuple[int, int]]:
    """Legal (column, row) moves of color, column-major like the course's get_possible_moves."""
    n = len(board)
    return [(i, j) for i in range(n) for j in range(n) if flips(board, color, i, j)]


def play_move(board, color: int, i: int, j: int) -> tuple[tuple[int, ...], ...]:
    """The board after color plays (i, j), as a tuple of tuples (what the manager keeps after a move)."""
    rows = [list(r) for r in board]
    for u, v in flips(board, color, i, j) + [(i, j)]:
        rows[v][u] = color
    return tuple(tuple(r) for r in rows)


def score(board) -> tuple[int, int]:
    """(dark, light) discs."""
    return sum(r.count(1) for r in board), sum(r.count(2) for r in board)


def render(board) -> str:
    n = len(board)
    lines = ["   " + " ".join(str(i % 10) for i in range(n))]
    lines += [f"{j:>2} " + " ".join(SYMBOLS[v] for v in row) for j, row in enumerate(board)]
    return "\n".join(lines)


# ==== the agents: processes over pipes ===========================================================
class AgentProcess:
    """One AI child process, launched as the manager does; lines from its stdout arrive in a queue."""

    def __init__(self, path: str, cwd=None, env=None, stderr=None):
        self.path = path
        self.process = subprocess.Popen(["python3", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=stderr, cwd=cwd, env=env)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = None

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            self.lines.put(raw)
        self.lines.put(b"")  # end of output

    def send(self, text: str) -> None:
        self.process.stdin.write(f"{text}\n".encode("ascii"))
        self.process.stdin.flush()

    def read(self, timeout: float | None) -> str | None:
        """The next line (without its newline; '' when the agent's stdout closed), None on a time-out."""
        try:
            return self.lines.get(timeout=timeout).decode("ascii", "replace").rstrip("\r\n")
        except queue.Empty:
            return None

    def finish(self, grace: float) -> int | None:
        """Wait up to grace seconds for the agent to exit, then kill it; its exit status (None: killed)."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        code = None
        try:
            code = self.process.wait(timeout=grace) if grace > 0 else self.process.poll()
        except subprocess.TimeoutExpired:
            pass
        if code is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        return code


@dataclass
class Move:
    color: int
    point: tuple[int, int]   # (column, row) as sent
    seconds: float           # wall time from sending the board to receiving the answer


@dataclass
class GameResult:
    names: dict                       # color -> name
    winner: int | None                # 1 dark, 2 light, None for a draw
    dark: int
    light: int
    reason: str                       # "no legal move for ..." or why an agent lost
    moves: list = field(default_factory=list)
    exit_codes: dict = field(default_factory=dict)   # color -> exit status after FINAL (None: killed)
    board: tuple = ()


def play_game(agent_a: str, agent_b: str, size: int = 8, limit: int = -1, minimax: bool = False,
              caching: bool = False, ordering: bool = False, timeout: float = TIMEOUT, cwd=None, env=None,
              stderr=None, final_grace: float = 0.0, name_timeout: float | None = None, show=None) -> GameResult:
    """One game: agent_a dark (moves first), agent_b light.  show(text) receives the boards and moves.
    name_timeout bounds the wait for a name (None: wait as the real manager does)."""
    agents = {}
    board = initial_board(size)
    moves, reason, loser = [], None, None
    try:
        for color, path in ((1, agent_a), (2, agent_b)):  # one after the other, as the real manager
            agents[color] = agent = AgentProcess(path, cwd, env, stderr)
            agent.name = agent.read(name_timeout)
            if not agent.name:
                loser, reason = color, "sent no name"
                break
            try:
                agent.send(format_flags(Flags(color, limit, minimax, caching, ordering)))
            except (BrokenPipeError, OSError):
                loser, reason = color, "exited before the game"
                break
        color = 1
        while loser is None:
            legal = possible_moves(board, color)
            if not legal:
                reason = f"no legal move for {COLOR_NAMES[color]}"
                break
            agent = agents[color]
            d, l = score(board)
            sent = time.perf_counter()
            try:
                agent.send(format_score(d, l))
                agent.send(format_board(board, first_turn=not moves))  # a list of lists until the first move
            except (BrokenPipeError, OSError):
                loser, reason = color, "its process died"
                break
            answer = agent.read(timeout)
            seconds = time.perf_counter() - sent
            if answer is None:
                loser, reason = color, f"timed out ({timeout:g} s)"
                break
            try:
                j, i = parse_move(answer, size)
            except OffBoard:
                loser, reason = color, f"illegal move {answer.strip()}"
                break
            except ProtocolError:
                loser, reason = color, "its process died" if answer == "" else f"malformed move {answer!r}"
                break
            if (i, j) not in legal:
                loser, reason = color, f"illegal move {i} {j}"
                break
            board = play_move(board, color, i, j)
            moves.append(Move(color, (i, j), seconds))
            if show:
                show(f"{agent.name} ({COLOR_NAMES[color]}) plays {i},{j}\n{render(board)}")
            color = 3 - color
    finally:
        d, l = score(board)
        codes = {}
        for c, agent in agents.items():
            try:
                agent.send(format_final(d, l))
            except (BrokenPipeError, OSError, ValueError):
                pass
            codes[c] = agent.finish(final_grace)
    if loser is not None:
        winner = 3 - loser
        reason = f"{COLOR_NAMES[loser]} lost: {reason}"
    else:
        winner = 1 if d > l else (2 if l > d else None)
    names = {c: agents[c].name if c in agents else None for c in (1, 2)}
    return GameResult(names, winner, d, l, reason, moves, codes, board)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-d", "--dimension", type=int, default=8, help="board size")
    parser.add_argument("-a", "--agent-a", required=True, help="dark's agent file (moves first)")
    parser.add_argument("-b", "--agent-b", required=True, help="light's agent file")
    parser.add_argument("-l", "--limit", type=int, default=-1, help="depth limit (-1: none)")
    parser.add_argument("-m", "--minimax", action="store_true", help="plain minimax instead of alpha-beta")
    parser.add_argument("-c", "--caching", action="store_true", help="state caching")
    parser.add_argument("-o", "--ordering", action="store_true", help="node ordering")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per move (default %(default)s)")
    parser.add_argument("--show", action="store_true", help="print the board after every move")
    args = parser.parse_args(argv)
    show = (lambda text: print(text, flush=True)) if args.show else None
    r = play_game(args.agent_a, args.agent_b, args.dimension, args.limit, args.minimax, args.caching,
                  args.ordering, args.timeout, show=show)
    winner = "draw" if r.winner is None else f"{r.names[r.winner]} ({COLOR_NAMES[r.winner]}) wins"
    slowest = {c: max((m.seconds for m in r.moves if m.color == c), default=0.0) for c in (1, 2)}
    print(f"FINAL: {r.names[1]} (dark) {r.dark}:{r.light} {r.names[2]} (light); {winner}; {r.reason}; "
          f"{len(r.moves)} moves; slowest answer dark {slowest[1]:.2f} s, light {slowest[2]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
