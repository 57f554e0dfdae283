"""A local stand-in for the Little-Go course host (specs/littlego.md), and the match runner.

The host judges by the host's rules in pure Python (engines/games/reference/littlego.py, which the player's
fallback move and the opponents in standins/littlego_opponents.py use too): ``Game`` keeps the
record the host keeps, namely the board, the previous board (the board before the last stone
placement; after a PASS the current board, so for the player to move it is the board after its own
last move, as input.txt has it) and the stones the last move captured.  PASS ends the game when
previous equals current (two passes; a Black pass on move 1); then previous = current.  The game
also ends after move 24 (White plays move 24).  Score: stones on the board; Black wins iff B > W + 2.5.

A game (``play_game``) runs each move as a fresh process of the player's command in the player's own
directory, as the course's build.sh does: the host writes input.txt, removes output.txt, runs the
command, measures the child's CPU time (user + system, from ``os.wait4``) and wall time, and reads
the first line of output.txt.  A move that is unparseable, off the board, occupied, suicidal or a ko
violation, and a move over the CPU-time limit, lose the game at once.  ``run_match`` plays a match
between two players (named ones: ``me``, ``strong``, ``random``, ``greedy``, ``aggressive``,
``alphabeta``; or a path to a ``.py`` player; or any command line), alternating colours, and
reports the wins per colour; a seed (SEED_VARIABLE, given to every player) makes it repeat.
``match_command`` / ``add_match_parser`` are ``plies littlego match``.
"""
import argparse
import math
import os
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from adapters.littlego import PLAYER_FILE, SETTINGS_FILE, settings_text
from engines.games.reference.littlego import KOMI, MAX_MOVES, SIZE, black_wins, copy_board, empty_board, place, stones
from engines.errors import GameOver, IllegalMove
from protocols.common import PASS, ProtocolError
from protocols.littlego import parse_move, write_input

TIME_LIMIT = 10.0                 # CPU seconds per move (user + system), as the course grades it
WALL_FACTOR = 6.0                 # a move is killed after this many times the CPU limit in wall time
MIN_WALL = 30.0                   # ... but never sooner than this many seconds (a loaded machine)
STRONG_SECONDS = 5.0              # the "strong" opponent: our player at this CPU budget per move
SEED_VARIABLE = "PLIES_LITTLEGO_SEED"  # read by our player (its seed setting) and by the opponents
OPPONENTS = ("random", "greedy", "aggressive", "alphabeta")
NAMED = ("me", "strong") + OPPONENTS
SYMBOLS = {0: ".", 1: "X", 2: "O"}


class Game:
    """The host's record of one game: board, previous board, died stones, move count."""

    def __init__(self):
        self.board = empty_board()
        self.previous = empty_board()
        self.died: list[tuple[int, int]] = []
        self.n_move = 0            # moves made so far (passes included)
        self.over = False
        self.winner: int | None = None   # 1 black, 2 white, once over
        self.reason = ""           # why the game ended

    @property
    def colour(self) -> int:
        """The colour to move: 1 black (moves 1, 3, ...), 2 white."""
        return 1 if self.n_move % 2 == 0 else 2

    def input_text(self) -> str:
        """input.txt for the player to move."""
        return write_input(self.colour, self.previous, self.board)

    def play(self, move) -> None:
        """Play the mover's move ((i, j) or PASS).  An invalid move loses the game at once: the game
        is over, then IllegalMove (with its Reason) is raised."""
        if self.over:
            raise GameOver()
        colour = self.colour
        if move is PASS:
            end = self.previous == self.board
            self.previous = copy_board(self.board)
            self.died = []
            self.n_move += 1
            if end:
                self._finish("a pass onto an unchanged board")
                return
        else:
            try:
                new, captured = place(self.board, self.previous, bool(self.died), colour, *move)
            except IllegalMove as err:
                self.lose(colour, f"invalid move {move[0]},{move[1]}: {err.reason.sentence}")
                raise
            self.previous = self.board
            self.board = new
            self.died = captured
            self.n_move += 1
        if self.n_move >= MAX_MOVES:
            self._finish(f"move {MAX_MOVES} played")

    def lose(self, colour: int, reason: str) -> None:
        self.over, self.winner, self.reason = True, 3 - colour, reason

    def _finish(self, why: str) -> None:
        b, w = stones(self.board)
        self.over = True
        self.winner = 1 if black_wins(self.board) else 2
        self.reason = f"{why}; score B {b} against W {w} + {KOMI:g}"

    def render(self) -> str:
        rows = ["   " + " ".join(str(j) for j in range(SIZE))]
        rows += [f"{i:2d} " + " ".join(SYMBOLS[v] for v in row) for i, row in enumerate(self.board)]
        return "\n".join(rows)


