"""The Online Hex Tournament end to end over real TLS on loopback: our local server (a thread of
this process, or `plies hex serve` as a process) against our clients of both generations and our
subclasses of the course's base classes (written here from specs/oht.md, as the course's behave).
Throwaway self-signed certificates come from the `cryptography` package."""
import contextlib
import gc
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import warnings

import pytest

from adapters import oht_client as C
from adapters import oht_session
from conftest import OHT_WAIT, ROOT, serving
from adapters.oht_client import Settings
from protocols import oht
from standins import oht_server as S

PYTHON = sys.executable
CHEAP = {"simulations": 30, "network": "none", "seed": 0,   # a fast seeded player: the protocol is under test
         "root_solver": False}                              # (the solver spends up to 1,000 nodes a move)
WAIT = OHT_WAIT


# ==== fixtures (certs and serving: tests/conftest.py) ==============================================
def open_fds() -> set:
    return set(os.listdir("/proc/self/fd"))


@contextlib.contextmanager
def no_leaks():
    """Fail on a thread, file descriptor or unclosed socket (ResourceWarning) left behind."""
    threads, fds = set(threading.enumerate()), open_fds()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        yield
        gc.collect()
    assert set(threading.enumerate()) == threads
    assert open_fds() <= fds
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []


def play(certs, server, generation, tmp_path, login=None, **settings):
    agent = C.make_agent(Settings(**dict(CHEAP, log=str(tmp_path / "games.log"), **settings)))
    status = oht_session.play(generation, "127.0.0.1", server.port, certs[0], agent,
                    login or oht_session.Login(username="student", ask_secret=lambda prompt: "hunter2"), timeout=WAIT)
    return status, agent


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.delenv(oht_session.ENV_PASSWORD, raising=False)
    monkeypatch.setenv(oht_session.ENV_TOKEN, "a-token")


# ==== whole series ==================================================================================
@pytest.mark.parametrize("generation", ["A", "B"])
def test_a_tournament_of_series_end_to_end(certs, tmp_path, generation):
    config = S.ServerConfig(generation=generation, sizes=(5, 6, 7), series=3, games=4)
    with no_leaks(), serving(certs, config) as server:
        status, agent = play(certs, server, generation, tmp_path)
    assert status == oht_session.EXIT_OK
    result = server.results[0]
    assert result.ended == "finished" and result.illegal == []
    record = agent.record
    assert [(s["size"], s["series_id"], s["num_games"]) for s in record.series] == [(5, 1, 4), (6, 2, 4), (7, 1, 4)]
    assert [g["start_player"] for g in record.games] == [1, 2, 1, 2] * 3          # alternating starters
    # the client saw every move the referee played, in order, and the same winners
    assert [[m[:3] for m in g["moves"]] for g in record.games] == [g["moves"] for g in result.games]
    assert [g["winner"] for g in record.games] == [g["winner"] for g in result.games]
    assert [s["stats"] for s in record.series] == result.series
    assert record.score == pytest.approx(result.score) and record.finished
    log = (tmp_path / "games.log").read_text()
    assert log.count("game ") == 12 and "summary: 12 games" in log


def test_a_100_game_verification_tournament_has_no_illegal_move(certs, tmp_path):
    config = S.ServerConfig(generation="A", sizes=(5, 6, 7, 5), series=4, games=25)
    with serving(certs, config) as server:
        status, agent = play(certs, server, "A", tmp_path, simulations=100)
    result = server.results[0]
    assert status == oht_session.EXIT_OK and result.ended == "finished"
    assert len(result.games) == 100 and result.illegal == [] and agent.record.illegal == []
    assert agent.record.totals()["games"] == 100
    assert result.client_wins() >= 90  # against a random player 100 simulations a move win nearly all


