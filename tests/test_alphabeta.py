"""Alpha-beta / minimax search (engines/search/alphabeta.py) on Hex and Othello.

Hex is scored by small evaluators defined here: terminal states exactly (a win is worth 1000 plus
the empty cells left, so a faster win is better), other states by per-cell weights taken from the
params array (seeded random weights give varied, tie-poor scores).

Time budgets are measured on the thread's CPU clock (``time.thread_time``), injected into the search
as its clock, so a loaded machine cannot make them fail: the search must return within its budget
less the margin, plus TOLERANCE, of its own CPU time.
"""
import dataclasses
import itertools
import time

import numba as nb
import numpy as np
import pytest

from hex_solver import hex_mover_wins
from engines import kernels as K
from engines.errors import GameOver
from engines.games.hex import HEADER, SIZE, TO_MOVE, WINNER, Hex
from engines.games import hex as hexk
from engines.games.othello import Othello
from engines.knowledge.othello import registered as oth
from engines.knowledge.bundle import Knowledge
from engines.knowledge.registry import knowledge_for
from engines.search.alphabeta import AlphaBeta, AlphaBetaConfig
from engines.search.result import SCORE, Limits
from conftest import TickingClock, random_positions

WIN = 1000.0
TOLERANCE = 0.005  # seconds of CPU time a search may run past its deadline


@nb.njit(K.SIG_EVALUATE, cache=True)
def hex_weights_eval(s, w):
    """Final: -(WIN + empty cells) for the side to move (who has lost).  Else sum of w over own stones
    minus over the opponent's."""
    nn = s[SIZE] * s[SIZE]
    if s[WINNER] >= 0:
        empty = 0
        for i in range(nn):
            if s[HEADER + i] == 0:
                empty += 1
        v = WIN + empty
        return v if s[WINNER] == s[TO_MOVE] else -v
    me = s[TO_MOVE] + 1
    score = 0.0
    for i in range(nn):
        c = s[HEADER + i]
        if c == me:
            score += w[i]
        elif c != 0:
            score -= w[i]
    return score


@nb.njit(K.SIG_EVALUATE, cache=True)
def hex_trivial_eval(s, w):
    """Exact on final states, 0 elsewhere."""
    if s[WINNER] < 0:
        return 0.0
    return 1.0 if s[WINNER] == s[TO_MOVE] else -1.0


def hex_weights(size, seed=0):
    return np.random.default_rng(seed).random(size * size)


def weighted(size, seed=0):
    """The hex_weights_eval knowledge with seeded weights."""
    return Knowledge(evaluate=hex_weights_eval, eval_params=hex_weights(size, seed))


def search_with(game, evaluate, config=None, params=None, **options):
    return AlphaBeta(game, config, Knowledge(evaluate=evaluate, eval_params=[] if params is None else params),
                     **options)


ALL_CONFIGS = [AlphaBetaConfig(use_alphabeta=ab, use_cache=c, use_ordering=o, iterative_deepening=i, tt_size=1 << 12)
               for ab, c, o, i in itertools.product((True, False), repeat=4)]
MINIMAX = AlphaBetaConfig(use_alphabeta=False, use_cache=False, use_ordering=False, iterative_deepening=False)


def engines(game, evaluate, params=None):
    return [search_with(game, evaluate, cfg, params) for cfg in ALL_CONFIGS]


def assert_all_configs_agree(game, evaluate, params, positions, depths):
    """Every combination of minimax/alpha-beta, cache, ordering and deepening gives the same root value;
    minimax's per-move scores are exact, alpha-beta's are upper bounds (exact for the best move)."""
    searches = engines(game, evaluate, params)
    for s in positions:
        for d in depths:
            results = [e.search(s, Limits(depth=d)) for e in searches]
            ref = next(r for r, cfg in zip(results, ALL_CONFIGS) if not cfg.use_alphabeta and not cfg.use_cache)
            legal = set(game.legal_moves(s))
            for r, cfg in zip(results, ALL_CONFIGS):
                assert r.value == ref.value, (cfg, d, r.value, ref.value)
                assert r.move in legal and r.stats["depth"] == d or r.stats["complete"]
                assert r.values[r.moves.index(r.move)] == r.value
                exact = dict(zip(ref.moves, ref.values))
                for m, v in zip(r.moves, r.values):
                    if cfg.use_alphabeta:
                        assert v >= exact[m], (cfg, m, v, exact[m])
                    else:
                        assert v == exact[m], (cfg, m, v, exact[m])


