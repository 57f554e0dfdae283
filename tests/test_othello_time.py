"""The time manager of iterative deepening (engines/players/clock.py: IterationPacer) and the Othello
player's use of it (engines/players/othello.py): its decisions counted on fake clocks (an unstable root
gets more time than a stable one, an obvious one less, a depth that cannot fit is not started, a game
clock's share), the alpha-beta search stopped by it and by the hard limit, and the paced endgame solve
(started when it fits, the midgame move when it cannot finish).  No wall time is measured: budgets are
asserted as not exceeded in readings of injected clocks."""
import numpy as np
import pytest

from conftest import TickingClock
from engines.games import make_game
from engines.players.clock import IterationPacer
from engines.players.othello import OthelloSettings, make_player
from engines.search import Limits

GAME = make_game("othello", size=8)


def deepen(pacer, moves, values, base=0.001, growth=3.0):
    """Run a fake iterative deepening on ``pacer``: depth d takes base * growth**d seconds of a fake clock
    and ends with moves[d-1], values[d-1]; returns (seconds spent, depths completed).  The search's own
    hard limit is the pacer's deadline: a depth that would pass it is cut there."""
    now, depth = pacer.start, 0
    while depth < len(moves):
        cost = base * growth ** (depth + 1)
        if now + cost > pacer.deadline:
            return pacer.deadline - pacer.start, depth  # cut short by the hard limit
        now += cost
        depth += 1
        if not pacer.deepen(depth, moves[depth - 1], values[depth - 1], now):
            break
    return now - pacer.start, depth


STABLE = ([3] * 12, [1.0] * 12)
UNSTABLE = ([3, 4] * 6, [1.0] * 12)         # the best move changes at every depth
FALLING = ([3] * 12, [10.0 - 3 * d for d in range(12)])  # the value drops by 3 discs a depth
RISING = ([3] * 12, [3.0 * d for d in range(12)])         # neither unstable nor obvious: normal


def test_an_unstable_root_gets_more_time_than_a_stable_one():
    spent = {}
    for name, (moves, values) in {"stable": STABLE, "unstable": UNSTABLE, "falling": FALLING}.items():
        pacer = IterationPacer(soft=0.5, hard=1.0, start=10.0)
        spent[name] = deepen(pacer, moves, values)
    assert spent["unstable"][0] > spent["stable"][0] and spent["falling"][0] > spent["stable"][0], spent
    assert spent["stable"][0] <= 0.5 and max(s for s, _ in spent.values()) <= 1.0  # the soft target; the hard limit


def test_an_obvious_move_spends_less_than_the_soft_target():
    """The same best move and value at every depth: after obvious_depths depths the target is
    obvious_share of the soft target; with obvious_share 1 the same root spends more."""
    quick = IterationPacer(soft=1.0, hard=1.0, start=0.0, obvious_share=0.4)
    full = IterationPacer(soft=1.0, hard=1.0, start=0.0, obvious_share=1.0)
    (fast, _), (slow, _) = deepen(quick, *STABLE), deepen(full, *STABLE)
    assert fast <= 0.4 < slow and quick.stopped == "obvious"
    assert quick.decisions["obvious"] >= 1 and quick.summary()["stopped"] == "obvious"


def test_no_depth_is_started_that_is_predicted_not_to_finish():
    """finish_share 1: a depth is started only when its predicted time (parity-aware growth) fits before
    the target, so the fake search is never cut by the hard limit and stops before it; the prediction
    is the growth of the depths of the same parity."""
    pacer = IterationPacer(soft=1.0, hard=1.0, start=0.0, finish_share=1.0)
    spent, depth = deepen(pacer, *RISING)
    assert spent < 1.0 and pacer.stopped == "normal"
    assert spent + 0.001 * 3.0 ** (depth + 1) > 1.0  # the next depth would not have fitted
    alternating = IterationPacer(soft=1.0, hard=1.0, start=0.0)
    for depth, seconds in enumerate([0.01, 0.02, 0.08, 0.16], 1):  # odd depths x4 over two, even x8
        alternating.history.append((depth, 1, 0.0, seconds))
    assert alternating.predicted() == pytest.approx(0.08 * 0.16 / 0.02)  # t(d-1) * t(d) / t(d-2)


def test_the_game_clock_share():
    """A game clock: an even share of what is left over our moves still to come, the hard limit three
    times that but never past what is left less the margin."""
    pacer = IterationPacer.for_game_clock(60.0, 30, start=0.0, margin=0.1)
    assert pacer.soft == pytest.approx((60.0 - 3.0) / 30) and pacer.hard == pytest.approx(3 * pacer.soft)
    late = IterationPacer.for_game_clock(1.0, 1, start=5.0, margin=0.1)
    assert late.hard == pytest.approx(0.9) and late.deadline == pytest.approx(5.9)
    fixed = IterationPacer.for_budget(2.0, start=1.0, margin=0.2, soft_share=0.5)
    assert (fixed.soft, fixed.hard, fixed.deadline) == pytest.approx((0.9, 1.8, 2.8))
    for bad in ({"soft": 2.0, "hard": 1.0}, {"soft": -1.0, "hard": 1.0}, {"soft": 0.5, "hard": float("nan")}):
        with pytest.raises(ValueError):
            IterationPacer(start=0.0, **bad)
    with pytest.raises(ValueError):
        IterationPacer(0.5, 1.0, 0.0, finish_share=0.0)


