"""The MCTS family: determinism, solved cases, knowledge, pruning, budgets, tree reuse.

Time budgets are measured on the thread's CPU clock (``time.thread_time``), injected into the search
as its clock, so a loaded machine cannot make them fail: the search must return within its budget
less the margin, plus TOLERANCE, of its own CPU time.
"""
import dataclasses
import time

import numba as nb
import numpy as np
import pytest
from hex_solver import hex_mover_wins

from engines import kernels as K
from engines.games import make_game
from engines.games.hex import Hex
from engines.knowledge import mlp
from engines.knowledge.bundle import Knowledge, Network
from engines.knowledge.priors import no_value
from engines.rng import uniform
from engines.search.mcts import MCTS, MCTSConfig
from engines.search.result import WIN_PROBABILITY, Limits

TOLERANCE = 0.005  # seconds of CPU time a search may run past its deadline


# ---- a constructed game: player 0 pulls one of k bandit arms, then chance decides the result ------
# state: [0] player to move, [1] arm pulled (-1 none), [2] outcome (-1 undecided, 0, 1), [3] arms k,
# [4:4+k] win probability of each arm in 1/1000.  After the pull, player 1's only action is k
# ("resolve"); a playout resolves the arm at random with its probability.

@nb.njit(K.SIG_LEGAL, cache=True)
def bandit_legal(s, out):
    if s[2] >= 0:
        return 0
    if s[1] < 0:
        for a in range(s[3]):
            out[a] = a
        return s[3]
    out[0] = s[3]
    return 1


@nb.njit(K.SIG_APPLY, cache=True)
def bandit_apply(s, a):
    if s[1] < 0:
        s[1] = a
    else:
        s[2] = 1  # resolving by hand counts as a win (only playouts draw at random)
    s[0] = 1 - s[0]


@nb.njit(K.SIG_TERMINAL, cache=True)
def bandit_terminal(s):
    return s[2] >= 0


@nb.njit(K.SIG_TO_MOVE, cache=True)
def bandit_to_move(s):
    return s[0]


@nb.njit(K.SIG_RESULT, cache=True)
def bandit_result(s):
    return float(s[2]) if s[2] >= 0 else 0.5


@nb.njit(K.SIG_PLAYOUT, cache=True)
def bandit_playout(s, rng):
    if s[2] < 0:
        s[2] = 1 if uniform(rng) * 1000.0 < s[4 + s[1]] else 0
    return float(s[2])


@nb.njit(K.SIG_HASH, cache=True)
def bandit_hash(s):
    return s[1] * 7 + s[2]


@nb.njit(K.SIG_OBSERVE, cache=True)
def bandit_observe(s, out):
    out[0] = s[1]


class Bandit:
    name = "bandit"
    kernels = K.GameKernels(legal=bandit_legal, rollout_moves=bandit_legal, apply=bandit_apply,
                            terminal=bandit_terminal, to_move=bandit_to_move, result=bandit_result,
                            playout=bandit_playout, hash=bandit_hash, observe=bandit_observe)
    observation_shape = (1,)

    def __init__(self, probabilities):
        self.p = probabilities
        self.num_actions = len(probabilities) + 1

    def initial_state(self):
        return np.array([0, -1, -1, len(self.p)] + [round(1000 * p) for p in self.p], dtype=np.int64)

    def is_terminal(self, s):
        return bool(bandit_terminal(s))

    def play(self, s, a):
        s = s.copy()
        bandit_apply(s, a)
        return s


# ---- helpers ---------------------------------------------------------------------------------------

def hex_position(n, cells):
    """The Hex position after the (row, col) placements, in order."""
    game = Hex(n)
    state = game.initial_state()
    for r, c in cells:
        state = game.play(state, game.action(r, c))
    return game, state


def winning_moves_now(game, state):
    return {m for m in game.legal_moves(state) if game.is_terminal(game.play(state, m))}