# ==== faults ========================================================================================
@pytest.mark.parametrize("generation, fault, says", [
    ("A", "garbage", "not a Python literal"),
    ("A", "bad-length", "not a Python literal"),   # a message cut short
    ("A", "unknown-topic", "not a Python literal"),
    ("A", "wrong-size", "a state of a 5x5 board has 26 values, got 37"),
    ("B", "garbage", "not a JSON message"),
    ("B", "bad-length", "bad length prefix -5"),
    ("B", "unknown-topic", "unknown topic 'half_time'"),
    ("B", "wrong-size", "a state of a 5x5 board has 26 values, got 37"),
])
def test_a_malformed_server_message_ends_cleanly_with_a_clear_error(certs, tmp_path, generation, fault, says):
    config = S.ServerConfig(generation=generation, series=1, games=2, fault=fault, fault_at=3)
    with no_leaks(), serving(certs, config) as server:
        status, agent = play(certs, server, generation, tmp_path)
    assert status == oht_session.EXIT_PROTOCOL
    assert len(agent.record.errors) == 1 and says in agent.record.errors[0]
    assert "malformed server message" in (tmp_path / "games.log").read_text()


@pytest.mark.parametrize("generation", ["A", "B"])
def test_a_connection_dropped_mid_game_ends_cleanly(certs, tmp_path, generation):
    config = S.ServerConfig(generation=generation, series=1, games=2, fault="drop", fault_at=4)
    with no_leaks(), serving(certs, config) as server:
        status, agent = play(certs, server, generation, tmp_path)
    assert status == oht_session.EXIT_DROPPED
    assert "closed the connection" in agent.record.errors[0]
    assert agent.record.games[-1]["winner"] is None            # the game in progress stays unfinished
    assert "summary:" in (tmp_path / "games.log").read_text()


@pytest.mark.parametrize("generation", ["A", "B"])
def test_an_action_the_server_refuses_is_recorded(certs, tmp_path, generation):
    config = S.ServerConfig(generation=generation, series=1, games=2, fault="reject", fault_at=2)
    with no_leaks(), serving(certs, config) as server:
        status, agent = play(certs, server, generation, tmp_path)
    assert status == oht_session.EXIT_SERVER_ERROR and len(server.results[0].illegal) == 1
    if generation == "A":
        assert len(agent.record.illegal) == 1
        assert oht.parse_action(agent.record.illegal[0]["action"], 5) is not None
    else:
        assert "Illegal action" in agent.record.errors[0]


def test_a_silent_server_times_out_instead_of_hanging(certs, tmp_path):
    listener = socket.create_server(("127.0.0.1", 0))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certs)
    accepted = []

    def accept():  # completes the handshake, then says nothing
        conn, _ = listener.accept()
        accepted.append(context.wrap_socket(conn, server_side=True))

    thread = threading.Thread(target=accept)
    thread.start()
    agent = C.make_agent(Settings(**CHEAP, log=str(tmp_path / "games.log")))
    status = oht_session.play("A", "127.0.0.1", listener.getsockname()[1], certs[0], agent,
                              oht_session.Login(username="u"), timeout=0.5)
    thread.join(WAIT)
    for s in accepted + [listener]:
        s.close()
    assert status == oht_session.EXIT_DROPPED and "timed out" in agent.record.errors[0]


def test_a_wrong_server_certificate_is_refused(certs, tmp_path):
    other, _key = S.self_signed(tmp_path / "other")   # a valid certificate, but not the server's
    config = S.ServerConfig(series=1, games=1)
    with serving(certs, config) as server:
        agent = C.make_agent(Settings(**CHEAP, log=str(tmp_path / "games.log")))
        status = oht_session.play("A", "127.0.0.1", server.port, other, agent, oht_session.Login(username="u"),
                                  timeout=WAIT)
    assert status == oht_session.EXIT_DROPPED and "CERTIFICATE_VERIFY_FAILED" in agent.record.errors[0]


# ==== the server's side of the protocol ===============================================================
def raw_client(certs, port):
    return oht_session.tls_context(certs[0]).wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=WAIT))


