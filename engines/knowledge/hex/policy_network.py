"""A Hex policy CNN at play time (issue 33 item 7): the input planes of a position built by a compiled
kernel from the game state, the network file (ONNX, trained by engines/learn/hex/policy.py) run through
onnxruntime, and its prior at every node of the RAVE tree (engines/knowledge/tree_prior.py).

The mover's frame.  The planes always show the player to move as the one joining the top and bottom
rows: for player 0 (who joins the rows) the board as it is, for player 1 (who joins the columns) the
board transposed, cell (r, c) at frame cell (c, r).  Transposing keeps Hex's neighbours ((r-1, c+1) and
(r+1, c-1) map onto each other) and swaps the two players' edges, so the network learns one side's play.
Its output is in the frame too: ``board_logits`` turns it back.

Planes (``PLANE_NAMES``, in this order, each n x n row-major in the frame, float32): own stones,
opponent stones, empty cells, the mover's edge rows (ones on frame rows 0 and n-1), the opponent's
edge columns (ones on frame columns 0 and n-1).  ``write_planes(s, out)`` fills out (NUM_PLANES * n*n)
from a state of engines/games/hex.py (cells at s[HEADER:], 0 empty, 1 player 0, 2 player 1) and
returns the mover.

Network file.  Input "planes" float32 [batch, NUM_PLANES, n, n], output "logits" [batch, n*n] (one a
frame cell, no softmax).  ``HexPolicyNetwork(path, size)`` checks the file against the board and the
planes (its sidecar's plane names) and raises NetworkError naming the file and the mismatch
(OtherBoardSize, a NetworkError, when only the board size differs: the player plays that size without it).
"""
import pathlib

import numba as nb
import numpy as np

from engines.errors import NetworkError
from engines.games.hex import HEADER, SIZE, TO_MOVE, apply
from engines.knowledge import tree_prior
from engines.knowledge.tree_prior import checked_io, open_network

PLANE_NAMES = ("own", "opponent", "empty", "own_edges", "opponent_edges")
NUM_PLANES = len(PLANE_NAMES)
KIND = "hex policy"


@nb.njit(cache=True)
def write_planes(s, out):
    """The NUM_PLANES planes of state s in the mover's frame into out (module docstring); the mover."""
    n = s[SIZE]
    nn = n * n
    mover = s[TO_MOVE]
    out[:NUM_PLANES * nn] = 0.0
    for r in range(n):
        for c in range(n):
            v = s[HEADER + r * n + c]
            q = c * n + r if mover == 1 else r * n + c   # the frame cell
            if v == 0:
                out[2 * nn + q] = 1.0
            elif v == mover + 1:
                out[q] = 1.0
            else:
                out[nn + q] = 1.0
            fr = q // n
            fc = q - fr * n
            if fr == 0 or fr == n - 1:
                out[3 * nn + q] = 1.0
            if fc == 0 or fc == n - 1:
                out[4 * nn + q] = 1.0
    return mover


@nb.njit(cache=True)
def path_planes(root_state, paths, depths, count, planes, frames, scratch):
    """The planes of the positions paths[k, :depths[k]] from root_state into planes[k], their movers
    into frames[k] (tree_prior's TreePolicy kernel)."""
    for k in range(count):
        scratch[:] = root_state
        for d in range(depths[k]):
            apply(scratch, paths[k, d])
        frames[k] = write_planes(scratch, planes[k])


def planes_of(s) -> tuple[np.ndarray, int]:
    """The planes of a state as (NUM_PLANES, n, n) float32, and the mover."""
    n = int(s[SIZE])
    out = np.empty(NUM_PLANES * n * n, dtype=np.float32)
    mover = write_planes(s, out)
    return out.reshape(NUM_PLANES, n, n), int(mover)


def board_logits(frame_logits: np.ndarray, movers: np.ndarray, n: int) -> np.ndarray:
    """Logits [batch, n*n] by action (r*n + c) from the network's logits in each row's mover's frame."""
    z = np.asarray(frame_logits).reshape(-1, n, n)
    turned = np.asarray(movers).reshape(-1) == 1
    out = z.copy()
    out[turned] = z[turned].transpose(0, 2, 1)
    return out.reshape(-1, n * n)


class OtherBoardSize(NetworkError):
    """A Hex policy CNN made for another board size (it may serve that size)."""


class HexPolicyNetwork:
    """A Hex policy CNN file for an n x n board, run by onnxruntime on one thread."""

    def __init__(self, path, size: int, threads: int = 1):
        self.path = pathlib.Path(path)
        self.size = size
        self.meta, self.session = open_network(self.path, threads)
        self.input_name, self.output_name = checked_io(self.path, self.session, self.meta, "Hex policy CNN",
                                                       PLANE_NAMES, size, size * size, "", OtherBoardSize)

    def frame_logits(self, planes: np.ndarray) -> np.ndarray:
        """The network's logits [batch, n*n] (in the mover's frame) of planes [batch, NUM_PLANES, n, n]."""
        return self.session.run([self.output_name], {self.input_name: np.asarray(planes, np.float32)})[0]

    def logits(self, planes: np.ndarray, movers) -> np.ndarray:
        """Logits [batch, n*n] by action of flat planes [batch, NUM_PLANES*n*n] whose movers are given."""
        n = self.size
        return board_logits(self.frame_logits(np.asarray(planes).reshape(-1, NUM_PLANES, n, n)), movers, n)

    def probabilities(self, s) -> np.ndarray:
        """The softmax over the empty cells (others 0) of state s, by action."""
        planes, mover = planes_of(s)
        z = self.logits(planes[None], [mover])[0].astype(np.float64)
        empty = np.asarray(s[HEADER:HEADER + self.size * self.size]) == 0
        z = np.where(empty, z, -np.inf)
        e = np.exp(z - z[empty].max())
        return e / e.sum()


class TreePolicy(tree_prior.TreePolicy):
    """A Hex policy CNN's prior at every node of a RAVE tree (a searcher's batch_hook; see
    engines/knowledge/tree_prior.py), over the planes in the mover's frame (path_planes)."""

    def __init__(self, network: HexPolicyNetwork, weight: float, min_visits: int, prior_amaf: bool = True,
                 batch: int = 32):
        self.network = network
        super().__init__(network.logits, path_planes, NUM_PLANES * network.size * network.size, weight,
                         min_visits, prior_amaf, batch, max_depth=network.size * network.size)


def shipped_path(size: int) -> pathlib.Path:
    """weights/hex/policy<size>.onnx (it may not exist)."""
    return pathlib.Path(__file__).resolve().parents[3] / "weights" / "hex" / f"policy{size}.onnx"


def network_for_size(choice: str, size: int) -> HexPolicyNetwork | None:
    """The policy CNN a player's setting names for size: 'none' none, 'shipped' the shipped file (none
    when the size has none), else the file (NetworkError when it cannot play size x size)."""
    if choice == "none":
        return None
    path = shipped_path(size) if choice == "shipped" else pathlib.Path(choice)
    if choice == "shipped" and not path.is_file():
        return None
    return HexPolicyNetwork(path, size)


def warm_up(game):
    """Compile the planes kernels and the tree prior's on a position of game (registered.warm_up)."""
    state = game.play(game.initial_state(), 0)
    planes_of(state)
    tree_prior.warm_up(path_planes, state, NUM_PLANES * game.num_actions, game.num_actions)
