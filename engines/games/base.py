"""The generic game interface every rule set implements (Python side of engines/kernels.py).

States are ``np.int64`` arrays (layout per game, see each module's header).  States are values:
``play`` returns a new array and never mutates its input; the compiled kernels mutate in place and
are only handed copies.
"""
from abc import ABC, abstractmethod

import numpy as np

from engines.kernels import GameKernels


class Game(ABC):
    """One game's rules for Python callers: adapters, CLI, tests, training."""

    name: str = ""
    num_actions: int = 0
    kernels: GameKernels
    notations: tuple = ("default",)  # move-text notations; the first is the default

    # ---- to be provided by each game -------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> np.ndarray:
        """The start position."""

    @abstractmethod
    def move_to_text(self, move: int, notation: str | None = None) -> str:
        """The text of an action in the given harness notation."""

    @abstractmethod
    def text_to_move(self, text: str, notation: str | None = None) -> int:
        """Parse move text; raises ValueError naming what was wrong.  Does not check legality."""

    @abstractmethod
    def render(self, state: np.ndarray) -> str:
        """A human-readable drawing of the position."""

    @property
    @abstractmethod
    def observation_shape(self) -> tuple:
        """Shape of ``observation(state)``."""

    def explain_illegal(self, state: np.ndarray, move: int) -> str:
        """Why a move is illegal (games override with specifics such as ko or suicide)."""
        return "not a legal move in this position"

    # ---- generic, derived from the kernels -------------------------------------------------
    def legal_moves(self, state: np.ndarray) -> list[int]:
        buf = np.empty(self.num_actions, dtype=np.int32)
        n = self.kernels.legal(state, buf)
        return buf[:n].tolist()

    def is_legal(self, state: np.ndarray, move: int) -> bool:
        return move in self.legal_moves(state)

    def play(self, state: np.ndarray, move: int) -> np.ndarray:
        """The state after ``move``; raises ValueError for a move that is not legal here."""
        move = self._check_action(move)
        if self.is_terminal(state):
            raise ValueError("the game is over: no move can be played")
        if not self.is_legal(state, move):
            raise ValueError(f"illegal move {self.move_to_text(move)}: {self.explain_illegal(state, move)}")
        new = state.copy()
        self.kernels.apply(new, move)
        return new

    def is_terminal(self, state: np.ndarray) -> bool:
        return bool(self.kernels.terminal(state))

    def to_move(self, state: np.ndarray) -> int:
        return int(self.kernels.to_move(state))

    def returns(self, state: np.ndarray) -> tuple[float, float]:
        """Result of a final state for (player 0, player 1): 1 win, 0.5 draw, 0 loss."""
        if not self.is_terminal(state):
            raise ValueError("returns() needs a final state")
        r = float(self.kernels.result(state))
        return r, 1.0 - r

    def winner(self, state: np.ndarray) -> int | None:
        """0 or 1 for a final state, None for a draw."""
        r0, _ = self.returns(state)
        return None if r0 == 0.5 else (0 if r0 == 1.0 else 1)

    def observation(self, state: np.ndarray) -> np.ndarray:
        out = np.zeros(int(np.prod(self.observation_shape)), dtype=np.float32)
        self.kernels.observe(state, out)
        return out.reshape(self.observation_shape)

    def hash(self, state: np.ndarray) -> int:
        return int(self.kernels.hash(state))

    def random_playout(self, state: np.ndarray, rng: np.ndarray) -> float:
        """Value for player 0 of a uniformly random continuation (the input is not mutated)."""
        return float(self.kernels.playout(state.copy(), rng))

    def _check_action(self, move) -> int:
        if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
            raise ValueError(f"a move is an action number, got {move!r}")
        move = int(move)
        if not 0 <= move < self.num_actions:
            raise ValueError(f"action {move} is out of range 0..{self.num_actions - 1}")
        return move

    def _notation(self, notation: str | None) -> str:
        if notation is None:
            return self.notations[0]
        if notation not in self.notations:
            raise ValueError(f"unknown notation {notation!r} for {self.name}; use one of {', '.join(self.notations)}")
        return notation


def check_size(name: str, size, low: int, high: int) -> int:
    """Validate a board size; ValueError names the game and the allowed range."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not low <= size <= high:
        raise ValueError(f"{name} board size must be an integer in {low}..{high}, got {size!r}")
    return int(size)