def test_the_server_asks_the_login_questions_and_calls_out_an_illegal_action_a(certs):
    config = S.ServerConfig(generation="A", series=1, games=2, ask_stress=True)
    with serving(certs, config) as server, raw_client(certs, server.port) as sock:
        prompts = []
        for answer in ("student", "hunter2", "me", "n", "n"):
            prompts.append(oht.login_prompt(sock.recv(1024).decode()))
            sock.sendall(answer.encode())
        assert prompts == ["username", "password", "player-name", "qualify", "stress"]
        assert oht.login_prompt(sock.recv(1024).decode()) == "welcome"
        seen = [sock.recv(1024).decode() for _ in range(7)]
        assert seen[:5] == ["Series start", "-200", "[(-200, 1), (999, 2)]", "2", "[5]"]
        assert seen[5:] == ["Game start", "1"]
        state = oht.literal(sock.recv(1024))           # we start: an empty 5x5 board, us to move
        assert state == (1,) + (0,) * 25
        sock.sendall(b"(0, 0)")
        while True:                                    # the opponent answered: ask again
            state = oht.literal(sock.recv(1024))
            if isinstance(state, tuple):
                break
        sock.sendall(b"(0, 0)")                        # occupied
        assert [sock.recv(1024).decode() for _ in range(3)][::2] == ["Illegal action", "(0, 0)"]
        assert sock.recv(1024) == b""                  # and the server hangs up
    assert server.results[0].ended == "illegal action"


def test_the_server_calls_out_an_unreadable_action_a(certs):
    config = S.ServerConfig(generation="A", series=1, games=1)
    with serving(certs, config) as server, raw_client(certs, server.port) as sock:
        for answer in ("student", "hunter2", "me", "n"):
            sock.recv(1024)
            sock.sendall(answer.encode())
        while not sock.recv(1024).startswith(b"(1, 0"):   # the welcome, the series, the game start, our turn
            pass
        sock.sendall(b"e4, please")
        header, state, action = (sock.recv(1024).decode() for _ in range(3))
        assert (header, oht.literal(state), oht.literal(action)) == ("Illegal action", (1,) + (0,) * 25, "e4, please")
    assert server.results[0].illegal == [{"state": (1,) + (0,) * 25, "action": "e4, please"}]


def test_the_server_refuses_a_wrong_password(certs, tmp_path):
    config = S.ServerConfig(generation="A", series=1, games=1, password="right")
    with serving(certs, config) as server:
        status, agent = play(certs, server, "A", tmp_path,
                             login=oht_session.Login(username="u", ask_secret=lambda prompt: "wrong"))
    assert status == oht_session.EXIT_REFUSED and "Invalid credentials" in agent.record.errors[0]
    assert server.results[0].ended == "login refused"


def test_the_server_calls_out_an_unreadable_action_b(certs):
    config = S.ServerConfig(generation="B", series=1, games=2)
    with serving(certs, config) as server, raw_client(certs, server.port) as sock:
        def recv():
            return oht.decode_b(oht_session.recv_frame(sock))
        topics = []
        while True:
            message = recv()
            topics.append(message["topic"])
            if message["topic"] == "authentication":
                sock.sendall(oht.encode_b("t"))
            elif message["topic"] == "question":
                sock.sendall(oht.encode_b(False))
            elif message["topic"] == "request_action":
                sock.sendall(oht.encode_b([9, 9]))     # off the board
            elif message["topic"] == "error":
                assert message["error"].startswith("Illegal action [9, 9]")
                break
        assert topics == ["message", "authentication", "question", "series_start", "game_start",
                          "request_action", "error"]
        with pytest.raises(oht_session.ConnectionClosed):
            recv()


# ==== credentials ===================================================================================
def reachable_strings(root, seen=None, depth=0) -> list:
    """Every string reachable from root through containers, closures and the attributes of our own
    objects (the engine's objects hold numbers only)."""
    seen = set() if seen is None else seen
    if id(root) in seen or depth > 12:
        return []
    seen.add(id(root))
    if isinstance(root, str):
        return [root]
    if isinstance(root, (bytes, bytearray)):
        return [bytes(root).decode("latin-1")]
    if isinstance(root, (int, float, bool, type(None))) or isinstance(root, type):
        return []
    children = []
    if isinstance(root, dict):
        children = list(root.keys()) + list(root.values())
    elif isinstance(root, (list, tuple, set, frozenset)):
        children = list(root)
    elif callable(root) and getattr(root, "__closure__", None):
        children = [c.cell_contents for c in root.__closure__]
    elif type(root).__module__.split(".")[0] in ("adapters", "protocols"):
        children = list(vars(root).values()) if hasattr(root, "__dict__") else []
    return [s for child in children for s in reachable_strings(child, seen, depth + 1)]


