"""The Online Hex Tournament (specs/oht.md): both client generations' messages, as plain values.

Generation A (``BasicClientActorAbs``): every message is one bare UTF-8 string (the client reads
each with ``recv(1024)``, one TLS record); values are Python literals, read with ``ast.literal_eval``
(never ``eval``).  Login prompts are recognised by substring; play is a header (``Series start``, ...)
followed by its values, each its own message, or a bare state literal asking for an action, answered
``str((row, col))``.
Generation B (``ActorClient``): every message both ways is a 4-byte native int length, then a UTF-8
JSON body; server messages carry a ``topic``.

A state is ``(player to move, cell, cell, ...)``: 1 + K*K ints, cells row-major, 0 empty, 1 player 1
(joins row 0 to row K-1), 2 player 2 (joins column 0 to column K-1).  ``parse_state`` turns it into a
``Board`` (size, to_move 1|2, cells grid).  Every value sent is made of plain Python ints (``plain``):
``str`` of a NumPy integer is not a literal the server accepts, and JSON cannot encode one.

Both readers turn server messages into ``Event(kind, fields)``, the same kinds for both
generations where they mean the same: the login steps (A: username, password, player-name, qualify,
stress, welcome, refused; B: authentication, question), message, series_start, game_start,
get_action, game_over, series_over, tournament_over, illegal_action (A), finish and error (B).
Malformed input raises ProtocolError.

The client's side of each generation is a pure session (``SessionA``, ``SessionB``): a table from
event kind to handler and ``handle(message) -> reply`` (the bytes to send, or None); the transport
(TLS, recv/send and B's length prefix) is the adapter's.  The kinds that end a tournament raise
its outcome after their handler: ``Quit`` (the tournament is over), ``LoginRefused``,
``ServerError`` (the server called out our action, or reported an error).  ``play_handlers(actor)``
is the table of the play events for an actor with the spec's handlers.

Wire player ids (a series id, ``state[0]``, a winner: 1 or 2) meet the engine's players (0 or 1)
only in ``engine_player``.
"""
import ast
import json
import math
import numbers
import struct
import warnings
from dataclasses import dataclass, field
from typing import Callable

from protocols.common import FatalError, ProtocolError, Quit, check_point

PORT = 33000            # the tournament's port (generation B's league used 30000)
RECV_SIZE = 1024        # generation A reads every message with recv(1024)
MIN_SIZE, MAX_SIZE = 3, 19
MAX_FRAME = 1 << 20     # generation B: a longer length prefix is taken as corrupt

# ---- generation A: play headers and how many values follow each ----------------------------------
SERIES_START, GAME_START, GAME_END = "Series start", "Game start", "Game end"
SERIES_END, TOURNAMENT_END, ILLEGAL_ACTION = "Series end", "Tournament end", "Illegal action"
HEADERS = {
    SERIES_START: ("unique_id", "player_map", "num_games", "game_params"),
    GAME_START: ("start_player",),
    GAME_END: ("winner", "end_state"),
    SERIES_END: ("stats",),
    TOURNAMENT_END: ("score",),
    ILLEGAL_ACTION: ("state", "action"),
}
# login prompts by substring, in the order the client tests them; then the words that start or end play
PROMPTS = ("username", "password", "player-name", "qualify", "stress")
WELCOME = "Welcome"
REFUSALS = ("Invalid credentials", "Sorry")

# ---- generation B: topics and their fields ------------------------------------------------------
LENGTH = struct.Struct("i")  # native byte order and a 4-byte int, as the course's client packs it
TOPICS = {
    "message": ("message",),
    "authentication": (),
    "question": ("question",),
    "series_start": ("unique_player_id", "player_id_map", "num_games", "game_params"),
    "game_start": ("start_player",),
    "request_action": ("state",),
    "game_over": ("winner", "end_state"),
    "series_over": ("stats",),
    "tournament_over": ("score",),
    "finish": (),
    "error": ("error",),
}


