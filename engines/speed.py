"""Speed measurements shared by ``plies bench`` and the benchmark suite (bench/): one way to time
things, always the median of repeated runs, since machines are noisy."""
import statistics
import time

from engines.rng import make_rng
from engines.search.mcts import MCTS, MCTSConfig
from engines.search.result import Limits


def median_rate(run_once, repeats: int = 5) -> float:
    """Median of ``repeats`` calls of run_once() -> (count, seconds), as count per second."""
    return statistics.median(count / seconds for count, seconds in (run_once() for _ in range(repeats)))


def playouts_per_second(game, seconds: float = 1.0, repeats: int = 5, seed: int = 0) -> float:
    """Uniformly random playouts per second from the start position, one thread, each playout a call
    of the game's compiled playout kernel from Python (as a search or a harness would drive it)."""
    playout = game.kernels.playout
    start = game.initial_state()
    rng = make_rng(seed)
    playout(start.copy(), rng)  # make sure nothing is left to load

    def run_once():
        n, t0 = 0, time.perf_counter()
        deadline = t0 + seconds
        while True:
            for _ in range(256):
                playout(start.copy(), rng)
            n += 256
            t = time.perf_counter()
            if t >= deadline:
                return n, t - t0
    return median_rate(run_once, repeats)


def simulations_per_second(game, seconds: float = 1.0, repeats: int = 5, config: MCTSConfig | None = None,
                           seed: int = 0) -> float:
    """MCTS simulations per second from the start position (a fresh tree each run)."""
    start = game.initial_state()

    def run_once():
        mcts = MCTS(game, config or MCTSConfig(), seed=seed)
        result = mcts.search(start, Limits(time=seconds, margin=0.0))
        return result.stats["simulations"], result.stats["time"]
    return median_rate(run_once, repeats)


QUICK_CASES = (("othello", 8), ("hex", 5), ("hex", 8), ("go", 9), ("go", 5))   # plies bench's games and sizes


def quick_figures(seconds: float = 0.5, repeats: int = 3):
    """("game size", playouts per second, MCTS simulations per second) of each of QUICK_CASES, in turn."""
    from engines.games import make_game
    for name, size in QUICK_CASES:
        game = make_game(name, size=size)
        yield (f"{name} {size}", playouts_per_second(game, seconds, repeats),
               simulations_per_second(game, seconds, repeats))
