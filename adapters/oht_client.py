"""Our Online Hex Tournament client (specs/oht.md), both generations, and what it shares with the
course-class subclasses (adapters/oht_actor_a.py, adapters/oht_actor_b.py):

  Settings   the client's settings: the Hex player's (engines/players/hex.py HexSettings) and the record's
  OHTAgent   the decisions and the record: the spec's handlers (series start, game start, get
             action, game over, series over, tournament over, illegal action); at each series start
             it builds the series' HexPlayer (engines/players/hex.py); the record (``Record``) keeps
             each game's moves and result, each series' stats, and writes a log with a summary
  sessions   protocols/oht.py's SessionA / SessionB with the agent's handlers and the login answers
  play       the transport: TLS trusting the given server certificate only (a certificate is
             required, the host name is not checked, as the course's clients do), a socket timeout
             so a silent server cannot hang us; generation A's messages are one recv(1024) each, B's
             are frames (a 4-byte native length, then the body)
Every way a session ends is an exception (protocols/oht.py, protocols/common.py, ConnectionClosed,
the socket's OSError, a NetworkError for a network that cannot play the series' size), turned into
an exit status and a line of the record in one place (OUTCOMES); the socket is closed in every case.

A cold compiled-kernel cache (engines/players/coldstart.py) costs no time on the server's clock: the agent
builds its ``Compiler`` before any engine module is imported (this module imports none), and until
the kernels are compiled (in a detached background process) it answers each action from a shallow
search over the reference rules within the move's time (engines/players/coldstart.py ``fallback_search``
over engines/games/reference/hex.py ``SearchRules``); once they are, it builds the series' HexPlayer as
from a warm cache (which changes nothing at all).

Credentials: the username, player name and answers come from ``Login``; the password (generation A)
and the token (generation B) are read only when the server asks, from the environment
(PLIES_OHT_PASSWORD; IT3105_AUTH, as the course's ActorClient reads it) or getpass, sent, and
dropped: they are never kept in an attribute, written to the record or the log, or printed.
"""
import argparse
import getpass
import json
import os
import socket
import ssl
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config
from adapters.config import ConfigError, setting
from engines.errors import NetworkError  # light: the engine itself is imported once compiled
from engines.games.reference import hex as hex_rules
from engines.players import hex as hex_player   # imports no engine (engines/players/coldstart.py)
from engines.players.coldstart import Compiler, fallback_search
from protocols import oht
from protocols.common import EndOfInput, ProtocolError, Quit

TIMEOUT = 600.0                      # seconds a client waits for the next server message
SETTINGS_FILE = "plies_oht.toml"     # beside a course-class subclass
ENV_PREFIX = "PLIES_OHT"             # PLIES_OHT_<KEY> overrides a setting
ENV_PASSWORD = "PLIES_OHT_PASSWORD"  # generation A's password, if not typed (never stored)
ENV_USERNAME = "PLIES_OHT_USERNAME"
ENV_TOKEN = "IT3105_AUTH"            # generation B's token, as the course's ActorClient reads it
SYMBOLS = {0: ".", 1: "X", 2: "O"}
NAME = "plies oht client"            # in the cold-start messages on stderr


@dataclass(frozen=True)
class Settings(hex_player.HexSettings):
    """The tournament client's settings: the Hex player's, and where it keeps its record.  Defaults
    here, then plies_oht.toml beside the course-class subclass (or ``plies hex connect --config FILE``),
    then PLIES_OHT_<KEY>, then the command line's flags (adapters/config.py)."""
    log: str = setting("oht-games.log", "the game log, appended (each game, series and a summary)")
    record: str | None = setting(None, "a file to write the whole record to as JSON at the end", kind=str)


def port_number(text: str, lowest: int = 1, source: str = "--port") -> int:
    """A TCP port (argparse's type: a clear error and exit 2 before anything is done)."""
    try:
        port = int(text)
    except ValueError:
        port = None
    if port is None or not lowest <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number ({lowest}..65535; from {source})")
    return port


class ConnectionClosed(EndOfInput):
    """The server closed the connection (or it dropped) before the tournament was over."""


class NoCredentials(Exception):
    """A login answer the server asks for is in no option or variable, and there is no terminal to type it."""


class CertificateError(Exception):
    """The --cert file is missing or holds no certificate (we never connected)."""