class LoginRefused(FatalError):
    """The server refused our login (generation A: "Invalid credentials", "Sorry ...")."""


class ServerError(FatalError):
    """The server ended the tournament over our doing: it called out an action of ours (A) or sent
    an error (B)."""


def engine_player(wire_player: int) -> int:
    """The engine's player (0 joins the rows, 1 the columns) of a wire player id (1 or 2)."""
    return int(wire_player) - 1


@dataclass(frozen=True)
class Board:
    """A state of the wire: board size, the player to move (1 or 2) and the cells (rows of 0/1/2)."""
    size: int
    to_move: int
    cells: tuple

    def flat(self) -> tuple:
        """The wire form: (to_move, cell, cell, ...)."""
        return (self.to_move,) + tuple(v for row in self.cells for v in row)


@dataclass(frozen=True)
class Event:
    kind: str
    fields: dict = field(default_factory=dict)

    def __getitem__(self, name):
        return self.fields[name]


# ---- plain values -------------------------------------------------------------------------------
def plain(value):
    """value with every number a plain int/float (NumPy scalars converted), tuples and lists kept;
    ProtocolError for anything that is not a literal (or JSON) value."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        if not math.isfinite(value):
            raise ProtocolError(f"{value!r} is not a finite number")
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    raise ProtocolError(f"cannot send {type(value).__name__} {value!r}: not a plain value")


def literal(text):
    """The Python literal in text (ast.literal_eval, never eval); ProtocolError when it is not one."""
    if isinstance(text, bytes):
        text = decode_text(text)
    try:
        with warnings.catch_warnings():  # odd text makes the compiler warn on stderr
            warnings.simplefilter("ignore")
            return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        raise ProtocolError(f"not a Python literal: {text[:60]!r}") from None


def decode_text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(f"not UTF-8 text: {data[:40]!r}") from None


def _int(value, name: str, low=None, high=None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ProtocolError(f"{name} must be an integer, got {value!r}"[:120])
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ProtocolError(f"{name} must be in {low}..{high}, got {value}")
    return value


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise ProtocolError(f"{name} must be a number, got {value!r}"[:120])
    return value


def _sequence(value, name: str) -> tuple:
    if not isinstance(value, (tuple, list)):
        raise ProtocolError(f"{name} must be a list or tuple, got {value!r}"[:120])
    return tuple(value)


# ---- states and actions -------------------------------------------------------------------------
def parse_state(value, size: int | None = None) -> Board:
    """A Board from a flat state (1 + K*K ints: the player to move, then the cells row-major).
    size: the board size the series announced (None: any K in MIN_SIZE..MAX_SIZE)."""
    value = _sequence(value, "a state")
    cells = len(value) - 1
    k = math.isqrt(max(cells, 0))
    if size is not None and cells != size * size:
        raise ProtocolError(f"a state of a {size}x{size} board has {1 + size * size} values, got {len(value)}")
    if k * k != cells or not MIN_SIZE <= k <= MAX_SIZE:
        raise ProtocolError(f"a state has 1 + K*K values (K in {MIN_SIZE}..{MAX_SIZE}), got {len(value)}")
    to_move = _int(value[0], "the player to move (state[0])", 1, 2)
    flat = [_int(v, "a cell", 0, 2) for v in value[1:]]
    return Board(k, to_move, tuple(tuple(flat[r * k:(r + 1) * k]) for r in range(k)))


def format_state(to_move: int, cells) -> tuple:
    """The flat wire state (plain ints) of a player to move (1 or 2) and a K x K grid."""
    rows = [[int(v) for v in row] for row in cells]
    return parse_state([int(to_move)] + [v for row in rows for v in row], len(rows)).flat()


def format_action(point, size: int) -> str:
    """'(r, c)' for generation A (bare text)."""
    point = check_point(point, size)
    if point is None:
        raise ProtocolError("hex has no pass")
    return str((int(point[0]), int(point[1])))


def parse_action(text: str, size: int):
    """(row, col) from '(r, c)' or '[r, c]'; ProtocolError otherwise."""
    try:
        value = literal(text) if isinstance(text, str) else None
    except ProtocolError:
        value = None
    return check_action(value, size, text)


def check_action(value, size: int, shown=None):
    """(row, col) from a decoded pair (a JSON list or a literal tuple); ProtocolError otherwise."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise ProtocolError(f"bad action {str(value if shown is None else shown)[:40]!r}: expected (row, col)")
    return check_point(tuple(value), size)


