"""The Online Hex Tournament client's sessions over the wire (specs/oht.md), for adapters/oht_client.py:
protocols/oht.py's SessionA / SessionB with an agent's handlers and the login answers (``Login``); the
transport (TLS trusting only the given server certificate, host name unchecked as the course's
clients do; a socket timeout; generation A's messages one recv(1024) each, B's length-prefixed
frames); and OUTCOMES, the one map of how a session ends (an exception) to an exit status and a line
of the record (``play``; the socket is closed in every case).  The password (A) and the token (B) are
read only when the server asks (PLIES_OHT_PASSWORD, IT3105_AUTH, or getpass), sent, and dropped:
never kept, logged or printed.
"""
import getpass
import os
import socket
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path

from adapters.config import ConfigError
from engines.errors import NetworkError
from protocols import oht
from protocols.common import EndOfInput, ProtocolError, Quit

TIMEOUT = 600.0                      # seconds a client waits for the next server message
ENV_PASSWORD = "PLIES_OHT_PASSWORD"  # generation A's password, if not typed (never stored)
ENV_USERNAME = "PLIES_OHT_USERNAME"
ENV_TOKEN = "IT3105_AUTH"            # generation B's token, as the course's ActorClient reads it
ENV_PREFIX = "PLIES_OHT"             # PLIES_OHT_<KEY> overrides a setting (adapters/oht_client.py)


class ConnectionClosed(EndOfInput):
    """The server closed the connection (or it dropped) before the tournament was over."""


class NoCredentials(Exception):
    """A login answer the server asks for is in no option or variable, and there is no terminal to type it."""


class CertificateError(Exception):
    """The --cert file is missing or holds no certificate (we never connected)."""


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


# ==== the sessions: the agent's handlers and the login answers ======================================
def _yes_no(flag: bool) -> str:
    return "y" if flag else "n"


def session_a(agent, login: Login) -> oht.SessionA:
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


def session_b(agent, login: Login) -> oht.SessionB:
    def question(event):
        agent.record.log(f"server asks: {event['text']} -> {'yes' if login.qualify else 'no'}")
        return bool(login.qualify)
    return oht.SessionB({
        **oht.play_handlers(agent),
        "message": lambda event: agent.record.log(f"server: {event['text']}"),
        "authentication": lambda event: login.secret(ENV_TOKEN, "token: "),   # sent, not kept
        "question": question,
    })


GENERATIONS = {  # generation -> (its session, how a message is read, how a reply is sent)
    "A": (session_a, recv_message, lambda sock, reply: sock.sendall(reply)),
    "B": (session_b, recv_frame, send_frame),
}


def play(generation: str, host: str, port: int, cert, agent, login: Login,
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
