"""Run GTP regression files against a GTP engine, with the semantics of gogui-regress 1.4.9.

    python -m regress.runner [--long] [--verbose] [--timeout S] ENGINE_COMMAND FILE.gtp [FILE.gtp ...]

Data, as this module represents it:
- A test file becomes a list of `Command`s (blank and comment lines are dropped).  `Command.line`
  is the trimmed line as sent (tabs turned into spaces, a leading id kept), `test_id` the id
  gogui reads from it (-1 when there is none) and `check` the `#?` line directly after it (a
  `Check`, or None for none or an empty `#?`).  A command is a *test* when it has an id >= 0 or a
  check (gogui's rule: a check after an unnumbered command makes a test with id -1).
- A reply is a `Reply`: `error` (status `?`) and `full`, the reply's lines joined with a newline
  each, the final empty line included (``"= a1\\n\\n"``), exactly as gogui keeps it.  The text a
  regex is matched against is `response_text(full)`: what follows the first space, trimmed.
- Each test gives a `Result` whose `outcome` is one of OUTCOMES: pass, FAIL (unexpected
  failure), fail (expected failure), PASS (unexpected pass).  An error reply to an unnumbered
  command without a check counts in `Summary.errors` only.

Parsing, classification and report formatting are pure functions; `GtpProcess` is the transport
(one engine process, its stderr kept apart from its replies); `run_file` joins them.  Exit status:
0 with no FAIL, 1 with a FAIL, 2 on a file error, an engine crash, a timeout or bad arguments.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, TextIO

try:
    import pexpect
    from pexpect import fdpexpect
except ModuleNotFoundError:  # an optional dependency: the demo and dev extras have it
    sys.exit("plies-regress needs pexpect: pip install 'plies[demo]' (or make regress)")

DEFAULT_TIMEOUT = 60.0     # seconds an engine may take to answer one command before it counts as a crash
QUIT_GRACE = 5.0           # seconds an engine may take to exit after `quit` before it is killed
STDERR_TAIL = 20           # lines of the engine's stderr shown with a crash message
INT_MAX = 2**31 - 1        # Java's Integer.MAX_VALUE: a larger number is no id

OUTCOMES = ("pass", "FAIL", "fail", "PASS")
EXIT_OK, EXIT_FAIL, EXIT_CRASH = 0, 1, 2
SUMMARY_HEADER = "#Tests\tFAIL\tfail\tPASS\tpass\tError\tTime\tCpuTime"


class FormatError(ValueError):
    """The test file cannot be run (gogui-regress exits with status 2)."""


class Crash(RuntimeError):
    """The engine died, timed out or could not be started (exit status 2)."""


# --------------------------------------------------------------------------------------------
# Pure part: file parsing
# --------------------------------------------------------------------------------------------

def java_trim(text: str) -> str:
    """Java's String.trim(): strip every character <= U+0020 from both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def java_lines(text: str) -> list[str]:
    """Lines as Java's BufferedReader.readLine gives them (\\n, \\r\\n and \\r end a line)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_JAVA_INT = re.compile(r"[+-]?[0-9]+")


def command_id(line: str) -> int:
    """gogui's getId: the text before the first space parsed as a Java int ('+5' and '007' too),
    or -1 if it is none.  gogui treats a negative number as no id, so it gives -1 too."""
    index = line.find(" ")
    if index < 0 or not _JAVA_INT.fullmatch(line[:index]):
        return -1
    value = int(line[:index])
    return value if 0 <= value <= INT_MAX else -1


_POSIX_CLASSES = {   # Java's \p{...} POSIX classes (US-ASCII), as Python character-class bodies
    "Lower": "a-z", "Upper": "A-Z", "ASCII": "\\x00-\\x7f", "Alpha": "a-zA-Z", "Digit": "0-9",
    "Alnum": "a-zA-Z0-9", "Punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "Blank": " \\t", "Cntrl": "\\x00-\\x1f\\x7f", "XDigit": "0-9a-fA-F", "Space": " \\t\\n\\x0b\\f\\r",
}
_POSIX_CLASSES["Graph"] = _POSIX_CLASSES["Alnum"] + _POSIX_CLASSES["Punct"]
_POSIX_CLASSES["Print"] = _POSIX_CLASSES["Graph"] + " "


def java_regex(source: str) -> re.Pattern:
    """Compile a java.util.regex pattern as Python `re` with MULTILINE | DOTALL (and ASCII, since
    Java's \\w, \\d, \\s and \\b are ASCII by default).  Translated: \\Q...\\E, \\p{POSIX},
    \\z, \\Z.  Java's nested classes and && intersections are refused.  ValueError if it fails."""
    out, i, in_class = [], 0, False
    while i < len(source):
        c = source[i]
        nxt = source[i + 1] if i + 1 < len(source) else ""
        if c == "\\" and nxt == "Q":
            end = source.find("\\E", i + 2)
            literal = source[i + 2:] if end < 0 else source[i + 2:end]
            out.append("".join("\\" + ch if not ch.isalnum() else ch for ch in literal)
                       if in_class else re.escape(literal))
            i = len(source) if end < 0 else end + 2
        elif c == "\\" and nxt in ("p", "P"):
            m = re.match(r"\{(?:Is)?(\w+)\}|([A-Za-z])", source[i + 2:])
            name = m and (m.group(1) or m.group(2))
            if name not in _POSIX_CLASSES:
                raise ValueError(f"unsupported class \\{nxt}{m.group(0) if m else ''} in regex {source!r}")
            if in_class and nxt == "P":
                raise ValueError(f"unsupported \\P inside a character class in regex {source!r}")
            body = _POSIX_CLASSES[name]
            out.append(body if in_class else f"[{'^' if nxt == 'P' else ''}{body}]")
            i += 2 + len(m.group(0))
        elif c == "\\" and nxt:
            out.append({"z": "\\Z", "Z": "(?=\\n?\\Z)"}.get(nxt, c + nxt) if not in_class else c + nxt)
            i += 2
        elif c == "[" and in_class:
            raise ValueError(f"unsupported nested character class in regex {source!r}")
        elif c == "&" and nxt == "&" and in_class:
            raise ValueError(f"unsupported class intersection && in regex {source!r}")
        else:
            if c == "[":
                in_class = True
                out.append(c)
                i += 1
                if source[i:i + 1] == "^":
                    out.append("^")
                    i += 1
                if source[i:i + 1] == "]":     # a first ']' is literal in Java as in Python
                    out.append("\\]")
                    i += 1
                continue
            if c == "]" and in_class:
                in_class = False
            out.append(c)
            i += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")     # "possible nested set" and the like: refuse
            return re.compile("".join(out), re.MULTILINE | re.DOTALL | re.ASCII)
    except (re.error, FutureWarning, DeprecationWarning) as exc:
        raise ValueError(f"bad regex {source!r}: {exc}") from None


@dataclass(frozen=True)
class Check:
    """A `#? [REGEX]` line: `expected` is the text between the brackets (trimmed, with any '!'),
    as gogui reports it."""
    lineno: int
    expected: str
    regex: re.Pattern
    negate: bool
    expected_fail: bool

    def describe(self) -> str:
        return f"[{self.expected}]" + ("*" if self.expected_fail else "")


@dataclass(frozen=True)
class Command:
    lineno: int
    line: str            # sent to the engine as is
    test_id: int         # -1: no id
    command: str         # the line without its id
    check: Check | None = None

    @property
    def is_test(self) -> bool:
        return self.test_id >= 0 or self.check is not None


def parse_check(text: str, lineno: int) -> Check | None:
    """The part of a `#?` line after `#?`, trimmed.  None when empty (then the command is judged
    as if it had no `#?`).  FormatError without brackets or with a bad regex."""
    if text == "":
        return None
    expected_fail = text.endswith("*")
    if expected_fail:
        text = text[:-1]
    if not text.startswith("["):
        raise FormatError(f"Pattern has no opening bracket: {text}")
    if not text.endswith("]"):
        raise FormatError(f"Pattern has no closing bracket: {text}")
    expected = java_trim(text[1:-1])
    negate = expected.startswith("!")
    try:
        regex = java_regex(expected[1:] if negate else expected)
    except ValueError as exc:
        raise FormatError(str(exc)) from None
    return Check(lineno, expected, regex, negate, expected_fail)


def parse_lines(lines: Iterable[str], name: str = "<file>") -> list[Command]:
    """The commands of a test file, each with its `#?` check.  FormatError "NAME:LINE: message"
    for a `#?` that does not directly follow a command (a blank or comment line in between
    breaks the link, as in gogui-regress) and for a malformed pattern."""
    commands: list[Command] = []
    pending = False                       # the previous line was a command
    for lineno, raw in enumerate(lines, 1):
        line = java_trim(raw)
        if line.startswith("#?"):
            if not pending:
                raise FormatError(f"{name}:{lineno}: Response pattern without preceding test "
                                  f"command: {line}")
            try:
                check = parse_check(java_trim(line[2:]), lineno)
            except FormatError as exc:
                raise FormatError(f"{name}:{lineno}: {exc}") from None
            commands[-1] = dataclasses.replace(commands[-1], check=check)
            pending = False
            continue
        pending = False
        if line == "" or line.startswith("#"):
            continue
        line = line.replace("\t", " ")
        test_id = command_id(line)
        command = line if test_id < 0 else line[line.index(" ") + 1:]
        commands.append(Command(lineno, line, test_id, command))
        pending = True
    return commands


def parse_file(path: str | os.PathLike) -> list[Command]:
    """Read and parse one test file.  FormatError if it is missing or unreadable too."""
    path = Path(path)
    if not path.exists():
        raise FormatError(f"File not found: {path}")
    if not path.is_file():
        raise FormatError(f"Not a normal file: {path}")
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise FormatError(f"Cannot read {path}: {exc}") from None
    return parse_lines(java_lines(text), str(path))


# --------------------------------------------------------------------------------------------
# Pure part: judging replies
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reply:
    error: bool
    full: str            # "= a1\n\n": every reply line with its newline, the empty line included

    @property
    def text(self) -> str:
        return response_text(self.full)


def response_text(full: str) -> str:
    """What gogui-regress matches: the text after the first space of the full reply, trimmed
    ("" when there is no space).  An echoed id (`=12 a1`) is therefore left out."""
    index = full.find(" ")
    return java_trim(full[index:]) if index >= 0 else ""


def reply_from_lines(lines: list[str]) -> Reply:
    """The reply made of its lines: the status line first, the empty line last."""
    return Reply(error=not lines[0].startswith("="), full="".join(line + "\n" for line in lines))


def is_failure(check: Check | None, reply: Reply) -> bool:
    """gogui's rule: an error reply always fails; without a check nothing else does; otherwise
    the regex must match the whole response text (must not, when negated)."""
    if reply.error:
        return True
    if check is None:
        return False
    matches = check.regex.fullmatch(reply.text) is not None
    return matches == check.negate


def outcome(failed: bool, expected_fail: bool) -> str:
    """pass, FAIL (unexpected failure), fail (expected failure) or PASS (unexpected pass)."""
    if failed:
        return "fail" if expected_fail else "FAIL"
    return "PASS" if expected_fail else "pass"


@dataclass(frozen=True)
class Result:
    file: str
    command: Command
    reply: Reply
    outcome: str


def judge(command: Command, reply: Reply, file: str = "") -> Result | None:
    """The result of a test, or None when the command is no test."""
    if not command.is_test:
        return None
    check = command.check
    return Result(file, command, reply,
                      outcome(is_failure(check, reply), check is not None and check.expected_fail))


@dataclass
class Summary:
    tests: int = 0
    FAIL: int = 0
    fail: int = 0
    PASS: int = 0
    passed: int = 0      # the 'pass' column
    errors: int = 0      # error replies to commands that are no tests
    time: float = 0.0    # wall seconds of the files' commands
    cputime: float = 0.0  # the engine's own `cputime` difference (0 if it has none)

    def add(self, result: Result) -> None:
        self.tests += 1
        name = "passed" if result.outcome == "pass" else result.outcome
        setattr(self, name, getattr(self, name) + 1)

    def merge(self, other: "Summary") -> None:
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    @property
    def exit_status(self) -> int:
        return EXIT_FAIL if self.FAIL else EXIT_OK


def summarise(results: Iterable[Result], errors: int = 0, time_s: float = 0.0,
              cputime: float = 0.0) -> Summary:
    summary = Summary(errors=errors, time=time_s, cputime=cputime)
    for result in results:
        summary.add(result)
    return summary


# --------------------------------------------------------------------------------------------
# Pure part: the report
# --------------------------------------------------------------------------------------------

def _indent_continuation(text: str, width: int) -> str:
    return text.replace("\n", "\n" + " " * width)


def format_result(result: Result, prefix: str = "") -> str:
    """One test: its id, outcome and command, what was expected and what came back.

        20 FAIL: genmove b
            expected: [c3]
            response: = d4
    """
    command, check = result.command, result.command.check
    expected = check.describe() if check else "(no #? line: any reply but an error)"
    status = "?" if result.reply.error else "="
    response = _indent_continuation(f"{status} {result.reply.text}".rstrip(), 14)
    return (f"{prefix}{command.test_id} {result.outcome}: {command.command}\n"
            f"    expected: {expected}\n"
            f"    response: {response}\n")


def format_summary(summary: Summary) -> str:
    """gogui-regress's summary.dat: a header and one tab-separated line (trailing tab included)."""
    values = (summary.tests, summary.FAIL, summary.fail, summary.PASS, summary.passed,
              summary.errors, f"{summary.time:.1f}", f"{summary.cputime:.1f}")
    return SUMMARY_HEADER + "\n" + "".join(f"{v}\t" for v in values) + "\n"


def parse_cputime(text: str) -> float | None:
    """The engine's `cputime` answer as a number, or None (Java's parseDouble, roughly)."""
    try:
        value = float(java_trim(text))
    except ValueError:
        return None
    return value if "_" not in text else None


# --------------------------------------------------------------------------------------------
# Transport: one engine process
# --------------------------------------------------------------------------------------------

class EngineDied(Exception):
    """End of the engine's output (or a broken pipe) before a whole reply."""


class EngineTimeout(Exception):
    """No whole reply within the timeout."""


class GtpProcess:
    """An engine started with its stdin and stdout on pipes and its stderr kept apart (a
    temporary file, or this process's stderr when `passthrough_stderr`).  Replies are read with
    pexpect from the stdout pipe.  Always `close()` it (it is a context manager)."""

    def __init__(self, argv: list[str], cwd: str, timeout: float = DEFAULT_TIMEOUT,
                 log: Callable[[str], None] | None = None, passthrough_stderr: bool = False):
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.timeout = timeout
        self.dead = False
        self._log = log
        self._stderr = None if passthrough_stderr else tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=self._stderr, start_new_session=True)
        except OSError as exc:
            self._close_stderr()
            raise Crash(f"cannot start engine {shlex.join(argv)!r}: {exc.strerror or exc}; the engine's command "
                        f"line is one argument whose program exists and is executable "
                        f"(e.g. \".venv/bin/plies-go5 --weights W.txt\")") from None
        self._out = fdpexpect.fdspawn(os.dup(self._proc.stdout.fileno()), timeout=timeout,
                                      encoding="utf-8", codec_errors="replace", use_poll=True)

    def __enter__(self) -> "GtpProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close(kill=exc[0] is not None)

    def send(self, line: str) -> Reply:
        """Send one command line and read its reply.  EngineDied / EngineTimeout."""
        if self.dead:
            raise EngineDied("the engine has already exited")
        if self._log:
            self._log(">> " + line)
        try:
            self._proc.stdin.write((line + "\n").encode("utf-8"))
            self._proc.stdin.flush()
        except OSError:
            self.dead = True
            raise EngineDied("the engine no longer reads its input") from None
        return self._read_reply(time.monotonic() + self.timeout)

    def _read_line(self, deadline: float) -> str:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineTimeout
        try:
            index = self._out.expect_exact(["\n", pexpect.EOF], timeout=remaining)
        except pexpect.TIMEOUT:
            raise EngineTimeout from None
        if index == 1:
            self.dead = True
            raise EngineDied("end of the engine's output")
        line = self._out.before
        line = line[:-1] if line.endswith("\r") else line
        if self._log:
            self._log("<< " + line)
        return line

    def _read_reply(self, deadline: float) -> Reply:
        """Lines before one starting with '=' or '?' are not GTP and are skipped (as gogui does);
        the reply ends at the first empty line."""
        line = self._read_line(deadline)
        while not line.startswith(("=", "?")):
            line = self._read_line(deadline)
        lines = [line]
        while line != "":
            line = self._read_line(deadline)
            lines.append(line)
        return reply_from_lines(lines)

    def exit_status(self, wait: float = 5.0) -> int | None:
        """The engine's exit status, waiting up to `wait` seconds for it; None if it still runs."""
        try:
            return self._proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, count: int = STDERR_TAIL) -> list[str]:
        """The last lines the engine wrote to stderr (none when passed through)."""
        if self._stderr is None or self._stderr.closed:
            return []
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace").splitlines()[-count:]

    def close(self, kill: bool = False) -> bool:
        """Close the engine's input, wait for it (QUIT_GRACE seconds) and kill it if it is still
        running, or at once with `kill`.  True if it had to be killed."""
        killed = False
        try:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
            if not kill:
                try:
                    self._proc.wait(timeout=QUIT_GRACE)
                except subprocess.TimeoutExpired:
                    kill = True
            if kill and self._proc.poll() is None:
                killed = True
                try:
                    os.killpg(self._proc.pid, signal.SIGKILL)   # its own session: the engine and its children
                except OSError:
                    self._proc.kill()
                self._proc.wait()
        finally:
            self._out.close()
            self._proc.stdout.close()
            self._close_stderr()
        return killed

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.close()


# --------------------------------------------------------------------------------------------
# Running files
# --------------------------------------------------------------------------------------------

@dataclass
class Options:
    long: bool = False          # report every test, not only the non-pass ones
    verbose: bool = False       # also log the GTP stream and the engine's stderr to stderr
    timeout: float = DEFAULT_TIMEOUT


def engine_argv(command_line: str) -> list[str]:
    """Split the engine command line (shlex).  A relative program path with a '/' that exists
    from the caller's directory is made absolute, since the engine runs in the test file's
    directory."""
    argv = shlex.split(command_line)
    if not argv:
        raise Crash("empty engine command")
    if os.sep in argv[0] and not os.path.isabs(argv[0]) and os.path.exists(argv[0]):
        argv[0] = os.path.abspath(argv[0])
    return argv


def _cputime(gtp: GtpProcess) -> float:
    """The engine's cputime, 0 when it has none, fails or has died (as gogui-regress; its death
    shows at the next command).  A timeout is still a crash: the stream is out of step."""
    try:
        reply = gtp.send("cputime")
    except EngineDied:
        return 0.0
    if reply.error:
        return 0.0
    value = parse_cputime(reply.text)
    return 0.0 if value is None else value


def _crash_message(path: str, what: str, gtp: GtpProcess) -> str:
    tail = gtp.stderr_tail()
    if tail:
        what += "\nlast lines of the engine's stderr:\n" + "\n".join("    " + line for line in tail)
    return f"{path}: {what}"


def run_file(path: str, commands: list[Command], argv: list[str], options: Options,
             out: TextIO, prefix: str = "") -> Summary:
    """Run one parsed file: name, version, cputime, the file's commands, cputime, quit.  Each
    test's report is written to `out` as soon as it is known.  Crash on engine death/timeout."""
    log = (lambda text: print(text, file=sys.stderr, flush=True)) if options.verbose else None
    cwd = str(Path(path).resolve().parent)
    results: list[Result] = []
    errors = 0
    gtp = GtpProcess(argv, cwd, options.timeout, log=log, passthrough_stderr=options.verbose)
    current, finished = "name", False
    try:
        gtp.send("name")                   # its error is ignored, its death is a crash
        current = "version"
        try:
            gtp.send("version")
        except EngineDied:
            pass                           # as gogui: noticed at the next command
        current = "cputime"
        cpu_before = _cputime(gtp)
        start = time.monotonic()
        for command in commands:
            current = f"line {command.lineno}: {command.line}"
            reply = gtp.send(command.line)
            result = judge(command, reply, path)
            if result is None:
                errors += reply.error
                continue
            results.append(result)
            if options.long or options.verbose or result.outcome != "pass":
                out.write(format_result(result, prefix))
                out.flush()
        elapsed = time.monotonic() - start
        current = "cputime"
        cpu = _cputime(gtp) - cpu_before
        if not gtp.dead:
            current = "quit"
            if gtp.send("quit").error:
                raise Crash(_crash_message(path, "the engine answered quit with an error", gtp))
        finished = True
    except EngineDied as exc:
        status = gtp.exit_status()
        status = "" if status is None else f", exit status {status}"
        raise Crash(_crash_message(path, f"engine died ({exc}{status}) at {current}", gtp)) from None
    except EngineTimeout:
        raise Crash(_crash_message(path, f"no reply within {options.timeout:g} s at {current}", gtp)) from None
    finally:
        killed = gtp.close(kill=not finished)
    if killed:
        print(f"regress: {path}: the engine did not exit after quit; killed", file=sys.stderr)
    return summarise(results, errors, elapsed, cpu)


def run(program: str, files: list[str], options: Options, out: TextIO = sys.stdout) -> int:
    """Parse every file first (a format error stops before any engine starts), then run them in
    turn and write the summary.  The exit status."""
    try:
        parsed = [parse_file(path) for path in files]
        argv = engine_argv(program)
        total = Summary()
        for path, commands in zip(files, parsed):
            total.merge(run_file(path, commands, argv, options, out, f"{path} " if len(files) > 1 else ""))
    except (FormatError, Crash) as exc:
        out.flush()
        print(f"regress: {exc}", file=sys.stderr)
        return EXIT_CRASH
    out.write(format_summary(total))
    out.flush()
    return total.exit_status


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m regress.runner",
        description="Run gogui-regress test files against a GTP engine (gogui-regress 1.4.9 rules).",
        epilog="Exit status: 0 no unexpected failure, 1 an unexpected failure (FAIL), "
               "2 a file error, an engine crash or a timeout.")
    parser.add_argument("--long", "-long", action="store_true", help="report every test, passes too")
    parser.add_argument("--verbose", "-verbose", action="store_true",
                        help="report every test and log the GTP stream and the engine's stderr to stderr")
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"longest wait for one reply (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("program", metavar="ENGINE_COMMAND", help="the engine's command line, one string")
    parser.add_argument("files", metavar="FILE.gtp", nargs="+")
    args = parser.parse_args(argv)
    try:
        return run(args.program, args.files, Options(args.long, args.verbose, args.timeout))
    except KeyboardInterrupt:          # the engine was killed on the way out (GtpProcess.close)
        print("regress: interrupted", file=sys.stderr)
        return EXIT_CRASH


if __name__ == "__main__":
    sys.exit(main())
