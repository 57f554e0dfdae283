"""Uniformly random playouts per second from the start position, and MCTS simulations per second.

Ours: ``engines.speed`` (a Python loop calling ``game.kernels.playout(state.copy(), rng)``, what a
Python driver gets; and MCTS with Limits(time)), plus a compiled loop calling the same playout
kernel through a FunctionType argument (what a compiled search sees).  OpenSpiel: bench.openspiel_ref.
"""
import time

import numba as nb
import numpy as np

from bench import make_ours
from engines import kernels as K
from engines.rng import make_rng

PLAYOUT_TARGETS = {"othello8": 150_000, "hex5": 400_000, "hex8": 100_000, "go9": 20_000, "go5": 100_000}
MCTS_TARGETS = {"othello8": 100_000, "hex5": 200_000, "hex8": 60_000, "go9": 10_000, "go5": 50_000}


@nb.njit(nb.float64(K.ftype(K.SIG_PLAYOUT), K.STATE, K.RNG, nb.int64), cache=True)
def playout_batch(playout, state, rng, n):
    """n playouts from state; returns the sum of their results (so that none can be optimised away)."""
    work = np.empty_like(state)
    total = 0.0
    for _ in range(n):
        work[:] = state
        total += playout(work, rng)
    return total


def ours_playouts(key: str, seconds: float, seed: int = 0) -> dict:
    from engines.speed import median_rate, playouts_per_second
    game = make_ours(key)
    state = game.initial_state()
    rng = make_rng(seed)
    playout = game.kernels.playout
    playout_batch(playout, state, rng, 1)  # compile or load from the cache before timing

    def batch():
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            playout_batch(playout, state, rng, 256)
            n += 256
        return n, time.perf_counter() - t0

    return {"python_loop": playouts_per_second(game, seconds, seed=seed), "compiled": median_rate(batch)}


def ours_mcts(key: str, seconds: float, seed: int = 0) -> float:
    from engines.search.mcts import MCTS, MCTSConfig
    from engines.search.result import Limits
    from engines.speed import simulations_per_second
    game = make_ours(key)
    MCTS(game, MCTSConfig(), seed=seed, capacity=1 << 12).search(game.initial_state(), Limits(simulations=16))
    return simulations_per_second(game, seconds, config=MCTSConfig(), seed=seed)