# ---- tests -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,options", [("hex", {"size": 5}), ("othello", {"size": 8}), ("go", {"size": 7})])
def test_seeded_search_is_deterministic(name, options):
    game = make_game(name, **options)
    state = game.initial_state()
    config = MCTSConfig(progressive_pruning=True)
    runs = [MCTS(game, config, seed=7).search(state, Limits(simulations=3000)) for _ in range(2)]
    assert runs[0].visits == runs[1].visits and runs[0].move == runs[1].move and runs[0].pv == runs[1].pv
    other = MCTS(game, config, seed=8).search(state, Limits(simulations=3000))
    assert other.visits != runs[0].visits


@pytest.mark.parametrize("size,simulations", [(3, 20000), (4, 200000)])
def test_hex_first_player_wins_and_search_finds_a_winning_move(size, simulations):
    game = Hex(size)
    start = game.initial_state()
    assert hex_mover_wins(start)
    for seed in range(3):
        result = MCTS(game, seed=seed).search(start, Limits(simulations=simulations))
        assert not hex_mover_wins(game.play(start, result.move)), f"seed {seed}"  # the opponent, to move, loses
        assert result.value > 0.55 and result.scale == WIN_PROBABILITY, f"seed {seed}"


@pytest.mark.parametrize("selection", ["ucb1", "uct", "puct"])
def test_immediate_win_is_played(selection):
    # player 1 (X) holds column 2 on rows 0..3 of a 5x5 board: (4,1) and (4,2) both win at once
    game, state = hex_position(5, [(0, 2), (0, 0), (1, 2), (0, 4), (2, 2), (4, 4), (3, 2), (1, 4)])
    assert game.to_move(state) == 0
    wins = winning_moves_now(game, state)
    assert wins == {game.action(4, 1), game.action(4, 2)}
    result = MCTS(game, MCTSConfig(selection=selection), seed=1).search(state, Limits(simulations=3000))
    assert result.move in wins


def test_immediate_loss_is_avoided():
    # the same chain with (4,1) taken by player 2, who is to move: only (4,2) stops the win
    game, state = hex_position(5, [(0, 2), (4, 1), (1, 2), (0, 4), (2, 2), (4, 4), (3, 2)])
    assert game.to_move(state) == 1
    threats = winning_moves_now(game, game.play(state, game.action(0, 0)))
    assert threats == {game.action(4, 2)}
    for seed in range(3):
        result = MCTS(game, seed=seed).search(state, Limits(simulations=4000))
        assert result.move == game.action(4, 2), f"seed {seed}"


def test_progressive_pruning_prunes_a_bad_arm_and_never_the_best():
    game = Bandit([0.9, 0.5, 0.1, 0.6])
    # a wide exploration constant samples every arm enough for the statistics (as in Bouzy's uniform sampling)
    config = MCTSConfig(selection="ucb1", c=2.0, progressive_pruning=True, pp_rd=1.0, pp_min_samples=20)
    for seed in range(20):
        result = MCTS(game, config, seed=seed).search(game.initial_state(), Limits(simulations=3000))
        assert 2 in result.stats["pruned"], f"seed {seed}"
        assert 0 not in result.stats["pruned"], f"seed {seed}"
        assert result.move == 0, f"seed {seed}"
    # without pruning every arm keeps being sampled
    plain = MCTS(game, MCTSConfig(selection="ucb1", c=2.0), seed=0).search(game.initial_state(), Limits(simulations=3000))
    assert plain.stats["pruned"] == [] and min(plain.visits) > 30


def test_flat_ucb1_never_grows_below_the_root():
    game = Hex(4)
    result = MCTS(game, MCTSConfig(selection="ucb1"), seed=0).search(game.initial_state(), Limits(simulations=5000))
    assert result.stats["tree_size"] == 1 + 16 and result.stats["max_depth"] == 1
    assert sum(result.visits) == 5000


def test_visits_add_up_and_result_is_consistent():
    game = Hex(5)
    result = MCTS(game, seed=0).search(game.initial_state(), Limits(simulations=4000))
    assert sum(result.visits) == 4000
    assert result.move == result.moves[int(np.argmax(result.visits))]
    assert result.pv[0] == result.move and all(0 <= m < 25 for m in result.pv)
    assert 0.0 <= result.value <= 1.0 and result.stats["simulations"] == 4000


