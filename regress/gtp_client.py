"""The controller's side of one GTP engine process, as GoGui, HexGui or a match referee drive it: a
command line in, the reply up to its empty line out, over pipes.

``GtpClient`` reads the engine's stdout and stderr on two threads, so a reply can be awaited with a
wall-clock limit (``timeout=``): an engine that does not answer in time is killed and the call raises
``EngineTimeout``; one that exits, closes its output, breaks the pipe or answers something that is
not a GTP reply raises ``EngineCrashed``.  Both are ``EngineFailure``s: the engine can no longer be
played.  A ``?`` reply is not a failure: ``send`` returns ``(False, text)`` and ``ok`` raises
``GtpFailure``.  The last lines of the engine's stderr are kept (``stderr_tail``) for the report of a
crash.  The Go match referee (regress/go_match.py) and the Hex referee (standins/hex_referee.py)
use it.
"""
import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
import time

STDERR_LINES = 20  # the last lines of an engine's stderr kept for a crash report


class EngineFailure(Exception):
    """The engine can no longer be played (it timed out, exited or garbled its output)."""

    kind = "failure"


class EngineTimeout(EngineFailure):
    """No complete reply within the time limit; the engine has been killed."""

    kind = "timeout"


class EngineCrashed(EngineFailure):
    """The engine exited, closed its output, broke the pipe or wrote something that is no GTP reply."""

    kind = "crash"


class GtpFailure(Exception):
    """A ``?`` reply to a command that had to succeed."""

    def __init__(self, command: str, text: str):
        super().__init__(f"{command!r} failed: {text}")
        self.command = command
        self.text = text


def command_line(command) -> list[str]:
    """A command as a list of arguments: a list as given, a string split as a POSIX shell would."""
    args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not args:
        raise ValueError("an engine command is empty")
    return args


class GtpClient:
    """One engine process driven over pipes.  ``raw(line)`` returns the reply text exactly as read
    (``'= ...\\n\\n'``), ``send`` returns ``(ok, text)``, ``ok`` the text of a success, ``genmove`` the
    move text and records the seconds it took in ``seconds``.  ``timeout`` (seconds, None = wait for
    ever) bounds the wait of one command."""

    def __init__(self, command, *, cwd=None, env=None, clock=time.perf_counter):
        self.args = command_line(command)
        self.clock = clock
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env, text=True, bufsize=1,
                                     errors="replace", start_new_session=True)  # its own process group
        self.seconds = []  # wall time of each genmove (figures, never asserted)
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=STDERR_LINES)
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for thread in self._threads:
            thread.start()

    # ---- the reader threads ---------------------------------------------------------------------
    def _read_stdout(self):
        try:
            for line in self.proc.stdout:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)  # end of output

    def _read_stderr(self):
        try:
            for line in self.proc.stderr:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    # ---- commands -------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def _crashed(self, what: str) -> EngineCrashed:
        try:
            status = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        tail = self.stderr_tail().strip().splitlines()
        text = f"{what} (exit status {status})" if status is not None else what
        return EngineCrashed(text + (f"; its stderr ends: {tail[-1]}" if tail else ""))

    def raw(self, line: str, timeout: float | None = None) -> str:
        """Send one command line; return its reply up to and including the empty line that ends it
        (blank lines before a reply are skipped, ``\\r`` is dropped)."""
        deadline = None if timeout is None else self.clock() + max(0.0, timeout)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self._crashed(f"the engine cannot be written to (before {line!r})") from None
        lines = []
        while True:
            try:
                if deadline is None:
                    got = self._lines.get()
                else:
                    got = self._lines.get(timeout=max(0.0, deadline - self.clock()))
            except queue.Empty:
                self.kill()
                raise EngineTimeout(f"no reply to {line!r} within {timeout:g} s; the engine was killed") from None
            if got is None:
                self._lines.put(None)  # later calls see the end too
                raise self._crashed(f"the engine closed its output after {line!r}")
            got = got.replace("\r", "")
            if got == "\n" or got == "":
                if lines:
                    return "".join(lines) + "\n"
                continue
            lines.append(got if got.endswith("\n") else got + "\n")

    def send(self, line: str, timeout: float | None = None) -> tuple[bool, str]:
        reply = self.raw(line, timeout)
        if reply[0] not in "=?":
            self.kill()
            raise EngineCrashed(f"the reply to {line!r} is not GTP: {reply.strip()[:80]!r}; the engine was killed")
        return reply[0] == "=", reply[1:].strip()

    def ok(self, line: str, timeout: float | None = None) -> str:
        ok, text = self.send(line, timeout)
        if not ok:
            raise GtpFailure(line, text)
        return text

    def genmove(self, colour: str, timeout: float | None = None, command: str = "genmove") -> str:
        """``genmove`` (or a variant: ``reg_genmove``, ``kgs-genmove_cleanup``) for a colour."""
        start = self.clock()
        try:
            return self.ok(f"{command} {colour}", timeout)
        finally:
            self.seconds.append(self.clock() - start)

    # ---- the end --------------------------------------------------------------------------------
    def kill(self):
        """Kill the engine and whatever it started (its process group, which is its own)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
        self.proc.wait()

    def close(self, timeout: float = 10.0):
        """``quit`` (when the engine still runs), then wait for it; kill it if it does not end."""
        try:
            if self.alive:
                self.send("quit", timeout=timeout)
            self.proc.wait(timeout=timeout)
        except (EngineFailure, subprocess.TimeoutExpired, OSError):
            self.kill()
        finally:
            for thread in self._threads:  # they end at the end of the engine's output
                thread.join(timeout=1)
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass
