"""A scripted fake GTP engine, the regress runner's test partner.

    python -m regress.fake_engine [--script FILE] [--echo-ids] [--crlf] [--junk] [--stderr-noise]
                                  [--no-cputime] [--die-after N] [--name NAME]

Each command line (an optional numeric id, then words) gets one reply.  The script, a JSON object
(or a Python literal) read from FILE, is looked up first by the whole command without its id
(words joined by single spaces), then by the command's name.  A script value is
    "text"              success with that text ("\\n" inside makes a multi-line reply)
    {"error": "text"}   an error reply `? text`
    {"exit": N}         exit with status N without replying (an engine crash)
    {"hang": true}      never reply (a timeout)
    [v1, v2, ...]       one value per call, the last one repeated
Without a script entry the built-in commands answer: protocol_version, name, version,
known_command, list_commands, quit, cputime, `echo WORDS` (the words), `error WORDS` (`? WORDS`),
`lines W1 W2 ...` (one word per line), `exit [N]`, `hang`, `pwd` (the working directory),
boardsize/clear_board/komi/play (empty success); anything else is `? unknown command`.

Flags: --echo-ids answers `=ID text` (otherwise `= text`, the id dropped); --crlf ends lines with
CR LF; --junk writes a non-GTP line to stdout before every reply; --stderr-noise writes
GTP-looking text to stderr at every command (a runner that mixed stderr into replies would be
caught); --no-cputime makes cputime an unknown command; --die-after N exits (status 3) instead of
answering the (N+1)-th command.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import sys
import time

BUILTINS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "cputime",
            "echo", "error", "lines", "exit", "hang", "pwd", "boardsize", "clear_board", "komi", "play")
COMMAND = re.compile(r"(?:(\d+)(?:\s+|$))?(.*)", re.DOTALL)   # optional id, then the command


class Exit(Exception):
    """Leave with this status, replying nothing."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def load_script(path: str | None) -> dict:
    if path is None:
        return {}
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        script = json.loads(text)
    except json.JSONDecodeError:
        script = ast.literal_eval(text)
    if not isinstance(script, dict):
        raise SystemExit("fake_engine: the script must be a mapping from commands to replies")
    return script


class FakeEngine:
    def __init__(self, script: dict, name: str = "FakeEngine", cputime: bool = True):
        self.script = script
        self.name = name
        self.cputime = cputime
        self.calls: dict[str, int] = {}

    def known(self, command: str) -> bool:
        return command in self.script or (command in BUILTINS and (command != "cputime" or self.cputime))

    def scripted(self, key: str, value):
        """(error, text) of a script value; Exit for exit; never returns for hang."""
        if isinstance(value, list):
            count = self.calls.get(key, 0)
            self.calls[key] = count + 1
            value = value[min(count, len(value) - 1)] if value else ""
        if isinstance(value, dict):
            if "exit" in value:
                raise Exit(int(value["exit"]))
            if value.get("hang"):
                hang()
            return True, str(value.get("error", ""))
        return False, str(value)

    def answer(self, command: str) -> tuple[bool, str]:
        """(error, text) for a command without its id."""
        words = command.split()
        if not words:
            return True, "empty command"
        whole, name, args = " ".join(words), words[0], words[1:]
        for key in (whole, name):
            if key in self.script:
                return self.scripted(key, self.script[key])
        if name == "protocol_version":
            return False, "2"
        if name == "name":
            return False, self.name
        if name == "version":
            return False, "1.0"
        if name == "known_command":
            return False, "true" if args and self.known(args[0]) else "false"
        if name == "list_commands":
            return False, "\n".join(sorted(set(BUILTINS) | set(self.script)))
        if name == "quit":
            return False, ""
        if name == "cputime" and self.cputime:
            return False, f"{time.process_time():.3f}"
        if name == "echo":
            return False, " ".join(args)
        if name == "error":
            return True, " ".join(args)
        if name == "lines":
            return False, "\n".join(args)
        if name == "exit":
            raise Exit(int(args[0]) if args and args[0].isdigit() else 3)
        if name == "hang":
            hang()
        if name == "pwd":
            return False, os.getcwd()
        if name in ("boardsize", "clear_board", "komi", "play"):
            return False, ""
        return True, "unknown command"


def hang() -> None:
    while True:                 # the runner's timeout ends this process
        time.sleep(3600)


def format_reply(error: bool, text: str, cmd_id: str | None, echo_ids: bool, eol: str) -> str:
    head = ("?" if error else "=") + (cmd_id if echo_ids and cmd_id else "")
    lines = text.split("\n")
    return eol.join([f"{head} {lines[0]}"] + lines[1:]) + eol + eol


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m regress.fake_engine", description=__doc__.split("\n")[0])
    parser.add_argument("--script", help="JSON (or Python literal) mapping of commands to replies")
    parser.add_argument("--echo-ids", action="store_true", help="repeat the command's id after = or ?")
    parser.add_argument("--crlf", action="store_true", help="end reply lines with CR LF")
    parser.add_argument("--junk", action="store_true", help="write a non-GTP line before each reply")
    parser.add_argument("--stderr-noise", action="store_true", help="write GTP-looking text to stderr")
    parser.add_argument("--no-cputime", action="store_true", help="cputime is an unknown command")
    parser.add_argument("--die-after", type=int, default=None, metavar="N",
                        help="exit (status 3) instead of answering the (N+1)-th command")
    parser.add_argument("--name", default="FakeEngine")
    args = parser.parse_args(argv)
    engine = FakeEngine(load_script(args.script), args.name, cputime=not args.no_cputime)
    eol = "\r\n" if args.crlf else "\n"
    out, err = sys.stdout, sys.stderr
    answered = 0
    try:
        for raw in sys.stdin:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            cmd_id, command = COMMAND.fullmatch(line).groups()
            if args.die_after is not None and answered >= args.die_after:
                raise Exit(3)
            if args.stderr_noise:
                err.write(f"= noise on stderr for {command!r}\n\n? more noise\n")
                err.flush()
            error, text = engine.answer(command)
            if args.junk:
                out.write("this line is not GTP" + eol)
            out.write(format_reply(error, text, cmd_id, args.echo_ids, eol))
            out.flush()
            answered += 1
            if command.split()[:1] == ["quit"]:
                return 0
    except Exit as exc:
        return exc.status
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
