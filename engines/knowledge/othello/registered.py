"""Othello knowledge: the evaluations registered for alpha-beta and MCTS, and the exact endgame solve.

The kernels live below this module, which only registers and re-exports them: the hand-written
evaluations in engines/knowledge/othello/evaluation.py, the learned patterns in othello/patterns.py,
the solver in othello/endgame.py.

Registered evaluations (``engines.knowledge.registry.knowledge_for(game, name)``):
  "strong" (default)   evaluate_strong with STRONG_WEIGHTS, and value_strong as the value function
  "disc_difference"    evaluate_disc_difference (mover's discs minus the opponent's), no value function
  "patterns"           the learned pattern evaluation of engines/knowledge/othello/patterns.py and its
                       value_patterns (8x8 bitboards; other sizes get "strong")
"""
import time

from engines.knowledge.othello.endgame import (Solve, SolveBudgetExceeded, SolveDeadlineExceeded,  # noqa: F401
                                               solve_state)
from engines.knowledge.othello.evaluation import (STRONG_WEIGHTS, VALUE_SCALE, W_CORNERS, W_DISCS,  # noqa: F401
                                                  W_MOBILITY, W_PARITY, W_STABILITY, W_XSQUARES,
                                                  evaluate_disc_difference, evaluate_strong, stable_discs,
                                                  value_strong)
from engines.knowledge.scores import WIN_SCORE  # noqa: F401 - re-exported: the scale of the evaluations


# ==== registration ===============================================================================

DEFAULT_EVALUATION = "patterns"  # the learned evaluation on 8x8 bitboards; every other board is valued by "strong"


def _strong(game):
    from engines.knowledge.bundle import Knowledge
    return Knowledge(evaluate=evaluate_strong, eval_params=STRONG_WEIGHTS, value=value_strong,
                     value_params=STRONG_WEIGHTS)


def _disc_difference(game):
    from engines.knowledge.bundle import Knowledge
    return Knowledge(evaluate=evaluate_disc_difference)


def _patterns(game):
    """The learned pattern evaluation (engines/knowledge/othello/patterns.py, weights/othello/patterns.npz)
    on 8x8 bitboards; other sizes and the mailbox keep the strong evaluation."""
    if game.size != 8 or getattr(game, "impl", "bitboard") != "bitboard":
        return _strong(game)
    from engines.knowledge.othello import patterns as othello_patterns
    return othello_patterns.knowledge()


EVALUATIONS = {"strong": _strong, "disc_difference": _disc_difference,
               "patterns": _patterns}  # name -> game -> Knowledge


def warm_up(game):
    """Compile the pattern evaluation's kernels (they need no weights file)."""
    from engines.knowledge.othello import patterns as othello_patterns
    othello_patterns.warm_up()


# ==== exact endgame solver (8x8 bitboards) ========================================================
# The solver itself (PVS with a transposition table, fastest-first and parity ordering, stability
# cut-offs, special code for the last four empties) is engines/knowledge/othello/endgame.py; Solve,
# SolveBudgetExceeded and SolveDeadlineExceeded are re-exported from there.

def solve_endgame(state, node_budget: int = 1 << 62, *, deadline: float | None = None,
                  clock=time.perf_counter, guess: int = 0) -> Solve:
    """Exact solve of an 8x8 bitboard state that is not final (a side to move that must pass gets the
    move endgame.PASS and its score after the opponent's best);
    SolveBudgetExceeded when node_budget runs out first.  With a deadline (on clock), the clock is
    read between slices of the search and SolveDeadlineExceeded (a SolveBudgetExceeded) ends a solve
    still running then.  guess: the expected score, the centre of the first aspiration window (see
    EndgameSolver.solve).  Each call starts from an empty table: the same call visits the same nodes."""
    return solve_state(state, node_budget, deadline, clock, guess=guess)
