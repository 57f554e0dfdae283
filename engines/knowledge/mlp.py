"""A compiled forward pass for small fully connected networks (an actor network's policy logits),
for use inside playouts where an onnxruntime call per move would cost more than the network itself.

Representation: ``layers`` = [inputs, hidden_1, ..., outputs] (int64); ``params`` (float32) holds,
layer by layer, the weight matrix W (inputs x outputs, row-major) then the bias b; hidden layers use
the activation code, the output layer is linear (logits).  A packed network (``pack``, for a kernel's
one float64 params vector) is [activation code, L, the L layer widths, params...]; ``forward_packed``
runs it.
"""
import numba as nb
import numpy as np

# activation codes of the hidden layers
ACT_LINEAR, ACT_SIGMOID, ACT_TANH, ACT_RELU = 0, 1, 2, 3
ACTIVATIONS = {"linear": ACT_LINEAR, "sigmoid": ACT_SIGMOID, "tanh": ACT_TANH, "relu": ACT_RELU}


def param_count(layers) -> int:
    return int(sum(layers[i] * layers[i + 1] + layers[i + 1] for i in range(len(layers) - 1)))


@nb.njit(cache=True)
def forward(x, params, layers, activation, out):
    """Writes the output-layer logits for input x into out."""
    width = 0
    for i in range(layers.shape[0]):
        width = max(width, layers[i])
    cur = np.empty(width, dtype=np.float32)
    nxt = np.empty(width, dtype=np.float32)
    for i in range(layers[0]):
        cur[i] = x[i]
    off = 0
    nlayers = layers.shape[0] - 1
    for layer in range(nlayers):
        n_in = layers[layer]
        n_out = layers[layer + 1]
        boff = off + n_in * n_out
        for j in range(n_out):
            nxt[j] = params[boff + j]
        for i in range(n_in):
            xi = cur[i]
            if xi != 0.0:
                row = off + i * n_out
                for j in range(n_out):
                    nxt[j] += xi * params[row + j]
        off = boff + n_out
        last = layer == nlayers - 1
        for j in range(n_out):
            v = nxt[j]
            if not last:
                if activation == ACT_SIGMOID:
                    v = 1.0 / (1.0 + np.exp(-v))
                elif activation == ACT_TANH:
                    v = np.tanh(v)
                elif activation == ACT_RELU:
                    v = max(v, 0.0)
            cur[j] = v
    for j in range(layers[nlayers]):
        out[j] = cur[j]


def pack(network) -> np.ndarray:
    """A Network (engines.knowledge.bundle) as one float64 vector: [activation code, L, L widths, params]."""
    head = [float(network.activation_code), float(len(network.layers)), *map(float, network.layers)]
    return np.concatenate([np.array(head), network.params.astype(np.float64)])


@nb.njit(cache=True)
def forward_packed(x, packed, out):
    """forward() of a packed network."""
    nl = np.int64(packed[1])
    layers = np.empty(nl, dtype=np.int64)
    for i in range(nl):
        layers[i] = np.int64(packed[2 + i])
    forward(x, packed[2 + nl:], layers, np.int64(packed[0]), out)
