"""Hex actor networks as knowledge: reading network files, checking the board size they play, and
using them (a policy knowledge bundle, the softmax over the legal moves, the greedy move).

A network file is ONNX with a JSON sidecar beside it (same name, .json) saying how the network was
made (engines/learn/network_file.py writes both; onnxruntime runs the file as it is).  Graph: input
"board" float32 [batch, 3*n*n] (the game's observation) -> Gemm + activation per hidden layer ->
Gemm -> "logits" [batch, n*n] (no softmax: callers mask the illegal moves first); with a value
network, a second chain from "board" to "value" [batch, 1] = sigmoid(logit) = P(player 0 wins).
Initializers "policy.W{i}" (inputs x outputs) / "policy.b{i}" (and "value.*") hold the weights in
the layout of engines/knowledge/mlp.py, so loading is a concatenation.

A network plays the n x n board whose observation it takes (3*n*n inputs) and whose cells it rates
(n*n outputs).  A Hex CNN's weights fit every board: it plays the size its sidecar says it was taught
on, and the sizes its sidecar lists under "plays" (those it was measured on, by whoever fitted it).
Everything that goes wrong in reading one (no file, not ONNX, no policy weights, layers of no board,
another board size than asked for) is a NetworkError naming the file.
"""
import dataclasses
import json
import math
import pathlib

import numpy as np

import weights
from engines.errors import NetworkError  # noqa: F401 - raised here; in engines.errors so a caller can
from engines.games.hex import MAX_SIZE, MIN_SIZE  # catch it without importing (compiling) the engine
from engines.knowledge import mlp
from engines.knowledge.hex import conv as hexconv
from engines.knowledge.bundle import NETWORK_PRIOR, Knowledge, Network
from engines.knowledge.hex.conv import ConvNetwork

ONNX_ACTIVATIONS = {"sigmoid": "Sigmoid", "tanh": "Tanh", "relu": "Relu"}  # linear: no node


def sidecar_path(path) -> pathlib.Path:
    return pathlib.Path(path).with_suffix(".json")


def _read(path):
    """(initializer arrays by name, the activation node types, the sidecar dict) of a network file."""
    import onnx
    from onnx import numpy_helper
    path = pathlib.Path(path)
    if not path.is_file():
        raise NetworkError(f"no network file {path}")
    try:
        model = onnx.load(str(path))
        arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    except Exception as err:  # protobuf's decode errors and onnx's own, whatever the damage
        raise NetworkError(f"{path} is not a readable ONNX network ({type(err).__name__}: {err})") from None
    acts = {n.op_type for n in model.graph.node} & set(ONNX_ACTIVATIONS.values())
    sidecar = sidecar_path(path)
    try:
        meta = json.loads(sidecar.read_text()) if sidecar.is_file() else {}
    except (OSError, ValueError) as err:
        raise NetworkError(f"{path}: cannot read its sidecar {sidecar.name} ({err})") from None
    if not isinstance(meta, dict):
        raise NetworkError(f"{path}: its sidecar {sidecar.name} is not a JSON object")
    return arrays, acts, meta


def _network(arrays, prefix, activation, path) -> Network | None:
    if f"{prefix}.W0" not in arrays:
        return None
    parts, layers, i = [], [], 0
    try:
        while f"{prefix}.W{i}" in arrays:
            w, b = arrays[f"{prefix}.W{i}"], arrays[f"{prefix}.b{i}"]
            layers += [w.shape[0]] if i == 0 else []
            layers.append(w.shape[1])
            parts += [w.astype(np.float32).reshape(-1), b.astype(np.float32).reshape(-1)]
            i += 1
        return Network(np.concatenate(parts), tuple(int(v) for v in layers), activation)
    except (KeyError, IndexError, ValueError) as err:
        raise NetworkError(f"{path}: the {prefix} weights do not form a network ({err})") from None


def _activation(acts, meta, path):
    if "activation" in meta:
        return meta["activation"]
    if len(acts) > 1:
        raise NetworkError(f"{path}: several activations and no sidecar naming one")
    names = {v: k for k, v in ONNX_ACTIVATIONS.items()}
    return names[acts.pop()] if acts else "linear"


