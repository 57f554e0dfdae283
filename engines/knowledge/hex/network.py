"""Hex actor networks as knowledge: reading network files, checking the board size they play, and
using them (a policy knowledge bundle, the softmax over the legal moves, the greedy move).

A network file is ONNX, with a JSON sidecar beside it (same name, .json) saying how it was made and
what it takes.  Two kinds:

* The architectures plies writes (engines/learn/network_file.py), run by a compiled forward pass (the
  fast path; onnxruntime runs the same file to the same values, tests/test_user_networks.py).  Graph:
  input "board" float32 [batch, 3*n*n] (the game's observation) -> Gemm + activation per hidden
  layer -> Gemm -> "logits" [batch, n*n] (no softmax: callers mask the illegal moves first); with a
  value network, a second chain from "board" to "value" [batch, 1] = sigmoid(logit) = P(player 0
  wins).  Initializers "policy.W{i}" (inputs x outputs) / "policy.b{i}" (and "value.*") hold the
  weights in the layout of engines/knowledge/mlp.py, so loading is a concatenation; a Hex CNN's are
  "conv.W{i}" / "conv.b{i}" (engines/knowledge/hex/conv.py).  An MLP plays the n x n board whose
  observation it takes (3*n*n inputs) and whose cells it rates (n*n outputs).  A Hex CNN's weights
  fit every board: it plays the size its sidecar says it was taught on, and the sizes its sidecar
  lists under "plays" (those it was measured on, by whoever fitted it).
* Any other policy network (a course student's, in any architecture), a ``RuntimeNetwork`` run by
  onnxruntime: one input, the board in one of ENCODINGS, flat ([batch,] width) or as planes
  ([batch,] planes, n, n or [batch,] n, n, planes); one output with n*n move values a position
  (logits, or probabilities after a Softmax/Sigmoid).  Its sidecar may say "size", "encoding",
  "policy_output" (which output, when there are several) and "output_kind" (logits or
  probabilities); what it does not say is read from the shapes when they say it unambiguously.  A
  trial run on the empty board at load checks what the shapes cannot.  The compiled searches cannot
  call it: it plays greedy (or sampled), or as the RAVE search's prior at the root
  (engines/knowledge/hex/root_prior.py).

Everything that goes wrong in reading one (no file, not ONNX, no board size said, an unknown
encoding, an input or output that fits no board, another board size than asked for) is a
NetworkError naming the file and the reason.
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
    """(initializer arrays by name, the activation node types, the sidecar dict, the ONNX model) of a
    network file."""
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
    return arrays, acts, meta, model


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


def _ours(model, arrays) -> bool:
    """Whether a file is one of the architectures the compiled pass runs (engines/learn/network_file.py
    writes them): weights named policy.W0... or conv.W0..., input "board", output "logits"."""
    names = {i.name for i in model.graph.input} - set(arrays)
    outputs = {o.name for o in model.graph.output}
    return ("policy.W0" in arrays or "conv.W0" in arrays) and names == {"board"} and "logits" in outputs


# ==== any other architecture, run by onnxruntime ===================================================
# The course's students export their actor networks in whatever shape they built them: the input is the
# board "2 bits a cell or an equivalent encoding" plus the player to move, the output n*n move values.
# The encodings a network may take (the sidecar's "encoding"; else the one the input's width fits),
# each computed from the game's observation (3 planes: player-1 stones, player-2 stones, ones when
# player 2 is to move); "player 1" is the one joining the rows and moving first.
ENCODINGS = {
    "planes": "3 planes: player-1 stones, player-2 stones, all ones when player 2 is to move (3*n*n)",
    "planes4": "4 planes: empty cells, player-1 stones, player-2 stones, all ones when player 2 is to move (4*n*n)",
    "state": "the tournament's state: the player to move (1 or 2), then the cells row by row "
             "(0 empty, 1 player 1, 2 player 2) (1+n*n)",
    "bits": "the player to move as 2 bits (1 0: player 1, 0 1: player 2), then 2 bits a cell row by row "
            "(0 0 empty, 1 0 player 1, 0 1 player 2) (2+2*n*n)",
}
PLANES_OF = {"planes": 3, "planes4": 4}         # the encodings a convolutional (4-d) input can take
OUTPUT_KINDS = ("logits", "probabilities")      # what the n*n values are (the sidecar's "output_kind")
_PROBABILITY_OPS = {"Softmax", "Sigmoid"}       # a last node of these: the values are probabilities


def encoding_width(encoding: str, n: int) -> int:
    """The number of values ``encoding`` gives an n x n board."""
    return {"planes": 3 * n * n, "planes4": 4 * n * n, "state": 1 + n * n, "bits": 2 + 2 * n * n}[encoding]


def encode(encoding: str, observation: np.ndarray, n: int) -> np.ndarray:
    """The game's observations (..., 3*n*n) in ``encoding``: an array (..., width), planes first."""
    obs = np.asarray(observation, dtype=np.float32).reshape(-1, 3, n * n)
    first, second, turn = obs[:, 0], obs[:, 1], obs[:, 2, :1]   # turn: 1.0 when player 2 is to move
    if encoding == "planes":
        out = obs.reshape(-1, 3 * n * n)
    elif encoding == "planes4":
        out = np.concatenate([1.0 - first - second, first, second, np.repeat(turn, n * n, axis=1)], axis=1)
    elif encoding == "state":
        out = np.concatenate([1.0 + turn, first + 2.0 * second], axis=1)
    elif encoding == "bits":
        cells = np.stack([first, second], axis=2).reshape(-1, 2 * n * n)
        out = np.concatenate([1.0 - turn, turn, cells], axis=1)
    else:
        raise NetworkError(f"unknown encoding {encoding!r}")
    return out.reshape(*np.shape(observation)[:-1], -1)


