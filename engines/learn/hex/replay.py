"""RBUF: the replay buffer of training cases (s, D), a ring of fixed capacity (the oldest go first).

A case holds the state as ANET sees it (the 3*n*n encoding: both players' stones and the player to
move), D (the root's normalised visit counts over all n*n actions, 0 on illegal moves) and z, the
episode's result for player 0 (1 won, 0 lost; the value network's target).
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class Case:
    x: np.ndarray       # float32 [3*n*n]
    d: np.ndarray       # float32 [n*n], sums to 1 over the legal moves
    z: float            # 1.0 when player 0 won the episode, else 0.0
    to_move: int        # the player to move in the case's state (also the third plane of x)


class ReplayBuffer:
    def __init__(self, capacity: int, inputs: int, actions: int):
        if capacity < 1:
            raise ValueError(f"replay buffer capacity must be >= 1, got {capacity}")
        self.capacity = capacity
        self.x = np.zeros((capacity, inputs), dtype=np.float32)
        self.d = np.zeros((capacity, actions), dtype=np.float32)
        self.z = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.added = 0  # cases ever added

    def __len__(self):
        return self.size

    def add(self, case: Case) -> None:
        i = self.added % self.capacity
        self.x[i], self.d[i], self.z[i] = case.x, case.d, case.z
        self.added += 1
        self.size = min(self.size + 1, self.capacity)

    def extend(self, cases) -> None:
        for case in cases:
            self.add(case)

    def sample(self, batch: int, rng: np.random.Generator):
        """A random minibatch (x, d, z) of min(batch, len) distinct cases."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        idx = rng.choice(self.size, size=min(batch, self.size), replace=False)
        return self.x[idx], self.d[idx], self.z[idx]
