"""The OpenSpiel side: C++ random rollouts, the C++ MCTS bot, and action translation.

APIs (open_spiel 2.0.2, checked):
  pyspiel.RandomRolloutEvaluator(n_rollouts, seed)         -- no Python evaluate(); used through a bot
  pyspiel.MCTSBot(game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose,
                  child_selection_policy=UCT, max_wall_clock_time=-1.0 (seconds))
  bot.mcts_search(state) -> SearchNode (root; .explore_count = simulations run)
  bot.step(state) -> action

Rollouts: a bot with max_simulations=1 evaluates the unexpanded root once, i.e. runs the evaluator's
n_rollouts uniformly random games from the given state, all in C++.
"""
import time

import numpy as np
import pyspiel

from bench import SPECS
from engines.errors import Reason

UCT_C = 2.0          # OpenSpiel's default (examples/mcts.py) for returns in [-1, 1]
MAX_MEMORY_MB = 1000  # OpenSpiel's default


def load(key: str, **params):
    """The OpenSpiel game of a SPECS key, with extra parameters (e.g. max_game_length)."""
    text = SPECS[key][2]
    if params:
        extra = ",".join(f"{k}={v}" for k, v in params.items())
        text = f"{text[:-1]},{extra})" if text.endswith(")") else f"{text}({extra})"
    return pyspiel.load_game(text)


def bot(game, seed: int, max_simulations: int = 10**9, move_time: float = -1.0, solve: bool = False,
        rollouts: int = 1):
    """OpenSpiel's C++ UCT bot with random-rollout evaluation."""
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    return pyspiel.MCTSBot(game, evaluator, UCT_C, max_simulations, MAX_MEMORY_MB, solve, seed, False,
                           pyspiel.ChildSelectionPolicy.UCT, move_time)


def playout_rate(game, seconds: float, seed: int = 0) -> float:
    """C++ random playouts per second from the start position (median of 5 runs of ~seconds)."""
    from engines.speed import median_rate  # imported here: this module alone must not load numba
    state = game.new_initial_state()

    def run(n):
        b = bot(game, seed, max_simulations=1, rollouts=n)  # built outside the timed region
        start = time.perf_counter()
        b.mcts_search(state)
        return n, time.perf_counter() - start

    count, elapsed = run(50)
    n = max(10, int(count / elapsed * seconds))  # so that one run takes ~seconds
    return median_rate(lambda: run(n))


def mcts_rate(game, seconds: float, seed: int = 0) -> float:
    """C++ MCTS simulations per second from the start position (UCT, one random rollout per leaf)."""
    from engines.speed import median_rate
    state = game.new_initial_state()

    def run():
        b = bot(game, seed, move_time=seconds)
        start = time.perf_counter()
        root = b.mcts_search(state)
        return root.explore_count, time.perf_counter() - start

    return median_rate(run)


# ---- action translation -------------------------------------------------------------------------
# Checked conventions (see strength.py, which asserts agreement after every move):
#   Othello: action = row*8 + col, row 0 at the top ("a1".."h1"), black (x) = player 0 moves first,
#            pass = 64, the only legal action when the mover has no move.
#   Hex:     action = row*n + col; player 0 (x) joins row 0 to row n-1; cell (r, c) touches
#            (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c) -- as ours.
#   Go:      action = row*n + col with row 0 = rank 1 (bottom), pass = n*n; black = player 0 (as ours).
# So the map is the identity, provided both sides number the same actions (check_numbering).

def check_numbering(our_game, spiel_game):
    if our_game.num_actions != spiel_game.num_distinct_actions():
        raise AssertionError(f"{our_game.name}: {our_game.num_actions} actions here, "
                             f"{spiel_game.num_distinct_actions()} in OpenSpiel: translation needs updating")


def match_games(key: str):
    """(our game, OpenSpiel game) under the same rules.  Go: suicide illegal, area scoring, and the game
    also ends after OpenSpiel's max_game_length = 2*n*n moves (passes count).  OpenSpiel's Go lets a
    move repeat an earlier whole-board position and ends the game there as a draw; ours plays under
    positional superko, so it never makes such a move, and the referee (strength.play_game) scores
    OpenSpiel's repetition as the draw OpenSpiel makes it (see superko_draw)."""
    from engines.games import make_game
    name, options, _ = SPECS[key]
    spiel = load(key)
    if name == "go":
        options = dict(options, rules="superko", max_moves=spiel.max_game_length())
    ours = make_game(name, **options)
    check_numbering(ours, spiel)
    return ours, spiel