def _dims(value_info) -> list:
    """A graph input's or output's dimensions: ints where fixed, None where symbolic or unknown."""
    shape = value_info.type.tensor_type.shape
    return [d.dim_value if d.HasField("dim_value") else None for d in shape.dim]


@dataclasses.dataclass(frozen=True, eq=False)
class RuntimeNetwork:
    """A policy network of any architecture, run by onnxruntime: ``size`` the board it plays,
    ``encoding`` its input (ENCODINGS), ``layout`` how one position is shaped for it ('flat': [width];
    'nchw': [planes, n, n]; 'nhwc': [n, n, planes]), ``batch`` its input's batch dimension (0: none,
    one position a run; -1: any number; k > 0: exactly k, as an export with a fixed example batch
    has: the positions are run k at a time, the last run padded), ``probabilities`` whether its output
    is probabilities (else logits).  It is no compiled kernel, so a compiled search cannot run it: the
    player asks it from Python."""
    path: pathlib.Path
    size: int
    encoding: str
    layout: str
    batch: int
    probabilities: bool
    session: object
    input_name: str
    output_name: str
    input_dtype: object

    def policy_shape(self) -> tuple[int, int]:
        """(inputs, outputs) as the callers see them: the game's observation in, a value a cell out."""
        return 3 * self.size ** 2, self.size ** 2

    @property
    def batched(self) -> bool:
        return self.batch != 0

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Move logits (batch, n*n) of the game's observations (batch, 3*n*n) (log-probabilities for a
        network whose output is probabilities: the softmax over the legal moves renormalises them)."""
        n = self.size
        x = self.inputs(np.asarray(observations, np.float32).reshape(-1, 3 * n * n))
        out = np.asarray(self.forward(x), dtype=np.float64).reshape(x.shape[0], n * n)
        if self.probabilities:
            out = np.log(np.maximum(out, 1e-30))
        return out.astype(np.float32)

    def inputs(self, observations: np.ndarray) -> np.ndarray:
        """The game's observations (batch, 3*n*n) encoded and shaped as the network takes a batch."""
        n = self.size
        x = encode(self.encoding, observations, n)
        if self.layout != "flat":
            x = x.reshape(-1, PLANES_OF[self.encoding], n, n)
            if self.layout == "nhwc":
                x = x.transpose(0, 2, 3, 1)
        return np.ascontiguousarray(x, dtype=self.input_dtype)

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The network's output for a batch of inputs x (rows, ...) as ``inputs`` shapes them: one
        row of output a position, whatever the input's batch dimension."""
        if self.batch == 0:  # no batch dimension: one position a run
            return np.stack([self._run(row) for row in x])
        if self.batch < 0:
            return self._run(x)
        rows, k = x.shape[0], self.batch
        padded = np.concatenate([x, np.zeros((-rows % k, *x.shape[1:]), x.dtype)])
        return np.concatenate([self._run(padded[i:i + k]) for i in range(0, padded.shape[0], k)])[:rows]

    def _run(self, x):
        return self.session.run([self.output_name], {self.input_name: x})[0]