# ==== players as processes =======================================================================
@dataclass(frozen=True)
class Player:
    """A player command run in its own directory; ``files`` are put there first (name -> text)."""
    name: str
    command: tuple
    files: tuple = ()              # ((file name, text), ...)
    env: tuple = ()                # ((variable, value), ...) added to the host's environment


@dataclass
class Move:
    """One move as the host saw it."""
    number: int                    # 1..24
    colour: int                    # 1 black, 2 white
    player: str
    text: str                      # the first line of output.txt without its line end ('' when missing)
    cpu: float                     # CPU seconds of the process (user + system, children included)
    wall: float                    # wall seconds from spawn to exit
    max_rss_kb: int                # peak resident memory of the process
    exit_code: int
    verdict: str = "ok"            # "ok" or why the move lost
    stderr: str = ""               # the last lines the process wrote on stderr
    raw: str = ""                  # the first line of output.txt as read, line end included


@dataclass
class GameRecord:
    black: str
    white: str
    winner: int                    # 1 black, 2 white
    reason: str
    black_stones: int
    white_stones: int
    moves: list = field(default_factory=list)

    @property
    def winner_name(self) -> str:
        return self.black if self.winner == 1 else self.white


def python3() -> str:
    """The interpreter build.sh would run: python3 on PATH (this one when there is none)."""
    return shutil.which("python3") or sys.executable


def make_player(spec: str, seconds: float | None = None, interpreter: str | None = None) -> Player:
    """A player from a name (NAMED), a path to a .py player, or a command line.  ``seconds``: the
    CPU budget of "me"; ``interpreter`` the command that runs .py players (default python3)."""
    py = interpreter or python3()
    if spec in ("me", "strong"):
        budget = STRONG_SECONDS if spec == "strong" else seconds
        env = (("PLIES_LITTLEGO_SECONDS", repr(float(budget))),) if budget is not None else ()
        files = ((PLAYER_FILE.name, PLAYER_FILE.read_text()), (SETTINGS_FILE, settings_text(sys.executable)))
        return Player(spec, (py, "my_player3.py"), files, env)
    if spec in OPPONENTS:
        return Player(spec, (sys.executable, "-m", "standins.littlego_opponents", spec))
    path = Path(spec)
    if spec.endswith(".py") and path.is_file():
        return Player(path.name, (py, path.name), ((path.name, path.read_text()),))
    command = tuple(shlex.split(spec))
    kinds = "a player is a name (" + ", ".join(NAMED) + "), a .py file or a command line"
    if not command:
        raise ValueError(kinds)
    if shutil.which(command[0]) is None:
        raise ValueError(f"player {spec!r}: no such .py file or program; {kinds}")
    return Player(spec, command)


def prepare(player: Player, workdir: Path) -> Path:
    """Create the player's directory with its files."""
    workdir.mkdir(parents=True, exist_ok=True)
    for name, text in player.files:
        (workdir / name).write_text(text)
    return workdir


