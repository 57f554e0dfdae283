"""The Little-Go host's rules in pure Python (specs/littlego.md): quick to import, no engine, no numba.

The player checks the host's position file with them, and its fallback move searches them
(``SearchRules``) before the engine loads (adapters/littlego.py, engines/players/littlego.py); the
local host and its opponents (standins/) referee and play by them.  The engine's own rules are
Go(rules="littlego"); the tests hold the two to the same games.

A board is a list of SIZE lists of SIZE ints (0 empty, 1 black, 2 white), row 0 at the top, as
the host's file has it; a colour is 1 (black) or 2 (white), as on the wire.  A placement is judged as the
host judges it (``place``): off the board, then occupied, then: put the stone; if its group has a
liberty the move is valid; else remove the opponent groups without liberty; still none is suicide;
only such a move is checked for ko: a violation when the last move captured stones of the mover and
the resulting board equals the board before that move.  The outcome of a forbidden placement is
engines.errors.IllegalMove (a plain Python module) with its Reason.
"""
import math

from engines.games.reference.go import group  # (stones, liberties) of the group at (i, j): the same flood fill
from engines.errors import IllegalMove, Reason

SIZE = 5
KOMI = 2.5
MAX_MOVES = SIZE * SIZE - 1  # the game ends after move 24 (passes count)


def empty_board() -> list[list[int]]:
    return [[0] * SIZE for _ in range(SIZE)]


def copy_board(board) -> list[list[int]]:
    return [list(row) for row in board]


def neighbours(i: int, j: int):
    for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
        if 0 <= a < SIZE and 0 <= b < SIZE:
            yield a, b


def has_liberty(board, i: int, j: int) -> bool:
    return bool(group(board, i, j)[1])


def dead_stones(board, colour: int) -> list[tuple[int, int]]:
    """The stones of colour in groups without liberty, in board order."""
    return [(i, j) for i in range(SIZE) for j in range(SIZE)
            if board[i][j] == colour and not has_liberty(board, i, j)]


def remove_dead(board, colour: int) -> list[tuple[int, int]]:
    """Remove every group of colour without liberty (in place); returns the stones removed."""
    dead = dead_stones(board, colour)
    for i, j in dead:
        board[i][j] = 0
    return dead


def place(board, previous, died: bool, colour: int, i: int, j: int) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """(new board, stones captured) after colour's stone at (i, j) on board.  ``previous`` is the
    board before the last move and ``died`` whether that move captured stones of colour (the ko
    test needs both).  IllegalMove with Reason OUT_OF_RANGE, OCCUPIED, SUICIDE or KO, checked in
    that order."""
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        raise IllegalMove(Reason.OUT_OF_RANGE, detail=f"{i},{j}")
    if board[i][j] != 0:
        raise IllegalMove(Reason.OCCUPIED, detail=f"{i},{j}")
    after = copy_board(board)
    after[i][j] = colour
    if has_liberty(after, i, j):
        return after, remove_dead(after, 3 - colour)
    captured = remove_dead(after, 3 - colour)
    if not has_liberty(after, i, j):
        raise IllegalMove(Reason.SUICIDE, detail=f"{i},{j}")
    if died and after == previous:
        raise IllegalMove(Reason.KO, detail=f"{i},{j}")
    return after, captured


def stones(board) -> tuple[int, int]:
    """(black stones, white stones)."""
    flat = [v for row in board for v in row]
    return flat.count(1), flat.count(2)


def black_wins(board, komi: float = KOMI) -> bool:
    """The host's score: stones on the board only; Black wins iff B > W + komi."""
    b, w = stones(board)
    return b > w + komi


class Position:
    """A position as the host judges it: the board, the board before the last move, whether that
    move captured stones of the player to move, and who is to move (1 or 2)."""

    def __init__(self, board, previous, died: bool, colour: int):
        self.board, self.previous, self.died, self.colour = board, previous, died, colour

    @classmethod
    def from_input(cls, colour: int, previous, current) -> "Position":
        """The position of the host's file (previous: the board after the mover's own last move)."""
        died = any(previous[i][j] == colour and current[i][j] == 0 for i in range(SIZE) for j in range(SIZE))
        return cls(current, previous, died, colour)

    def placements(self) -> list[tuple[tuple[int, int], "Position", int]]:
        """[(point, next position, stones captured)] of every valid placement, in board order."""
        out = []
        for i in range(SIZE):
            for j in range(SIZE):
                if self.board[i][j] == 0:
                    try:
                        after, captured = place(self.board, self.previous, self.died, self.colour, i, j)
                    except IllegalMove:
                        continue
                    out.append(((i, j), Position(after, self.board, bool(captured), 3 - self.colour),
                                len(captured)))
        return out

    def most_captures(self) -> list[tuple[int, int]]:
        """The valid placements capturing the most stones, in board order ([] when there is none)."""
        placements = self.placements()
        most = max((n for _, _, n in placements), default=0)
        return [p for p, _, n in placements if n == most]


