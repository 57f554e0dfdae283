"""The exact endgame solver (engines/knowledge/othello/endgame.py) against a brute-force minimax, the
FFO problems that solve in a few seconds, its win/loss/draw solve, its budgets and deadline (counted
in nodes and clock readings, never wall time), passes and games that end with empty squares."""
import numba as nb
import numpy as np
import pytest

from conftest import DATA
from engines.games.othello import Othello, bb_moves, flips_at
from engines.knowledge.othello.registered import SolveBudgetExceeded, solve_endgame
from engines.knowledge.othello.endgame import (PASS, EndgameSolver, SolveDeadlineExceeded, parse_obf, stable_bits,
                                               state_bits)

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
GAME = Othello(8)
FFO = "othello-ffo/fforum-20-39.obf"


@nb.njit(nb.int64(nb.uint64), cache=True)
def bin_count(x):
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@nb.njit(nb.int64(nb.uint64, nb.uint64, nb.int64, nb.int64), cache=True)
def brute(P, O, passed, rule):
    """Plain negamax over every line of play, no pruning: the mover's final disc difference."""
    moves = bb_moves(P, O, ALL)
    if moves == np.uint64(0):
        if passed:
            p = np.int64(bin_count(P))
            o = np.int64(bin_count(O))
            d = p - o
            if rule and d != 0:
                d += (64 - p - o) if d > 0 else -(64 - p - o)
            return d
        return -brute(O, P, np.int64(1), rule)
    best = np.int64(-1000)
    for sq in range(64):
        x = np.uint64(1) << np.uint64(sq)
        if moves & x:
            f = flips_at(sq, P, O)
            best = max(best, -brute(O ^ f, P ^ f ^ x, np.int64(0), rule))
    return best


def child(P, O, square):
    x = np.uint64(1) << np.uint64(square)
    f = flips_at(square, np.uint64(P), np.uint64(O))
    return np.uint64(O) ^ f, np.uint64(P) ^ f ^ x


def state_at(empties, seed):
    """A state reached by random play from the start with that many empties, the mover able to place."""
    rng = np.random.default_rng(seed)
    while True:
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            if int((GAME.cells(s) == 0).sum()) == empties and not GAME.must_pass(s):
                return s
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))


def played(empties, seed):
    """(P, O) of state_at(empties, seed)."""
    return tuple(int(b) for b in state_bits(state_at(empties, seed)))


def value_after(P, O, square, rule=0):
    """The exact score of the mover of (P, O) after it plays square (by the solver)."""
    cP, cO = child(P, O, square)
    if bb_moves(cP, cO, ALL):
        return -EndgameSolver(tt_bits=16, rule=rule).solve(cP, cO).score
    if bb_moves(cO, cP, ALL):
        return EndgameSolver(tt_bits=16, rule=rule).solve(cO, cP).score
    return -brute(cP, cO, 1, rule)


def scattered(empties, seed):
    """(P, O) of a random board (discs of random colours, empties anywhere), the mover able to place:
    unreachable shapes full of passes, stuck sides and games ending with empty squares."""
    rng = np.random.default_rng(seed)
    while True:
        squares = rng.permutation(64)
        colours = (rng.random(64) < rng.uniform(0.5, 0.9)).astype(int)  # often one colour dominates
        P = sum(1 << int(q) for q, c in zip(squares[empties:], colours) if c == 0)
        O = sum(1 << int(q) for q, c in zip(squares[empties:], colours) if c == 1)
        if bb_moves(np.uint64(P), np.uint64(O), ALL):
            return P, O


def lopsided(empties, seed):
    """(P, O) of a board of one colour but for a few discs (either side to move, able to place): games
    that end early, often with empty squares left, and sides wiped out."""
    rng = np.random.default_rng(seed)
    while True:
        squares = rng.permutation(64)
        few = int(rng.integers(1, 5))
        major = sum(1 << int(q) for q in squares[empties + few:])
        minor = sum(1 << int(q) for q in squares[empties:empties + few])
        P, O = (major, minor) if rng.integers(2) else (minor, major)
        if bb_moves(np.uint64(P), np.uint64(O), ALL):
            return P, O


