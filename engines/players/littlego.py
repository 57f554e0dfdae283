"""The Little-Go player: the Go player (engines/players/go.py) on the course host's rules and CPU clock.

How its data is represented: a board is a list of 5 lists of 5 ints (0 empty, 1 black, 2 white), row
0 at the top, as the host gives it; a colour is 1 (black) or 2 (white); a point is ``(i, j)`` or None
(a pass); ``moves_played`` counts the moves before ours (passes included; the game ends after move
24).  The engine's position is a state of ``Go(rules="littlego")`` (24-move horizon, stones-only
scoring, komi 2.5, the host's ko).  ``settings`` is any object with the Little-Go adapter's fields
(seconds, simulations, margin, min_simulations, search, selection, c, expand_visits, capacity,
fallback_seconds): the player reads them under those names.

What it owns: the search (``make_player``: plain MCTS or RAVE with every legal move a child, on a
TimeManager of CPU time counted from process start, at least ``min_simulations``, or exactly
``simulations``), the seed of a reproducible run (``hash_seed``), the engine's position of the host's boards
(``state_of``), the move (``choose``, then ``allowed_point``: the search's move when the host allows
it on the board as given, else the most visited one it allows), and the fallback move written before the engine loads (``fallback_move``: a
shallow search over the reference rules, engines/games/reference/littlego.py, within
``fallback_seconds`` of CPU time).
"""
import hashlib
import random
import time

from engines.games.reference import littlego as rules
from engines.players.clock import CPU, TimeManager
from engines.players.coldstart import fallback_search


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
