"""Writing network files: ONNX built from the numpy weights with onnx.helper (no PyTorch needed),
with a JSON sidecar beside it (same name, .json) saying how the network was made.  The file format
and reading are engines/knowledge/hex/network.py's (networks are knowledge; saving them is training).
"""
import datetime
import json
import pathlib

import numpy as np

from engines.knowledge.hex import conv as hexconv
from engines.knowledge.bundle import Network
from engines.knowledge.hex.conv import ConvNetwork
from engines.knowledge.hex.network import ONNX_ACTIVATIONS, sidecar_path

OPSET = 17
IR_VERSION = 8  # readable by every onnxruntime >= 1.14


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


def conv_to_onnx(network: ConvNetwork):
    """The ONNX model of a Hex policy CNN (engines/knowledge/hex/conv.py): "board" [batch, 3*n*n] is
    framed (Reshape, Pad, plus the edges' stones), then Conv (3 x 3, the corners zero) and Relu per
    hidden layer, the head's Conv, its board cells as "logits" [batch, n*n].  Initializers
    "conv.W{i}" (outputs, inputs, 3, 3) and "conv.b{i}" hold the weights."""
    from onnx import TensorProto, helper, numpy_helper
    n, m = network.size, network.size + 2
    const = {"shape.planes": np.array([-1, hexconv.PLANES, n, n], np.int64),
             "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "frame": hexconv.frame(n)[None],
             "inner.starts": np.array([0, 1, 1], np.int64), "inner.ends": np.array([1, m - 1, m - 1], np.int64),
             "inner.axes": np.array([1, 2, 3], np.int64), "shape.logits": np.array([-1, n * n], np.int64)}
    inits = [numpy_helper.from_array(v, k) for k, v in const.items()]
    nodes = [helper.make_node("Reshape", ["board", "shape.planes"], ["planes"]),
             helper.make_node("Pad", ["planes", "pads"], ["padded"]),
             helper.make_node("Add", ["padded", "frame"], ["h0"])]
    for i, (w, b) in enumerate(network.arrays()):
        kernel = np.zeros((w.shape[2], w.shape[1], 3, 3), np.float32)
        for k, (dr, dc) in enumerate(hexconv.TAPS):
            kernel[:, :, dr + 1, dc + 1] = w[k].T
        inits += [numpy_helper.from_array(kernel, f"conv.W{i}"), numpy_helper.from_array(np.asarray(b), f"conv.b{i}")]
        nodes.append(helper.make_node("Conv", [f"h{i}", f"conv.W{i}", f"conv.b{i}"], [f"c{i}"], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"h{i + 1}"]) if i < network.layers
                     else helper.make_node("Slice", [f"c{i}", "inner.starts", "inner.ends", "inner.axes"], ["inner"]))
    nodes.append(helper.make_node("Reshape", ["inner", "shape.logits"], ["logits"]))
    graph = helper.make_graph(nodes, "hexcnn", [helper.make_tensor_value_info("board", TensorProto.FLOAT,
                                                                              ["batch", 3 * n * n])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n * n])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="plies")
    model.ir_version = IR_VERSION
    return model


def save_network(path, network: Network | ConvNetwork, sidecar: dict, value: Network | None = None) -> pathlib.Path:
    """Writes path (ONNX) and its sidecar (JSON; the layers, activation or channels, and the date are
    added).  A CNN (hexconv.ConvNetwork) has no value network."""
    import onnx
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conv = isinstance(network, ConvNetwork)
    if conv and value is not None:
        raise ValueError("a Hex CNN file holds the policy alone")
    model = conv_to_onnx(network) if conv else to_onnx(network, value)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    shape = ({"conv": {"channels": network.channels, "layers": network.layers}, "size": network.size} if conv else
             {"layers": list(network.layers), "activation": network.activation,
              "value_layers": list(value.layers) if value is not None else None})
    meta = {**shape, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), **sidecar}
    sidecar_path(path).write_text(json.dumps(meta, indent=1, default=_plain) + "\n")
    return path


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON: {x!r}")
