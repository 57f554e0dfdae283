"""The record of a Hex game that a session keeps move by move, with or without a Hex player.

How its data is represented: ``size``; ``cells``, the board as a list of rows of 0 (empty), 1 (a stone
of colour 0, who joins the rows) or 2 (colour 1, the columns), pure Python
(engines/games/reference/hex.py), so the record is kept while the kernels compile; ``moves``, the
game's moves in order as (colour 0/1, point (row, col) or SWAP).  ``player`` (a HexPlayer,
engines/players/hex.py, or None) is told of every move, so that its search tree follows the game;
``replay_into`` brings a new player up to the game so far.  This module imports no compiled kernel.
"""
from engines.games.reference import hex as rules
from engines.players.hex import SWAP


class HexRecord:
    """A Hex game's record (see the module's comment), mirrored into ``player`` when there is one."""

    def __init__(self, size: int, player=None):
        self.player = player
        self.start(size)

    def start(self, size: int) -> None:
        """A new game on size x size; the player forgets the last one."""
        self.size, self.cells, self.moves = size, rules.empty_board(size), []
        if self.player is not None:
            self.player.new_game()

    def to_move(self) -> int:
        if not self.moves:
            return 0
        colour, move = self.moves[-1]
        return 1 if move == SWAP else 1 - colour

    def winner(self) -> int | None:
        return rules.winner(self.cells)

    def empty_cells(self) -> list[tuple[int, int]]:
        return rules.empty_cells(self.cells)

    def occupied(self, point) -> bool:
        return self.cells[point[0]][point[1]] != 0

    def swap_legal(self, colour: int) -> bool:
        """The swap rule (MoHex's), when the session allows swap: white, right after black's first stone."""
        return colour == 1 and len(self.moves) == 1 and self.moves[0][0] == 0

    def play(self, colour: int, move) -> None:
        """colour's move: an empty point (the caller checked it) or SWAP (the board stays)."""
        if move == SWAP:
            self.moves.append((colour, SWAP))
        else:
            self.cells[move[0]][move[1]] = colour + 1
            self.moves.append((colour, tuple(move)))
        if self.player is not None:
            self.replay_into(self.player, self.moves[-1:])

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.moves:
            return False
        _colour, move = self.moves.pop()
        if move != SWAP:
            self.cells[move[0]][move[1]] = 0
        if self.player is not None:
            self.player.undo()
        return True

    def replay_into(self, player, moves=None) -> None:
        """Tell player of moves (default: the game so far, into a player at the empty board)."""
        for colour, move in self.moves if moves is None else moves:
            player.swap() if move == SWAP else player.place(colour, move)
