"""Network files: ONNX written from the numpy weights with onnx.helper (no PyTorch needed to read or
write them), with a JSON sidecar beside it (same name, .json) saying how the network was made.

Graph: input "board" float32 [batch, 3*n*n] (the game's observation) -> Gemm + activation per hidden
layer -> Gemm -> "logits" [batch, n*n] (no softmax: callers mask the illegal moves first).  With a
value network: a second chain from "board" to "value" [batch, 1] = sigmoid(logit) = P(player 0 wins).
Initializers "policy.W{i}" (inputs x outputs) / "policy.b{i}" (and "value.*") hold the weights in
the layout of engines/knowledge/mlp.py, so loading is a concatenation.
"""
import datetime
import json
import math
import pathlib

import numpy as np

from engines.knowledge import mlp
from engines.knowledge.bundle import NETWORK_PRIOR, Knowledge, Network

WEIGHTS_DIR = pathlib.Path(__file__).resolve().parents[2] / "weights" / "hex"
OPSET = 17
IR_VERSION = 8  # readable by every onnxruntime >= 1.14
ONNX_ACTIVATIONS = {"sigmoid": "Sigmoid", "tanh": "Tanh", "relu": "Relu"}  # linear: no node


def sidecar_path(path) -> pathlib.Path:
    return pathlib.Path(path).with_suffix(".json")


def _layer_arrays(network: Network):
    """[(W, b)] per layer, views into network.params."""
    out, off = [], 0
    for n_in, n_out in zip(network.layers[:-1], network.layers[1:]):
        w = network.params[off:off + n_in * n_out].reshape(n_in, n_out)
        off += n_in * n_out
        out.append((w, network.params[off:off + n_out]))
        off += n_out
    return out


def _chain(prefix, network, source, output):
    from onnx import helper, numpy_helper
    nodes, inits = [], []
    x = source
    arrays = _layer_arrays(network)
    for i, (w, b) in enumerate(arrays):
        inits += [numpy_helper.from_array(np.asarray(w, np.float32), f"{prefix}.W{i}"),
                  numpy_helper.from_array(np.asarray(b, np.float32), f"{prefix}.b{i}")]
        last = i == len(arrays) - 1
        y = output if last else f"{prefix}.z{i}"
        nodes.append(helper.make_node("Gemm", [x, f"{prefix}.W{i}", f"{prefix}.b{i}"], [y]))
        if not last and network.activation in ONNX_ACTIVATIONS:
            nodes.append(helper.make_node(ONNX_ACTIVATIONS[network.activation], [y], [f"{prefix}.a{i}"]))
            y = f"{prefix}.a{i}"
        x = y
    return nodes, inits


def to_onnx(network: Network, value: Network | None = None):
    """The ONNX model of a policy network (and an optional value network on the same input)."""
    from onnx import TensorProto, helper
    n_in, n_out = network.layers[0], network.layers[-1]
    nodes, inits = _chain("policy", network, "board", "logits")
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n_out])]
    if value is not None:
        if value.layers[0] != n_in or value.layers[-1] != 1:
            raise ValueError(f"the value network must map {n_in} inputs to 1 output, got {list(value.layers)}")
        vnodes, vinits = _chain("value", value, "board", "value_logit")
        nodes += vnodes + [helper.make_node("Sigmoid", ["value_logit"], ["value"])]
        inits += vinits
        outputs.append(helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 1]))
    graph = helper.make_graph(nodes, "anet", [helper.make_tensor_value_info("board", TensorProto.FLOAT,
                                                                            ["batch", n_in])], outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="plies")
    model.ir_version = IR_VERSION
    return model


def save_network(path, network: Network, sidecar: dict, value: Network | None = None) -> pathlib.Path:
    """Writes path (ONNX) and its sidecar (JSON; layers, activation and the date are added)."""
    import onnx
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    model = to_onnx(network, value)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    meta = {"layers": list(network.layers), "activation": network.activation,
            "value_layers": list(value.layers) if value is not None else None,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), **sidecar}
    sidecar_path(path).write_text(json.dumps(meta, indent=1, default=_plain) + "\n")
    return path


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON: {x!r}")


def _read(path):
    import onnx
    from onnx import numpy_helper
    path = pathlib.Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no network file {path}")
    model = onnx.load(str(path))
    arrays = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    acts = {n.op_type for n in model.graph.node} & set(ONNX_ACTIVATIONS.values())
    meta = json.loads(sidecar_path(path).read_text()) if sidecar_path(path).is_file() else {}
    return arrays, acts, meta


def _network(arrays, prefix, activation) -> Network | None:
    if f"{prefix}.W0" not in arrays:
        return None
    parts, layers, i = [], [], 0
    while f"{prefix}.W{i}" in arrays:
        w, b = arrays[f"{prefix}.W{i}"], arrays[f"{prefix}.b{i}"]
        layers += [w.shape[0]] if i == 0 else []
        layers.append(w.shape[1])
        parts += [w.astype(np.float32).reshape(-1), b.astype(np.float32).reshape(-1)]
        i += 1
    return Network(np.concatenate(parts), tuple(int(v) for v in layers), activation)


def _activation(acts, meta, path):
    if "activation" in meta:
        return meta["activation"]
    if len(acts) > 1:
        raise ValueError(f"{path}: several activations and no sidecar naming one")
    names = {v: k for k, v in ONNX_ACTIVATIONS.items()}
    return names[acts.pop()] if acts else "linear"


def load_network(path) -> tuple[Network, dict]:
    """The policy network of an ONNX file (weights read from its initializers) and its sidecar dict."""
    arrays, acts, meta = _read(path)
    net = _network(arrays, "policy", _activation(acts, meta, path))
    if net is None:
        raise ValueError(f"{path}: no policy weights (initializers policy.W0, policy.b0, ...)")
    return net, meta


def load_value_network(path) -> Network | None:
    """The value network of an ONNX file, or None when it has none."""
    arrays, acts, meta = _read(path)
    return _network(arrays, "value", _activation(acts, meta, path))


def shipped_network_path(size: int) -> pathlib.Path | None:
    """weights/hex/hex{size}.onnx when it exists."""
    path = WEIGHTS_DIR / f"hex{int(size)}.onnx"
    return path if path.is_file() else None


def policy_knowledge(network: Network) -> Knowledge:
    """Knowledge for MCTS with rollout="network" and/or PUCT priors from the network."""
    return Knowledge(network=network, prior=NETWORK_PRIOR)


def logits(network: Network, x: np.ndarray) -> np.ndarray:
    """The compiled forward pass (engines/knowledge/mlp.py) on one flat input."""
    out = np.empty(network.layers[-1], dtype=np.float32)
    mlp.forward(np.ascontiguousarray(x, dtype=np.float32), network.params,
                np.asarray(network.layers, dtype=np.int64), np.int64(network.activation_code), out)
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
        import onnxruntime as ort
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


def describe(meta: dict) -> str:
    """One line about a network from its sidecar."""
    figures = meta.get("figures", {})
    loss = figures.get("loss")
    return (f"{meta.get('size', '?')}x{meta.get('size', '?')}, episode {meta.get('episode', '?')}, layers "
            f"{meta.get('layers')}, {meta.get('activation')}"
            + (f", loss {loss:.3f}" if isinstance(loss, (int, float)) and math.isfinite(loss) else ""))