def _conv_network(arrays, meta, path) -> ConvNetwork | None:
    """The Hex CNN of a file's "conv.*" initializers (engines/learn/network_file.conv_to_onnx), the
    board size from its sidecar; None when the file holds no CNN."""
    if "conv.W0" not in arrays:
        return None
    if "size" not in meta:
        raise NetworkError(f"{path}: a CNN fits every board, so its sidecar must say the size it was taught on")
    try:
        size = network_size(meta)
    except NetworkError as err:
        raise NetworkError(f"{path}: {err}") from None
    parts, i = [], 0
    try:
        while f"conv.W{i}" in arrays:
            w, b = arrays[f"conv.W{i}"], arrays[f"conv.b{i}"]
            taps = np.stack([w[:, :, dr + 1, dc + 1].T for dr, dc in hexconv.TAPS])
            parts += [taps.astype(np.float32).reshape(-1), b.astype(np.float32).reshape(-1)]
            i += 1
        channels = int(arrays["conv.W0"].shape[0])
        return ConvNetwork(np.concatenate(parts), channels, i - 1, size)
    except (KeyError, IndexError, ValueError) as err:
        raise NetworkError(f"{path}: the conv weights do not form a Hex CNN ({err})") from None


def network_size(network_or_sidecar) -> int:
    """The board size n a network plays: from a Network's layers (3*n*n inputs, n*n outputs), a
    ConvNetwork's size or a sidecar dict (its "size", else its "layers").  NetworkError when they
    name no board."""
    if isinstance(network_or_sidecar, ConvNetwork):
        return network_or_sidecar.size
    if isinstance(network_or_sidecar, Network):
        layers = network_or_sidecar.layers
    elif isinstance(network_or_sidecar, dict):
        size = network_or_sidecar.get("size")
        if size is not None:
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise NetworkError(f"the sidecar's size must be a positive integer, got {size!r}")
            return size
        layers = network_or_sidecar.get("layers")
        if not isinstance(layers, list) or len(layers) < 2 or not all(isinstance(v, int) for v in layers):
            raise NetworkError("the sidecar names neither a size nor the network's layers")
    else:
        raise NetworkError(f"a Network or a sidecar dict is needed, got {network_or_sidecar!r}")
    n = math.isqrt(layers[-1])
    if n * n != layers[-1] or layers[0] != 3 * n * n:
        raise NetworkError(f"layers {list(layers)} fit no board: an n x n network takes 3*n*n inputs "
                           f"and gives n*n outputs")
    return n


def load_network(path, size: int | None = None) -> tuple[Network | ConvNetwork, dict]:
    """The policy network of a network file (an MLP, or a Hex CNN) and its sidecar dict.  With size,
    the network must play that board size: a network for another size is a NetworkError naming both."""
    arrays, acts, meta = _read(path)
    net = _conv_network(arrays, meta, path)
    if net is None:
        net = _network(arrays, "policy", _activation(acts, meta, path), path)
    if net is None:
        raise NetworkError(f"{path}: no policy weights (initializers policy.W0, policy.b0, ... or conv.W0, ...)")
    try:
        plays = network_size(net)
        said = network_size(meta) if "size" in meta else plays
    except NetworkError as err:
        raise NetworkError(f"{path}: {err}") from None
    if said != plays:
        raise NetworkError(f"{path}: the sidecar says {said}x{said}, the layers are for {plays}x{plays}")
    if size is not None and size != plays:
        if isinstance(net, ConvNetwork) and size in also_plays(meta, path):
            return dataclasses.replace(net, size=size), meta
        raise NetworkError(f"{path} is a network for {plays}x{plays}, not for {size}x{size}")
    return net, meta


def also_plays(meta: dict, path) -> list[int]:
    """The sizes a CNN's sidecar lists under "plays" (beside the one it was taught on)."""
    sizes = meta.get("plays", [])
    if not isinstance(sizes, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              and MIN_SIZE <= v <= MAX_SIZE for v in sizes):
        raise NetworkError(f"{path}: the sidecar's plays must list board sizes {MIN_SIZE}..{MAX_SIZE}, "
                           f"got {sizes!r}")
    return sizes


def load_value_network(path) -> Network | None:
    """The value network of a network file, or None when it has none."""
    arrays, acts, meta = _read(path)
    return _network(arrays, "value", _activation(acts, meta, path), path)


def shipped_network_path(size: int) -> pathlib.Path | None:
    """The shipped network for size x size (weights/hex/hex{size}.onnx, package data), or None."""
    path = weights.HEX_DIR / f"hex{int(size)}.onnx"
    return path if path.is_file() else None