# ==== the alpha-beta search and the player on injected clocks ========================================
def position(empties, seed):
    rng = np.random.default_rng(seed)
    while True:
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            if int((GAME.cells(s) == 0).sum()) == empties and not GAME.must_pass(s) and len(GAME.legal_moves(s)) > 1:
                return s
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))


class StopAfter:
    """A pacer that lets the search go on until ``depth`` is completed, and records what it was told."""

    def __init__(self, depth):
        self.depth, self.told = depth, []

    def deepen(self, depth, move, value, now):
        self.told.append((depth, move))
        return depth < self.depth


@pytest.fixture(scope="module")
def player():
    return make_player(OthelloSettings(tt_size=1 << 16))


def test_the_search_stops_where_its_pacer_says(player):
    state = position(40, 1)
    pacer = StopAfter(4)
    result = player.searcher.search(state, Limits(time=1e6, depth=7, pacer=pacer))  # depth 7: a bound if it is not asked
    reference = player.searcher.search(state, Limits(depth=4))
    assert result.stats["depth"] == 4 and [d for d, _ in pacer.told] == [1, 2, 3, 4]
    assert (result.move, result.value) == (reference.move, reference.value) and pacer.told[-1][1] == reference.move


def test_the_hard_limit_stops_the_search_with_the_last_completed_depth(player):
    """A pacer that never stops: the hard limit (the search's deadline, on a clock of 20 ms readings:
    each kernel call looks that long, so the calls stay small) ends the search; its answer is a completed
    depth's move (or a cut-short depth that searched that move first), and the clock is read at most
    three times past the deadline (the reading that finds it passed, the search's time, its return)."""
    state = position(36, 2)
    clock = TickingClock(0.02)
    searcher = player.searcher
    old, searcher.clock = searcher.clock, clock
    try:
        result = searcher.search(state, Limits(time=0.3, start=0.0, margin=0.0, pacer=StopAfter(99)))
    finally:
        searcher.clock = old
    assert clock.t <= 0.3 + 3 * 0.02 + 1e-9
    depth = result.stats["depth"]
    assert depth >= 1 and not result.stats["complete"]
    if not result.stats["partial_depth"]:
        assert result.move == player.searcher.search(state, Limits(depth=depth)).move


@pytest.mark.parametrize("empties", [50, 36, 24, 20, 16])
def test_a_paced_move_never_exceeds_its_budget(empties):
    """choose() with the pacer, from the middle game to the solves: the last clock reading (50 ms each;
    few, so that the kernel calls stay small) comes before the budget of 1 s (its margin, 0.2 s, covers
    the readings after the hard limit; solve_rate large so that solves are tried, and on this clock
    they do not finish)."""
    clock = TickingClock(0.05)
    player = make_player(OthelloSettings(tt_size=1 << 16, solve_rate=1e12, margin=0.2), clock=clock)
    for seed in range(2):
        state = position(empties, seed)
        start = clock()
        move = player.choose(state, 1.0, start)
        assert GAME.is_legal(state, move) and clock.t - start <= 1.0 + 1e-9, (empties, player.last)


def test_the_solve_starts_when_it_fits_and_the_search_answers_when_it_cannot_finish():
    """At 20 empties: a budget the predicted solve fits in gives the exact solve's move; a short budget
    (predicted not to fit) gives the search's, without trying; a solve predicted to fit (an assumed rate
    far too high) that cannot finish (a clock of 20 ms readings) gives the midgame search's move, in
    the budget."""
    state = position(20, 4)
    roomy = make_player(OthelloSettings(tt_size=1 << 16))
    roomy.choose(state, 100.0)
    assert roomy.last["solved"] is True and "wld" not in roomy.last
    short = make_player(OthelloSettings(tt_size=1 << 16, solve_rate=1e6))
    short.choose(state, 1.0)
    assert short.last["solved"] is False and short._exact_solver is None and short._wld_solver is None
    clock = TickingClock(0.02)
    hopeful = make_player(OthelloSettings(tt_size=1 << 16, solve_rate=1e12), clock=clock)
    start = clock()
    move = hopeful.choose(state, 1.0, start)
    assert hopeful._exact_solver is not None  # it was tried
    assert hopeful.last["solved"] is False and hopeful.last["depth"] >= 1 and GAME.is_legal(state, move)
    assert clock.t - start <= 1.0 + 1e-9  # the budget (its margin covers the readings past the hard limit)


def test_one_legal_move_answers_without_a_search_or_a_clock_reading():
    clock = TickingClock(0.01)
    player = make_player(OthelloSettings(tt_size=1 << 16), clock=clock)
    rng = np.random.default_rng(0)
    while True:
        s = GAME.initial_state()
        while not GAME.is_terminal(s) and len(GAME.legal_moves(s)) != 1:
            moves = GAME.legal_moves(s)
            s = GAME.play(s, int(moves[rng.integers(len(moves))]))
        if not GAME.is_terminal(s):
            break
    assert player.choose(s, 1.0, 0.0) == GAME.legal_moves(s)[0]
    assert clock.t == 0.0 and player.last == {"forced": True}
