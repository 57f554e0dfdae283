"""A compiled forward pass for small Hex convolutional networks (a policy's logits), for use inside
the search where an onnxruntime call per node would cost more than the network itself.

The board is framed: an (n+2) x (n+2) grid whose frame rows (top and bottom) hold player 0's
stones and whose frame columns (left and right) player 1's, so that a cell knows how far its edges
are.  Input planes on that grid: player 0's stones, player 1's stones, and all ones on the board
when player 1 is to move (the game's observation, engines.games.hex.observe, framed).  Every layer
is a hex convolution: a cell and its six neighbours (TAPS; a 3 x 3 kernel without the (-1, -1) and
(+1, +1) corners, which are not neighbours on the Hex grid), zero beyond the grid; the hidden
layers have ``channels`` channels and ReLU, the last layer one channel whose values on the board's
cells are the n*n logits.  The weights of a network fit every board size; a network file still
says the size it was taught on (engines/knowledge/hex/network.py checks it).

Representation: ``params`` (float32) holds, layer by layer, the weights W (7 taps x inputs x
outputs, row-major) then the bias b.  A packed network (``pack``, for a kernel's one float64 params
vector) is [CONV_CODE, channels, layers, params...]; ``forward_packed`` runs it on an observation.

A policy network of either kind (an MLP of engines/knowledge/mlp.py, or a CNN) goes to a compiled
kernel as ``pack_policy``'s vector, and ``policy_logits`` runs it (Hex's RAVE prior experience).  The
searches name no kind of network: a ConvNetwork hands them ``policy_logits`` as its policy kernel
(engines.knowledge.bundle.PolicyNetwork), as an MLP hands them mlp.forward_packed.
"""
from dataclasses import dataclass

import numba as nb
import numpy as np

from engines.knowledge import mlp
from engines.validate import check_int

TAPS = np.array([[-1, 0], [-1, 1], [0, -1], [0, 0], [0, 1], [1, -1], [1, 0]], dtype=np.int64)
PLANES = 3        # input planes (the observation's)
CONV_CODE = -1.0  # a packed network's first value: a convolutional network (mlp.pack starts with >= 0)


def layer_shapes(channels: int, layers: int) -> list[tuple[int, int]]:
    """(inputs, outputs) of each hex convolution: ``layers`` hidden ones, then the one-channel head."""
    return [(PLANES if i == 0 else channels, channels) for i in range(layers)] + [(channels, 1)]


def param_count(channels: int, layers: int) -> int:
    return sum(len(TAPS) * a * b + b for a, b in layer_shapes(channels, layers))


