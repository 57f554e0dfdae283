"""The generic game interface every rule set implements (Python side of engines/kernels.py).

States are ``np.int64`` arrays (layout per game, see each module's header).  States are values:
``play`` returns a new array and never mutates its input; the compiled kernels mutate in place and
are only handed copies.

The board view, the same for every game, is what adapters translate to and from:
  * a point is ``(row, col)``, row 0 the TOP row of the board as drawn, col 0 the left column;
    ``action(row, col)`` and ``coords(action)`` convert; ``pass_action`` is the pass (None when the
    game has no pass); ``point_of(action)`` and ``action_at(point)`` do the same with None for the
    pass, as the protocols write points;
  * ``cells(state)`` is the board as an (n, n) ``np.int8`` grid indexed [row, col]: 0 empty,
    1 a piece of player 0 (the side that moves first), 2 a piece of player 1;
  * ``state_from_cells(cells, to_move, previous=..., moves_played=...)`` builds a state from such a
    grid (``previous``, the grid before the opponent's last move, and ``moves_played`` are for the
    rules that need history, such as Go's ko);
  * ``score(state)`` is player 0's margin over player 1 as a float (Go: points with komi; Othello:
    discs; Hex: +1 or -1 for the winner, 0 while undecided).
Wire formats live in ``protocols/``, written against this view; the engine names no harness.
Illegal moves raise ``engines.errors.IllegalMove`` with a ``Reason``; final positions ``GameOver``.
"""
from abc import ABC, abstractmethod

import numpy as np

from engines.errors import GameOver, IllegalMove, Reason
from engines.kernels import GameKernels
from engines.validate import check_int, check_player

CELL_DTYPE = np.int8
EMPTY, PLAYER0, PLAYER1 = 0, 1, 2  # cell values of the board view