# ==== how a session ends: the one place outcomes become exit statuses ================================
EXIT_OK, EXIT_REFUSED, EXIT_PROTOCOL, EXIT_DROPPED, EXIT_SERVER_ERROR, EXIT_SETTINGS = 0, 1, 2, 3, 4, 5
EXIT_NO_CREDENTIALS, EXIT_CERTIFICATE = 6, 7
EXIT_NO_CRYPTOGRAPHY, EXIT_CANNOT_LISTEN = 8, 9   # `plies hex serve` / `demo` (standins/oht_server.py)
OUTCOMES = {  # outcome -> (exit status, the record's line: {0} the exception, {kind} its type's name)
    Quit: (EXIT_OK, None),
    oht.LoginRefused: (EXIT_REFUSED, "{0}"),
    ProtocolError: (EXIT_PROTOCOL, "malformed server message: {0}"),
    EndOfInput: (EXIT_DROPPED, "{0} before the tournament was over"),
    OSError: (EXIT_DROPPED, "the connection failed: {kind}: {0}"),   # refused, reset, timeout, TLS
    oht.ServerError: (EXIT_SERVER_ERROR, "{0}"),
    NetworkError: (EXIT_SETTINGS, "our settings cannot play: {0}"),
    ConfigError: (EXIT_SETTINGS, "our settings cannot play: {0}"),
    NoCredentials: (EXIT_NO_CREDENTIALS, "{0}"),
    CertificateError: (EXIT_CERTIFICATE, "{0}"),
}
EPILOG = f"""exit statuses:
  {EXIT_OK}  the tournament is over
  {EXIT_REFUSED}  the server refused the login
  {EXIT_PROTOCOL}  a malformed server message
  {EXIT_DROPPED}  the connection failed or the server closed it before the end
  {EXIT_SERVER_ERROR}  the server called out our action (A) or sent an error (B)
  {EXIT_SETTINGS}  a bad setting, or a network that cannot play the series' board size
  {EXIT_NO_CREDENTIALS}  a login answer (username, password, token) neither given nor typeable (no terminal)
  {EXIT_CERTIFICATE}  the --cert file is missing or is not a certificate
  {EXIT_NO_CRYPTOGRAPHY}  (serve --self-signed, demo) the optional `cryptography` package is missing
  {EXIT_CANNOT_LISTEN}  (serve) the port cannot be opened

environment: {ENV_PASSWORD} (generation A's password, else typed), {ENV_USERNAME}, {ENV_TOKEN}
(generation B's token, else typed); IT3105_HOST, IT3105_PORT, IT3105_CERT and IT3105_QUALIFY are the
course ActorClient's own variables, honoured as the defaults of --host, --port, --cert, --qualify.

settings: each flag from --mode on is a key (--network-use: network_use) of the --config TOML file
(plies_oht.toml beside a course-class subclass) and of {ENV_PREFIX}_<KEY> (PLIES_OHT_NETWORK_USE); a flag
overrides the variable, which overrides the file.
"""


def outcome_of(outcome: BaseException) -> tuple[int, str | None]:
    """The exit status and the record's line of a session's outcome (OUTCOMES, by the nearest class)."""
    for cls in type(outcome).__mro__:
        entry = OUTCOMES.get(cls)
        if entry is not None:
            status, says = entry
            return status, says and says.format(outcome, kind=type(outcome).__name__)
    raise TypeError(f"not an outcome of a session: {outcome!r}")


def is_outcome(outcome: BaseException) -> bool:
    """True for an exception that ends a session with an exit status (OUTCOMES)."""
    try:
        outcome_of(outcome)
        return True
    except TypeError:
        return False