@dataclass(frozen=True, eq=False)
class ConvNetwork:
    """A Hex policy CNN: ``layers`` hidden hex convolutions of ``channels`` channels (ReLU) and a
    one-channel head; ``params`` float32 as the module docstring lays them out; ``size`` the board
    it was taught on (its weights fit any board)."""
    params: np.ndarray
    channels: int
    layers: int
    size: int

    def __post_init__(self):
        for name in ("channels", "layers", "size"):
            object.__setattr__(self, name, check_int(f"ConvNetwork.{name}", getattr(self, name), 1))
        params = np.ascontiguousarray(np.array(self.params, dtype=np.float32).reshape(-1))
        need = param_count(self.channels, self.layers)
        if params.shape[0] != need or not np.isfinite(params).all():
            raise ValueError(f"ConvNetwork of {self.layers} layers of {self.channels} channels needs {need} "
                             f"finite parameters, got {params.shape[0]}")
        object.__setattr__(self, "params", params)

    def arrays(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """[(W (7, inputs, outputs), b)] per layer, views into params."""
        out, off = [], 0
        for a, b in layer_shapes(self.channels, self.layers):
            w = self.params[off:off + len(TAPS) * a * b].reshape(len(TAPS), a, b)
            off += w.size
            out.append((w, self.params[off:off + b]))
            off += b
        return out

    # a policy network as the searches take it (engines.knowledge.bundle.PolicyNetwork)
    def policy_kernel(self):
        return policy_logits

    def packed(self) -> np.ndarray:
        return pack(self)

    def policy_shape(self) -> tuple[int, int]:
        return PLANES * self.size ** 2, self.size ** 2


def pack(network: ConvNetwork) -> np.ndarray:
    return np.concatenate([np.array([CONV_CODE, network.channels, network.layers], np.float64),
                           network.params.astype(np.float64)])


def pack_policy(network) -> np.ndarray:
    """A policy network, an MLP (engines.knowledge.bundle.Network) or a CNN, as policy_logits' vector."""
    return network.packed()


def policy_shape(network) -> tuple[int, int]:
    """(inputs, outputs) of a policy network, MLP or CNN."""
    return network.policy_shape()


def frame(n: int) -> np.ndarray:
    """The framed grid's constant part (3, n+2, n+2): the edges' stones, as framed_planes writes them."""
    out = np.zeros((PLANES, n + 2, n + 2), np.float32)
    out[0, 0, 1:-1] = out[0, -1, 1:-1] = 1.0
    out[1, 1:-1, 0] = out[1, 1:-1, -1] = 1.0
    return out


@nb.njit(cache=True)
def framed_planes(x, n, out):
    """The observation x (3*n*n) on the framed grid: out[cell of the (n+2)^2 grid, plane]."""
    m = n + 2
    out[:] = 0.0
    for k in range(1, m - 1):
        out[k, 0] = 1.0                  # top frame row: player 0's edge
        out[(m - 1) * m + k, 0] = 1.0    # bottom
        out[k * m, 1] = 1.0              # left frame column: player 1's edge
        out[k * m + m - 1, 1] = 1.0      # right
    for r in range(n):
        for c in range(n):
            cell = (r + 1) * m + c + 1
            for p in range(PLANES):
                out[cell, p] = x[p * n * n + r * n + c]


@nb.njit(cache=True)
def _convolve(x, m, w, off, n_out, relu):
    """One hex convolution of x ((m*m cells of the framed grid, n_in) float32) with the layer's
    weights from w[off] (float32 or float64; 7 taps x n_in x n_out, then the bias).  Loops, not a
    matrix product: numba's np.dot needs SciPy's BLAS, which plies does not depend on; a zero input
    (most of the first layer, and every ReLU that is off) costs nothing.  Returns (the output, the
    next layer's offset)."""
    cells, n_in = x.shape
    boff = off + 7 * n_in * n_out
    out = np.empty((cells, n_out), dtype=np.float32)
    for cell in range(cells):
        for o in range(n_out):
            out[cell, o] = w[boff + o]
        r = cell // m
        c = cell - r * m
        for k in range(7):
            rr = r + TAPS[k, 0]
            cc = c + TAPS[k, 1]
            if rr < 0 or rr >= m or cc < 0 or cc >= m:
                continue
            nbr = rr * m + cc
            for i in range(n_in):
                v = x[nbr, i]
                if v == 0.0:
                    continue
                base = off + (k * n_in + i) * n_out
                for o in range(n_out):
                    out[cell, o] += v * np.float32(w[base + o])
        if relu:
            for o in range(n_out):
                if out[cell, o] < 0.0:
                    out[cell, o] = 0.0
    return out, boff + n_out


@nb.njit(cache=True)
def forward(x, n, params, channels, layers, out):
    """Writes the n*n logits of the observation x (3*n*n) into out (params float32 or float64: the
    arithmetic is float32, as in the network's training)."""
    m = n + 2
    h = np.empty((m * m, PLANES), dtype=np.float32)
    framed_planes(x, n, h)
    off = 0
    for layer in range(layers + 1):
        h, off = _convolve(h, m, params, off, channels if layer < layers else 1, layer < layers)
    for r in range(n):
        for c in range(n):
            out[r * n + c] = h[(r + 1) * m + c + 1, 0]


@nb.njit(cache=True)
def forward_packed(x, n, packed, out):
    """forward() of a packed network."""
    forward(x, n, packed[3:], np.int64(packed[1]), np.int64(packed[2]), out)


@nb.njit(cache=True)
def policy_logits(x, packed, out):
    """The logits of a packed policy network (pack_policy), MLP or CNN, on the flat observation x (a
    CNN's board side is read from x: 3 * n * n values)."""
    if packed[0] == CONV_CODE:
        forward_packed(x, np.int64(np.sqrt(x.shape[0] // PLANES) + 0.5), packed, out)
    else:
        mlp.forward_packed(x, packed, out)
