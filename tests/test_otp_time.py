"""The time rule of the Othello adapters (adapters/othello_time.py) and the endgame switch of plies-otp
(exact solve, win/loss/draw solve, search), on an injected clock: budgets are asserted as not
exceeded in readings of a fake clock, never in wall time."""
import numpy as np
import pytest

from adapters.othello_agent import OthelloAgentSettings, PipeAgent
from adapters.othello_time import move_seconds
from adapters.otp import OtpSettings, Player
from engines.games import make_game
from engines.knowledge.othello import solve_endgame
from protocols.othello_pipe import Flags

GAME = make_game("othello", size=8)


class FakeClock:
    """Advances by `step` seconds at each reading."""

    def __init__(self, step):
        self.t = 0.0
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t


def position(empties, seed, legal=None):
    """A position with that many empty squares reached by seeded random play, the mover placing
    (with exactly `legal` moves when given)."""
    rng = np.random.default_rng(seed)
    while True:
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            n = len(GAME.legal_moves(s))
            if (int((GAME.cells(s) == 0).sum()) == empties and not GAME.must_pass(s)
                    and (legal is None or n == legal)):
                return s
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))


def test_the_rule():
    assert move_seconds(8.0, 30, 64, 1, 0.2, 0.5) == 0.0          # forced
    assert move_seconds(8.0, 8, 64, 6, 0.2, 0.5) == 4.0           # opening: 8 discs < 12.8
    assert move_seconds(8.0, 13, 64, 6, 0.2, 0.5) == 8.0          # the middle game
    assert move_seconds(8.0, 60, 64, 3, 0.2, 0.5) == 8.0          # the endgame
    assert move_seconds(8.0, 8, 64, 6, 0.0, 0.5) == 8.0           # no opening


@pytest.mark.parametrize("empties", [58, 52, 40, 30, 18, 16, 14])
def test_a_move_never_exceeds_its_budget_on_the_injected_clock(empties):
    """From the opening to the exact endgame, choose() reads the clock for the last time before the
    budget (1 s, margin 0.05 s of 10 ms readings) is spent; the opening spends at most its share.
    (Smaller solve thresholds than the defaults: on a fake clock the solves look infinitely fast,
    and each retry really runs.)"""
    settings = OtpSettings(solve_empties=14, wld_extra=2)
    clock = FakeClock(0.01)
    player = Player(settings, clock=clock)
    for seed in range(2):
        state = position(empties, seed)
        start = clock()
        move = player.choose(state, 1.0, start)
        assert GAME.is_legal(state, move)
        discs = 64 - empties
        allowed = settings.opening_share if discs < settings.opening_fill * 64 else 1.0
        assert clock.t - start <= allowed, (empties, seed, player.last, clock.t - start)


def test_a_forced_move_reads_no_clock():
    clock = FakeClock(0.01)
    player = Player(OtpSettings(), clock=clock)
    state = position(30, 1, legal=1)
    start = clock()
    assert player.choose(state, 1.0, start) == GAME.legal_moves(state)[0]
    assert clock.t == start and player.last == {"forced": True}


def test_win_loss_draw_solve_a_few_empties_before_the_exact_one():
    """Beyond solve_empties but within wld_extra more, a position that is won or drawn is answered by
    the win/loss/draw solve with a move that keeps that result (checked by exact solves); a lost one
    is searched.  With wld_extra 0 it is searched."""
    settings = OtpSettings(solve_empties=12, wld_extra=3)
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
    off = Player(OtpSettings(solve_empties=12, wld_extra=0))
    off.choose(position(14, 0), 100.0)
    assert off.last["solved"] is False


# ---- the pipe agent ---------------------------------------------------------------------------------
def _board(state):
    return [[int(c) for c in row] for row in GAME.cells(state)]


def test_the_agent_searches_a_forced_move_on_a_node_budget():
    agent = PipeAgent(OthelloAgentSettings(forced_nodes=500), clock=FakeClock(0.01))
    state = position(30, 2, legal=1)
    color = GAME.to_move(state) + 1
    flags = Flags(color=color, limit=-1, caching=True, ordering=True)
    agent.choose(_board(state), flags)
    assert agent.last.stats["nodes"] <= 500 + 64


def test_the_agent_spends_its_opening_share_on_the_injected_clock():
    settings = OthelloAgentSettings(seconds=1.0)
    clock = FakeClock(0.01)
    agent = PipeAgent(settings, clock=clock)
    flags = Flags(color=1, limit=-1, caching=True, ordering=True)
    board = _board(GAME.initial_state())
    agent.choose(board, flags)  # builds the searcher
    start = clock()
    agent.choose(board, flags, start)
    assert clock.t - start <= settings.opening_share * settings.seconds
    mid = position(36, 3)
    start = clock()
    agent.choose(_board(mid), Flags(color=GAME.to_move(mid) + 1, limit=-1, caching=True, ordering=True), start)
    assert clock.t - start <= settings.seconds
