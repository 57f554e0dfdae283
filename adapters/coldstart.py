"""A cold compiled-kernel cache must not lose a game: what an adapter on a harness's clock does at start.

Compiling a game's kernels takes 10-20 s (``python -m engines.warmup --game G`` from an empty cache),
longer than a harness gives for a move.  So an adapter checks the cache BEFORE importing any engine
module (``engines.warmup.is_warm`` reads a stamp; it imports neither numba nor the engine):

    compiler = Compiler("othello", "plies-otp")   # warm: ready at once; cold: says so on stderr and
                                                  # compiles in a background process
    ...
    if compiler.ready():    # the engine can be imported now (a cache hit: well under a second)
        ...search...
    else:
        ...a legal fallback move from the adapter's pure-Python rules...

The background process is ``python -m engines.warmup --game G`` at a lower priority; it writes the
same cache and stamp ``make warmup`` does.  If it fails, the adapter goes on with its fallback and
says so once.
"""
import os
import subprocess
import sys

from engines import warmup


class Compiler:
    """The state of the compiled-kernel cache of one game for one adapter (``name`` in messages)."""

    def __init__(self, game: str, name: str, err=None, start: bool = True):
        self.game, self.name = game, name
        self.err = err if err is not None else sys.stderr
        self.process = None
        self.failed = False
        self.cold = not warmup.is_warm(game)
        if self.cold and start:
            self._start()

    def _say(self, text: str) -> None:
        print(f"{self.name}: {text}", file=self.err, flush=True)

    def _start(self) -> None:
        self._say(f"the compiled-kernel cache of {self.game} is cold (a first run after an install or an edit "
                  f"of the engine): compiling it in the background, meanwhile moves come from a quick fallback. "
                  f"Run `{warmup.COMMAND}` (or `make warmup`) once to avoid this.")
        command = [sys.executable, "-m", "engines.warmup", "--game", self.game]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, preexec_fn=lambda: os.nice(5))
        except OSError as err:
            self.failed = True
            self._say(f"cannot start the compile ({err}); playing fallback moves")

    def ready(self) -> bool:
        """True once the engine's kernels of this game load from the cache (never blocks)."""
        if not self.cold:
            return True
        if self.failed or self.process is None:
            return False
        code = self.process.poll()
        if code is None:
            return False
        if code == 0:
            self.cold = False
            self._say(f"the compile of {self.game} is done: the engine plays from now on")
            return True
        self.failed = True
        self._say(f"the background compile failed (exit status {code}); playing fallback moves. "
                  f"Run `{warmup.COMMAND} --game {self.game}` to see why.")
        return False

    def wait(self, timeout: float | None = None) -> bool:
        """Block until ready or timeout seconds (None: for ever); ready() afterwards."""
        if self.process is not None and self.cold and not self.failed:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        return self.ready()

    def close(self) -> None:
        """Stop a compile still running (the adapter is leaving)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