_ORT_TYPES = {"tensor(float)": np.float32, "tensor(double)": np.float64, "tensor(float16)": np.float16,
              "tensor(int64)": np.int64, "tensor(int32)": np.int32}


def _runtime_session(path):
    try:
        import onnxruntime as ort
    except ModuleNotFoundError:  # a runtime dependency (setup.cfg): only a broken install lacks it
        raise NetworkError(f"{path}: running this network needs onnxruntime: pip install onnxruntime") from None
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3   # its warnings on stderr would reach a harness's log
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # noqa: BLE001 - onnxruntime's own errors: an invalid graph, an operator it lacks
        raise NetworkError(f"{path}: onnxruntime cannot run it ({type(err).__name__}: "
                           f"{str(err).strip().splitlines()[0] if str(err).strip() else err})") from None


def _shape_of_input(dims, n, path) -> tuple[str, int, int | None]:
    """(layout, batch as RuntimeNetwork.batch, planes or None) of an input's dimensions for an n x n
    board (n None: not known yet, read from the dimensions)."""
    rank = len(dims)
    batch = (-1 if dims[0] is None else dims[0]) if rank in (2, 4) else 0
    if rank in (1, 2):
        return "flat", batch, None
    if rank in (3, 4):
        spatial = dims[-3:]
        if spatial[0] in PLANES_OF.values() and spatial[1] == spatial[2] and (n is None or spatial[1] in (n, None)):
            return "nchw", batch, spatial[0]
        if spatial[2] in PLANES_OF.values() and spatial[0] == spatial[1] and (n is None or spatial[0] in (n, None)):
            return "nhwc", batch, spatial[2]
        raise NetworkError(f"{path}: an input of shape {dims} is no board of 3 or 4 planes "
                           f"([batch,] planes, n, n or [batch,] n, n, planes)")
    raise NetworkError(f"{path}: an input of rank {rank} ({dims}) is no board: a network takes "
                       f"[batch,] values or [batch,] planes, n, n")


def runtime_network(path, model, meta: dict) -> RuntimeNetwork:
    """The RuntimeNetwork of a network file that is none of the compiled architectures: its size from
    the sidecar ("size"), else its output's n*n values; its encoding from the sidecar ("encoding"),
    else the one its input's shape fits.  NetworkError naming the file for every misfit, after a
    trial run on the empty board."""
    path = pathlib.Path(path)
    initializers = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    if len(inputs) != 1:
        raise NetworkError(f"{path}: a policy network takes one input (the board), this one takes "
                           f"{len(inputs) or 'none'}{': ' + ', '.join(i.name for i in inputs) if inputs else ''}")
    encoding = meta.get("encoding")
    if encoding is not None and encoding not in ENCODINGS:
        raise NetworkError(f"{path}: its sidecar's encoding {encoding!r} is none of {', '.join(ENCODINGS)}")
    kind = meta.get("output_kind")
    if kind is not None and kind not in OUTPUT_KINDS:
        raise NetworkError(f"{path}: its sidecar's output_kind {kind!r} is none of {', '.join(OUTPUT_KINDS)}")
    n = None
    if "size" in meta:
        try:
            n = network_size({"size": meta["size"]})
        except NetworkError as err:
            raise NetworkError(f"{path}: {err}") from None
    dims = _dims(inputs[0])
    layout, batch, planes = _shape_of_input(dims, n, path)
    output = _policy_output(model, meta, n, batch, path)
    if n is None:
        n = _size_from_shapes(dims, layout, batch, output, path)
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise NetworkError(f"{path}: a network for {n}x{n}: Hex is played on {MIN_SIZE}x{MIN_SIZE} to "
                           f"{MAX_SIZE}x{MAX_SIZE}")
    encoding = encoding or _infer_encoding(dims, layout, planes, n, path)
    _check_input_fits(dims, layout, planes, encoding, n, path)
    producers = {o: node.op_type for node in model.graph.node for o in node.output}
    probabilities = (kind == "probabilities") if kind else producers.get(output.name) in _PROBABILITY_OPS
    session = _runtime_session(path)
    ort_input = session.get_inputs()[0]
    dtype = _ORT_TYPES.get(ort_input.type)
    if dtype is None:
        raise NetworkError(f"{path}: its input is a {ort_input.type}, not numbers a board can be written in")
    net = RuntimeNetwork(path, n, encoding, layout, batch, probabilities, session, ort_input.name,
                         output.name, dtype)
    _trial(net, n, path)
    return net