# ---- the events both readers produce ------------------------------------------------------------
def series_event(unique_id, player_map, num_games, game_params) -> Event:
    """series_start, with our series id found in the player map."""
    unique_id = _int(unique_id, "unique_id")
    pairs = []
    for entry in _sequence(player_map, "player_id_map"):
        pair = _sequence(entry, "a player_id_map entry")
        if len(pair) != 2:
            raise ProtocolError(f"a player_id_map entry is (unique id, series id), got {entry!r}"[:120])
        pairs.append((_int(pair[0], "a unique id"), _int(pair[1], "a series id", 1, 2)))
    ours = [series for uid, series in pairs if uid == unique_id]
    if len(ours) != 1:
        raise ProtocolError(f"unique id {unique_id} is not once in the player map {pairs}")
    params = _sequence(game_params, "game_params")
    if not params:
        raise ProtocolError("game_params is empty: the board size is game_params[0]")
    return Event("series_start", {
        "unique_id": unique_id, "series_id": ours[0], "player_map": pairs,
        "num_games": _int(num_games, "num_games", 0), "game_params": list(params),
        "size": _int(params[0], "the board size (game_params[0])", MIN_SIZE, MAX_SIZE)})


def _stats(stats) -> list:
    rows = []
    for row in _sequence(stats, "stats"):
        row = _sequence(row, "a stats entry")
        if len(row) != 4:
            raise ProtocolError(f"a stats entry is (unique id, series id, wins, losses), got {row!r}"[:120])
        rows.append((_int(row[0], "a unique id"), _int(row[1], "a series id", 1, 2),
                     _int(row[2], "wins", 0), _int(row[3], "losses", 0)))
    return rows


def play_event(kind: str, values: dict, size: int | None) -> Event:
    """A checked event of a play message (the kinds of generation A's headers and B's topics)."""
    if kind == "series_start":
        return series_event(values["unique_id"], values["player_map"], values["num_games"], values["game_params"])
    if kind == "game_start":
        return Event(kind, {"start_player": _int(values["start_player"], "start_player", 1, 2)})
    if kind == "get_action":
        return Event(kind, {"state": parse_state(values["state"], size)})
    if kind == "game_over":
        return Event(kind, {"winner": _int(values["winner"], "winner", 1, 2),
                            "end_state": parse_state(values["end_state"], size)})
    if kind == "series_over":
        return Event(kind, {"stats": _stats(values["stats"])})
    if kind == "tournament_over":
        return Event(kind, {"score": _number(values["score"], "score")})
    if kind == "illegal_action":
        return Event(kind, {"state": parse_state(values["state"], size), "action": values["action"]})
    raise ProtocolError(f"unknown message kind {kind!r}")


# ---- generation A -------------------------------------------------------------------------------
A_KINDS = {SERIES_START: "series_start", GAME_START: "game_start", GAME_END: "game_over",
           SERIES_END: "series_over", TOURNAMENT_END: "tournament_over", ILLEGAL_ACTION: "illegal_action"}


def login_prompt(text: str) -> str:
    """What a login message asks, by substring as the course's client tests it: one of PROMPTS,
    "welcome" (play starts), "refused", or "message" (only to be shown)."""
    for word in PROMPTS:
        if word in text:
            return word
    if WELCOME in text:
        return "welcome"
    if any(word in text for word in REFUSALS):
        return "refused"
    return "message"