# ---- equivalence of every feature combination -------------------------------------------------
def test_all_configs_agree_hex3():
    game = Hex(3)
    assert_all_configs_agree(game, hex_weights_eval, hex_weights(3, 1),
                             random_positions(game, 8, 5, seed=3), depths=(1, 2, 3, 4, 9))


def test_all_configs_agree_hex4():
    game = Hex(4)
    assert_all_configs_agree(game, hex_weights_eval, hex_weights(4, 2),
                             random_positions(game, 6, 8, seed=4), depths=(1, 2, 3, 5))


def test_all_configs_agree_othello6():
    game = Othello(6)
    assert_all_configs_agree(game, oth.evaluate_disc_difference, None,
                             random_positions(game, 10, 24, seed=5), depths=(1, 2, 3, 5))


def test_all_configs_agree_othello6_strong():
    game = Othello(6)
    assert_all_configs_agree(game, oth.evaluate_strong, oth.STRONG_WEIGHTS,
                             random_positions(game, 4, 24, seed=6), depths=(3,))


def test_minimax_per_move_scores_are_one_ply_deeper_values():
    game = Hex(4)
    mm = AlphaBeta(game, MINIMAX, weighted(4, 7))
    for s in random_positions(game, 4, 6, seed=8):
        r = mm.search(s, Limits(depth=3))
        for m, v in zip(r.moves, r.values):
            child = game.play(s, m)
            expect = -hex_weights_eval(child, mm.params) if game.is_terminal(child) else \
                -mm.search(child, Limits(depth=2)).value
            assert v == expect


# ---- solving -----------------------------------------------------------------------------------
# Hex 4x4 takes 100-200 s without ordering or without the table (the score prefers faster wins,
# which leaves few cut-offs): only the full configuration solves it here.
@pytest.mark.parametrize("size, configs", [
    (3, (AlphaBetaConfig(), AlphaBetaConfig(use_ordering=False, tt_size=1 << 16),
         AlphaBetaConfig(use_cache=False, iterative_deepening=False), MINIMAX)),
    (4, (AlphaBetaConfig(),))])
def test_full_solve_hex_first_player_wins_with_a_winning_move(size, configs):
    game = Hex(size)
    s0 = game.initial_state()
    assert hex_mover_wins(s0)
    for cfg in configs:
        r = AlphaBeta(game, cfg, weighted(size, 9)).search(s0, Limits(depth=size * size))
        assert r.stats["complete"] and r.scale == SCORE
        assert r.value > WIN  # a forced win for the side to move (player 0)
        assert not hex_mover_wins(game.play(s0, r.move))  # the opponent, to move after it, loses
        s = s0
        for m in r.pv:  # the principal variation is playable
            s = game.play(s, m)


def test_full_solve_hex3_minimax_agrees():
    game = Hex(3)
    a = AlphaBeta(game, AlphaBetaConfig(), weighted(3, 10)).search(game.initial_state(), Limits(depth=9))
    b = AlphaBeta(game, MINIMAX, weighted(3, 10)).search(game.initial_state(), Limits(depth=9))
    assert a.value == b.value and a.stats["complete"] and b.stats["complete"]
    assert b.stats["nodes"] > 10 * a.stats["nodes"]  # pruning, cache and ordering do work


def test_othello4_manager_second_player_wins():
    game = Othello(4, variant="manager")
    s0 = game.initial_state()
    values = set()
    for cfg in (AlphaBetaConfig(), AlphaBetaConfig(use_cache=False, use_ordering=False, iterative_deepening=False),
                MINIMAX):
        r = AlphaBeta(game, cfg, knowledge_for(game, "disc_difference")).search(s0, Limits(depth=16))
        assert r.stats["complete"] and r.move in game.legal_moves(s0)
        values.add(r.value)
        if cfg == AlphaBetaConfig():
            nodes_ab = r.stats["nodes"]
            assert r.stats["tt_hits"] > 0
    assert len(values) == 1 and values.pop() < 0  # the first player (to move) loses
    assert r.stats["tt_hits"] == 0 and r.stats["nodes"] > 10 * nodes_ab


def _hex_winning_cells(game, s, player):
    """Cells where `player` would win at once if it were its move."""
    t = s.copy()
    t[TO_MOVE] = player
    out = []
    for m in game.legal_moves(t):
        c = t.copy()
        hexk.apply(c, m)
        if c[WINNER] == player:
            out.append(m)
    return out


