"""A cold compiled-kernel cache must not lose a game: the one cold-start path of every adapter.

Compiling a game's kernels takes 10-20 s (``python -m engines.warmup --game G`` from an empty cache),
longer than a harness gives for a move.  So an adapter checks the cache BEFORE importing any engine
module that holds kernels (``engines.warmup.is_warm`` reads a stamp; it imports neither numba nor the
engine), and plays through ``ColdStart``:

    cold = ColdStart("othello", "plies-othello", make_player)   # warm: the player is built at once
    ...
    if cold.ready():           # the kernels load from the cache now (a cache hit: well under a second)
        move = cold.player.choose(...)
    else:                      # the reference rules (engines/games/reference/) and fallback_search
        move = fallback_search(rules, position, deadline)

The compile runs in a process of its own (``python -m engines.warmup --game G``, at a lower priority)
that is detached from the adapter's: it outlives the adapter, so a harness that starts a fresh process
per game (the Othello manager, the Little-Go host) finds the cache warm at its next game.  Compiles
run one at a time (the warm-up takes a lock beside the cache, engines/warmup.py), so several cold
adapters started together compile the game once.  Readiness is read from the warm-up's stamp, so a
compile started by another process counts as well.  If the compile fails, the adapter goes on with
its fallback and says so once.

While cold, moves come from ``fallback_search``: a shallow alpha-beta over the reference rules,
deepening until the move's deadline (not a one-ply rule).
"""
import os
import subprocess
import sys
import threading
import time

from engines import warmup

POLL_SECONDS = 0.25  # how often ready() reads the warm-up's stamp while the compile runs


class Compiler:
    """The state of the compiled-kernel cache of one game for one adapter (``name`` in messages)."""

    def __init__(self, game: str, name: str, err=None, start: bool = True, clock=time.monotonic):
        self.game, self.name = game, name
        self.err = err if err is not None else sys.stderr
        self.clock = clock
        self.process = None
        self.failed = False
        self._polled = float("-inf")
        self.cold = not warmup.is_warm(game)
        if self.cold and start:
            self._start()

    def say(self, text: str) -> None:
        print(f"{self.name}: {text}", file=self.err, flush=True)

    def _start(self) -> None:
        self.say(f"the compiled-kernel cache of {self.game} is cold (a first run after an install or an edit "
                  f"of the engine): compiling it in a background process that outlives this one, meanwhile "
                  f"moves come from a shallow fallback search. Run `{warmup.COMMAND}` (or `make warmup`) once "
                  f"to avoid this.")
        command = [sys.executable, "-m", "engines.warmup", "--game", self.game]
        try:  # a session of its own: neither the harness's signals nor our exit stop it
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True,
                                            preexec_fn=lambda: os.nice(5))
        except OSError as err:
            self.failed = True
            self.say(f"cannot start the compile ({err}); playing fallback moves")

    def ready(self) -> bool:
        """True once the engine's kernels of this game load from the cache (never blocks long: the
        stamp is read at most every POLL_SECONDS)."""
        if not self.cold:
            return True
        if self.failed:
            return False
        code = self.process.poll() if self.process is not None else None
        now = self.clock()
        if code is None and now - self._polled < POLL_SECONDS:
            return False
        self._polled = now
        if warmup.is_warm(self.game):
            self.cold = False
            self.say(f"the compile of {self.game} is done: the engine plays from now on")
            return True
        if code not in (None, 0):
            self.failed = True
            self.say(f"the background compile failed (exit status {code}); playing fallback moves. "
                      f"Run `{warmup.COMMAND} --game {self.game}` to see why.")
        return False

    def wait(self, timeout: float | None = None) -> bool:
        """Block until ready or timeout seconds (None: for ever); ready() afterwards."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.cold and not self.failed:
            if self.process is not None and self.process.poll() is not None:
                self._polled = float("-inf")
                return self.ready()
            if end is not None and time.monotonic() >= end:
                break
            time.sleep(0.05)
            self._polled = float("-inf")
            self.ready()
        return self.ready()

    def close(self) -> None:
        """The adapter is leaving: the compile goes on (detached) so that the next game is warm."""
        self.process = None


COMPILE_FAILED = "the engine's compile failed; only the fallback moves are available"


class ColdStart:
    """Until the game's kernels are compiled, ``ready()`` is False and the adapter plays fallback
    moves from the reference rules; at the first ``ready()`` after the compile, ``make_player()``
    builds the game's player (importing the engine, a cache hit) and ``player`` holds it.

    Loading the kernels and warming the player up takes a second or more, longer than a small move
    budget.  ``background=True`` builds it in a thread instead, started by the first ``ready()`` after
    the compile: fallback moves go on (within their deadlines) until the player is there
    (``loading()`` meanwhile), so the move at the hand-over keeps its budget too.  ``make_player``
    may return None: the player is declined (it cannot play this game, said by make_player) and
    fallback moves go on for good.

    ``wait(timeout)`` is the one way to block: for the compile, then the player's build (an adapter
    starting with a warm cache, before its first message; a command only the player answers; a move
    while the player loads, checked with ``loading()`` first)."""

    def __init__(self, game: str, name: str, make_player, err=None, start: bool = True, background: bool = False):
        self.compiler = Compiler(game, name, err=err, start=start)
        self.make_player = make_player
        self.background = background
        self.player = None
        self.declined = False  # make_player returned None (or failed): no player this session
        self.fallbacks = 0     # moves answered by the fallback search (figures and tests)
        self._builder = None

    def ready(self) -> bool:
        """True once the player plays; never blocks for the compile (a background build is started,
        a foreground one is made here)."""
        if self.player is None and not self.declined and self._builder is None and self.compiler.ready():
            if self.background:
                self._builder = threading.Thread(target=self._build_in_background, name="player-build", daemon=True)
                self._builder.start()
            else:
                self._build()
        return self.player is not None

    def loading(self) -> bool:
        """True while the player is being built in the background thread."""
        return self.player is None and self._builder is not None and self._builder.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Block up to ``timeout`` seconds (None: until settled) for the compile, then for the player's
        build; True once the player plays (False at the timeout, after a failed compile, or when the
        player was declined)."""
        end = None if timeout is None else time.monotonic() + max(0.0, timeout)

        def left():
            return None if end is None else max(0.0, end - time.monotonic())

        if self.player is None and not self.declined and self.compiler.wait(left()):
            if self._builder is None:
                self._build()  # here: the waiter wants the player now, not a thread's word that it is loaded
            else:
                self._builder.join(left())
        return self.player is not None

    def _build(self):
        self.player = self.make_player()
        self.declined = self.player is None

    def _build_in_background(self):
        try:
            self._build()
        except Exception as err:  # noqa: BLE001 - said once; the adapter goes on with its fallback
            self.declined = True
            self.compiler.say(f"the player could not be built ({type(err).__name__}: {err}); playing fallback moves")
            return
        if self.player is not None:
            self.compiler.say("the player is loaded: the engine plays from the next move")

    def close(self) -> None:
        self.compiler.close()


