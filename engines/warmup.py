"""Compile and cache the kernels once (run at install), so no harness ever waits for a compile.

    python -m engines.warmup                     every game and every search (make warmup)
    python -m engines.warmup --game othello      one game's kernels and the searches on it
    python -m engines.warmup --check [--game G]  exit 0 when warm, 1 when cold; compiles nothing

Each game module compiles its kernels at import (explicit signatures, cache=True); the searches are
compiled by running a tiny search of every kind with every registered evaluation on one game of
each kernel set and rule option (engines.games.REPRESENTATIVES).  The searches are generic (a game's
kernels are their arguments), so once compiled for one game they serve all.

Whether the cache is warm is known without importing numba or the engine (``is_warm``): a warm-up
writes a stamp per game whose fingerprint covers what numba's own cache depends on (the engine's
source files but training and this file, by path, size and modification time; the numba, NumPy and Python versions; the cache
directory).  An edit of any engine source, or another numba, makes every stamp stale; the adapters
that run on a harness's clock read it at start and say so at once on stderr when it is cold.
"""
import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import sys
import time
from importlib import metadata
from pathlib import Path

ENGINES = Path(__file__).resolve().parent
GAMES = ("go", "othello", "hex")
# engine sources that hold no compiled kernel (paths under engines/): an edit of them leaves the cache warm
NO_KERNELS = ("learn", "players", "games/reference", "warmup.py")
COMMAND = "python -m engines.warmup"  # what the cold-cache message tells the user to run (or `make warmup`)


def fingerprint() -> str:
    """What numba's on-disk cache of the engine depends on, as a hash."""
    h = hashlib.sha256()
    for name in ("numba", "numpy", "llvmlite"):
        try:
            h.update(f"{name}={metadata.version(name)};".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=none;".encode())
    h.update(f"{sys.version};{os.environ.get('NUMBA_CACHE_DIR', '')};".encode())
    for path in sorted(ENGINES.rglob("*.py")):
        relative = path.relative_to(ENGINES).as_posix()
        if any(relative == skip or relative.startswith(skip + "/") for skip in NO_KERNELS):
            continue
        st = path.stat()
        h.update(f"{path.relative_to(ENGINES)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def stamp_path(game: str) -> Path:
    """Where the stamp of a game's warm-up lives: beside numba's cache of the engine when that is
    writable (engines/__pycache__), else in the user's cache folder."""
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    folder = Path(cache_dir) if cache_dir else ENGINES / "__pycache__"
    if not cache_dir and not os.access(folder if folder.exists() else ENGINES, os.W_OK):
        folder = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "plies"
    return folder / f"plies-warm-{game}.json"


def is_warm(*games: str) -> bool:
    """True when a warm-up of each game (default: every game) ran against the engine as it is now."""
    current = fingerprint()
    for game in games or GAMES:
        try:
            data = json.loads(stamp_path(game).read_text())
        except (OSError, ValueError):
            return False
        if not isinstance(data, dict) or data.get("fingerprint") != current:
            return False
    return True


@contextlib.contextmanager
def compile_lock():
    """Held while a warm-up compiles: compiles run one at a time (several cold adapters started
    together compile once; the others wait, then find the cache warm)."""
    path = stamp_path("lock").with_name("plies-warm.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")
    except OSError:  # nowhere to put the lock: compile unlocked, as before
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _write_stamp(game: str, seconds: float) -> None:
    path = stamp_path(game)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"fingerprint": fingerprint(), "seconds": round(seconds, 1),
                                    "written": time.strftime("%Y-%m-%dT%H:%M:%S")}) + "\n")
    except OSError as err:  # the kernels are cached all the same; only the check will say "cold"
        print(f"plies: cannot write the warm-up stamp {path}: {err}", file=sys.stderr)


def warm_searches(game):
    """A tiny search of every kind the engine offers, on game."""
    import numpy as np

    from engines.knowledge import mlp
    from engines.knowledge.bundle import Knowledge, Network
    from engines.knowledge.registry import evaluations, knowledge_for, warm_up
    from engines.search import Limits, make_searcher

    warm_up(game)
    state = game.initial_state()
    obs = int(np.prod(game.observation_shape))
    layers = (obs, 4, game.num_actions)
    network = Network(np.zeros(mlp.param_count(layers), np.float32), layers, "relu")
    tools = Knowledge(rollout_weights=np.ones(game.num_actions), network=network)
    for config in ({}, {"selection": "puct", "prior_use": "additive"}, {"rollout": "prior"},
                   {"rollout": "weighted", "progressive_pruning": True}, {"rollout": "network"},
                   {"selection": "puct", "prior_use": "init"}):
        knowledge = tools.replace(prior="network") if config.get("prior_use") == "init" else tools
        make_searcher("mcts", game, config, knowledge, capacity=1 << 12).search(state, Limits(simulations=16))
    make_searcher("rave", game, {}, None, capacity=1 << 12).search(state, Limits(simulations=16))
    for name in evaluations(game):
        knowledge = knowledge_for(game, name)
        make_searcher("alphabeta", game, {}, knowledge).search(state, Limits(depth=2))
        if knowledge.value is not None:
            make_searcher("mcts", game, {"rollout": "value"}, knowledge, capacity=1 << 12).search(
                state, Limits(simulations=16))


def warm(games=GAMES) -> float:
    """Compile and cache the kernels of these games and the searches on them; the seconds it took."""
    from engines.games import REPRESENTATIVES, make_game
    from engines.games.perft import perft

    t0 = time.perf_counter()
    for name in games:
        began = time.perf_counter()
        for game_name, options in REPRESENTATIVES:
            if game_name == name:
                game = make_game(game_name, **options)
                perft(game, game.initial_state(), 1)
                game.warm_up()
                warm_searches(game)
        _write_stamp(name, time.perf_counter() - began)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m engines.warmup", description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable; default all)")
    p.add_argument("--check", action="store_true", help="compile nothing: exit 0 when warm, 1 when cold")
    args = p.parse_args(argv)
    games = tuple(args.game or GAMES)
    if args.check:
        warm_now = is_warm(*games)
        print(f"plies: the compiled-kernel cache of {', '.join(games)} is {'warm' if warm_now else 'cold'}",
              file=sys.stderr)
        return 0 if warm_now else 1
    with compile_lock():  # another warm-up may have compiled some of these while we waited
        todo = tuple(game for game in games if not is_warm(game))
        seconds = warm(todo) if todo else 0.0
    print(f"plies: kernels compiled and cached in {seconds:.1f} s" if todo else
          f"plies: the compiled-kernel cache of {', '.join(games)} is warm", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