POSITIONS = ([played(e, 100 + e * 7 + k) for e in range(1, 11) for k in range(3)]
             + [scattered(e, 200 + e * 11 + k) for e in range(1, 11) for k in range(5)]
             + [lopsided(e, 300 + e * 11 + k) for e in range(2, 11) for k in range(6)])


@pytest.fixture(scope="module")
def exact():
    """Brute-force scores of POSITIONS for both counting rules, and of each position's children."""
    out = {}
    for P, O in POSITIONS:
        for rule in (0, 1):
            out[P, O, rule] = brute(np.uint64(P), np.uint64(O), 0, rule)
    return out


@pytest.mark.parametrize("rule", [0, 1])
def test_solver_matches_brute_force_and_its_move_achieves_the_score(exact, rule):
    """Catches a wrong bound stored or used by the table, an unsound stability cut, a wrong
    last-square count, a mishandled pass or game end, a wrong best move."""
    solver = EndgameSolver(tt_bits=12, rule=rule)  # small and shared: collisions and stale entries happen
    for P, O in POSITIONS:
        solved = solver.solve(P, O)
        assert solved.score == exact[P, O, rule], (hex(P), hex(O), rule)
        assert (np.uint64(P) >> np.uint64(solved.move)) & np.uint64(1) == 0
        cP, cO = child(P, O, solved.move)
        assert -brute(cP, cO, 0, rule) == solved.score
        assert EndgameSolver(tt_bits=16, rule=rule).solve(P, O).score == solved.score  # a fresh table


@pytest.mark.parametrize("rule", [0, 1])
def test_any_guess_gives_the_exact_score_and_a_move_that_achieves_it(exact, rule):
    """The aspiration windows around a guess: at both ends of the range, far off either way, one off
    (odd scores happen with the plain count), and exact.  Catches a window whose miss is read as the
    score, a bound lost between windows, a fail-low window's move taken as best, a window that never
    closes at +-64."""
    solver = EndgameSolver(tt_bits=12, rule=rule)
    for P, O in POSITIONS[::3]:
        want = exact[P, O, rule]
        for guess in (-64, -31, -6, 0, 5, 40, 64, want - 1, want, want + 1):
            solved = solver.solve(P, O, guess=guess)
            assert solved.score == want, (hex(P), hex(O), rule, guess)
            cP, cO = child(P, O, solved.move)
            assert -brute(cP, cO, 0, rule) == want, (hex(P), hex(O), rule, guess)
            solver.clear()


def test_the_sample_has_passes_and_games_ending_with_empty_squares(exact):
    """The brute-force sample really exercises what the two rules and passes change."""
    differ = sum(exact[P, O, 0] != exact[P, O, 1] for P, O in POSITIONS)
    passes = 0
    for P, O in POSITIONS:
        moves = int(bb_moves(np.uint64(P), np.uint64(O), ALL))
        for sq in range(64):
            if moves >> sq & 1:
                cP, cO = child(P, O, sq)
                passes += bb_moves(cP, cO, ALL) == 0 and bb_moves(cO, cP, ALL) != 0
    assert differ >= 5 and passes >= 5


def test_wld_solve_has_the_sign_of_the_exact_score(exact):
    """The window (-1, 1) solve: its score has the exact score's sign and its move keeps that result."""
    for P, O in POSITIONS:
        wld = EndgameSolver(rule=1).solve(P, O, wld=True)
        truth = exact[P, O, 1]
        assert np.sign(wld.score) == np.sign(truth)
        cP, cO = child(P, O, wld.move)
        assert np.sign(-brute(cP, cO, 0, 1)) == np.sign(truth)


def test_a_table_kept_from_wld_solves_serves_exact_solves(exact):
    """One solver, its table kept: win/loss/draw solves (bounds at the edge of (-1, 1)) then exact
    ones, then again.  Catches a table bound taken for an exact value, or used against the wrong
    side of the window."""
    solver = EndgameSolver(tt_bits=14, rule=1)
    for P, O in POSITIONS:
        solver.solve(P, O, wld=True)
        assert solver.solve(P, O).score == exact[P, O, 1]
        assert np.sign(solver.solve(P, O, wld=True).score) == np.sign(exact[P, O, 1])
    for seed in range(6):
        P, O = played(14, 40 + seed)
        wld = solver.solve(P, O, wld=True)
        kept = solver.solve(P, O)
        assert kept.score == EndgameSolver(rule=1).solve(P, O).score and np.sign(kept.score) == np.sign(wld.score)