def spiel_board(sstate) -> np.ndarray:
    """OpenSpiel's board in action order: 0 empty, 1 player 0, 2 player 1 (from observation_tensor(0))."""
    name = sstate.get_game().get_type().short_name
    obs = np.asarray(sstate.observation_tensor(0))
    if name == "othello":   # planes: empty, player 0 (the observer), player 1
        o = obs.reshape(3, -1)
        return (o[1] + 2 * o[2]).astype(np.int64)
    if name == "hex":       # 9 cell-state planes: 0-3 player 1 (o) variants, 4 empty, 5-8 player 0 (x)
        o = obs.reshape(9, -1)
        return (o[5:].sum(0) + 2 * o[:4].sum(0)).astype(np.int64)
    if name == "go":        # planes: black, white, empty, to-play
        o = obs.reshape(4, -1)
        return (o[0] + 2 * o[1]).astype(np.int64)
    raise ValueError(f"no board reader for OpenSpiel game {name!r}")


def our_board(game, state) -> np.ndarray:
    """Our cells in action order (0 empty, 1 player 0, 2 player 1), read through the board view."""
    cells = game.cells(state)
    return np.array([cells[game.coords(a)] for a in range(game.size * game.size)], dtype=np.int64)


def play_against_bot(game, sgame, bot, ours: int, choose, played, times: dict):
    """One game from the start: choose(state, start) -> move plays player ours (played(move) hears every
    move), OpenSpiel's bot the other; both rule sets are checked equal after every move.  Each side's
    wall seconds a move go to times["a"] (ours) and times["b"].  Returns the final state."""
    state, sstate = game.initial_state(), sgame.new_initial_state()
    while not game.is_terminal(state):
        start = time.perf_counter()
        if game.to_move(state) == ours:
            move, side = int(choose(state, start)), "a"
        else:
            move, side = bot.step(sstate), "b"
        times[side].append(time.perf_counter() - start)
        sstate.apply_action(move)
        state = game.play(state, move)
        played(move)
        check_agreement(game, state, sstate)
    return state


def check_agreement(game, state, sstate):
    """Raise AssertionError unless both sides agree on the position: terminal flag, board, player to
    move and legal moves (identity action map), and the result at the end."""
    def fail(what, ours, theirs):
        raise AssertionError(f"{game.name}: {what} differ after moves {sstate.history()}: ours {ours}, "
                             f"OpenSpiel {theirs}\n{game.render(state)}\n{sstate}")
    if game.is_terminal(state) != sstate.is_terminal():
        fail("terminal flags", game.is_terminal(state), sstate.is_terminal())
    if not np.array_equal(our_board(game, state), spiel_board(sstate)):
        fail("boards", our_board(game, state).tolist(), spiel_board(sstate).tolist())
    if sstate.is_terminal():
        ours, theirs = game.returns(state)[0], (sstate.returns()[0] + 1) / 2
        if ours != theirs:
            fail("results for player 0", ours, theirs)
        return
    if game.to_move(state) != sstate.current_player():
        fail("players to move", game.to_move(state), sstate.current_player())
    ours, theirs = set(game.legal_moves(state)), set(sstate.legal_actions())
    if ours != theirs and not (game.name == "go" and ours < theirs
                               and all(repeats_position(game, state, m) for m in theirs - ours)):
        fail("legal moves", sorted(ours), sorted(theirs))


def repeats_position(game, state, move) -> bool:
    """Go: the move is illegal for us only because it would repeat an earlier position."""
    return game.illegal_reason(state, move) is Reason.SUPERKO


def superko_draw(game, state, move, sstate) -> bool:
    """True when OpenSpiel's bot just repeated a position (our superko forbids it) and OpenSpiel
    ended the game as a draw; the referee then scores a draw."""
    return (game.name == "go" and repeats_position(game, state, move) and sstate.is_terminal()
            and list(sstate.returns()) == [0.0, 0.0])