@pytest.mark.parametrize("generation", ["A", "B"])
def test_no_credential_reaches_a_log_a_file_or_an_attribute(certs, tmp_path, monkeypatch, capsys, generation):
    secret = "s3cret-Pa55-" + generation
    if generation == "A":
        monkeypatch.setenv(oht_session.ENV_PASSWORD, secret)
    else:
        monkeypatch.setenv(oht_session.ENV_TOKEN, secret)
    config = S.ServerConfig(generation=generation, series=1, games=2,
                            password=secret if generation == "A" else None, token=secret if generation == "B" else None)
    login = oht_session.Login(username="student")
    with serving(certs, config) as server:
        agent = C.make_agent(Settings(**CHEAP, log=str(tmp_path / "games.log")), echo=sys.stdout)
        status = oht_session.play(generation, "127.0.0.1", server.port, certs[0], agent, login, timeout=WAIT)
        C.save_record(agent, tmp_path / "record.json")
    assert status == oht_session.EXIT_OK and server.results[0].logged_in          # the secret was sent and accepted
    files = "".join(p.read_text() for p in tmp_path.iterdir())
    out = capsys.readouterr()
    assert secret not in files and secret not in out.out + out.err
    assert not [s for s in reachable_strings([agent, login, agent.record, agent.player]) if secret in s]
    monkeypatch.delenv(oht_session.ENV_PASSWORD, raising=False)
    monkeypatch.delenv(oht_session.ENV_TOKEN, raising=False)


def test_a_typed_password_is_sent_and_not_kept(certs, tmp_path):
    secret = "typed-Secret-42"
    typed = []

    def ask(prompt):
        typed.append(prompt)
        return secret

    config = S.ServerConfig(generation="A", series=1, games=1, password=secret)
    login = oht_session.Login(username="student", ask_secret=ask)
    with serving(certs, config) as server:
        status, agent = play(certs, server, "A", tmp_path, login=login)
    assert status == oht_session.EXIT_OK and typed == ["password: "]
    assert secret not in (tmp_path / "games.log").read_text()
    assert not [s for s in reachable_strings([agent, login.__dict__ | {"ask_secret": None}]) if secret in s]


# ==== the course-class subclasses, beside base classes written from the spec ===========================
BASE_A = '''
import ast, getpass, socket, ssl
from abc import ABC, abstractmethod


class BasicClientActorAbs(ABC):
    def __init__(self, IP_address=None, verbose=True):
        self.verbose = verbose
        self.IP_address = IP_address or "127.0.0.1"
        self.port = PORT
        self.series_id = -1
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.verify_mode = ssl.CERT_REQUIRED
        context.check_hostname = False
        context.load_verify_locations("server.crt")
        self.ssl_sock = context.wrap_socket(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
        self.ssl_sock.connect((self.IP_address, self.port))

    def _recv(self):
        return self.ssl_sock.recv(1024).decode("utf8")

    def _value(self):
        return ast.literal_eval(self._recv())

    def connect_to_server(self):
        while True:
            message = self._recv()
            if self.verbose:
                print(message)
            if "username" in message:
                self.ssl_sock.send(bytes(input("Enter username: "), "utf8"))
            elif "password" in message:
                self.ssl_sock.send(bytes(getpass.getpass("Enter password: "), "utf8"))
            elif "player-name" in message:
                self.ssl_sock.send(bytes(input("Enter player-name: "), "utf8"))
            elif "qualify" in message:
                self.ssl_sock.send(bytes(input("Qualify? "), "utf8"))
            elif "stress" in message:
                self.ssl_sock.send(bytes(input("Stress? "), "utf8"))
            elif "Welcome" in message:
                self.play_tournament()
                break
            elif "Invalid credentials" in message or "Sorry" in message or not message:
                break
        self.ssl_sock.close()

    def play_tournament(self):
        while True:
            message = self._recv()
            if message == "Series start":
                unique_id, player_id_map, num_games, game_params = (self._value() for _ in range(4))
                self.series_id = [s for u, s in player_id_map if u == unique_id][0]
                self.handle_series_start(unique_id, self.series_id, player_id_map, num_games, game_params)
            elif message == "Game start":
                self.handle_game_start(self._value())
            elif message == "Game end":
                winner = self._value()
                self.handle_game_over(winner, self._value())
            elif message == "Series end":
                self.handle_series_over(self._value())
            elif message == "Tournament end":
                self.handle_tournament_over(self._value())
                break
            elif message == "Illegal action":
                state = self._value()
                self.handle_illegal_action(state, self._value())
                break
            elif not message:
                break
            else:
                state = ast.literal_eval(message)
                self.ssl_sock.send(bytes(str(self.handle_get_action(state)), "utf8"))

    @abstractmethod
    def handle_get_action(self, state): ...
    @abstractmethod
    def handle_series_start(self, unique_id, series_id, player_map, num_games, game_params): ...
    @abstractmethod
    def handle_game_start(self, start_player): ...
    @abstractmethod
    def handle_game_over(self, winner, end_state): ...
    @abstractmethod
    def handle_series_over(self, stats): ...
    @abstractmethod
    def handle_tournament_over(self, score): ...
    @abstractmethod
    def handle_illegal_action(self, state, illegal_action): ...
'''

