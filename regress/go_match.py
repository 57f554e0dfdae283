"""A referee of Go matches between two GTP engines (plies-gtp, GNU Go, another plies, any GTP v2
engine): ``plies go match`` (also ``python -m regress.go_match``).

    plies go match --a "plies-gtp" --b "/usr/games/gnugo --mode gtp --level 10 --chinese-rules" \\
        --size 9 --komi 7 --games 100 --sgf-dir games --move-cap 300 --time-per-move 10 --seed 1

How a match is refereed:
  * Engines.  Engine A (``--a``, also ``--black``) and engine B (``--b``, also ``--white``) are each
    one process for the whole match (restarted before the next game when one was killed or died).
    Colours alternate: A takes Black in the odd games (1, 3, ...), B in the even ones
    (``--fixed-colours``: A is Black in every game).  ``{seed}`` in a command is replaced by the
    match's ``--seed`` for A and the seed + 1 for B.  A long match can be played in parts: ``--games
    20 --first-game 21`` plays games 21 to 40, with their colours and SGF names; ``summarise`` adds
    the parts' records and genmove times into one summary.
  * Set-up of every game: ``boardsize``, ``clear_board``, ``komi`` and, with ``--time-settings MAIN
    BYOYOMI STONES``, ``time_settings`` (Canadian overtime as GTP defines it).  A refused set-up
    command stops the match (exit status 4): that engine cannot play this match.
  * Moves.  ``genmove`` to the side to move, ``play`` to the other.  Every move is checked with
    plies' own rules (engines.games.go, ``--rules standard``: simple ko, suicide illegal; or
    ``superko``: positional superko).  A side loses at once (by forfeit) when its move is not a
    move, is illegal, when it refuses (``?``) a legal ``play`` or a ``genmove``, when it exits or
    garbles its output (crash), or when it does not answer ``genmove`` within ``--time-per-move``
    seconds of wall time (timeout: the engine is killed; with ``--time-settings`` the referee also
    keeps each side's clock, sends ``time_left`` before every ``genmove`` and a side whose clock
    runs out loses on time).
  * The end: two passes in a row, a resignation, or the move cap (``--move-cap``, passes counted;
    default 3 x size x size), which ends the game where it stands.
  * Scoring (two passes or the cap): by area (stones and the empty regions bordered by one colour
    only) with komi, on the final board after removing the stones that BOTH engines list with
    ``final_status_list dead`` (an engine that cannot answer it is left out).  When the two lists
    differ and both engines know ``kgs-genmove_cleanup``, they play on (a cleanup phase, as on KGS:
    that genmove captures the stones its engine thinks dead before passing; up to size x size more
    moves) until two passes again, and the game is scored again (``--no-cleanup``: score at once).
    A disagreement that remains is reported in the game's record, with the result each engine's own
    list gives.
  * Records.  Every game is written as SGF (sgfmill) in ``--sgf-dir``: SZ, KM, RU, PB/PW (the
    engines' GTP names and A/B), DT, RE (``B+3``, ``W+R`` resignation, ``B+T`` time, ``W+F``
    forfeit, ``0`` a draw), the moves, and a comment at the end saying how the game ended and any
    disagreement on dead stones.
  * gogui-twogtp's output (``--sgffile PREFIX``, twogtp's own option): the result table PREFIX.dat in
    twogtp's format (regress/twogtp_table.py; ``gogui-twogtp -analyze PREFIX.dat`` reads it), one row
    per game, and each game as PREFIX-N.sgf with N = the game's number - 1 (twogtp counts from 0; A is
    twogtp's -black program, so A Black in the odd games is twogtp's -alternate).  With it the
    referee also asks each engine for ``final_score`` at the end of a scored game and for GTP
    ``cputime`` (when it knows it) around every game.  A table that exists is continued: a match in
    parts (``--first-game``) appends its rows under the same header; a game already in it, another
    size or komi, or a file that is no twogtp table stops the match before it starts (exit status 2).
  * The table: wins of each engine overall and by colour (a draw counts half), the win rate with its
    95 % Wilson interval, and each side's wall time per ``genmove`` (median and max); how the games
    ended and which had a dead-stone disagreement.  ``--json FILE`` writes it as JSON too.

Exit statuses (``main``): 0 the match was played (whatever its result); 1 interrupted (Ctrl-C: the
table of the games played so far is printed); 2 bad arguments (a --sgffile table that cannot be
continued too); 3 an engine cannot be started (no such program) or the SGF folder / JSON file / the
--sgffile files cannot be written or read; 4 an engine refused the set-up of a
game (board size, komi, time settings).

The API: ``MatchConfig`` (the settings), ``Match(config).run(progress)`` -> ``MatchResult``
(``games``: a ``GameRecord`` each; ``table()``, ``summary()``), ``summarise``, ``play_game``, ``Clock``,
``wilson``.
"""
import argparse
import datetime
import json
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf

from engines.games.go import Go
from protocols.common import PASS, ProtocolError
from protocols.gtp import format_vertex, parse_vertex
from regress import twogtp_table as twogtp
from regress.gtp_client import EngineFailure, EngineTimeout, GtpClient, GtpFailure

COLOURS = ("b", "w")
COLOUR_NAMES = ("Black", "White")
RULES = ("standard", "superko")
LABELS = ("A", "B")
EXIT_OK, EXIT_INTERRUPTED, EXIT_USAGE, EXIT_FILES, EXIT_SETUP = 0, 1, 2, 3, 4
COMMAND_TIMEOUT = 120.0  # seconds for any command but genmove (start-up of a cold engine included)
MOVE_CAP_PER_POINT = 3   # default move cap: 3 x size x size moves, passes included

