"""Othello's evaluations (engines/knowledge/othello/registered.py) on hand-made and random positions, on both layouts."""
import numpy as np
import pytest

from engines.games.othello import Othello
from engines.knowledge.othello import registered as KO
from engines.knowledge.othello.registered import (STRONG_WEIGHTS, WIN_SCORE, evaluate_disc_difference, evaluate_strong,
                                       stable_discs, value_strong)
from test_othello import board_of, ref_placements


def cells(game, state):
    return game.cells(state).tolist()


def only(feature, weight=1.0):
    w = np.zeros(len(STRONG_WEIGHTS))
    w[feature] = weight
    return w


def test_evaluations_on_hand_made_positions():
    rows = ["X.......",   # black owns a1
            ".O......",
            "..OX....",
            "...XO...",
            "...XX...",
            "........",
            "......O.",   # white on g7 next to the empty h8 corner (x-square)
            "........",
            ]
    for impl in ("bitboard", "mailbox"):
        g = Othello(8, impl=impl)
        sb, sw = (g.state_from_cells(board_of(rows), p) for p in (0, 1))
        assert evaluate_disc_difference(sb, STRONG_WEIGHTS) == 1.0  # 5 black, 4 white
        assert evaluate_disc_difference(sw, STRONG_WEIGHTS) == -1.0
        assert evaluate_strong(sb, only(KO.W_CORNERS, 25.0)) == 25.0
        assert evaluate_strong(sw, only(KO.W_CORNERS, 25.0)) == -25.0
        # b2 (white) sits next to the OWNED corner a1: only g7 counts as an x-square, against white
        assert evaluate_strong(sb, only(KO.W_XSQUARES, 10.0)) == 10.0
        assert evaluate_strong(sw, only(KO.W_XSQUARES, 10.0)) == -10.0
        assert evaluate_strong(sb, only(KO.W_STABILITY)) == 1.0  # a1
        assert evaluate_strong(sb, only(KO.W_PARITY)) == 1.0     # 55 empty cells: odd
        assert evaluate_strong(sw, only(KO.W_PARITY)) == 1.0
        assert evaluate_strong(sb, np.zeros(7)) == 0.0
        mob = evaluate_strong(sb, only(KO.W_MOBILITY))
        nb_moves = len(g.legal_moves(sb))
        nw_moves = len(g.legal_moves(sw))
        assert mob == nb_moves - nw_moves == -evaluate_strong(sw, only(KO.W_MOBILITY))
        full = evaluate_strong(sb, STRONG_WEIGHTS)
        # every feature but parity (which favours whoever is to move) changes sign with the mover
        parity = STRONG_WEIGHTS[KO.W_PARITY]
        assert abs(full) < WIN_SCORE and full == pytest.approx(2 * parity - evaluate_strong(sw, STRONG_WEIGHTS))
        scale = STRONG_WEIGHTS[KO.VALUE_SCALE]
        assert value_strong(sb, STRONG_WEIGHTS) == pytest.approx(1.0 / (1.0 + np.exp(-full / scale)))
        assert value_strong(sw, STRONG_WEIGHTS) == pytest.approx(
            1.0 / (1.0 + np.exp(evaluate_strong(sw, STRONG_WEIGHTS) / scale)))
        assert value_strong(sb, np.zeros(6)) == 0.5  # all features off; short params: default scale


def test_stability_runs_and_full_edges():
    rows = ["XXXO....",   # a1..c1 black run from the a1 corner; d1 white is not anchored
            "X.......",   # a2 black: run down the a file
            "O.......",
            "........",
            "........",
            "........",
            "........",
            "OOOOXXXX",   # full bottom edge: all 8 stable (a8 white corner, h8 black corner)
            ]
    for impl in ("bitboard", "mailbox"):
        g = Othello(8, impl=impl)
        s = g.state_from_cells(board_of(rows), 0)
        # black: a1 b1 c1 a2 + e8 f8 g8 h8 (+ h8 up the h file: h7 empty) = 8
        # white: a8 b8 c8 d8 + a7? empty; a8 up the a file: a7 empty -> 4
        assert stable_discs(s) == (8, 4)


def test_final_states_score_exactly():
    rows = ["XXXX", "XXXX", "XXOO", "OOOO"]   # full 4x4: 10 black, 6 white
    for variant in ("standard", "manager"):
        for impl in ("bitboard", "mailbox"):
            g = Othello(4, variant, impl=impl)
            for p, sign in ((0, 1), (1, -1)):
                s = g.state_from_cells(board_of(rows), p)
                assert g.is_terminal(s) and g.returns(s) == (1.0, 0.0)
                assert evaluate_disc_difference(s, STRONG_WEIGHTS) == 4.0 * sign
                assert evaluate_strong(s, STRONG_WEIGHTS) == sign * (WIN_SCORE + 4.0)
                assert evaluate_strong(s, np.zeros(7)) == sign * (WIN_SCORE + 4.0)
                assert value_strong(s, STRONG_WEIGHTS) == 1.0
    g = Othello(4)
    draw = g.state_from_cells(board_of(["XXXX", "XXXX", "OOOO", "OOOO"]), 1)
    assert g.is_terminal(draw) and evaluate_strong(draw, STRONG_WEIGHTS) == 0.0
    assert value_strong(draw, STRONG_WEIGHTS) == 0.5 and g.winner(draw) is None
    # huge weights are clamped below every win
    s = g.initial_state()
    assert abs(evaluate_strong(s, STRONG_WEIGHTS * 1e9)) == WIN_SCORE - 1


def test_evaluations_on_large_boards():
    g = Othello(12)
    s = g.initial_state()
    for _ in range(20):
        s = g.play(s, g.legal_moves(s)[0])
    e = evaluate_strong(s, STRONG_WEIGHTS)
    assert abs(e) < WIN_SCORE and 0.0 < value_strong(s, STRONG_WEIGHTS) < 1.0
    flipped = g.state_from_cells(cells(g, s), 1 - g.to_move(s))
    assert evaluate_disc_difference(flipped, STRONG_WEIGHTS) == -evaluate_disc_difference(s, STRONG_WEIGHTS)
    p = g.to_move(s)
    assert evaluate_strong(s, only(KO.W_MOBILITY)) == (len(ref_placements(cells(g, s), 12, p + 1))
                                                       - len(ref_placements(cells(g, s), 12, 2 - p)))


def test_evaluate_strong_uses_the_default_weights_when_given_too_few():
    s = Othello(8).initial_state()
    s = Othello(8).play(s, 19)
    assert evaluate_strong(s, np.zeros(3)) == evaluate_strong(s, STRONG_WEIGHTS)
    assert evaluate_strong(s, STRONG_WEIGHTS * 2) != evaluate_strong(s, STRONG_WEIGHTS)