def run_move(player: Player, workdir: Path, input_text: str, time_limit: float = TIME_LIMIT,
             wall_limit: float | None = None, env: dict | None = None) -> tuple[str, float, float, int, int, str]:
    """Run one move: (first line of output.txt or '', cpu, wall, max rss KB, exit code, stderr tail).
    The process gets RLIMIT_CPU just above the limit and is killed after wall_limit seconds."""
    (workdir / "input.txt").write_text(input_text)
    out = workdir / "output.txt"
    out.unlink(missing_ok=True)
    wall_limit = wall_limit if wall_limit is not None else max(MIN_WALL, WALL_FACTOR * time_limit)
    full_env = dict(os.environ if env is None else env)
    full_env.update(dict(player.env))
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(player.command), cwd=workdir, env=full_env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        try:
            cap = int(math.ceil(time_limit)) + 1
            resource.prlimit(proc.pid, resource.RLIMIT_CPU, (cap, cap + 1))
        except (OSError, ValueError, AttributeError):
            pass  # the measured CPU time still decides

        def kill():
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
        timer = threading.Timer(wall_limit, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace")
    try:
        with open(out, encoding="utf-8", errors="replace", newline="") as f:
            line = f.readline()
    except OSError:
        line = ""
    cpu = usage.ru_utime + usage.ru_stime
    return line, cpu, wall, int(usage.ru_maxrss), proc.returncode, tail


def warm_up(player: Player, workdir: Path, env: dict | None = None) -> None:
    """Run the player once on the empty board, untimed, outside any game: a compiled-code cache
    that is missing or stale gets rebuilt here rather than in the first timed move."""
    prepare(player, workdir)
    run_move(player, workdir, Game().input_text(), time_limit=600.0, wall_limit=600.0, env=env)


def play_game(black: Player, white: Player, dirs: tuple[Path, Path], time_limit: float = TIME_LIMIT,
              show: bool = False, out=sys.stdout, env: dict | None = None, seed: str | None = None) -> GameRecord:
    """One game between two players, each run in its own directory (dirs = black's, white's), with
    ``env`` (default: the host's environment) and the seed in SEED_VARIABLE when given."""
    if seed is not None:
        env = {**(os.environ if env is None else env), SEED_VARIABLE: seed}
    game = Game()
    players = {1: black, 2: white}
    workdirs = {1: dirs[0], 2: dirs[1]}
    moves = []
    if show:
        print(f"{black.name} (X, black) against {white.name} (O, white)\n{game.render()}", file=out)
    while not game.over:
        colour = game.colour
        player = players[colour]
        line, cpu, wall, rss, code, tail = run_move(player, workdirs[colour], game.input_text(), time_limit,
                                                    env=env)
        text = line.rstrip("\r\n")
        move = Move(game.n_move + 1, colour, player.name, text, cpu, wall, rss, code, stderr=tail, raw=line)
        moves.append(move)
        if cpu > time_limit:
            move.verdict = f"time: {cpu:.2f} s of CPU, over the {time_limit:g} s limit"
            game.lose(colour, move.verdict)
        else:
            try:
                point = parse_move(line)
            except ProtocolError as e:
                move.verdict = f"unparseable output.txt ({e}; exit status {code})"
                game.lose(colour, move.verdict)
            else:
                try:
                    game.play(point)
                except IllegalMove:
                    move.verdict = game.reason
        if show:
            shown = text if move.verdict == "ok" else f"{text!r} -> {move.verdict}"
            print(f"\nmove {move.number}: {player.name} ({SYMBOLS[colour]}) {shown}   "
                  f"[{cpu:.2f} s CPU, {wall:.2f} s wall]", file=out)
            if move.verdict == "ok":
                print(game.render(), file=out)
    b, w = stones(game.board)
    record = GameRecord(black.name, white.name, game.winner, game.reason, b, w, moves)
    if show:
        print(f"\n{record.winner_name} ({'black' if record.winner == 1 else 'white'}) wins: {record.reason}", file=out)
    return record


# ==== matches ====================================================================================
@dataclass
class MatchResult:
    a: str
    b: str
    games: list = field(default_factory=list)   # GameRecord, in the order played

    def wins(self, name_is_a: bool = True, colour: int | None = None) -> tuple[int, int]:
        """(wins, games) of A (or B), overall or as colour 1 / 2."""
        won = played = 0
        for k, g in enumerate(self.games):
            a_colour = 1 if k % 2 == 0 else 2
            side = a_colour if name_is_a else 3 - a_colour
            if colour is None or colour == side:
                played += 1
                won += g.winner == side
        return won, played

    def move_stats(self, a: bool = True) -> dict:
        """Per-move CPU and wall seconds and peak memory of A's (or B's) processes."""
        rows = [m for k, g in enumerate(self.games) for m in g.moves
                if m.colour == ((1 if k % 2 == 0 else 2) if a else (2 if k % 2 == 0 else 1))]
        if not rows:
            return {}
        cpu = [m.cpu for m in rows]
        wall = [m.wall for m in rows]
        return {"moves": len(rows), "cpu_median": statistics.median(cpu), "cpu_max": max(cpu),
                "wall_median": statistics.median(wall), "wall_max": max(wall),
                "max_rss_mb": max(m.max_rss_kb for m in rows) / 1024}

    def summary(self) -> str:
        lines = []
        for is_a, name in ((True, self.a), (False, self.b)):
            w, n = self.wins(is_a)
            wb, nb = self.wins(is_a, 1)
            ww, nw = self.wins(is_a, 2)
            lines.append(f"{name:>12}: {w}/{n} wins ({100 * w / max(n, 1):.0f} %); as black {wb}/{nb}, "
                         f"as white {ww}/{nw}")
        reasons = {}
        for g in self.games:
            key = g.reason.split(";")[0].split(":")[0]
            reasons[key] = reasons.get(key, 0) + 1
        lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        for is_a, name in ((True, self.a), (False, self.b)):
            s = self.move_stats(is_a)
            if s:
                lines.append(f"{name:>12} per move: CPU median {s['cpu_median']:.2f} s, max {s['cpu_max']:.2f} s; "
                             f"wall median {s['wall_median']:.2f} s, max {s['wall_max']:.2f} s; "
                             f"peak memory {s['max_rss_mb']:.0f} MB")
        return "\n".join(lines)


def run_match(a: Player, b: Player, games: int, time_limit: float = TIME_LIMIT, jobs: int = 1,
              workroot: Path | None = None, show: bool = False, out=sys.stdout, progress=None,
              env: dict | None = None, seed: str | None = None) -> MatchResult:
    """games games between A and B, A black in the even-numbered ones (0, 2, ...).  Each of ``jobs``
    workers keeps one directory per player for all its games (so notes files carry over from game
    to game, as in the course).  With a seed, game k is played with the seed "<seed>.<k>", so the
    match repeats.  ``progress(k, record)`` is called after each game."""
    if games < 1 or jobs < 1:
        raise ValueError("games and jobs must be at least 1")
    result = MatchResult(a.name, b.name, [None] * games)
    tmp = None
    if workroot is None:
        tmp = tempfile.TemporaryDirectory(prefix="littlego-")
        workroot = Path(tmp.name)
    for player in {a.name: a, b.name: b}.values():
        warm_up(player, Path(workroot) / "warm-up" / player.name.replace("/", "_"), env)
    slots = []
    for w in range(min(jobs, games)):
        slots.append((prepare(a, Path(workroot) / f"job{w}" / "A"), prepare(b, Path(workroot) / f"job{w}" / "B")))
    lock = threading.Lock()
    free = list(range(len(slots)))

    def one(k):
        with lock:
            slot = free.pop()
        try:
            da, db = slots[slot]
            pair = ((a, da), (b, db)) if k % 2 == 0 else ((b, db), (a, da))
            record = play_game(pair[0][0], pair[1][0], (pair[0][1], pair[1][1]), time_limit,
                               show=show, out=out, env=env, seed=None if seed is None else f"{seed}.{k}")
        finally:
            with lock:
                free.append(slot)
        result.games[k] = record
        if progress is not None:
            with lock:
                progress(k, record)
        return record
    try:
        if len(slots) == 1:
            for k in range(games):
                one(k)
        else:
            with ThreadPoolExecutor(len(slots)) as pool:
                list(pool.map(one, range(games)))
    finally:
        if tmp is not None:
            tmp.cleanup()
    return result


# ==== plies littlego ... ==========================================================================
def match_command(args) -> int:
    """``plies littlego match A B --games N``: a match through the local host; prints the wins per colour."""
    a = make_player(args.a, args.seconds, args.python)
    b = make_player(args.b, args.seconds, args.python)
    workroot = Path(args.workdir) if args.workdir else None

    def progress(k, g):
        if not args.show and not args.quiet:
            print(f"game {k + 1}: {g.black} (black) vs {g.white} (white): {g.winner_name} wins; {g.reason}",
                  flush=True)
    result = run_match(a, b, args.games, args.time_limit, args.jobs, workroot, show=args.show, progress=progress,
                       seed=args.seed)
    print(result.summary())
    invalid = [m for g in result.games for m in g.moves if m.verdict != "ok"]
    for m in invalid:
        print(f"lost on move {m.number} by {m.player}: {m.verdict}" + (f"\n  stderr: {m.stderr.strip()[-500:]}"
                                                                       if m.stderr.strip() else ""))
    return 0


def _positive(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value


def add_match_parser(sub) -> argparse.ArgumentParser:
    """Add ``match`` to the sub-parsers of ``plies littlego``."""
    m = sub.add_parser("match", help="play a match between two players through the local host")
    m.add_argument("a", help="player A: " + ", ".join(NAMED) + ", a .py player, or a command line")
    m.add_argument("b", help="player B (A is black in games 1, 3, ...)")
    m.add_argument("--games", type=int, default=2)
    m.add_argument("--jobs", type=int, default=1, help="games played at once")
    m.add_argument("--seconds", type=_positive, help="CPU budget per move of 'me' (default: the player's)")
    m.add_argument("--time-limit", type=_positive, default=TIME_LIMIT, help="the host's CPU limit per move")
    m.add_argument("--python", help="the interpreter that runs .py players (default: python3 on PATH)")
    m.add_argument("--workdir", help="keep the players' directories here (default: a temporary directory)")
    m.add_argument("--seed", help=f"any text: seeds every player's random choices (game k gets SEED.k in "
                                  f"{SEED_VARIABLE}); default: fresh ones")
    m.add_argument("--show", action="store_true", help="show the boards")
    m.add_argument("--quiet", action="store_true", help="only the summary")
    m.set_defaults(func=match_command)
    return m


def main(argv=None) -> int:
    """``python -m standins.littlego_host match A B --games N`` (the same as ``plies littlego match``)."""
    parser = argparse.ArgumentParser(prog="python -m standins.littlego_host")
    add_match_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ValueError as e:
        print(f"littlego: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