# how a game ended (GameRecord.reason) and the letter of SGF's RE for the forfeits
SCORE, CAP, RESIGN, ILLEGAL, REFUSED, TIMEOUT, TIME, CRASH = (
    "score", "move cap", "resignation", "illegal move", "refused", "timeout", "time", "crash")
REASONS = (SCORE, CAP, RESIGN, ILLEGAL, REFUSED, TIMEOUT, TIME, CRASH)
RE_LETTER = {RESIGN: "R", TIME: "T", TIMEOUT: "T"}  # the other forfeits are F
CLEANUP = "kgs-genmove_cleanup"  # the genmove of a cleanup phase (captures dead stones, passes last)
ENGINE_ERRORS = (ILLEGAL, REFUSED, CRASH, "failure")  # games twogtp's table marks ERR 1 (an engine failed)


class MatchError(Exception):
    """The match cannot go on: the message and the exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate over n games (draws counted half in the rate)."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Clock:
    """One side's clock under GTP's time_settings (Canadian overtime): ``main`` seconds, then
    periods of ``byoyomi`` seconds for ``stones`` moves each.  ``byoyomi`` 0 is absolute time;
    ``byoyomi`` > 0 with ``stones`` 0 means no time limit (as GTP defines it)."""

    def __init__(self, main: float, byoyomi: float, stones: int):
        self.main, self.byoyomi, self.stones = float(main), float(byoyomi), int(stones)
        self.unlimited = self.byoyomi > 0 and self.stones == 0
        self.period = None   # seconds left in the current overtime period; None while in main time
        self.period_stones = 0

    def available(self) -> float:
        """The most this move may take before the clock runs out."""
        if self.unlimited:
            return math.inf
        if self.period is None:
            return self.main + (self.byoyomi if self.stones else 0.0)
        return self.period

    def time_left(self) -> tuple[int, int]:
        """GTP's time_left arguments: (seconds, 0) in main time, (seconds, stones) in overtime."""
        if self.period is None:
            return int(self.main), 0
        return int(self.period), self.period_stones

    def spend(self, seconds: float) -> bool:
        """Charge one move; False when the clock ran out on it."""
        if self.unlimited:
            return True
        if self.period is None:
            if seconds <= self.main:
                self.main -= seconds
                return True
            seconds -= self.main
            self.main = 0.0
            if not self.stones:
                return False
            self.period, self.period_stones = self.byoyomi, self.stones
        self.period -= seconds
        if self.period < 0:
            return False
        self.period_stones -= 1
        if self.period_stones == 0:
            self.period, self.period_stones = self.byoyomi, self.stones
        return True


@dataclass(frozen=True)
class MatchConfig:
    """The settings of one match (the flags of ``plies go match``)."""
    a: str                      # engine A's command line (Black in the odd games)
    b: str                      # engine B's command line
    size: int = 9
    komi: float = 7.0
    games: int = 2
    first_game: int = 1         # the number of the first game: a match in parts keeps colours and SGF names
    rules: str = "standard"     # standard (simple ko) | superko (positional)
    move_cap: int | None = None  # moves (passes included) before a game is stopped and scored; None: 3 n^2
    time_per_move: float | None = None  # wall seconds a genmove may take (None: no limit)
    time_settings: tuple | None = None  # (main, byoyomi, stones) sent with time_settings; clocks kept
    sgf_dir: str | None = None  # where game-NNN.sgf go (None: not written)
    sgffile: str | None = None  # gogui-twogtp's -sgffile: PREFIX.dat (rows appended) and PREFIX-N.sgf
    seed: int = 0               # replaces {seed} in the commands (A: seed, B: seed + 1)
    alternate: bool = True      # A Black in odd games, B in even ones; False: A always Black
    command_timeout: float = COMMAND_TIMEOUT
    cleanup: bool = True        # on a dead-stone disagreement, play on with kgs-genmove_cleanup (when both can)
    cwd: str | None = None      # where the engines run (None: the current folder)

    def __post_init__(self):
        if self.sgffile is not None and not str(self.sgffile).strip():
            raise ValueError("the --sgffile prefix is empty; name the files, e.g. --sgffile games/match")
        if self.rules not in RULES:
            raise ValueError(f"the referee's rules are {' or '.join(RULES)}, got {self.rules!r}")
        Go(self.size, komi=self.komi, rules=self.rules)  # checks the size and the komi
        if not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"games must be at least 1, got {self.games!r}")
        if not isinstance(self.first_game, int) or self.first_game < 1:
            raise ValueError(f"the first game's number must be at least 1, got {self.first_game!r}")
        if self.move_cap is not None and (not isinstance(self.move_cap, int) or self.move_cap < 1):
            raise ValueError(f"the move cap must be at least 1, got {self.move_cap!r}")
        for name in ("time_per_move", "command_timeout"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and 0 < value < math.inf):
                raise ValueError(f"{name.replace('_', ' ')} must be a positive number of seconds, got {value!r}")
        if self.time_settings is not None:
            main, byo, stones = self.time_settings
            if min(main, byo, stones) < 0 or int(stones) != stones or not all(map(math.isfinite, (main, byo))):
                raise ValueError(f"time settings are MAIN BYOYOMI STONES, non-negative (stones whole), "
                                 f"got {self.time_settings!r}")
            if main == byo == 0:
                raise ValueError("time settings 0 0 leave no time at all (byoyomi > 0 with 0 stones: no limit)")

    @property
    def cap(self) -> int:
        return self.move_cap or MOVE_CAP_PER_POINT * self.size * self.size

    def command(self, label: str) -> str:
        text, seed = (self.a, self.seed) if label == "A" else (self.b, self.seed + 1)
        return text.replace("{seed}", str(seed))