def encode_a(value) -> bytes:
    """One generation-A message: a string as it is, any other value as its plain literal."""
    return (value if isinstance(value, str) else str(plain(value))).encode("utf-8")


class ReaderA:
    """Generation A's server messages, one at a time, to Events (``feed`` returns None while a
    header's values are still coming).  Login first (events named by ``login_prompt``, with the
    text), then play."""

    def __init__(self):
        self.playing = False
        self.size = None        # the board size of the current series
        self._header = None
        self._values = {}

    def feed(self, data) -> Event | None:
        text = decode_text(data) if isinstance(data, bytes) else data
        if not self.playing:
            prompt = login_prompt(text)
            self.playing = prompt == "welcome"
            return Event(prompt, {"text": text})
        if self._header is None:
            if text in HEADERS:
                self._header, self._values = text, {}
                return None
            return play_event("get_action", {"state": literal(text)}, self.size)
        names = HEADERS[self._header]
        self._values[names[len(self._values)]] = literal(text)
        if len(self._values) < len(names):
            return None
        header, self._header = self._header, None
        event = play_event(A_KINDS[header], self._values, self.size if header != SERIES_START else None)
        if event.kind == "series_start":
            self.size = event["size"]
        return event


# ---- generation B -------------------------------------------------------------------------------
def encode_json(value) -> bytes:
    """A generation-B message body: the UTF-8 JSON of a plain value."""
    return json.dumps(plain(value), allow_nan=False).encode("utf-8")


def frame(body: bytes) -> bytes:
    """A generation-B frame: the body's length, then the body."""
    return LENGTH.pack(len(body)) + body


def encode_b(value) -> bytes:
    """One generation-B frame of a plain value."""
    return frame(encode_json(value))


def frame_length(prefix: bytes) -> int:
    """The body length of a frame from its 4-byte prefix; ProtocolError when it cannot be one."""
    if len(prefix) != LENGTH.size:
        raise ProtocolError(f"a length prefix has {LENGTH.size} bytes, got {len(prefix)}")
    (length,) = LENGTH.unpack(prefix)
    if not 0 < length <= MAX_FRAME:
        raise ProtocolError(f"bad length prefix {length} (a message is 1..{MAX_FRAME} bytes): the stream is corrupt")
    return length


def decode_b(body: bytes):
    """The JSON value of a frame body; ProtocolError when it is not UTF-8 JSON."""
    try:
        return json.loads(decode_text(body))
    except (ValueError, RecursionError):
        raise ProtocolError(f"not a JSON message: {body[:60]!r}") from None


B_KINDS = {"series_start": "series_start", "game_start": "game_start", "request_action": "get_action",
           "game_over": "game_over", "series_over": "series_over", "tournament_over": "tournament_over"}


def parse_b(message, size: int | None = None) -> Event:
    """An Event from a decoded server message {"topic": ..., fields}; size: the series' board size."""
    if not isinstance(message, dict) or not isinstance(message.get("topic"), str):
        raise ProtocolError(f"a server message is an object with a topic, got {str(message)[:60]!r}")
    topic = message["topic"]
    if topic not in TOPICS:
        raise ProtocolError(f"unknown topic {topic[:40]!r}")
    missing = [name for name in TOPICS[topic] if name not in message]
    if missing:
        raise ProtocolError(f"topic {topic!r} lacks {', '.join(missing)}")
    if topic == "series_start":
        return series_event(message["unique_player_id"], message["player_id_map"], message["num_games"],
                            message["game_params"])
    if topic in B_KINDS:
        return play_event(B_KINDS[topic], dict(message), size)
    if topic in ("message", "question", "error"):
        return Event(topic, {"text": str(message[TOPICS[topic][0]])})
    return Event(topic)


# ==== the client's sessions: a table from event kind to handler, handle(message) -> reply ===========
Handler = Callable[[Event], object]   # an event -> the value to reply (None: no reply)
PLAY_KINDS = ("series_start", "game_start", "get_action", "game_over", "series_over", "tournament_over")


