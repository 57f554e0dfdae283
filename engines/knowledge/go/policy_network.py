"""A Go policy network at play time: the input planes of a position built by a compiled kernel from the
game state, and the network file (ONNX, trained by engines/learn/go/policy.py) run through onnxruntime.

Planes (``PLANE_NAMES``, in this order; each n x n in action order, row 0 at the bottom), from the view
of the player to move: own stones, opponent stones, empty points, own chains with 1 / 2 / 3+ liberties,
the opponent's with 1 / 2 / 3+, the simple-ko point, the last move, the second-last move (none for a
pass), ones on the board, ones when White is to move.  ``write_planes(s, out)`` fills out (NUM_PLANES *
n*n float32) from a state of engines/games/go.py: liberties are counted exactly (distinct empty
neighbours of each chain's stones, walking the chain's linked list), not the state's pseudo-liberties.

Network file.  Input "planes" float32 [batch, NUM_PLANES, n, n], output "logits" [batch, n*n+1] (the
points, then the pass; no softmax).  ``PolicyNetwork(path, size)`` checks the file against the board
(the input's planes and sides, the output's width, the sidecar's plane names) and raises NetworkError
naming the file and the mismatch (OtherBoardSize, a NetworkError, when only the board size differs).

The prior in the tree (``tree_positions``, ``add_tree_prior``): over the RAVE search's node arrays
(engines/search/rave.py: tree_f float32 [visits, wins, AMAF visits, AMAF wins, prior visits, prior
wins], tree_i int32 [move, first child, children, flags]; a node's real visits are its visits less its
prior visits), a walk from the root through the nodes with at least ``min_visits`` real visits collects
the expanded ones not yet flagged NET_PRIORED (the root whatever its visits), replays each one's moves
from the root and writes its planes; ``add_tree_prior`` then gives each child ``weight`` * p / max p
won virtual visits (p: the softmax of the logits over the node's children, so p / max p = exp(z - max z))
and flags the node, so that a node is evaluated once, and its flag travels with the subtree kept
across moves.
"""
import json
import pathlib

import numba as nb
import numpy as np

from engines.errors import NetworkError
from engines.games.go import (A_HEAD, A_NEXT, BLACK, EMPTY_CELL, HEADER, KO, LAST, LAST2, PSIZE, SIZE, STRIDE,
                              TO_MOVE, WHITE, apply)

PLANE_NAMES = ("own", "opponent", "empty", "own_liberties_1", "own_liberties_2", "own_liberties_3+",
               "opponent_liberties_1", "opponent_liberties_2", "opponent_liberties_3+", "ko", "last_move",
               "second_last_move", "ones", "white_to_move")
NUM_PLANES = len(PLANE_NAMES)