def shipped_prior_path(size: int) -> pathlib.Path | None:
    """The policy CNN shipped as the RAVE search's prior for size x size: weights/hex/prior{size}.onnx,
    else the first weights/hex/prior*.onnx whose sidecar lists the size under "plays"; or None."""
    path = weights.HEX_DIR / f"prior{int(size)}.onnx"
    if path.is_file():
        return path
    for other in sorted(weights.HEX_DIR.glob("prior*.onnx")):
        sidecar = sidecar_path(other)
        if sidecar.is_file() and int(size) in also_plays(json.loads(sidecar.read_text()), other):
            return other
    return None


def shipped_sizes() -> tuple[int, ...]:
    """The board sizes a shipped network exists for, smallest first."""
    return tuple(n for n in range(MIN_SIZE, MAX_SIZE + 1) if shipped_network_path(n) is not None)


def network_for_size(choice: str | None, size: int, kind: str = "network", required: bool = False):
    """The network a setting names for size x size, loaded: the one place a player picks its network
    by board size.  ``choice``: 'none' (or None) for none; 'shipped' for the network shipped for the
    size (``kind`` 'network': weights/hex/hex<n>.onnx; 'prior': the RAVE prior, shipped_prior_path),
    None when nothing is shipped for it unless ``required`` (then a NetworkError listing the shipped
    sizes); else a network file, which must play the size (NetworkError naming both sizes)."""
    if choice in (None, "none"):
        return None
    if choice == "shipped":
        path = shipped_prior_path(size) if kind == "prior" else shipped_network_path(size)
        if path is None:
            if not required:
                return None
            shipped = ", ".join(f"{n}x{n}" for n in shipped_sizes()) or "none"
            raise NetworkError(f"no shipped {kind} for {size}x{size} (shipped: {shipped})")
        choice = path
    return load_network(choice, size)[0]


def policy_knowledge(network: Network) -> Knowledge:
    """Knowledge for MCTS with rollout="network" and/or PUCT priors from the network."""
    return Knowledge(network=network, prior=NETWORK_PRIOR)


def logits(network: Network | ConvNetwork, x: np.ndarray) -> np.ndarray:
    """The compiled forward pass (engines/knowledge/mlp.py or hex/conv.py) on one flat input.  Called
    per move, so it runs the network's own arrays: packing it (hexconv.pack_policy, the searches'
    one vector) would copy every parameter each time."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    out = np.empty(hexconv.policy_shape(network)[1], dtype=np.float32)
    if isinstance(network, ConvNetwork):
        hexconv.forward(x, network.size, network.params, network.channels, network.layers, out)
    else:
        mlp.forward(x, network.params, np.asarray(network.layers, dtype=np.int64), np.int64(network.activation_code),
                    out)
    return out


def distribution(game, state, network: Network) -> np.ndarray:
    """The network's move probabilities: softmax over the legal moves, illegal moves exactly 0."""
    z = logits(network, game.observation(state).reshape(-1)).astype(np.float64)
    legal = game.legal_moves(state)
    p = np.zeros(game.num_actions)
    if legal:
        v = z[legal] - z[legal].max()
        e = np.exp(v)
        p[legal] = e / e.sum()
    return p


def greedy_move(game, state, network: Network) -> int:
    """The network's best legal action (illegal moves zeroed)."""
    legal = game.legal_moves(state)
    if not legal:
        raise ValueError("no legal move: the game is over")
    z = logits(network, game.observation(state).reshape(-1))
    return int(legal[int(np.argmax(z[legal]))])


class OnnxPolicy:
    """onnxruntime inference of a network file (batched; the reference the compiled pass must match)."""

    def __init__(self, path):
        try:
            import onnxruntime as ort
        except ModuleNotFoundError:  # the reference runtime is a test dependency (the dev extra)
            raise NetworkError("running a network file with onnxruntime needs the dev extra: "
                               "pip install 'plies[dev]'") from None
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.outputs = [o.name for o in self.session.get_outputs()]

    def logits(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        return self.session.run(["logits"], {"board": x.reshape(-1, x.shape[-1])})[0]

    def value(self, x: np.ndarray) -> np.ndarray:
        if "value" not in self.outputs:
            raise ValueError("this network file has no value head")
        x = np.asarray(x, dtype=np.float32)
        return self.session.run(["value"], {"board": x.reshape(-1, x.shape[-1])})[0][:, 0]