# ---- judging the host's input (the player, before its engine loads) ---------------------------------
def why_unreachable(turn) -> str | None:
    """Why the host's input boards (turn: colour, previous board, current board) cannot be a game's, or None
    when they can: neither has a chain without liberty, and the current one follows the previous by
    one opponent move (a stone and the captures it makes, or a pass).  The player plays such boards
    all the same (the host is the authority)."""
    colour, previous, current = turn
    opp = 3 - colour
    for name, board in (("previous", previous), ("current", current)):
        if any(dead_stones(board, c) for c in (1, 2)):
            return f"the {name} board has a chain without liberties"
    if previous == current:
        return None  # the opponent passed (or the game starts)
    points = [(i, j) for i in range(SIZE) for j in range(SIZE) if previous[i][j] != current[i][j]]
    added = [(i, j) for i, j in points if current[i][j]]
    gone = [(i, j) for i, j in points if not current[i][j]]
    why = None
    if len(added) != 1 or previous[added[0][0]][added[0][1]] != 0 or current[added[0][0]][added[0][1]] != opp:
        why = f"the current board must differ from the previous one by one new stone of the opponent ({opp})"
    elif any(previous[i][j] != colour for i, j in gone):
        why = f"only our stones ({colour}) can disappear, captured by the opponent's move"
    else:
        i, j = added[0]
        try:
            after, _ = place(previous, previous, False, opp, i, j)
        except IllegalMove:
            why = f"the opponent's stone at {i},{j} could not have been played"
        else:
            if after != current:
                why = f"the stones captured by the opponent's move at {i},{j} do not match"
    return f"the boards cannot follow each other: {why}" if why else None


def host_moves(turn) -> dict:
    """{point: the board after it} of every stone the host accepts on the current board as given
    (its ko judged against the previous board), in board order."""
    return {point: after.board for point, after, _ in Position.from_input(*turn).placements()}


def engine_board(board) -> list[list[int]]:
    """The board for the engine: chains without liberty left out (only an impossible board has
    them; the host removes the opponent's with our next stone, ours with the opponent's)."""
    clean = copy_board(board)
    for colour in (1, 2):
        for i, j in dead_stones(board, colour):
            clean[i][j] = 0
    return clean


class SearchRules:
    """The host's game as engines/players/coldstart.py's ``fallback_search`` reads it.  A node is
    (Position, moves played before it, whether a pass ended the game).  The game ends after move
    MAX_MOVES (passes count) or at a pass onto an unchanged board (the previous board equals the
    current one: the opponent passed, or nothing was played yet); it is scored by stones only, White
    getting ``komi``.  A pass is a move only when no stone can be placed or when it ends the game
    (where a shallow search would pass away stones it could still place, passing rarely pays)."""

    def __init__(self, komi: float = KOMI):
        self.komi = komi

    @staticmethod
    def node(colour: int, previous, current, moves_played: int):
        return Position.from_input(colour, previous, current), moves_played, False

    def moves(self, node) -> list:
        position, played, ended = node
        if ended or played >= MAX_MOVES:
            return []
        points = [p for p, _, _ in position.placements()]
        return points + [None] if not points or position.previous == position.board else points

    def play(self, node, move):
        position, played, _ = node
        if move is None:
            ended = position.previous == position.board
            return Position(position.board, position.board, False, 3 - position.colour), played + 1, ended
        after, captured = place(position.board, position.previous, position.died, position.colour, *move)
        return Position(after, position.board, bool(captured), 3 - position.colour), played + 1, False

    def margin(self, node) -> float:
        """Black's stones minus White's and komi, from the side to move's view."""
        b, w = stones(node[0].board)
        score = b - w - self.komi
        return score if node[0].colour == 1 else -score

    def outcome(self, node):
        position, played, ended = node
        if not ended and played < MAX_MOVES:
            return None
        return 1 if self.margin(node) > 0 else -1  # the half point of komi: never a draw

    def evaluate(self, node) -> float:
        """The stone margin squashed into (-1, 1): stones are the score here."""
        return math.tanh(self.margin(node) / 4.0)