def fallback_search(rules, position, deadline, rng=None):
    """The best move of a shallow pure-Python search over reference rules, within ``deadline``.

    ``rules`` gives ``moves(position)`` (the legal moves of the side to move, never empty unless the
    game is over: a pass is a move), ``play(position, move)`` (a new position), ``outcome(position)``
    (None while the game goes on, else +1/0/-1 for the side to move) and ``evaluate(position)`` (a
    heuristic in [-1, 1] for the side to move).  ``deadline`` has ``passed()``.  Negamax alpha-beta,
    deepened one ply at a time; a depth the deadline interrupts is discarded.  ``rng`` (random.Random)
    breaks ties among equal moves at depth one.  Always returns a legal move."""
    moves = list(rules.moves(position))
    if not moves:
        raise ValueError("fallback_search: no legal move (the game is over)")
    if rng is not None:
        rng.shuffle(moves)
    if len(moves) == 1:
        return moves[0]
    children = [(move, rules.play(position, move)) for move in moves]
    best = max(children, key=lambda mc: -_leaf(rules, mc[1]))[0]
    depth = 1
    while not deadline.passed():
        try:
            order = sorted(children, key=lambda mc: mc[0] != best)  # the last best first: better cuts
            alpha, choice = -2.0, best
            for move, child in order:
                value = -_negamax(rules, child, depth, -2.0, -alpha, deadline)
                if value > alpha:
                    alpha, choice = value, move
            best = choice
            if alpha >= 1.0:  # a proven win: nothing deeper changes it
                break
        except _OutOfTime:
            break
        depth += 1
    return best


class _OutOfTime(Exception):
    pass


def _leaf(rules, position) -> float:
    outcome = rules.outcome(position)
    return float(outcome) if outcome is not None else rules.evaluate(position)


def _negamax(rules, position, depth, alpha, beta, deadline) -> float:
    outcome = rules.outcome(position)
    if outcome is not None:
        return float(outcome)
    if depth <= 0:
        return rules.evaluate(position)
    best = -2.0
    for move in rules.moves(position):
        if deadline.passed():  # before each child: a node's leaves take long in pure Python (tens of ms)
            raise _OutOfTime
        value = -_negamax(rules, rules.play(position, move), depth - 1, -beta, -alpha, deadline)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def report_cold_cache(game: str, consequence: str, say, fix_also: str = "") -> bool:
    """Tell ``say`` in one line, before any engine module is imported, that the compiled-kernel cache
    of game is cold, what that means for this adapter (``consequence``) and the fix; True when cold.
    For adapters that compile inside their own run (plies-go5, the Little-Go player)."""
    if warmup.is_warm(game):
        return False
    say(f"the compiled-kernel cache of {game} is cold (no warm-up since plies was installed or its engine "
        f"edited): {consequence}. Fix: run `{sys.executable} -m engines.warmup --game {game}` once{fix_also}")
    return True
