"""The Go player (engines/players/go.py): its policies (resign, pass when counting wins, cleanup, free
handicap placement), the deadline the one time manager gives each kind of clock (a per-move budget,
GTP's and KGS's game clocks, Go5's simulation count, Little-Go's CPU time), the engine's own count of
its time on the game clock in every time system, and the cold session's hand-over to the engine.
Clocks are simulated (each reading advances a step): no assertion depends on the machine's speed."""
import time

import numpy as np
import pytest

from adapters import go_gtp
from engines.games.go import Go
from engines.players.clock import CPU, GameClock, TimeControl, TimeManager
from engines.players.coldstart import ColdStart
from engines.players.go import PASS, RESIGN, GoPlayer, GoSettings, free_handicap_points
from protocols import gtp_go
from conftest import FakeClock

# A black wall on column E with the area to its left, a white wall on F; the white stone B5 is dead.
DEAD_INSIDE = ["....XO...", "....XO...", "....XO...", "....XO...", ".O..XO...",
               "....XO...", "....XO...", "....XO...", "....XO..."]


def grid(rows) -> np.ndarray:
    return np.array([[".XO".index(ch) for ch in row] for row in rows], dtype=np.int8)


def player(size=9, komi=7.0, manager=None, simulations=200, **settings) -> GoPlayer:
    values = {"search": "mcts", "c": 0.7, "capacity": 100_000, "seed": 1}
    values.update(settings)
    p = GoPlayer(GoSettings(**values), manager or TimeManager(None), simulations, komi=komi)
    p.start(size)
    return p


# ==== the policies ====================================================================================

def test_passes_when_the_opponent_passed_and_counting_wins_and_only_then():
    p = player()
    state = p.game.state_from_cells(grid(DEAD_INSIDE), 0)
    assert p.counted_score(state) == 2.0  # B5 dead: black 45, white 36 + 7
    assert p.choose(state, 0, 0.0, opponent_passed=True) is PASS
    assert p.last_result is None or p.last_limits is None  # decided without a search
    searched = p.choose(state, 0, 0.0, opponent_passed=False)
    assert searched is not PASS and p.last_limits is not None
    losing = p.game.set_to_move(state, 1)
    assert p.choose(losing, 1, 0.0, opponent_passed=True) not in (PASS, RESIGN)  # white would lose the count


def test_cleanup_plays_a_liberty_of_the_dead_stones_before_it_passes():
    p = player()
    state = p.game.state_from_cells(grid(DEAD_INSIDE), 0)
    assert p.choose(state, 0, 0.0, opponent_passed=True, cleanup=True) in {(3, 1), (5, 1), (4, 0), (4, 2)}
    cells = grid(DEAD_INSIDE)
    cells[4, 1] = 0
    clean = p.game.state_from_cells(cells, 0)
    assert p.cleanup_move(clean) is PASS  # nothing left to capture: the search decides


@pytest.mark.parametrize("resign", [True, False])
def test_resigns_after_resign_moves_low_win_rates_in_a_row(resign):
    p = player(size=5, komi=60.0, simulations=100, resign=resign, resign_moves=2)
    state = p.game.initial_state()
    first = p.choose(state, 0, 0.0)
    assert first not in (PASS, RESIGN) and p.low[0] == (1 if resign else 0)
    after = p.game.play(p.game.play(state, p.game.action_at(first)), p.game.pass_action)  # white passes
    second = p.choose(after, 0, 0.0)
    assert (second == RESIGN) == resign


def test_a_good_win_rate_resets_the_resign_count():
    p = player(resign_moves=3, resign_threshold=0.2)
    assert [p.should_resign(0, v) for v in (0.1, 0.1, 0.5, 0.1, 0.1)] == [False] * 5
    assert p.should_resign(0, 0.1) and not p.should_resign(1, 0.1)  # each colour counts its own


def test_free_handicap_takes_the_fixed_points_then_the_third_line():
    fixed = gtp_go.fixed_handicap_points(19, 9)
    points = free_handicap_points(19, 12, fixed)
    assert points[:9] == fixed and len(set(points)) == 12
    assert all(min(r, c, 18 - r, 18 - c) == 2 for r, c in points[9:])
    assert free_handicap_points(5, 3, []) == [(1, 1), (1, 2), (1, 3)]


# ==== the time manager gives every clock's deadline ===================================================

def test_a_per_move_budget_is_the_deadline_less_the_margin():
    p = player(manager=TimeManager(1.5, margin=0.05), simulations=None)
    limits = p.limits(0, 0, 100.0)
    assert limits.start == 100.0 and limits.time == pytest.approx(1.45) and limits.simulations is None


