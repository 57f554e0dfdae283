"""Episodes (actual games) of the seed's loop, in this process, in worker processes or on Ray.

One episode: from the empty board and a one-node tree, each actual move runs the configured search
games from the kept subtree (PolicyMCTS), D = the root's normalised visits goes with the state into
the episode's cases, the move is chosen from D (the most visited, or sampled), and the tree keeps the
subtree under it.  Episodes are independent given the network, so N of them can run in parallel
between two training steps; each episode's seed depends only on the run seed and its number.
"""
import os
import pathlib
from dataclasses import dataclass

import numpy as np

from engines.learn.hex.replay import Case
from engines.learn.hex.anet_mcts import PolicyMCTS
from engines.learn.hex.state_manager import HexStateManager

PROJECT = pathlib.Path(__file__).resolve().parents[2]
RAY_TIMEOUT = 10.0   # seconds to reach a Ray cluster's head before giving up (Ray itself waits minutes)


class ClusterUnreachable(ConnectionError):
    """The Ray cluster at ray_address cannot be reached (the message names the address and the fix)."""


def check_ray_address(address: str, timeout: float = RAY_TIMEOUT) -> None:
    """ClusterUnreachable unless a TCP connection to host:port opens within timeout seconds ('auto'
    and ray:// addresses are left to Ray, which fails fast when no local cluster runs)."""
    if address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ClusterUnreachable(f"ray_address {address!r} is not host:port (or 'auto')")
    import socket
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as err:
        why = f"no answer within {timeout:g} s" if isinstance(err, TimeoutError) else (err.strerror or type(err).__name__)
        raise ClusterUnreachable(f"no Ray cluster at {address} ({why}): start one with "
                                 f"`ray start --head --port={port}`, or train without it (ray_address = '')") from None


@dataclass
class Episode:
    moves: list          # actions of the actual game, in order
    winner: int          # 0 or 1
    x: np.ndarray        # [m, 3*n*n] the states before each move, as ANET sees them
    d: np.ndarray        # [m, n*n] D of each move
    simulations: int     # search games run over the whole episode

    def cases(self, manager: HexStateManager, augment: bool) -> list[Case]:
        z = 1.0 if self.winner == 0 else 0.0
        out = []
        nn = manager.num_actions
        for x, d in zip(self.x, self.d):
            to_move = int(x[2 * nn] > 0.5)
            out.append(Case(x, d.astype(np.float32), z, to_move))
            if augment:
                out.append(Case(manager.rotate_encoding(x), manager.rotate_distribution(d).astype(np.float32), z,
                                to_move))
        return out


def episode_seed(run_seed: int, episode: int) -> int:
    return (run_seed * 1_000_003 + episode) % (2**31)


def choose_move(d: np.ndarray, moves_played: int, cfg, rng: np.random.Generator) -> int:
    """The actual move from D: sampled in proportion to D (move_choice="sample", or for the first
    sample_moves moves), else the most visited (the first of equals)."""
    if cfg.move_choice == "sample" or moves_played < cfg.sample_moves:
        return int(rng.choice(d.shape[0], p=d))
    return int(np.argmax(d))


def play_episode(cfg, network, value, seed: int, on_move=None) -> Episode:
    """One actual game; on_move(state, move) is called after each move (the display)."""
    manager = HexStateManager(cfg.size)
    rng = np.random.default_rng(seed)
    mcts = PolicyMCTS.from_config(manager.game, network, cfg, value=value, seed=seed)
    state = manager.initial_state()
    xs, ds, moves = [], [], []
    simulations = 0
    while not manager.is_final(state):
        d = mcts.distribution(state)
        simulations += mcts.simulations
        xs.append(manager.encode(state))
        ds.append(d)
        move = choose_move(d, len(moves), cfg, rng)
        state = manager.child(state, move)
        mcts.advance(move)
        moves.append(move)
        if on_move is not None:
            on_move(state, move)
    return Episode(moves, manager.winner(state), np.array(xs, np.float32), np.array(ds), simulations)


def _play_many(args):
    cfg, network, value, seeds = args
    return [play_episode(cfg, network, value, s) for s in seeds]


def connect_ray(address: str):
    """The ray module, connected to the cluster at address (the project on its workers' path);
    ClusterUnreachable when there is none there."""
    check_ray_address(address)  # before Ray, which would retry for minutes
    import ray
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR",
                     runtime_env={"env_vars": {"PYTHONPATH": str(PROJECT)}})
        except ConnectionError as err:
            raise ClusterUnreachable(f"no Ray cluster at {address}: {err}") from None
    return ray


class SelfPlay:
    """Plays batches of episodes: in this process (workers = 1), in a pool of worker processes, or as
    Ray tasks on the cluster at ``ray_address``.  Use as a context manager."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.pool = None
        self.ray = None
        self.engine = "ray" if cfg.ray_address else "processes" if cfg.workers > 1 else "inline"

    def __enter__(self):
        if self.engine == "ray":
            self.ray = connect_ray(self.cfg.ray_address)
            self._remote = self.ray.remote(num_cpus=1)(play_episode)
        elif self.engine == "processes":
            import multiprocessing
            # spawn: a fresh interpreter per worker (no forked PyTorch threads); numba loads its cache
            self.pool = multiprocessing.get_context("spawn").Pool(self.cfg.workers)
        return self

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
        return False

    @property
    def parallel(self) -> int:
        """Episodes worth running between two training steps."""
        return 1 if self.engine == "inline" else self.cfg.workers

    def play(self, network, value, seeds, on_move=None) -> list[Episode]:
        if self.engine == "inline":
            return [play_episode(self.cfg, network, value, s, on_move) for s in seeds]
        if self.engine == "ray":
            refs = [self._remote.remote(self.cfg, network, value, s) for s in seeds]
            return self.ray.get(refs)
        chunks = [seeds[i::self.cfg.workers] for i in range(self.cfg.workers)]
        results = self.pool.map(_play_many, [(self.cfg, network, value, c) for c in chunks if c])
        by_seed = {s: e for chunk, res in zip([c for c in chunks if c], results) for s, e in zip(chunk, res)}
        return [by_seed[s] for s in seeds]


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
