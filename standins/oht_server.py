"""A local stand-in for the Online Hex Tournament server (specs/oht.md): ``plies hex serve``.

It speaks either client generation over TLS (a certificate and key it is given), asks the login
questions of the spec, then plays a tournament of series against a scripted opponent: each series
has a board size (cycling through ``sizes``), the client is player 1 in odd series and player 2 in
even ones, and the starting player alternates 1, 2, 1, ... within a series.  It reports each series
as the course's server does (per player: unique id, series id, wins, losses) and ends with the
client's score (percentage of games won).  The referee is plain Python (``HexBoard``), independent of
the engine it judges.  An illegal or unreadable action from the client ends the tournament with
``Illegal action`` (A) or an ``error`` topic (B).

Test options: ``fault`` makes the server misbehave at the client's ``fault_at``-th action request:
"drop" (close the connection mid-game), "garbage" (a message that is not a literal / not JSON),
"bad-length" (B: a corrupt length prefix; A: a message cut short), "unknown-topic" (B: an unknown
topic; A: an unknown header), "wrong-size" (a state of another board size), "reject" (call the
client's next action illegal).
"""
import argparse
import datetime
import io
import os
import random
import socket
import ssl
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from adapters import oht_client, oht_session
from engines.games.reference import hex as hex_rules
from adapters.oht_client import Settings
from engines.players.hex import HexPlayer
from engines.games import make_game
from protocols import oht
from protocols.common import ProtocolError

CLIENT_ID, OPPONENT_ID = -200, 999     # unique ids: the client, the scripted opponent
FAULTS = ("drop", "garbage", "bad-length", "unknown-topic", "wrong-size", "reject")
MOVE_TIMEOUT = 120.0                   # seconds the server waits for a client's reply
DEMO_SECONDS = 0.2                     # `plies hex demo`: our time per move unless told otherwise
LOGIN_PROMPTS = {
    "username": "Please enter your NTNU username:",
    "password": "Please enter your NTNU password:",
    "player-name": "Please enter your player-name:",
    "qualify": "Do you want to attempt to qualify for the tournament playoffs? You have 5 remaining attempts. (Y/n)",
    "stress": "Do you want to run a stress test? (y/N)",
}


# ==== the referee ==================================================================================
class HexBoard:
    """A Hex board: cells[r][c] in 0/1/2; player 1 joins row 0 to row K-1, player 2 column 0 to K-1."""

    def __init__(self, size: int):
        self.size = size
        self.cells = [[0] * size for _ in range(size)]
        self.moves = []

    def empty(self) -> list:
        return [(r, c) for r in range(self.size) for c in range(self.size) if self.cells[r][c] == 0]

    def legal(self, point) -> bool:
        r, c = point
        return 0 <= r < self.size and 0 <= c < self.size and self.cells[r][c] == 0

    def play(self, player: int, point):
        if not self.legal(point):
            raise ValueError(f"{point} is not an empty cell")
        self.cells[point[0]][point[1]] = player
        self.moves.append((player, point[0], point[1]))

    def winner(self) -> int | None:
        """The player (1 or 2) who joined their edges, else None (engines/games/reference/hex.py's rules)."""
        won = hex_rules.winner(self.cells)
        return None if won is None else won + 1

    def state(self, to_move: int) -> tuple:
        return oht.format_state(to_move, self.cells)


# ==== scripted opponents: choose(board, player) -> (row, col) ======================================
class RandomOpponent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, board: HexBoard, player: int):
        return self.rng.choice(board.empty())


class EngineOpponent:
    """Our engine (engines/players/hex.py: MCTS with the shipped network's rollouts where one is
    shipped for the size, else random rollouts) as the opponent."""
    name = "engine"

    def __init__(self, seconds: float | None = 0.2, simulations: int | None = None, seed: int = 1):
        self.settings = Settings(time=seconds, simulations=simulations, seed=seed, network="shipped")
        self.players = {}   # board size -> HexPlayer

    def choose(self, board: HexBoard, player: int):
        if board.size not in self.players:
            self.players[board.size] = HexPlayer(self.settings, board.size, seed=self.settings.seed + board.size)
        return self.players[board.size].choose(board.cells, oht.engine_player(player))