@dataclass
class GameRecord:
    """One refereed game.  ``winner`` is the winning colour (0 Black, 1 White, None a draw);
    ``margin`` Black's area minus White's and komi (scored games); ``views`` each engine's margin with
    its own dead stones (when they disagree); ``dead`` the vertices each engine listed."""
    number: int
    black: str                  # "A" or "B"
    white: str
    moves: list = field(default_factory=list)      # (colour, point or PASS), view points (row 0 at the top)
    winner: int | None = None
    reason: str = ""
    margin: float | None = None
    dead: dict = field(default_factory=dict)       # label -> sorted vertices, or None (no answer)
    views: dict = field(default_factory=dict)      # label -> margin, when the lists differ
    disagreement: bool = False
    cleanup_from: int | None = None                # the first move of a cleanup phase (1-based)
    notes: list = field(default_factory=list)
    sgf: str | None = None
    seconds: dict = field(default_factory=dict)    # label -> wall seconds of its genmoves in this game
    cpu: dict = field(default_factory=dict)        # label -> CPU seconds by GTP cputime (with --sgffile)
    scores: dict = field(default_factory=dict)     # label -> its final_score answer or '?' (with --sgffile)

    def label_of(self, colour: int) -> str:
        return (self.black, self.white)[colour]

    @property
    def winner_label(self) -> str | None:
        return None if self.winner is None else self.label_of(self.winner)

    @property
    def result(self) -> str:
        """SGF's RE: 'B+3', 'W+0.5', 'B+R', 'W+T', 'B+F', '0' (a draw)."""
        if self.winner is None:
            return "0"
        side = "BW"[self.winner]
        if self.reason in (SCORE, CAP):
            return f"{side}+{abs(self.margin):g}"
        return f"{side}+{RE_LETTER.get(self.reason, 'F')}"

    def summary(self) -> dict:
        return {"game": self.number, "black": self.black, "white": self.white, "result": self.result,
                "winner": self.winner_label, "reason": self.reason, "moves": len(self.moves),
                "margin": self.margin, "disagreement": self.disagreement, "views": self.views,
                "dead": self.dead, "cleanup_from": self.cleanup_from, "notes": self.notes, "sgf": self.sgf,
                "seconds": self.seconds}


class Player:
    """One engine of the match: its label (A/B), command and process (started, and restarted after
    a failure, by ``ensure``), its GTP name and the wall seconds of all its genmoves."""

    def __init__(self, label: str, command: str, config: MatchConfig):
        self.label, self.command, self.config = label, command, config
        self.client = None
        self.name = label
        self.gtp_name, self.version = label, ""  # the answers to name and version
        self.seconds = []
        self.starts = []  # indices into seconds of each process's first genmove (it may load the engine)
        self.known = {}  # command -> known_command's answer, for the running process

    def ensure(self):
        if self.client is not None and self.client.alive:
            return
        if self.client is not None:
            self.client.close(timeout=1)
        self.starts.append(len(self.seconds))
        try:
            self.client = GtpClient(self.command, cwd=self.config.cwd)
        except FileNotFoundError as err:
            raise MatchError(f"engine {self.label} cannot be started: {err.filename or self.command}: no such "
                             f"program; check the command {self.command!r}", EXIT_FILES) from None
        except PermissionError as err:
            raise MatchError(f"engine {self.label} cannot be started: {err}; check the command "
                             f"{self.command!r}", EXIT_FILES) from None
        answers = {}
        for command in ("name", "version"):
            ok, text = self.client.send(command, timeout=self.config.command_timeout)
            answers[command] = " ".join(text.split()) if ok else ""
        self.gtp_name, self.version = answers["name"] or self.label, answers["version"]
        self.name = " ".join(a for a in answers.values() if a) or self.label
        self.known = {}

    def supports(self, command: str) -> bool:
        """Whether the engine says ``known_command COMMAND`` is true (asked once per process)."""
        if command not in self.known:
            try:
                ok, text = self.send(f"known_command {command}")
            except EngineFailure:
                ok, text = False, ""
            self.known[command] = ok and text.strip().lower() == "true"
        return self.known[command]

    def send(self, line: str, timeout: float | None = None) -> tuple[bool, str]:
        return self.client.send(line, self.config.command_timeout if timeout is None else timeout)

    def cputime(self) -> float | None:
        """The engine's CPU seconds by GTP ``cputime``, or None when it does not know it or fails."""
        if not self.supports("cputime"):
            return None
        try:
            ok, text = self.send("cputime")
            return float(text) if ok and math.isfinite(float(text)) else None
        except (EngineFailure, ValueError):
            return None

    def final_score(self) -> str:
        """The engine's own ``final_score`` (as twogtp records it), or '?' when it gives none."""
        try:
            ok, text = self.send("final_score")
        except EngineFailure:
            return "?"
        words = text.split()
        return words[0] if ok and words else "?"

    def ok(self, line: str) -> str:
        return self.client.ok(line, self.config.command_timeout)

    def genmove(self, colour: int, timeout: float | None, command: str = "genmove") -> str:
        before = len(self.client.seconds)
        try:
            return self.client.genmove(COLOURS[colour], timeout, command)
        finally:
            self.seconds.extend(self.client.seconds[before:])

    def close(self):
        if self.client is not None:
            self.client.close(timeout=5)


def _forfeit(record: GameRecord, loser: int, reason: str, text: str):
    record.winner = 1 - loser
    record.reason = reason
    record.notes.append(f"{COLOUR_NAMES[loser]} ({record.label_of(loser)}) {text}; "
                        f"{COLOUR_NAMES[1 - loser]} wins")


def area_margin(game: Go, state, dead=()) -> float:
    """Black's area minus White's and komi on the board of state without the stones at the points
    ``dead`` (view points)."""
    cells = game.cells(state).copy()
    for point in dead:
        cells[point] = 0
    return game.score(game.state_from_cells(cells, game.to_move(state)))