def _per_example(dims, batch: int) -> int | None:
    """The values a network gives for one position, from an output's dimensions (None: unknown): the
    output has a batch dimension first when the input has one (``batch`` as RuntimeNetwork.batch)."""
    if not dims:
        return None
    rest = dims[1:] if batch != 0 and len(dims) > 1 else dims
    return math.prod(rest) if all(d is not None for d in rest) else None


def _policy_output(model, meta, n, batch, path):
    """The graph output holding the n*n move values: the sidecar's "policy_output", the only one, or
    the only one with n*n values a position."""
    outputs = list(model.graph.output)
    if not outputs:
        raise NetworkError(f"{path}: the graph has no output")
    named = meta.get("policy_output")
    if named is not None:
        found = [o for o in outputs if o.name == named]
        if not found:
            raise NetworkError(f"{path}: its sidecar's policy_output {named!r} is none of the graph's outputs "
                               f"({', '.join(o.name for o in outputs)})")
        return found[0]
    if len(outputs) == 1:
        return outputs[0]
    values = {o.name: _per_example(_dims(o), batch) for o in outputs}
    fit = [o for o in outputs if n is not None and values[o.name] == n * n] or \
          [o for o in outputs if n is None and (v := values[o.name]) and v > 1 and math.isqrt(v) ** 2 == v]
    if len(fit) != 1:
        raise NetworkError(f"{path}: {len(outputs)} outputs ({', '.join(o.name for o in outputs)}) and no "
                           f"sidecar policy_output naming the one with the n*n move values")
    return fit[0]


def _size_from_shapes(dims, layout, batch, output, path) -> int:
    """The board size of a network without a sidecar size: its output's n*n values a position, else its
    input's board planes."""
    values = _per_example(_dims(output), batch)
    if values is not None:
        n = math.isqrt(values)
        if n * n != values:
            raise NetworkError(f"{path}: its output gives {values} values a position, not n*n move values "
                               f"of an n x n board")
        return n
    if layout == "nchw" and dims[-1] is not None:
        return dims[-1]
    if layout == "nhwc" and dims[-2] is not None:
        return dims[-2]
    raise NetworkError(f"{path}: its shapes say no board size: give it a sidecar {sidecar_path(path).name} "
                       f'with "size" (and "encoding": {", ".join(ENCODINGS)})')


def _infer_encoding(dims, layout, planes, n, path) -> str:
    if layout != "flat":
        return {3: "planes", 4: "planes4"}[planes]
    width = dims[-1]
    fits = [e for e in ENCODINGS if width is not None and encoding_width(e, n) == width]
    if not fits:
        widths = ", ".join(f"{e} {encoding_width(e, n)}" for e in ENCODINGS)
        raise NetworkError(f"{path}: an input of {width if width is not None else 'unknown'} values fits no "
                           f"encoding of a {n}x{n} board ({widths}); a sidecar can name the encoding")
    return fits[0]