def test_wld_solve_is_cheaper_than_the_exact_one():
    P, O = played(16, 5)
    assert EndgameSolver().solve(P, O, wld=True).nodes < EndgameSolver().solve(P, O).nodes


def ffo_lines():
    path = DATA / FFO
    return path.read_text().splitlines() if path.is_file() else []


# FFO problems 20..29 but 26 and 28: 6-20 empties, each under ten million nodes
QUICK = [0, 1, 2, 3, 4, 5, 7, 9]


@pytest.mark.shared_data(FFO)
def test_ffo_problems_are_solved_exactly():
    """Exact score and a best move (the file lists every move's score), with empties to the winner
    as the FFO counts; the win/loss/draw solve agrees on the sign.  The node total is a ceiling of
    about twice what the solver needs (catches move ordering, table or cut-off gone wrong)."""
    lines = ffo_lines()
    total = 0
    for k in QUICK:
        pos = parse_obf(lines[k])
        solved = EndgameSolver(rule=1).solve(pos.P, pos.O, node_budget=16_000_000)  # a blow-up fails fast
        assert solved.score == pos.best_score, (20 + k, solved)
        assert pos.scores[solved.move] == pos.best_score
        total += solved.nodes
        wld = EndgameSolver(rule=1).solve(pos.P, pos.O, node_budget=16_000_000, wld=True)
        assert np.sign(wld.score) == np.sign(pos.best_score) == np.sign(pos.scores[wld.move])
    assert total < 40_000_000


def test_budget_is_a_ceiling_and_the_same_call_visits_the_same_nodes():
    state = state_at(12, 4)
    P, O = played(14, 3)
    with pytest.raises(SolveBudgetExceeded) as out:
        EndgameSolver().solve(P, O, node_budget=500)
    assert out.value.nodes == 501
    full = EndgameSolver().solve(P, O)
    assert EndgameSolver().solve(P, O, node_budget=full.nodes) == full
    assert solve_endgame(state).nodes == solve_endgame(state).nodes


class StepClock:
    """A clock that advances one second at every reading."""

    def __init__(self):
        self.now = -1.0
        self.readings = 0

    def __call__(self):
        self.now += 1.0
        self.readings += 1
        return self.now


def test_deadline_stops_between_slices_and_slices_give_the_same_answer():
    """With a deadline the clock is read once per slice of nodes: the solve stops at the first reading
    at or past the deadline, having searched at most that many slices; a solve in many small slices
    (each restarting from the root with the table kept) finds the one-piece answer."""
    P, O = played(16, 7)
    whole = EndgameSolver().solve(P, O)
    clock = StepClock()
    solver = EndgameSolver(clock=clock, slice_nodes=1000)
    with pytest.raises(SolveDeadlineExceeded) as out:
        solver.solve(P, O, deadline=5.0)
    assert clock.readings == 6 and out.value.nodes <= 5 * 1000 + 1
    assert isinstance(out.value, SolveBudgetExceeded)  # the adapters' handler catches both
    sliced = EndgameSolver(clock=StepClock(), slice_nodes=5000).solve(P, O, deadline=1e9)
    assert sliced.score == whole.score and value_after(P, O, sliced.move) == whole.score
    assert sliced.nodes > whole.nodes  # it did restart
    with pytest.raises(SolveBudgetExceeded) as out:  # the node budget still holds across slices
        EndgameSolver(clock=StepClock(), slice_nodes=1000).solve(P, O, node_budget=2500, deadline=1e9)
    assert not isinstance(out.value, SolveDeadlineExceeded) and out.value.nodes == 2501


def test_solve_endgame_keeps_its_contract():
    """The knowledge module's entry point: the mover's move and exact plain-count score."""
    rng = np.random.default_rng(11)
    for _ in range(3):
        s = GAME.initial_state()
        while int((GAME.cells(s) == 0).sum()) > 9 or GAME.must_pass(s):
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))
            if GAME.is_terminal(s):
                s = GAME.initial_state()
        solved = solve_endgame(s)
        P, O = state_bits(s)
        assert solved.score == brute(P, O, 0, 0) and GAME.is_legal(s, solved.move)
    with pytest.raises(ValueError):
        solve_endgame(Othello(6).initial_state())