@pytest.mark.parametrize("name,options", [("hex", {"size": 8}), ("hex", {"size": 19}), ("othello", {"size": 8}),
                                          ("othello", {"size": 16}), ("go", {"size": 9}), ("go", {"size": 19})])
def test_time_budget_is_kept_on_every_game(name, options, small_pages):
    game = make_game(name, **options)
    for budget, margin in ((0.05, 0.05), (0.3, 0.05), (0.1, 0.0)):
        mcts = MCTS(game, seed=0, clock=time.thread_time)
        t0 = time.thread_time()
        result = mcts.search(game.initial_state(), Limits(time=budget, start=t0, margin=margin))
        used = time.thread_time() - t0
        allowed = budget - margin
        assert used <= allowed + TOLERANCE, f"search took {used:.4f} s of CPU for {allowed} s"
        assert used >= 0.5 * allowed, f"search gave up early: {used:.4f} s of CPU for {allowed} s"
        assert result.move in game.legal_moves(game.initial_state())


def test_time_budget_is_kept_after_a_huge_tree_is_reused(small_pages):
    game = Hex(8)
    capacity = 1 << 19
    mcts = MCTS(game, seed=0, capacity=capacity, clock=time.thread_time)
    state = game.initial_state()
    first = mcts.search(state, Limits(simulations=150_000))  # the tree fills after ~100k simulations
    assert first.stats["tree_full"] and first.stats["tree_size"] > capacity - game.num_actions
    t0 = time.thread_time()  # the request arrives: advance (which garbage-collects), then search
    mcts.advance(first.move)
    assert mcts.tree_size < capacity // 2  # the subtree was compacted
    child = game.play(state, first.move)
    reused = mcts.search(child, Limits(time=0.1, start=t0))
    used = time.thread_time() - t0
    assert used <= 0.1 - 0.05 + TOLERANCE, f"advance + search took {used:.4f} s of CPU for 0.05 s"
    assert reused.move in game.legal_moves(child)
    assert sum(reused.visits) > reused.stats["simulations"]  # the kept subtree's visits are there


def test_tree_reuse_keeps_the_subtree():
    game = Hex(5)
    mcts = MCTS(game, seed=0)
    state = game.initial_state()
    first = mcts.search(state, Limits(simulations=20000))
    child_visits = first.visits[first.moves.index(first.move)]
    mcts.advance(first.move)
    state = game.play(state, first.move)
    second = mcts.search(state, Limits(simulations=100))
    assert sum(second.visits) == pytest.approx(child_visits - 1 + 100)
    # a position the tree does not know starts a fresh tree
    fresh = mcts.search(game.initial_state(), Limits(simulations=100))
    assert sum(fresh.visits) == 100


def test_full_node_pool_is_handled():
    game = Hex(5)
    result = MCTS(game, seed=0, capacity=64).search(game.initial_state(), Limits(simulations=2000))
    assert result.stats["tree_full"] and result.stats["tree_size"] <= 64
    assert sum(result.visits) == 2000 and result.move in range(25)


def test_prior_as_node_initialisation():
    game = Hex(3)
    weights = np.full(9, 0.5)
    weights[4] = 1.0  # the centre gets r = 1, the rest r = 0.5
    mcts = MCTS(game, MCTSConfig(prior_use="init"), Knowledge().with_prior_weights(weights), seed=0)
    result = mcts.search(game.initial_state(), Limits(simulations=1))
    visits = dict(zip(result.moves, result.visits))
    means = dict(zip(result.moves, result.values))
    # Go5's formula: visits = 10 r, wins = visits * (0.5 + 0.5 r); the one simulation adds one visit
    assert sum(visits.values()) == pytest.approx(10 + 8 * 5 + 1)
    untouched = [m for m in visits if m != 4 and visits[m] == pytest.approx(5)]
    assert len(untouched) >= 7 and all(means[m] == pytest.approx(0.75) for m in untouched)


@pytest.mark.parametrize("selection,prior_use", [("puct", "none"), ("uct", "additive"), ("uct", "multiplicative")])
def test_prior_steers_visits_when_values_are_equal(selection, prior_use):
    game = Hex(4)
    weights = np.ones(16)
    weights[9] = 50.0
    config = MCTSConfig(selection=selection, prior_use=prior_use, rollout="value", prior_bias=5.0)
    knowledge = Knowledge(value=no_value).with_prior_weights(weights)
    result = MCTS(game, config, knowledge, seed=0).search(game.initial_state(), Limits(simulations=2000))
    assert result.move == 9


