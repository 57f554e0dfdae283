"""The record of a Go game as a Go player keeps it: what was set up and played, and the positions after each.

How its data is represented: ``size`` and ``komi``; ``setup`` = (black points, white points) of the
setup stones the game starts from (handicap stones are black setup stones; ``handicap`` counts
them); ``moves`` = [(colour 0 Black / 1 White, point (row, col) with row 0 at the top, or None for a
pass)] after the setup; ``positions`` = the position at the start, then after each move (the last is
the current one; undo pops one of each).  What a position is belongs to ``boards``: the Go engine's
state (``EngineBoards``, the Go player's game, its tree following the moves) or the pure-Python
reference position (engines/games/reference/go.py: ``RecordBoards``, while the kernels compile).

``fields()`` is the record as plain values under the names of an SGF game record (size, komi,
handicap, black_setup, white_setup, moves, to_move); ``replay(record)`` reads any object with those
attributes.  This module imports neither numpy nor the compiled engine.
"""
from types import SimpleNamespace


class SetupError(ValueError):
    """Setup stones the rules cannot start from (a chain without liberty, ...)."""


class GoRecord:
    """A game's record over ``boards`` (see the module's comment)."""

    def __init__(self, boards, size: int, komi: float):
        self.boards, self.komi = boards, komi
        self.start(size)

    def start(self, size: int) -> None:
        """A new game on size x size."""
        self.size = size
        self.positions = [self.boards.initial(size, self.komi)]
        self.moves = []
        self.setup = ([], [])
        self.handicap = 0

    @property
    def position(self):
        return self.positions[-1]

    def board(self):
        """(cells, captures) of the current position: the (n, n) grid (0 empty, 1 Black, 2 White) and
        the stones each colour has captured."""
        return self.boards.board(self.position)

    def set_komi(self, komi: float) -> None:
        self.komi = komi
        self.positions = self.boards.with_komi(self.positions, komi)

    def play(self, colour: int, point) -> None:
        """colour's move (a point or None); IllegalMove when the rules forbid it (nothing changes)."""
        self.positions.append(self.boards.play(self.position, colour, point))
        self.moves.append((colour, point))

    def undo(self) -> bool:
        """Take back the last move; False when there is none (the setup stays)."""
        if not self.moves:
            return False
        self.moves.pop()
        self.positions.pop()
        self.boards.forget()
        return True

    def is_empty(self) -> bool:
        """Nothing set up or played and no stone on the board (where handicap stones may go)."""
        return not (self.moves or self.setup[0] or self.setup[1] or self.boards.stones(self.position))

    def set_stones(self, black, white, to_move: int) -> None:
        """The game starts from these setup stones (SetupError when the rules cannot)."""
        self.positions = [self.boards.setup(self.size, self.komi, black, white, to_move)]
        self.moves = []
        self.setup = (list(black), list(white))

    def place_handicap(self, points) -> None:
        self.handicap = len(points)
        self.set_stones(points, [], 1)

    def fields(self) -> dict:
        """The record as plain values (an SGF game record's names; to_move only where a handicap
        game's first move by White is not told by the moves)."""
        black, white = self.setup
        to_move = 1 if black and not white and not self.moves and self.handicap else None
        return dict(size=self.size, komi=self.komi, handicap=self.handicap, black_setup=list(black),
                    white_setup=list(white), moves=list(self.moves), to_move=to_move)

    def replay(self, record) -> None:
        """Size, komi, setup stones, then the moves of record (IllegalMove, SetupError on the way)."""
        if record.komi != self.komi:
            self.set_komi(record.komi)
        self.start(record.size)
        self.handicap = record.handicap
        if record.black_setup or record.white_setup:
            first = record.moves[0][0] if record.moves else (1 if record.handicap else 0)
            self.set_stones(record.black_setup, record.white_setup,
                            record.to_move if record.to_move is not None else first)
        for colour, point in record.moves:
            self.play(colour, point)

    def load(self, record) -> None:
        """replay(record), or, when it fails, the game exactly as it was (then the error)."""
        previous = SimpleNamespace(**self.fields())
        try:
            self.replay(record)
        except ValueError:
            self.replay(previous)
            self.boards.forget()  # the failed load may have reset this size's tree
            raise


def fallback_move(record: GoRecord, colour: int, deadline, rng):
    """While the kernels compile (engines/players/coldstart.py): colour's move in a record kept over
    the reference positions (engines/games/reference/go.py), a shallow search within deadline."""
    from engines.games.reference import go as go_rules
    from engines.players.coldstart import fallback_search
    rules = go_rules.SearchRules(record.komi)
    return fallback_search(rules, rules.node(record.position, colour + 1), deadline, rng)