def test_a_mover_who_must_pass_is_solved_through_the_pass():
    """A position whose mover must pass (a hint's child after a move that leaves the opponent no
    placement) is solved: the move PASS, the mover's score after the opponent's best, exact and
    win/loss/draw, in both variants' sense; a final position is refused."""
    rng = np.random.default_rng(5)
    found = 0
    while found < 3:
        s = GAME.initial_state()
        while not GAME.is_terminal(s) and not (GAME.must_pass(s) and int((GAME.cells(s) == 0).sum()) <= 12):
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))
        if GAME.is_terminal(s):
            continue
        found += 1
        P, O = (int(b) for b in state_bits(s))
        solved = solve_endgame(s, guess=5)
        assert solved.move == PASS == GAME.pass_action
        assert solved.score == brute(np.uint64(P), np.uint64(O), 0, 0) == -solve_endgame(GAME.play(s, PASS)).score
        wld = EndgameSolver(tt_bits=16).solve(P, O, wld=True)
        assert wld.move == PASS and np.sign(wld.score) == np.sign(solved.score)
        with pytest.raises(ValueError, match="not final"):  # the manager's variant has no pass: the game is over
            EndgameSolver(tt_bits=16, stuck_ends=True).solve(P, O)
    while not GAME.is_terminal(s):
        s = GAME.play(s, int(GAME.legal_moves(s)[0]))
    with pytest.raises(ValueError, match="not final"):
        solve_endgame(s)


def test_stable_discs_never_flip():
    """No disc stable_bits names ever changes colour in random play to the end (soundness), and
    full boards are all stable (a cut-off from it is then as strong as can be)."""
    rng = np.random.default_rng(3)
    named = 0
    for seed in range(60):
        P, O = scattered(int(rng.integers(4, 20)), 900 + seed)
        stable = int(stable_bits(np.uint64(P), np.uint64(O)))
        named += bin(stable).count("1")
        assert stable & ~P == 0
        for _ in range(20):
            p, o, mover = np.uint64(P), np.uint64(O), 0
            for _ in range(64):
                moves = int(bb_moves(p, o, ALL))
                if not moves:
                    if not bb_moves(o, p, ALL):
                        break
                    p, o, mover = o, p, 1 - mover
                    continue
                squares = [q for q in range(64) if moves >> q & 1]
                p, o = child(p, o, squares[rng.integers(len(squares))])
                mover = 1 - mover
                mine = int(p) if mover == 0 else int(o)
                assert stable & ~mine == 0
    assert named > 100
    assert int(stable_bits(np.uint64(0x00FF00FF00FF00FF), np.uint64(0xFF00FF00FF00FF00))) == 0x00FF00FF00FF00FF


def test_the_managers_variant_is_solved_under_its_own_rules():
    """stuck_ends (the game manager's rules: a mover without a placement ends the game, no pass): the
    solver's score is the one of a complete alpha-beta search of the manager's game on the disc
    difference (independent code), its move achieves it, and the sample has positions where the
    standard rules (with passes) give another score, so the variant really changes the solve."""
    from engines.games import make_game
    from engines.knowledge.registry import knowledge_for
    from engines.knowledge.othello.endgame import solve_state
    from engines.search import Limits, make_searcher
    game = make_game("othello", size=8, variant="manager")
    standard = make_game("othello", size=8)
    search = make_searcher("alphabeta", game, {}, knowledge_for(game, "disc_difference"))
    differ = 0
    rng = np.random.default_rng(7)
    for trial in range(40):
        s = game.initial_state()
        while not game.is_terminal(s) and int((game.cells(s) == 0).sum()) > 10:
            moves = game.legal_moves(s)
            s = game.play(s, int(moves[rng.integers(len(moves))]))
        if game.is_terminal(s):
            continue
        solved = solve_state(s)
        exact = search.search(s, Limits(depth=64))
        assert exact.stats["complete"] and solved.score == exact.value, trial
        after = game.play(s, solved.move)
        achieved = (game.score(after) * (1 if game.to_move(s) == 0 else -1) if game.is_terminal(after)
                    else -solve_state(after).score)
        assert achieved == solved.score, trial
        twin = standard.state_from_cells(game.cells(s), game.to_move(s))
        differ += solve_state(twin).score != solved.score
    assert differ >= 3