# ==== the record ===================================================================================
class Record:
    """Each game (size, our id, starter, moves with our thinking time, winner) and each series, as
    plain data (``as_dict``), and a text log (``log_path``, appended line by line, file closed after
    each line) ending with ``summary()``."""

    def __init__(self, log_path=None, echo=None):
        self.log_path = Path(log_path) if log_path else None
        self.echo = echo              # a stream to show the log on as well (None: quiet)
        self.series, self.games = [], []
        self.illegal, self.errors, self.notes = [], [], []
        self.score = None
        self.finished = False

    def log(self, line: str):
        if self.log_path is not None:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        if self.echo is not None:
            print(line, file=self.echo, flush=True)

    @property
    def latencies(self) -> list:
        return [m[3] for g in self.games for m in g["moves"] if m[3] is not None]

    def totals(self) -> dict:
        done = [g for g in self.games if g["winner"] is not None]
        lat = self.latencies
        return {"games": len(done), "wins": sum(g["won"] for g in done),
                "losses": sum(not g["won"] for g in done), "illegal": len(self.illegal),
                "moves": len(lat), "latency_median": statistics.median(lat) if lat else None,
                "latency_max": max(lat) if lat else None, "score": self.score, "errors": list(self.errors)}

    def summary(self) -> str:
        t = self.totals()
        lines = [f"summary: {t['games']} games, {t['wins']} wins, {t['losses']} losses, "
                 f"{len(self.series)} series, {t['illegal']} illegal actions, score {t['score']}"]
        for s in self.series:
            lines.append(f"  series {s['number']}: {s['size']}x{s['size']} as player {s['series_id']}, "
                         f"{s['wins']} wins / {s['played']} games" + (f", server stats {s['stats']}" if s['stats'] else ""))
        if t["moves"]:
            lines.append(f"  our moves: {t['moves']}, thinking time median {t['latency_median']:.3f} s, "
                         f"max {t['latency_max']:.3f} s")
        lines += [f"  note: {n}" for n in self.notes] + [f"  error: {e}" for e in self.errors]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {"series": self.series, "games": self.games, "illegal": self.illegal, "totals": self.totals(),
                "notes": self.notes, "finished": self.finished}


def _move_text(player: int, row: int, col: int) -> str:
    return f"{SYMBOLS[player]}({row},{col})"