@pytest.mark.parametrize("control", [TimeControl.from_gtp(60, 0, 0), TimeControl.from_gtp(60, 10, 5),
                                     TimeControl.from_kgs(["byoyomi", "60", "5", "3"]),
                                     TimeControl.from_kgs(["canadian", "0", "10", "5"])])
def test_a_game_clock_gives_its_allocation_less_the_margin(control):
    game_clock = GameClock(control, margin=0.25)
    p = player(manager=TimeManager(1.0, margin=0.05, game_clock=game_clock), simulations=300)
    limits = p.limits(1, 10, 50.0)
    assert limits.time == pytest.approx(game_clock.allocation(1, 10, 81) - 0.05)
    assert limits.start == 50.0 and limits.simulations == 300  # at most 300 simulations within that


def test_go5s_simulation_count_has_no_deadline():
    p = player(manager=TimeManager(None), simulations=77)
    limits = p.limits(0, 0, 0.0)
    assert limits.time is None and limits.simulations == 77


def test_little_gos_cpu_budget_is_read_on_the_cpu_clock_by_the_search_itself():
    cpu = FakeClock(0.002, now=0.3)  # start-up spent 0.3 s of the process's CPU time
    game = Go(rules="littlego")
    p = GoPlayer(GoSettings(search="mcts", capacity=100_000), TimeManager(1.0, margin=0.12, kind=CPU, clock=cpu),
                 komi=None, rules="littlego")
    action, result = p.single_move(game, game.initial_state(), 5, start=0.0)
    assert p.searcher.clock is cpu and p.searcher.rate_clock is time.perf_counter
    assert result.stats["simulations"] > 0 and action in game.legal_moves(game.initial_state())
    # the deadline is 0.88 s of CPU since process start; the search stops at it (a batch's readings over)
    assert cpu.now <= 0.88 + 8 * cpu.step


# ==== the engine counts its own time on the game clock, in every time system ==========================

SYSTEMS = [  # the command, and whether the first move is played in byo-yomi (its period and stones)
    ("time_settings 30 0 0", False),               # absolute
    ("time_settings 30 10 5", False),              # Canadian, main time
    ("time_settings 0 10 5", True),                # Canadian, in the period from the start
    ("kgs-time_settings absolute 30", False),
    ("kgs-time_settings byoyomi 30 5 3", False),   # Japanese, main time
    ("kgs-time_settings canadian 30 10 5", False),
    ("kgs-time_settings canadian 0 12 4", True),
]


@pytest.mark.parametrize("command, in_period", SYSTEMS)
def test_the_engines_remaining_time_decreases_by_what_it_spent(command, in_period):
    step = 0.01
    clock = FakeClock(step)
    s = go_gtp.GoSession(go_gtp.Settings(search="mcts", size=5, komi=0.5, simulations=3000, time=1.0, seed=2,
                                         capacity=100_000), clock=clock)
    engine = go_gtp.make_engine(s)
    assert engine.handle(command) == "= \n\n"
    for move in range(3):
        seconds, stones = s.game_clock.report(0)
        start = clock.now
        reply = engine.handle("genmove b")
        assert reply.startswith("= ") and reply not in ("= pass\n\n", "= resign\n\n"), reply
        spent = clock.now - start       # the whole command on the simulated clock
        left, stones_after = s.game_clock.report(0)
        assert spent > 10 * step         # a real search, not an instant answer
        # the engine's count: less by what the move took, give or take the readings around the search
        assert seconds - spent <= left <= seconds - spent + 3 * step, (move, seconds, spent, left)
        if in_period:
            assert stones_after == stones - 1
        white = [a for a in s.game.legal_moves(s.position_for(1)) if a != s.game.pass_action]
        engine.handle(f"play w {gtp_go.format_move(s.game.point_of(white[0]), 5)}")


# ==== the cold session hands over to the engine ========================================================

class StubCompiler:
    def __init__(self):
        self.done = False

    def ready(self):
        return self.done

    def wait(self, timeout=None):
        self.done = True
        return True


