"""The Little-Go player: the Go player (engines/players/go.py) on the course host's rules and CPU clock.

How its data is represented: a board is a list of 5 lists of 5 ints (0 empty, 1 black, 2 white), row
0 at the top, as the host gives it; a colour is 1 (black) or 2 (white); a point is ``(i, j)`` or None
(a pass); ``moves_played`` counts the moves before ours (passes included; the game ends after move
24).  The engine's position is a state of ``Go(rules="littlego")`` (24-move horizon, stones-only
scoring, komi 2.5, the host's ko).  ``PlayerSettings`` holds the player's tunables (the adapter's
settings extend it with the run's own keys); the player reads them under those names.

What it owns: the search (``make_player``: plain MCTS or RAVE with every legal move a child, on a
TimeManager of CPU time counted from process start, at least ``min_simulations``, or exactly
``simulations``), the seed of a reproducible run (``hash_seed``), the engine's position of the host's
boards (``state_of``), the move number of the host's boards (``move_number``: from the notes the player
keeps between runs, ``load_notes`` / ``save_notes``, else the fewest moves that can have put the stones
there), the move (``choose``, then ``allowed_point``: the search's move when the host allows it on the
board as given, else the most visited one it allows; ``think`` does it all and writes the notes), and
the fallback move written before the engine loads (``fallback_move``: a shallow search over the
reference rules, engines/games/reference/littlego.py, within ``fallback_seconds`` of CPU time).
"""
import hashlib
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

from engines.games.reference import littlego as rules
from engines.players.clock import CPU, TimeManager
from engines.players.coldstart import fallback_search
from engines.settings import setting

SEARCHES = ("mcts", "rave")            # the search setting's values
NOTES_FORMAT = 1                       # the notes' "format" (load_notes refuses any other)


@dataclass(frozen=True)
class PlayerSettings:
    """The Little-Go player's tunables."""
    seconds: float = setting(2.0, "CPU seconds per move, counted from process start (the host allows 10); "
                                  "clamped to min_seconds..max_seconds")
    simulations: int | None = setting(None, "search exactly this many simulations per move instead of spending "
                                            "seconds (reproducible runs: tests)", kind=int)
    seed: str | None = setting(None, "any text: the search's seed, mixed with the position (reproducible runs); "
                                     "none: a fresh seed every move", kind=str)
    min_seconds: float = setting(0.05, "the smallest budget seconds is clamped to")
    max_seconds: float = setting(8.5, "the largest budget seconds is clamped to (over 10 s of CPU the host "
                                      "forfeits the game)")
    margin: float = setting(0.12, "CPU seconds kept for writing the files and leaving the process")
    search: str = setting("mcts", "the search: mcts (plain UCT, uniformly random playouts) or rave (RAVE with "
                                  "the heavy Go knowledge: michi playouts, priors, MM gammas; "
                                  "bench/results/littlego_rave.md)", choices=SEARCHES)
    selection: str = setting("uct", "search = mcts: the selection rule (engines.search.mcts.MCTSConfig.selection)")
    c: float = setting(0.7, "search = mcts: the exploration constant (results in [0, 1])")
    expand_visits: int = setting(4, "search = mcts: visits a leaf needs before it grows children (keeps a few seconds of "
                                    "search within capacity)")
    capacity: int = setting(1 << 21, "search tree nodes (32 bytes each with mcts, 40 with rave)")
    fallback_seconds: float = setting(0.3, "CPU seconds of the fallback move's shallow search, at most a quarter "
                                           "of seconds (written first, before the engine loads)")
    min_simulations: int = setting(2000, "the fewest simulations of a timed search (a few ms): a budget that "
                                         "start-up has all but spent searches this many, with a warning (with "
                                         "~256 the player passed early)")

    def __post_init__(self):
        for name in ("seconds", "min_seconds", "max_seconds", "fallback_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("capacity", "min_simulations"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {self.simulations!r}")
        if not self.min_seconds <= self.max_seconds:
            raise ValueError(f"min_seconds <= max_seconds must hold, got {self.min_seconds!r}, {self.max_seconds!r}")
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, got {self.search!r}")
        if self.margin < 0 or self.c < 0 or self.expand_visits < 0:
            raise ValueError("margin, c and expand_visits must not be negative")


def fallback_move(colour: int, previous, current, moves_played: int = 0, seconds: float = 0.3,
                  cpu=time.process_time):
    """A valid move of a shallow alpha-beta search over the host's rules (stones-only scoring, the
    horizon, the host's ko) within ``seconds`` of CPU time from now; ties drawn by a fixed
    generator, so a run repeats.  The host counts the player's CPU time, so this is a small share of
    the move's budget, spent before the engine loads."""
    deadline = TimeManager(seconds, margin=0.0, kind=CPU, clock=cpu).deadline()
    search = rules.SearchRules()
    return fallback_search(search, search.node(colour, previous, current, moves_played), deadline, random.Random(0))


def make_player(settings, cpu=time.process_time):
    """The Go player on the host's clock: ``seconds`` of CPU time counted from process start less
    ``margin`` (a TimeManager on CPU time; the search's own batch loop reads it), at least
    ``min_simulations``; or exactly ``simulations`` when that is set.  The search: plain MCTS
    (selection, c, expand_visits), or RAVE with the heavy Go knowledge whose children are every legal
    move (under stones-only scoring and the 24-move horizon, filling an own eye is a point; plain
    MCTS keeps it too)."""
    from engines.players.go import GoPlayer, GoSettings
    timed = settings.simulations is None
    manager = TimeManager(settings.seconds if timed else None, margin=settings.margin, kind=CPU, clock=cpu)
    return GoPlayer(GoSettings.of(settings, seed=0, legal_children=True,
                                  min_simulations=settings.min_simulations if timed else 0),
                    manager, simulations=settings.simulations, komi=None, rules="littlego")


