"""Our Online Hex Tournament clients (specs/oht.md), one per generation, and what they share with the
course-class subclasses (adapters/oht_actor_a.py, adapters/oht_actor_b.py):

  OHTAgent   the decisions and the record: every handler of the spec (series start, game start, get
             action, game over, series over, tournament over, illegal action, error); moves come from
             adapters/hex_player.py; the record (``Record``) keeps each game's moves and result, each
             series' stats, and writes a log file with a summary at the end
  run_a      generation A over TLS: bare UTF-8 messages (one TLS record each, read with recv(1024)),
             login prompts answered by substring
  run_b      generation B over TLS: 4-byte native length + UTF-8 JSON, topics
Transport: TLS trusting the given server certificate only (a certificate is required, the host name
is not checked, as the course's clients do), port 33000 by default, a socket timeout so a silent
server cannot hang us.  A malformed server message, a dropped connection or a refused login end the
session with a clear message and an exit status (EXIT_*); the socket is closed in every case.

Credentials: the username, player name and answers come from the configuration (``Login``); the
password (generation A) and the token (generation B, IT3105_AUTH) are read only when the server asks,
from the environment (PLIES_OHT_PASSWORD, IT3105_AUTH) or getpass, sent, and dropped: they are never
kept in an attribute, written to the record or the log, or printed.
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

from adapters.hex_player import DEFAULT_SECONDS, MODES, NETWORK_USES, HexPlayer, PlayerConfig
from protocols import oht
from protocols.common import ProtocolError

EXIT_OK, EXIT_REFUSED, EXIT_PROTOCOL, EXIT_DROPPED, EXIT_SERVER_ERROR = 0, 1, 2, 3, 4
TIMEOUT = 600.0                      # seconds a client waits for the next server message
ENV_PASSWORD = "PLIES_OHT_PASSWORD"  # generation A's password, if not typed (never stored)
ENV_USERNAME = "PLIES_OHT_USERNAME"
ENV_TOKEN = "IT3105_AUTH"            # generation B's token, as the course's ActorClient reads it
SYMBOLS = {0: ".", 1: "X", 2: "O"}


class ConnectionClosed(Exception):
    """The server closed the connection (or it dropped) before the tournament was over."""


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


# ==== the agent: every handler, shared by our clients and the course-class subclasses ===============
class OHTAgent:
    """The handlers of the spec, as plain methods; moves come from ``player``, everything is
    recorded in ``record``.  ``clock`` times our thinking (from the request to the answer)."""

    def __init__(self, player: HexPlayer | None = None, record: Record | None = None, clock=time.perf_counter):
        self.player = player or HexPlayer()
        self.record = record or Record()
        self.clock = clock
        self.series = None     # the current series' record entry
        self.game = None       # the current game's record entry
        self._board = None     # the board as we last knew it (to tell the opponent's stones)

    # ---- series and games ----
    def series_start(self, unique_id, series_id, player_map, num_games, game_params):
        event = oht.series_event(unique_id, player_map, num_games, game_params)
        if int(series_id) != event["series_id"]:
            raise ProtocolError(f"series id {series_id} does not match the player map {event['player_map']}")
        self.series = {"number": len(self.record.series) + 1, "unique_id": event["unique_id"],
                       "series_id": event["series_id"], "player_map": event["player_map"],
                       "num_games": event["num_games"], "size": event["size"], "played": 0, "wins": 0,
                       "stats": None, "player": self.player.describe(event["size"])}
        self.record.series.append(self.series)
        others = [uid for uid, _ in event["player_map"] if uid != event["unique_id"]]
        self.record.log(f"series {self.series['number']}: {event['num_games']} games on {event['size']}x"
                        f"{event['size']}, we are player {event['series_id']} (id {event['unique_id']}), "
                        f"opponent {others}; {self.series['player']}")

    def _size(self):
        return self.series["size"] if self.series else None

    def game_start(self, start_player):
        if self.series is None:
            raise ProtocolError("a game started before any series")
        size = self._size()
        self.game = {"series": self.series["number"], "number": self.series["played"] + 1, "size": size,
                     "series_id": self.series["series_id"], "start_player": int(start_player), "moves": [],
                     "winner": None, "won": None}
        self.record.games.append(self.game)
        self._board = [[0] * size for _ in range(size)]

    def _note_opponent(self, board: oht.Board):
        """Record the stones that appeared since our last look (the opponent's moves)."""
        if self.game is None or self._board is None or len(self._board) != board.size:
            return
        for r in range(board.size):
            for c in range(board.size):
                if board.cells[r][c] != self._board[r][c] and board.cells[r][c] != 0:
                    self.game["moves"].append((board.cells[r][c], r, c, None))
        self._board = [list(row) for row in board.cells]

    def get_action(self, state, start: float | None = None) -> tuple[int, int]:
        """(row, col) as plain ints for a state (the flat wire tuple, or a parsed Board)."""
        start = self.clock() if start is None else start
        board = state if isinstance(state, oht.Board) else oht.parse_state(state, self._size())
        self._note_opponent(board)
        row, col = self.player.choose(board.cells, board.to_move - 1, start=start)
        if self.game is not None and self._board is not None:
            self.game["moves"].append((board.to_move, row, col, self.clock() - start))
            self._board[row][col] = board.to_move
        for note in self.player.notes[len(self.record.notes):]:
            self.record.notes.append(note)
            self.record.log(f"note: {note}")
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
        self.record.illegal.append({"state": list(state.flat() if isinstance(state, oht.Board) else state),
                                    "action": str(action)})
        self.record.log(f"the server refused our action {action!r} in state {tuple(state.flat() if isinstance(state, oht.Board) else state)}")

    def error(self, text: str):
        self.record.errors.append(str(text))
        self.record.log(f"error: {text}")

    def finish(self, reason: str | None = None):
        """The session is over (normally or not): log the reason and, if not done yet, the summary."""
        if reason:
            self.error(reason)
        if not self.record.finished:
            self.record.log(self.record.summary())

    def handle(self, event: oht.Event):
        """The reply to a play event of our clients (None when there is nothing to send)."""
        kind, f = event.kind, event.fields
        if kind == "series_start":
            self.series_start(f["unique_id"], f["series_id"], f["player_map"], f["num_games"], f["game_params"])
        elif kind == "game_start":
            self.game_start(f["start_player"])
        elif kind == "get_action":
            return self.get_action(f["state"])
        elif kind == "game_over":
            self.game_over(f["winner"], f["end_state"])
        elif kind == "series_over":
            self.series_over(f["stats"])
        elif kind == "tournament_over":
            self.tournament_over(f["score"])
        elif kind == "illegal_action":
            self.illegal_action(f["state"], f["action"])
        return None


# ==== transport =====================================================================================
def tls_context(cert) -> ssl.SSLContext:
    """Trust only the server's certificate; require one; do not check the host name."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(str(cert))
    return context


def connect(host: str, port: int, cert, timeout: float | None = TIMEOUT) -> ssl.SSLSocket:
    raw = socket.create_connection((host, port), timeout=timeout)
    try:
        return tls_context(cert).wrap_socket(raw)
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


def recv_b(sock):
    length = oht.frame_length(recv_exactly(sock, oht.LENGTH.size))
    return oht.decode_b(recv_exactly(sock, length))


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
        return (self.ask_secret or getpass.getpass)(prompt)

    def answer(self, prompt: str) -> str:
        if prompt == "username":
            return self.username or os.environ.get(ENV_USERNAME) or input("username: ")
        if prompt == "player-name":
            return self.player_name
        if prompt == "qualify":
            return "y" if self.qualify else "n"
        if prompt == "stress":
            return "y" if self.stress else "n"
        raise ValueError(prompt)


def _session(sock, agent: OHTAgent, step) -> int:
    """Run step() until it returns an exit status; every failure becomes a clear message, the
    record's summary and a status; the socket is closed in every case."""
    try:
        with sock:
            while True:
                status = step()
                if status is not None:
                    agent.finish()
                    return status
    except ProtocolError as err:
        agent.finish(f"malformed server message: {err}")
        return EXIT_PROTOCOL
    except ConnectionClosed as err:
        agent.finish(f"{err} before the tournament was over")
        return EXIT_DROPPED
    except (OSError, ssl.SSLError) as err:  # reset, timeout, TLS failure
        agent.finish(f"connection lost: {type(err).__name__}: {err}")
        return EXIT_DROPPED


def run_a(sock, agent: OHTAgent, login: Login) -> int:
    """Generation A on a connected TLS socket, until the tournament ends; returns an EXIT_* status."""
    reader = oht.ReaderA()

    def step():
        data = sock.recv(oht.RECV_SIZE)
        arrived = agent.clock()
        if not data:
            raise ConnectionClosed("the server closed the connection")
        event = reader.feed(data)
        if event is None:
            return None
        if event.kind == "login":
            prompt, text = event["prompt"], event["text"]
            if prompt == "password":
                sock.sendall(login.secret(ENV_PASSWORD, "password: ").encode("utf-8"))  # sent, not kept
            elif prompt in oht.PROMPTS:
                sock.sendall(oht.encode_a(login.answer(prompt)))
            elif prompt == "refused":
                agent.finish(f"login refused: {text.strip()}")
                return EXIT_REFUSED
            else:
                agent.record.log(f"server: {text.strip()}")
            return None
        if event.kind == "get_action":
            sock.sendall(oht.encode_a(agent.get_action(event["state"], start=arrived)))
            return None
        agent.handle(event)
        if event.kind == "tournament_over":
            return EXIT_OK
        if event.kind == "illegal_action":
            return EXIT_SERVER_ERROR
        return None

    return _session(sock, agent, step)


def run_b(sock, agent: OHTAgent, login: Login) -> int:
    """Generation B on a connected TLS socket, until ``finish``; returns an EXIT_* status."""
    size = [None]

    def step():
        message = recv_b(sock)
        arrived = agent.clock()
        event = oht.parse_b(message, size[0])
        if event.kind == "authentication":
            sock.sendall(oht.encode_b(login.secret(ENV_TOKEN, "token: ")))  # sent, not kept
        elif event.kind == "question":
            agent.record.log(f"server asks: {event['text']} -> {'yes' if login.qualify else 'no'}")
            sock.sendall(oht.encode_b(bool(login.qualify)))
        elif event.kind == "message":
            agent.record.log(f"server: {event['text']}")
        elif event.kind == "error":
            agent.error(f"server error: {event['text']}")
            return EXIT_SERVER_ERROR
        elif event.kind == "finish":
            return EXIT_OK
        elif event.kind == "get_action":
            sock.sendall(oht.encode_b(list(agent.get_action(event["state"], start=arrived))))
        else:
            if event.kind == "series_start":
                size[0] = event["size"]
            agent.handle(event)
        return None

    return _session(sock, agent, step)


RUNNERS = {"A": run_a, "B": run_b}


def play(generation: str, host: str, port: int, cert, agent: OHTAgent, login: Login,
         timeout: float | None = TIMEOUT) -> int:
    """Connect and play one tournament; an EXIT_* status."""
    try:
        sock = connect(host, port, cert, timeout)
    except (OSError, ssl.SSLError) as err:
        agent.finish(f"cannot connect to {host}:{port}: {err}")
        return EXIT_DROPPED
    return RUNNERS[generation](sock, agent, login)


# ==== configuration shared with the subclasses =====================================================
SETTINGS_FILE = "plies_oht.json"   # beside a subclass: {"mode": "search", "seconds": 1.0, "log": "oht.log"}
ENV_SETTINGS = {"mode": "PLIES_OHT_MODE", "seconds": "PLIES_OHT_SECONDS", "simulations": "PLIES_OHT_SIMULATIONS",
                "network": "PLIES_OHT_NETWORK", "log": "PLIES_OHT_LOG", "record": "PLIES_OHT_RECORD",
                "seed": "PLIES_OHT_SEED"}
DEFAULT_LOG = "oht-games.log"


def settings_from(folder=None, env=os.environ, **given) -> dict:
    """Agent settings: given keywords, else the environment (ENV_SETTINGS), else SETTINGS_FILE in
    folder, else the defaults."""
    settings = {}
    if folder is not None:
        try:
            data = json.loads((Path(folder) / SETTINGS_FILE).read_text(encoding="utf-8"))
            settings.update(data if isinstance(data, dict) else {})
        except (OSError, ValueError):
            pass
    settings.update({k: env[v] for k, v in ENV_SETTINGS.items() if env.get(v)})
    settings.update({k: v for k, v in given.items() if v is not None})
    return settings


def make_agent(settings: dict, echo=None) -> OHTAgent:
    """An agent from settings (mode, seconds, simulations, network, network_use, seed, log)."""
    def number(key, kind):
        return kind(settings[key]) if settings.get(key) not in (None, "") else None
    seconds = number("seconds", float)
    simulations = number("simulations", int)
    if seconds is None and simulations is None:
        seconds = DEFAULT_SECONDS
    mode = settings.get("mode", "search")
    # measured (bench/results/oht.md): on 7x7 the search is stronger with random rollouts than with the
    # shipped network's (32/40 against 22/40 versus OpenSpiel); greedy play needs the network
    network = settings.get("network") or ("shipped" if mode == "greedy" else "none")
    config = PlayerConfig(mode=mode, seconds=seconds, simulations=simulations,
                          network=None if network in ("none", "") else network,
                          network_use=settings.get("network_use", "rollout"), seed=number("seed", int) or 0)
    return OHTAgent(HexPlayer(config), Record(settings.get("log", DEFAULT_LOG), echo=echo))


def save_record(agent: OHTAgent, path) -> None:
    if path:
        Path(path).write_text(json.dumps(agent.record.as_dict(), indent=1) + "\n", encoding="utf-8")


# ==== command line ==================================================================================
def add_client_arguments(p: argparse.ArgumentParser):
    p.add_argument("--generation", choices=("A", "B"), default="A", help="A: BasicClientActorAbs; B: ActorClient")
    p.add_argument("--host", default=os.environ.get("IT3105_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("IT3105_PORT", oht.PORT)))
    p.add_argument("--cert", default=os.environ.get("IT3105_CERT", "server.crt"), help="the server's certificate")
    p.add_argument("--username", help=f"generation A (else {ENV_USERNAME}, else typed); the password is "
                                      f"{ENV_PASSWORD} or typed, never an option")
    p.add_argument("--player-name", default="plies")
    p.add_argument("--qualify", action="store_true", help="answer yes to the qualifying question")
    p.add_argument("--mode", choices=MODES, default="search")
    p.add_argument("--seconds", type=float, help=f"per-move budget (default {DEFAULT_SECONDS:g} s without --simulations)")
    p.add_argument("--simulations", type=int, help="per-move MCTS simulations")
    p.add_argument("--network", default=None, help="'shipped', a path to an ONNX file, or 'none' "
                   "(default: shipped for --mode greedy, none for search: random rollouts measured stronger)")
    p.add_argument("--network-use", choices=NETWORK_USES, default="rollout")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", default=DEFAULT_LOG, help="the game log (appended)")
    p.add_argument("--record", help="write the whole record as JSON here at the end")
    p.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds to wait for a server message")
    p.add_argument("--quiet", action="store_true", help="do not echo the log on stdout")


def client_command(args) -> int:
    settings = {k: getattr(args, k) for k in ("mode", "seconds", "simulations", "network", "network_use", "seed", "log")}
    agent = make_agent(settings, echo=None if args.quiet else sys.stdout)
    qualify = args.qualify or os.environ.get("IT3105_QUALIFY", "").lower() in ("y", "yes", "true", "1")
    login = Login(username=args.username, player_name=args.player_name, qualify=qualify)
    status = play(args.generation, args.host, args.port, args.cert, agent, login, args.timeout)
    save_record(agent, args.record)
    if status != EXIT_OK:
        print(f"oht client: {agent.record.errors[-1] if agent.record.errors else 'stopped'}", file=sys.stderr)
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adapters.oht_client", description=__doc__.splitlines()[0])
    add_client_arguments(parser)
    try:
        return client_command(parser.parse_args(argv))
    except ValueError as err:
        print(f"oht client: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
