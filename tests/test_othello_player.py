"""The Othello player (engines/players/othello.py) that plies-otp and the pipe agent both ask: the time
rule (formerly adapters/othello_time.py), forced moves answered at once, the endgame switch (exact solve,
win/loss/draw solve, search) on an injected clock, the pipe agent's exact endgame under the manager's
rules, and the cold-start fallback search over the reference rules.  Budgets are asserted as not
exceeded in readings of a fake clock, never in wall time."""
import random

import numpy as np
import pytest

from adapters.othello_agent import OthelloAgentSettings, PipeAgent
from adapters.otp import OtpSettings
from engines.games import make_game
from engines.games.reference import othello as rules
from engines.knowledge.othello.registered import EVALUATIONS, solve_endgame
from engines.knowledge.othello.endgame import solve_state
from engines.players import othello as player_module
from engines.players.coldstart import fallback_search
from engines.players.othello import OthelloSettings, make_player, time_share
from protocols.othello_pipe import Flags
from conftest import TickingClock

GAME = make_game("othello", size=8)
MANAGER_GAME = make_game("othello", size=8, variant="manager")


def Player(settings=OthelloSettings(), clock=None):
    return make_player(settings, clock=clock) if clock is not None else make_player(settings)


def position(empties, seed, legal=None, game=GAME):
    """A position with that many empty squares reached by seeded random play, the mover placing
    (with exactly `legal` moves when given)."""
    rng = np.random.default_rng(seed)
    while True:
        s = game.initial_state()
        while not game.is_terminal(s):
            n = len(game.legal_moves(s))
            if (int((game.cells(s) == 0).sum()) == empties and not game.must_pass(s)
                    and (legal is None or n == legal)):
                return s
            moves = game.legal_moves(s)
            s = game.play(s, int(moves[rng.integers(len(moves))]))


# ==== the settings: one dataclass, the same names in both adapters ================================
def test_the_adapters_share_the_players_settings():
    from adapters.nboard import NBoardSettings
    keys = set(OthelloSettings.__dataclass_fields__)
    for cls in (OtpSettings, OthelloAgentSettings, NBoardSettings):
        assert keys <= set(cls.__dataclass_fields__)
    # one name for one meaning: the budget a move is ``time`` in every Othello adapter (issue 32)
    assert set(OtpSettings.__dataclass_fields__) - keys == {"time", "name"}
    assert set(OthelloAgentSettings.__dataclass_fields__) - keys == {"time", "verbose", "name"}
    assert set(NBoardSettings.__dataclass_fields__) - keys == {"time", "depth", "name"}
    assert player_module.EVALUATION_NAMES == tuple(EVALUATIONS)
    for key in keys:
        assert getattr(OtpSettings(), key) == getattr(OthelloAgentSettings(), key) == getattr(OthelloSettings(), key) \
            == getattr(NBoardSettings(), key)


def test_disc_value_knows_the_win_score():
    from engines.knowledge.scores import WIN_SCORE
    assert player_module.disc_value(WIN_SCORE + 6) == 6 and player_module.disc_value(-WIN_SCORE - 2) == -2
    assert player_module.disc_value(3.5) == 3.5 and player_module.disc_value(0.0) == 0.0
    assert player_module.WIN_SCORE == WIN_SCORE


# ==== time ========================================================================================
def test_the_opening_rule():
    s = OthelloSettings()
    assert time_share(s, 8, 64) == 0.5           # opening: 8 discs < 12.8
    assert time_share(s, 13, 64) == 1.0          # the middle game
    assert time_share(s, 60, 64) == 1.0          # the endgame
    assert time_share(OthelloSettings(opening_fill=0.0), 8, 64) == 1.0  # no opening


@pytest.mark.parametrize("pacing", [True, False])
@pytest.mark.parametrize("empties", [58, 52, 40, 30, 18, 16, 14])
def test_a_move_never_exceeds_its_budget_on_the_injected_clock(empties, pacing):
    """From the opening to the exact endgame, choose() reads the clock for the last time before the
    budget (1 s, margin 0.1 s of 10 ms readings) is spent; without the pacer the opening spends at most
    its share (with it, the share scales the soft target, and an unstable root may go on to the hard
    limit).  (Smaller solve thresholds than the defaults: on a fake clock the solves look infinitely
    fast, and each retry really runs.)"""
    settings = OthelloSettings(solve_empties=14, wld_extra=2, pacing=pacing)
    clock = TickingClock(0.01)
    player = Player(settings, clock=clock)
    for seed in range(2):
        state = position(empties, seed)
        start = clock()
        move = player.choose(state, 1.0, start)
        assert GAME.is_legal(state, move)
        discs = 64 - empties
        allowed = settings.opening_share if discs < settings.opening_fill * 64 and not pacing else 1.0
        assert clock.t - start <= allowed + 1e-9, (empties, seed, player.last, clock.t - start)