# ==== the agent: the spec's handlers, shared by our clients and the course-class subclasses ==========
class OHTAgent:
    """The handlers of the spec, as plain methods called with the values the spec names; moves come
    from the series' HexPlayer (one per board size, built at the series start), everything is
    recorded in ``record``.  ``clock`` times our thinking (from the request to the answer).
    ``compiler``: the state of the compiled-kernel cache (default: a Compiler of hex, made here);
    while it is not ready, moves are the fallback search's and no HexPlayer is built."""

    def __init__(self, settings: Settings | None = None, record: Record | None = None, clock=time.perf_counter,
                 compiler=None):
        self.compiler = compiler if compiler is not None else Compiler("hex", NAME)
        self.settings = settings or Settings()
        self.record = record or Record()
        self.clock = clock
        self.fallback_moves = 0  # actions answered by the quick fallback (a cold cache)
        if self.compiler.ready():      # a warm cache: the engine is imported now, before we connect (the
            hex_player.import_engine()  # series start is on the server's clock: its first action follows)
        else:
            self._note("the compiled-kernel cache is cold: quick fallback moves until the engine is compiled")
        self.players = {}      # board size -> HexPlayer (None: it cannot play that size, said mid-series)
        self.player = None     # the current series' player (None: fallback moves, the engine compiling)
        self.series = None     # the current series' record entry
        self.game = None       # the current game's record entry
        self._board = None     # the board as we last knew it (to tell the opponent's stones)

    # ---- series and games ----
    def series_start(self, unique_id, series_id, player_map, num_games, game_params):
        event = oht.series_event(unique_id, player_map, num_games, game_params)
        if int(series_id) != event["series_id"]:
            raise ProtocolError(f"series id {series_id} does not match the player map {event['player_map']}")
        size = event["size"]
        self.player = None
        if self.compiler.ready():  # NetworkError for a network file of another size: before any move
            self._build_player(size)
        self.series = {"number": len(self.record.series) + 1, "unique_id": event["unique_id"],
                       "series_id": event["series_id"], "player_map": event["player_map"],
                       "num_games": event["num_games"], "size": size, "played": 0, "wins": 0,
                       "stats": None, "player": self._describe()}
        self.record.series.append(self.series)
        others = [uid for uid, _ in event["player_map"] if uid != event["unique_id"]]
        self.record.log(f"series {self.series['number']}: {event['num_games']} games on {size}x{size}, "
                        f"we are player {event['series_id']} (id {event['unique_id']}), "
                        f"opponent {others}; {self.series['player']}")

    def _size(self):
        return self.series["size"] if self.series else None

    def _build_player(self, size: int):
        """The series' HexPlayer (imports the engine: only once the compiler is ready)."""
        if self.players.get(size) is None:
            # each size's searcher has its own seed (the settings' seed plus the size)
            self.players[size] = hex_player.HexPlayer(self.settings, size, seed=self.settings.seed + size,
                                                      clock=self.clock)
        self.player = self.players[size]
        self._take_notes()

    def _describe(self) -> str:
        if self.player is not None:
            return self.player.describe()
        return "quick fallback moves (a shallow search) until the engine is compiled"

    def _engine_ready(self) -> bool:
        """True when the series' HexPlayer plays; builds it once the compile is done (mid-series: a
        network that cannot play the size is noted, and the fallback goes on for the series)."""
        if self.player is not None:
            return True
        size = self._size()
        if size in self.players or not self.compiler.ready():  # in players (as None): cannot play it
            return False
        try:
            self._build_player(size)
        except ValueError as err:  # NetworkError; said at the next series start, before any move
            self.players[size] = None
            self._note(f"the engine is compiled but cannot play {size}x{size}: {err}; quick fallback "
                       f"moves for the rest of the series")
            return False
        self._note(f"the engine is compiled: it plays from now on ({self.player.describe()})")
        return True

    def _note(self, note: str):
        self.record.notes.append(note)
        self.record.log(f"note: {note}")

    def _take_notes(self):
        """Move what the player had to work around into the record and the log."""
        for note in self.player.notes:
            self._note(note)
        self.player.notes.clear()

    def game_start(self, start_player):
        if self.series is None:
            raise ProtocolError("a game started before any series")
        self._engine_ready()  # the compile done meanwhile: the engine is built here, off the server's clock
        size = self._size()
        self.game = {"series": self.series["number"], "number": self.series["played"] + 1, "size": size,
                     "series_id": self.series["series_id"], "start_player": int(start_player), "moves": [],
                     "winner": None, "won": None}
        self.record.games.append(self.game)
        self._board = [[0] * size for _ in range(size)]

    def _note_opponent(self, board: oht.Board):
        """Record the stones that appeared since our last look (the opponent's moves); the last of
        them as (row, col), or None."""
        if self.game is None or self._board is None or len(self._board) != board.size:
            return None
        last = None
        for r in range(board.size):
            for c in range(board.size):
                if board.cells[r][c] != self._board[r][c] and board.cells[r][c] != 0:
                    self.game["moves"].append((board.cells[r][c], r, c, None))
                    last = (r, c)
        self._board = [list(row) for row in board.cells]
        return last

    def get_action(self, state, start: float | None = None) -> tuple[int, int]:
        """(row, col) as plain ints for a state (the flat wire tuple, or a parsed Board) of the
        series' size; start: the clock's reading when the request arrived (default: now)."""
        start = self.clock() if start is None else start
        if self.series is None:
            raise ProtocolError("an action was asked for before any series")
        board = state if isinstance(state, oht.Board) else oht.parse_state(state, self._size())
        self._note_opponent(board)
        if self._engine_ready():
            row, col = self.player.choose(board.cells, oht.engine_player(board.to_move), start=start)
            self._take_notes()
        else:  # the engine is compiling: a shallow search of the board the server sent, within the move's time
            rules = hex_rules.SearchRules(board.size)
            deadline = hex_player.fallback_deadline(self.settings, start, self.clock)
            move = fallback_search(rules, rules.position(board.cells, oht.engine_player(board.to_move)), deadline)
            row, col = rules.point(move)
            self.fallback_moves += 1
        if self.game is not None and self._board is not None:
            self.game["moves"].append((board.to_move, row, col, self.clock() - start))
            self._board[row][col] = board.to_move
        return int(row), int(col)

    def game_over(self, winner, end_state):
        board = end_state if isinstance(end_state, oht.Board) else oht.parse_state(end_state, self._size())
        self._note_opponent(board)
        if self.game is None:
            raise ProtocolError("a game ended that never started")
        won = int(winner) == self.game["series_id"]
        self.game.update(winner=int(winner), won=won)
        self.series["played"] += 1
        self.series["wins"] += won
        moves = " ".join(_move_text(p, r, c) for p, r, c, _ in self.game["moves"])
        self.record.log(f"game {self.series['number']}.{self.game['number']}: player {self.game['start_player']} "
                        f"starts; {moves}; winner player {winner} ({'us' if won else 'them'})")
        self.game = None

    def series_over(self, stats):
        rows = [tuple(int(v) for v in row) for row in stats]
        if self.series is not None:
            self.series["stats"] = rows
        self.record.log("series over: " + "; ".join(f"id {u} (player {s}) {w} wins {l} losses"
                                                    for u, s, w, l in rows))

    def tournament_over(self, score):
        self.record.score = float(score)
        self.record.finished = True
        self.record.log(f"tournament over: score {score}")
        self.record.log(self.record.summary())

    def illegal_action(self, state, action):
        flat = state.flat() if isinstance(state, oht.Board) else tuple(state)
        self.record.illegal.append({"state": list(flat), "action": str(action)})
        self.record.log(f"the server refused our action {action!r} in state {flat}")

    def error(self, text: str):
        self.record.errors.append(str(text))
        self.record.log(f"error: {text}")

    def finish(self, reason: str | None = None):
        """The session is over (normally or not): log the reason and, if not done yet, the summary."""
        if reason:
            self.error(reason)
        if not self.record.finished:
            self.record.log(self.record.summary())

    def close(self):
        """Stop a compile still running (the client is leaving)."""
        self.compiler.close()