OPPONENTS = {"random": RandomOpponent, "engine": EngineOpponent}


# ==== the two wires ================================================================================
class WireA:
    """Generation A: every message one bare UTF-8 string (one TLS record)."""

    def __init__(self, sock):
        self.sock = sock

    def send(self, *values):
        for v in values:
            self.sock.sendall(oht.encode_a(v))

    def recv_text(self) -> str:
        data = self.sock.recv(oht.RECV_SIZE)
        if not data:
            raise ConnectionError("the client closed the connection")
        return data.decode("utf-8", "replace").strip()

    def ask(self, prompt: str) -> str:
        self.send(LOGIN_PROMPTS[prompt])
        return self.recv_text()

    def login(self, config) -> str:
        """The client's player name; Refused after telling the client so."""
        user = self.ask("username")
        password = self.ask("password")
        if not user or not password or (config.password is not None and password != config.password):
            self.send("Invalid credentials. Goodbye.")
            raise Refused()
        name = self.ask("player-name")
        self.qualify = self.ask("qualify").lower().startswith("y")
        if config.ask_stress:
            self.ask("stress")
        self.send(f"Welcome to the local Online Hex Tournament, {name}! "
                  f"{'A qualifying round' if self.qualify else 'A verification tournament'} begins.")
        return name

    def series_start(self, unique_id, player_map, num_games, size):
        self.send(oht.SERIES_START, unique_id, player_map, num_games, [size])

    def game_start(self, start_player):
        self.send(oht.GAME_START, start_player)

    def request_action(self, state, size):
        """The client's action as it was sent, and its (row, col); UnreadableAction when it is not one."""
        self.send(state)
        text = self.recv_text()
        try:
            return text, oht.parse_action(text, size)
        except ProtocolError:
            raise UnreadableAction(text[:60]) from None

    def game_over(self, winner, end_state):
        self.send(oht.GAME_END, winner, end_state)

    def series_over(self, stats):
        self.send(oht.SERIES_END, stats)

    def tournament_over(self, score):
        self.send(oht.TOURNAMENT_END, score)

    def illegal(self, state, action_text):
        try:  # the action as the client sent it when that is a literal, else as a string literal
            oht.literal(action_text)
        except ProtocolError:
            action_text = repr(action_text)
        self.send(oht.ILLEGAL_ACTION, state, action_text)

    def finish(self):
        pass

    def fault(self, kind, state, size):
        if kind == "garbage":
            self.send("this is not ( a literal")
        elif kind == "bad-length":
            self.send(str(state)[:len(str(state)) // 2])  # a state cut short: not a literal
        elif kind == "unknown-topic":
            self.send("Half time", 7)
        elif kind == "wrong-size":
            bigger = oht.format_state(state[0], [[0] * (size + 1) for _ in range(size + 1)])
            self.send(bigger)


class WireB:
    """Generation B: 4-byte native length + UTF-8 JSON, with topics."""

    def __init__(self, sock):
        self.sock = sock

    def send(self, topic, **fields):
        self.sock.sendall(oht.encode_b(dict(topic=topic, **fields)))

    def recv(self):
        prefix = self._exactly(oht.LENGTH.size)
        return oht.decode_b(self._exactly(oht.frame_length(prefix)))

    def _exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the client closed the connection")
            data += chunk
        return data

    def login(self, config) -> str:
        """The client's player name; Refused after telling the client so."""
        self.send("message", message="Welcome to the local Online Hex Tournament")
        self.send("authentication")
        token = self.recv()
        if not isinstance(token, str) or not token or (config.token is not None and token != config.token):
            self.send("error", error="Invalid credentials")
            raise Refused()
        self.send("question", question="Do you want to qualify? (Otherwise a verification tournament.)")
        self.qualify = self.recv() is True
        return "client"

    def series_start(self, unique_id, player_map, num_games, size):
        self.send("series_start", unique_player_id=unique_id, player_id_map=player_map, num_games=num_games,
                  game_params=[size])

    def game_start(self, start_player):
        self.send("game_start", start_player=start_player)

    def request_action(self, state, size):
        """The client's action as it was sent, and its (row, col); UnreadableAction when it is not one."""
        self.send("request_action", state=list(state))
        try:
            value = self.recv()
        except ProtocolError as err:
            raise UnreadableAction(str(err)) from None
        try:
            return str(value), oht.check_action(value, size)
        except ProtocolError:
            raise UnreadableAction(str(value)[:60]) from None

    def game_over(self, winner, end_state):
        self.send("game_over", winner=winner, end_state=list(end_state))

    def series_over(self, stats):
        self.send("series_over", stats=stats)

    def tournament_over(self, score):
        self.send("tournament_over", score=score)

    def illegal(self, state, action_text):
        self.send("error", error=f"Illegal action {action_text} in state {list(state)}")

    def finish(self):
        self.send("finish")

    def fault(self, kind, state, size):
        if kind == "garbage":
            body = b"{not json"
            self.sock.sendall(oht.LENGTH.pack(len(body)) + body)
        elif kind == "bad-length":
            self.sock.sendall(oht.LENGTH.pack(-5) + b'{"topic": "message"}')
        elif kind == "unknown-topic":
            self.send("half_time", message="surprise")
        elif kind == "wrong-size":
            self.send("request_action", state=list(oht.format_state(state[0], [[0] * (size + 1)] * (size + 1))))


WIRES = {"A": WireA, "B": WireB}


# ==== the tournament ===============================================================================
@dataclass
class ServerConfig:
    generation: str = "A"
    sizes: tuple = (5,)
    series: int = 2                   # series in the tournament (client as player 1, 2, 1, ...)
    games: int = 10                   # games per series
    password: str | None = None       # generation A: the password accepted (None: any non-empty)
    token: str | None = None          # generation B: the token accepted (None: any non-empty)
    ask_stress: bool = False
    fault: str | None = None
    fault_at: int = 3                 # the client's n-th action request (counted over the tournament)
    move_timeout: float | None = MOVE_TIMEOUT

    def __post_init__(self):
        if self.generation not in WIRES:
            raise ValueError(f"generation must be A or B, got {self.generation!r}")
        if self.fault is not None and self.fault not in FAULTS:
            raise ValueError(f"fault must be one of {', '.join(FAULTS)}, got {self.fault!r}")
        for size in self.sizes:
            if not oht.MIN_SIZE <= size <= oht.MAX_SIZE:
                raise ValueError(f"board sizes are {oht.MIN_SIZE}..{oht.MAX_SIZE}, got {size}")


@dataclass
class TournamentResult:
    logged_in: bool = False
    name: str = ""
    games: list = field(default_factory=list)    # {size, client_id, start, moves, winner}
    series: list = field(default_factory=list)   # stats rows per series
    client_times: list = field(default_factory=list)    # seconds from request to reply, client moves
    opponent_times: list = field(default_factory=list)  # seconds per opponent move
    illegal: list = field(default_factory=list)
    score: float | None = None
    ended: str = ""                               # "finished", "illegal action", "fault", "client left", ...

    def client_wins(self) -> int:
        return sum(g["winner"] == g["client_id"] for g in self.games)


class Stop(Exception):
    """The tournament ends early (an illegal action, an injected fault)."""


class Refused(Exception):
    """The client's login was refused (the client has been told)."""


class UnreadableAction(Exception):
    """The client's reply is not an action; the argument is what it sent, as the server shows it."""


class Tournament:
    """One connection's tournament (``run``), reporting each series on ``out``."""

    def __init__(self, wire, config: ServerConfig, opponent, out=sys.stdout, clock=time.perf_counter):
        self.wire, self.config, self.opponent, self.out, self.clock = wire, config, opponent, out, clock
        self.result = TournamentResult()
        self.requests = 0

    def say(self, text):
        if self.out is not None:
            print(text, file=self.out, flush=True)

    def run(self) -> TournamentResult:
        c, r = self.config, self.result
        try:
            r.name = self.wire.login(c)
        except Refused:
            r.ended = "login refused"
            return r
        r.logged_in = True
        try:
            for number in range(c.series):
                self.series(number + 1, c.sizes[number % len(c.sizes)], 1 if number % 2 == 0 else 2)
        except Stop as stop:
            r.ended = str(stop)
            return r
        r.score = 100.0 * r.client_wins() / max(1, len(r.games))
        self.wire.tournament_over(r.score)
        self.wire.finish()
        r.ended = "finished"
        self.say(f"Tournament over: {r.name} ({CLIENT_ID}) won {r.client_wins()} of {len(r.games)} games: "
                 f"score {r.score:.1f} %")
        return r

    def series(self, number: int, size: int, client_id: int):
        c = self.config
        player_map = [(CLIENT_ID, client_id), (OPPONENT_ID, 3 - client_id)]
        self.wire.series_start(CLIENT_ID, player_map, c.games, size)
        wins = {1: 0, 2: 0}
        for g in range(c.games):
            wins[self.game(size, client_id, 1 if g % 2 == 0 else 2)] += 1
        stats = [(uid, sid, wins[sid], c.games - wins[sid]) for uid, sid in player_map]
        self.result.series.append(stats)
        self.wire.series_over(stats)
        self.say(f"Series {number} on {size}x{size}, {c.games} games:")
        for uid, sid, w, lost in stats:
            who = self.result.name if uid == CLIENT_ID else self.opponent.name
            self.say(f"  player {uid} ({who}), series id {sid}: {w} wins, {lost} losses")

    def game(self, size: int, client_id: int, start: int) -> int:
        board = HexBoard(size)
        self.wire.game_start(start)
        player = start
        while (winner := board.winner()) is None:
            if player == client_id:
                self.client_move(board, player)
            else:
                t0 = self.clock()
                point = tuple(int(v) for v in self.opponent.choose(board, player))
                self.result.opponent_times.append(self.clock() - t0)
                board.play(player, point)
            player = 3 - player
        self.wire.game_over(winner, board.state(player))
        self.result.games.append({"size": size, "client_id": client_id, "start": start,
                                  "moves": board.moves, "winner": winner})
        return winner

    def client_move(self, board: HexBoard, player: int):
        c = self.config
        self.requests += 1
        state = board.state(player)
        if c.fault is not None and self.requests == c.fault_at and c.fault != "reject":
            if c.fault == "drop":
                raise Stop("fault: dropped mid-game")
            self.wire.fault(c.fault, state, board.size)
            raise Stop(f"fault: {c.fault}")
        t0 = self.clock()
        try:
            text, point = self.wire.request_action(state, board.size)
            legal = board.legal(point) and not (c.fault == "reject" and self.requests == c.fault_at)
        except UnreadableAction as unreadable:
            text, legal = str(unreadable), False
        self.result.client_times.append(self.clock() - t0)
        if not legal:
            self.result.illegal.append({"state": state, "action": text})
            self.wire.illegal(state, text)
            self.say(f"Illegal action from {self.result.name}: {text!r}; the tournament ends")
            raise Stop("illegal action")
        board.play(player, point)


# ==== the listening server =========================================================================
class Server:
    """Listens on (host, port) with TLS; ``serve_one()`` plays one client's tournament."""

    def __init__(self, cert, key, config: ServerConfig, opponent=None, host="127.0.0.1", port=0,
                 out=sys.stdout, timeout: float | None = None):
        self.config = config
        self.opponent = opponent or RandomOpponent()
        self.out = out
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(str(cert), str(key))
        self.listener = socket.create_server((host, port))
        self.listener.settimeout(timeout)   # for accept: None waits for ever
        self.port = self.listener.getsockname()[1]
        self.results = []

    def serve_one(self) -> TournamentResult:
        conn, _addr = self.listener.accept()
        conn.settimeout(self.config.move_timeout)
        result = TournamentResult()
        try:
            with self.context.wrap_socket(conn, server_side=True) as tls:
                tournament = Tournament(WIRES[self.config.generation](tls), self.config, self.opponent, self.out)
                result = tournament.result
                tournament.run()
                if result.ended.startswith("fault") and self.config.fault != "drop":
                    self._drain(tls)  # let the client see the fault and leave first
        except (OSError, ssl.SSLError, ProtocolError, ConnectionError) as err:
            result.ended = result.ended or f"client left: {type(err).__name__}: {err}"
            conn.close()
        self.results.append(result)
        return result

    @staticmethod
    def _drain(tls):
        try:
            while tls.recv(oht.RECV_SIZE):
                pass
        except (OSError, ssl.SSLError):
            pass

    def close(self):
        self.listener.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ==== certificates ==================================================================================
def self_signed(folder, name: str = "localhost", days: int = 7):
    """A throwaway self-signed certificate and key (server.crt, server.key in folder; EC P-256), made
    with the `cryptography` package (the dev extra)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=days)).sign(key, hashes.SHA256()))
    (folder / "server.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "server.key").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    return folder / "server.crt", folder / "server.key"


# ==== command line: plies hex serve / connect / demo =================================================
# exit statuses: those of the client (adapters/oht_session.py OUTCOMES and EPILOG, the one table), with
# serve's and demo's own faults there too: EXIT_SETTINGS, EXIT_CERTIFICATE, EXIT_NO_CRYPTOGRAPHY,
# EXIT_CANNOT_LISTEN.
NO_CRYPTOGRAPHY = ("making a throwaway certificate needs the optional `cryptography` package: "
                   ".venv/bin/pip install cryptography (the dev extra has it)")


class Fault(Exception):
    """A fault of `plies hex serve` or `demo`: the message (cause and fix) and the exit status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _self_signed(folder, fix: str = ", or give --cert and --key"):
    try:
        return self_signed(folder)
    except ModuleNotFoundError as err:
        if err.name is None or not err.name.startswith("cryptography"):
            raise
        raise Fault(oht_session.EXIT_NO_CRYPTOGRAPHY, NO_CRYPTOGRAPHY + fix) from None
    except OSError as err:
        raise Fault(oht_session.EXIT_SETTINGS, f"cannot write the certificate into {folder} "
                                              f"({err.strerror or type(err).__name__}): give another folder") from None


def _server(cert, key, config, opponent, host, port, **kw) -> "Server":
    for what, path in (("--cert", cert), ("--key", key)):
        if not Path(path).is_file():
            raise Fault(oht_session.EXIT_CERTIFICATE, f"no {what} file {path}: give the server's certificate and "
                                                     f"key (PEM), or --self-signed DIR for throwaway ones")
    try:
        return Server(cert, key, config, opponent, host, port, **kw)
    except ssl.SSLError as err:
        raise Fault(oht_session.EXIT_CERTIFICATE, f"{cert} and {key} are not a PEM certificate and its key "
                                                 f"({err.reason or err}): give matching files, or --self-signed DIR") from None
    except OSError as err:
        raise Fault(oht_session.EXIT_CANNOT_LISTEN, f"cannot listen on {host}:{port} ({err.strerror or err}): "
                                                   f"give another --port (0: any free one)") from None


def serve_command(args) -> int:
    try:
        return _serve(args)
    except Fault as err:
        print(f"plies hex serve: {err}", file=sys.stderr)
        return err.status


def _serve(args) -> int:
    if args.self_signed:
        args.cert, args.key = _self_signed(args.self_signed)
        print(f"throwaway certificate: {args.cert} (give it to the client)", flush=True)
    elif not (args.cert and args.key):
        raise Fault(oht_session.EXIT_SETTINGS, "give --cert and --key, or --self-signed DIR")
    config = ServerConfig(generation=args.generation, sizes=tuple(args.sizes), series=args.series, games=args.games,
                          password=os.environ.get("PLIES_OHT_SERVER_PASSWORD"),
                          token=os.environ.get("PLIES_OHT_SERVER_TOKEN"), ask_stress=args.ask_stress,
                          fault=args.fault, fault_at=args.fault_at)
    if args.opponent == "engine":
        opponent = EngineOpponent(seconds=args.opponent_seconds, seed=args.seed)
    else:
        opponent = RandomOpponent(args.seed)
    with _server(args.cert, args.key, config, opponent, args.host, args.port) as server:
        print(f"listening on {args.host}:{server.port} (generation {args.generation})", flush=True)
        for _ in range(args.clients) if args.clients else iter(int, 1):
            result = server.serve_one()
            times = result.client_times
            print(f"client {result.name or '?'}: {result.ended}; {result.client_wins()} wins in "
                  f"{len(result.games)} games, {len(result.illegal)} illegal actions"
                  + (f"; reply time median {statistics.median(times):.3f} s, max {max(times):.3f} s" if times else ""),
                  flush=True)
    return 0


def add_parsers(hexsub):
    p = hexsub.add_parser("serve", help="a local Online Hex Tournament server (TLS; generation A or B)",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=oht_session.EPILOG)
    p.add_argument("--cert", help="the server's certificate (PEM)")
    p.add_argument("--key", help="its private key (PEM)")
    p.add_argument("--self-signed", metavar="DIR", help="make a throwaway certificate and key in DIR instead")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=lambda text: oht_client.port_number(text, lowest=0), default=oht.PORT,
                   help="0: any free port (printed)")
    p.add_argument("--generation", choices=tuple(WIRES), default="A")
    p.add_argument("--sizes", type=int, nargs="+", default=[5], help="board sizes, cycled series by series")
    p.add_argument("--series", type=int, default=2)
    p.add_argument("--games", type=int, default=10, help="games per series")
    p.add_argument("--opponent", choices=tuple(OPPONENTS), default="random")
    p.add_argument("--opponent-seconds", type=float, default=0.2, help="the engine opponent's time per move")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--clients", type=int, default=1, help="tournaments to serve, one client after another (0: for ever)")
    p.add_argument("--ask-stress", action="store_true", help="also ask generation A's stress-test question")
    p.add_argument("--fault", choices=FAULTS, help="misbehave on purpose (tests)")
    p.add_argument("--fault-at", type=int, default=3)
    p.set_defaults(func=serve_command)

    c = hexsub.add_parser("connect", help="our Online Hex Tournament client (generation A or B)")
    oht_client.add_client_arguments(c)
    c.set_defaults(func=oht_client.client_command)

    d = hexsub.add_parser("demo", help="the local server and our generation-A client play a short 5x5 series",
                          formatter_class=argparse.RawDescriptionHelpFormatter, epilog=oht_session.EPILOG)
    d.add_argument("--games", type=int, default=2, help="games per series (two series: we are player 1, then 2)")
    d.add_argument("--seconds", type=float,
                   help=f"our time per move (default {DEMO_SECONDS:g} s without --simulations)")
    d.add_argument("--simulations", type=int, help="our simulations per move (a demo that repeats move for move)")
    d.set_defaults(func=demo_command)


def demo_command(args) -> int:
    """A throwaway certificate, the server in a thread (random opponent, 5x5), our generation-A client
    over TLS on loopback; the client's record (moves, results, summary) is printed as it is written."""
    report = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            cert, key = _self_signed(tmp, fix="")
        except Fault as err:
            print(f"plies hex demo: {err}", file=sys.stderr)
            return err.status
        config = ServerConfig(generation="A", sizes=(5,), series=2, games=args.games)
        with Server(cert, key, config, RandomOpponent(1), out=report, timeout=60) as server:
            thread = threading.Thread(target=server.serve_one)
            thread.start()
            seconds = DEMO_SECONDS if args.seconds is None and args.simulations is None else args.seconds
            settings = Settings(time=seconds, simulations=args.simulations, log=str(Path(tmp) / "games.log"))
            agent = oht_client.make_agent(settings, echo=sys.stdout)
            login = oht_session.Login(username="demo", player_name="plies", ask_secret=lambda prompt: "demo")
            status = oht_session.play("A", "127.0.0.1", server.port, cert, agent, login, timeout=60)
            thread.join(60)
    print("the server's report:\n" + report.getvalue(), end="")
    last = agent.record.games[-1] if agent.record.games else None
    if last is not None:
        game = make_game("hex", size=last["size"])
        cells = [[0] * last["size"] for _ in range(last["size"])]
        for player, r, c, _ in last["moves"]:
            cells[r][c] = player
        print("the last game's final position:")
        print(game.render(game.state_from_cells(cells, 0)))
    return status
