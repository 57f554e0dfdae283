"""A policy network's prior at every node of a RAVE tree, for any game: the nodes to evaluate found by a
compiled walk, the network run between the search's compiled batches (its ``batch_hook``), and its
probabilities added to the children as won virtual visits.  Go (engines/knowledge/go/policy_network.py)
and Hex (engines/knowledge/hex/policy_network.py) each give the position's planes; the rest is here.

The tree is the RAVE search's node arrays (engines/search/rave.py): tree_f float32 [visits, wins, AMAF
visits, AMAF wins, prior visits, prior wins], tree_i int32 [move, first child, children, flags]; a node's
real visits are its visits less its prior visits.

``tree_frontier`` walks from the root through the nodes with at least ``min_visits`` real visits and
collects the expanded ones not yet flagged NET_PRIORED (the root whatever its visits): each one's row,
and the moves from the root to it (``paths[k, :depths[k]]``), from which the game's kernel replays the
position and writes its planes.  ``add_tree_prior`` then gives each child ``weight`` * p / max p won
virtual visits (p: the softmax of the logits over the node's children, so p / max p = exp(z - max z);
logits indexed by the child's move) and flags the node, so that a node is evaluated once, and its flag
travels with the subtree kept across moves.  ``TreePolicy`` is the hook that joins them.
"""
import time

import numba as nb
import numpy as np

# the RAVE tree's columns (engines/search/rave.py; tests/test_go_policy.py checks they agree)
T_VISITS, T_WINS, T_AVISITS, T_AWINS, T_PVISITS, T_PWINS = range(6)
T_MOVE, T_FIRST, T_COUNT, T_FLAGS = range(4)
M_ROOT = 1       # the searcher's meta: the root's row (engines/search/tree.py)
NET_PRIORED = 2  # tree_i flag: the node's children have the network's prior (rave's EXPERIENCED is 1)