def test_network_rollouts_follow_the_network():
    game = Hex(4)
    layers = [48, 8, 16]
    rng = np.random.default_rng(0)
    params = rng.normal(size=mlp.param_count(layers)).astype(np.float32)
    x = rng.random(48).astype(np.float32)
    out = np.zeros(16, np.float32)
    mlp.forward(x, params, np.array(layers), mlp.ACT_RELU, out)
    w1 = params[:48 * 8].reshape(48, 8)
    b1 = params[48 * 8:48 * 8 + 8]
    w2 = params[48 * 8 + 8:48 * 8 + 8 + 8 * 16].reshape(8, 16)
    b2 = params[-16:]
    assert np.allclose(out, np.maximum(x @ w1 + b1, 0) @ w2 + b2, atol=1e-5)
    config = MCTSConfig(rollout="network", epsilon=0.0)
    knowledge = Knowledge(network=Network(params, layers, "relu"))
    results = [MCTS(game, config, knowledge, seed=s).search(game.initial_state(), Limits(simulations=500))
               for s in (1, 2)]
    # epsilon 0: the rollouts are greedy, so the search does not depend on the random seed
    assert results[0].visits == results[1].visits


@pytest.mark.parametrize("bad", [dict(selection="ucb2"), dict(c=-1.0), dict(c=float("nan")), dict(epsilon=2.0),
                                 dict(pp_min_samples=0), dict(rollout="magic"), dict(prior_use="maybe"),
                                 dict(expand_visits=True), dict(progressive_pruning=1)])
def test_config_rejects_bad_values(bad):
    with pytest.raises(ValueError):
        MCTSConfig(**bad)


def test_config_is_frozen():
    config = MCTSConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.c = 2.0
    mcts = MCTS(Hex(3), config)
    assert mcts.config is config and dataclasses.replace(config, c=2.0).c == 2.0


def test_search_rejects_bad_use():
    game = Hex(3)
    with pytest.raises(ValueError):
        MCTS(game, capacity=1)
    with pytest.raises(ValueError):
        MCTS(game, MCTSConfig(rollout="weighted"))  # no rollout weights in Hex's knowledge
    with pytest.raises(ValueError):
        MCTS(game, MCTSConfig(rollout="network"))
    with pytest.raises(ValueError):
        MCTS(game, MCTSConfig(rollout="value"), Knowledge())
    with pytest.raises(ValueError):
        MCTS(game, knowledge=Knowledge().with_prior_weights(np.ones(3)))  # 9 actions
    with pytest.raises(ValueError):
        MCTS(game, knowledge=Knowledge(rollout_weights=np.ones(4)))
    with pytest.raises(ValueError):
        MCTS(game, knowledge=Knowledge(network=Network(np.zeros(mlp.param_count([5, 9])), [5, 9], "relu")))
    with pytest.raises(ValueError):
        MCTS(game, seed=1.5)
    with pytest.raises(ValueError):
        MCTS(game).search(game.initial_state(), Limits(depth=3))
    with pytest.raises(ValueError):
        MCTS(game).search(Hex(4).initial_state(), Limits(simulations=10))
    with pytest.raises(ValueError):
        Limits()
    with pytest.raises(ValueError):
        Limits(time=float("nan"))


def test_policy_network_as_prior():
    game = Hex(4)
    layers = [48, 4, 16]
    params = np.zeros(mlp.param_count(layers), np.float32)
    params[-16 + 6] = 5.0  # output bias: the network strongly prefers action 6
    config = MCTSConfig(selection="puct", rollout="value")
    knowledge = Knowledge(prior="network", network=Network(params, layers, "tanh"), value=no_value)
    result = MCTS(game, config, knowledge, seed=0).search(game.initial_state(), Limits(simulations=1000))
    assert result.move == 6 and max(result.visits) > 500
    with pytest.raises(ValueError):
        Knowledge(prior="network", value=no_value)  # no network to take the priors from
