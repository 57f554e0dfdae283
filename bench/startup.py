"""Start-up costs, each measured in fresh subprocesses.

warm: wall time, inside the child, from before the first import to the end of the first random
playout (importing numpy, numba, the game module and loading its cached kernels); the whole process
(interpreter start to exit) is timed too.  Median of 5 children, after one child that warms the cache.
OpenSpiel's counterpart imports pyspiel (only), loads the game and runs one C++ rollout.

compile: one child with NUMBA_CACHE_DIR pointing at an empty temporary directory (numba then caches
there instead of next to the sources) runs ``python -m engines.warmup`` (every game module, a search
of every kind), timed; a second child on the same directory shows the warm figure.  The run checks
that the directory filled up and that the project's own cache files were not touched.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import SPECS, median_seconds

TARGET_S = 1.0
ROOT = Path(__file__).resolve().parent.parent

OURS = r"""
import time
t0 = time.perf_counter()
import sys
from bench import make_ours
from engines.rng import make_rng
game = make_ours(sys.argv[1])
game.kernels.playout(game.initial_state(), make_rng(0))
print(time.perf_counter() - t0)
"""
SPIEL = r"""
import time
t0 = time.perf_counter()
import sys
import pyspiel
game = pyspiel.load_game(sys.argv[1])
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 1, 1000, False, 0, False)
bot.mcts_search(game.new_initial_state())
print(time.perf_counter() - t0)
"""


def _child(args, env=None, timeout=600) -> tuple[float, str]:
    """(process wall seconds, stdout) of a fresh Python child run in the repository."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=timeout)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"child {args[:2]} failed:\n{out.stderr[-2000:]}")
    return wall, out.stdout


def warm_start(key: str, side: str = "ours") -> dict:
    script, arg = (OURS, key) if side == "ours" else (SPIEL, SPECS[key][2])
    _child(["-c", script, arg])  # warms numba's cache (and the OS file cache)
    walls = []

    def inner():
        wall, out = _child(["-c", script, arg])
        walls.append(wall)
        return float(out.strip().splitlines()[-1])

    return {"import_first_playout_s": median_seconds(inner), "process_s": sorted(walls)[len(walls) // 2]}


def _project_cache() -> dict:
    return {p: p.stat().st_mtime for p in ROOT.glob("engines/**/__pycache__/*.nb[ic]")}


def compile_time() -> dict:
    before = _project_cache()
    with tempfile.TemporaryDirectory(prefix="plies-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold, _ = _child(["-m", "engines.warmup"], env=env, timeout=3600)
        files = sum(1 for _ in Path(cache).rglob("*.nbi"))
        warm, _ = _child(["-m", "engines.warmup"], env=env)
    if files == 0:
        raise RuntimeError("NUMBA_CACHE_DIR was ignored: no cache index written there")
    return {"cold_s": cold, "warm_s": warm, "cache_index_files": files,
            "project_cache_untouched": _project_cache() == before}
