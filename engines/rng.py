"""Seeded random numbers inside compiled kernels.

The generator state is a ``np.uint64`` array of length 1 (xorshift64*): injectable, copyable and
reproducible, unlike numba's hidden global ``np.random`` state.
"""
import numba as nb
import numpy as np

_MULT = np.uint64(0x2545F4914F6CDD1D)


def make_rng(seed: int) -> np.ndarray:
    """A generator state from any integer seed (splitmix64 scrambled, never zero)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def next_u64(rng):
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * _MULT


@nb.njit(cache=True, inline="always")
def below(rng, n):
    """Uniform int in [0, n) for 0 < n < 2**32 (multiply-shift on the high 32 bits)."""
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def uniform(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