def dead_stones(player: Player, game: Go, state, record: GameRecord):
    """The points the engine lists with ``final_status_list dead`` (view points), or None when it
    cannot say; vertices that are no stone are left out, with a note."""
    try:
        ok, text = player.send("final_status_list dead")
    except EngineFailure as err:
        record.notes.append(f"{player.label} could not list its dead stones: {err}")
        return None
    if not ok:
        record.notes.append(f"{player.label} does not list dead stones (final_status_list dead: {text})")
        return None
    cells = game.cells(state)
    points = set()
    for word in text.split():
        try:
            point = parse_vertex(word, game.size)
        except ProtocolError:
            point = PASS
        if point is PASS or cells[point] == 0:
            record.notes.append(f"{player.label} lists {word} as dead, which is no stone: left out")
            continue
        points.add(point)
    return points


def score_game(game: Go, state, players, record: GameRecord):
    """Score a finished game by area with the dead stones both engines list (see the module's text)."""
    lists = {}
    for player in players:
        points = dead_stones(player, game, state, record)
        lists[player.label] = points
        record.dead[player.label] = None if points is None else sorted(format_vertex(p, game.size) for p in points)
    given = [points for points in lists.values() if points is not None]
    agreed = set.intersection(*given) if given else set()
    record.margin = area_margin(game, state, agreed)
    record.winner = 0 if record.margin > 0 else 1 if record.margin < 0 else None
    if len(given) == 2 and given[0] != given[1]:
        record.disagreement = True
        record.views = {label: area_margin(game, state, points) for label, points in lists.items()}
        views = ", ".join(f"{label}'s dead stones ({' '.join(record.dead[label]) or 'none'}) give "
                          f"{_margin_text(margin)}" for label, margin in record.views.items())
        record.notes.append(f"the engines disagree on dead stones: {views}; scored with the stones both "
                            f"call dead: {_margin_text(record.margin)}")


def _margin_text(margin: float) -> str:
    return "a draw" if margin == 0 else f"{'BW'[margin < 0]}+{abs(margin):g}"


def play_game(black: Player, white: Player, config: MatchConfig, number: int) -> GameRecord:
    """One game, refereed as the module's text says; the SGF is written when ``config.sgf_dir``."""
    players = (black, white)
    game = Go(config.size, komi=config.komi, rules=config.rules)
    state = game.initial_state()
    record = GameRecord(number, black.label, white.label)
    clocks = [Clock(*config.time_settings) if config.time_settings else None for _ in players]
    marks = {p.label: len(p.seconds) for p in players}  # this game's genmoves come after these
    cpu = {}
    try:
        for colour, player in enumerate(players):
            _set_up(player, config)
        if config.sgffile is not None:  # the CPU seconds twogtp's table reports, by GTP cputime
            cpu = {p.label: p.cputime() for p in players}
    except EngineFailure as err:
        _forfeit(record, colour, err.kind, f"failed at the start of the game: {err}")
        return _finish(record, config, players, marks, cpu)
    colour = 0
    passes = 0            # consecutive passes (the cleanup phase counts afresh)
    cap = config.cap      # the move cap (a cleanup phase may add size x size moves)
    cleanup = False       # in the cleanup phase: kgs-genmove_cleanup instead of genmove
    while True:
        if passes >= 2:
            score_game(game, state, players, record)
            if not (record.disagreement and config.cleanup and not cleanup
                    and all(p.supports(CLEANUP) for p in players)):
                record.reason = SCORE
                break
            record.notes.append(f"{record.notes.pop()}; so both engines play on with {CLEANUP} from move "
                                f"{len(record.moves) + 1}")
            record.cleanup_from = len(record.moves) + 1
            record.disagreement, record.views, record.dead, record.margin = False, {}, {}, None
            cleanup, passes, cap = True, 0, len(record.moves) + config.size * config.size
            state = game.resumed(state)
        if len(record.moves) >= cap:
            record.reason = CAP
            record.notes.append(f"stopped at the move cap ({cap} moves) and scored as it stands")
            score_game(game, state, players, record)
            break
        mover, other = players[colour], players[1 - colour]
        limit, clock = config.time_per_move, clocks[colour]
        try:
            if clock is not None:
                seconds, stones = clock.time_left()
                mover.send(f"time_left {COLOURS[colour]} {seconds} {stones}")
        except EngineFailure as err:
            _forfeit(record, colour, err.kind, f"failed on time_left: {err}")
            break
        if clock is not None and clock.available() < (limit or math.inf):
            limit = clock.available()
        try:
            reply = mover.genmove(colour, limit, CLEANUP if cleanup else "genmove")
        except EngineTimeout as err:
            on_clock = clock is not None and limit == clock.available()
            _forfeit(record, colour, TIME if on_clock else TIMEOUT,
                     "ran out of time" if on_clock else f"took longer than {limit:g} s for a move: {err}")
            break
        except EngineFailure as err:
            _forfeit(record, colour, err.kind, f"crashed: {err}")
            break
        except GtpFailure as err:
            _forfeit(record, colour, REFUSED, f"failed genmove: {err.text}")
            break
        if clock is not None and not clock.spend(mover.seconds[-1]):
            _forfeit(record, colour, TIME, f"ran out of time ({mover.seconds[-1]:.2f} s for its last move)")
            break
        text = reply.strip().lower()
        if text == "resign":
            record.winner, record.reason = 1 - colour, RESIGN
            record.notes.append(f"{COLOUR_NAMES[colour]} ({mover.label}) resigned")
            break
        try:
            point = parse_vertex(text, game.size)
        except ProtocolError as err:
            _forfeit(record, colour, ILLEGAL, f"answered genmove with {reply!r}, which is no move ({err})")
            break
        action = game.action_at(point)
        if cleanup and game.is_terminal(state):  # a pass in the cleanup phase ended the game for the rules
            state = game.resumed(state)
        reason = game.illegal_reason(state, action)
        if reason is not None:
            _forfeit(record, colour, ILLEGAL, f"played {text}, an illegal move ({reason.value})")
            break
        state = game.play(state, action)
        passes = passes + 1 if point is PASS else 0
        record.moves.append((colour, point))
        vertex = format_vertex(point, game.size)
        try:
            ok, refusal = other.send(f"play {COLOURS[colour]} {vertex}")
        except EngineFailure as err:
            _forfeit(record, 1 - colour, err.kind, f"failed on play {COLOURS[colour]} {vertex}: {err}")
            break
        if not ok:
            _forfeit(record, 1 - colour, REFUSED, f"refused the legal move play {COLOURS[colour]} {vertex} "
                                                  f"({refusal})")
            break
        colour = 1 - colour
    return _finish(record, config, players, marks, cpu)