# ==== forced moves: answered at once, in both adapters ============================================
def test_a_forced_move_reads_no_clock():
    clock = TickingClock(0.01)
    player = Player(OthelloSettings(), clock=clock)
    state = position(30, 1, legal=1)
    start = clock()
    assert player.choose(state, 1.0, start) == GAME.legal_moves(state)[0]
    assert clock.t == start and player.last == {"forced": True} and player.result is None


def _board(state, game=GAME):
    return [[int(c) for c in row] for row in game.cells(state)]


def test_the_agent_answers_a_forced_move_at_once():
    """The pipe agent's forced move follows the player's one rule (it used to search forced_nodes nodes)."""
    clock = TickingClock(0.01)
    agent = PipeAgent(OthelloAgentSettings(), clock=clock)
    state = position(30, 2, legal=1, game=MANAGER_GAME)
    flags = Flags(color=MANAGER_GAME.to_move(state) + 1, limit=-1, caching=True, ordering=True)
    agent.player(8)
    start = clock()
    row, col = agent.choose(_board(state, MANAGER_GAME), flags, start)
    assert MANAGER_GAME.action(row, col) == MANAGER_GAME.legal_moves(state)[0]
    assert agent.last is None and agent.player(8).last == {"forced": True} and clock.t == start  # no reading


# ==== the endgame: when to solve ==================================================================
def test_the_solve_policy_picks_the_solver_at_few_empties():
    """At most solve_empties empties: the exact solve (its score is the solver's); a few more: the
    win/loss/draw solve or the search; more: the search.  A depth limit asks for a search: no solve."""
    settings = OthelloSettings(solve_empties=12, wld_extra=2)
    player = Player(settings)
    state = position(12, 3)
    move = player.choose(state, 100.0)
    exact = solve_endgame(state)
    assert player.last == {"solved": True, "score": exact.score, "nodes": player.last["nodes"]}
    assert move == exact.move or -solve_endgame(GAME.play(state, move)).score == exact.score
    player.choose(position(20, 3), 0.3)
    assert player.last["solved"] is False and player.result is not None
    player.choose(state, 0.3, depth=3)
    assert player.last["solved"] is False and player.last["depth"] <= 3
    mcts = Player(OthelloSettings(algo="uct", solve_empties=12))
    mcts.choose(state, 0.2)
    assert mcts.last["solved"] is False


def test_win_loss_draw_solve_a_few_empties_before_the_exact_one():
    """Beyond solve_empties but within wld_extra more, a position that is won or drawn is answered by
    the win/loss/draw solve with a move that keeps that result (checked by exact solves); a lost one
    is searched.  With wld_extra 0 it is searched."""
    settings = OthelloSettings(solve_empties=12, wld_extra=3)
    player = Player(settings)
    kinds = set()
    for seed in range(8):
        state = position(14, seed)
        best = solve_endgame(state).score
        move = player.choose(state, 100.0)
        if best >= 0:
            assert player.last["solved"] and player.last["wld"] and player.last["score"] * best >= 0
            child = GAME.play(state, move)
            value = -solve_endgame(child).score if not GAME.must_pass(child) else None
            if value is not None:
                assert (value > 0) == (best > 0) and (value == 0) == (best == 0), (seed, best, value)
            kinds.add("won or drawn")
        else:
            assert player.last["solved"] is False and "depth" in player.last
            kinds.add("lost")
    assert kinds == {"won or drawn", "lost"}
    off = Player(OthelloSettings(solve_empties=12, wld_extra=0))
    off.choose(position(14, 0), 100.0)
    assert off.last["solved"] is False


# A position of the manager's game (16 empties, dark to move) whose only winning move is (6, 0): every
# other move loses.  An alpha-beta search of 1 s on a clock of 2 ms readings (depth 7) plays (7, 0).
ONLY_THE_SOLVE_WINS = [[0, 1, 2, 0, 0, 0, 2, 0], [0, 0, 1, 2, 2, 2, 1, 1], [1, 1, 1, 2, 2, 1, 1, 1],
                       [1, 1, 2, 1, 1, 2, 1, 2], [1, 2, 1, 1, 1, 1, 2, 0], [2, 0, 2, 1, 1, 1, 0, 0],
                       [0, 2, 0, 1, 1, 2, 2, 2], [0, 2, 2, 2, 2, 2, 0, 0]]


def _manager_value(board, point):
    """Dark's exact final disc margin after dark plays point, under the manager's rules."""
    after = MANAGER_GAME.play(MANAGER_GAME.state_from_cells(board, 0), MANAGER_GAME.action(*point))
    if MANAGER_GAME.is_terminal(after):
        return MANAGER_GAME.score(after)
    return -solve_state(after).score