@nb.njit(cache=True)
def write_planes(s, out):
    """The NUM_PLANES planes of state s into out (float32, NUM_PLANES * n*n, see the module docstring)."""
    n = s[SIZE]
    W = s[STRIDE]
    P = s[PSIZE]
    nn = n * n
    to_move = s[TO_MOVE]
    own = BLACK if to_move == 0 else WHITE
    out[:NUM_PLANES * nn] = 0.0
    libs = np.full(P, -1, dtype=np.int64)   # by chain head
    mark = np.full(P, -1, dtype=np.int64)   # the head that last counted this empty point
    for a in range(nn):
        r = a // n
        p = (r + 1) * W + a - r * n + 1
        v = s[HEADER + p]
        out[12 * nn + a] = 1.0
        out[13 * nn + a] = np.float32(to_move)
        if v == EMPTY_CELL:
            out[2 * nn + a] = 1.0
            continue
        h = s[HEADER + A_HEAD * P + p]
        if libs[h] < 0:
            count = 0
            q = h
            while True:
                for r2 in (q - 1, q + 1, q - W, q + W):
                    if s[HEADER + r2] == EMPTY_CELL and mark[r2] != h:
                        mark[r2] = h
                        count += 1
                q = s[HEADER + A_NEXT * P + q]
                if q == h:
                    break
            libs[h] = count
        base = 0 if v == own else 1
        out[base * nn + a] = 1.0
        lib = libs[h]
        k = 3 + 3 * base + (0 if lib <= 1 else (1 if lib == 2 else 2))
        out[k * nn + a] = 1.0
    for k, field in ((9, KO), (10, LAST), (11, LAST2)):
        p = s[field]
        if p >= 0:
            out[k * nn + (p // W - 1) * n + p % W - 1] = 1.0


# the RAVE tree's columns (engines/search/rave.py; tests/test_go_policy.py checks they agree)
T_VISITS, T_WINS, T_AVISITS, T_AWINS, T_PVISITS, T_PWINS = range(6)
T_MOVE, T_FIRST, T_COUNT, T_FLAGS = range(4)
NET_PRIORED = 2  # tree_i flag: the node's children have the network's prior (rave's EXPERIENCED is 1)


@nb.njit(cache=True)
def tree_positions(tree_f, tree_i, root, root_state, min_visits, rows, planes, stack, scratch):
    """Collects up to len(rows) nodes for the network (module docstring): their rows into rows, their
    planes into planes[k] (NUM_PLANES * n*n); returns how many.  stack: int64[2 * room] (a node not
    pushed for want of room waits for a later walk), scratch: a state's length.  Only nodes with min_visits real visits are entered, so
    the walk costs the nodes the network may be asked about, not the tree."""
    count = 0
    depth_of = stack[stack.shape[0] // 2:]
    path = np.empty(4096, dtype=np.int64)  # the moves from the root to the node popped, by depth
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
        if (tree_i[node, T_FLAGS] & NET_PRIORED) == 0:
            scratch[:] = root_state
            for d in range(1, depth + 1):
                apply(scratch, path[d])
            write_planes(scratch, planes[count])
            rows[count] = node
            count += 1
        first = tree_i[node, T_FIRST]
        if depth + 1 >= path.shape[0] or top + n_children > depth_of.shape[0]:
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
    the logits (one row a node, n*n+1 wide) and flags the nodes NET_PRIORED."""
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


def planes_of(s) -> np.ndarray:
    """The planes of a state as (NUM_PLANES, n, n) float32."""
    n = int(s[SIZE])
    out = np.empty(NUM_PLANES * n * n, dtype=np.float32)
    write_planes(s, out)
    return out.reshape(NUM_PLANES, n, n)


class OtherBoardSize(NetworkError):
    """A Go policy network made for another board size (it may serve that size)."""


def _dims(value_info):
    return [d.dim_value if d.HasField("dim_value") else None for d in value_info.type.tensor_type.shape.dim]


class PolicyNetwork:
    """A Go policy network file for an n x n board, run by onnxruntime on one thread."""

    def __init__(self, path, size: int, threads: int = 1):
        self.path = pathlib.Path(path)
        self.size = size
        if not self.path.is_file():
            raise NetworkError(f"no network file {self.path}")
        sidecar = self.path.with_suffix(".json")
        try:
            self.meta = json.loads(sidecar.read_text()) if sidecar.is_file() else {}
        except (OSError, ValueError) as err:
            raise NetworkError(f"{self.path}: cannot read its sidecar {sidecar.name} ({err})") from None
        try:
            import onnxruntime as ort
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except ImportError as err:
            raise NetworkError(f"{self.path}: onnxruntime is not installed ({err})") from None
        except Exception as err:  # onnxruntime's own errors for a damaged or foreign file
            raise NetworkError(f"{self.path} is not a readable ONNX network ({type(err).__name__}: {err})") from None
        inputs, outputs = self.session.get_inputs(), self.session.get_outputs()
        nn = size * size
        if len(inputs) != 1 or len(inputs[0].shape) != 4:
            raise NetworkError(f"{self.path}: a Go policy network takes one input [batch, planes, n, n]; "
                               f"this one takes {[(i.name, i.shape) for i in inputs]}")
        planes, rows, cols = inputs[0].shape[1:]
        if planes != NUM_PLANES:
            raise NetworkError(f"{self.path}: it reads {planes} input planes, plies builds {NUM_PLANES}")
        if rows != size or cols != size:
            raise OtherBoardSize(f"{self.path}: it was made for a {rows}x{cols} board, not {size}x{size}")
        width = outputs[0].shape[-1] if outputs and outputs[0].shape else None
        if width != nn + 1:
            raise NetworkError(f"{self.path}: its output has {width} values a position; {size}x{size} needs "
                               f"{nn + 1} (the points and the pass)")
        names = self.meta.get("planes")
        if names is not None and tuple(names) != PLANE_NAMES:
            raise NetworkError(f"{self.path}: its sidecar's planes {names} are not plies' {list(PLANE_NAMES)}")
        self.input_name = inputs[0].name
        self.output_name = outputs[0].name

    def logits(self, planes: np.ndarray) -> np.ndarray:
        """Logits [batch, n*n+1] of planes [batch, NUM_PLANES, n, n]."""
        return self.session.run([self.output_name], {self.input_name: np.asarray(planes, np.float32)})[0]

    def probabilities(self, s, legal_actions) -> np.ndarray:
        """The softmax over the legal actions (others 0) of state s, n*n+1 values."""
        z = self.logits(planes_of(s)[None])[0].astype(np.float64)
        legal = np.zeros(len(z), dtype=bool)
        legal[np.asarray(legal_actions, dtype=np.int64)] = True
        z = np.where(legal, z, -np.inf)
        e = np.exp(z - z[legal].max())
        return e / e.sum()