def _set_up(player: Player, config: MatchConfig):
    """boardsize, clear_board, komi (and time_settings); a refusal stops the match."""
    player.ensure()
    commands = [f"boardsize {config.size}", "clear_board", f"komi {config.komi:g}"]
    if config.time_settings:
        main, byo, stones = config.time_settings
        commands.append(f"time_settings {int(main)} {int(byo)} {int(stones)}")
    for command in commands:
        try:
            player.ok(command)
        except GtpFailure as err:
            raise MatchError(f"engine {player.label} ({player.command}) refused {command!r}: {err.text}",
                             EXIT_SETUP) from None


def _finish(record: GameRecord, config: MatchConfig, players, marks: dict, cpu: dict) -> GameRecord:
    record.seconds = {p.label: sum(p.seconds[marks[p.label]:]) for p in players}
    if config.sgffile is not None:  # what twogtp's table and SGF comment add: each engine's own view
        for player in players:
            alive = player.client is not None and player.client.alive
            start, end = cpu.get(player.label), player.cputime() if alive else None
            record.cpu[player.label] = max(0.0, end - start) if start is not None and end is not None else 0.0
            if record.reason == RESIGN:
                record.scores[player.label] = record.result
            elif record.reason in (SCORE, CAP) and alive:
                record.scores[player.label] = player.final_score()
            else:
                record.scores[player.label] = "?"
    if config.sgf_dir is not None:
        path = Path(config.sgf_dir) / f"game-{record.number:03d}.sgf"
        path.write_bytes(sgf_bytes(record, config, [p.name for p in players]))
        record.sgf = str(path)
    return record


def sgf_bytes(record: GameRecord, config: MatchConfig, names, root_comment: str | None = None) -> bytes:
    """The game as SGF (sgfmill): SZ KM RU PB PW DT RE GN, the moves, a comment on the last node (and
    ``root_comment`` on the root)."""
    n = config.size
    sgf_game = sgf.Sgf_game(size=n)
    root = sgf_game.get_root()
    root.set("KM", float(config.komi))
    root.set("RU", "Chinese" if config.rules == "standard" else "Chinese (positional superko)")
    root.set("PB", f"{names[0]} ({record.black})")
    root.set("PW", f"{names[1]} ({record.white})")
    root.set("DT", datetime.date.today().isoformat())
    root.set("RE", record.result)
    root.set("GN", f"game {record.number}")
    if root_comment:
        root.set("C", root_comment)
    node = root
    for number, (colour, point) in enumerate(record.moves, 1):
        node = sgf_game.extend_main_sequence()
        node.set_move(COLOURS[colour], None if point is PASS else (n - 1 - point[0], point[1]))
        if number == record.cleanup_from:
            node.set("C", f"the engines disagreed on dead stones: a cleanup phase ({CLEANUP}) from here")
    ended = {SCORE: "two passes", CAP: "the move cap", RESIGN: "resignation"}.get(record.reason, "forfeit")
    comment = [f"Result {record.result} ({ended}, {record.reason})"] + record.notes
    node.set("C", "\n".join(comment))
    return sgf_game.serialise()


def record_points(records: list, label: str, colour: int | None = None) -> tuple[float, int]:
    """(wins + half the draws, games) of engine ``label`` in game summaries (``GameRecord.summary``), over
    all of them or those where it had ``colour``; parts of a match played apart add up this way."""
    score, played = 0.0, 0
    for record in records:
        if colour is not None and record[("black", "white")[colour]] != label:
            continue
        played += 1
        if record["winner"] is None:
            score += 0.5
        elif record["winner"] == label:
            score += 1.0
    return score, played


def genmove_timing(seconds: list, firsts) -> dict:
    """Median and max of an engine's genmove seconds, and the max without each process's first genmove
    (``firsts``: their indices; a first genmove may load the engine)."""
    if not seconds:
        return {"moves": 0, "median_s": None, "max_s": None, "max_after_first_s": None}
    firsts = set(firsts)
    later = [t for i, t in enumerate(seconds) if i not in firsts]
    return {"moves": len(seconds), "median_s": statistics.median(seconds), "max_s": max(seconds),
            "max_after_first_s": max(later) if later else None}


def summarise(head: dict, commands: dict, names: dict, records: list, seconds: dict, starts: dict) -> dict:
    """A match's summary (``MatchResult.summary``) from its settings (``head``), the engines' commands and
    names, the game summaries and each engine's genmove seconds and first genmoves: also the sum of the
    parts of a match played apart (records and seconds joined)."""
    engines = {}
    for label in LABELS:
        score, played = record_points(records, label)
        rate = score / played if played else 0.0
        engines[label] = {"command": commands[label], "name": names.get(label, label),
                          "wins": score, "games": played, "rate": rate, "ci95": list(wilson(rate, played)),
                          "as_black": record_points(records, label, 0), "as_white": record_points(records, label, 1),
                          "time": genmove_timing(seconds.get(label, []), starts.get(label, []))}
    return {**head, "games": len(records), "engines": engines,
            "draws": sum(r["winner"] is None for r in records),
            "ended_by": {reason: sum(r["reason"] == reason for r in records) for reason in REASONS},
            "disagreements": [r["game"] for r in records if r["disagreement"]], "records": records}


