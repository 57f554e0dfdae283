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

The prior in the tree: engines/knowledge/tree_prior.py (every game's walk of the RAVE tree, the
prior's arithmetic and the hook, ``TreePolicy``); ``path_planes`` replays each collected node's moves
from the root and writes its planes, ``TreePolicy(network, ...)`` is the hook of a Go network.
"""
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


# the walk, the prior's arithmetic and the hook are every game's (engines/knowledge/tree_prior.py)
from engines.knowledge import tree_prior  # noqa: E402
from engines.knowledge.tree_prior import (NET_PRIORED, T_AVISITS, T_AWINS, T_COUNT, T_FIRST, T_FLAGS,  # noqa: E402,F401
                                          T_MOVE, T_PVISITS, T_PWINS, T_VISITS, T_WINS, add_tree_prior, checked_io,
                                          open_network)


@nb.njit(cache=True)
def path_planes(root_state, paths, depths, count, planes, frames, scratch):
    """The planes of the positions paths[k, :depths[k]] from root_state into planes[k] (tree_prior's
    TreePolicy kernel; frames unused: Go's planes are not turned)."""
    for k in range(count):
        scratch[:] = root_state
        for d in range(depths[k]):
            apply(scratch, paths[k, d])
        write_planes(scratch, planes[k])
        frames[k] = 0


def planes_of(s) -> np.ndarray:
    """The planes of a state as (NUM_PLANES, n, n) float32."""
    n = int(s[SIZE])
    out = np.empty(NUM_PLANES * n * n, dtype=np.float32)
    write_planes(s, out)
    return out.reshape(NUM_PLANES, n, n)


class TreePolicy(tree_prior.TreePolicy):
    """A Go policy network's prior at every node of a RAVE tree (a searcher's batch_hook; see
    engines/knowledge/tree_prior.py), over Go's planes (path_planes)."""

    def __init__(self, network, weight: float, min_visits: int, prior_amaf: bool = True, batch: int = 32):
        n = network.size
        self.network = network
        super().__init__(lambda planes, _frames: network.logits(planes.reshape(len(planes), NUM_PLANES, n, n)),
                         path_planes, NUM_PLANES * n * n, weight, min_visits, prior_amaf, batch)


class OtherBoardSize(NetworkError):
    """A Go policy network made for another board size (it may serve that size)."""


def _dims(value_info):
    return [d.dim_value if d.HasField("dim_value") else None for d in value_info.type.tensor_type.shape.dim]


class PolicyNetwork:
    """A Go policy network file for an n x n board, run by onnxruntime on one thread."""

    def __init__(self, path, size: int, threads: int = 1):
        self.path = pathlib.Path(path)
        self.size = size
        self.meta, self.session = open_network(self.path, threads)
        self.input_name, self.output_name = checked_io(self.path, self.session, self.meta, "Go policy network",
                                                       PLANE_NAMES, size, size * size + 1,
                                                       " (the points and the pass)", OtherBoardSize)

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
