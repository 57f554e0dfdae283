"""What the GTP engine adapters (plies-gtp for Go: adapters/go_gtp.py; plies-gtp-hex:
adapters/gtp_hex.py) share: the stdin transport (lines read with a non-blocking test for a waiting
one, so that a streamed reply runs until the next command: ``stream_analysis``, Go's lz-analyze),
the command line built from a Settings dataclass (adapters/config.py), the version and the
GtpEngine over a session's table."""
import argparse
import os
import select
import sys
import traceback
from importlib import metadata

from adapters.config import ConfigError
from protocols import gtp, gtp_go
from protocols.common import ProtocolError, Quit


class LineReader:
    """Lines from a file descriptor, with a non-blocking test for a waiting line (lz-analyze runs
    until the controller sends anything)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def _fill(self, timeout) -> bool:
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        chunk = os.read(self.fd, 65536)
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    def waiting(self) -> bool:
        """True when a line (or the end of input) has arrived."""
        while b"\n" not in self.buffer and not self.eof:
            if not self._fill(0):
                break
        return b"\n" in self.buffer or self.eof

    def readline(self) -> str | None:
        while b"\n" not in self.buffer:
            if self.eof or not self._fill(None):
                if self.eof:
                    if self.buffer:
                        line, self.buffer = self.buffer, b""
                        return line.decode("utf-8", "surrogateescape")
                    return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "surrogateescape") + "\n"


def serve(engine: gtp.GtpEngine, stdin_fd: int, out, stream=None) -> int:
    """Answer commands from stdin_fd on out until quit or the end of input; 0, or 1 when cut off.
    ``stream(line, reader)`` answers a line itself when it returns True (lz-analyze streams its info
    lines until the next command arrives)."""
    reader = LineReader(stdin_fd)
    try:
        while True:
            line = reader.readline()
            if line is None:
                return 0
            if stream is not None and stream(line, reader):
                continue
            reply = engine.handle(line)
            if reply is not None:
                out.write(reply)
                out.flush()
            if engine.finished:
                return 0
    except (BrokenPipeError, KeyboardInterrupt):
        return 1



def stream_analysis(engine: gtp.GtpEngine, session, line: str, reader: LineReader, out) -> bool:
    """Answer an lz-analyze / lz-genmove_analyze line (Sabaki's and Lizzie's analysis, plies-gtp's
    GoSession) by streaming info lines until the next command arrives (lz-genmove_analyze: until its
    time is spent, then 'play MOVE').  False when the line is not one (or not well formed: the
    ordinary reply then says why)."""
    request = engine.split(line)
    if request is None or request.name not in ("lz-analyze", "lz-genmove_analyze"):
        return False
    try:
        if session.player is None:
            session.switch(wait=True)
        colour, interval = gtp_go.parse_lz_analyze(request.args, session.to_move())
    except ProtocolError:
        return False  # the ordinary reply says why
    head = "=" + (request.tag if engine.echo_ids else "") + "\n"
    out.write(head)
    out.flush()
    seconds = interval / 100 if interval > 0 else session.settings.analyze_seconds
    try:
        if request.name == "lz-analyze":
            while True:
                out.write(session.analyze_step(colour, seconds) + "\n")
                out.flush()
                if reader.waiting():
                    break
        else:
            arrival = session.clock()
            limits = session.limits(colour, arrival)
            budget = limits.time if limits.time is not None else session.settings.analyze_seconds
            while session.clock() - arrival + seconds < budget and not reader.waiting():
                out.write(session.analyze_step(colour, seconds) + "\n")
                out.flush()
            move = session.genmove(colour, arrival)
            out.write(f"play {move}\n")
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except Exception:  # an engine bug: shown on stderr; the reply ends and the session goes on
        traceback.print_exc(file=sys.stderr)
    out.write("\n")
    out.flush()
    return True


def run(prog: str, args: argparse.Namespace, load_settings, open_session, serve_session, exit_status: dict,
        start_fault: str) -> int:
    """A GTP engine adapter's run, its exit statuses from exit_status: the settings of args (a
    ConfigError: "refused"), the session (``open_session(settings) -> (session, close)``; a ValueError
    or FileNotFoundError: ``start_fault``), then ``serve_session(session)`` until quit or the end of
    the input ("served"), or a cut ("interrupted")."""
    try:
        settings = load_settings(args)
    except ConfigError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return exit_status["refused"][0]
    try:
        session, close = open_session(settings)
    except (ValueError, FileNotFoundError) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return exit_status[start_fault][0]
    try:
        served = serve_session(session) == 0
    finally:
        close()
    return exit_status["served" if served else "interrupted"][0]

def version() -> str:
    """plies's version, as the ``version`` command answers it."""
    try:
        return metadata.version("plies")
    except metadata.PackageNotFoundError:
        return "unknown"


class Identity:
    """The commands every GTP engine of the project answers alike: its name (``NAME``), version
    (``version_text``), protocol version 2, and quit."""
    NAME = "plies"
    version_text = staticmethod(version)
    cmd_protocol_version = staticmethod(lambda args: "2")

    def cmd_name(self, args):
        return self.NAME

    def cmd_version(self, args):
        return self.version_text()

    def cmd_quit(self, args):
        raise Quit("")


def make_engine(session) -> gtp.GtpEngine:
    """The GTP engine over session's command table (ids echoed, "unknown command" for the others)."""
    return gtp.GtpEngine(session.commands(), echo_ids=True, unknown="unknown command")