@dataclass
class MatchResult:
    """The games of a match so far, with the engines' names and seconds per genmove."""
    config: MatchConfig
    names: dict
    games: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)
    starts: dict = field(default_factory=dict)   # label -> indices of each process's first genmove

    def points(self, label: str, colour: int | None = None) -> tuple[float, int]:
        """(wins + half the draws, games) of an engine, over all games or with one colour."""
        return record_points([r.summary() for r in self.games], label, colour)

    def timing(self, label: str) -> dict:
        return genmove_timing(self.seconds.get(label, []), self.starts.get(label, []))

    def summary(self) -> dict:
        c = self.config
        head = {"size": c.size, "komi": c.komi, "rules": c.rules, "move_cap": c.cap, "time_per_move": c.time_per_move,
                "time_settings": c.time_settings, "alternate": c.alternate, "seed": c.seed,
                "first_game": c.first_game}
        commands = {label: c.command(label) for label in LABELS}
        return summarise(head, commands, self.names, [r.summary() for r in self.games], self.seconds, self.starts)

    def table(self) -> str:
        s = self.summary()
        head = (f"{s['games']} games on {s['size']}x{s['size']}, komi {s['komi']:g}, {s['rules']} rules, "
                f"move cap {s['move_cap']}" + (f", {s['time_per_move']:g} s a move at most"
                                               if s["time_per_move"] else "")
                + (", time settings {:g} {:g} {:g}".format(*s["time_settings"]) if s["time_settings"] else "")
                + ("; A Black in odd games" if s["alternate"] else "; A Black in every game"))
        rows = [("engine", "wins", "rate", "95% interval", "as Black", "as White", "s/move median", "max",
                 "genmoves", "name / command")]
        for label, e in s["engines"].items():
            t = e["time"]
            rows.append((label, f"{e['wins']:g}/{e['games']}", f"{100 * e['rate']:.1f}%",
                         f"{100 * e['ci95'][0]:.1f}-{100 * e['ci95'][1]:.1f}%",
                         "{:g}/{}".format(*e["as_black"]), "{:g}/{}".format(*e["as_white"]),
                         "-" if t["median_s"] is None else f"{t['median_s']:.3f}",
                         "-" if t["max_s"] is None else f"{t['max_s']:.3f}", str(t["moves"]),
                         f"{e['name']}: {e['command']}"))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        lines = [head] + ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1] for row in rows]
        ended = ", ".join(f"{reason} {count}" for reason, count in s["ended_by"].items() if count)
        cleanups = [r["game"] for r in s["records"] if r["cleanup_from"]]
        lines.append(f"ended by: {ended or '-'}; draws {s['draws']}; cleanup phases: {len(cleanups)}"
                     + (f" (games {', '.join(map(str, cleanups))})" if cleanups else "")
                     + f"; dead-stone disagreements: {len(s['disagreements'])}"
                     + (f" (games {', '.join(map(str, s['disagreements']))})" if s["disagreements"] else ""))
        return "\n".join(lines)


