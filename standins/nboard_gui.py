"""A stand-in of the NBoard GUI: drives an NBoard engine through its stdin/stdout the way NBoard does
(README "NBoard protocol"), referees with the reference rules and checks every reply's grammar.

    python -m standins.nboard_gui [--depth 4] [--games 1] [--hints 2] -- plies-nboard --time 1

The GUI sends ``nboard 2``, then before each change of position a ``ping n`` and the change (``set depth``,
``set game`` with the game so far in GGF, ``move``), and only trusts answers given after the ``pong n``
of its latest ping.  In a game it plays both colours through the engine: ``go`` for the side to move,
checks the ``=== move[/eval[/time]]`` answer is legal, sends it back with ``move`` (NBoard does; the
engine must not play it itself), and every few moves asks ``hint N`` and checks the ``search`` lines
(legal first moves, evals, depth) between a ``status`` and an empty ``status``.  Lines the GUI does not
know (an engine's ``error ...``) are recorded and otherwise ignored, as NBoard ignores them.
"""
import argparse
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from engines.games.reference import othello as rules
from protocols import nboard

MOVE_LINE = re.compile(r"=== (\S+)$")
SEARCH_LINE = re.compile(r"(search|book) (\S+) (-?[0-9]+(\.[0-9]+)?(,-?[0-9]+(\.[0-9]+)?)?) (\d+) ([0-9]+\S*)( .*)?$")


class GuiError(Exception):
    """The engine broke the protocol (a malformed or illegal answer, a time-out, an early exit)."""


@dataclass
class Report:
    moves: list = field(default_factory=list)        # ((row, col) or None, seconds) of every go
    hints: list = field(default_factory=list)        # the parsed search lines of every hint
    ignored: list = field(default_factory=list)      # lines the GUI does not know (error ...)
    names: list = field(default_factory=list)        # set myname
    scores: list = field(default_factory=list)       # black minus white at the end of each game


class EngineProcess:
    """An engine on pipes, its stdout read by a thread into a queue (a reply can be awaited with a limit)."""

    def __init__(self, command, env=None, cwd=None):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                                     env=env, cwd=cwd)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def line(self, limit: float) -> str:
        try:
            line = self.lines.get(timeout=limit)
        except queue.Empty:
            raise GuiError(f"no answer within {limit:g} s") from None
        if line is None:
            raise GuiError(f"the engine closed its stdout (exit status {self.proc.poll()})")
        return line

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(10)   # it ends at the engine's end of output
        self.proc.stdout.close()  # closed here, not by the garbage collector (a ResourceWarning, later)


class Gui:
    """The GUI's side of one engine session; ``limit`` seconds for any awaited answer."""

    def __init__(self, engine: EngineProcess, limit: float = 60.0, report: Report | None = None):
        self.engine, self.limit = engine, limit
        self.report = report or Report()
        self.ping_count = 0
        engine.send(f"nboard {nboard.VERSION}")

    def _next(self) -> str:
        """The next line the GUI acts on (pong, ===, search, status): names and unknown lines are recorded."""
        while True:
            line = self.engine.line(self.limit)
            word = line.split(" ", 1)[0]
            if word == "set" and line.startswith("set myname "):
                self.report.names.append(line[len("set myname "):])
            elif word == "nodestats":
                continue
            elif word in ("pong", "===", "search", "book", "status", "learned"):
                return line
            else:
                self.report.ignored.append(line)

    def sync(self, command: str | None = None):
        """ping n, then the command (a change of position or depth), then wait for pong n."""
        self.ping_count += 1
        self.engine.send(f"ping {self.ping_count}")
        if command:
            self.engine.send(command)
        while True:
            line = self._next()
            if line == f"pong {self.ping_count}":
                return
            if not line.startswith("pong "):
                raise GuiError(f"an answer {line!r} before pong {self.ping_count}")

    def go(self, position: "rules.Position"):
        """The engine's move on position (already set); GuiError when it is malformed or illegal."""
        began = time.perf_counter()
        self.engine.send("go")
        line = self._next()
        m = MOVE_LINE.match(line)
        if not m:
            raise GuiError(f"go answered {line!r}, not '=== move[/eval[/time]]'")
        try:
            point, value, seconds = nboard.parse_move_item(m.group(1))
        except Exception as err:  # noqa: BLE001 - a GUI reports what it cannot read
            raise GuiError(f"go answered {line!r}: {err}") from None
        legal = position.legal()
        if point not in legal:
            raise GuiError(f"go answered {nboard.format_move(point)}, not a legal move "
                           f"({' '.join(nboard.format_move(p) for p in legal)})")
        self.report.moves.append((point, time.perf_counter() - began))
        return point, value, seconds

    def hint(self, position: "rules.Position", count: int) -> list:
        self.engine.send(f"hint {count}")
        first = self._next()
        if not first.startswith("status"):
            raise GuiError(f"hint answered {first!r} before its status")
        found = []
        while True:
            line = self._next()
            if line == "status":
                break
            m = SEARCH_LINE.match(line)
            if not m:
                raise GuiError(f"a hint line {line!r} is not 'search pv eval 0 depth'")
            point = nboard.parse_move(m.group(2)[:2])
            if point not in position.legal():
                raise GuiError(f"a hint names {m.group(2)[:2]}, not a legal move")
            found.append({"move": point, "eval": float(m.group(3).split(",")[0]), "depth": m.group(8)})
        if not found:
            raise GuiError("hint gave no search line")
        self.report.hints.append(found)
        return found

    def play_game(self, depth: int, hints: int = 0, hint_every: int = 10, start=None) -> int:
        """One game, the engine playing both colours from start (default: the initial position)."""
        board, to_move = (rules.initial_board(nboard.SIZE), rules.DARK) if start is None else start
        position = rules.Position(board, to_move)
        self.sync(f"set depth {depth}")
        self.sync("set game " + nboard.format_game(board, to_move))
        ply = 0
        while not position.is_over():
            if hints and ply % hint_every == 0:
                self.hint(position, hints)
            point, value, seconds = self.go(position)
            self.sync("move " + nboard.format_move_item(point, value, seconds))
            position = position.play(point)
            ply += 1
        self.engine.send("learn")
        if self._next() != "learned":
            raise GuiError("learn was not answered 'learned'")
        self.report.scores.append(position.score())
        return position.score()


def run(command, games: int = 1, depth: int = 4, hints: int = 0, limit: float = 60.0, env=None, cwd=None) -> Report:
    engine = EngineProcess(command, env=env, cwd=cwd)
    try:
        gui = Gui(engine, limit)
        for _ in range(games):
            gui.play_game(depth, hints)
        return gui.report
    finally:
        engine.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="nboard_gui", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--hints", type=int, default=2, help="moves per hint (0: no hints)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the engine's command line (after --)")
    args = p.parse_args(argv)
    command = [c for c in args.command if c != "--"] or [sys.executable, "-m", "adapters.nboard", "--time", "1"]
    try:
        report = run(command, args.games, args.depth, args.hints)
    except GuiError as err:
        print(f"nboard_gui: {err}", file=sys.stderr)
        return 1
    print(f"{len(report.scores)} game(s), scores {report.scores}, {len(report.moves)} moves, "
          f"max {max(s for _, s in report.moves):.2f} s a go, {len(report.hints)} hints, names {report.names}, "
          f"{len(report.ignored)} ignored lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