# ==== the sessions: the agent's handlers and the login answers ======================================
@dataclass
class Login:
    """The answers to the login questions (never a password or token: those are asked for when needed)."""
    username: str | None = None   # None: PLIES_OHT_USERNAME, else typed
    player_name: str = "plies"
    qualify: bool = False         # False: the 100-game verification tournament
    stress: bool = False
    ask_secret: object = None     # callable(prompt) -> str; None: the environment, else getpass

    def secret(self, env_name: str, prompt: str) -> str:
        value = os.environ.get(env_name)
        if value:
            return value
        return _typed(self.ask_secret or getpass.getpass, prompt, f"set {env_name}")

    def user(self) -> str:
        return self.username or os.environ.get(ENV_USERNAME) or _typed(input, "username: ",
                                                                        f"give --username or set {ENV_USERNAME}")


def _typed(ask, prompt: str, fix: str) -> str:
    """A login answer typed at the prompt (without a terminal, getpass's a line of a piped stdin, with no
    warning); NoCredentials (naming the fix) when nothing can be typed."""
    what = prompt.rstrip(": ")
    try:
        if ask is getpass.getpass and not _terminal():
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")
        return ask(prompt)
    except (EOFError, OSError):
        raise NoCredentials(f"the server asks for the {what} and there is no terminal to type it: {fix}") from None


def _terminal() -> bool:
    """True when a controlling terminal can be opened (getpass reads from it)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
        return True
    except OSError:
        return False


def _yes_no(flag: bool) -> str:
    return "y" if flag else "n"


def session_a(agent: OHTAgent, login: Login) -> oht.SessionA:
    def show(event):
        agent.record.log(f"server: {event['text'].strip()}")
    return oht.SessionA({
        **oht.play_handlers(agent),
        "username": lambda event: login.user(),
        "password": lambda event: login.secret(ENV_PASSWORD, "password: "),   # sent, not kept
        "player-name": lambda event: login.player_name,
        "qualify": lambda event: _yes_no(login.qualify),
        "stress": lambda event: _yes_no(login.stress),
        "welcome": show,
        "message": show,
    })


def session_b(agent: OHTAgent, login: Login) -> oht.SessionB:
    def question(event):
        agent.record.log(f"server asks: {event['text']} -> {'yes' if login.qualify else 'no'}")
        return bool(login.qualify)
    return oht.SessionB({
        **oht.play_handlers(agent),
        "message": lambda event: agent.record.log(f"server: {event['text']}"),
        "authentication": lambda event: login.secret(ENV_TOKEN, "token: "),   # sent, not kept
        "question": question,
    })


# ==== transport =====================================================================================
def tls_context(cert) -> ssl.SSLContext:
    """Trust only the server's certificate; require one; do not check the host name.  CertificateError
    for a file that is missing or holds no certificate."""
    if not Path(cert).is_file():
        raise CertificateError(f"no certificate file {cert}: give the server's certificate with --cert "
                               f"(or IT3105_CERT)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    try:
        context.load_verify_locations(str(cert))
    except (ssl.SSLError, OSError, ValueError) as err:
        raise CertificateError(f"{cert} is not a PEM certificate ({type(err).__name__}: {err}): give the "
                               f"server's certificate with --cert") from None
    return context


def connect(host: str, port: int, cert, timeout: float | None = TIMEOUT) -> ssl.SSLSocket:
    context = tls_context(cert)  # first: a bad --cert is said as such, not as a connection failure
    raw = socket.create_connection((host, port), timeout=timeout)
    try:
        return context.wrap_socket(raw)
    except BaseException:
        raw.close()
        raise


def recv_exactly(sock, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        data = sock.recv(n - got)
        if not data:
            raise ConnectionClosed(f"the server closed the connection {'mid-message' if got else ''}".strip())
        chunks.append(data)
        got += len(data)
    return b"".join(chunks)


def recv_message(sock) -> bytes:
    """Generation A: one message is what one recv(1024) gives."""
    data = sock.recv(oht.RECV_SIZE)
    if not data:
        raise ConnectionClosed("the server closed the connection")
    return data


def recv_frame(sock) -> bytes:
    """Generation B: the body of the next frame."""
    return recv_exactly(sock, oht.frame_length(recv_exactly(sock, oht.LENGTH.size)))


def send_frame(sock, body: bytes):
    sock.sendall(oht.frame(body))


GENERATIONS = {  # generation -> (its session, how a message is read, how a reply is sent)
    "A": (session_a, recv_message, lambda sock, reply: sock.sendall(reply)),
    "B": (session_b, recv_frame, send_frame),
}


def play(generation: str, host: str, port: int, cert, agent: OHTAgent, login: Login,
         timeout: float | None = TIMEOUT) -> int:
    """Connect and play one tournament; the exit status of how it ended (OUTCOMES)."""
    make_session, recv, send = GENERATIONS[generation]
    try:
        session = make_session(agent, login)
        with connect(host, port, cert, timeout) as sock:
            while True:
                reply = session.handle(recv(sock))
                if reply is not None:
                    send(sock, reply)
    except BaseException as outcome:  # noqa: BLE001 - only OUTCOMES' (is_outcome); the rest goes on up
        if not is_outcome(outcome):
            raise
        status, says = outcome_of(outcome)
        agent.finish(says)
        return status


# ==== settings shared with the subclasses ===========================================================
def load_settings(file=None, flags: dict | None = None, env=os.environ) -> Settings:
    """The settings from the defaults, the TOML file (None: none), PLIES_OHT_<KEY> and the flags."""
    return config.load(Settings, file=file, env_prefix=ENV_PREFIX, env=env, flags=flags)


def make_agent(settings: Settings, echo=None) -> OHTAgent:
    """An agent with its record's log where the settings say (echoed on ``echo`` too, if given)."""
    return OHTAgent(settings, Record(settings.log, echo=echo))