def test_immediate_win_is_played():
    game = Hex(5)
    found = 0
    for s in random_positions(game, 300, 16, seed=11):
        wins = _hex_winning_cells(game, s, int(s[TO_MOVE]))
        if not wins:
            continue
        found += 1
        for cfg in (AlphaBetaConfig(), AlphaBetaConfig(use_ordering=False, use_cache=False), MINIMAX):
            for d in (1, 3):
                r = AlphaBeta(game, cfg, weighted(5, 12)).search(s, Limits(depth=d))
                assert r.move in wins
    assert found >= 10


def test_immediate_loss_is_avoided():
    game = Hex(5)
    found = 0
    for s in random_positions(game, 400, 14, seed=13):
        me = int(s[TO_MOVE])
        threats = _hex_winning_cells(game, s, 1 - me)
        if _hex_winning_cells(game, s, me) or len(threats) != 1:
            continue
        found += 1
        for cfg in (AlphaBetaConfig(), AlphaBetaConfig(use_ordering=False, use_cache=False), MINIMAX):
            r = AlphaBeta(game, cfg, weighted(5, 14)).search(s, Limits(depth=2))
            assert r.move == threats[0]
    assert found >= 10


# ---- limits and clock --------------------------------------------------------------------------
def _timed(search, state, budget, margin=0.05):
    """Search with a time budget on the thread's CPU clock; (result, CPU seconds, seconds allowed)."""
    assert search.clock is time.thread_time
    t = time.thread_time()
    r = search.search(state, Limits(time=budget, start=t, margin=margin))
    return r, time.thread_time() - t, budget - margin


@pytest.mark.parametrize("cfg", [AlphaBetaConfig(), AlphaBetaConfig(use_alphabeta=False, use_cache=False)])
@pytest.mark.parametrize("budget, margin", [(0.3, 0.05), (0.1, 0.0)])
def test_time_limit_othello8_unbounded_depth(cfg, budget, margin, small_pages):
    game = Othello(8)
    s = game.initial_state()
    search = AlphaBeta(game, cfg, knowledge_for(game, "strong"), clock=time.thread_time)
    r, used, allowed = _timed(search, s, budget, margin)
    assert used <= allowed + TOLERANCE, f"search took {used:.4f} s of CPU for {allowed} s"
    assert used >= 0.5 * allowed, f"search gave up early: {used:.4f} s of CPU for {allowed} s"
    assert r.move in game.legal_moves(s)
    assert r.stats["depth"] >= 1 and not r.stats["complete"]


@pytest.mark.parametrize("size, evaluate", [(11, hex_trivial_eval), (19, hex_weights_eval)])
def test_time_limit_hex_big_boards(size, evaluate, small_pages):
    game = Hex(size)
    s = game.initial_state()
    for cfg in (AlphaBetaConfig(), AlphaBetaConfig(use_alphabeta=False, use_ordering=False)):
        search = search_with(game, evaluate, cfg, hex_weights(size), clock=time.thread_time)
        r, used, allowed = _timed(search, s, 0.3)
        assert used <= allowed + TOLERANCE, f"search took {used:.4f} s of CPU for {allowed} s ({cfg})"
        assert r.move in game.legal_moves(s)


def test_time_limit_with_the_registered_evaluations(small_pages):
    for game in (Hex(9), Othello(10)):
        search = AlphaBeta(game, clock=time.thread_time)
        r, used, allowed = _timed(search, game.initial_state(), 0.15)
        assert used <= allowed + TOLERANCE, f"{game}: search took {used:.4f} s of CPU for {allowed} s"
        assert r.move in game.legal_moves(game.initial_state())


def test_deadline_already_passed_still_gives_a_legal_move(small_pages):
    game = Hex(11)
    s = game.initial_state()
    start = time.thread_time() - 1.0
    search = AlphaBeta(game, knowledge=weighted(11), clock=time.thread_time)
    t = time.thread_time()
    r = search.search(s, Limits(time=0.5, start=start))
    used = time.thread_time() - t
    assert r.move in game.legal_moves(s) and r.stats["depth"] == 0 and used < 0.02
    # with ordering: the move with the best static score; without: the first legal move
    scores = [-hex_weights_eval(game.play(s, m), hex_weights(11)) for m in game.legal_moves(s)]
    assert r.move == int(np.argmax(scores))
    r = AlphaBeta(game, AlphaBetaConfig(use_ordering=False), weighted(11),
                  clock=time.thread_time).search(s, Limits(time=0.5, start=start))
    assert r.move == game.legal_moves(s)[0]