class Game(ABC):
    """One game's rules for Python callers: adapters, CLI, tests, training."""

    name: str = ""
    size: int = 0
    num_actions: int = 0
    pass_action: int | None = None
    rules_option: str | None = None  # the constructor keyword that picks a rule variant, if any
    kernels: GameKernels

    # ---- to be provided by each game -------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> np.ndarray:
        """The start position."""

    @abstractmethod
    def cells(self, state: np.ndarray) -> np.ndarray:
        """The board view: (n, n) int8, row 0 at the top, 0 empty / 1 player 0 / 2 player 1."""

    @abstractmethod
    def state_from_cells(self, cells, to_move: int, *, previous=None, moves_played: int | None = None) -> np.ndarray:
        """A state from a board-view grid and the player to move; ValueError for a grid the rules
        cannot hold.  Games without history reject ``previous`` and ``moves_played``."""

    @abstractmethod
    def score(self, state: np.ndarray) -> float:
        """Player 0's margin over player 1 under the game's scoring."""

    @abstractmethod
    def render(self, state: np.ndarray) -> str:
        """A human-readable drawing of the position."""

    @property
    @abstractmethod
    def observation_shape(self) -> tuple:
        """Shape of ``observation(state)``."""

    def illegal_reason(self, state: np.ndarray, move: int) -> Reason | None:
        """Why move cannot be played here, or None when it can (games refine the reason)."""
        move = self._check_action(move)
        if self.is_terminal(state):
            return Reason.GAME_OVER
        if move in self.legal_moves(state):
            return None
        return Reason.OCCUPIED if self._occupied(state, move) else Reason.PASS_NOT_ALLOWED

    # ---- the board view: points and actions -----------------------------------------------
    def action(self, row: int, col: int) -> int:
        """The action that places on (row, col); IllegalMove(OUT_OF_RANGE) off the board."""
        n = self.size
        row, col = check_int("row", row), check_int("col", col)
        if not (0 <= row < n and 0 <= col < n):
            raise IllegalMove(Reason.OUT_OF_RANGE, detail=f"({row}, {col}) is off the {n}x{n} board")
        return row * n + col

    def coords(self, action: int) -> tuple[int, int]:
        """(row, col) of a placing action; ValueError for the pass."""
        action = self._check_action(action)
        if action >= self.size * self.size:
            raise ValueError(f"action {action} is not a point on the board (it is the pass action)")
        return divmod(action, self.size)

    def point_of(self, action: int) -> tuple[int, int] | None:
        """(row, col) of an action, None for the pass: what the protocols speak."""
        return None if self._check_action(action) >= self.size * self.size else self.coords(action)

    def action_at(self, point: tuple[int, int] | None) -> int:
        """The action of a point (row, col), or the pass for None (ValueError where there is none)."""
        if point is None:
            if self.pass_action is None:
                raise IllegalMove(Reason.PASS_NOT_ALLOWED, detail=f"{self.name} has no pass here")
            return self.pass_action
        row, col = point
        return self.action(row, col)

    def move_label(self, action: int) -> str:
        """A short human label for logs and drawings (not a wire format): 'pass' or 'row,col'."""
        if self._check_action(action) >= self.size * self.size:
            return "pass"
        row, col = self.coords(action)
        return f"{row},{col}"

    # ---- generic, derived from the kernels -------------------------------------------------
    def legal_moves(self, state: np.ndarray) -> list[int]:
        buf = np.empty(self.num_actions, dtype=np.int32)
        n = self.kernels.legal(state, buf)
        return buf[:n].tolist()

    def is_legal(self, state: np.ndarray, move: int) -> bool:
        return self.illegal_reason(state, move) is None

    def play(self, state: np.ndarray, move: int) -> np.ndarray:
        """The state after ``move``; IllegalMove (GameOver on a final state) when it cannot be played."""
        reason = self.illegal_reason(state, move)
        if reason is Reason.GAME_OVER:
            raise GameOver(int(move))
        if reason is not None:
            raise IllegalMove(reason, int(move), self.move_label(move))
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

    def warm_up(self):
        """Run every compiled helper the Python side calls (the warm-up caches them; games with more
        such helpers extend this)."""
        state = self.initial_state()
        move = self.legal_moves(state)[0]
        after = self.play(state, move)
        self.illegal_reason(after, move)
        self.state_from_cells(self.cells(after), self.to_move(after))
        self.score(after), self.render(after), self.observation(after), self.hash(after)

    # ---- helpers for the games ---------------------------------------------------------------
    def _check_action(self, move) -> int:
        """move as an int action; ValueError for a non-integer, IllegalMove(OUT_OF_RANGE) outside
        0..num_actions-1 (an action that is never legal in a variant, such as a pass, is in range)."""
        move = check_int("a move (action number)", move)
        if not 0 <= move < self.num_actions:
            raise IllegalMove(Reason.OUT_OF_RANGE, move, f"actions are 0..{self.num_actions - 1}")
        return move

    def _occupied(self, state: np.ndarray, move: int) -> bool:
        if move >= self.size * self.size:
            return False
        row, col = self.coords(move)
        return self.cells(state)[row, col] != EMPTY

    def _check_grid(self, cells) -> np.ndarray:
        """A board-view grid (n rows of n, or n*n flat) as (n, n) int8; ValueError unless every cell
        is an integer 0, 1 or 2 (bools, floats and text are refused, not converted)."""
        n = self.size
        ok = False
        if not isinstance(cells, (str, bytes)):
            try:
                grid = np.asarray(cells, dtype=object)
                ok = grid.shape in ((n, n), (n * n,)) and all(
                    isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v in (0, 1, 2)
                    for v in grid.reshape(-1))
            except (TypeError, ValueError):
                ok = False
        if not ok:
            raise ValueError(f"a {n}x{n} {self.name} board needs {n} rows of {n} cells, each 0, 1 or 2")
        return grid.reshape(n, n).astype(CELL_DTYPE)

    @staticmethod
    def _check_to_move(to_move) -> int:
        return check_player(to_move, "player to move")

    def _no_history(self, previous, moves_played):
        if previous is not None or moves_played is not None:
            raise ValueError(f"{self.name} positions are built from the board alone (no previous board or move count)")


def check_size(name: str, size, low: int, high: int) -> int:
    """Validate a board size; ValueError names the game and the allowed range."""
    return check_int(f"{name} board size", size, low, high)