def save_record(agent: OHTAgent, path) -> None:
    if path:
        Path(path).write_text(json.dumps(agent.record.as_dict(), indent=1) + "\n", encoding="utf-8")


# ==== command line ==================================================================================
def add_client_arguments(p: argparse.ArgumentParser):
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EPILOG
    p.add_argument("--generation", choices=("A", "B"), default="A", help="A: BasicClientActorAbs; B: ActorClient")
    p.add_argument("--host", default=os.environ.get("IT3105_HOST", "127.0.0.1"))
    p.add_argument("--port", type=lambda text: port_number(text, source="--port or IT3105_PORT"),
                   default=os.environ.get("IT3105_PORT", str(oht.PORT)))
    p.add_argument("--cert", default=os.environ.get("IT3105_CERT", "server.crt"), help="the server's certificate")
    p.add_argument("--username", help=f"generation A (else {ENV_USERNAME}, else typed); the password is "
                                      f"{ENV_PASSWORD} or typed, never an option")
    p.add_argument("--player-name", default="plies")
    p.add_argument("--qualify", action="store_true", help="answer yes to the qualifying question")
    p.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds to wait for a server message")
    p.add_argument("--quiet", action="store_true", help="do not echo the log on stdout")
    p.add_argument("--config", metavar="FILE", help="a TOML file of settings (the keys below)")
    config.add_setting_flags(p, Settings, skip=("swap_below",))   # no swap in the tournament


def client_command(args) -> int:
    try:
        settings = load_settings(args.config, config.setting_flags(args, Settings))
    except ConfigError as err:
        print(f"oht client: {err}", file=sys.stderr)
        return outcome_of(err)[0]
    agent = make_agent(settings, echo=None if args.quiet else sys.stdout)
    qualify = args.qualify or os.environ.get("IT3105_QUALIFY", "").lower() in ("y", "yes", "true", "1")
    login = Login(username=args.username, player_name=args.player_name, qualify=qualify)
    try:
        status = play(args.generation, args.host, args.port, args.cert, agent, login, args.timeout)
    finally:
        agent.close()
    save_record(agent, settings.record)
    if status != EXIT_OK:
        print(f"oht client: {agent.record.errors[-1] if agent.record.errors else 'stopped'}", file=sys.stderr)
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adapters.oht_client", description=__doc__.splitlines()[0])
    add_client_arguments(parser)
    return client_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