def test_the_cold_session_searches_within_the_deadline_then_hands_over_with_the_clock():
    clock = FakeClock(0.002)
    cold = ColdStart("go", "plies-gtp", None, start=False)
    cold.compiler = StubCompiler()
    settings = go_gtp.Settings(search="mcts", size=9, komi=6.5, time=0.0, simulations=100, capacity=100_000)
    session = go_gtp.GoSession(settings, clock=clock, cold=cold)
    engine = go_gtp.make_engine(session)
    for line in ("time_settings 20 0 0", "play b e5"):
        assert engine.handle(line) == "= \n\n"
    allocation = session.game_clock.allocation(1, 1, 81)
    before, start = session.game_clock.report(1)[0], clock.now
    reply = engine.handle("genmove w")
    spent = clock.now - start
    assert reply.startswith("= ") and reply != "= pass\n\n" and cold.fallbacks == 1 and session.engine is None
    assert spent <= allocation + 0.1  # a search to the deadline (a node's readings over), not past it
    left = session.game_clock.report(1)[0]
    assert before - spent <= left < before
    cold.compiler.done = True
    assert engine.handle("genmove b").startswith("= ")  # the engine's move, after the hand-over
    warm = session.engine
    assert warm is not None and warm.time is session.time and cold.fallbacks == 1
    assert len(warm.moves) == 3 and warm.komi == 6.5 and warm.last_limits is not None
    assert warm.game_clock.report(1)[0] == left  # the cold moves' time stays counted


# ==== an unstable root thinks on under a game clock (think_longer; issue 34, item 4) ==================

class RootCounts:
    """A searcher whose root visits the test sets; each search takes its whole time on the fake clock."""

    def __init__(self, clock, visits):
        self.clock, self.visits, self.times = clock, visits, []

    def search(self, state, limits):
        from engines.search.result import WIN_PROBABILITY, SearchResult
        self.times.append(limits.time)
        self.clock.now = (self.clock.now if limits.start is None else limits.start) + limits.time
        moves = list(range(len(self.visits)))
        return SearchResult(move=0, value=0.5, scale=WIN_PROBABILITY, moves=moves, visits=list(self.visits), values=[0.5] * len(moves),
                            pv=[0], stats={"simulations": 10})


def clocked_player(visits, think_longer=1.0, main=60.0, control=None, stop_early=False):
    """A 9x9 player under absolute time of ``main`` seconds (or ``control``; no game clock when both are
    None), its searcher replaced by RootCounts; (player, clock, manager)."""
    clock = FakeClock(0.0)
    manager = TimeManager.per_move_or_game(1.0, 0.25, clock)
    if main is not None or control is not None:
        manager.game_clock.set_control(control or TimeControl.from_gtp(main, 0, 0))
    p = GoPlayer(GoSettings(search="mcts", capacity=100_000, think_longer=think_longer, stop_early=stop_early),
                 manager, None, clock=clock)
    p.start(9)
    p.searcher = RootCounts(clock, visits)
    return p, clock, manager


@pytest.mark.parametrize("visits, think_longer, main, searches", [
    ([100, 60], 1.0, 60.0, 3),   # unstable (60 >= 0.5 x 100): two more slices of half the allocation
    ([100, 40], 1.0, 60.0, 1),   # stable: the allocation only
    ([100, 60], 0.0, 60.0, 1),   # think_longer off
    ([100, 60], 1.0, None, 1),   # a fixed budget a move: nothing to stretch into
])
def test_an_unstable_root_thinks_on_within_its_bound(visits, think_longer, main, searches):
    p, clock, manager = clocked_player(visits, think_longer, main)
    state, arrival = p.game.initial_state(), clock.now
    allocation = p.limits(0, 0, arrival).time
    before = manager.game_clock.players[0].main
    result = p.timed_search(state, 0, arrival)
    spent = clock.now - arrival
    assert len(p.searcher.times) == searches and result.stats.get("thought_on", 0) == searches - 1
    assert spent == pytest.approx(allocation * (1 + 0.5 * (searches - 1)))
    if main is not None:
        assert manager.game_clock.players[0].main == pytest.approx(before - spent)  # charged on the clock


def test_thinking_on_never_passes_the_clocks_ceiling():
    # Japanese byo-yomi, 2 s of main time and 5 s periods: the allocation is about a period, the
    # ceiling main time and a period
    p, clock, manager = clocked_player([100, 90], 10.0, None, TimeControl.from_kgs(["byoyomi", "2", "5", "3"]))
    arrival = clock.now
    ceiling = manager.ceiling(0, 0, 81)
    allocation = p.limits(0, 0, arrival).time
    p.timed_search(p.game.initial_state(), 0, arrival)
    assert ceiling < 11 * allocation and len(p.searcher.times) > 1  # the ceiling binds, after a slice
    assert clock.now - arrival <= ceiling


def test_a_canadian_period_has_nothing_to_stretch_into():
    p, clock, manager = clocked_player([100, 90], 10.0, None, TimeControl.from_gtp(0, 10, 5))  # 2 s a stone
    p.timed_search(p.game.initial_state(), 0, clock.now)
    assert len(p.searcher.times) == 1