def _check_input_fits(dims, layout, planes, encoding, n, path):
    if layout == "flat":
        width = dims[-1]
        if width is not None and width != encoding_width(encoding, n):
            raise NetworkError(f"{path}: its input takes {width} values, the {encoding} encoding of a {n}x{n} "
                               f"board is {encoding_width(encoding, n)}")
    elif encoding not in PLANES_OF or PLANES_OF[encoding] != planes:
        raise NetworkError(f"{path}: an input of {planes} planes cannot take the {encoding} encoding "
                           f"(planes: 3, planes4: 4)")
    else:
        side = dims[-2:] if layout == "nchw" else dims[-3:-1]
        if any(d not in (None, n) for d in side):
            raise NetworkError(f"{path}: its input's board is {side[0]}x{side[1]}, its output {n}x{n}")


def _trial(net: RuntimeNetwork, n: int, path):
    """One run on the empty board: what the shapes did not say (a graph that fails, outputs of
    another size, values that are no numbers) shows here, at load, not at the first move."""
    empty = np.zeros((1, 3 * n * n), np.float32)
    try:
        out = net.forward(net.inputs(empty))
    except Exception as err:  # noqa: BLE001 - onnxruntime raises its own kinds
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise NetworkError(f"{path}: it fails on a {n}x{n} board in the {net.encoding} encoding ({first})") from None
    values = np.asarray(out).size  # one position: its row
    if values != n * n:
        raise NetworkError(f"{path}: its output {net.output_name!r} gives {values} values for one position, "
                           f"not the {n * n} move values of a {n}x{n} board")
    if not np.isfinite(np.asarray(out, dtype=np.float64)).all():
        raise NetworkError(f"{path}: its output on the empty board is not finite numbers")


def network_size(network_or_sidecar) -> int:
    """The board size n a network plays: from a Network's layers (3*n*n inputs, n*n outputs), a
    ConvNetwork's size or a sidecar dict (its "size", else its "layers").  NetworkError when they
    name no board."""
    if isinstance(network_or_sidecar, (ConvNetwork, RuntimeNetwork)):
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
    arrays, acts, meta, model = _read(path)
    if not _ours(model, arrays):  # any other architecture: onnxruntime runs it as it is
        net = runtime_network(path, model, meta)
        if size is not None and size != net.size:
            raise NetworkError(f"{path} is a network for {net.size}x{net.size}, not for {size}x{size}")
        return net, meta
    net = _conv_network(arrays, meta, path)
    if net is None:
        net = _network(arrays, "policy", _activation(acts, meta, path), path)
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
    arrays, acts, meta, _ = _read(path)
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
    """Knowledge for MCTS with rollout="network" and/or PUCT priors from the network (a compiled one:
    a RuntimeNetwork is a NetworkError, the compiled search cannot call onnxruntime)."""
    if isinstance(network, RuntimeNetwork):
        raise NetworkError(f"{network.path}: a network of this architecture runs in onnxruntime, which the "
                           f"compiled search cannot call in its playouts or nodes (it plays greedy, or as the "
                           f"rave search's prior at the root: engines/knowledge/hex/root_prior.py)")
    return Knowledge(network=network, prior=NETWORK_PRIOR)


def logits(network: Network | ConvNetwork, x: np.ndarray) -> np.ndarray:
    """The compiled forward pass (engines/knowledge/mlp.py or hex/conv.py) on one flat input.  Called
    per move, so it runs the network's own arrays: packing it (hexconv.pack_policy, the searches'
    one vector) would copy every parameter each time."""
    if isinstance(network, RuntimeNetwork):
        return network.logits(x)[0]
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
    """onnxruntime inference of one of plies' own network files, as written (input "board", outputs
    "logits" and "value"; batched): the reference the compiled pass must match."""

    def __init__(self, path):
        self.session = _runtime_session(path)
        self.outputs = [o.name for o in self.session.get_outputs()]

    def logits(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        return self.session.run(["logits"], {"board": x.reshape(-1, x.shape[-1])})[0]

    def value(self, x: np.ndarray) -> np.ndarray:
        if "value" not in self.outputs:
            raise ValueError("this network file has no value head")
        x = np.asarray(x, dtype=np.float32)
        return self.session.run(["value"], {"board": x.reshape(-1, x.shape[-1])})[0][:, 0]