BASE_B = '''
import getpass, json, os, socket, ssl, struct


class ActorClient:
    def __init__(self, host=None, port=None, cert=None, auth=None, qualify=None):
        self.host = host or os.environ.get("IT3105_HOST", "127.0.0.1")
        self.port = int(port or os.environ.get("IT3105_PORT", 33000))
        self.cert = cert or os.environ.get("IT3105_CERT", os.path.join(os.path.dirname(__file__), "server.crt"))
        self.auth = auth or os.environ.get("IT3105_AUTH")
        self.qualify = qualify if qualify is not None else os.environ.get("IT3105_QUALIFY")

    def _send(self, value):
        body = json.dumps(value).encode("utf-8")
        self.sock.sendall(struct.pack("i", len(body)) + body)

    def _exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def _recv(self):
        (length,) = struct.unpack("i", self._exactly(4))
        return json.loads(self._exactly(length).decode("utf-8"))

    def run(self, mode="qualifiers"):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.verify_mode = ssl.CERT_REQUIRED
        context.check_hostname = False
        context.load_verify_locations(self.cert)
        self.sock = context.wrap_socket(socket.create_connection((self.host, self.port)))
        try:
            while True:
                message = self._recv()
                topic = message.pop("topic")
                if topic == "message":
                    print(message["message"])
                elif topic == "authentication":
                    self._send(self.auth or getpass.getpass("token: "))
                elif topic == "question":
                    answer = self.qualify if self.qualify is not None else input(message["question"])
                    self._send(str(answer).lower().startswith("y"))
                elif topic == "series_start":
                    unique_id, player_map = message["unique_player_id"], message["player_id_map"]
                    series_id = [s for u, s in player_map if u == unique_id][0]
                    self.handle_series_start(unique_id, series_id, player_map, message["num_games"],
                                             message["game_params"])
                elif topic == "game_start":
                    self.handle_game_start(message["start_player"])
                elif topic == "request_action":
                    self._send(self.handle_get_action(message["state"]))
                elif topic == "game_over":
                    self.handle_game_over(message["winner"], message["end_state"])
                elif topic == "series_over":
                    self.handle_series_over(message["stats"])
                elif topic == "tournament_over":
                    self.handle_tournament_over(message["score"])
                elif topic == "error":
                    self.handle_error(message["error"])
                    break
                elif topic == "finish":
                    break
        finally:
            self.sock.close()

    def handle_series_start(self, unique_id, series_id, player_map, num_games, game_params): ...
    def handle_game_start(self, start_player): ...
    def handle_get_action(self, state): raise NotImplementedError
    def handle_game_over(self, winner, end_state): ...
    def handle_series_over(self, stats): ...
    def handle_tournament_over(self, score): ...
    def handle_error(self, error): ...
'''

