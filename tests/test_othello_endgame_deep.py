"""The exact endgame solver (engines/knowledge/othello/endgame.py) above 10 empties without
../shared/data: positions of 14-20 empties from seeded random games (tests/data/othello_endgames.txt),
whose exact scores were computed by an independent slow solver (tests/othello_slow_solver.py: plain
Python bitboards, its own rules, negamax with alpha-beta).  From 17 empties the solver's enhanced
transposition cut-off (ETC_N = 16, from the root's children on) and the code plies-otp plays from 22
empties are in play; before this file only the FFO test reached them.

The slow solver checks again, in this run, the positions marked ``live`` (one each of 14 to 17
empties, some seconds each: a window (v - 1, v + 1) around the stored value proves it exact); the
deeper ones' values it checked once, offline (``SlowSolver().is_exactly``, minutes each; the data
file's comments give the nodes and seconds it took).  Breaking the ETC's bound (``-_upper`` to
``-_lower`` in ``_order``) fails every position from 17 empties, the live one included."""
from pathlib import Path

import numpy as np
import pytest

from engines.games.othello import bb_moves, flips_at
from engines.knowledge.othello.endgame import ETC_N, EndgameSolver
from othello_slow_solver import SlowSolver, final_score, flips, moves
from test_othello_endgame import played

DATA = Path(__file__).parent / "data" / "othello_endgames.txt"
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def records():
    """(empties, seed, P, O, score, live) of each line of the data file."""
    out = []
    for line in DATA.read_text().splitlines():
        fields = line.split("#")[0].split()
        if fields:
            empties, seed, P, O, score, how = fields
            out.append((int(empties), int(seed), int(P, 16), int(O, 16), int(score), how == "live"))
    return out


RECORDS = records()


def test_the_data_covers_14_to_20_empties_and_the_etc():
    assert {r[0] for r in RECORDS} == set(range(14, 21))
    assert max(r[0] for r in RECORDS if r[5]) > ETC_N  # a live check reaches the ETC (the root's children)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r[0]}-empties-seed-{r[1]}")
def test_the_positions_come_from_their_seeded_games(record):
    empties, seed, P, O, _, _ = record
    assert played(empties, seed) == (P, O)
    assert bin(~(P | O) & (2 ** 64 - 1)).count("1") == empties


def test_the_slow_solvers_rules_agree_with_the_engines():
    """Its moves and flips are its own; held to the engine's on every stored position's first moves."""
    for _, _, P, O, _, _ in RECORDS:
        assert moves(P, O) == int(bb_moves(np.uint64(P), np.uint64(O), ALL))
        for square in range(64):
            if moves(P, O) >> square & 1:
                assert flips(square, P, O) == int(flips_at(square, np.uint64(P), np.uint64(O)))


@pytest.mark.parametrize("record", [r for r in RECORDS if r[5]], ids=lambda r: f"{r[0]}-empties")
def test_the_slow_solver_confirms_the_stored_score(record):
    empties, seed, P, O, score, _ = record
    solver = SlowSolver()
    assert solver.is_exactly(P, O, score)
    assert not solver.is_exactly(P, O, score + 2)  # the check can fail


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r[0]}-empties-seed-{r[1]}")
def test_the_engine_solves_every_position_exactly(record):
    """The exact solve, a table kept across windows (any guess), the win/loss/draw solve, and a
    move that keeps the score (the child's score by a fresh solve)."""
    empties, seed, P, O, score, _ = record
    solver = EndgameSolver(tt_bits=18)
    for guess in (0, score - 7, score + 9):
        solved = solver.solve(P, O, guess=guess)
        assert solved.score == score, (empties, seed, guess)
    assert np.sign(EndgameSolver().solve(P, O, wld=True).score) == np.sign(score)
    x = np.uint64(1) << np.uint64(solved.move)
    f = flips_at(solved.move, np.uint64(P), np.uint64(O))
    cP, cO = int(np.uint64(O) ^ f), int(np.uint64(P) ^ f ^ x)
    if moves(cP, cO):
        child = -EndgameSolver().solve(cP, cO).score
    elif moves(cO, cP):
        child = EndgameSolver().solve(cO, cP).score
    else:
        child = -final_score(cP, cO)
    assert child == score