def test_a_zero_allocation_does_not_think_on():
    p, clock, manager = clocked_player([100, 90], think_longer=10.0, main=0.2)  # the margin eats the allocation
    arrival = clock.now
    assert p.limits(0, 0, arrival).time == 0
    p.timed_search(p.game.initial_state(), 0, arrival)
    assert len(p.searcher.times) == 1


@pytest.mark.parametrize("visits, stop_early, searches", [
    ([100, 60], True, 1),    # after a quarter (10 simulations): 3 quarters give 30 < the lead of 40
    ([100, 75], True, 2),    # a lead of 25: out of reach with half left (20)
    ([100, 85], True, 3),    # a lead of 15: out of reach only with a quarter left (10)
    ([100, 99], True, 4),    # never out of reach: the whole allocation
    ([100, 60], False, 1),   # off: one search of the whole allocation
])
def test_a_move_stops_early_once_the_runner_up_cannot_catch_up(visits, stop_early, searches):
    p, clock, manager = clocked_player(visits, think_longer=0.0, stop_early=stop_early)
    arrival = clock.now
    allocation = p.limits(0, 0, arrival).time
    result = p.timed_search(p.game.initial_state(), 0, arrival)
    assert len(p.searcher.times) == searches
    spent = clock.now - arrival
    assert spent == pytest.approx(allocation * (searches / 4 if stop_early and searches < 4 else 1))
    assert result.stats["simulations"] == 10 * searches


# ==== avoid_jigo: a drawn count is a loss for the side searching =====================================

# 5x5, every empty point a one-point eye of a living group: black owns 15 points, white 10, so komi 5 is a
# drawn count (jigo) whatever is played, and komi 6 a black loss by one point.
SETTLED = ["X.XO.", "XXXOO", ".XXO.", "XXXOO", "X.XO."]


@pytest.mark.parametrize("colour", [0, 1])
def test_avoid_jigo_searches_a_drawn_count_as_a_loss_for_either_side(colour):
    plain, avoid = player(size=5, komi=5.0), player(size=5, komi=5.0, avoid_jigo=True)
    state = plain.game.state_from_cells(grid(SETTLED), colour)
    assert plain.counted_score(state) == 0.0
    plain.choose(state, colour, 0.0)
    avoid.choose(state, colour, 0.0)
    assert plain.last_result[1].value == pytest.approx(0.5, abs=0.05)
    assert avoid.last_result[1].value < 0.25  # the komi moved against colour (towards it: about 1)
    assert avoid.game.komi_of(avoid.last_result[0]) == (5.5 if colour == 0 else 4.5)


def test_avoid_jigo_leaves_a_half_point_komi_alone():
    p = player(size=5, komi=5.5, avoid_jigo=True)
    state = p.game.state_from_cells(grid(SETTLED), 0)
    p.choose(state, 0, 0.0)
    assert p.game.komi_of(p.last_result[0]) == 5.5


@pytest.mark.parametrize("komi, resigns", [(5.0, False), (6.0, True)])
def test_avoid_jigo_resigns_a_lost_count_but_not_a_drawn_one(komi, resigns):
    p = player(size=5, komi=komi, avoid_jigo=True, resign_moves=1, resign_threshold=0.3)
    state = p.game.state_from_cells(grid(SETTLED), 0)
    assert (p.choose(state, 0, 0.0) == RESIGN) == resigns


def test_avoid_jigo_keeps_the_tree_across_moves():
    p = player(size=9, avoid_jigo=True, search="rave", policy_prior=0)
    state = p.game.initial_state()
    point = p.choose(state, 0, 0.0)
    after = p.game.play(state, p.game.action_at(point))
    p.moved(state, p.game.action_at(point), after)
    reply = p.game.play(after, p.game.action_at((4, 4) if point != (4, 4) else (2, 2)))
    p.moved(after, p.game.action_at((4, 4) if point != (4, 4) else (2, 2)), reply)
    assert p.tree_state is not None and p.game.komi_of(p.tree_state) == 7.5
    assert np.array_equal(p.searcher.root_state, p.tree_state)  # the searcher followed the same positions


def test_a_drawn_count_after_the_opponent_passed_is_searched_not_passed_at_once():
    p = player(size=5, komi=5.0)
    state = p.game.state_from_cells(grid(SETTLED), 0)
    p.choose(state, 0, 0.0, opponent_passed=True)
    assert p.last_limits is not None  # a search decided: counting draws, it does not end the game unasked