RUN = {"A": "from BasicClientActor import BasicClientActor\nBasicClientActor(verbose=False).connect_to_server()\n",
       "B": "from oht_actor_b import PliesActorClient\nPliesActorClient(verbose=False).run()\n"}


@pytest.mark.parametrize("generation", ["A", "B"])
def test_our_subclass_plays_beside_the_course_base_class(certs, tmp_path, generation):
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "server.crt").write_bytes(certs[0].read_bytes())
    config = S.ServerConfig(generation=generation, sizes=(5, 6), series=2, games=2)
    with serving(certs, config) as server:
        if generation == "A":
            (folder / "BasicClientActorAbs.py").write_text(BASE_A.replace("PORT", str(server.port)))
            (folder / "BasicClientActor.py").write_text((ROOT / "adapters" / "oht_actor_a.py").read_text())
        else:
            (folder / "ActorClient.py").write_text(BASE_B)
            (folder / "oht_actor_b.py").write_text((ROOT / "adapters" / "oht_actor_b.py").read_text())
        env = dict(os.environ, PLIES_OHT_SIMULATIONS="30", PLIES_OHT_NETWORK="none", PLIES_OHT_SEED="0",
                   PLIES_OHT_RECORD="record.json",
                   IT3105_PORT=str(server.port), IT3105_AUTH="a-token", IT3105_QUALIFY="n")
        env.pop("PYTHONPATH", None)
        # no controlling terminal (a new session): getpass reads the password from stdin, as in a pipe
        done = subprocess.run([PYTHON, "-c", RUN[generation]], cwd=folder, env=env, input="student\nhunter2\nme\nn\n",
                              capture_output=True, text=True, timeout=WAIT, start_new_session=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert server.results[0].ended == "finished"
    record = json.loads((folder / "record.json").read_text())
    assert record["finished"] and record["totals"]["games"] == 4 and record["illegal"] == []
    assert [[m[:3] for m in g["moves"]] for g in record["games"]] == \
        [[list(m) for m in g["moves"]] for g in server.results[0].games]
    log = (folder / "oht-games.log").read_text()
    assert "summary: 4 games" in log and "hunter2" not in log + done.stdout + done.stderr


# ==== the command line: plies hex serve and plies hex connect, as processes =============================
def test_plies_hex_serve_and_connect(certs, tmp_path):
    cert, key = certs
    server = subprocess.Popen([PYTHON, "-m", "adapters.cli", "hex", "serve", "--cert", str(cert), "--key", str(key),
                               "--port", "0", "--generation", "B", "--sizes", "5", "7", "--series", "2", "--games", "2"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert first.startswith("listening on 127.0.0.1:"), first + server.stderr.read()
        port = first.split(":")[1].split()[0]
        client = subprocess.run([PYTHON, "-m", "adapters.cli", "hex", "connect", "--generation", "B", "--port", port,
                                 "--cert", str(cert), "--simulations", "30", "--network", "none", "--seed", "0",
                                 "--log", str(tmp_path / "g.log"), "--record", str(tmp_path / "r.json")],
                                cwd=ROOT, capture_output=True, text=True, timeout=WAIT,
                                env=dict(os.environ, IT3105_AUTH="a-token"))
        out, err = server.communicate(timeout=WAIT)
    finally:
        server.kill() if server.poll() is None else None
        server.stdout.close()
        server.stderr.close()
    assert client.returncode == 0, client.stderr
    assert server.returncode == 0, err
    assert "Series 1 on 5x5, 2 games:" in out and "Series 2 on 7x7, 2 games:" in out
    assert "player -200 (client), series id 1:" in out and "player 999 (random), series id 1:" in out
    assert "0 illegal actions" in out
    assert json.loads((tmp_path / "r.json").read_text())["totals"]["games"] == 4


def test_plies_hex_demo_prints_the_record(capsys):
    from adapters.cli import main
    assert main(["hex", "demo", "--games", "1", "--simulations", "30"]) == 0
    out = capsys.readouterr().out
    assert out.count("game 1.1: player 1 starts;") == 1 and "game 2.1:" in out
    assert "summary: 2 games" in out and "Series 2 on 5x5, 1 games:" in out
    assert "the last game's final position:" in out and "winner: player" in out
