"""Our Online Hex Tournament client (specs/oht.md), both generations, and what it shares with the
course-class subclasses (adapters/oht_actor_a.py, adapters/oht_actor_b.py): ``Settings`` (the Hex
player's, engines/players/hex.py HexSettings, and the record's), ``OHTAgent`` (the spec's handlers: the
moves are the Hex player's of the series' board size, engines/players/hex.py SizedPlayers; the record,
adapters/oht_record.py, keeps each game, each series and a log) and the command line.  The sessions,
the transport (TLS, messages and frames, ``Login``) and the one map of outcomes to exit statuses are
adapters/oht_session.py's.

A cold compiled-kernel cache costs no time on the server's clock: the agent builds its ``Compiler``
(engines/players/coldstart.py) before any engine module is imported (this module imports none), and
until the kernels are compiled in a detached process it answers each action with the Hex player's
fallback move (a shallow search over the reference rules within the move's time); then the series'
HexPlayer is built as from a warm cache.
"""
import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters import config
from adapters.config import ConfigError, setting
from adapters.oht_record import Record, move_text
from adapters.oht_session import (ENV_PASSWORD, ENV_PREFIX, ENV_USERNAME, EPILOG, EXIT_OK, TIMEOUT, Login, outcome_of,
                                  play)
from engines.players import hex as hex_player   # imports no engine (engines/players/coldstart.py)
from engines.players.coldstart import Compiler
from protocols import oht
from protocols.common import ProtocolError

SETTINGS_FILE = "plies_oht.toml"     # beside a course-class subclass
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


# ==== the agent: the spec's handlers, shared by our clients and the course-class subclasses ==========
class OHTAgent:
    """The handlers of the spec, as plain methods called with the values the spec names; moves come
    from the series' HexPlayer (``by_size``: one per board size, built at the series start), everything is
    recorded in ``record``.  ``clock`` times our thinking (from the request to the answer).
    ``compiler``: the state of the compiled-kernel cache (default: a Compiler of hex, made here);
    while it is not ready, moves are the fallback search's and no HexPlayer is built."""

    def __init__(self, settings: Settings | None = None, record: Record | None = None, clock=time.perf_counter,
                 compiler=None):
        self.compiler = compiler if compiler is not None else Compiler("hex", NAME)
        self.settings = settings or Settings()
        self.record = record or Record()
        self.clock = clock
        if self.compiler.ready():            # a warm cache: the engine's kernels are loaded now, before we
            hex_player.warm_up(self.settings)  # connect (the series start is on the server's clock)
        else:
            self._note("the compiled-kernel cache is cold: quick fallback moves until the engine is compiled")
        # the series' player: one per board size (engines/players/hex.py), fallback moves while cold
        self.by_size = hex_player.SizedPlayers(self.settings, self.compiler.ready, self._note, clock)
        self.series = None     # the current series' record entry
        self.game = None       # the current game's record entry
        self._board = None     # the board as we last knew it (to tell the opponent's stones)

    players = property(lambda self: self.by_size.players)
    player = property(lambda self: self.by_size.player)
    fallback_moves = property(lambda self: self.by_size.fallback_moves)

    # ---- series and games ----
    def series_start(self, unique_id, series_id, player_map, num_games, game_params):
        event = oht.series_event(unique_id, player_map, num_games, game_params)
        if int(series_id) != event["series_id"]:
            raise ProtocolError(f"series id {series_id} does not match the player map {event['player_map']}")
        size = event["size"]
        self.by_size.start(size)  # NetworkError for a network file of another size: before any move
        self.series = {"number": len(self.record.series) + 1, "unique_id": event["unique_id"],
                       "series_id": event["series_id"], "player_map": event["player_map"],
                       "num_games": event["num_games"], "size": size, "played": 0, "wins": 0,
                       "stats": None, "player": self.by_size.describe()}
        self.record.series.append(self.series)
        others = [uid for uid, _ in event["player_map"] if uid != event["unique_id"]]
        self.record.log(f"series {self.series['number']}: {event['num_games']} games on {size}x{size}, "
                        f"we are player {event['series_id']} (id {event['unique_id']}), "
                        f"opponent {others}; {self.series['player']}")

    def _note(self, note: str):
        self.record.notes.append(note)
        self.record.log(f"note: {note}")

    def game_start(self, start_player):
        if self.series is None:
            raise ProtocolError("a game started before any series")
        self.by_size.engine_ready()  # the compile done meanwhile: the engine is built here, off the server's clock
        size = self.by_size.size
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
        board = state if isinstance(state, oht.Board) else oht.parse_state(state, self.by_size.size)
        self._note_opponent(board)
        row, col = self.by_size.choose(board.cells, oht.engine_player(board.to_move), start)
        if self.game is not None and self._board is not None:
            self.game["moves"].append((board.to_move, row, col, self.clock() - start))
            self._board[row][col] = board.to_move
        return int(row), int(col)

    def game_over(self, winner, end_state):
        board = end_state if isinstance(end_state, oht.Board) else oht.parse_state(end_state, self.by_size.size)
        self._note_opponent(board)
        if self.game is None:
            raise ProtocolError("a game ended that never started")
        won = int(winner) == self.game["series_id"]
        self.game.update(winner=int(winner), won=won)
        self.series["played"] += 1
        self.series["wins"] += won
        moves = " ".join(move_text(p, r, c) for p, r, c, _ in self.game["moves"])
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
