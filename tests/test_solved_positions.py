"""Both searches on solved positions: the answers come from brute force, independent of the searches.

Hex 3x3 and 4x4: every first move, valued by the memoised solver of tests/hex_solver.py (does the
side to move win?).  Othello endgames: positions with 8 empty squares reached by seeded random play,
solved here by a plain negamax over the game's rule kernels (exact final disc difference).

Alpha-beta must solve them exactly (a complete search).  MCTS runs on simulation budgets (never
wall time) with fixed seeds, so each case is deterministic; the budgets were chosen with a margin:
over 20 seeds (Hex 4x4) and 50 seeds (Hex 3x3) every first move's value kept on the right side of
0.5 by at least 0.04, and over 10 seeds every Othello endgame here got a move of the best outcome
class.
"""
import functools

import numpy as np
import pytest

from hex_solver import hex_mover_wins
from engines.games.hex import Hex
from engines.games.othello import Othello
from engines.knowledge.hex import registered as hex_knowledge
from engines.knowledge.othello import registered as othello_knowledge
from engines.knowledge.registry import knowledge_for
from engines.search import SCORE, WIN_PROBABILITY, Limits, make_searcher

SOLVE = Limits(nodes=10 ** 8)  # no depth limit: alpha-beta searches to the end of the game


# ---- Hex: every first move -----------------------------------------------------------------------
@functools.cache
def hex_first_moves(n):
    """[(first move, the position after it, does the second player (to move there) win?)]."""
    game = Hex(n)
    start = game.initial_state()
    return game, [(m, game.play(start, m), hex_mover_wins(game.play(start, m))) for m in range(n * n)]


def test_hex_answers_are_the_known_ones():
    # 3x3: the first player wins exactly with the short diagonal and the two cells beside the centre
    # on its own rows; 4x4: exactly with the short diagonal
    for n, winning in ((3, {(0, 2), (1, 0), (1, 1), (1, 2), (2, 0)}), (4, {(0, 3), (1, 2), (2, 1), (3, 0)})):
        game, cases = hex_first_moves(n)
        assert {game.coords(m) for m, _, second_wins in cases if not second_wins} == winning


@pytest.mark.parametrize("n", [3, 4])
def test_alphabeta_solves_every_hex_first_move(n):
    game, cases = hex_first_moves(n)
    for m, state, second_wins in cases:
        result = make_searcher("alphabeta", game).search(state, SOLVE)
        where = f"hex {n}x{n} after {game.coords(m)}"
        assert result.stats["complete"] and result.scale == SCORE, where
        assert abs(result.value) >= hex_knowledge.WIN_SCORE, where  # an exact final outcome
        assert (result.value > 0) == second_wins, f"{where}: value {result.value}"
        if second_wins:  # the reply found wins: the first player, to move after it, loses
            assert not hex_mover_wins(game.play(state, result.move)), where


@pytest.mark.parametrize("n, simulations, seeds", [(3, 5000, (0, 1, 2)), (4, 20000, (0, 1))])
def test_mcts_values_every_hex_first_move(n, simulations, seeds):
    game, cases = hex_first_moves(n)
    for m, state, second_wins in cases:
        for seed in seeds:
            result = make_searcher("mcts", game, seed=seed).search(state, Limits(simulations=simulations))
            assert result.scale == WIN_PROBABILITY
            assert (result.value > 0.5) == second_wins, \
                f"hex {n}x{n} after {game.coords(m)}, seed {seed}: value {result.value:.3f} for the side to move"


# ---- Othello endgames ------------------------------------------------------------------------------
def disc_difference(game, state):
    """Final disc difference from the view of the side to move."""
    cells = game.cells(state)
    d = int((cells == 1).sum()) - int((cells == 2).sum())
    return d if game.to_move(state) == 0 else -d


def solve(game, state, memo):
    """Exact value (disc difference for the side to move, both sides playing perfectly): plain
    negamax over the rule kernels, with a memo of positions."""
    key = state.tobytes()
    if key not in memo:
        kernels = game.kernels
        if kernels.terminal(state):
            memo[key] = disc_difference(game, state)
        else:
            buf = np.empty(game.num_actions, dtype=np.int32)
            best = None
            for a in buf[:kernels.legal(state, buf)]:
                child = state.copy()
                kernels.apply(child, int(a))
                value = -solve(game, child, memo)
                best = value if best is None else max(best, value)
            memo[key] = best
    return memo[key]


ENDGAMES = [(6, "standard", 3), (8, "standard", 3), (6, "manager", 3)]  # size, variant, seed
EMPTIES = 8
POSITIONS = 12  # positions per case, at least
CHOICES = 6     # positions per case, at least, whose moves do not all have the same outcome


def mixed(per_move):
    """True when the moves do not all lead to the same outcome (win, draw or loss)."""
    return len({int(np.sign(v)) for v in per_move.values()}) > 1


def endgames(size, variant, seed):
    """[(state, best value, {move: value of the move})] for non-final positions with EMPTIES empty
    squares reached by seeded uniformly random play: POSITIONS of them, and more until CHOICES of
    them are mixed."""
    game = Othello(size, variant=variant)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < POSITIONS or sum(mixed(per_move) for _, _, per_move in out) < CHOICES:
        s = game.initial_state()
        while not game.is_terminal(s) and (game.cells(s) == 0).sum() > EMPTIES:
            s = game.play(s, int(rng.choice(game.legal_moves(s))))
        if not game.is_terminal(s):
            memo = {}
            per_move = {m: -solve(game, game.play(s, m), memo) for m in game.legal_moves(s)}
            out.append((s, max(per_move.values()), per_move))
    return game, out


@pytest.fixture(scope="module", params=ENDGAMES, ids=lambda case: f"othello{case[0]}-{case[1]}")
def othello_endgames(request):
    return endgames(*request.param)


def test_alphabeta_solves_othello_endgames_exactly(othello_endgames):
    game, cases = othello_endgames
    exact = knowledge_for(game, "disc_difference")
    for i, (state, best, per_move) in enumerate(cases):
        result = make_searcher("alphabeta", game, knowledge=exact).search(state, SOLVE)
        assert result.stats["complete"], f"position {i}"
        assert result.value == best, f"position {i}: alpha-beta {result.value}, brute force {best}"
        assert per_move[result.move] == best, f"position {i}"


def test_alphabeta_with_the_strong_evaluation_solves_othello_endgames(othello_endgames):
    game, cases = othello_endgames
    win = othello_knowledge.WIN_SCORE
    for i, (state, best, per_move) in enumerate(cases):
        result = make_searcher("alphabeta", game).search(state, SOLVE)  # the default: "strong"
        assert result.stats["complete"], f"position {i}"
        # final states score WIN_SCORE * sign(d) + d: the sign is the outcome, the rest the margin
        assert result.value - win * np.sign(best) == best, f"position {i}: {result.value}, brute force {best}"
        assert per_move[result.move] == best, f"position {i}"


def test_mcts_plays_a_move_of_the_best_outcome_class(othello_endgames):
    game, cases = othello_endgames
    for i, (state, best, per_move) in enumerate(cases):
        if not mixed(per_move):
            continue  # every move has the same outcome: nothing to choose
        result = make_searcher("mcts", game, seed=i).search(state, Limits(simulations=5000))
        assert np.sign(per_move[result.move]) == np.sign(best), \
            f"position {i}, seed {i}: move {result.move} is worth {per_move[result.move]}, the best {best}"