def play_handlers(actor) -> dict[str, Handler]:
    """The play events' table for an actor with the spec's handlers, called with the event's values:
    series_start(unique_id, series_id, player_map, num_games, game_params), game_start(start_player),
    get_action(state) -> (row, col), game_over(winner, end_state), series_over(stats),
    tournament_over(score), illegal_action(state, action)."""
    return {
        "series_start": lambda e: actor.series_start(e["unique_id"], e["series_id"], e["player_map"],
                                                     e["num_games"], e["game_params"]),
        "game_start": lambda e: actor.game_start(e["start_player"]),
        "get_action": lambda e: actor.get_action(e["state"]),
        "game_over": lambda e: actor.game_over(e["winner"], e["end_state"]),
        "series_over": lambda e: actor.series_over(e["stats"]),
        "tournament_over": lambda e: actor.tournament_over(e["score"]),
        "illegal_action": lambda e: actor.illegal_action(e["state"], e["action"]),
    }


class TournamentSession:
    """The client's side of one generation: ``handle(message)`` reads a server message (``event``),
    calls its kind's handler and returns the reply's bytes (``encode``), or None when there is none
    (a message whose values are still coming, or a handler that answers nothing).  After the handler
    of a kind in ``ends`` (a kind that ends the tournament may have none), the session raises that
    kind's outcome.  Every other kind of the generation (``kinds``) needs a handler."""
    kinds: tuple = ()
    ends: dict = {}   # kind -> event -> the outcome (an exception) raised after its handler

    def __init__(self, handlers: dict[str, Handler]):
        missing = [kind for kind in self.kinds if kind not in handlers and kind not in self.ends]
        if missing:
            raise ValueError(f"{type(self).__name__} needs a handler for {', '.join(missing)}")
        self.handlers = dict(handlers)

    def event(self, message) -> Event | None:
        raise NotImplementedError

    def encode(self, value) -> bytes:
        raise NotImplementedError

    def handle(self, message) -> bytes | None:
        event = self.event(message)
        if event is None:
            return None
        handler = self.handlers.get(event.kind)
        reply = handler(event) if handler is not None else None
        if event.kind in self.ends:
            raise self.ends[event.kind](event)
        return None if reply is None else self.encode(reply)


class SessionA(TournamentSession):
    """Generation A: a message is the bytes of one recv(1024); a reply is a bare string (a login
    answer) or a literal (the action)."""
    kinds = PROMPTS + ("welcome", "refused", "message") + PLAY_KINDS + ("illegal_action",)
    ends = {
        "refused": lambda e: LoginRefused(f"login refused: {e['text'].strip()}"),
        "tournament_over": lambda e: Quit(),
        "illegal_action": lambda e: ServerError(f"the server called out our action {e['action']!r}; it disconnects"),
    }

    def __init__(self, handlers: dict[str, Handler]):
        super().__init__(handlers)
        self.reader = ReaderA()

    def event(self, message) -> Event | None:
        return self.reader.feed(message)

    def encode(self, value) -> bytes:
        return encode_a(value)


class SessionB(TournamentSession):
    """Generation B: a message is a frame's body (the transport strips the length prefix); a reply
    is a body of JSON (the transport adds the prefix)."""
    kinds = ("message", "authentication", "question") + PLAY_KINDS + ("finish", "error")
    ends = {
        "finish": lambda e: Quit(),
        "error": lambda e: ServerError(f"server error: {e['text']}"),
    }

    def __init__(self, handlers: dict[str, Handler]):
        super().__init__(handlers)
        self.size = None   # the board size of the current series

    def event(self, message: bytes) -> Event:
        event = parse_b(decode_b(message), self.size)
        if event.kind == "series_start":
            self.size = event["size"]
        return event

    def encode(self, value) -> bytes:
        return encode_json(value)
