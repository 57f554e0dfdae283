"""Typed errors of the engine: an adapter catches these, never matches message text.

``IllegalMove`` carries a ``Reason``; its message is derived from the reason in one place
(``Reason.sentence``).  ``GameOver`` is the illegal move (or search request) on a final position.
Both are ``ValueError`` subclasses, so callers that only know "bad input" still catch them.
"""
import enum


class Reason(enum.Enum):
    """Why a move cannot be played; the value is the human sentence."""
    OCCUPIED = "the point is occupied"
    SUICIDE = "suicide: the stone would have no liberty"
    KO = "ko: the point may not be retaken now"
    SUPERKO = "superko: the move would repeat an earlier position"
    NO_BRACKET = "it flips no discs (a placement must bracket opponent discs in a line)"
    MUST_PASS = "the side to move has no placement and must pass"
    PASS_NOT_ALLOWED = "a pass is not allowed here (only a side with no placement passes; some variants never pass)"
    OUT_OF_RANGE = "the action is not on the board"
    GAME_OVER = "the game is over"

    @property
    def sentence(self) -> str:
        return self.value


class IllegalMove(ValueError):
    """A move that the rules forbid here.  ``reason`` is a Reason, ``action`` the action (or None);
    ``after`` the state the attempt leaves behind, where the rules give an illegal attempt side
    effects (Go5's: the pass counter reset, a suicide attempt erasing the ko ban), else None."""

    def __init__(self, reason: Reason, action: int | None = None, detail: str = "", after=None):
        self.reason = reason
        self.action = action
        self.after = after
        where = f"illegal move {action}: " if action is not None else "illegal move: "
        super().__init__(where + reason.sentence + (f" ({detail})" if detail else ""))


class GameOver(IllegalMove):
    """Nothing can be played or searched: the position is final."""

    def __init__(self, action: int | None = None):
        super().__init__(Reason.GAME_OVER, action)


class NetworkError(ValueError):
    """A file that is not a usable network (missing, unreadable, not ONNX, no policy weights) or one
    for another board size: the message names the file and what is wrong (raised by
    engines/knowledge/hex/network.py)."""