def test_injected_clock_abandons_the_unfinished_iteration():
    game = Hex(7)
    s = game.initial_state()
    ref = AlphaBeta(game, knowledge=weighted(7, 15))
    by_depth = {d: ref.search(s, Limits(depth=d)) for d in (1, 2, 3)}
    # every clock reading costs 1 ms of fake time: the search gets only a few kernel calls
    r = AlphaBeta(game, knowledge=weighted(7, 15), clock=TickingClock(0.001)).search(
        s, Limits(time=0.02, start=0.0, margin=0.0))
    d = r.stats["depth"]
    assert 1 <= d <= 3
    assert r.values == by_depth[d].values
    if r.stats["partial_depth"] == 0:
        assert (r.move, r.value) == (by_depth[d].move, by_depth[d].value)
    else:  # the next iteration, cut short after it completed the last answer's move (searched first)
        assert r.stats["partial_depth"] == d + 1 and r.move == by_depth[d].move


def test_node_budget():
    game = Hex(6)
    s = game.initial_state()
    for cfg in (AlphaBetaConfig(), AlphaBetaConfig(use_ordering=False)):
        r = AlphaBeta(game, cfg, weighted(6)).search(s, Limits(nodes=5000))
        assert r.stats["nodes"] <= 5000 + game.num_actions  # at most one leaf-parent's children over
        assert r.stats["depth"] >= 1 and r.move in game.legal_moves(s)


def test_deterministic():
    game = Hex(5)
    s = random_positions(game, 1, 4, seed=16)[0]
    out = []
    for _ in range(2):
        search = AlphaBeta(game, knowledge=weighted(5, 17))
        for _ in range(2):  # a fresh engine and a reused one
            r = search.search(s, Limits(depth=4))
            out.append((r.move, r.value, r.moves, r.values, r.pv, r.stats["nodes"], r.stats["tt_hits"]))
    assert all(o == out[0] for o in out)


def test_pv_is_playable_and_starts_with_the_move():
    game = Hex(5)
    for cfg in (AlphaBetaConfig(), MINIMAX):
        search = AlphaBeta(game, cfg, weighted(5, 18))
        for s in random_positions(game, 3, 6, seed=19):
            r = search.search(s, Limits(depth=3))
            assert r.pv[0] == r.move and 1 <= len(r.pv) <= 3
            for m in r.pv:
                s = game.play(s, m)


# ---- validation --------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [dict(tt_size=3), dict(tt_size=0), dict(tt_size=True), dict(use_cache=1),
                                    dict(use_alphabeta="yes"), dict(max_ply=0), dict(max_ply=10 ** 6)])
def test_config_validation(kwargs):
    with pytest.raises(ValueError):
        AlphaBetaConfig(**kwargs)


def test_config_is_frozen():
    config = AlphaBetaConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.use_cache = False


def test_constructor_and_search_validation():
    game = Hex(3)
    with pytest.raises(ValueError):
        Knowledge(evaluate=lambda s, p: 0.0)
    with pytest.raises(ValueError):
        AlphaBeta("hex", knowledge=weighted(3))
    with pytest.raises(ValueError):
        AlphaBeta(game, "fast", weighted(3))
    with pytest.raises(ValueError, match="use_cash"):
        AlphaBeta(game, {"use_cash": False}, weighted(3))
    assert AlphaBeta(game, {"use_cache": False}, weighted(3)).config == AlphaBetaConfig(use_cache=False)
    with pytest.raises(ValueError):
        Knowledge(evaluate=hex_weights_eval, eval_params=[np.nan])
    with pytest.raises(ValueError, match="evaluat"):
        AlphaBeta(game, knowledge=Knowledge())  # nothing to evaluate with
    search = AlphaBeta(game, knowledge=weighted(3))
    with pytest.raises(ValueError, match="simulations"):
        search.search(game.initial_state(), Limits(simulations=10))
    with pytest.raises(ValueError, match="simulations"):
        search.search(game.initial_state(), Limits(simulations=10, depth=2))
    with pytest.raises(ValueError):
        search.search(Hex(4).initial_state(), Limits(depth=2))
    s = game.initial_state()
    for m in (0, 3, 6):  # player 0 fills column 0... and player 1 answers elsewhere
        s = game.play(s, m)
        if not game.is_terminal(s):
            s = game.play(s, game.legal_moves(s)[-1])
    assert game.is_terminal(s)
    with pytest.raises(GameOver):
        search.search(s, Limits(depth=2))