class TwogtpFiles:
    """gogui-twogtp's output of a match (``--sgffile PREFIX``; the format is regress/twogtp_table.py's
    text): the table PREFIX.dat, one row appended per game, and each game as PREFIX-N.sgf (N = game
    number - 1).  Engine A is twogtp's -black program, B its -white.  An existing table is continued:
    it must have twogtp's columns, the match's size and komi, and none of the games about to be played
    (a match in parts: ``--first-game``); its games' SGF files are read for the duplicate check."""

    def __init__(self, config: MatchConfig):
        self.config = config
        self.prefix = config.sgffile
        self.path = twogtp.dat_path(self.prefix)
        self.earlier = {}  # index -> the moves of the games in the table, for DUP
        self.fresh = not self.path.exists()
        if not self.fresh:
            self._check()

    def _check(self):
        config = self.config
        try:
            properties, columns, rows = twogtp.read(self.path)
        except (OSError, UnicodeDecodeError) as err:
            raise MatchError(f"cannot read {self.path}: {err}; check the file or choose another --sgffile prefix",
                             EXIT_FILES) from None
        except twogtp.TableError as err:
            raise MatchError(f"{self.path} is no gogui-twogtp table ({err}); choose another --sgffile prefix",
                             EXIT_USAGE) from None
        if tuple(columns) != twogtp.COLUMNS:
            raise MatchError(f"{self.path} is no gogui-twogtp table (its columns are {' '.join(columns) or 'none'}); "
                             f"choose another --sgffile prefix", EXIT_USAGE)
        try:
            same = (int(properties.get("Size", "")) == config.size
                    and float(properties.get("Komi", "")) == float(config.komi))
        except ValueError:
            same = False
        if not same:
            raise MatchError(f"{self.path} holds games of size {properties.get('Size', '?')}, komi "
                             f"{properties.get('Komi', '?')}, not {config.size} and {config.komi:g}; choose another "
                             f"--sgffile prefix", EXIT_USAGE)
        indices = set()
        for row in rows:
            try:
                indices.add(int(row.get("GAME", "")))
            except ValueError:
                raise MatchError(f"{self.path}: a row has no game number ({row}); choose another --sgffile "
                                 f"prefix", EXIT_USAGE) from None
        wanted = set(range(config.first_game - 1, config.first_game - 1 + config.games))
        if indices & wanted:
            first = min(indices & wanted)
            raise MatchError(f"{self.path} already holds game {first + 1} (GAME {first}); continue the match with "
                             f"--first-game {max(indices) + 2}", EXIT_USAGE)
        for index in sorted(indices):
            path = twogtp.sgf_path(self.prefix, index)
            try:
                game = sgf.Sgf_game.from_bytes(path.read_bytes())
                moves = [node.get_move() for node in game.get_main_sequence()[1:]]
            except (OSError, ValueError):
                continue  # as twogtp: a game file that cannot be read is left out of the duplicate check
            n = config.size
            self.earlier[index] = [(COLOURS.index(c), None if p is None else (n - 1 - p[0], p[1]))
                                   for c, p in moves if c is not None]

    def start(self, players: dict):
        """Write the table's header (a new table) once the engines have said their names."""
        self.players = players
        if not self.fresh:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        a, b = players["A"], players["B"]
        labels = twogtp.labels({"A": a.gtp_name, "B": b.gtp_name}, {"A": a.version, "B": b.version})
        c = self.config
        properties = {"Black": a.gtp_name, "BlackVersion": a.version, "BlackLabel": labels["A"],
                      "BlackCommand": a.command, "White": b.gtp_name, "WhiteVersion": b.version,
                      "WhiteLabel": labels["B"], "WhiteCommand": b.command,
                      "Referee": "plies go match", "RefereeVersion": "", "RefereeLabel": "plies",
                      "RefereeCommand": f"plies go match (area scoring, {c.rules} rules, dead stones both engines list)",
                      "Size": str(c.size), "Komi": f"{c.komi:g}", "Date": twogtp.today(), "Host": twogtp.host(),
                      "Xml": "0"}
        self.path.write_text(twogtp.header(properties), encoding="utf-8")
        self.fresh = False

    def add(self, record: GameRecord):
        """Write the game's SGF and append its row."""
        c, index = self.config, record.number - 1
        exchanged = record.black == "B"
        moves = [(colour, None if point is PASS else point) for colour, point in record.moves]
        dup = twogtp.duplicate(moves, self.earlier, c.size, c.alternate, exchanged)
        self.earlier[index] = moves
        by_colour = [self.players[record.black], self.players[record.white]]
        comment = [f"Black command: {by_colour[0].command}", f"White command: {by_colour[1].command}",
                   f"Black version: {by_colour[0].version}", f"White version: {by_colour[1].version}",
                   f"Result[Black]: {record.scores.get(record.black, '?')}",
                   f"Result[White]: {record.scores.get(record.white, '?')}",
                   "Referee: plies go match", f"Result[Referee]: {record.result}",
                   f"Host: {twogtp.host()}", f"Date: {twogtp.today()}"]
        twogtp.sgf_path(self.prefix, index).write_bytes(
            sgf_bytes(record, c, [p.name for p in by_colour], "\n".join(comment)))
        view = twogtp.swapped if exchanged else (lambda text: text)  # B+ means A won
        error = record.reason in ENGINE_ERRORS
        values = {"GAME": index, "RES_B": view(record.scores.get("A", "?")), "RES_W": view(record.scores.get("B", "?")),
                  "RES_R": view(record.result), "ALT": int(exchanged), "DUP": dup, "LEN": len(record.moves),
                  "TIME_B": twogtp.decimal(record.seconds.get("A", 0.0)),
                  "TIME_W": twogtp.decimal(record.seconds.get("B", 0.0)),
                  "CPU_B": twogtp.decimal(record.cpu.get("A", 0.0)), "CPU_W": twogtp.decimal(record.cpu.get("B", 0.0)),
                  "ERR": int(error), "ERR_MSG": record.notes[-1] if error and record.notes else ""}
        with self.path.open("a", encoding="utf-8") as table:
            table.write(twogtp.row(values))


class Match:
    """A match: ``run(progress)`` plays the games and returns the ``MatchResult`` (``result`` holds the
    games so far, should the run be interrupted); the engines are closed at the end."""

    def __init__(self, config: MatchConfig):
        self.config = config
        self.players = {label: Player(label, config.command(label), config) for label in LABELS}
        self.result = MatchResult(config, {})

    def run(self, progress=None) -> MatchResult:
        config = self.config
        if config.sgf_dir is not None:
            Path(config.sgf_dir).mkdir(parents=True, exist_ok=True)
        files = TwogtpFiles(config) if config.sgffile is not None else None  # checked before any engine starts
        a, b = self.players["A"], self.players["B"]
        try:
            for player in (a, b):
                try:
                    player.ensure()
                except EngineFailure as err:
                    raise MatchError(f"engine {player.label} ({player.command}) failed at its start: {err}",
                                     EXIT_FILES) from None
            if files is not None:
                files.start(self.players)
            for number in range(config.first_game, config.first_game + config.games):
                black, white = (a, b) if number % 2 == 1 or not config.alternate else (b, a)
                record = play_game(black, white, config, number)
                self.result.games.append(record)
                if files is not None:
                    files.add(record)
                self._update()
                if progress is not None:
                    progress(describe(record))
        finally:
            self._update()
            for player in (a, b):
                player.close()
        return self.result

    def _update(self):
        self.result.names = {label: p.name for label, p in self.players.items()}
        self.result.seconds = {label: list(p.seconds) for label, p in self.players.items()}
        self.result.starts = {label: list(p.starts) for label, p in self.players.items()}