@pytest.mark.parametrize("solves", [True, False])
def test_the_pipe_agent_plays_the_exact_endgame(solves):
    """The pipe agent gains the exact solver (a policy change): with the default settings it wins this
    position, whose only winning move a 1 s search misses; with the solve switched off (solve_empties 0,
    wld_extra 0) the same agent on the same clock plays a losing move, so the test fails if it does not
    solve.  (The solver's manager-variant scores are checked against a complete alpha-beta search in
    test_othello_endgame.py.)"""
    wins = [p for p in rules.legal_moves(ONLY_THE_SOLVE_WINS, 1) if _manager_value(ONLY_THE_SOLVE_WINS, p) > 0]
    assert wins == [(6, 0)]
    settings = OthelloAgentSettings(time=1.0) if solves else OthelloAgentSettings(time=1.0, solve_empties=0,
                                                                                      wld_extra=0)
    agent = PipeAgent(settings, clock=TickingClock(0.002))
    point = agent.choose(ONLY_THE_SOLVE_WINS, Flags(1, -1, False, True, True))
    if solves:
        assert point == (6, 0) and agent.player(8).last["solved"] and agent.last is None
    else:
        assert _manager_value(ONLY_THE_SOLVE_WINS, point) < 0 and agent.last.stats["depth"] >= 5


def test_the_agent_plays_an_mcts_algo_of_its_settings():
    """algo is the same setting in both adapters: the pipe agent runs UCT on the clock (the manager's
    alpha-beta flags do not apply to it)."""
    messages = []
    agent = PipeAgent(OthelloAgentSettings(time=0.2, algo="uct"), log=messages.append)
    board = rules.initial_board(6)
    assert agent.choose(board, Flags(1, 3, False, True, True)) in rules.legal_moves(board, 1)
    assert agent.last is not None and "(uct)" in messages[-1]


def test_a_depth_limit_of_the_manager_is_honoured_in_the_endgame():
    agent = PipeAgent(OthelloAgentSettings(time=1.0), clock=TickingClock(0.002))
    agent.choose(ONLY_THE_SOLVE_WINS, Flags(1, 3, False, True, True))
    assert agent.last is not None and agent.last.stats["depth"] == 3


# ==== the cold start: a shallow search over the reference rules ===================================
class CountedDeadline:
    """Passed after `checks` readings: a budget of work, not of seconds (the games repeat anywhere)."""

    def __init__(self, checks):
        self.checks = checks
        self.late = 0  # readings after the first that said passed

    def passed(self):
        self.checks -= 1
        self.late += self.checks < -1
        return self.checks < 0


def test_the_reference_search_rules():
    r = rules.SearchRules()
    start = rules.Position.start(8)
    assert r.moves(start) == start.legal() and r.outcome(start) is None and r.evaluate(start) == 0.0
    over = rules.Position([[1] * 8 for _ in range(7)] + [[0] * 8], 2)
    assert r.outcome(over) == -1 and r.outcome(rules.Position(over.board, 1)) == 1
    corner = [[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert r.evaluate(rules.Position(corner, 1)) > 0 > r.evaluate(rules.Position(corner, 2))
    rng = random.Random(0)
    p = rules.Position.start(6, rules.MANAGER)
    while r.outcome(p) is None:
        assert -1 < r.evaluate(p) < 1
        p = r.play(p, rng.choice(r.moves(p)))


def _fallback_game(searcher_colour, seed, size=6, checks=400):
    """A game on size x size: the fallback search (a fixed amount of work a move) as searcher_colour, the
    one-ply rule (rules.fallback_move) as the other, after four seeded random moves; dark's margin."""
    rng = random.Random(seed)
    p = rules.Position.start(size)
    for _ in range(4):
        p = p.play(rng.choice(p.legal()))
    while not p.is_over():
        if p.to_move == searcher_colour:
            move = fallback_search(rules.SearchRules(), p, CountedDeadline(checks))
        else:
            move = p.fallback()
        p = p.play(move)
    return p.score() if searcher_colour == rules.DARK else -p.score()


def test_the_fallback_search_beats_the_one_ply_rule():
    """Counted games on 6x6, both colours, the search's work per move fixed by counted deadline
    readings (not seconds): it wins clearly more than it loses."""
    margins = [_fallback_game(colour, seed) for seed in range(4) for colour in (rules.DARK, rules.LIGHT)]
    wins, losses = sum(m > 0 for m in margins), sum(m < 0 for m in margins)
    assert wins >= 6 and wins > 2 * losses, margins


def test_the_fallback_search_stops_at_its_deadline():
    """The search returns at the first reading of its deadline that says passed (a deadline already
    passed: a legal move at once), whatever the work left; the adapters' fallback_move is legal."""
    p = rules.Position.start(8).play((2, 3)).play((2, 2))
    for checks in (0, 1, 10, 200):
        deadline = CountedDeadline(checks)
        assert fallback_search(rules.SearchRules(), p, deadline) in p.legal()
        assert deadline.checks == -1 and deadline.late == 0
    assert player_module.fallback_move(p, 0.2) in p.legal()