def choose(game, state, settings, started: float, seed: int, cpu=time.process_time, warn=None):
    """(action, SearchResult or None) for state: the player's move on the budget counted from
    ``started`` (CPU seconds at process start); a budget that start-up has all but spent searches
    the floor of ``min_simulations``, told to ``warn``."""
    action, result = make_player(settings, cpu).single_move(game, state, seed, started)
    if result is not None and "floor" in result.stats and warn:
        warn(f"the budget (seconds = {settings.seconds:g}, counted from process start) was spent after "
             f"{result.stats['floor']} simulations; searching the floor of min_simulations = "
             f"{settings.min_simulations} (raise seconds for a stronger move)")
    return action, result


def hash_seed(seed: str, previous, current) -> int:
    """A reproducible seed from the seed setting and the position."""
    key = f"{seed}|{board_text(previous)}|{board_text(current)}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:6], "little")


def board_text(board) -> list[str]:
    return ["".join(str(int(v)) for v in row) for row in board]


def state_of(game, colour: int, previous, current, moves: int, estimate: int):
    """The engine's state of the host's boards with ``moves`` played before (``estimate`` when that
    number ends the game: the host would not ask); chains without liberty, which only an impossible
    board has, left out."""
    board, before = rules.engine_board(current), rules.engine_board(previous)
    state = game.state_from_cells(board, colour - 1, previous=before, moves_played=moves)
    if game.is_terminal(state):  # play on as if a move were left
        state = game.state_from_cells(board, colour - 1, previous=before, moves_played=estimate)
    return state


def allowed_point(game, colour: int, previous, current, action: int, result):
    """The point to play: the search's action when the host allows it on the current board as given,
    else the most visited one it allows (else the pass)."""
    from engines.players.go import best_allowed
    allowed = rules.host_moves((colour, previous, current))
    return game.point_of(best_allowed(game, action, result, {game.action_at(p) for p in allowed}))


def stone_count(board) -> int:
    return sum(1 for row in board for v in row if v)


def move_number(notes: dict | None, colour: int, previous, current) -> tuple[int, str]:
    """(moves played before our move, where that number comes from: "start", "notes", "estimate").  A
    game starts with nothing played before (Black) or only Black's first stone (White).  ``notes``:
    what the player kept after its last move (its ``colour``, ``moves_played`` and the ``board``
    after it, as board_text), or None."""
    if stone_count(previous) == 0 and stone_count(current) <= colour - 1:
        return colour - 1, "start"
    if notes is not None and notes["colour"] == colour and notes["board"] == board_text(previous):
        moves = notes["moves_played"] + 1
        if moves % 2 == colour - 1 and moves >= stone_count(current) and moves < rules.MAX_MOVES:
            return moves, "notes"
    return estimate_moves(colour, current), "estimate"


def think(game, turn, settings, notes: dict | None, started: float, cpu=time.process_time, warn=None, name=str):
    """(point, the notes to keep) for the host's turn (colour, previous board, current board): the
    move number from the notes, the seed (``hash_seed``, or a fresh one), the search's move
    (``choose``) and the point the host allows on the current board as given (``allowed_point``; a
    different one is told to ``warn``).  ``name(point)`` writes a point in the notes."""
    colour, previous, current = turn
    moves, source = move_number(notes, colour, previous, current)
    seed = int.from_bytes(os.urandom(6), "little") if settings.seed is None else hash_seed(settings.seed, previous,
                                                                                           current)
    state = state_of(game, colour, previous, current, moves, estimate_moves(colour, current))
    action, result = choose(game, state, settings, started, seed, cpu, warn=warn)
    point, searched = allowed_point(game, *turn, action, result), game.point_of(action)
    if point != searched and warn:
        warn(f"the search's move {name(searched)} is not valid on the board as given; playing {name(point)}")
    kept = {"format": NOTES_FORMAT, "colour": colour, "moves_played": game.nmoves(state) + 1,
            "board": board_text(current if point is None else rules.host_moves(turn)[point]),
            "move": name(point), "move_number_from": source, "budget": settings.seconds}
    if result is not None:
        kept.update(value=round(result.value, 4), simulations=result.stats.get("simulations"),
                    pv=[name(game.point_of(a)) for a in result.pv[:6]])
    return point, kept


def load_notes(path) -> dict | None:
    """The notes the player kept after its last move (a JSON object: format, colour, moves_played,
    board as board_text, and what it played), or None when missing, unreadable or malformed."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != NOTES_FORMAT:
        return None
    moves, colour, board = data.get("moves_played"), data.get("colour"), data.get("board")
    if not (isinstance(moves, int) and not isinstance(moves, bool) and 0 < moves <= rules.MAX_MOVES
            and colour in (1, 2) and not isinstance(colour, bool)
            and isinstance(board, list) and len(board) == rules.SIZE
            and all(isinstance(r, str) and len(r) == rules.SIZE and set(r) <= set("012") for r in board)):
        return None
    return data


def save_notes(path, data: dict) -> None:
    """Write the notes atomically (a temporary file renamed over the old one)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def estimate_moves(colour: int, current) -> int:
    """The fewest moves that can have put these stones on the board with colour to move."""
    n = stone_count(current)
    n += (n - (colour - 1)) % 2
    return min(n, rules.MAX_MOVES - 1 if colour == 2 else rules.MAX_MOVES - 2)