def describe(record: GameRecord) -> str:
    """One line for a game: colours, result, how it ended, the moves."""
    text = (f"game {record.number}: {record.black} Black, {record.white} White: {record.result} "
            f"({record.reason}) after {len(record.moves)} moves")
    if record.winner is not None:
        text += f", {record.winner_label} wins"
    if record.cleanup_from:
        text += f"; cleanup phase from move {record.cleanup_from}"
    if record.disagreement:
        text += "; the engines disagree on dead stones"
    if record.reason not in (SCORE, CAP, RESIGN):
        text += f"; {record.notes[-1]}"
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def add_match_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The flags of ``plies go match`` (the module's text says what each does)."""
    parser.add_argument("--a", "--black", dest="a", required=True, metavar="COMMAND",
                        help="engine A's command line (Black in games 1, 3, ...); {seed} is replaced by --seed")
    parser.add_argument("--b", "--white", dest="b", required=True, metavar="COMMAND",
                        help="engine B's command line (Black in games 2, 4, ...); {seed} is replaced by --seed + 1")
    parser.add_argument("--size", type=int, default=9, help="board size, 2..19 (default 9)")
    parser.add_argument("--komi", type=float, default=7.0, help="komi (default 7)")
    parser.add_argument("--games", type=_count, default=2, help="games to play (default 2)")
    parser.add_argument("--first-game", type=_count, default=1,
                        help="the number of the first game (default 1): a match played in parts keeps its "
                             "colours (A Black in the odd games) and its SGF names")
    parser.add_argument("--rules", choices=RULES, default="standard",
                        help="ko rule of the referee: standard (simple ko) or superko (positional); "
                             "suicide is illegal, scoring by area")
    parser.add_argument("--move-cap", type=_count, help="stop and score a game after this many moves, passes "
                                                        "included (default 3 x size x size)")
    parser.add_argument("--time-per-move", type=_seconds, metavar="SECONDS",
                        help="a genmove that takes longer (wall time) loses the game; the engine is killed "
                             "(default: no limit)")
    parser.add_argument("--time-settings", type=int, nargs=3, metavar=("MAIN", "BYOYOMI", "STONES"),
                        help="whole seconds and stones: send time_settings to both engines and keep their "
                             "clocks (Canadian overtime; time_left before every genmove; running out loses)")
    parser.add_argument("--sgf-dir", metavar="DIR", help="write every game there as game-NNN.sgf")
    parser.add_argument("--sgffile", metavar="PREFIX",
                        help="gogui-twogtp's output: the result table PREFIX.dat (gogui-twogtp -analyze reads it; "
                             "an existing one is continued, see --first-game) and every game as PREFIX-N.sgf, "
                             "N = game number - 1")
    parser.add_argument("--seed", type=int, default=0, help="replaces {seed} in the commands (default 0)")
    parser.add_argument("--fixed-colours", action="store_true", help="A plays Black in every game")
    parser.add_argument("--no-cleanup", action="store_true",
                        help=f"on a dead-stone disagreement, score at once instead of letting both engines "
                             f"play on with {CLEANUP} (when both know it) and scoring again")
    parser.add_argument("--command-timeout", type=_seconds, default=COMMAND_TIMEOUT,
                        help=f"seconds an engine may take for any other command (default {COMMAND_TIMEOUT:g})")
    parser.add_argument("--json", metavar="FILE", help="also write the table and every game's record as JSON")
    parser.add_argument("--quiet", action="store_true", help="print only the table, not a line per game")
    return parser


def config_of(args) -> MatchConfig:
    return MatchConfig(a=args.a, b=args.b, size=args.size, komi=args.komi, games=args.games,
                       first_game=args.first_game, rules=args.rules,
                       move_cap=args.move_cap, time_per_move=args.time_per_move,
                       time_settings=tuple(args.time_settings) if args.time_settings else None,
                       sgf_dir=args.sgf_dir, sgffile=args.sgffile, seed=args.seed, alternate=not args.fixed_colours,
                       command_timeout=args.command_timeout, cleanup=not args.no_cleanup)


def match_command(args) -> int:
    """Run the match of parsed arguments; print the table; the exit statuses of the module's text."""
    try:
        config = config_of(args)
    except ValueError as err:
        print(f"plies go match: {err}", file=sys.stderr)
        return EXIT_USAGE
    match = Match(config)
    progress = None if args.quiet else (lambda line: print(line, flush=True))
    try:
        result = match.run(progress)
    except KeyboardInterrupt:
        print(match.result.table(), flush=True)
        return EXIT_INTERRUPTED
    except MatchError as err:
        print(f"plies go match: {err}", file=sys.stderr)
        return err.status
    except OSError as err:
        print(f"plies go match: cannot write {err.filename or 'a file'}: {err.strerror or err}; choose a "
              f"folder you may write to", file=sys.stderr)
        return EXIT_FILES
    print(result.table(), flush=True)
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(result.summary(), indent=1) + "\n")
        except OSError as err:
            print(f"plies go match: cannot write {args.json}: {err.strerror or err}", file=sys.stderr)
            return EXIT_FILES
    return EXIT_OK


EPILOG = ("exit statuses: 0 played, 1 interrupted, 2 bad arguments (or a --sgffile table that cannot be "
          "continued), 3 an engine cannot start or a file cannot be written, 4 an engine refused a game's set-up")


def add_match_parser(sub) -> argparse.ArgumentParser:
    """Add ``match`` to the sub-parsers of ``plies go``."""
    parser = sub.add_parser("match", help="a match between two GTP engines, refereed with plies' rules",
                            description=__doc__.split("\n\n")[0],
                            epilog=EPILOG)
    add_match_arguments(parser)
    parser.set_defaults(func=match_command)
    return parser


def main(argv=None) -> int:
    """``python -m regress.go_match --a CMD --b CMD ...`` (the same as ``plies go match``)."""
    parser = argparse.ArgumentParser(prog="plies go match", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=EPILOG)
    add_match_arguments(parser)
    return match_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
