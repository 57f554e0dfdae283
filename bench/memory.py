"""Peak resident memory of one long MCTS search from the opening, each in a fresh subprocess.

The child compiles (or loads) everything with a tiny search first, notes its resident size, runs the
timed search and reports VmHWM from /proc/self/status: the peak resident size of the process's life
(interpreter, numba, compiled code and the tree).  Not ru_maxrss: across fork/exec that keeps the
parent's peak, which is the bench runner's own.  OpenSpiel's bot runs with max_memory_mb=1000
(its default), past which it garbage-collects its tree.
"""
import json
import subprocess
import sys
from pathlib import Path

GAMES = ("othello8", "go9")
TARGET_MIB = 1024
ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
import psutil
side, key, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
if side == "ours":
    from bench import make_ours
    from engines.search.mcts import MCTS, MCTSConfig
    from engines.search.result import Limits
    game = make_ours(key)
    state = game.initial_state()
    mcts = MCTS(game, MCTSConfig(), seed=0)
    mcts.search(state, Limits(simulations=16))
    mcts.reset()
    before = psutil.Process().memory_info().rss
    stats = mcts.search(state, Limits(time=seconds, margin=0.0)).stats
    sims, nodes = stats["simulations"], stats["tree_size"]
else:
    from bench import openspiel_ref as ref
    game = ref.load(key)
    bot = ref.bot(game, 0, move_time=seconds)
    before = psutil.Process().memory_info().rss
    sims, nodes = bot.mcts_search(game.new_initial_state()).explore_count, None
peak = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"peak_mib": peak / 2**20, "before_search_mib": before / 2**20, "simulations": sims, "nodes": nodes}))
"""


def peak_rss(side: str, key: str, seconds: float) -> dict:
    """Run one search of ``seconds`` by side ('ours' or 'openspiel') in a fresh process."""
    out = subprocess.run([sys.executable, "-c", CHILD, side, key, str(seconds)], cwd=ROOT, capture_output=True,
                         text=True, timeout=seconds * 10 + 300)
    if out.returncode != 0:
        raise RuntimeError(f"memory child ({side}, {key}) failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])
