"""The Hex state manager of the seed: every piece of Hex logic the learner uses, over the compiled
rules of engines/games/hex.py (states are int64 arrays; play returns a new one).

Network encoding: the game's observation (engines/games/planes.py), 3*n*n floats: player-0 stones,
player-1 stones, all ones when player 1 is to move -- the very input the MCTS network rollouts build.
Symmetry: turning the board by 180 degrees, (r, c) -> (n-1-r, n-1-c), keeps each player's edges and
the neighbourhood, so action a -> n*n-1-a and the planes are reversed cell by cell.
"""
import numpy as np

from engines.games import make_game


class HexStateManager:
    """Start states, child states, final states and winners, legal moves, the network's input and the
    diamond drawing, for n x n Hex."""

    def __init__(self, size: int):
        self.game = make_game("hex", size=size)
        self.size = self.game.size
        self.num_actions = self.game.num_actions

    def initial_state(self) -> np.ndarray:
        return self.game.initial_state()

    def legal_moves(self, state) -> list[int]:
        return self.game.legal_moves(state)

    def legal_mask(self, state) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.game.legal_moves(state)] = True
        return mask

    def child(self, state, move: int) -> np.ndarray:
        return self.game.play(state, move)

    def is_final(self, state) -> bool:
        return self.game.is_terminal(state)

    def winner(self, state) -> int | None:
        """0 or 1 (player 1 / player 2 of the seed) once final, else None."""
        return self.game.winner(state)

    def to_move(self, state) -> int:
        return self.game.to_move(state)

    def encode(self, state) -> np.ndarray:
        """ANET's input: the observation, flat float32 (3*n*n)."""
        return self.game.observation(state).reshape(-1)

    def rotate_encoding(self, x: np.ndarray) -> np.ndarray:
        """The encoding of the board turned by 180 degrees (the player to move is unchanged)."""
        nn = self.num_actions
        return x.reshape(3, nn)[:, ::-1].reshape(-1).copy()

    def rotate_distribution(self, d: np.ndarray) -> np.ndarray:
        return d[::-1].copy()

    def render(self, state) -> str:
        return self.game.render(state)

    def move_text(self, move: int) -> str:
        r, c = self.game.coords(move)
        return f"({r},{c})"