@nb.njit(cache=True)
def tree_frontier(tree_f, tree_i, root, min_visits, rows, paths, depths, stack, flag):
    """Collects up to len(rows) nodes not yet flagged ``flag`` (NET_PRIORED: for the network, module
    docstring; a flag of its own for other knowledge): their rows into rows, the
    moves from the root into paths[k, :depths[k]]; returns how many.  stack: int64[2 * room] (a node not
    pushed for want of room waits for a later walk; so does one deeper than paths is wide).  Only nodes
    with min_visits real visits are entered, so the walk costs the nodes the network may be asked
    about, not the tree."""
    count = 0
    depth_of = stack[stack.shape[0] // 2:]
    width = paths.shape[1]
    path = np.empty(width + 1, dtype=np.int64)  # the moves from the root to the node popped, by depth
    stack[0] = root
    depth_of[0] = 0
    top = 1
    while top > 0 and count < rows.shape[0]:
        top -= 1
        node = stack[top]
        depth = depth_of[top]
        if depth > 0:
            path[depth] = tree_i[node, T_MOVE]
        n_children = tree_i[node, T_COUNT]
        if n_children == 0:
            continue
        if (tree_i[node, T_FLAGS] & flag) == 0:
            for d in range(depth):
                paths[count, d] = path[d + 1]
            depths[count] = depth
            rows[count] = node
            count += 1
        first = tree_i[node, T_FIRST]
        if depth + 1 > width or top + n_children > depth_of.shape[0]:
            continue
        for j in range(first, first + n_children):
            if np.float64(tree_f[j, T_VISITS]) - np.float64(tree_f[j, T_PVISITS]) >= min_visits:
                stack[top] = j
                depth_of[top] = depth + 1
                top += 1
    return count


@nb.njit(cache=True)
def add_tree_prior(tree_f, tree_i, rows, count, logits, weight, prior_amaf):
    """Gives the children of the nodes rows[:count] weight * p / max p won virtual visits each from
    the logits (one row a node, indexed by move) and flags the nodes NET_PRIORED."""
    for k in range(count):
        node = rows[k]
        first = tree_i[node, T_FIRST]
        n_children = tree_i[node, T_COUNT]
        top = -1e300
        for j in range(first, first + n_children):
            top = max(top, np.float64(logits[k, tree_i[j, T_MOVE]]))
        for j in range(first, first + n_children):
            share = weight * np.exp(np.float64(logits[k, tree_i[j, T_MOVE]]) - top)
            tree_f[j, T_VISITS] += share
            tree_f[j, T_WINS] += share
            tree_f[j, T_PVISITS] += share
            tree_f[j, T_PWINS] += share
            if prior_amaf:
                tree_f[j, T_AVISITS] += share
                tree_f[j, T_AWINS] += share
        tree_i[node, T_FLAGS] |= NET_PRIORED


class TreePolicy:
    """The policy network's prior at every node of a RAVE tree, as the searcher's ``batch_hook``:
    before each compiled batch, the expanded nodes with ``min_visits`` real visits (the root at once)
    whose children lack the prior are collected in compiled code (tree_frontier), their planes written
    by the game's ``positions(root_state, paths, depths, count, planes, frames, scratch)`` kernel (frames:
    a number a position the game may use, Hex's mover), evaluated through ``logits(planes[:count],
    frames[:count])`` (onnxruntime; logits indexed by move) in one batch of up to ``batch``, and each child
    gets ``weight`` * p / max p won virtual visits (add_tree_prior), once a node.  Onnxruntime cannot
    run inside compiled code, hence between batches; a node that reaches min_visits waits at most one
    batch (about 10 ms).  ``planes_width``: the floats of one position's planes; ``max_depth``: the
    deepest node evaluated.  ``calls``, ``positions`` and ``seconds`` count the network's work (figures,
    not decisions)."""

    def __init__(self, logits, positions, planes_width: int, weight: float, min_visits: int,
                 prior_amaf: bool = True, batch: int = 32, max_depth: int = 512):
        self.logits, self.positions_kernel = logits, positions
        self.weight, self.min_visits, self.prior_amaf = float(weight), int(min_visits), prior_amaf
        self.rows = np.empty(batch, dtype=np.int64)
        self.paths = np.empty((batch, max_depth), dtype=np.int64)
        self.depths = np.empty(batch, dtype=np.int64)
        self.planes = np.empty((batch, planes_width), dtype=np.float32)
        self.frames = np.zeros(batch, dtype=np.int64)
        self.stack = np.empty(2 * 65536, dtype=np.int64)
        self.scratch = None
        self.calls = self.positions = 0
        self.seconds = 0.0

    def __call__(self, searcher):
        started = time.perf_counter()
        if self.scratch is None or self.scratch.shape != searcher.root_state.shape:
            self.scratch = np.empty_like(searcher.root_state)
        count = tree_frontier(searcher.tree_f, searcher.tree_i, int(searcher.meta[M_ROOT]), float(self.min_visits),
                              self.rows, self.paths, self.depths, self.stack, NET_PRIORED)
        if count:
            self.positions_kernel(searcher.root_state, self.paths, self.depths, count, self.planes, self.frames,
                                  self.scratch)
            logits = self.logits(self.planes[:count], self.frames[:count])
            add_tree_prior(searcher.tree_f, searcher.tree_i, self.rows, count, logits, self.weight, self.prior_amaf)
            self.calls += 1
            self.positions += count
        self.seconds += time.perf_counter() - started


def warm_up(positions, state, planes_width: int, num_moves: int):
    """Compile the walk, the game's positions kernel and add_tree_prior on a root with one child of
    state (the game's warm-up calls it)."""
    tree_f = np.zeros((2, 6), dtype=np.float32)
    tree_i = np.zeros((2, 4), dtype=np.int32)
    tree_i[0, T_FIRST], tree_i[0, T_COUNT] = 1, 1
    rows, paths, depths = np.empty(1, np.int64), np.empty((1, 8), np.int64), np.empty(1, np.int64)
    count = tree_frontier(tree_f, tree_i, 0, 1.0, rows, paths, depths, np.empty(64, dtype=np.int64), NET_PRIORED)
    positions(state, paths, depths, count, np.empty((1, planes_width), np.float32), np.zeros(1, np.int64),
              np.empty_like(state))
    add_tree_prior(tree_f, tree_i, rows, count, np.zeros((1, num_moves), np.float32), 1.0, True)


def open_network(path, threads: int = 1):
    """(sidecar dict, onnxruntime session on the CPU with ``threads`` threads) of a network file;
    NetworkError naming the file for a missing file, an unreadable sidecar, no onnxruntime, or a file
    onnxruntime cannot read.  The shapes are the caller's to check (they are the game's)."""
    import json
    import pathlib
    from engines.errors import NetworkError
    path = pathlib.Path(path)
    if not path.is_file():
        raise NetworkError(f"no network file {path}")
    sidecar = path.with_suffix(".json")
    try:
        meta = json.loads(sidecar.read_text()) if sidecar.is_file() else {}
    except (OSError, ValueError) as err:
        raise NetworkError(f"{path}: cannot read its sidecar {sidecar.name} ({err})") from None
    try:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except ImportError as err:
        raise NetworkError(f"{path}: onnxruntime is not installed ({err})") from None
    except Exception as err:  # onnxruntime's own errors for a damaged or foreign file
        raise NetworkError(f"{path} is not a readable ONNX network ({type(err).__name__}: {err})") from None
    return meta, session


def checked_io(path, session, meta: dict, kind: str, plane_names: tuple, size: int, width: int, width_note: str,
               other_size) -> tuple:
    """(input name, output name) of a policy network's session, checked against what the game builds:
    one input [batch, len(plane_names), size, size], an output of ``width`` values a position, the
    sidecar's plane names if it gives them; NetworkError naming the file and the fault (``other_size``,
    a NetworkError class, when only the board size differs)."""
    from engines.errors import NetworkError
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if len(inputs) != 1 or len(inputs[0].shape) != 4:
        raise NetworkError(f"{path}: a {kind} takes one input [batch, planes, n, n]; "
                           f"this one takes {[(i.name, i.shape) for i in inputs]}")
    planes, rows, cols = inputs[0].shape[1:]
    if planes != len(plane_names):
        raise NetworkError(f"{path}: it reads {planes} input planes, plies builds {len(plane_names)}")
    if rows != size or cols != size:
        raise other_size(f"{path}: it was made for a {rows}x{cols} board, not {size}x{size}")
    found = outputs[0].shape[-1] if outputs and outputs[0].shape else None
    if found != width:
        raise NetworkError(f"{path}: its output has {found} values a position; {size}x{size} needs {width}{width_note}")
    names = meta.get("planes")
    if names is not None and tuple(names) != tuple(plane_names):
        raise NetworkError(f"{path}: its sidecar's planes {names} are not plies' {list(plane_names)}")
    return inputs[0].name, outputs[0].name
